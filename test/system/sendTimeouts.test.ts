/**
 * Sending against the clock, on 127.0.0.1: a server that never answers, a body that never
 * ends, a proxy that never answers, a cancellation after 50 ms. Each waits for a timeout.
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import { run as runSend } from '../../server/src/cli/sendCommand';
import { sendPrepared } from '../../server/src/sender/exchange';
import type { PreparedRequest } from '../../server/src/sender/prepare';
import { captureIo } from '../io';
import { json, startServer, type TestServer, preparedGet } from '../sender/server';
import { tempDir } from '../helpers';

const TOKEN = 'out-token-0123456789';
let api: TestServer;
let dir: string;

const request = (url: string, extra: Partial<PreparedRequest> = {}) => preparedGet(url, api.origin, extra);

/** Runs `lpreq send` in-process in the test folder and captures what it prints. */
async function send(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = captureIo({ cwd: dir, env: { PATH: process.env.PATH ?? '', ...env } });
  const code = await runSend([...args, '--no-history'], out.io);
  return { code, stdout: out.stdout, stderr: out.stderr };
}

/** Writes `text` as `name` in the folder `folder` of the test directory, and returns its path relative to it. */
function file(folder: string, name: string, text: string): string {
  writeFileSync(join(dir, folder, name), text);
  return join(folder, name);
}

before(async () => {
  api = await startServer((req, res) => {
    const path = req.url.split('?')[0];
    switch (path) {
      case '/ok':
        return json(res, 200, { id: 1 });
      case '/slow':
        return; // never answers
      case '/slow-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('[1,');
        return; // the rest never comes
      default:
        return json(res, 404, { errors: [{ message: 'nothing here' }] });
    }
  });
  dir = tempDir('out');
  mkdirSync(join(dir, 'env'));
  writeFileSync(join(dir, 'env', 'http-client.env.json'), JSON.stringify({ local: { base_url: api.origin } }));
});
after(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

test('timeouts: no answer, and a body that never ends', async () => {
  const t0 = Date.now();
  const r = await sendPrepared(request(`${api.origin}/slow`), { timeoutMs: 200 });
  assert.equal(r.error?.kind, 'timeout');
  assert.equal(r.ok, false);
  assert.ok(Date.now() - t0 < 3000);
  const b = await sendPrepared(request(`${api.origin}/slow-body`), { timeoutMs: 200 });
  assert.equal(b.error?.kind, 'timeout');
});

test("a request's own # @timeout wins over the setting", async () => {
  const t0 = Date.now();
  const r = await sendPrepared(request(`${api.origin}/slow`, { timeoutMs: 200 }), { timeoutMs: 20_000 });
  assert.equal(r.error?.kind, 'timeout');
  assert.ok(r.error.message.includes('200'), "the error gives the request's own timeout");
  assert.ok(Date.now() - t0 < 5000);
});

test('cancellation with an AbortSignal', async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 50);
  const r = await sendPrepared(request(`${api.origin}/slow`), { signal: controller.signal, timeoutMs: 5000 });
  assert.equal(r.error?.kind, 'cancelled');
  const already = await sendPrepared(request(`${api.origin}/ok`), { signal: AbortSignal.abort() });
  assert.equal(already.error?.kind, 'cancelled');
});

test('a proxy that never answers ends at the timeout; one that closes the connection is named as the culprit', async () => {
  const sockets = new Set<Socket>();
  const silent = createNetServer((s) => void sockets.add(s));
  const closing = createNetServer((s) => s.destroy());
  for (const srv of [silent, closing]) await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const proxyUrl = (srv: NetServer) => `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  try {
    const t0 = Date.now();
    const hung = await sendPrepared(request(`${api.origin}/ok`), { proxy: proxyUrl(silent), timeoutMs: 300 });
    assert.equal(hung.error?.kind, 'timeout');
    assert.ok(Date.now() - t0 < 3000, `took ${Date.now() - t0} ms`);
    const closed = await sendPrepared(request(`${api.origin}/ok`), { proxy: proxyUrl(closing), timeoutMs: 2000 });
    assert.equal(closed.error?.kind, 'reset');
    assert.ok(closed.error, 'an error');
    assert.ok(closed.error.message.includes(proxyUrl(closing).slice(7)), closed.error.message);
    assert.ok(!closed.error.message.includes(`${api.origin.slice(7)} closed`), closed.error.message);
  } finally {
    for (const s of sockets) s.destroy();
    await Promise.all([silent, closing].map((srv) => new Promise((resolve) => srv.close(resolve))));
  }
});

test('a body cut by a timeout says how many bytes arrived, and that it is incomplete', async () => {
  const path = file('env', 'slow.lpreq', 'GET /slow-body\n');
  const j = await send([path, '--timeout', '300', '--format', 'json'], { LPREQ_TOKEN: TOKEN });
  assert.equal(j.code, 1);
  const out = JSON.parse(j.stdout) as {
    bytes: number;
    bodyIncomplete?: boolean;
    body: unknown;
    error: { kind: string };
  };
  assert.deepEqual([out.error.kind, out.bytes, out.bodyIncomplete, out.body], ['timeout', 3, true, '[1,']);
  const t = await send([path, '--timeout', '300'], { LPREQ_TOKEN: TOKEN });
  assert.doesNotMatch(t.stdout, /empty body/);
  assert.match(t.stdout, /^\[1,$/m);
  assert.match(t.stdout, /\b3 bytes\b/);
});
