/** The exchange against servers on 127.0.0.1: token rules, redirects, failures (timeouts and cancellation: test/system/sendTimeouts.test.ts). */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { sendPrepared } from '../../server/src/sender/exchange';
import type { PreparedRequest } from '../../server/src/sender/prepare';
import { json, startProxy, startServer, type TestServer, preparedGet } from './server';
import { tempDir } from '../helpers';

const TOKEN = 'tok-1234567890';
let api: TestServer;
let other: TestServer;
const spill = tempDir('spill');

const request = (url: string, extra: Partial<PreparedRequest> = {}) => preparedGet(url, api.origin, extra);

before(async () => {
  other = await startServer((req, res) => {
    if (req.url.startsWith('/back')) {
      res.writeHead(302, { location: `${api.origin}/ok` });
      return res.end();
    }
    return json(res, 200, { where: 'other' });
  });
  api = await startServer((req, res) => {
    const path = req.url.split('?')[0];
    switch (path) {
      case '/ok':
        return json(res, 200, { id: 1 });
      case '/to-other':
        res.writeHead(302, { location: `${other.origin}/landing` });
        return res.end();
      case '/to-other-and-back':
        res.writeHead(307, { location: `${other.origin}/back` });
        return res.end();
      case '/same-origin':
        res.writeHead(301, { location: '/ok' });
        return res.end();
      case '/loop':
        res.writeHead(302, { location: '/loop' });
        return res.end();
      case '/see-other':
        res.writeHead(303, { location: '/ok' });
        return res.end();
      case '/big':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(JSON.stringify(Array.from({ length: 20000 }, (_, i) => ({ id: i, name: `item ${i}` }))));
      case '/big-echo':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end(
          JSON.stringify(Array.from({ length: 20000 }, (_, i) => ({ id: i, auth: req.headers.authorization }))),
        );
      case '/reset':
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"partial":');
        setTimeout(() => res.socket?.destroy(), 20);
        return;
      case '/html':
        res.writeHead(200, { 'content-type': 'text/html' });
        return res.end('<html>hi</html>');
      case '/empty':
        res.writeHead(200);
        return res.end();
      case '/no-content':
        res.writeHead(204);
        return res.end();
      case '/not-found':
        return json(res, 404, { errors: [{ message: 'The specified resource does not exist.' }] });
      case '/bad-json':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"id": 1,');
      case '/binary':
        res.writeHead(200, { 'content-type': 'image/png' });
        return res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]));
      default:
        return json(res, 200, { path });
    }
  });
});
after(async () => {
  await api.close();
  await other.close();
  rmSync(spill, { recursive: true, force: true });
});

const lastAuth = (s: TestServer) => s.received.at(-1)?.headers.authorization;

test('the token goes to the origin of base_url, with timing', async () => {
  const r = await sendPrepared(request(`${api.origin}/ok`), { token: TOKEN });
  assert.equal(r.ok, true);
  assert.equal(r.status, 200);
  assert.deepEqual(r.body, { id: 1 });
  assert.equal(lastAuth(api), `Bearer ${TOKEN}`);
  assert.equal(r.tokenSent, true);
  assert.ok(r.timing.firstByteMs !== undefined && r.timing.firstByteMs <= r.timing.totalMs);
  assert.ok(r.timing.connectMs !== undefined);
  assert.deepEqual(r.warnings, []);
});

test('timing: the TCP connection, the first byte and the download of the body apart; no TLS over http', async () => {
  const r = await sendPrepared(request(`${api.origin}/big`));
  assert.equal(r.status, 200);
  const t = r.timing;
  assert.ok(t.connectMs !== undefined && t.firstByteMs !== undefined && t.downloadMs !== undefined, JSON.stringify(t));
  assert.equal(t.tlsMs, undefined);
  assert.ok(t.connectMs <= t.firstByteMs && t.firstByteMs + t.downloadMs <= t.totalMs + 1, JSON.stringify(t));
});

