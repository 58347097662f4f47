/**
 * Default headers: the editor's `lpreq.defaultHeaders` and an environment's `$defaultHeaders`
 * (both hosts), added unless the request sets them, and checked on the way out like any header.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { prepareRequest } from '../../server/src/sender/prepare';
import { sendBlock } from '../../server/src/sender/send';
import { toCurl } from '../../server/src/sender/curl';
import { doc, startServer, testChecker, type TestServer } from './server';

const TOKEN = 'default-headers-token-0123';
let api: TestServer;
let elsewhere: TestServer;
before(async () => {
  api = await startServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  elsewhere = await startServer((_, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
});
after(async () => {
  await api.close();
  await elsewhere.close();
});

const environments = (base: string) => ({
  environments: { local: { base_url: base, course: '42' } },
  selected: 'local',
  options: {
    local: { defaultHeaders: [['X-Env', 'from-env'] as [string, string], ['Accept', 'text/csv'] as [string, string]] },
  },
});

test('the request wins, then the environment, then the setting; values use variables; lpreq adds its Accept only when none is set', () => {
  const r = prepareRequest(
    testChecker(),
    doc('GET /api/v1/courses/{{course}}/modules\nX-Req: mine\nx-setting: request\n'),
    0,
    {
      environments: environments('http://127.0.0.1:4010'),
      defaultHeaders: [
        ['X-Env', 'from-setting'],
        ['X-Setting', 'setting'],
        ['X-Course', 'course {{course}}'],
      ],
    },
  );
  assert.ok(r.ok, r.ok ? '' : r.error);
  const headers = new Map(r.request.headers.map(([n, v]) => [n.toLowerCase(), v]));
  assert.equal(headers.get('x-req'), 'mine');
  assert.equal(headers.get('x-setting'), 'request');
  assert.equal(headers.get('x-env'), 'from-env');
  assert.equal(headers.get('x-course'), 'course 42');
  assert.equal(headers.get('accept'), 'text/csv');
  assert.equal(r.request.headers.filter(([n]) => n.toLowerCase() === 'accept').length, 1);
  // Copied commands hold them too: they are part of the request.
  assert.match(toCurl(r.request), /X-Course: course 42/);
  // A name that is no header name is refused, not sent.
  const bad = prepareRequest(testChecker(), doc('GET /api/v1/courses/1/modules\n'), 0, {
    defaultHeaders: [['Bad Name', 'x']],
  });
  assert.equal(bad.ok, false);
});

test("a default header that carries the token passes the one check: it goes only to base_url's origin", async () => {
  const options = {
    checker: testChecker(),
    environments: environments(api.origin),
    token: TOKEN,
    defaultHeaders: [['X-Key', TOKEN]] as [string, string][],
    timeoutMs: 5000,
  };
  const home = await sendBlock(doc('GET /api/v1/courses/1/modules\n'), 0, options);
  assert.equal(home.response?.status, 200);
  assert.equal(api.received.at(-1)?.headers['x-key'], TOKEN);
  assert.equal(api.received.at(-1)?.headers['x-env'], 'from-env');
  const away = await sendBlock(doc(`GET ${elsewhere.origin}/api/v1/courses/1/modules\n`), 0, options);
  assert.equal(away.response?.status, 200);
  assert.equal(elsewhere.received.at(-1)?.headers['x-key'], undefined);
  assert.ok(
    away.warnings.some((w) => /X-Key carries the access token/.test(w)),
    away.warnings.join('\n'),
  );
});
