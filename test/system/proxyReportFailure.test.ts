/**
 * Issue 26, item 12: `lpreq proxy --report` on a disk that is full (/dev/full answers every
 * write with ENOSPC) says so once, keeps proxying, and exits with 2 when stopped; it died with
 * a stack trace at the first exchange before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { tempDir } from '../helpers';
import { startCommand, until } from './commandProcess';

const TOKEN = 'proxy-full-token-5d2a7e';
const AUTH = { Authorization: `Bearer ${TOKEN}` };

for (const report of ['/dev/full', '/dev/full.sarif']) {
  test(
    `--report ${report === '/dev/full' ? 'on a full disk' : 'as SARIF on a full disk'}: told once, the proxy goes on, exit 2`,
    { timeout: 90_000, skip: !existsSync('/dev/full') && 'no /dev/full here' },
    async () => {
      const dir = tempDir('proxy-full');
      const mock = await startCommand(['mock', '--port', '0', '--token', TOKEN, '--quiet']);
      try {
        // A SARIF report is written at the stop: a link named *.sarif to /dev/full.
        let path = report;
        if (report.endsWith('.sarif')) {
          path = `${dir}/full.sarif`;
          (await import('node:fs')).symlinkSync('/dev/full', path);
        }
        const proxy = await startCommand(['proxy', '--target', mock.url, '--port', '0', '--report', path], {
          cwd: dir,
        });
        let code: number | null;
        try {
          for (let i = 0; i < 3; i++) {
            const r = await fetch(`${proxy.url}/api/v1/courses/42/modules/7`, { headers: AUTH });
            assert.equal(r.status, 200, `exchange ${i + 1} is proxied`);
          }
          await until(() => proxy.stderr().split('\n').length > 3, 'three exchange lines');
        } finally {
          code = await proxy.stop('SIGINT');
        }
        const told = proxy.stderr().match(/cannot write the report/g) ?? [];
        assert.equal(told.length, 1, proxy.stderr());
        assert.match(proxy.stderr(), /no space left on device|ENOSPC/i);
        assert.doesNotMatch(proxy.stderr(), /\n\s+at /, 'no stack trace');
        assert.match(proxy.stdout(), /lpreq proxy: stopped/);
        assert.equal(code, 2);
      } finally {
        await mock.stop('SIGTERM');
      }
    },
  );
}
