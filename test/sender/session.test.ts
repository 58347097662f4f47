/**
 * The send session (server/src/sender/session.ts), the one send setup of every host: the
 * environment rule and the remembered choice, "no environment" as a state that sends nothing
 * needing one, the chain (the newest answer of the same request in the same environment, only
 * one it expects, a clear message otherwise), and a mock run's variables.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { bundledCatalog } from '../../server/src/catalogData';
import { decideEnvironment, parseDocument } from '../../server/src/core';
import { defaultSeed, mockVariables } from '../../server/src/mock';
import { startMockRun } from '../../server/src/mockRun';
import {
  HistoryStore,
  memoryInProcess,
  projectMemory,
  runTests,
  SendSession,
  SetupError,
  type SessionHost,
} from '../../server/src/sender';
import { tempDir } from '../helpers';
import { json, startServer, testChecker, type TestServer } from './server';

/** Two APIs, as a user's dev and staging: each answers the modules of its own ids, and 401 to any other token. */
let dev: TestServer;
let staging: TestServer;
const TOKENS = { dev: 'dev-token-0123456789', staging: 'staging-token-0123456789' };
const handler =
  (ids: number[], token: string) =>
  (req: { url: string; headers: Record<string, unknown> }, res: Parameters<Parameters<typeof startServer>[0]>[1]) => {
    if (req.headers.authorization !== `Bearer ${token}`)
      return json(res, 401, { errors: [{ message: 'Invalid access token.' }] });
    const one = /\/modules\/(\d+)$/.exec(req.url);
    if (one) return json(res, 200, { id: Number(one[1]), name: `Module ${one[1]}`, position: 1, items_count: 0 });
    return json(
      res,
      200,
      ids.map((id, i) => ({ id, name: `Module ${id}`, position: i + 1, items_count: 0 })),
    );
  };
before(async () => {
  dev = await startServer(handler([5, 6], TOKENS.dev));
  staging = await startServer(handler([7, 8], TOKENS.staging));
});
after(async () => {
  await dev.close();
  await staging.close();
});

const CHAIN = [
  '### List',
  '# @name list',
  'GET {{base_url}}/api/v1/courses/42/modules',
  '',
  '### The first',
  '# @name first',
  'GET {{base_url}}/api/v1/courses/42/modules/{{list.response.body.$[0].id}}',
  '',
].join('\n');

/** A project with `dev` and `staging` (no `local`), each with its token in the private file. */
function project(environments?: Record<string, Record<string, string>>): { dir: string; file: string } {
  const dir = tempDir('session');
  writeFileSync(
    join(dir, 'http-client.env.json'),
    JSON.stringify(environments ?? { dev: { base_url: dev.origin }, staging: { base_url: staging.origin } }),
  );
  if (!environments)
    writeFileSync(
      join(dir, 'http-client.private.env.json'),
      JSON.stringify({ dev: { token: TOKENS.dev }, staging: { token: TOKENS.staging } }),
    );
  mkdirSync(join(dir, '.git'));
  const file = join(dir, 'chain.lpreq');
  writeFileSync(file, CHAIN);
  return { dir, file };
}

function session(host: Partial<SessionHost> = {}): SendSession {
  return new SendSession({ env: {}, chooseWith: '--env', memory: memoryInProcess(), ...host }, testChecker());
}

