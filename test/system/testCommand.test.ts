/**
 * `lpreq test` end to end: the built command line (bin/lpreq.js) as a process. The examples
 * pass against `--mock` on a clone as it is (no environment change, no server, no network),
 * the file of intended failures fails with exit 1 and the reporters' output of a process, and
 * Ctrl-C stops a run between its requests with exit 2.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, tempDir } from '../helpers';
import { json, startServer, type TestServer } from '../sender/server';

let api: TestServer;
let dir = '';
/** Called when the slow request arrives, to stop the process then. */
let onSlow: (() => void) | undefined;

function lpreq(
  args: string[],
  options: { cwd?: string; env?: Record<string, string>; started?: (child: ChildProcess) => void } = {},
) {
  return new Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }>(
    (resolve) => {
      const child = spawn(process.execPath, [join(ROOT, 'bin', 'lpreq.js'), 'test', ...args], {
        cwd: options.cwd ?? ROOT,
        env: { PATH: process.env.PATH ?? '', ...options.env },
      });
      options.started?.(child);
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
      child.on('close', (code, signal) => {
        clearTimeout(timer);
        resolve({ code, signal, stdout, stderr });
      });
    },
  );
}

before(async () => {
  assert.ok(existsSync(join(ROOT, 'dist', 'test.js')), 'dist/ is built by npm test before the tests run');
  api = await startServer((req, res) => {
    if (req.url.startsWith('/api/v1/courses/1/modules/2')) {
      // Answered late, after the process was told to stop.
      onSlow?.();
      setTimeout(() => json(res, 200, { id: 2 }), 500);
      return;
    }
    return json(res, 200, { id: 1, name: 'Week 1' });
  });
  dir = tempDir('test-system');
  writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { base_url: api.origin } }));
  writeFileSync(
    join(dir, 'slow.lpreq'),
    '### First\nGET /api/v1/courses/1/modules/1\n?? body $.name == Week 1\n\n### Slow\nGET /api/v1/courses/1/modules/2\n\n### Never sent\nGET /api/v1/courses/1/modules/3\n',
  );
});
after(async () => {
  await api.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('npx lpreq test --mock examples/ passes on the clone as it is', { timeout: 120_000 }, async () => {
  const r = await lpreq(['--mock', '--reporter', 'json', 'examples/']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as {
    files: { file: string; requests: unknown[] }[];
    passed: number;
    failed: number;
  };
  assert.equal(out.failed, 0);
  assert.ok(out.passed > 150, `${out.passed} requests passed`);
  const files = out.files.map((f) => f.file);
  assert.ok(
    !files.some((f) => f.endsWith('mistakes.lpreq') || f.endsWith('failing-assertions.lpreq')),
    'the ignore file leaves them out',
  );
  assert.match(r.stderr, /mistakes\.lpreq/);
});

test(
  'examples/failing-assertions.lpreq fails as it says it does: exit 1, each failure at its assertion line',
  { timeout: 60_000 },
  async () => {
    const r = await lpreq(['--mock', '--reporter', 'github', 'examples/failing-assertions.lpreq']);
    assert.equal(r.code, 1, r.stderr);
    const lines = r.stdout.trimEnd().split('\n');
    assert.equal(lines.length, 2, r.stdout);
    for (const line of lines)
      assert.match(
        line,
        /^::error file=examples\/failing-assertions\.lpreq,line=\d+(,col=\d+,endLine=\d+,endColumn=\d+)?,title=[^,]*::/,
      );
    // The name assertion fails at run time; the enum one at run time or, with a checker that reads assertions, before
    // sending: either way the annotation stands on its line.
    const text = readFileSync(join(ROOT, 'examples', 'failing-assertions.lpreq'), 'utf8').split('\n');
    const lineOf = (start: string) => text.findIndex((l) => l.startsWith(start)) + 1;
    assert.ok(
      lines.some((l) => l.includes(`,line=${lineOf('?? body $.name == Week 2: Microscopes')},`)),
      r.stdout,
    );
    assert.ok(
      lines.some((l) => l.includes(`,line=${lineOf('?? body $.workflow_state == published')},`)),
      r.stdout,
    );
  },
);

test(
  'Ctrl-C stops a run between requests: what was not sent is skipped, and the exit status is 2',
  { timeout: 60_000 },
  async () => {
    const r = await lpreq(['--reporter', 'json', 'slow.lpreq'], {
      cwd: dir,
      started: (child) => {
        onSlow = () => child.kill('SIGINT');
      },
    });
    onSlow = undefined;
    assert.equal(r.code, 2, `${r.signal} ${r.stderr}`);
    assert.match(r.stderr, /cancelled/);
    const out = JSON.parse(r.stdout) as {
      files: { requests: { name: string; passed: boolean; skipped: boolean }[] }[];
    };
    assert.deepEqual(
      out.files[0].requests.map((q) => [q.name, q.passed, q.skipped]),
      [
        ['First', true, false],
        ['Slow', false, false],
        ['Never sent', false, true],
      ],
    );
    assert.ok(!api.received.some((q) => q.url.includes('/modules/3')));
  },
);
