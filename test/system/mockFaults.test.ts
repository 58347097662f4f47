/**
 * `lpreq mock --faults FILE` as a process (issue 30): a delay rule holds the answer back, every
 * fault answered is on the request line, and a rule no request matched is named when the mock
 * stops. These wait on a clock and start a process: they are this tier's.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { startCommand, until } from './commandProcess';
import { parseFaults } from '../../server/src/mock/faults';
import { startMock } from '../../server/src/mock/index';

const AUTH = { Authorization: 'Bearer t' };

test('a delay rule holds the answer back by its delay, and says so in Lpreq-Fault', { timeout: 30_000 }, async () => {
  const mock = await startMock({ port: 0, faults: parseFaults('GET /api/v1/courses/*/modules delay=300ms count=1') });
  try {
    const started = performance.now();
    const slow = await fetch(`${mock.url}/api/v1/courses/42/modules`, { headers: AUTH });
    const waited = performance.now() - started;
    assert.equal(slow.status, 200);
    assert.equal(slow.headers.get('lpreq-fault'), 'delay=300ms (line 1)');
    // A lower bound only: the delay was served; how much longer the answer took is the machine's.
    assert.ok(waited >= 280, `answered after ${waited.toFixed(0)} ms`);
    const next = await fetch(`${mock.url}/api/v1/courses/42/modules`, { headers: AUTH });
    assert.equal(next.headers.get('lpreq-fault'), null, 'count=1');
  } finally {
    await mock.close();
  }
});

test(
  'lpreq mock --faults: each fault on its request line, a rule that matched nothing named at the stop',
  { timeout: 60_000 },
  async () => {
    const dir = tempDir('faults');
    writeFileSync(
      join(dir, 'faults.txt'),
      ['seed 3', 'GET /api/v1/courses/*/modules status=503 count=1', 'DELETE /api/v1/nothing/** reset rate=1'].join(
        '\n',
      ),
    );
    const mock = await startCommand(['mock', '--port', '0', '--faults', 'faults.txt'], { cwd: dir });
    try {
      await until(() => mock.stdout().includes('stop with Ctrl-C'), 'the whole greeting');
      assert.match(mock.stdout(), /faults: 2 rule\(s\) from faults\.txt, seed 3/);
      assert.equal((await fetch(`${mock.url}/api/v1/courses/42/modules`, { headers: AUTH })).status, 503);
      assert.equal((await fetch(`${mock.url}/api/v1/courses/42/modules`, { headers: AUTH })).status, 200);
      await until(() => mock.stderr().split('\n').length > 2, 'two log lines');
      const lines = mock.stderr().trim().split('\n');
      assert.match(lines[0], /^GET \/api\/v1\/courses\/42\/modules 503 \d+\.\d ms fault: status=503 \(line 2\)$/);
      assert.match(lines[1], /^GET \/api\/v1\/courses\/42\/modules 200 \d+\.\d ms$/);
    } finally {
      assert.equal(await mock.stop('SIGINT'), 0);
    }
    assert.match(mock.stderr(), /faults\.txt, line 3 \(DELETE \/api\/v1\/nothing\/\*\*\) matched no request/);
  },
);
