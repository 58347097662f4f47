/**
 * How `lpreq check` reads its input: symbolic links followed without loops, a file that cannot
 * be read reported as that file's problem (the others still checked), UTF-16 decoded, and
 * control characters never reaching the terminal as they are. Standard input, pipes and
 * permissions need the command as a process: test/system/checkCommand.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeSync, mkdirSync, openSync, ftruncateSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers';

const tmp = tempDir('cli-input');
/** Any control character a terminal acts on: C0 (but the line break between lines), DEL, C1. */
// eslint-disable-next-line no-control-regex -- control characters are what the tests look for
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

interface Diag {
  file: string;
  line: number;
  column: number;
  endColumn: number;
  severity: string;
  code: string;
}

test(
  'symbolic links to files and folders are followed; a loop neither hangs nor repeats a file',
  { timeout: 30_000 },
  async () => {
    const root = join(tmp, 'sym');
    mkdirSync(join(root, 'real'), { recursive: true });
    mkdirSync(join(root, 'links'), { recursive: true });
    writeFileSync(join(root, 'real', 'a.lpreq'), 'GET /api/v1/courses/1/modulez\n');
    symlinkSync(join('..', 'real', 'a.lpreq'), join(root, 'links', 'b.lpreq'));
    symlinkSync(join('..', 'real'), join(root, 'links', 'sub'));
    // A cycle: links/loop/links/loop/... is links again.
    symlinkSync('..', join(root, 'links', 'loop'));
    const { code, stdout, stderr } = await runCli(['check', '--format', 'json', join('sym', 'links')], { cwd: tmp });
    assert.equal(stderr, '');
    assert.equal(code, 1);
    // a.lpreq is reached three ways (b.lpreq, loop/real/a.lpreq, sub/a.lpreq): checked once, under the name it first came with.
    assert.deepEqual(
      JSON.parse(stdout).map((d: Diag) => [d.file, d.code]),
      [[join('sym', 'links', 'b.lpreq'), 'unknown-endpoint']],
    );
    // Named on the command line through a link and directly: still once.
    const twice = await runCli(['check', '--format', 'json', join('sym', 'real', 'a.lpreq'), join('sym', 'links')], {
      cwd: tmp,
    });
    assert.equal(JSON.parse(twice.stdout).length, 1);
  },
);

test('a folder of only symbolic links is checked, not a green run of nothing', async () => {
  const root = join(tmp, 'only-links');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(tmp, 'target.lpreq'), 'GET /api/v1/courses/1/modulez\n');
  symlinkSync(join('..', 'target.lpreq'), join(root, 'x.lpreq'));
  const { code, stdout } = await runCli(['check', 'only-links'], { cwd: tmp });
  assert.equal(code, 1);
  assert.match(stdout, /1 file checked: 1 error/);
});

test("a dangling symbolic link is that path's problem: the other files are checked, exit 2", async () => {
  const root = join(tmp, 'dangling');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'good.lpreq'), 'GET /api/v1/courses/1/modulez\n');
  symlinkSync('nowhere.lpreq', join(root, 'gone.lpreq'));
  symlinkSync('self.lpreq', join(root, 'self.lpreq'));
  // Under another name, a link to nothing is no request file, but it might have led to a folder of them.
  symlinkSync('missing-folder', join(root, 'more'));
  const { code, stdout, stderr } = await runCli(['check', '--format', 'json', 'dangling'], { cwd: tmp });
  assert.equal(code, 2);
  assert.deepEqual(
    JSON.parse(stdout).map((d: Diag) => [d.file, d.code]),
    [
      [join('dangling', 'gone.lpreq'), 'unreadable-file'],
      [join('dangling', 'good.lpreq'), 'unknown-endpoint'],
      [join('dangling', 'self.lpreq'), 'unreadable-file'],
    ],
  );
  assert.match(stderr, /^lpreq: dangling\/more: a symbolic link to missing-folder, which does not exist; skipped$/m);
  // That one alone does not fail the run: the good file decides.
  const alone = join(tmp, 'dangling-other');
  mkdirSync(alone, { recursive: true });
  writeFileSync(join(alone, 'good.lpreq'), 'GET /api/v1/courses/1/modules\n');
  symlinkSync('missing-folder', join(alone, 'more'));
  const quiet = await runCli(['check', 'dangling-other'], { cwd: tmp });
  assert.equal(quiet.code, 0);
  assert.match(quiet.stderr, /more: a symbolic link to missing-folder/);
  // Named on the command line, a dangling link is a plain one-line error.
  const named = await runCli(['check', join('dangling', 'gone.lpreq')], { cwd: tmp });
  assert.equal(named.code, 2);
  assert.match(named.stderr, /gone\.lpreq: a symbolic link to nowhere\.lpreq, which does not exist/);
  assert.equal(named.stderr.trim().split('\n').length, 1);
});

