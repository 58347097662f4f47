/**
 * The proxy streams (issue 22, item 3): the first bytes of a large body reach the client
 * before the target has sent the rest, a client that reads slowly holds the target back
 * (so the proxy's memory stays bounded whatever the size), and malformed or slow clients get
 * 400, 408 or 431 as from the mock, while the proxy goes on serving. These wait on events
 * and on the clock: the system tier.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { connect } from 'node:net';
import { call, startTarget, until, violationsOf, withProxy } from '../proxy/proxyHarness';

const MB = 1024 * 1024;

/** Reads a response through the proxy; `onFirst` runs at its first bytes; `pause` holds the reading until it resolves. */
function stream(
  url: string,
  onFirst: () => void,
  pause?: Promise<void>,
): Promise<{ status: number; size: number; headers: import('node:http').IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent: false }, (res) => {
      let size = 0;
      let first = true;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (!first) return;
        first = false;
        onFirst();
        if (pause) {
          res.pause();
          void pause.then(() => res.resume());
        }
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, size, headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

for (const [what, type, framing] of [
  ['a 20 MB file download', 'application/octet-stream', 'length'],
  ['a 20 MB JSON body, chunked, larger than the checked size', 'application/json', 'chunked'],
] as const) {
  test(
    `${what}: the first bytes reach the client before the target has sent the rest`,
    { timeout: 60_000 },
    async () => {
      let clientHasBytes: () => void = () => undefined;
      const gotBytes = new Promise<void>((resolve) => (clientHasBytes = resolve));
      const target = await startTarget(
        (_req, res) => {
          res.writeHead(200, { 'Content-Type': type, ...(framing === 'length' ? { 'Content-Length': 20 * MB } : {}) });
          res.write(Buffer.alloc(MB, 0x5b));
          // The rest only once the client has the first megabyte: a proxy that waited for the whole body would wait forever.
          void gotBytes.then(() => {
            for (let i = 1; i < 20; i++) res.write(Buffer.alloc(MB, 0x20));
            res.end();
          });
        },
        { stream: true },
      );
      try {
        await withProxy(
          target.url,
          async (proxy) => {
            const r = await stream(`${proxy.url}/api/v1/courses/42/modules`, clientHasBytes);
            assert.equal(r.status, 200);
            assert.equal(r.size, 20 * MB);
            if (type === 'application/json')
              assert.deepEqual(violationsOf({ ...r, body: Buffer.alloc(0), text: '' }), [{ code: 'not-checked' }]);
          },
          { maxCheckedBytes: 256 * 1024 },
        );
      } finally {
        await target.close();
      }
    },
  );
}

test(
  'a client that stops reading holds the target back: the proxy does not take a 128 MB body into memory',
  { timeout: 90_000 },
  async () => {
    // Larger than what the kernel buffers of two loopback connections may hold (tcp_rmem goes up to 32 MB on some machines).
    const total = 128 * MB;
    let written = 0;
    let lastProgress = Date.now();
    let finished = false;
    const target = await startTarget(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'application/octet-stream', 'Content-Length': total });
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        const more = () => {
          while (written < total) {
            written += chunk.length;
            lastProgress = Date.now();
            if (!res.write(chunk)) return void res.once('drain', more);
          }
          res.end(() => (finished = true));
        };
        more();
      },
      { stream: true },
    );
    try {
      await withProxy(target.url, async (proxy) => {
        let release: () => void = () => undefined;
        const released = new Promise<void>((resolve) => (release = resolve));
        const reading = stream(`${proxy.url}/api/v1/courses/42/files/9/public_url`, () => undefined, released);
        // The target stalls (no write for a second) well before the end: every buffer on the way is full.
        await until(() => written > 0 && Date.now() - lastProgress > 1_000);
        const held = written;
        assert.equal(finished, false);
        assert.ok(held < total / 2, `the target wrote ${held} bytes to a client that reads nothing`);
        release();
        const r = await reading;
        assert.equal(r.size, total);
      });
    } finally {
      await target.close();
    }
  },
);

/** Writes raw bytes to the proxy and gives back everything it answers until it closes (or 10 s pass). */
function rawExchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    const timer = setTimeout(() => socket.destroy(), 10_000);
    socket.on('data', (d) => (text += d.toString()));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
    socket.on('error', () => undefined);
  });
}

test(
  'malformed and slow clients: 400 for broken HTTP, 408 for a body that does not arrive, 431 for huge headers; the proxy goes on serving',
  { timeout: 60_000 },
  async () => {
    const target = await startTarget((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end('{}');
    });
    try {
      await withProxy(
        target.url,
        async (proxy, records) => {
          assert.match(await rawExchange(proxy.port, 'NOT HTTP AT ALL\r\n\r\n'), /^HTTP\/1\.1 400 /);
          const head = (framing: string) =>
            `POST /api/v1/courses/42/modules HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n${framing}\r\n\r\n`;
          assert.match(
            await rawExchange(proxy.port, `${head('Transfer-Encoding: chunked')}ZZ\r\nabc\r\n0\r\n\r\n`),
            /^HTTP\/1\.1 400 /,
          );
          const short = await rawExchange(proxy.port, `${head('Content-Length: 100')}module[name]=x`);
          assert.match(short, /^HTTP\/1\.1 408 /);
          await until(() => records.some((r) => r.status === 408));
          assert.ok(
            records.some((r) => r.status === 408 && r.method === 'POST'),
            'the record of the request has the status its client got',
          );
          assert.match(
            await rawExchange(proxy.port, `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(40 * 1024)}\r\n\r\n`),
            /^HTTP\/1\.1 431 /,
          );
          assert.match(await rawExchange(proxy.port, 'OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n'), /^HTTP\/1\.1 400 /);
          assert.equal((await call(`${proxy.url}/api/v1/courses/42/modules/7`)).status, 200);
          assert.equal(
            target.received.filter((r) => r.method === 'POST').length,
            0,
            'nothing broken reached the target',
          );
        },
        { requestTimeout: 1_500 },
      );
    } finally {
      await target.close();
    }
  },
);
