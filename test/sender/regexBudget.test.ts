/**
 * Issue 26, item 7: `matches` runs within a time budget, off the calling thread. A pattern the
 * linear engine reads gets its verdict however V8 would backtrack on it; a pattern only a
 * backtracking engine runs (a backreference, lookaround) and that backtracks without end on a
 * value the server chose is a failed assertion that says so, never a hang (the fuzz with
 * catastrophic patterns on values up to 1 MB is test/system/regexFuzz.test.ts). No wall-clock
 * time is asserted: a hang is caught by the tests' own timeout.
 */
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { parseAssertion, type Assertion } from '../../server/src/core/index';
import type { ResponseFacts } from '../../server/src/sender/runner/evaluate';
import { evaluateWithinBudget, firstMismatch, stopRegexWorker } from '../../server/src/sender/runner/regexBudget';

after(() => stopRegexWorker());

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
  "a pattern V8 backtracks on without end gets the linear engine's verdict: it fails as a mismatch, not as a budget run out",
  { timeout: 30_000 },
  async () => {
    const value = `${'a'.repeat(60)}b`;
    const outcome = await evaluateWithinBudget(
      read('?? body $.name matches ^(a|aa)+$'),
      json({ name: value }),
      undefined,
      {
        regexBudgetMs: 200,
      },
    );
    assert.equal(outcome.passed, false);
    assert.doesNotMatch(outcome.message, /budget/);
    assert.equal(outcome.actual, JSON.stringify(value));
    const long = await evaluateWithinBudget(
      read('?? body $.name matches ^(\\w+\\s?)*$'),
      json({ name: 'word '.repeat(5000) }),
      undefined,
      { regexBudgetMs: 200 },
    );
    assert.equal(long.passed, true, long.message);
  },
);

test(
  'a catastrophic pattern only a backtracking engine runs fails the assertion and says it ran out of time',
  { timeout: 30_000 },
  async () => {
    const value = `${'a'.repeat(60)}b`;
    const outcome = await evaluateWithinBudget(
      read('?? body $.name matches ^(a|aa)+(?=c)'),
      json({ name: value }),
      undefined,
      { regexBudgetMs: 50 },
    );
    assert.equal(outcome.passed, false);
    assert.match(outcome.message, /ran out of its time budget \(50 ms\).*backtracking/);
    assert.equal(outcome.actual, JSON.stringify(value));
    // The next assertion gets a worker of its own, and its verdict.
    const next = await evaluateWithinBudget(read('?? body $.name matches ^a+b$'), json({ name: value }), undefined);
    assert.equal(next.passed, true, next.message);
  },
);

test(
  'every value of a [*] selection is tested within one budget; sane patterns still pass and fail as before',
  { timeout: 30_000 },
  async () => {
    const many = json({ items: Array.from({ length: 2000 }, (_, i) => ({ name: `n${i}` })) });
    const evaluate = (line: string, response: ResponseFacts, regexBudgetMs?: number) =>
      evaluateWithinBudget(read(line), response, undefined, { regexBudgetMs });
    assert.equal((await evaluate('?? body $.items[*].name matches ^n\\d+$', many)).passed, true);
    const miss = await evaluate('?? body $.items[*].name matches ^n\\d{1,3}$', many);
    assert.equal(miss.passed, false);
    assert.match(miss.message, /\$\.items\[1000\]\.name: "n1000" does not match \^n\\d\{1,3\}\$/);
    // A /g pattern tests each value from its start.
    assert.equal((await evaluate('?? body $.items[*].name matches /n/g', many)).passed, true);
    const hostile = json({ items: [{ name: 'ok' }, { name: `${'a'.repeat(40)}!` }] });
    const out = await evaluate('?? body $.items[*].name matches ^(a|aa|ok)+(?!x)$', hostile, 50);
    assert.equal(out.passed, false);
    assert.match(out.message, /ran out of its time budget/);
    assert.equal(await firstMismatch(/^a/, ['a', 'b', 'a']), 1);
    assert.equal(await firstMismatch(/^a/, []), -1);
  },
);
