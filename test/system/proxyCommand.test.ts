/**
 * `lpreq proxy` end to end as a process in front of `lpreq mock` (a process too): a line per
 * exchange on standard error, the JSON-lines and SARIF reports, no token anywhere it writes,
 * and a clean stop on SIGINT and SIGTERM that lets an exchange under way finish.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { startCommand, until } from './commandProcess';

const TOKEN = 'proxy-test-token-7c1e9b';
const AUTH = { Authorization: `Bearer ${TOKEN}` };

test(
  'in front of the mock: a line per exchange, a JSON line per exchange in the report, no token written; SIGINT stops it with 0',
  { timeout: 90_000 },
  async () => {
    const dir = tempDir('proxy-report');
    const mock = await startCommand(['mock', '--port', '0', '--token', TOKEN, '--quiet']);
    try {
      const proxy = await startCommand(['proxy', '--target', mock.url, '--port', '0', '--report', 'exchanges.jsonl'], {
        cwd: dir,
      });
      try {
        const clean = await fetch(`${proxy.url}/api/v1/courses/42/modules/7`, { headers: AUTH });
        assert.equal(clean.status, 200);
        assert.equal(clean.headers.get('lpreq-violations'), null);
        const warned = await fetch(`${proxy.url}/api/v1/courses/42/modules?zz=${TOKEN}&access_token=${TOKEN}`, {
          headers: AUTH,
        });
        assert.equal(warned.status, 200);
        assert.match(warned.headers.get('lpreq-violations') ?? '', /"unknown-parameter","parameter":"zz"/);
        await until(() => proxy.stderr().split('\n').length > 2, 'two exchange lines');
      } finally {
        assert.equal(await proxy.stop('SIGINT'), 0);
      }
      const lines = proxy.stderr().trim().split('\n');
      assert.match(lines[0], /^GET \/api\/v1\/courses\/42\/modules\/7 200 \d+\.\d ms$/);
      assert.match(
        lines[1],
        /^GET \/api\/v1\/courses\/42\/modules\?zz&access_token 200 \d+\.\d ms violations: unknown-parameter zz, unknown-parameter access_token$/,
      );
      assert.match(proxy.stdout(), /lpreq proxy: stopped/);
      const report = readFileSync(join(dir, 'exchanges.jsonl'), 'utf8');
      const records = report
        .trim()
        .split('\n')
        .map(
          (l) => JSON.parse(l) as { method: string; status: number; endpoint?: string; violations: { code: string }[] },
        );
      assert.deepEqual(
        records.map((r) => [r.method, r.status, r.endpoint, r.violations.length]),
        [
          ['GET', 200, 'modules.show', 0],
          ['GET', 200, 'modules.list', 2],
        ],
      );
      for (const text of [report, proxy.stderr(), proxy.stdout()]) assert.equal(text.includes(TOKEN), false);
    } finally {
      await mock.stop('SIGTERM');
    }
  },
);

test(
  '--report x.sarif: SARIF 2.1.0 written when the proxy stops (SIGTERM), its results pointing at rules',
  { timeout: 90_000 },
  async () => {
    const dir = tempDir('proxy-sarif');
    const mock = await startCommand(['mock', '--port', '0', '--quiet']);
    try {
      const proxy = await startCommand(['proxy', '--target', mock.url, '--port', '0', '--report', 'violations.sarif'], {
        cwd: dir,
      });
      try {
        const r = await fetch(`${proxy.url}/api/v1/courses/42/modules?include[]=itemz`, { headers: AUTH });
        assert.equal(r.status, 400);
        await until(() => proxy.stderr().includes('invalid-enum'), 'the exchange line');
      } finally {
        assert.equal(await proxy.stop('SIGTERM'), 0);
      }
      const sarif = JSON.parse(readFileSync(join(dir, 'violations.sarif'), 'utf8')) as {
        version: string;
        runs: {
          tool: { driver: { rules: { id: string }[] } };
          results: { ruleId: string; ruleIndex: number; level: string; message: { text: string } }[];
        }[];
      };
      assert.equal(sarif.version, '2.1.0');
      const run = sarif.runs[0];
      const ids = run.tool.driver.rules.map((rule) => rule.id);
      assert.ok(ids.includes('not-checked') && ids.includes('undocumented-field'), 'the proxy codes are rules too');
      assert.deepEqual(
        run.results.map((x) => [x.ruleId, x.level]),
        [['invalid-enum', 'error']],
      );
      assert.equal(ids[run.results[0].ruleIndex], 'invalid-enum');
      assert.match(run.results[0].message.text, /^GET \/api\/v1\/courses\/42\/modules\?include\[\] 400: /);
    } finally {
      await mock.stop('SIGTERM');
    }
  },
);

test(
  'Ctrl-C while an exchange is under way: the exchange finishes, then the proxy exits with 0',
  { timeout: 90_000 },
  async () => {
    let release: () => void = () => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    let arrived = false;
    const slow = createServer((_req, res) => {
      arrived = true;
      void released.then(() => {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('[]');
      });
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const target = `http://127.0.0.1:${(slow.address() as AddressInfo).port}`;
    try {
      const proxy = await startCommand(['proxy', '--target', target, '--port', '0']);
      const answer = fetch(`${proxy.url}/api/v1/courses/42/modules`);
      await until(() => arrived, 'the request at the target');
      const stopped = proxy.stop('SIGINT');
      // The signal has arrived before the target answers: wait until the process has read it (it still runs, its exchange open).
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(proxy.child.exitCode, null, 'still running while its exchange is under way');
      release();
      const r = await answer;
      assert.equal(r.status, 200);
      assert.equal(await r.text(), '[]');
      assert.equal(await stopped, 0);
      assert.match(proxy.stderr(), /^GET \/api\/v1\/courses\/42\/modules 200 /m);
    } finally {
      slow.closeAllConnections();
      await new Promise<void>((resolve) => slow.close(() => resolve()));
    }
  },
);
