/**
 * Issue 26, items 13 and 14: the mock keeps a bounded number of created objects and bytes of
 * request bodies, each limit answered with 507 in the API's error shape and nothing changed;
 * and CONNECT to the mock or the proxy is answered 405 with a line in the log, where the
 * connection was closed without a word before.
 */
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { test } from 'node:test';
import type { RequestLogEntry } from '../../server/src/mock/index';
import { withMock } from './mockClient';
import { withProxy, until } from '../proxy/proxyHarness';

test('created objects beyond the limit: 507 with the error shape, nothing created, reads still answered', async () => {
  await withMock(
    async (call) => {
      for (let i = 0; i < 3; i++) {
        const made = await call('POST', '/api/v1/courses/42/modules', { form: { 'module[name]': `M${i}` } });
        assert.equal(made.status, 200, JSON.stringify(made.body));
      }
      const before = await call('GET', '/api/v1/courses/42/modules?per_page=100');
      const refused = await call('POST', '/api/v1/courses/42/modules', { form: { 'module[name]': 'one too many' } });
      assert.equal(refused.status, 507);
      const body = refused.body as { errors: { message: string; code: string }[] };
      assert.equal(body.errors.length, 1);
      assert.equal(body.errors[0].code, 'mock-limit-objects');
      assert.match(body.errors[0].message, /at most 3 objects/);
      const after = await call('GET', '/api/v1/courses/42/modules?per_page=100');
      assert.equal(after.status, 200);
      assert.deepEqual(after.body, before.body);
    },
    { limits: { objects: 3 } },
  );
});

test('bytes of bodies beyond the limit: 507, the mock keeps no more', async () => {
  await withMock(
    async (call) => {
      const name = 'x'.repeat(300_000);
      const first = await call('POST', '/api/v1/courses/42/modules', { form: { 'module[name]': name } });
      assert.equal(first.status, 200);
      const second = await call('POST', '/api/v1/courses/42/modules', { form: { 'module[name]': name } });
      assert.equal(second.status, 507);
      assert.equal((second.body as { errors: { code: string }[] }).errors[0].code, 'mock-limit-bytes');
      // A small write still fits.
      const small = await call('POST', '/api/v1/courses/42/modules', { form: { 'module[name]': 'small' } });
      assert.equal(small.status, 200);
    },
    { limits: { bytes: 500_000 } },
  );
});

/** Sends raw bytes and reads the whole answer until the server closes the connection. */
function raw(url: string, request: string): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (text += d));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
    socket.setTimeout(5000, () => socket.destroy(new Error(`no answer: ${JSON.stringify(text)}`)));
  });
}

test('CONNECT to the mock: 405 in the error shape, Allow, a line in the log', async () => {
  const log: RequestLogEntry[] = [];
  await withMock(
    async (_call, mock) => {
      const answer = await raw(mock.url, 'CONNECT attacker.example:443 HTTP/1.1\r\nHost: attacker.example:443\r\n\r\n');
      assert.match(answer, /^HTTP\/1\.1 405 Method Not Allowed\r\n/);
      assert.match(answer, /\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE\r\n/);
      const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { errors: { code: string }[] };
      assert.equal(body.errors[0].code, 'method-not-allowed');
      await until(() => log.length > 0);
      assert.deepEqual(
        log.map((e) => [e.method, e.target, e.status]),
        [['CONNECT', 'attacker.example:443', 405]],
      );
    },
    { onRequest: (e) => log.push(e) },
  );
});

test('CONNECT to the proxy: 405, not forwarded, a record in the log; the credentials of an authority are not logged', async () => {
  await withMock(async (_call, mock) => {
    await withProxy(mock.url, async (proxy, records) => {
      const answer = await raw(proxy.url, 'CONNECT user:pw@attacker.example:443 HTTP/1.1\r\nHost: x\r\n\r\n');
      assert.match(answer, /^HTTP\/1\.1 405 /);
      assert.match(answer, /lpreq proxy: CONNECT is not supported/);
      await until(() => records.length > 0);
      assert.deepEqual(
        records.map((r) => [r.method, r.target, r.status, r.forwarded]),
        [['CONNECT', 'attacker.example:443', 405, false]],
      );
    });
  });
});