describe('the environment rule', () => {
  test('given, else remembered, else the only one, else local, else ask; "no environment" is a choice', () => {
    const cases: [string[], Parameters<typeof decideEnvironment>[1], string][] = [
      [['dev', 'staging'], {}, 'ask'],
      [['dev', 'staging', 'local'], {}, 'chosen local local'],
      [['dev'], {}, 'chosen dev only'],
      [['local', 'prod'], { remembered: 'prod' }, 'chosen prod remembered'],
      [['dev', 'staging'], { remembered: 'gone' }, 'ask'],
      [['dev', 'staging'], { remembered: null }, 'none chosen'],
      [['dev', 'staging'], { given: 'staging', remembered: 'dev' }, 'chosen staging given'],
      [['dev', 'staging'], { given: null, remembered: 'dev' }, 'none chosen'],
      [['dev', 'staging'], { given: 'prod' }, 'unknown prod'],
      [['dev', 'staging', 'local'], { preferred: 'dev' }, 'chosen dev default'],
      [['dev', 'staging'], { remembered: 'staging', preferred: 'dev' }, 'chosen staging remembered'],
      [[], {}, 'none no-environments'],
      [['$shared', 'dev'], {}, 'chosen dev only'],
    ];
    for (const [names, input, expected] of cases) {
      const a = decideEnvironment(names, input);
      const shown = [a.state, 'name' in a ? a.name : undefined, 'why' in a ? a.why : undefined]
        .filter((x) => x !== undefined)
        .join(' ');
      assert.equal(shown, expected, `${names.join(',')} ${JSON.stringify(input)}`);
    }
  });

  test('several environments and none chosen: the command line is told which --env values exist', async () => {
    const { file } = project();
    await assert.rejects(
      session().setup(file),
      (e: Error) =>
        e instanceof SetupError &&
        /choose one with --env dev or --env staging/.test(e.message) &&
        !/local/.test(e.message.replace('none is called local', '')),
    );
  });

  test('the editor is asked instead, and its answer is remembered for the project, where every host reads it', async () => {
    const { dir, file } = project();
    const asked: string[][] = [];
    const s = session({ memory: projectMemory, pickEnvironment: async (names) => (asked.push([...names]), 'staging') });
    const setup = await s.setup(file);
    assert.deepEqual(asked, [['dev', 'staging']]);
    assert.equal(setup.selected, 'staging');
    assert.equal(setup.token, TOKENS.staging);
    // Another host (a new session, as `lpreq send` is) reads the same choice.
    const other = new SendSession({ env: {}, chooseWith: '--env' }, testChecker());
    assert.deepEqual(
      { ...other.answer(dir), projectFolder: undefined },
      { state: 'chosen', name: 'staging', why: 'remembered', names: ['dev', 'staging'], projectFolder: undefined },
    );
    assert.equal((await other.setup(file)).selected, 'staging');
  });

  test('a host that keeps tokens gives the one of the chosen environment, and the others go nowhere', async () => {
    const { file } = project();
    const s = session({
      token: async (environment, origin) => ({ token: `${environment}-kept-token@${origin}` }),
      otherTokens: async (chosen, names) => names.filter((n) => n !== chosen).map((n) => `${n}-kept-token`),
    });
    const setup = await s.setup(file, { environment: 'dev' });
    assert.equal(setup.token, `dev-kept-token@${dev.origin}`);
    assert.equal(setup.tokenFrom, 'host');
    assert.deepEqual(setup.foreignTokens, ['staging-kept-token']);
  });
});

describe('no environment', () => {
  test('a request that needs {{base_url}} is not sent, and the message says to choose one', async () => {
    const { dir, file } = project();
    const s = session();
    s.remember(dir, null);
    const before = dev.received.length + staging.received.length;
    const { result, setup } = await s.send(parseDocument(CHAIN), 0, { file });
    assert.equal(setup.selected, undefined);
    assert.equal(result.response, undefined);
    assert.match(
      result.error?.message ?? '',
      /\{\{base_url\}\} comes from an environment, and no environment is chosen: choose one of dev, staging/,
    );
    // Nothing reached either server: not the first environment's, as the editor once sent.
    assert.equal(dev.received.length + staging.received.length, before);
  });
});

describe('the chain', () => {
  test("reads the answer of its own environment only: staging's ids never go to dev", async () => {
    const { file } = project();
    const s = session();
    const document = parseDocument(CHAIN);
    for (const [environment, server, id] of [
      ['dev', dev, 5],
      ['staging', staging, 7],
      ['dev', dev, 5],
      ['staging', staging, 7],
    ] as const) {
      const from = server.received.length;
      const { result } = await s.send(document, 1, { file, environment });
      assert.equal(result.response?.status, 200, result.error?.message);
      const urls = server.received.slice(from).map((r) => r.url);
      assert.equal(urls[urls.length - 1], `/api/v1/courses/42/modules/${id}`, `${environment}: ${urls.join(' ')}`);
    }
    // Each environment's list was sent once, then read from memory.
    assert.equal(dev.received.filter((r) => r.url === '/api/v1/courses/42/modules').length, 1);
    assert.equal(staging.received.filter((r) => r.url === '/api/v1/courses/42/modules').length, 1);
  });

  test('the newest of memory and history is read; a newer one in the history (another host) wins', async () => {
    const { dir, file } = project();
    const history = new HistoryStore(join(dir, '.lpreq', 'history'));
    const a = session({ history: () => history });
    const b = session({ history: () => history });
    const document = parseDocument(CHAIN);
    await a.send(document, 0, { file, environment: 'dev' });
    const listed = dev.received.length;
    // Another process (b) sends the list later: a, which kept its own answer, reads b's newer one.
    await b.send(document, 0, { file, environment: 'dev' });
    assert.equal(dev.received.length, listed + 1);
    const { result } = await a.send(document, 1, { file, environment: 'dev' });
    assert.equal(result.dependencies[0]?.historyTime !== undefined, true, JSON.stringify(result.dependencies));
  });

  test('a 401 dependency gives the chain message naming the request, the environment and the status, not a network error', async () => {
    const { file } = project();
    const s = session({ env: { LPREQ_TOKEN: 'wrong-token-0000' } });
    const { result } = await s.send(parseDocument(CHAIN), 1, { file, environment: 'dev' });
    assert.equal(result.error?.kind, 'dependency');
    assert.match(
      result.error?.message ?? '',
      /^not sent: this request reads the response of 'list' in the environment 'dev', and 'list', sent first, answered 401 Unauthorized: its body is an error/,
    );
    assert.doesNotMatch(result.error?.message ?? '', /network|\$\[0\]\.id is not/i);
    assert.deepEqual(result.error?.kind === 'dependency' && result.error.dependency, {
      name: 'list',
      environment: 'dev',
      status: 401,
    });
    // The dependency was sent once, and the request itself not at all.
    assert.equal(result.request, undefined);
  });

  test('a failed answer in memory is sent again first; one a test run got is told, not asked for twice', async () => {
    const { file } = project();
    let refuse = true;
    const host = { env: {}, token: async () => ({ token: refuse ? 'wrong-token-0000' : TOKENS.dev }) };
    const s = session(host);
    const document = parseDocument(CHAIN);
    await s.send(document, 0, { file, environment: 'dev' });
    refuse = false;
    const { result } = await s.send(document, 1, { file, environment: 'dev' });
    assert.equal(result.response?.status, 200, result.error?.message);
    assert.deepEqual(
      result.dependencies.map((d) => [d.name, d.status, d.historyUnusable]),
      [['list', 200, 'answered 401']],
    );
  });

  test('a request meant to be refused chains on the status its own `?? status` assertion expects', async () => {
    const { file } = project();
    const text = [
      '# @name refused',
      'GET {{base_url}}/api/v1/courses/42/modules',
      'Authorization: Bearer not-the-token',
      '?? status == 401',
      '',
      '###',
      'GET {{base_url}}/api/v1/courses/42/modules/{{refused.response.body.$.errors[0].message}}',
      '',
    ].join('\n');
    const { result } = await session().send(parseDocument(text), 1, { file, environment: 'dev' });
    assert.equal(result.response?.status, 200, result.error?.message);
    assert.match(result.request?.url ?? '', /modules\/Invalid%20access%20token\.$/);
  });
});

