/**
 * `lpreq proxy` in process (issue 22, item 3): each request checked by the mock's checker,
 * each JSON response by the sender's typed schemas, violations in `Lpreq-Violations` and in
 * one record per exchange, `strict` answering 400 instead of forwarding, the client's
 * Authorization passed to the target's origin only and never recorded, hop-by-hop headers
 * left at their hop, and plain answers when the target fails.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { startMock } from '../../server/src/mock/index';
import { call, startTarget, until, violationsOf, withProxy } from './proxyHarness';

const json = (
  res: import('node:http').ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
) => {
  const text = JSON.stringify(value);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
};

test('through the mock: a clean exchange is the target answer unchanged, without Lpreq-Violations; a request with warnings carries them', async () => {
  const mock = await startMock({ port: 0 });
  try {
    await withProxy(mock.url, async (proxy, records) => {
      const headers = { Authorization: `Bearer ${mock.token}` };
      const direct = await call(`${mock.url}/api/v1/courses/42/modules/7`, { headers });
      const through = await call(`${proxy.url}/api/v1/courses/42/modules/7`, { headers });
      assert.equal(through.status, 200);
      assert.deepEqual(JSON.parse(through.text), JSON.parse(direct.text));
      assert.equal(violationsOf(through), undefined);

      const warned = await call(`${proxy.url}/api/v1/courses/42/modules?include[]=items&zz=1`, { headers });
      assert.equal(warned.status, 200);
      assert.deepEqual(violationsOf(warned), [{ code: 'unknown-parameter', parameter: 'zz' }]);

      await until(() => records.length === 2);
      assert.deepEqual(
        records.map((r) => [
          r.method,
          r.target,
          r.status,
          r.endpoint,
          r.forwarded,
          r.violations.map((v) => `${v.in} ${v.severity} ${v.code} ${v.parameter}`),
        ]),
        [
          ['GET', '/api/v1/courses/42/modules/7', 200, 'modules.show', true, []],
          [
            'GET',
            '/api/v1/courses/42/modules?include[]&zz',
            200,
            'modules.list',
            true,
            ['request warning unknown-parameter zz'],
          ],
        ],
      );
    });
  } finally {
    await mock.close();
  }
});

test('a JSON response is checked by the typed schemas: a field of another type and an undocumented field are response violations', async () => {
  const modules = [{ id: 1, name: 'Week 1', position: 1, items_count: 'five', zzz_secret_field: true }];
  const target = await startTarget((req, res) => {
    if (req.url?.startsWith('/gz')) {
      const body = gzipSync(JSON.stringify(modules));
      res.writeHead(200, {
        'Content-Type': 'application/json',
        'Content-Encoding': 'gzip',
        'Content-Length': body.length,
      });
      res.end(body);
      return;
    }
    json(res, 200, modules);
  });
  try {
    await withProxy(target.url, async (proxy, records) => {
      const r = await call(`${proxy.url}/api/v1/courses/42/modules`);
      assert.equal(r.status, 200);
      assert.deepEqual(JSON.parse(r.text), modules, 'the body passes unchanged');
      const found = (violationsOf(r) ?? []).map((v) => `${v.code} ${v.path}`);
      assert.ok(found.includes('type-mismatch $[0].items_count'), found.join('; '));
      assert.ok(found.includes('undocumented-field $[0].zzz_secret_field'), found.join('; '));
      await until(() => records.length === 1);
      assert.ok(records[0].violations.every((v) => v.in === 'response' && v.severity === 'warning'));
    });
  } finally {
    await target.close();
  }
});

test('strict: a request with errors gets 400 with the checker errors and is not forwarded; without strict it is forwarded, with the errors in the header', async () => {
  const target = await startTarget((_req, res) => json(res, 200, { id: 1, name: 'x' }));
  try {
    const bad = {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'module[name][]=x',
    };
    await withProxy(
      target.url,
      async (proxy, records) => {
        const r = await call(`${proxy.url}/api/v1/courses/42/modules`, bad);
        assert.equal(r.status, 400);
        const body = JSON.parse(r.text) as {
          errors: { code: string; parameter?: string }[];
          warnings?: { code: string }[];
        };
        assert.deepEqual(
          body.errors.map((e) => `${e.code} ${e.parameter}`),
          ['missing-required module[name]'],
        );
        assert.equal(body.warnings?.[0].code, 'unknown-parameter');
        assert.equal(target.received.length, 0, 'nothing reached the target');
        const good = await call(`${proxy.url}/api/v1/courses/42/modules`, { ...bad, body: 'module[name]=x' });
        assert.equal(good.status, 200);
        assert.equal(target.received.length, 1);
        await until(() => records.length === 2);
        assert.equal(records[0].forwarded, false);
        assert.equal(records[1].forwarded, true);
      },
      { strict: true },
    );
    await withProxy(target.url, async (proxy) => {
      const r = await call(`${proxy.url}/api/v1/courses/42/modules`, bad);
      assert.equal(r.status, 200, 'forwarded: the target answers');
      assert.deepEqual(
        (violationsOf(r) ?? []).map((v) => v.code),
        ['missing-required', 'unknown-parameter'],
      );
      assert.equal(target.received.at(-1)?.body.toString(), 'module[name][]=x', 'the body reaches the target as sent');
    });
  } finally {
    await target.close();
  }
});

test('the client Authorization goes to the target as sent, and is in no record, header or message of the proxy, also when a value quotes it', async () => {
  const token = 'tok-3f9a1c77e2b84d0c-SECRET';
  const target = await startTarget((_req, res) => json(res, 400, { errors: [{ message: `bad token ${token}` }] }));
  try {
    const lines: string[] = [];
    await withProxy(
      target.url,
      async (proxy) => {
        const r = await call(`${proxy.url}/api/v1/courses/42/modules?include[]=${token}&access_token=${token}`, {
          headers: { Authorization: `Bearer ${token}` },
        });
        assert.equal(r.status, 400);
        assert.equal(target.received[0].headers.authorization, `Bearer ${token}`);
        const ours = `${JSON.stringify(r.headers['lpreq-violations'])}`;
        assert.ok(ours.includes('invalid-enum'), ours);
        assert.equal(ours.includes(token), false, ours);
        const basic = Buffer.from(`user:${token}`).toString('base64');
        await call(`${proxy.url}/api/v1/courses/42/modules?include[]=${token}`, {
          headers: { Authorization: `Basic ${basic}` },
        });
        await until(() => lines.length === 2);
        for (const line of lines) {
          assert.equal(line.includes(token), false, line);
          assert.equal(line.includes(basic), false, line);
        }
        assert.ok(lines[0].includes('invalid-enum'), 'the violation is recorded, its value scrubbed');
      },
      { onExchange: (r) => lines.push(JSON.stringify(r)) },
    );
  } finally {
    await target.close();
  }
});

test('redirects are passed back, never followed: the Authorization reaches no other origin; a Location on the target is rewritten to the proxy', async () => {
  const elsewhere = await startTarget((_req, res) => json(res, 200, []));
  const target = await startTarget((req, res) => {
    const location = req.url?.includes('away')
      ? `${elsewhere.url}/api/v1/courses`
      : `http://127.0.0.1:${target.port}/api/v1/courses/42?x=1`;
    res.writeHead(302, { Location: location, 'Content-Length': 0 });
    res.end();
  });
  try {
    await withProxy(target.url, async (proxy) => {
      const away = await call(`${proxy.url}/api/v1/courses/42/modules?away=1`, {
        headers: { Authorization: 'Bearer abcdefgh' },
      });
      assert.equal(away.status, 302);
      assert.equal(away.headers.location, `${elsewhere.url}/api/v1/courses`);
      assert.equal(elsewhere.received.length, 0);
      const home = await call(`${proxy.url}/api/v1/courses/42/modules`, {
        headers: { Authorization: 'Bearer abcdefgh' },
      });
      assert.equal(home.headers.location, `${proxy.url}/api/v1/courses/42?x=1`);
    });
  } finally {
    await target.close();
    await elsewhere.close();
  }
});

test('hop-by-hop headers stay at their hop in both directions; end-to-end ones pass; Host is the target, Via names the proxy', async () => {
  const target = await startTarget((_req, res) => {
    res.writeHead(
      200,
      [
        ['Content-Type', 'application/json'],
        ['Connection', 'X-Hop-Back'],
        ['X-Hop-Back', '1'],
        ['Keep-Alive', 'timeout=1'],
        ['Proxy-Authenticate', 'Basic'],
        ['X-End-To-End', 'back'],
        ['Set-Cookie', 'a=1'],
        ['Set-Cookie', 'b=2'],
      ].flat(),
    );
    res.end('[]');
  });
  try {
    await withProxy(target.url, async (proxy) => {
      const r = await call(`${proxy.url}/api/v1/courses/42/modules`, {
        headers: {
          Connection: 'X-Hop, keep-alive',
          'X-Hop': 'gone',
          'Keep-Alive': 'timeout=5',
          TE: 'trailers',
          'Proxy-Authorization': 'Basic cHJveHk6cGFzcw==',
          'X-End-To-End': 'there',
          Authorization: 'Bearer abcdefgh',
        },
      });
      assert.equal(r.status, 200);
      const sent = target.received[0].headers;
      for (const name of ['x-hop', 'keep-alive', 'te', 'proxy-authorization'])
        assert.equal(sent[name], undefined, name);
      assert.equal(sent['x-end-to-end'], 'there');
      assert.equal(sent.host, `127.0.0.1:${target.port}`);
      assert.match(String(sent.via), /^1\.1 lpreq-[0-9a-f]+$/);
      for (const name of ['x-hop-back', 'proxy-authenticate']) assert.equal(r.headers[name], undefined, name);
      assert.notEqual(
        r.headers['keep-alive'],
        'timeout=1',
        'the keep-alive of the target connection is not the client one',
      );
      assert.equal(r.headers['x-end-to-end'], 'back');
      assert.deepEqual(r.headers['set-cookie'], ['a=1', 'b=2']);
    });
  } finally {
    await target.close();
  }
});

test('a target that is down is a 502, one that does not answer in time a 504; a request that came round to the proxy a 508', async () => {
  const down = await startTarget(() => undefined);
  const downUrl = down.url;
  await down.close();
  await withProxy(downUrl, async (proxy) => {
    const r = await call(`${proxy.url}/api/v1/courses/42/modules`);
    assert.equal(r.status, 502);
    assert.match(r.text, /could not be reached/);
  });
  const silent = await startTarget(() => undefined);
  try {
    await withProxy(
      silent.url,
      async (proxy) => {
        const r = await call(`${proxy.url}/api/v1/courses/42/modules`);
        assert.equal(r.status, 504);
      },
      { timeoutMs: 300 },
    );
  } finally {
    await silent.close();
  }
  // A proxy whose target is itself: its own Via comes back to it.
  const free = await startTarget(() => undefined);
  const port = free.port;
  await free.close();
  await withProxy(
    `http://127.0.0.1:${port}`,
    async (proxy) => {
      const r = await call(`${proxy.url}/api/v1/courses/42/modules`);
      assert.equal(r.status, 508);
    },
    { port },
  );
});

test('a JSON request body is checked for an endpoint that takes JSON; invalid JSON is an error; an unknown path is forwarded with its violation', async () => {
  const target = await startTarget((_req, res) => json(res, 200, {}));
  try {
    await withProxy(target.url, async (proxy) => {
      const broken = await call(`${proxy.url}/api/v1/courses/42/modules`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: '{"module":',
      });
      assert.deepEqual(violationsOf(broken), [{ code: 'invalid-json' }]);
      assert.equal(target.received[0].body.toString(), '{"module":', 'forwarded as sent');
      const unknown = await call(`${proxy.url}/api/v1/coursez`);
      assert.equal(unknown.status, 200);
      assert.deepEqual(violationsOf(unknown), [{ code: 'unknown-endpoint' }]);
    });
  } finally {
    await target.close();
  }
});
