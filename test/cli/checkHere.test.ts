/** `lpreq check` with no path checks the folder it runs in, recursively, as a folder given (issue 29). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempDir } from '../helpers';

test('lpreq check with no path checks this folder and the folders below it', async () => {
  const repo = tempDir('check-here');
  mkdirSync(join(repo, 'requests', 'modules'), { recursive: true });
  mkdirSync(join(repo, 'node_modules', 'x'), { recursive: true });
  writeFileSync(join(repo, 'top.lpreq'), 'GET /api/v1/courses/1/modulez\n');
  writeFileSync(join(repo, 'requests', 'modules', 'list.lpreq'), 'GET /api/v1/courses/1/modules?sort=x\n');
  writeFileSync(join(repo, 'node_modules', 'x', 'skipped.lpreq'), 'GET /api/v1/nothing\n');
  const here = await runCli(['check', '--format', 'json'], { cwd: repo });
  assert.equal(here.code, 1, here.stderr);
  assert.deepEqual(
    (JSON.parse(here.stdout) as { file: string; code: string }[]).map((d) => [d.file, d.code]),
    [
      [join('requests', 'modules', 'list.lpreq'), 'unknown-parameter'],
      ['top.lpreq', 'unknown-endpoint'],
    ],
  );
  // The same as naming the folder.
  const named = await runCli(['check', '--format', 'json', '.'], { cwd: repo });
  assert.equal(named.stdout, here.stdout);
  const text = await runCli(['check'], { cwd: repo });
  assert.match(text.stdout, /2 files checked: 1 error, 1 warning/);
});

test('lpreq check with no path in a folder without request files says what to give, exit 2', async () => {
  const empty = tempDir('check-empty');
  writeFileSync(join(empty, 'notes.http'), 'GET /api/v1/courses\n');
  const r = await runCli(['check'], { cwd: empty });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^lpreq: no \.lpreq file in this folder or below it: give the files or folders to check\n$/);
  assert.equal(r.stdout, '');
});
