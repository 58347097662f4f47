/**
 * Errors and faults on demand (issue 30): `Prefer: code=NNN` and the `--faults` rules, over
 * HTTP on 127.0.0.1. Nothing here waits on a clock: the delay rule is in test/system.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Faults, FaultsError, parseFaults } from '../../server/src/mock/faults';
import type { RequestLogEntry } from '../../server/src/mock/index';
import { errorsOf, withMock } from './mockClient';
import { PRIYA, USERS } from './seedUsers';

type Obj = Record<string, unknown>;

test('a rules file: every kind of rule is read, with its line', () => {
  const plan = parseFaults(
    [
      '# faults of the nightly run',
      'seed 7',
      'GET  /api/v1/courses/{id}/modules     status=503 rate=0.5',
      'POST /api/v1/courses/**  user=1001   status=429 retry-after=30 count=2',
      '*    /api/v1/**                     delay=300ms rate=10%   # slow everything a little',
      'GET  /api/v1/courses/42/files        reset count=1',
      'GET  /api/v1/folders/*/files         cut=100 rate=0.2 count=3',
      'PUT  /api/v1/files/*                 delay=2s status=500 rate=1',
    ].join('\n'),
  );
  assert.equal(plan.seed, 7);
  assert.deepEqual(
    plan.rules.map((r) => [
      r.line,
      r.method,
      r.user,
      r.status,
      r.retryAfter,
      r.delayMs,
      r.reset,
      r.cut,
      r.rate,
      r.count,
    ]),
    [
      [3, 'GET', undefined, 503, undefined, undefined, undefined, undefined, 0.5, undefined],
      [4, 'POST', 1001, 429, 30, undefined, undefined, undefined, undefined, 2],
      [5, '*', undefined, undefined, undefined, 300, undefined, undefined, 0.1, undefined],
      [6, 'GET', undefined, undefined, undefined, undefined, true, undefined, undefined, 1],
      [7, 'GET', undefined, undefined, undefined, undefined, undefined, 100, 0.2, 3],
      [8, 'PUT', undefined, 500, undefined, 2000, undefined, undefined, 1, undefined],
    ],
  );
  const [modules, , all] = plan.rules;
  assert.ok(modules.pattern.test('/api/v1/courses/42/modules'));
  assert.ok(!modules.pattern.test('/api/v1/courses/42/modules/5'));
  assert.ok(all.pattern.test('/api/v1/courses/42/modules/5/items'));
  assert.ok(all.pattern.test('/api/v1'));
  assert.ok(!all.pattern.test('/api/lti/subscriptions'));
});

