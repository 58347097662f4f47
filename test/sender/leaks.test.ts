/**
 * Findings of the audit of issue 17 at the exchange: every part of a request that leaves
 * (header names included) passes the one secret check, a Host header cannot move the token
 * to another virtual host, a cut body never ends in the start of a secret, and a spill folder
 * is used only when it is private. Loopback servers only.
 */
import assert from 'node:assert/strict';
import { chmodSync, chownSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { sendPrepared, type ExchangeOptions } from '../../server/src/sender/exchange';
import { entryFromExchange } from '../../server/src/sender/history';
import type { PreparedRequest } from '../../server/src/sender/prepare';
import { tempDir } from '../helpers';
import { json, startServer, type Received, type TestServer, preparedGet } from './server';

// Lower-case hex arrives exactly in a header name (undici lower-cases names): the audit's case.
const TOKEN = '0123456789abcdef0123';
const MIXED = 'Tok-AbC-4567-XyZ';
const PROMPT = 'hunter2-Prompt';
let api: TestServer;
let other: TestServer;

const request = (url: string, extra: Partial<PreparedRequest> = {}) => preparedGet(url, api.origin, extra);

/** Whether a request a server received carries `secret` anywhere: method, URL, a header name or value, the body; in any case. */
function carries(r: Received, secret: string): boolean {
  const s = secret.toLowerCase();
  const parts = [r.method, r.url, r.body, ...Object.entries(r.headers).flatMap(([n, v]) => [n, String(v)])];
  return parts.some((p) => p.toLowerCase().includes(s));
}

before(async () => {
  other = await startServer((_req, res) => json(res, 200, { where: 'other' }));
  api = await startServer((req, res) => {
    const path = req.url.split('?')[0];
    if (path === '/307') {
      res.writeHead(307, { location: `${other.origin}/landing` });
      return res.end();
    }
    if (path === '/echo-name') {
      // The token echoed back in a response header's name, as the server writes it.
      res.writeHead(200, { 'content-type': 'application/json', [`x-echo-${MIXED}`]: '1' });
      return res.end('{}');
    }
    if (path === '/cut') {
      // 40 bytes, then the start of the echoed token, then the connection is reset.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write(`{"padding":"${'x'.repeat(26)}","echo":"${MIXED.slice(0, 9)}`);
      setTimeout(() => res.socket?.destroy(), 30);
      return;
    }
    if (path === '/long') {
      // Above a 2,000-byte limit, the limit falling inside the echoed token (bytes 1992 to 2008).
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end(`{"padding":"${'x'.repeat(1970)}","echo":"${MIXED}","more":"${'y'.repeat(3000)}"}`);
    }
    if (path === '/long-cut') {
      // Above the limit, then cut inside the echoed token by a reset: the spill file is cut too.
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
      res.write(`{"padding":"${'x'.repeat(5000)}","echo":"${MIXED.slice(0, 9)}`);
      setTimeout(() => res.socket?.destroy(), 30);
      return;
    }
    return json(res, 200, { path, host: req.headers.host });
  });
});
after(async () => {
  await api.close();
  await other.close();
});

const options = (extra: ExchangeOptions = {}): ExchangeOptions => ({
  token: TOKEN,
  secrets: [PROMPT, MIXED],
  ...extra,
});

test('a header name that carries the token or a secret never reaches another origin, directly or through a 307', async () => {
  for (const secret of [TOKEN, MIXED, MIXED.toUpperCase(), PROMPT]) {
    const headers: [string, string][] = [
      ['Accept', 'application/json'],
      [`X-${secret}`, '1'],
      ['X-Plain', 'ok'],
    ];
    const before = other.received.length;
    const direct = await sendPrepared(request(`${other.origin}/x`, { headers }), options());
    const moved = await sendPrepared(
      request(`${api.origin}/307`, { method: 'POST', headers, body: { contentType: 'application/json', text: '{}' } }),
      options(),
    );
    const arrived = other.received.slice(before);
    assert.equal(arrived.length, 2, `both went, without that header (${secret})`);
    for (const r of arrived) {
      assert.ok(!carries(r, secret), `${secret}: ${JSON.stringify(r.headers)}`);
      assert.equal(r.headers['x-plain'], 'ok');
    }
    for (const r of [direct, moved]) {
      assert.equal(r.ok, true);
      // The warning says a header was left out, without naming it by its secret.
      assert.match(r.warnings.join('\n'), /header/);
      assert.ok(!r.warnings.join('\n').toLowerCase().includes(secret.toLowerCase().slice(0, 8)), r.warnings.join('\n'));
    }
  }
  // At base_url's origin the header goes as written.
  const home = await sendPrepared(request(`${api.origin}/ok`, { headers: [[`X-${TOKEN}`, '1']] }), options());
  assert.equal(home.ok, true);
  assert.equal(api.received.at(-1)?.headers[`x-${TOKEN}`], '1');
});

test('a header name that carries the token is masked in the history, in any case', () => {
  const prepared = request(`${api.origin}/x`, {
    headers: [
      [`X-${MIXED}`, '1'],
      [`X-${MIXED.toUpperCase()}`, '2'],
    ],
  });
  const entry = entryFromExchange(
    prepared,
    {
      ok: true,
      status: 200,
      statusText: 'OK',
      headers: { [`x-echo-${MIXED.toLowerCase()}`]: '1' },
      body: null,
      bodyText: '',
      bodyKind: 'empty',
      bytes: 0,
      durationMs: 1,
      timing: { totalMs: 1 },
      url: prepared.url,
      redirects: [],
      tokenSent: true,
      warnings: [],
    },
    { secrets: [MIXED] },
  );
  const text = JSON.stringify(entry).toLowerCase();
  assert.ok(!text.includes(MIXED.toLowerCase()), text);
  assert.deepEqual(
    entry.request.headers.map(([n]) => n),
    ['X-***', 'X-***'],
  );
});

test('a Host header that names another server than the URL gets neither the token nor a secret (plain-http virtual hosting)', async () => {
  const before = api.received.length;
  // The socket goes to base_url's address, but the request is for another virtual host.
  const vhost = await sendPrepared(
    request(`${api.origin}/ok`, {
      headers: [
        ['Host', 'attacker.test'],
        ['X-Key', `key ${PROMPT}`],
      ],
    }),
    options(),
  );
  assert.equal(vhost.ok, true);
  const seen = api.received.slice(before);
  assert.equal(seen.length, 1);
  assert.equal(seen[0].headers.host, 'attacker.test', 'the Host header the file wrote is sent');
  assert.equal(seen[0].headers.authorization, undefined);
  assert.equal(seen[0].headers['x-key'], undefined);
  assert.equal(vhost.tokenSent, false);
  assert.match(vhost.warnings.join('\n'), /Host/);
  // A URL or body that carries a secret is not sent to it at all.
  const n = api.received.length;
  const body = await sendPrepared(
    request(`${api.origin}/ok`, {
      method: 'POST',
      headers: [['Host', 'attacker.test']],
      body: { contentType: 'application/json', text: JSON.stringify({ t: TOKEN }) },
    }),
    options(),
  );
  assert.equal(body.error?.kind, 'secret-elsewhere');
  assert.equal(api.received.length, n);
  // A written Authorization header stays with the origin of the URL too.
  await sendPrepared(
    request(`${api.origin}/ok`, {
      headers: [
        ['Host', 'attacker.test'],
        ['Authorization', 'Basic dXNlcjpwdw=='],
      ],
    }),
    options(),
  );
  assert.equal(api.received.at(-1)?.headers.authorization, undefined);
  // A Host header that names the URL's own host (in any case) changes nothing.
  const host = new URL(api.origin).host;
  for (const same of [host, host.toUpperCase()]) {
    const r = await sendPrepared(request(`${api.origin}/ok`, { headers: [['Host', same]] }), options());
    assert.equal(r.tokenSent, true, same);
    assert.equal(api.received.at(-1)?.headers.authorization, `Bearer ${TOKEN}`);
  }
});

test('a body cut by a reset or at the size limit never ends in the start of an echoed secret', async () => {
  const spill = tempDir('spill-cut');
  const cut = await sendPrepared(request(`${api.origin}/cut`), options());
  assert.equal(cut.bodyIncomplete, true);
  assert.ok(cut.bodyText.startsWith('{"padding":'), cut.bodyText);
  assert.ok(!cut.bodyText.includes(MIXED.slice(0, 3)), cut.bodyText);
  const long = await sendPrepared(request(`${api.origin}/long`), options({ maxBodyBytes: 2000, spillDir: spill }));
  assert.ok(long.truncated);
  assert.ok(!long.bodyText.includes(MIXED.slice(0, 3)), long.bodyText.slice(-40));
  assert.match(readFileSync(long.truncated.file, 'utf8'), /"echo":"\*\*\*","more"/);
  const longCut = await sendPrepared(
    request(`${api.origin}/long-cut`),
    options({ maxBodyBytes: 2000, spillDir: spill }),
  );
  assert.ok(longCut.truncated && longCut.bodyIncomplete);
  const spilled = readFileSync(longCut.truncated.file, 'utf8');
  assert.ok(spilled.startsWith('{"padding":"xxx'));
  assert.ok(!spilled.includes(MIXED.slice(0, 3)), spilled.slice(-40));
});

test('a token echoed in a response header name is masked in the history, though it arrives lower-cased', async () => {
  const r = await sendPrepared(request(`${api.origin}/echo-name`), options());
  assert.ok(Object.keys(r.headers).includes(`x-echo-${MIXED.toLowerCase()}`), 'undici lower-cases the name');
  const entry = entryFromExchange(request(`${api.origin}/echo-name`), r, { secrets: [MIXED] });
  assert.ok(!JSON.stringify(entry).toLowerCase().includes(MIXED.toLowerCase()));
});

test('a spill folder that is not private (writable by others, another owner, a symlink) is not used, and the body goes to a private one', async (t) => {
  const base = tempDir('spill-folder');
  const cases: [string, () => string][] = [
    [
      'writable by others',
      () => {
        const d = join(base, 'open');
        mkdirSync(d);
        chmodSync(d, 0o777);
        return d;
      },
    ],
    [
      'a symlink',
      () => {
        const target = join(base, 'target');
        mkdirSync(target, { mode: 0o700 });
        const d = join(base, 'link');
        symlinkSync(target, d);
        return d;
      },
    ],
  ];
  if (typeof process.getuid === 'function' && process.getuid() === 0) {
    cases.push([
      'owned by another user',
      () => {
        const d = join(base, 'theirs');
        mkdirSync(d, { mode: 0o700 });
        chownSync(d, 65534, 65534);
        return d;
      },
    ]);
  } else t.diagnostic('not root: the other-owner case needs chown and is left out');
  for (const [label, make] of cases) {
    const dir = make();
    const r = await sendPrepared(request(`${api.origin}/long`), options({ maxBodyBytes: 2000, spillDir: dir }));
    assert.ok(r.truncated, label);
    assert.deepEqual(
      readdirSync(dir).filter((n) => n.startsWith('body-')),
      [],
      `${label}: nothing written there`,
    );
    assert.ok(!r.truncated.file.startsWith(dir), label);
    assert.ok(existsSync(r.truncated.file), label);
    assert.match(r.warnings.join('\n'), new RegExp(`${dir.replace(/[/\\.]/g, '\\$&')}.*not used`), label);
    rmSync(join(r.truncated.file, '..'), { recursive: true, force: true });
  }
  // The default folder in the temporary folder is held to the same rule.
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = base;
  try {
    const uid = typeof process.getuid === 'function' ? String(process.getuid()) : 'user';
    const shared = join(tmpdir(), `lpreq-bodies-${uid}`);
    mkdirSync(shared);
    chmodSync(shared, 0o777);
    const r = await sendPrepared(request(`${api.origin}/long`), options({ maxBodyBytes: 2000 }));
    assert.ok(r.truncated);
    assert.deepEqual(readdirSync(shared), []);
    assert.match(r.warnings.join('\n'), /not used/);
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
});
