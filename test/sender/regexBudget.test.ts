/**
 * Issue 26, item 7: `matches` runs within a time budget. A pattern that backtracks without
 * end on a value the server chose is a failed assertion that says so, never a hang (the
 * fuzz with catastrophic patterns on values up to 1 MB is test/system/regexFuzz.test.ts).
 * (No wall-clock time is asserted: a hang is caught by the tests' own timeout.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseAssertion, type Assertion } from '../../server/src/core/index';
import { evaluateAssertion, type ResponseFacts } from '../../server/src/sender/runner/evaluate';
import { firstMismatch } from '../../server/src/sender/runner/regexBudget';

function read(line: string): Assertion {
  const parsed = parseAssertion(line);
  assert.ok(parsed.assertion, line);
  return parsed.assertion;
}

function json(body: unknown): ResponseFacts {
  const bodyText = JSON.stringify(body);
  return { status: 200, durationMs: 1, headers: {}, body, bodyText, bodyKind: 'json' };
}

test(
  'a catastrophic pattern on a value the server chose fails the assertion and says it ran out of time',
  { timeout: 30_000 },
  () => {
    const outcome = evaluateAssertion(
      read('?? body $.name matches ^(a|aa)+$'),
      json({ name: `${'a'.repeat(60)}b` }),
      undefined,
      { regexBudgetMs: 50 },
    );
    assert.equal(outcome.passed, false);
    assert.match(outcome.message, /ran out of its time budget \(50 ms\)/);
    assert.equal(outcome.actual, JSON.stringify(`${'a'.repeat(60)}b`));
  },
);

test(
  'every value of a [*] selection is tested within one budget; sane patterns still pass and fail as before',
  { timeout: 30_000 },
  () => {
    const many = json({ items: Array.from({ length: 2000 }, (_, i) => ({ name: `n${i}` })) });
    assert.equal(evaluateAssertion(read('?? body $.items[*].name matches ^n\\d+$'), many, undefined).passed, true);
    const miss = evaluateAssertion(read('?? body $.items[*].name matches ^n\\d{1,3}$'), many, undefined);
    assert.equal(miss.passed, false);
    assert.match(miss.message, /\$\.items\[1000\]\.name is "n1000"/);
    // A /g pattern tests each value from its start.
    assert.equal(evaluateAssertion(read('?? body $.items[*].name matches /n/g'), many, undefined).passed, true);
    const hostile = json({ items: [{ name: 'ok' }, { name: `${'a'.repeat(40)}!` }] });
    const out = evaluateAssertion(read('?? body $.items[*].name matches ^(a|aa|ok)+$'), hostile, undefined, {
      regexBudgetMs: 50,
    });
    assert.equal(out.passed, false);
    assert.match(out.message, /ran out of its time budget/);
    assert.equal(firstMismatch(/^a/, ['a', 'b', 'a']), 1);
    assert.equal(firstMismatch(/^a/, []), -1);
  },
);