test('a bad rules file: the line and what is wrong with it', () => {
  const lineOf = (text: string) => {
    try {
      parseFaults(text);
    } catch (e) {
      assert.ok(e instanceof FaultsError, String(e));
      assert.ok(e.message.length > 10);
      return [e.line, e.message];
    }
    assert.fail(`no error for ${text}`);
  };
  const bad: [string, number, RegExp][] = [
    ['GET /x stat=503 rate=1', 1, /did you mean status=/],
    ['\n\nGET /x status=200 rate=1', 3, /400 to 599/],
    ['GET /x status=503', 1, /how often/],
    ['GET /x rate=0.5', 1, /gives a fault/],
    ['GET /x status=503 rate=1.5', 1, /rate/],
    ['GET /x status=503 reset count=1', 1, /one of/],
    ['FETCH /x status=503 count=1', 1, /method/],
    ['GET x status=503 count=1', 1, /starts with \//],
    ['seed 1\nseed 2', 2, /twice/],
    ['GET /x status=500 retry-after=3 count=1', 1, /retry-after goes with/],
    ['GET /x delay=2h count=1', 1, /delay/],
    ['GET /x status=503 count=0', 1, /count=0/],
  ];
  for (const [text, line, message] of bad) {
    const [got, said] = lineOf(text);
    assert.equal(got, line, text);
    assert.match(String(said), message, text);
  }
});

test('the seed makes a run repeatable: the same requests get the same faults; another seed, others', () => {
  const decisions = (seed: number) => {
    const faults = new Faults(parseFaults(`seed ${seed}\nGET /api/v1/** status=503 rate=0.3`));
    return Array.from({ length: 200 }, (_, i) =>
      faults.decide('GET', `/api/v1/courses/42/modules/${i % 7}`, 7) ? 1 : 0,
    ).join('');
  };
  assert.equal(decisions(11), decisions(11));
  assert.notEqual(decisions(11), decisions(12));
  const share = [...decisions(11)].filter((d) => d === '1').length / 200;
  assert.ok(share > 0.15 && share < 0.45, `about a third at rate 0.3, not ${share}`);
});

test('a count stops the faults; a rule that matches nothing gives none, and is named unmatched', () => {
  const faults = new Faults(
    parseFaults(
      ['GET /api/v1/courses/*/modules status=500 count=2', 'DELETE /api/v1/nothing/** reset rate=1'].join('\n'),
    ),
  );
  const got = Array.from({ length: 5 }, () => faults.decide('GET', '/api/v1/courses/42/modules', 7)?.label);
  assert.deepEqual(got, ['status=500 (line 1)', 'status=500 (line 1)', undefined, undefined, undefined]);
  assert.equal(faults.decide('DELETE', '/api/v1/courses/42', 7), undefined);
  assert.deepEqual(
    faults.unmatched().map((r) => r.line),
    [2],
  );
});

test('--faults over HTTP: a status (state unchanged), 429 with Retry-After, by user, logged and in Lpreq-Fault', async () => {
  const log: RequestLogEntry[] = [];
  await withMock(
    async (call) => {
      const before = ((await call('GET', '/api/v1/courses/42/modules?per_page=100')).body as Obj[]).length;
      const create = await call('POST', '/api/v1/courses/42/modules', { form: { 'module[name]': 'Never made' } });
      assert.equal(create.status, 503);
      assert.equal(create.headers.get('lpreq-fault'), 'status=503 (line 1)');
      assert.equal(errorsOf(create)[0].code, 'fault');
      const after = ((await call('GET', '/api/v1/courses/42/modules?per_page=100')).body as Obj[]).length;
      assert.equal(after, before, 'the handler did not run');

      const student = await call('GET', '/api/v1/courses', { token: PRIYA });
      assert.equal(student.status, 429);
      assert.equal(student.headers.get('retry-after'), '30');
      const teacher = await call('GET', '/api/v1/courses');
      assert.equal(teacher.status, 200, 'the rule is for user 1001 only');
      assert.equal(teacher.headers.get('lpreq-fault'), null);
    },
    {
      ...USERS,
      faults: parseFaults(
        [
          'POST /api/v1/courses/*/modules status=503 count=1',
          'GET /api/v1/courses user=1001 status=429 retry-after=30 rate=1',
        ].join('\n'),
      ),
      onRequest: (e) => log.push(e),
    },
  );
  assert.deepEqual(
    log.filter((e) => e.fault).map((e) => [e.method, e.status, e.fault]),
    [
      ['POST', 503, 'status=503 (line 1)'],
      ['GET', 429, 'status=429 (line 2)'],
    ],
  );
});

test('--faults over HTTP: a connection reset, and a body cut short', async () => {
  const log: RequestLogEntry[] = [];
  await withMock(
    async (call, mock) => {
      await assert.rejects(fetch(`${mock.url}/api/v1/courses/42/files`, { headers: { Authorization: 'Bearer t' } }));
      const again = await call('GET', '/api/v1/courses/42/files');
      assert.equal(again.status, 200, 'count=1: the next one is answered');

      const cut = await fetch(`${mock.url}/api/v1/courses/42/modules`, { headers: { Authorization: 'Bearer t' } });
      assert.equal(cut.status, 200);
      assert.equal(cut.headers.get('lpreq-fault'), 'cut=40 (line 2)');
      assert.ok(Number(cut.headers.get('content-length')) > 40);
      await assert.rejects(cut.text(), 'the body ends before its Content-Length');
    },
    {
      faults: parseFaults(
        ['GET /api/v1/courses/42/files reset count=1', 'GET /api/v1/courses/*/modules cut=40 count=1'].join('\n'),
      ),
      onRequest: (e) => log.push(e),
    },
  );
  const faulted = log.filter((e) => e.fault).map((e) => [e.target, e.status, e.fault]);
  assert.deepEqual(faulted, [
    ['/api/v1/courses/42/files', 0, 'reset (line 1)'],
    ['/api/v1/courses/42/modules', 200, 'cut=40 (line 2)'],
  ]);
});

test('--faults over HTTP: the same run twice gets the same faults', async () => {
  const run = () =>
    withMock(
      async (call) => {
        const statuses: number[] = [];
        for (let i = 0; i < 30; i++)
          statuses.push((await call('GET', `/api/v1/courses/42/modules/${5 + (i % 3)}`)).status);
        seen.push(statuses.join(','));
      },
      { faults: parseFaults('seed 99\nGET /api/v1/courses/42/modules/* status=502 rate=0.4') },
    );
  const seen: string[] = [];
  await run();
  await run();
  assert.equal(seen[0], seen[1]);
  assert.ok(seen[0].includes('502') && seen[0].includes('200'), seen[0]);
});

test('Prefer: code=NNN answers the documented error of the endpoint for that status, and changes nothing', () =>
  withMock(async (call) => {
    const documented = await call('POST', '/api/v1/courses/42/quizzes/55/submissions', {
      headers: { Prefer: 'code=409' },
    });
    assert.equal(documented.status, 409);
    assert.deepEqual(errorsOf(documented)[0], {
      message: 'a quiz submission already exists for this user and quiz',
      code: 'documented-error',
    });
    assert.equal(documented.headers.get('preference-applied'), 'code=409');
    assert.equal(documented.headers.get('lpreq-fault'), 'prefer code=409');
    // No attempt was started by it: a real start still works.
    assert.equal((await call('POST', '/api/v1/courses/42/quizzes/55/submissions')).status, 200);

    const plain = await call('GET', '/api/v1/courses/42/modules', { headers: { Prefer: 'code=404' } });
    assert.equal(plain.status, 404);
    assert.equal(errorsOf(plain)[0].code, 'preferred-status');
    const unauthenticated = await call('GET', '/api/v1/courses', { headers: { Prefer: 'code=401' } });
    assert.equal(unauthenticated.status, 401);
    assert.match(String(unauthenticated.headers.get('www-authenticate')), /^Bearer/);

    const before = ((await call('GET', '/api/v1/courses/42/modules?per_page=100')).body as Obj[]).length;
    const server = await call('POST', '/api/v1/courses/42/modules', {
      form: { 'module[name]': 'Never made' },
      headers: { Prefer: 'respond-async, code=500' },
    });
    assert.equal(server.status, 500);
    const after = ((await call('GET', '/api/v1/courses/42/modules?per_page=100')).body as Obj[]).length;
    assert.equal(after, before, 'the state is unchanged');

    const success = await call('GET', '/api/v1/courses/42/modules', { headers: { Prefer: 'code=200' } });
    assert.equal(success.status, 200, 'the success status is the usual answer');
    const redirect = await call('GET', '/api/v1/courses/42/modules', { headers: { Prefer: 'code=302' } });
    assert.equal(redirect.status, 400);
    assert.equal(errorsOf(redirect)[0].code, 'unsupported-preference');
    // A request with errors is answered for them, as Prism answers an invalid request before the preference.
    const invalid = await call('POST', '/api/v1/courses/42/modules', { form: {}, headers: { Prefer: 'code=503' } });
    assert.equal(invalid.status, 400);
  }));