test('no .lpreq file under a path given is exit 2 with a one-line message, like a wrong path', async () => {
  mkdirSync(join(tmp, 'nothing-here', 'sub'), { recursive: true });
  writeFileSync(join(tmp, 'nothing-here', 'sub', 'readme.http'), 'GET /api/v1/courses\n');
  writeFileSync(join(tmp, 'one-good.lpreq'), 'GET /api/v1/courses/1/modules\n');
  for (const argv of [
    ['check', 'nothing-here'],
    ['check', 'one-good.lpreq', 'nothing-here'],
  ]) {
    const { code, stdout, stderr } = await runCli(argv, { cwd: tmp });
    assert.equal(code, 2, argv.join(' '));
    assert.equal(stdout, '');
    assert.match(stderr, /^lpreq: nothing-here: no \.lpreq file in this folder or below it\n$/);
  }
});

/** A folder with one good file (one error) and every kind of file that cannot be read. */
function mixedFolder(): string {
  const root = join(tmp, 'mixed');
  mkdirSync(root, { recursive: true });
  writeFileSync(join(root, 'a-binary.lpreq'), Buffer.from([0x47, 0x45, 0x54, 0x00, 0xff, 0x00]));
  writeFileSync(join(root, 'b-good.lpreq'), 'GET /api/v1/courses/1/modulez\n');
  // Larger than the limit without writing 65 MB: a sparse file.
  const fd = openSync(join(root, 'c-huge.lpreq'), 'w');
  ftruncateSync(fd, 65 * 1024 * 1024);
  closeSync(fd);
  return root;
}

test("a binary or too large file among good ones is reported as that file's problem in every format; the others are checked; exit 2", async () => {
  mixedFolder();
  const json = await runCli(['check', '--format', 'json', 'mixed'], { cwd: tmp });
  assert.equal(json.code, 2);
  const found = JSON.parse(json.stdout) as (Diag & { message: string })[];
  assert.deepEqual(
    found.map((d) => [d.file, d.code, d.severity, d.line]),
    [
      [join('mixed', 'a-binary.lpreq'), 'unreadable-file', 'error', 1],
      [join('mixed', 'b-good.lpreq'), 'unknown-endpoint', 'error', 1],
      [join('mixed', 'c-huge.lpreq'), 'unreadable-file', 'error', 1],
    ],
  );
  assert.match(found[0].message, /binary/);
  assert.match(found[2].message, /65 MB.*64 MB/);

  const text = await runCli(['check', 'mixed'], { cwd: tmp });
  assert.equal(text.code, 2);
  assert.match(text.stdout, /^mixed\/a-binary\.lpreq:1:1: error unreadable-file: /m);
  assert.match(text.stdout, /^mixed\/c-huge\.lpreq:1:1: error unreadable-file: /m);
  assert.match(text.stdout, /1 file checked: 1 error, 0 warnings; 2 files could not be read\n$/);

  const github = await runCli(['check', '--format', 'github', 'mixed'], { cwd: tmp });
  assert.equal(github.code, 2);
  assert.match(
    github.stdout,
    /^::error file=mixed\/a-binary\.lpreq,line=1,col=1,.*title=lpreq unreadable-file::.*binary/m,
  );
  assert.match(github.stderr, /2 files could not be read/);

  const sarif = await runCli(['check', '--format', 'sarif', 'mixed'], { cwd: tmp });
  assert.equal(sarif.code, 2);
  const run = JSON.parse(sarif.stdout).runs[0];
  assert.deepEqual(
    run.results.map((r: { ruleId: string }) => r.ruleId),
    ['unreadable-file', 'unknown-endpoint', 'unreadable-file'],
  );
  for (const r of run.results) assert.equal(run.tool.driver.rules[r.ruleIndex].id, r.ruleId);
  assert.equal(run.invocations[0].executionSuccessful, false);
  assert.equal(run.invocations[0].toolExecutionNotifications.length, 2);
});

