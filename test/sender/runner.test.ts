/**
 * The runner (LPREQ-FORMAT section 7) against a test server on 127.0.0.1: requests in file
 * order, a named request sent once per run and read back by later references (in requests
 * and in EXPECTED), requests with checker errors not sent (nor sent as dependencies) unless
 * `# @allow-invalid`, 2xx for requests without assertions, --bail and --grep, cancellation
 * by the signal, progress through events, and no secret in any result.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { runTests, type RunEvents, type TestSource } from '../../server/src/sender';
import { json, startServer, testChecker, type TestServer } from './server';

const TOKEN = 'runner-token-0123456789';
let api: TestServer;
let nextId = 500;

before(async () => {
  api = await startServer((req, res) => {
    const url = new URL(req.url, api.origin);
    const page = Number(url.searchParams.get('page') ?? '1');
    if (url.pathname === '/api/v1/courses/1/modules' && req.method === 'GET') {
      const link: Record<string, string> =
        page < 3 ? { link: `<${api.origin}${url.pathname}?page=${page + 1}>; rel="next"` } : {};
      return json(
        res,
        200,
        [
          { id: page * 2 - 1, name: `M${page * 2 - 1}`, workflow_state: 'active' },
          { id: page * 2, name: `M${page * 2}`, workflow_state: 'active' },
        ],
        link,
      );
    }
    if (url.pathname === '/api/v1/courses/1/modules' && req.method === 'POST') {
      const form = new URLSearchParams(req.body);
      // The server echoes the Authorization header: a report must not show it.
      return json(
        res,
        200,
        {
          id: nextId++,
          name: form.get('module[name]'),
          position: Number(form.get('module[position]') ?? 1),
          workflow_state: 'active',
          echo: req.headers.authorization,
        },
        { 'x-echo': String(req.headers.authorization) },
      );
    }
    if (url.pathname === '/api/v1/courses/1/modules/666') {
      // No answer at all: the connection is dropped.
      res.socket?.destroy();
      return;
    }
    const one = /^\/api\/v1\/courses\/1\/modules\/(\d+)$/.exec(url.pathname);
    if (one && one[1] === '404') return json(res, 404, { errors: [{ message: 'no such module' }] });
    if (one)
      return json(res, 200, {
        id: Number(one[1]),
        name: 'Read back',
        workflow_state: 'active',
        created_at: '2026-11-20T10:00:00Z',
      });
    return json(res, 404, { errors: [{ message: 'no such thing' }] });
  });
});
after(() => api.close());

const environments = () => ({ environments: { local: { base_url: api.origin, course: '1' } }, selected: 'local' });
const source = (file: string, text: string): TestSource => ({ file, text, environments: environments() });
const received = (method: string, path: string) =>
  api.received.filter((r) => r.method === method && new URL(r.url, api.origin).pathname === path).length;

const FLOW = `@week = Week 5

### Create a module
# @name createModule
POST /api/v1/courses/{{course}}/modules

module[name] = {{week}}
module[position] = 2

?? status == 200
?? body $.name == {{week}}
?? body $.position >= 1
?? header x-echo startsWith Bearer

###
# @name readBack
GET /api/v1/courses/{{course}}/modules/{{createModule.response.body.$.id}}
?? body $.id == {{createModule.response.body.$.id}}
?? body $.created_at < {{$isoTimestamp}}

### No assertions: passes on 2xx
GET /api/v1/courses/1/modules/{{createModule.response.body.$.id}}

### No assertions: fails on 404
GET /api/v1/courses/1/modules/404
`;

test('requests run in file order; a named request is sent once, and later references (in EXPECTED too) read its answer', async () => {
  const before = received('POST', '/api/v1/courses/1/modules');
  const events: string[] = [];
  const track: RunEvents = {
    fileStarted: (file, requests) => events.push(`start ${file} ${requests.map((r) => r.line).join(',')}`),
    requestStarted: (_f, r) => events.push(`request ${r.line}`),
    // The exchange itself, for a host that shows the response: the status it answered.
    requestSent: (_f, r, exchange) => events.push(`sent ${r.line} ${exchange.response?.status}`),
    requestFinished: (_f, r) => events.push(`done ${r.line} ${r.passed}`),
    fileFinished: (f) => events.push(`end ${f.file} ${f.requests.length}`),
  };
  const run = await runTests([source('flow.lpreq', FLOW)], { checker: testChecker(), token: TOKEN, events: track });
  assert.equal(received('POST', '/api/v1/courses/1/modules') - before, 1, 'createModule is sent once');
  const [file] = run.files;
  assert.deepEqual(
    file.requests.map((r) => [r.name, r.line, r.status, r.passed, r.skipped]),
    [
      ['Create a module', 5, 200, true, false],
      ['readBack', 17, 200, true, false],
      ['No assertions: passes on 2xx', 22, 200, true, false],
      ['No assertions: fails on 404', 25, 404, false, false],
    ],
  );
  assert.deepEqual(
    file.requests[0].assertions.map((a) => [a.line, a.text, a.passed]),
    [
      [10, '?? status == 200', true],
      [11, '?? body $.name == {{week}}', true],
      [12, '?? body $.position >= 1', true],
      [13, '?? header x-echo startsWith Bearer', true],
    ],
  );
  assert.equal(file.requests[0].assertions[1].expected, 'Week 5');
  // The id the server gave createModule, as readBack's EXPECTED and its actual value.
  assert.equal(file.requests[1].assertions[0].expected, String(nextId - 1));
  assert.equal(file.requests[1].assertions[0].actual, String(nextId - 1));
  assert.equal(file.requests[3].failure?.kind, 'status');
  assert.deepEqual(
    [run.passed, run.failed, run.skipped, run.unreadable, run.bailed, run.cancelled],
    [3, 1, 0, 0, false, false],
  );
  assert.deepEqual(events, [
    'start flow.lpreq 5,17,22,25',
    'request 5',
    'sent 5 200',
    'done 5 true',
    'request 17',
    'sent 17 200',
    'done 17 true',
    'request 22',
    'sent 22 200',
    'done 22 true',
    'request 25',
    'sent 25 404',
    'done 25 false',
    'end flow.lpreq 4',
  ]);
});

test('a token the server echoes is in no result, and each run starts from nothing (no history, a new answer per run)', async () => {
  const first = await runTests([source('flow.lpreq', FLOW)], { checker: testChecker(), token: TOKEN });
  const second = await runTests([source('flow.lpreq', FLOW)], { checker: testChecker(), token: TOKEN });
  const text = JSON.stringify([first, second]);
  assert.ok(!text.includes(TOKEN), 'the token is scrubbed');
  assert.ok(!text.includes(TOKEN.slice(0, 12)), 'no start of it either');
  assert.match(first.files[0].requests[0].assertions[3].actual ?? '', /^"Bearer \*\*\*"$/);
  // The second run created its own module and read that one back.
  assert.notEqual(first.files[0].requests[1].assertions[0].actual, second.files[0].requests[1].assertions[0].actual);
});

test('a request with checker errors is not sent, nor sent as a dependency; # @allow-invalid sends it', async () => {
  const text = `### Missing its name
# @name broken
POST /api/v1/courses/1/modules

module[position] = first

?? status == 400

### Refers to the broken one
GET /api/v1/courses/1/modules/{{broken.response.body.$.id}}

### Refused on purpose, sent anyway
# @allow-invalid
POST /api/v1/courses/1/modules

module[position] = 3

?? status == 200
?? body $.position == 3
`;
  const before = received('POST', '/api/v1/courses/1/modules');
  const run = await runTests([source('invalid.lpreq', text)], { checker: testChecker(), token: TOKEN });
  const [broken, refers, allowed] = run.files[0].requests;
  assert.equal(received('POST', '/api/v1/courses/1/modules') - before, 1, 'only the # @allow-invalid request was sent');
  assert.equal(broken.failure?.kind, 'invalid');
  assert.equal(broken.sent, false);
  assert.equal(broken.status, null);
  assert.deepEqual(broken.diagnostics.map((d) => `${d.line} ${d.code}`).sort(), [
    '3 missing-required',
    '5 invalid-type',
  ]);
  assert.deepEqual(
    broken.assertions.map((a) => [a.line, a.passed, a.actual]),
    [[7, false, null]],
  );
  assert.equal(refers.failure?.kind, 'invalid');
  assert.match(refers.failure?.message ?? '', /'broken'/);
  assert.equal(allowed.passed, true, JSON.stringify(allowed));
  assert.deepEqual([run.passed, run.failed], [1, 2]);
});

test('# @all-pages: assertions see every page merged', async () => {
  const run = await runTests(
    [
      source(
        'pages.lpreq',
        `# @all-pages
GET /api/v1/courses/1/modules
?? body $[5].name == M6
?? body $[6] !exists
?? body $[*].workflow_state == active

### One page without it
GET /api/v1/courses/1/modules
?? body $[2] !exists
`,
      ),
    ],
    { checker: testChecker(), token: TOKEN },
  );
  assert.deepEqual(
    run.files[0].requests.map((r) => r.passed),
    [true, true],
    JSON.stringify(run.files[0].requests.map((r) => r.assertions)),
  );
});

test('--bail skips every later request, in later files too; --grep picks by title, @name or request line', async () => {
  const a = source(
    'a.lpreq',
    '### First\nGET /api/v1/courses/1/modules/404\n\n### Second\nGET /api/v1/courses/1/modules/1\n',
  );
  const b = source('b.lpreq', 'GET /api/v1/courses/1/modules/2\n');
  const bailed = await runTests([a, b], { checker: testChecker(), token: TOKEN, bail: true });
  assert.equal(bailed.bailed, true);
  assert.deepEqual(
    bailed.files.map((f) => f.requests.map((r) => `${r.name}:${r.passed ? 'pass' : r.skipped ? 'skip' : 'fail'}`)),
    [['First:fail', 'Second:skip'], ['GET /api/v1/courses/1/modules/2:skip']],
  );
  assert.deepEqual([bailed.passed, bailed.failed, bailed.skipped], [0, 1, 2]);

  const byTitle = await runTests([a, b], { checker: testChecker(), token: TOKEN, grep: 'SECOND' });
  assert.deepEqual(
    byTitle.files.map((f) => [f.file, f.requests.map((r) => r.name)]),
    [['a.lpreq', ['Second']]],
    'a file none of whose requests matches is not in the run',
  );
  const byLine = await runTests([a, b], { checker: testChecker(), token: TOKEN, grep: 'modules/2' });
  assert.deepEqual(
    byLine.files.map((f) => f.file),
    ['b.lpreq'],
  );
  const byName = await runTests([source('flow.lpreq', FLOW)], {
    checker: testChecker(),
    token: TOKEN,
    grep: 'readback',
  });
  assert.deepEqual(
    byName.files[0].requests.map((r) => [r.name, r.passed]),
    [['readBack', true]],
    'the request it refers to is sent first, though not picked',
  );
});

test('the signal stops the run: what was not run is skipped, and the run says it was cancelled', async () => {
  const controller = new AbortController();
  const run = await runTests([source('flow.lpreq', FLOW), source('b.lpreq', 'GET /api/v1/courses/1/modules/2\n')], {
    checker: testChecker(),
    token: TOKEN,
    signal: controller.signal,
    events: { requestFinished: (_f, r) => (r.line === 17 ? controller.abort() : undefined) },
  });
  assert.equal(run.cancelled, true);
  assert.deepEqual(
    run.files.map((f) => f.requests.map((r) => r.skipped)),
    [[false, false, true, true], [true]],
  );
});

test('a file that could not be read is reported; a request to another origin than confineTo is not sent', async () => {
  const run = await runTests(
    [
      { file: 'binary.lpreq', problem: 'binary (a NUL byte in the first 8 KB)' },
      source('elsewhere.lpreq', 'GET http://localhost:9/api/v1/courses/1/modules/1\n?? status == 200\n'),
    ],
    { checker: testChecker(), token: TOKEN, confineTo: { origin: api.origin, why: 'only the test server' } },
  );
  assert.equal(run.unreadable, 1);
  assert.deepEqual(run.files[0], {
    file: 'binary.lpreq',
    requests: [],
    problem: 'binary (a NUL byte in the first 8 KB)',
  });
  const [elsewhere] = run.files[1].requests;
  assert.equal(elsewhere.sent, false);
  assert.equal(elsewhere.failure?.kind, 'not-sent');
  assert.match(elsewhere.failure?.message ?? '', /only the test server/);
});

test('variables in EXPECTED resolve as the request resolves them; one that cannot be resolved fails its assertion', async () => {
  // An unresolved variable is an error of the checker (the request is not sent) unless the request allows it.
  const run = await runTests(
    [
      source(
        'vars.lpreq',
        `@name = Read back
# @allow-invalid
GET /api/v1/courses/{{course}}/modules/9
?? body $.name == {{name}}
?? body $.id == {{$processEnv MODULE_ID}}
?? body $.name == {{nowhere}}
`,
      ),
    ].map((s) => ({ ...s, system: { processEnv: { MODULE_ID: '9' } } })),
    { checker: testChecker(), token: TOKEN },
  );
  const [r] = run.files[0].requests;
  assert.deepEqual(
    r.assertions.map((a) => a.passed),
    [true, true, false],
  );
  assert.match(r.assertions[2].message, /nowhere/);
});

test('a named request is tried once per run: one that got no answer is not sent again for those that refer to it', async () => {
  const text = `### Gets no answer
# @name lost
GET /api/v1/courses/1/modules/666

### Refers to it
GET /api/v1/courses/1/modules/{{lost.response.body.$.id}}

### Refers to it too
GET /api/v1/courses/1/modules/{{lost.response.body.$.id}}?again=1
`;
  const before = received('GET', '/api/v1/courses/1/modules/666');
  const run = await runTests([source('lost.lpreq', text)], { checker: testChecker(), token: TOKEN });
  assert.equal(received('GET', '/api/v1/courses/1/modules/666') - before, 1);
  const [lost, refers, again] = run.files[0].requests;
  assert.deepEqual([lost.sent, lost.status, lost.failure?.kind], [true, null, 'exchange']);
  for (const r of [refers, again]) {
    assert.equal(r.failure?.kind, 'not-sent');
    assert.match(r.failure?.message ?? '', /'lost', which got no answer earlier in this run/);
  }
});
