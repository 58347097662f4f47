/**
 * Issue 26, item 6: everything lpreq writes under a workspace goes through the one confined
 * writer (server/src/node/confinedWriter.ts): no link is followed at any level under the
 * workspace, files are created exclusively and renamed into place, modes stay private.
 */
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { projectMemory } from '../../server/src/sender/environmentChoice';
import { writeResponseFile } from '../../server/src/lsp/responseFiles';
import { confinedFolder, writeConfinedFile } from '../../server/src/node/index';
import { entryFromExchange, HistoryStore, projectStore } from '../../server/src/sender/index';
import { tempDir } from '../helpers';

function clone(): { repo: string; outside: string } {
  const root = tempDir('confined-write');
  const repo = join(root, 'repo');
  const outside = join(root, 'outside');
  mkdirSync(repo);
  mkdirSync(outside);
  writeFileSync(join(outside, 'victim'), 'untouched\n');
  return { repo, outside };
}

const entry = () =>
  entryFromExchange(
    { method: 'GET', url: 'http://127.0.0.1:9/api/v1/courses', headers: [], tokenOrigin: undefined } as never,
    { url: 'http://127.0.0.1:9/api/v1/courses', status: 200, durationMs: 1, ok: true, headers: {} } as never,
  );

test('a committed .lpreq/history link does not make the history be written outside the workspace', async () => {
  const { repo, outside } = clone();
  mkdirSync(join(repo, '.lpreq'));
  symlinkSync(outside, join(repo, '.lpreq', 'history'));
  assert.throws(() => projectStore(repo, 'history'), /history is a symbolic link/);
  // A store made before the link appeared checks again at each write.
  const { repo: other, outside: away } = clone();
  const store = new HistoryStore(projectStore(other, 'history'), { workspace: other });
  await store.add(entry());
  const history = join(other, '.lpreq', 'history');
  for (const name of readdirSync(history)) if (!name.includes('lock')) statSync(join(history, name));
  // Replaced by a link, as a checkout of another branch would.
  rmSync(history, { recursive: true });
  symlinkSync(away, history);
  await assert.rejects(store.add(entry()), /symbolic link/);
  assert.deepEqual(readdirSync(away), ['victim']);
  assert.deepEqual(readdirSync(outside), ['victim']);
});

test("a committed .lpreq/environment.json.tmp-<pid> link does not make a project's remembered environment written outside", () => {
  const { repo, outside } = clone();
  mkdirSync(join(repo, '.lpreq'));
  symlinkSync(join(outside, 'victim'), join(repo, '.lpreq', `environment.json.tmp-${process.pid}`));
  symlinkSync(join(outside, 'victim'), join(repo, '.lpreq', 'environment.json'));
  projectMemory.write(repo, 'staging');
  assert.equal(readFileSync(join(outside, 'victim'), 'utf8'), 'untouched\n');
  // The link at the final name was replaced by a file of the user's own, private.
  const written = lstatSync(join(repo, '.lpreq', 'environment.json'));
  assert.ok(written.isFile());
  assert.equal(written.mode & 0o777, 0o600);
  assert.equal(projectMemory.read(repo), 'staging');
});

test('a .lpreq/environment.json that links outside is not read', () => {
  const { repo, outside } = clone();
  mkdirSync(join(repo, '.lpreq'));
  writeFileSync(join(outside, 'env.json'), '{"environment":"production"}');
  symlinkSync(join(outside, 'env.json'), join(repo, '.lpreq', 'environment.json'));
  assert.equal(projectMemory.read(repo), undefined);
});

test('response files: a .lpreq/responses link or a link at the file name is not written through', () => {
  const { repo, outside } = clone();
  mkdirSync(join(repo, '.lpreq', 'responses'), { recursive: true });
  symlinkSync(join(outside, 'victim'), join(repo, '.lpreq', 'responses', 'a.line-1.txt'));
  const path = writeResponseFile(repo, 'a.line-1', '.txt', 'HTTP 200\n');
  assert.equal(readFileSync(join(outside, 'victim'), 'utf8'), 'untouched\n');
  assert.equal(readFileSync(path, 'utf8'), 'HTTP 200\n');
  assert.equal(lstatSync(path).mode & 0o777, 0o400);

  const other = clone();
  mkdirSync(join(other.repo, '.lpreq'));
  symlinkSync(other.outside, join(other.repo, '.lpreq', 'responses'));
  assert.throws(() => writeResponseFile(other.repo, 'a.line-1', '.txt', 'x'), /symbolic link/);
  assert.deepEqual(readdirSync(other.outside), ['victim']);
});

test('the writer: a link at any level is refused, a .gitignore link is left alone, files are created exclusively', () => {
  const { repo, outside } = clone();
  symlinkSync(outside, join(repo, '.lpreq'));
  assert.throws(() => projectStore(repo, 'history'), /\.lpreq is a symbolic link/);
  assert.deepEqual(readdirSync(outside), ['victim']);

  const second = clone();
  mkdirSync(join(second.repo, '.lpreq'));
  symlinkSync(join(second.outside, 'victim'), join(second.repo, '.lpreq', '.gitignore'));
  projectStore(second.repo, 'history');
  assert.equal(readFileSync(join(second.outside, 'victim'), 'utf8'), 'untouched\n');
  assert.equal(statSync(join(second.repo, '.lpreq', 'history')).mode & 0o777, 0o700);

  const folder = confinedFolder(second.repo, ['.lpreq', 'x']);
  writeConfinedFile(folder, 'once', 'a');
  assert.throws(() => writeConfinedFile(folder, 'once', 'b'), /exists/);
  writeConfinedFile(folder, 'once', 'c', { replace: true });
  assert.equal(readFileSync(join(folder, 'once'), 'utf8'), 'c');
  assert.deepEqual(readdirSync(folder), ['once']);
  assert.throws(() => writeConfinedFile(folder, '../escape', 'x'), /not a file name/);
});

test('the history reads its own files through the confined reader: a committed index.jsonl or index.lock link to /dev/zero is not read without end', async () => {
  const { repo, outside } = clone();
  const history = join(repo, '.lpreq', 'history');
  mkdirSync(history, { recursive: true });
  symlinkSync('/dev/zero', join(history, 'index.jsonl'));
  const store = new HistoryStore(projectStore(repo, 'history'), { workspace: repo });
  await assert.rejects(store.list(), /index\.jsonl: it is outside the workspace .*\/dev\/zero/);
  await assert.rejects(store.add(entry()), /index\.jsonl: it is outside the workspace/);
  assert.ok(
    lstatSync(join(history, 'index.jsonl')).isSymbolicLink(),
    'an index that cannot be read is not written over',
  );

  // A lock that no writer made is stale: removed, and the history written.
  const other = clone();
  const folder = join(other.repo, '.lpreq', 'history');
  mkdirSync(folder, { recursive: true });
  symlinkSync('/dev/zero', join(folder, 'index.lock'));
  const kept = new HistoryStore(projectStore(other.repo, 'history'), { workspace: other.repo });
  const summary = await kept.add(entry());
  assert.equal((await kept.list()).length, 1);
  // An entry that is a link to a file outside is an error, not its content.
  rmSync(join(folder, `${summary.id}.json`));
  symlinkSync(join(other.outside, 'victim'), join(folder, `${summary.id}.json`));
  await assert.rejects(kept.get(summary.id), /outside the workspace/);
  assert.deepEqual(readdirSync(outside), ['victim']);
});
