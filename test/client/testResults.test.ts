/**
 * The Test Explorer's mapping, outside VS Code: the tests a file lists (requests with
 * assertions, their assertions under them, lines and ids), and what a real run of the sender's
 * runner against the built-in mock (started as `lpreq test --mock` starts it) becomes: the
 * state of each request and assertion, and a message at each failing assertion's line with
 * its expected and actual values.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { bundledCatalog } from '../../server/src/catalogData';
import { Checker, LineIndex, parseDocument } from '../../server/src/core/index';
import { startMockRun, type MockRun } from '../../server/src/mockRun';
import { runTests, testsOf, type RequestResult, type RunResult } from '../../server/src/sender/index';
import { assertionOutcome, requestOutcome, testRequests } from '../../client/src/model/testResults';

const checker = new Checker(bundledCatalog());

// Lines (0-based) are noted where the tests read them.
const TEXT = [
  '@course_id = 42', // 0
  '@module_id = 7', // 1
  '', // 2
  '### Read the module', // 3
  'GET {{base_url}}/api/v1/courses/{{course_id}}/modules/{{module_id}}', // 4
  '', // 5
  '?? status == 200', // 6
  '?? body $.name == Week 2: Microscopes', // 7
  '?? body $.items_count >= 1', // 8
  '', // 9
  '### No assertions: passes on a 2xx', // 10
  'GET {{base_url}}/api/v1/courses/{{course_id}}/modules', // 11
  '', // 12
  '### Read the module', // 13
  'GET {{base_url}}/api/v1/courses/{{course_id}}/modules/{{module_id}}', // 14
  '?? body $.id == {{module_id}}', // 15
  '', // 16
  '### Refused before sending', // 17
  'GET {{base_url}}/api/v1/courses/{{course_id}}/modules/{{module_id}}', // 18
  '?? body $.workflow_state == published', // 19
  '',
].join('\n');

function tests(text: string) {
  const document = parseDocument(text);
  return testRequests(document, testsOf(document, new LineIndex(text)));
}

test('the tests of a file: every request, as lpreq test counts them, their assertions under them, with lines and unique ids', () => {
  const list = tests(TEXT);
  assert.deepEqual(
    list.map((t) => [t.id, t.line, t.endLine, t.assertions.map((a) => [a.id, a.line, a.label])]),
    [
      [
        'Read the module',
        4,
        8,
        [
          ['Read the module/0', 6, '?? status == 200'],
          ['Read the module/1', 7, '?? body $.name == Week 2: Microscopes'],
          ['Read the module/2', 8, '?? body $.items_count >= 1'],
        ],
      ],
      ['No assertions: passes on a 2xx', 11, 11, []],
      ['Read the module #2', 14, 15, [['Read the module #2/0', 15, '?? body $.id == {{module_id}}']]],
      ['Refused before sending', 18, 19, [['Refused before sending/0', 19, '?? body $.workflow_state == published']]],
    ],
  );
});

test('an edit above a request moves its lines and keeps its id', () => {
  const before = tests(TEXT);
  const after = tests(`# a comment\n# and another\n${TEXT}`);
  assert.deepEqual(
    after.map((t) => t.id),
    before.map((t) => t.id),
  );
  assert.deepEqual(
    after.map((t) => t.line),
    before.map((t) => t.line + 2),
  );
});

test('a request without assertions is a test too; a broken assertion line is still one (it fails when run)', () => {
  assert.deepEqual(
    tests('GET /api/v1/courses\n').map((t) => [t.id, t.assertions.length]),
    [['GET /api/v1/courses', 0]],
  );
  const broken = tests('GET /api/v1/courses\n?? body $.name ~~ x\n');
  assert.equal(broken.length, 1);
  assert.equal(broken[0].assertions[0].line, 1);
});

let mock: MockRun;
let run: RunResult;

before(async () => {
  mock = await startMockRun('the test');
  run = await runTests(
    [
      {
        file: 'requests.lpreq',
        text: TEXT,
        environments: mock.environments({ files: { environments: {}, privateNames: {} }, selected: undefined }),
      },
    ],
    {
      checker,
      token: mock.token,
      ...mock.options,
    },
  );
});

after(async () => {
  await mock.close();
});

function result(line: number): RequestResult {
  const found = run.files[0].requests.find((r) => r.line === line + 1);
  assert.ok(found, `no result for the request on line ${line}`);
  return found;
}

test('a run against the mock: a failing assertion is a failure at its line, with expected and actual', () => {
  const r = result(4);
  const outcome = requestOutcome(r);
  assert.equal(outcome.state, 'failed');
  assert.equal(typeof outcome.durationMs, 'number');
  assert.deepEqual(
    outcome.messages.map((m) => [m.line, m.expected, m.actual]),
    [[7, 'Week 2: Microscopes', '"Week 2: Microscopy"']],
  );
  assert.deepEqual(
    r.assertions.map((a) => assertionOutcome(r, a).state),
    ['passed', 'failed', 'passed'],
  );
  const failing = assertionOutcome(r, r.assertions[1]);
  assert.equal(failing.messages[0].line, 7);
  assert.match(failing.messages[0].text, /Week 2: Microscopy/);
});

test('a request whose assertions hold passes, and so does each assertion', () => {
  const r = result(14);
  assert.equal(requestOutcome(r).state, 'passed');
  assert.deepEqual(
    r.assertions.map((a) => assertionOutcome(r, a).state),
    ['passed'],
  );
});

test("a request the checker refuses is errored, with the checker's errors at their lines; its assertions were not evaluated", () => {
  const r = result(18);
  const outcome = requestOutcome(r);
  assert.equal(outcome.state, 'errored');
  assert.equal(outcome.messages[0].line, 18);
  assert.ok(
    outcome.messages.some((m) => m.line === 19 && m.text.startsWith('invalid-enum')),
    JSON.stringify(outcome.messages),
  );
  const a = assertionOutcome(r, r.assertions[0]);
  assert.equal(a.state, 'errored');
  assert.equal(a.messages[0].expected, undefined);
});

test('skipped, status and no-answer results map to skipped, failed and errored', () => {
  const base: RequestResult = {
    name: 'x',
    line: 3,
    blockIndex: 0,
    status: null,
    durationMs: 0,
    passed: false,
    skipped: false,
    sent: false,
    assertions: [],
    diagnostics: [],
    warnings: [],
  };
  assert.equal(requestOutcome({ ...base, skipped: true }).state, 'skipped');
  const status = requestOutcome({
    ...base,
    sent: true,
    status: 404,
    failure: { kind: 'status', message: 'answered 404' },
  });
  assert.deepEqual([status.state, status.messages[0].line], ['failed', 2]);
  const refused = requestOutcome({ ...base, sent: true, failure: { kind: 'exchange', message: 'connection refused' } });
  assert.deepEqual([refused.state, refused.messages[0].text], ['errored', 'connection refused']);
});