test('UTF-16 with a byte order mark (either order) is read as text; positions count characters after the mark', async () => {
  const text = 'GET /api/v1/courses/{{x}}/modules\n';
  const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
  const be = Buffer.from(le).swap16();
  assert.deepEqual([...be.subarray(0, 2)], [0xfe, 0xff]);
  writeFileSync(join(tmp, 'le.lpreq'), le);
  writeFileSync(join(tmp, 'be.lpreq'), be);
  writeFileSync(join(tmp, 'bom8.lpreq'), `\ufeff${text}`);
  const { code, stdout } = await runCli(['check', '--format', 'json', 'le.lpreq', 'be.lpreq', 'bom8.lpreq'], {
    cwd: tmp,
  });
  assert.equal(code, 1);
  assert.deepEqual(
    JSON.parse(stdout).map((d: Diag) => [d.file, d.code, d.line, d.column, d.endColumn]),
    ['le.lpreq', 'be.lpreq', 'bom8.lpreq'].map((f) => [f, 'unresolved-variable', 1, 21, 26]),
  );
  // Without the mark, UTF-16 is not guessed at: it is named as what it probably is.
  writeFileSync(join(tmp, 'le-nobom.lpreq'), Buffer.from(text, 'utf16le'));
  const nobom = await runCli(['check', '--format', 'json', 'le-nobom.lpreq'], { cwd: tmp });
  assert.equal(nobom.code, 2);
  assert.match(JSON.parse(nobom.stdout)[0].message, /UTF-16 without a byte order mark/);
});

test('an environment file in UTF-16 with a byte order mark (as PowerShell writes it) is read by the same reader', async () => {
  const root = join(tmp, 'env16');
  mkdirSync(root, { recursive: true });
  const json = JSON.stringify({ local: { course: '7' } });
  writeFileSync(
    join(root, 'http-client.env.json'),
    Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(json, 'utf16le')]),
  );
  writeFileSync(join(root, 'a.lpreq'), 'GET /api/v1/courses/{{course}}/modules\n');
  const { code, stdout, stderr } = await runCli(['check', '--format', 'json', '--env', 'local', 'env16'], { cwd: tmp });
  assert.equal(stderr, '');
  assert.equal(code, 0);
  assert.deepEqual(JSON.parse(stdout), []);
});

test('control characters in file names and in quoted values are printed escaped; JSON stays JSON', async () => {
  const root = join(tmp, 'ctl');
  mkdirSync(root, { recursive: true });
  const name = 'e\u001b[31mred\u0007.lpreq';
  // An OSC title sequence and a C1 CSI in a value, which the message quotes.
  writeFileSync(join(root, name), 'GET /api/v1/courses/1/files?order=\u001b]0;pwned\u0007/x\u009b2J\u202e\n');
  const text = await runCli(['check', 'ctl'], { cwd: tmp });
  assert.equal(text.code, 1);
  assert.doesNotMatch(text.stdout, RAW_CONTROL);
  assert.doesNotMatch(text.stdout, /\u202e/);
  assert.match(
    text.stdout,
    /e\\x1b\[31mred\\x07\.lpreq:1:\d+: error invalid-enum: .*\\x1b\]0;pwned\\x07\/x\\x9b2J\\u202e/,
  );

  const github = await runCli(['check', '--format', 'github', 'ctl'], { cwd: tmp });
  assert.doesNotMatch(github.stdout, RAW_CONTROL);
  assert.match(github.stdout, /file=ctl\/e\\x1b\[31mred\\x07\.lpreq/);

  for (const format of ['json', 'sarif']) {
    const out = await runCli(['check', '--format', format, 'ctl'], { cwd: tmp });
    assert.doesNotMatch(out.stdout, RAW_CONTROL, format);
    assert.doesNotMatch(out.stdout, /\u202e/, format);
    const parsed = JSON.parse(out.stdout);
    const message: string = format === 'json' ? parsed[0].message : parsed.runs[0].results[0].message.text;
    assert.ok(message.includes('\u001b]0;pwned\u0007/x\u009b2J\u202e'), 'the JSON holds the value as it is');
  }

  // A path on the command line goes to standard error in a message: escaped there too.
  const missing = await runCli(['check', 'no\u001b[2Jsuch.lpreq'], { cwd: tmp });
  assert.equal(missing.code, 2);
  assert.doesNotMatch(missing.stderr, RAW_CONTROL);
  assert.match(missing.stderr, /no\\x1b\[2Jsuch\.lpreq: no such file or folder/);
});
