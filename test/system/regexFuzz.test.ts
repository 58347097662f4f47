/**
 * Issue 26, item 7: the assertion evaluator fuzzed with catastrophic patterns on values up to
 * 1 MB, as the runner evaluates (`matches` off the calling thread): every run ends, as a
 * verdict or as a budget run out (20 ms here), and says which. Most of these patterns the
 * linear engine reads; those with a backreference or lookaround only V8 runs. In the slow
 * tier: each run may take its whole budget and start a worker. No wall-clock time is
 * asserted; a hang is caught by the test's own timeout.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { parseAssertion, type Assertion } from '../../server/src/core/index';
import type { ResponseFacts } from '../../server/src/sender/runner/evaluate';
import { evaluateWithinBudget, stopRegexWorker } from '../../server/src/sender/runner/regexBudget';
import { fuzzRuns } from '../fuzzRuns';

function read(line: string): Assertion {
  const parsed = parseAssertion(line);
  assert.ok(parsed.assertion, line);
  return parsed.assertion;
}

function json(body: unknown): ResponseFacts {
  return { status: 200, durationMs: 1, headers: {}, body, bodyText: JSON.stringify(body), bodyKind: 'json' };
}

/** Patterns whose backtracking grows exponentially (or worse than quadratically) with the value's length. */
const CATASTROPHIC = [
  '^(a|aa)+$',
  '^(a+)+$',
  '^(a*)*b$',
  '(x+x+)+y',
  '^(\\w+\\s?)*$',
  '^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$',
  '/^(a|a?)+$/i',
  '(.*a){20}',
  '^(\\d+)*$',
  '(a|b|ab)*c',
  '^(a|aa)+(?=b)',
  '^(a+)+\\1$',
  '^(?!x)(\\w+\\s?)*$',
];

test(
  'fuzz: catastrophic patterns on values up to 1 MB always end, as a verdict or as a budget run out',
  { timeout: 120_000 },
  async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...CATASTROPHIC),
        fc.constantFrom('a', 'ab', 'x', ' a', '0', 'a@b.'),
        fc.integer({ min: 10, max: 1024 * 1024 }),
        fc.constantFrom('!', 'b', '', '\n'),
        async (pattern, unit, length, tail) => {
          const value = unit.repeat(Math.ceil(length / unit.length)).slice(0, length) + tail;
          const outcome = await evaluateWithinBudget(
            read(`?? body $.v matches ${pattern}`),
            json({ v: value }),
            undefined,
            {
              regexBudgetMs: 20,
            },
          );
          assert.equal(typeof outcome.passed, 'boolean');
          if (!outcome.passed) assert.ok(outcome.message.length > 0);
          assert.ok((outcome.actual ?? '').length < 300, 'the value shown is cut');
        },
      ),
      { numRuns: fuzzRuns(40), seed: 26 },
    );
    await stopRegexWorker();
  },
);
