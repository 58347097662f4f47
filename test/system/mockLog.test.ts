/** `lpreq mock` as a process logs one line per request on standard error (method, path, status, time, warnings); `--quiet` turns it off. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startCommand, until } from './commandProcess';

const AUTH = { Authorization: 'Bearer secret-token-in-header' };

test(
  'one line per request on standard error, without query values or the token; then a clean stop on SIGINT',
  { timeout: 60_000 },
  async () => {
    const mock = await startCommand(['mock', '--port', '0']);
    try {
      assert.equal(
        (await fetch(`${mock.url}/api/v1/courses/42/modules?include[]=items`, { headers: AUTH })).status,
        200,
      );
      assert.equal(
        (await fetch(`${mock.url}/api/v1/courses/42/modules?zz=secret-in-query`, { headers: AUTH })).status,
        200,
      );
      assert.equal((await fetch(`${mock.url}/api/v1/courses/42/modulez`, { headers: AUTH })).status, 404);
      await until(() => mock.stderr().split('\n').length > 3, 'three log lines');
      const lines = mock.stderr().trim().split('\n');
      assert.equal(lines.length, 3, mock.stderr());
      assert.match(lines[0], /^GET \/api\/v1\/courses\/42\/modules\?include\[\] 200 \d+\.\d ms$/);
      assert.match(lines[1], /^GET \/api\/v1\/courses\/42\/modules\?zz 200 \d+\.\d ms warnings: unknown-parameter zz$/);
      assert.match(lines[2], /^GET \/api\/v1\/courses\/42\/modulez 404 /);
      assert.equal(mock.stderr().includes('secret'), false);
    } finally {
      assert.equal(await mock.stop('SIGINT'), 0);
    }
    assert.match(mock.stdout(), /lpreq mock: stopped/);
  },
);

test('--quiet: no request lines', { timeout: 60_000 }, async () => {
  const mock = await startCommand(['mock', '--port', '0', '--quiet']);
  try {
    assert.equal((await fetch(`${mock.url}/api/v1/courses/42/modules?zz=1`, { headers: AUTH })).status, 200);
  } finally {
    assert.equal(await mock.stop('SIGTERM'), 0);
  }
  assert.equal(mock.stderr(), '');
});
