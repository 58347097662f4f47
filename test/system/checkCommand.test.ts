/**
 * `lpreq check` as a process: the built command (bin/lpreq.js) run by node or a shell, with
 * standard input from a slow pipe, an endless one or /dev/zero, a named pipe, a file it may
 * not read, and a reader that stops early.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, openSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, ROOT, SHARED, tempDir } from '../helpers';

const invalid = join(SHARED, 'conformance', 'invalid');
const tmp = tempDir('cli-input');
const BIN = join(ROOT, 'bin', 'lpreq.js');

interface Diag {
  file: string;
  line: number;
  column: number;
  endColumn: number;
  severity: string;
  code: string;
}

/** Runs a shell line with the built command as "$LPREQ"; killed after `limitMs` so a hang fails instead of blocking. */
function shell(
  line: string,
  options: { limitMs?: number; stdin?: number } = {},
): Promise<{ code: number | null; stdout: string; stderr: string; killed: boolean }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', line], {
      cwd: tmp,
      env: { PATH: process.env.PATH ?? '', LPREQ: `${process.execPath} ${BIN}` },
      stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let killed = false;
    child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      killed = true;
      child.kill('SIGKILL');
    }, options.limitMs ?? 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, killed });
    });
  });
}

test('the built command runs as a process: npx lpreq check', () => {
  const result = spawnSync(
    process.execPath,
    [join(ROOT, 'bin', 'lpreq.js'), 'check', '--format', 'json', join(invalid, '110-module-item-type-video.lpreq')],
    {
      encoding: 'utf8',
    },
  );
  assert.equal(result.status, 1);
  assert.equal(JSON.parse(result.stdout)[0].code, 'invalid-enum');
  const bad = spawnSync(process.execPath, [join(ROOT, 'bin', 'lpreq.js'), 'check', '--nope'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.equal(bad.stderr.trim().split('\n').length, 1);
});

test('a reader that stops early (lpreq check | head) ends the output quietly, with the exit status of the check', async () => {
  const lines = [];
  for (let i = 0; i < 3000; i++) lines.push(`### ${i}\nGET /api/v1/courses/${i}/modulez\n`);
  writeFileSync(join(tmp, 'many.lpreq'), lines.join('\n'));
  const { spawn } = await import('node:child_process');
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'lpreq.js'), 'check', join(tmp, 'many.lpreq')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  child.stdout.once('data', () => child.stdout.destroy());
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  assert.equal(stderr, '');
  assert.equal(code, 1);
});

test('standard input that arrives late (a slow pipe) is read whole', async () => {
  const r = await shell(`(sleep 1; printf 'GETT /api/v1/courses\\n') | $LPREQ check --format json -`);
  assert.equal(r.stderr, '');
  assert.equal(r.code, 1);
  assert.deepEqual(
    JSON.parse(r.stdout).map((d: Diag) => [d.file, d.code]),
    [['-', 'syntax']],
  );
});

test("endless standard input stops at the 64 MB limit, reported as that input's problem with exit 2", async () => {
  // `yes` writes without end; the command must stop reading by itself (SIGPIPE then stops yes).
  const r = await shell(`yes '# a comment line' | $LPREQ check --format json -`, { limitMs: 60_000 });
  assert.equal(r.killed, false, 'stopped by itself');
  assert.equal(r.code, 2);
  const [d, ...rest] = JSON.parse(r.stdout) as (Diag & { message: string })[];
  assert.deepEqual(rest, []);
  assert.deepEqual([d.file, d.code, d.severity], ['-', 'unreadable-file', 'error']);
  assert.match(d.message, /64 MB/);
});

test('standard input from /dev/zero is called binary and not read to the end', async () => {
  const zero = openSync('/dev/zero', 'r');
  try {
    const r = await shell('$LPREQ check -', { stdin: zero, limitMs: 60_000 });
    assert.equal(r.killed, false);
    assert.equal(r.code, 2);
    assert.match(r.stdout, /^-:1:1: error unreadable-file: .*binary/m);
  } finally {
    closeSync(zero);
  }
});

test(
  'a pipe named *.lpreq in a folder is reported, not read (it could block the run); named on the command line it is read',
  { timeout: 30_000 },
  async () => {
    const root = join(tmp, 'fifo');
    mkdirSync(root, { recursive: true });
    writeFileSync(join(root, 'good.lpreq'), 'GET /api/v1/courses/1/modules\n');
    assert.equal(spawnSync('mkfifo', [join(root, 'pipe.lpreq')]).status, 0);
    const { code, stdout } = await runCli(['check', '--format', 'json', 'fifo'], { cwd: tmp });
    assert.equal(code, 2);
    assert.deepEqual(
      JSON.parse(stdout).map((d: Diag) => [d.file, d.code]),
      [[join('fifo', 'pipe.lpreq'), 'unreadable-file']],
    );
    const named = await shell(
      `printf 'GETT /x\\n' > fifo/pipe.lpreq & $LPREQ check --format json fifo/pipe.lpreq; s=$?; wait; exit $s`,
    );
    assert.equal(named.code, 1);
    assert.deepEqual(
      JSON.parse(named.stdout).map((d: Diag) => [d.file, d.code]),
      [['fifo/pipe.lpreq', 'syntax']],
    );
  },
);

test("a file without read permission is that file's problem", async () => {
  const root = join(tmp, 'locked');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'a.lpreq'), 'GET /api/v1/courses/1/modules\n');
  writeFileSync(join(root, 'b.lpreq'), 'GET /api/v1/courses/1/modules\n');
  chmodSync(join(root, 'a.lpreq'), 0);
  // Root reads every file: as root, the command runs as nobody (65534), who may enter the test folder.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chmodSync(tmp, 0o755);
  const r = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, 'check', '--format', 'json', 'locked'], {
      cwd: tmp,
      stdio: ['ignore', 'pipe', 'inherit'],
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout });
    });
  });
  assert.equal(r.code, 2);
  const found = JSON.parse(r.stdout) as (Diag & { message: string })[];
  assert.deepEqual(
    found.map((d) => [d.file, d.code]),
    [[join('locked', 'a.lpreq'), 'unreadable-file']],
  );
  assert.match(found[0].message, /permission denied/);
});
