/**
 * The list `lpreq scopes --format json` prints is what `lpreq mock --scopes` and
 * `lpreq proxy --scopes` read (processes, as a user runs them): with every scope the examples
 * need, their requests are answered; with one removed, the mock refuses that request (403
 * insufficient-scope, as docs/mock.md says), and the proxy reports it (scope-not-granted) in
 * its header, its line, its JSON-lines report and its SARIF report.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, runCli, tempDir } from '../helpers';
import { startCommand, until } from './commandProcess';

const TOKEN = 'scopes-test-token-5d2a71';
const AUTH = { Authorization: `Bearer ${TOKEN}` };
const CREATE = 'url:POST|/api/v1/courses/{course_id}/modules';

async function lists(dir: string): Promise<void> {
  const { stdout } = await runCli(['scopes', '--format', 'json', join(ROOT, 'examples')]);
  const all = JSON.parse(stdout) as string[];
  assert.ok(all.includes(CREATE));
  writeFileSync(join(dir, 'all.json'), stdout);
  writeFileSync(join(dir, 'fewer.json'), JSON.stringify(all.filter((s) => s !== CREATE)));
}

const createModule = (base: string) =>
  fetch(`${base}/api/v1/courses/42/modules`, {
    method: 'POST',
    headers: { ...AUTH, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: 'module[name]=Week%209',
  });

test(
  'lpreq mock --scopes: the list answers its requests; one scope removed, its request is refused with 403',
  { timeout: 90_000 },
  async () => {
    const dir = tempDir('scopes-mock');
    await lists(dir);
    for (const [file, created] of [
      ['all.json', 200],
      ['fewer.json', 403],
    ] as const) {
      const mock = await startCommand(['mock', '--port', '0', '--token', TOKEN, '--scopes', file, '--quiet'], {
        cwd: dir,
      });
      try {
        await until(() => mock.stdout().includes('stop with Ctrl-C'), 'the start-up lines');
        assert.match(mock.stdout(), new RegExp(`scopes: \\d+ scope\\(s\\) from ${file.replace('.', '\\.')}`));
        assert.equal(mock.stderr(), '', 'every scope of the list is documented');
        assert.equal(
          (await fetch(`${mock.url}/api/v1/courses/sis_course_id:BIO-101/modules`, { headers: AUTH })).status,
          200,
        );
        const r = await createModule(mock.url);
        assert.equal(r.status, created, file);
        if (created === 403) {
          const body = (await r.json()) as { errors: { code: string; message: string }[] };
          assert.equal(body.errors[0].code, 'insufficient-scope');
          assert.ok(body.errors[0].message.includes(CREATE));
        }
      } finally {
        assert.equal(await mock.stop('SIGTERM'), 0);
      }
    }
  },
);

test(
  'lpreq proxy --scopes: a request that needs a scope outside the list is reported, in every report',
  { timeout: 90_000 },
  async () => {
    const dir = tempDir('scopes-proxy');
    await lists(dir);
    const mock = await startCommand(['mock', '--port', '0', '--token', TOKEN, '--scopes', 'all.json', '--quiet'], {
      cwd: dir,
    });
    try {
      for (const report of ['exchanges.jsonl', 'exchanges.sarif']) {
        const proxy = await startCommand(
          ['proxy', '--target', mock.url, '--port', '0', '--scopes', 'fewer.json', '--report', report],
          { cwd: dir },
        );
        try {
          assert.equal((await fetch(`${proxy.url}/api/v1/courses/42/modules`, { headers: AUTH })).status, 200);
          const created = await createModule(proxy.url);
          // Forwarded (the proxy checks, the target decides), with the warning in the header.
          assert.equal(created.status, 200);
          assert.match(created.headers.get('lpreq-violations') ?? '', /"scope-not-granted"/);
          await until(() => proxy.stderr().split('\n').length > 2, 'two exchange lines');
        } finally {
          assert.equal(await proxy.stop('SIGINT'), 0);
        }
        const lines = proxy.stderr().trim().split('\n');
        assert.match(lines[0], /^GET \/api\/v1\/courses\/42\/modules 200 [\d.]+ ms$/);
        assert.match(lines[1], /^POST \/api\/v1\/courses\/42\/modules 200 [\d.]+ ms violations: scope-not-granted$/);
        const text = readFileSync(join(dir, report), 'utf8');
        assert.equal(text.includes(TOKEN), false);
        if (report.endsWith('.jsonl')) {
          const records = text
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as { scope?: string; violations: { code: string; severity: string }[] });
          assert.deepEqual(
            records.map((r) => [r.scope, r.violations.map((v) => `${v.severity} ${v.code}`)]),
            [
              ['url:GET|/api/v1/courses/{course_id}/modules', []],
              [CREATE, ['warning scope-not-granted']],
            ],
          );
        } else {
          const run = (
            JSON.parse(text) as {
              runs: {
                tool: { driver: { rules: { id: string }[] } };
                results: { ruleId: string; ruleIndex: number; level: string; message: { text: string } }[];
              }[];
            }
          ).runs[0];
          assert.deepEqual(
            run.results.map((r) => [r.ruleId, r.level, run.tool.driver.rules[r.ruleIndex].id]),
            [['scope-not-granted', 'warning', 'scope-not-granted']],
          );
          assert.match(run.results[0].message.text, /^POST \/api\/v1\/courses\/42\/modules 200: url:POST\|/);
        }
      }
    } finally {
      await mock.stop('SIGTERM');
    }
  },
);
