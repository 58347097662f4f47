/** The mock against a request that never arrives whole: broken HTTP framing is a 400, a body shorter than its Content-Length a 408 when the request timeout passes. */
import { connect } from 'node:net';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withMock } from '../mock/mockClient';

/** Writes raw bytes to the mock and gives back everything it answers until it closes (or 10 s pass). */
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

test('a broken chunked body is a 400; a body shorter than its Content-Length is a 408', () =>
  withMock(
    async (call, mock) => {
      const head = (framing: string) =>
        `POST /api/v1/courses/42/modules HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${mock.token}\r\nContent-Type: application/x-www-form-urlencoded\r\n${framing}\r\n\r\n`;
      const chunked = await rawExchange(mock.port, `${head('Transfer-Encoding: chunked')}ZZ\r\nabc\r\n0\r\n\r\n`);
      assert.match(chunked, /^HTTP\/1\.1 400 /);
      assert.match(chunked, /"code":"malformed-request"/);
      const short = await rawExchange(mock.port, `${head('Content-Length: 100')}module[name]=x`);
      assert.match(short, /^HTTP\/1\.1 408 /);
      assert.match(short, /"code":"request-timeout"/);
      assert.equal((await call('GET', '/api/v1/courses/42/modules/7')).status, 200);
    },
    { requestTimeout: 2_000 },
  ));