describe('a mock run', () => {
  test('offers its seeded data as variables named after the documented placeholders, tied together', () => {
    const vars = new Map(mockVariables(bundledCatalog(), defaultSeed()).map((v) => [v.name, v.value]));
    assert.equal(vars.get('course_id'), '42');
    assert.equal(vars.get('user_id'), '7');
    // The module is one of course 42, the item one of that module, the question one of the quiz.
    assert.equal(vars.get('module_id'), '5');
    assert.equal(vars.get('module_item_id'), '21');
    assert.equal(vars.get('quiz_id'), '9');
    assert.equal(vars.get('quiz_question_id'), '101');
    for (const name of ['account_id', 'assignment_id', 'file_id', 'folder_id', 'section_id', 'group_id'])
      assert.ok(vars.has(name), name);
  });

  test("runs a dev/staging repository's files without any environment, and names once a variable neither gives", async () => {
    const dir = tempDir('session-mock');
    writeFileSync(
      join(dir, 'http-client.env.json'),
      JSON.stringify({
        dev: { base_url: 'https://dev.example', course_id: '42' },
        staging: { base_url: 'https://staging.example', course_id: '42' },
      }),
    );
    const text = [
      '# @name list',
      'GET {{base_url}}/api/v1/courses/{{course_id}}/modules',
      '###',
      'GET {{base_url}}/api/v1/courses/{{course_id}}/modules/{{module_id}}',
      '###',
      'GET {{base_url}}/api/v1/courses/{{course_id}}/quizzes/{{quiz_id}}/submissions/{{quiz_submission_number}}',
      '###',
      'GET {{base_url}}/api/v1/users/{{user_id}}/files?search_term={{quiz_submission_number}}',
      '',
    ].join('\n');
    writeFileSync(join(dir, 'a.lpreq'), text);
    const mock = await startMockRun('--mock');
    try {
      const s = session();
      const { source, setup } = await s.testSource(join(dir, 'a.lpreq'), { display: 'a.lpreq', text, mock });
      assert.equal(setup.selected, undefined, 'no environment is chosen, and none is needed');
      const notes = s.missingFromMock([source], mock);
      assert.equal(notes.length, 1, notes.join('\n'));
      assert.match(
        notes[0],
        /^\{\{quiz_submission_number\}\} is not given by the mock, and no environment lends its variables \(the mock offers .*course_id/,
      );
      const result = await runTests([source], { ...s.runOptions([setup], mock), checker: testChecker() });
      assert.deepEqual(
        result.files[0].requests.map((r) => [r.status, r.passed]),
        [
          [200, true],
          [200, true],
          [null, false],
          [null, false],
        ],
      );
      // With an environment given, its variables are lent, with base_url at the mock.
      const lent = await s.testSource(join(dir, 'a.lpreq'), { display: 'a.lpreq', text, mock, environment: 'staging' });
      assert.equal(lent.source.environments?.selected, 'staging');
      assert.equal(lent.source.environments?.environments.staging.base_url, mock.url);
      assert.match(
        s.missingFromMock([lent.source], mock)[0],
        /given neither by the environment 'staging' nor by the mock/,
      );
    } finally {
      await mock.close();
    }
  });
});
