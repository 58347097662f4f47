/**
 * Issue 26, item 7: "the editor never evaluates on the extension host's thread". A `matches`
 * whose pattern only a backtracking engine runs, and that backtracks without end on the value
 * a server chose, is evaluated through the editor's two entries (Send Request's
 * `evaluateBlockAssertions`, the Testing view's `runTests`) while a timer waits on the calling
 * thread: the timer fires before the verdict arrives, so the thread was free. Before, the
 * match ran on the calling thread and held it for the whole budget: the verdict came first.
 * No wall-clock time is asserted, only the order of the two.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { LineIndex, documentScope, parseDocument } from '../../server/src/core/index';
import { evaluateBlockAssertions, runTests, sendBlock } from '../../server/src/sender/index';
import { stopRegexWorker } from '../../server/src/sender/runner/regexBudget';
import { json, startServer, testChecker, type TestServer } from './server';

/** Only V8's backtracking engine runs it (the lookahead), and it tries every split of the a's. */
const HOSTILE = '?? body $.name matches ^(a|aa)+(?=b)';
const VALUE = `${'a'.repeat(64)}!`;
const BUDGET_MS = 300;

let api: TestServer;
before(async () => {
  api = await startServer((_req, res) => json(res, 200, { id: 1, name: VALUE, workflow_state: 'active' }));
});
after(async () => {
  await stopRegexWorker();
  await api.close();
});

const environments = () => ({ environments: { local: { base_url: api.origin } }, selected: 'local' });
const TEXT = ['### A module', 'GET {{base_url}}/api/v1/courses/1/modules/1', '', '?? status == 200', HOSTILE, ''].join(
  '\n',
);

/** A timer of 0 ms on this thread, set now: 'timer' goes to `order` when it fires. */
function timerOn(order: string[]): void {
  setTimeout(() => order.push('timer'), 0);
}

test(
  "Send Request's evaluation (evaluateBlockAssertions, as the client calls it) leaves the calling thread free while a pattern backtracks",
  { timeout: 60_000 },
  async () => {
    const checker = testChecker();
    const document = parseDocument(TEXT);
    const responses = new Map();
    const result = await sendBlock(document, 0, { checker, environments: environments(), responses });
    assert.equal(result.response?.status, 200, JSON.stringify(result.error));
    const order: string[] = [];
    timerOn(order);
    const assertions = await evaluateBlockAssertions(document, 0, result, {
      checker,
      lines: new LineIndex(TEXT),
      values: documentScope(document, environments()).values,
      responses,
      secrets: [],
      regexBudgetMs: BUDGET_MS,
    });
    order.push('verdict');
    assert.deepEqual(order, ['timer', 'verdict'], 'the calling thread was held until the verdict');
    assert.deepEqual(
      assertions.map((a) => a.passed),
      [true, false],
    );
    assert.match(assertions[1].message, new RegExp(`ran out of its time budget \\(${BUDGET_MS} ms\\)`));
  },
);

test(
  "the Testing view's run (runTests) leaves the calling thread free while a pattern backtracks, and reports the budget run out",
  { timeout: 60_000 },
  async () => {
    const order: string[] = [];
    const run = await runTests([{ file: 'hostile.lpreq', text: TEXT, environments: environments() }], {
      checker: testChecker(),
      regexBudgetMs: BUDGET_MS,
      events: {
        // Sent: its assertions are evaluated next.
        requestSent: () => timerOn(order),
        requestFinished: () => order.push('verdict'),
      },
    });
    assert.deepEqual(order, ['timer', 'verdict'], 'the calling thread was held until the verdict');
    const request = run.files[0].requests[0];
    assert.equal(request.passed, false);
    assert.equal(request.failure?.kind, 'assertion');
    assert.match(request.assertions[1].message, /ran out of its time budget/);
  },
);