test('timing: a TLS handshake is timed apart from the TCP connection, even when the certificate is refused', async () => {
  const dir = join(import.meta.dirname, '../fixtures/tls');
  const server = createTlsServer(
    { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
    (_req, res) => res.end('{}'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const r = await sendPrepared(request(`https://127.0.0.1:${port}/`));
    // A self-signed certificate: the handshake took place and failed.
    assert.equal(r.error?.kind, 'tls', JSON.stringify(r.error));
    assert.ok(r.timing.connectMs !== undefined && r.timing.tlsMs !== undefined, JSON.stringify(r.timing));
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

test('a redirect to another origin does not take the token (two ports, two origins)', async () => {
  const r = await sendPrepared(
    request(`${api.origin}/to-other`, {
      headers: [
        ['Authorization', 'Bearer written'],
        ['Cookie', 'a=b'],
      ],
    }),
    { token: TOKEN },
  );
  assert.equal(r.ok, true);
  assert.deepEqual(r.body, { where: 'other' });
  assert.equal(r.url, `${other.origin}/landing`);
  assert.equal(lastAuth(other), undefined);
  assert.equal(other.received.at(-1)?.headers.cookie, undefined);
  assert.equal(r.redirects.length, 1);
  assert.equal(r.redirects[0].tokenSent, true);
  assert.equal(r.tokenSent, false);
});

test('coming back to the origin of base_url, the token is sent again', async () => {
  const r = await sendPrepared(request(`${api.origin}/to-other-and-back`), { token: TOKEN });
  assert.equal(r.ok, true);
  assert.equal(r.url, `${api.origin}/ok`);
  assert.equal(other.received.at(-1)?.headers.authorization, undefined);
  assert.equal(lastAuth(api), `Bearer ${TOKEN}`);
});

test('a request to another origin than base_url never carries the token', async () => {
  const r = await sendPrepared(request(`${other.origin}/x`), { token: TOKEN });
  assert.equal(r.ok, true);
  assert.equal(lastAuth(other), undefined);
  assert.match(r.warnings.join(' '), /not sent/);
});

test('a header the user wrote that carries the token (or another secret) goes only where the token may go', async () => {
  const headers: [string, string][] = [
    ['X-Api-Key', `key ${TOKEN}`],
    ['Authorization', `Bearer ${TOKEN}`],
    ['X-Pass', encodeURIComponent('p@ss word!')],
  ];
  // Straight to another origin: dropped, with a warning.
  const direct = await sendPrepared(request(`${other.origin}/x`, { headers }), {
    token: TOKEN,
    secrets: ['p@ss word!'],
  });
  assert.equal(direct.ok, true);
  const seen = other.received.at(-1)?.headers ?? {};
  assert.equal(seen['x-api-key'], undefined);
  assert.equal(seen.authorization, undefined);
  assert.equal(seen['x-pass'], undefined);
  assert.match(direct.warnings.join(' '), /X-Api-Key carries the access token/);
  // Through a redirect: dropped on the other origin.
  await sendPrepared(request(`${api.origin}/to-other`, { headers }), { token: TOKEN });
  assert.equal(other.received.at(-1)?.headers['x-api-key'], undefined);
  // At the token's origin it goes as written.
  await sendPrepared(request(`${api.origin}/ok`, { headers: [['X-Api-Key', `key ${TOKEN}`]] }), { token: TOKEN });
  assert.equal(api.received.at(-1)?.headers['x-api-key'], `key ${TOKEN}`);
});

test('a URL or a body that carries the token (or a secret) is not sent to another origin, whatever the route or encoding', async () => {
  const secret = 'p@ss word/+=!';
  const cases: [string, Partial<PreparedRequest>][] = [
    ['query', { url: `${other.origin}/x?t=${TOKEN}` }],
    ['path', { url: `${other.origin}/x/${TOKEN}` }],
    [
      'lower-case escapes',
      { url: `${other.origin}/x?t=${[...TOKEN].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')}` },
    ],
    [
      'form body',
      {
        method: 'POST',
        body: { contentType: 'application/x-www-form-urlencoded', text: `a=1&token=${encodeURIComponent(TOKEN)}` },
      },
    ],
    [
      'JSON body',
      { method: 'POST', body: { contentType: 'application/json', text: JSON.stringify({ token: TOKEN }) } },
    ],
    [
      'file body',
      {
        method: 'POST',
        body: {
          contentType: 'application/octet-stream',
          text: '[12 bytes]',
          bytes: new TextEncoder().encode(`x${TOKEN}y`),
        },
      },
    ],
    ['secret, form-encoded', { url: `${other.origin}/x?pw=${encodeURIComponent(secret).replace(/%20/g, '+')}` }],
    [
      'secret in a JSON body',
      { method: 'PUT', body: { contentType: 'application/json', text: JSON.stringify({ pw: secret }) } },
    ],
  ];
  for (const [label, extra] of cases) {
    const before = other.received.length;
    const r = await sendPrepared(request(`${other.origin}/x`, extra), { token: TOKEN, secrets: [secret] });
    assert.equal(r.ok, false, label);
    assert.equal(r.status, null, label);
    assert.equal(r.error?.kind, 'secret-elsewhere', label);
    assert.ok(r.error?.message.includes(other.origin), label);
    assert.equal(other.received.length, before, label);
  }
  // A 307 to another origin would send the body again: the redirect is not followed.
  const before = other.received.length;
  const moved = await sendPrepared(
    request(`${api.origin}/to-other-and-back`, {
      method: 'POST',
      body: { contentType: 'application/json', text: JSON.stringify({ token: TOKEN }) },
    }),
    { token: TOKEN },
  );
  assert.equal(moved.error?.kind, 'secret-elsewhere');
  assert.equal(other.received.length, before);
  // At the origin of base_url the same request goes.
  const home = await sendPrepared(request(`${api.origin}/ok?t=${TOKEN}`), { token: TOKEN });
  assert.equal(home.ok, true);
  // Without an environment the token goes nowhere, not even in a URL to the request's own origin.
  const nowhere = await sendPrepared(request(`${api.origin}/ok?t=${TOKEN}`, { tokenOrigin: undefined }), {
    token: TOKEN,
  });
  assert.equal(nowhere.error?.kind, 'secret-elsewhere');
});

test('redirects: same origin, 303 turns a POST into a GET, a loop stops at the limit', async () => {
  const same = await sendPrepared(request(`${api.origin}/same-origin`), { token: TOKEN });
  assert.equal(same.ok, true);
  assert.equal(lastAuth(api), `Bearer ${TOKEN}`);
  const post = await sendPrepared(
    request(`${api.origin}/see-other`, {
      method: 'POST',
      body: { contentType: 'application/x-www-form-urlencoded', text: 'a=1' },
    }),
  );
  assert.equal(post.ok, true);
  assert.equal(api.received.at(-1)?.method, 'GET');
  assert.equal(api.received.at(-1)?.body, '');
  const loop = await sendPrepared(request(`${api.origin}/loop`), { maxRedirects: 3 });
  assert.equal(loop.ok, false);
  assert.equal(loop.error?.kind, 'too-many-redirects');
  assert.equal(loop.redirects.length, 4);
});

test("with no environment, a prompt's secret answer goes to the request's own origin only, and the token nowhere", async () => {
  const headers: [string, string][] = [
    ['X-Api-Password', 'hunter22'],
    ['X-Api-Key', TOKEN],
  ];
  const own = await sendPrepared(request(`${api.origin}/ok`, { headers, tokenOrigin: undefined }), {
    token: TOKEN,
    secrets: ['hunter22'],
  });
  assert.equal(own.ok, true);
  assert.equal(api.received.at(-1)?.headers['x-api-password'], 'hunter22');
  assert.equal(api.received.at(-1)?.headers['x-api-key'], undefined);
  assert.equal(lastAuth(api), undefined);
  const moved = await sendPrepared(request(`${api.origin}/to-other`, { headers, tokenOrigin: undefined }), {
    token: TOKEN,
    secrets: ['hunter22'],
  });
  assert.equal(moved.ok, true);
  assert.equal(other.received.at(-1)?.headers['x-api-password'], undefined);
});

test('not following redirects (# @no-redirect, or the setting): the 3xx answer is the response, nothing goes further', async () => {
  const before = other.received.length;
  for (const [prepared, options] of [
    [request(`${api.origin}/to-other`, { noRedirect: true }), { token: TOKEN }],
    [request(`${api.origin}/to-other`), { token: TOKEN, maxRedirects: 0 }],
  ] as const) {
    const r = await sendPrepared(prepared, options);
    assert.equal(r.status, 302);
    assert.equal(r.error, undefined);
    assert.equal(r.headers.location, `${other.origin}/landing`);
    assert.deepEqual(r.redirects, []);
  }
  assert.equal(other.received.length, before);
});

test('a body above the limit is written to a file and reported as truncated', async () => {
  const r = await sendPrepared(request(`${api.origin}/big`), { maxBodyBytes: 100_000, spillDir: spill });
  assert.equal(r.ok, true);
  assert.ok(r.truncated);
  assert.ok(r.bytes > 100_000);
  assert.equal(r.bodyText.length, 100_000);
  const full = JSON.parse(readFileSync(r.truncated.file, 'utf8')) as unknown[];
  assert.equal(full.length, 20000);
  assert.match(r.warnings.join(' '), /larger than/);
});

test('a spilled body keeps no echoed token, and old spill files do not pile up', async () => {
  const folder = tempDir('spill-echo');
  try {
    for (let i = 0; i < 25; i++) writeFileSync(join(folder, `body-old-${i}`), 'x');
    const stale = join(folder, 'body-stale');
    writeFileSync(stale, 'x');
    utimesSync(stale, new Date(Date.now() - 2 * 86_400_000), new Date(Date.now() - 2 * 86_400_000));
    // A token that straddles chunk boundaries somewhere in 20,000 echoes.
    const r = await sendPrepared(request(`${api.origin}/big-echo`), {
      token: TOKEN,
      maxBodyBytes: 1000,
      spillDir: folder,
    });
    assert.ok(r.truncated);
    const text = readFileSync(r.truncated.file, 'utf8');
    assert.ok(!text.includes(TOKEN));
    assert.equal(JSON.parse(text).length, 20000);
    assert.match(text, /Bearer \*\*\*/);
    const left = readdirSync(folder);
    assert.ok(left.length <= 20, `${left.length} files`);
    assert.ok(!left.includes('body-stale'));
    assert.ok(left.includes(basename(r.truncated.file)));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
});

test('failures become results: refused, reset, TLS, bad URL', async () => {
  const gone = await startServer(() => undefined);
  const port = gone.port;
  await gone.close();
  const refused = await sendPrepared(request(`http://127.0.0.1:${port}/x`));
  assert.equal(refused.error?.kind, 'refused');
  assert.equal(refused.status, null);
  const reset = await sendPrepared(request(`${api.origin}/reset`));
  assert.equal(reset.error?.kind, 'reset');
  const tls = await sendPrepared(request(`https://127.0.0.1:${api.port}/ok`), { timeoutMs: 2000 });
  assert.equal(tls.error?.kind, 'tls', JSON.stringify(tls.error));
  const bad = await sendPrepared(request('ftp://example/x'));
  assert.equal(bad.error?.kind, 'invalid-url');
  const worse = await sendPrepared(request('not a url'));
  assert.equal(worse.error?.kind, 'invalid-url');
});

test('bodies: HTML, empty, 204, binary, invalid JSON, an API error', async () => {
  const html = await sendPrepared(request(`${api.origin}/html`));
  assert.equal(html.ok, true);
  assert.equal(html.bodyKind, 'text');
  assert.equal(html.body, '<html>hi</html>');
  const empty = await sendPrepared(request(`${api.origin}/empty`));
  assert.equal(empty.bodyKind, 'empty');
  assert.match(empty.warnings.join(' '), /empty body/);
  const none = await sendPrepared(request(`${api.origin}/no-content`));
  assert.equal(none.status, 204);
  assert.deepEqual(none.warnings, []);
  const bin = await sendPrepared(request(`${api.origin}/binary`));
  assert.equal(bin.bodyKind, 'binary');
  const bad = await sendPrepared(request(`${api.origin}/bad-json`));
  assert.equal(bad.bodyKind, 'text');
  assert.match(bad.warnings.join(' '), /not valid JSON/);
  const missing = await sendPrepared(request(`${api.origin}/not-found`));
  assert.equal(missing.ok, false);
  assert.equal(missing.status, 404);
  assert.equal(missing.error?.kind, 'http');
  assert.ok(
    missing.error.message.includes('The specified resource does not exist'),
    "the error carries the API's own message",
  );
});

test('a proxy from the options, and a warning for a token over plain http to another host', async () => {
  const proxy = await startProxy(api.port);
  try {
    const r = await sendPrepared(request('http://lms.example.test/ok', { tokenOrigin: 'http://lms.example.test' }), {
      token: TOKEN,
      proxy: proxy.url,
    });
    assert.equal(r.ok, true, JSON.stringify(r.error));
    assert.deepEqual(proxy.connects, ['lms.example.test:80']);
    assert.equal(lastAuth(api), `Bearer ${TOKEN}`);
    assert.match(r.warnings.join(' '), /plain http/);
    // The same through HTTP_PROXY of the environment.
    const viaEnv = await sendPrepared(
      request('http://lms.example.test/ok', { tokenOrigin: 'http://lms.example.test' }),
      { env: { HTTP_PROXY: proxy.url } },
    );
    assert.equal(viaEnv.ok, true);
    assert.equal(proxy.connects.length, 2);
  } finally {
    await proxy.close();
  }
});

test('the token never appears in the result', async () => {
  const r = await sendPrepared(request(`${api.origin}/to-other`), { token: TOKEN });
  assert.ok(!JSON.stringify(r).includes(TOKEN));
});

test('an Authorization header written in the request is sent as written, and the token is not added (with a warning that shows neither)', async () => {
  const r = await sendPrepared(request(`${api.origin}/ok`, { headers: [['Authorization', 'Basic dXNlcjpwdw==']] }), {
    token: TOKEN,
  });
  assert.equal(lastAuth(api), 'Basic dXNlcjpwdw==');
  assert.equal(r.tokenSent, false);
  assert.equal(r.authorizationWritten, true);
  assert.equal(r.warnings.length, 1);
  assert.ok(!r.warnings[0].includes(TOKEN) && !r.warnings[0].includes('dXNlcjpwdw'));
  // The token written in the header ({{token}}) is the token: nothing to say.
  const same = await sendPrepared(request(`${api.origin}/ok`, { headers: [['Authorization', `Bearer ${TOKEN}`]] }), {
    token: TOKEN,
  });
  assert.equal(same.tokenSent, true);
  assert.deepEqual(same.warnings, []);
});

test('headers named like Object.prototype members go out and come back as written (issue 17)', async () => {
  const names = ['constructor', '__proto__', 'toString', 'valueOf', 'hasOwnProperty', '__defineGetter__'];
  const echo = await startServer((req, res) => {
    for (const name of names) res.setHeader(name, `back-${name}`);
    const raw = new Map<string, string>();
    for (let i = 0; i + 1 < req.rawHeaders.length; i += 2)
      raw.set(req.rawHeaders[i].toLowerCase(), req.rawHeaders[i + 1]);
    return json(res, 200, { got: Object.fromEntries(names.map((n) => [n, raw.get(n.toLowerCase()) ?? null])) });
  });
  try {
    const result = await sendPrepared(
      request(`${echo.origin}/x`, {
        tokenOrigin: echo.origin,
        headers: names.map((n): [string, string] => [n, `out-${n}`]),
      }),
      {
        token: TOKEN,
      },
    );
    assert.equal(result.ok, true, JSON.stringify(result.error));
    assert.deepEqual(result.body, { got: Object.fromEntries(names.map((n) => [n, `out-${n}`])) });
    for (const n of names)
      assert.equal(
        Object.hasOwn(result.headers, n.toLowerCase()) ? result.headers[n.toLowerCase()] : undefined,
        `back-${n}`,
        n,
      );
  } finally {
    await echo.close();
  }
});
