/** The history store shared by processes: writers at once, writers killed mid-write, locks left by dead ones (historyWriter.ts is the writer). */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { HistoryStore, type NewHistoryEntry } from '../../server/src/sender/history';
import { tempDir } from '../helpers';

const freshDir = () => tempDir('hist');

const entry = (n: number): NewHistoryEntry => ({
  method: 'GET',
  url: `http://127.0.0.1/${n}`,
  status: 200,
  durationMs: n,
  ok: true,
  request: { method: 'GET', url: `http://127.0.0.1/${n}`, headers: [] },
  responseHeaders: {},
  body: `{"n":${n}}`,
});

/** Runs `count` writer processes that add `each` entries apiece to `dir` at the same moment. */
async function writeTogether(dir: string, count: number, each: number, keep: number): Promise<void> {
  const children = Array.from({ length: count }, (_, w) =>
    spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(import.meta.dirname, '..', 'system', 'historyWriter.ts'),
        dir,
        String(each),
        String(keep),
        `w${w}-`,
      ],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    ),
  );
  const ended = children.map((c) => new Promise<number | null>((resolve) => c.once('exit', resolve)));
  await Promise.all(children.map((c) => new Promise((resolve) => c.stdout.once('data', resolve))));
  for (const c of children) c.stdin.write('go\n');
  assert.deepEqual(
    await Promise.all(ended),
    children.map(() => 0),
  );
}

test('several processes writing one folder at once: every entry is listed', async () => {
  const dir = freshDir();
  await writeTogether(dir, 6, 15, 1000);
  const store = new HistoryStore(dir, { keep: 1000 });
  const list = await store.list();
  assert.equal(list.length, 90);
  assert.equal(new Set(list.map((e) => e.url)).size, 90);
  for (const s of list) assert.ok(await store.get(s.id), `entry ${s.id} is readable`);
});

test('several processes writing one folder at once still keep only the last N', async () => {
  const dir = freshDir();
  await writeTogether(dir, 6, 15, 10);
  const store = new HistoryStore(dir, { keep: 10 });
  const list = await store.list();
  assert.equal(list.length, 10);
  const files = readdirSync(dir).filter((f) => f.endsWith('.json'));
  assert.deepEqual(files.sort(), list.map((s) => `${s.id}.json`).sort(), 'the entry files are exactly those listed');
});

test('a lock left by a writer that died does not stop later writes', async () => {
  const dir = freshDir();
  const store = new HistoryStore(dir);
  await store.add(entry(1));
  const child = spawn(process.execPath, ['-e', '']);
  const pid = child.pid as number;
  await new Promise((r) => child.once('exit', r));
  writeFileSync(join(dir, 'index.lock'), `${pid} 0123456789abcdef`);
  await store.add(entry(2));
  assert.deepEqual(
    (await store.list()).map((e) => e.durationMs),
    [2, 1],
  );
  assert.ok(!readdirSync(dir).includes('index.lock'), 'the lock is released');
});

test('a process killed in the middle of writing leaves every earlier entry intact', async () => {
  const dir = freshDir();
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'historyWriter.ts'), dir], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    await new Promise<void>((resolve, reject) => {
      child.stdout.once('data', () => resolve());
      child.once('exit', () => reject(new Error('the writer ended early')));
    });
    await new Promise((r) => setTimeout(r, 400));
  } finally {
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
  }
  // The index parses line by line, and every entry it lists can be read back.
  const text = readFileSync(join(dir, 'index.jsonl'), 'utf8');
  const lines = text.split('\n').filter((l) => l.length > 0);
  for (const line of lines) JSON.parse(line);
  const store = new HistoryStore(dir, { keep: 20 });
  const list = await store.list();
  assert.ok(list.length > 0);
  for (const s of list) {
    const e = await store.get(s.id);
    assert.ok(e, `entry ${s.id} is readable`);
    assert.equal(e.body?.length, 200_000);
  }
  // The store keeps working after the crash.
  await store.add(entry(999));
  assert.equal((await store.list(1))[0].durationMs, 999);
});

test('writers that find one stale lock at once: only one removes it, and no index line is lost', async () => {
  const child = spawn(process.execPath, ['-e', '']);
  const dead = child.pid as number;
  await new Promise((r) => child.once('exit', r));
  for (let round = 0; round < 30; round++) {
    const dir = freshDir();
    writeFileSync(join(dir, 'index.lock'), `${dead} 0123456789abcdef`);
    // Separate stores stand for separate processes: each has its own queue.
    const stores = [0, 1, 2, 3].map(() => new HistoryStore(dir, { keep: 100 }));
    await Promise.all(stores.map((s, i) => s.add(entry(i))));
    const listed = (await new HistoryStore(dir).list()).map((e) => e.durationMs).sort();
    assert.deepEqual(listed, [0, 1, 2, 3], `round ${round}`);
  }
});

test('what writers killed mid-write left (entry files no index lists, *.tmp-* files) is removed by the next writer once older than a stale lock', async () => {
  const dir = freshDir();
  // Writers killed at random points of a write, three times over.
  for (let round = 0; round < 3; round++) {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'historyWriter.ts'), dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      child.stdout.once('data', () => resolve());
      child.once('exit', () => reject(new Error('the writer ended early')));
    });
    await new Promise((r) => setTimeout(r, 150 + 100 * round));
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
  }
  // Leftovers as a killed writer leaves them, wherever the kill fell.
  const orphan = '0000000001-0badc0de';
  writeFileSync(join(dir, `${orphan}.json`), '{}');
  writeFileSync(join(dir, `${orphan}.json.tmp-999999-deadbeef`), '{"half');
  writeFileSync(join(dir, 'index.jsonl.tmp-999999-cafebabe'), '{"half');
  writeFileSync(join(dir, 'index.lock.tmp-999999-00112233'), '999999 00');
  // Time passes: all of it is older than a stale lock now.
  const old = new Date(Date.now() - 120_000);
  for (const name of readdirSync(dir)) utimesSync(join(dir, name), old, old);
  // Another writer's entry, written a moment ago and not listed yet, is left alone.
  const inProgress = `${Date.now().toString(36).padStart(9, '0')}-01234567`;
  writeFileSync(join(dir, `${inProgress}.json`), '{}');
  const store = new HistoryStore(dir, { keep: 20 });
  await store.add(entry(1000));
  const listed = new Set((await store.list()).map((s) => `${s.id}.json`));
  const left = readdirSync(dir).filter((n) => n !== 'index.jsonl' && !listed.has(n));
  assert.deepEqual(left, [`${inProgress}.json`]);
  assert.ok(listed.size <= 20);
});

test('a history another user owns, or one without read permission, is an error (EACCES), not an empty history; nothing is written over it', async () => {
  const dir = freshDir();
  const store = new HistoryStore(dir);
  await store.add(entry(1));
  const index = readFileSync(join(dir, 'index.jsonl'), 'utf8');
  // Root reads every file: as root, the reader runs as nobody (65534), for whom the folder is another user's.
  const asRoot = process.getuid?.() === 0;
  if (!asRoot) chmodSync(join(dir, 'index.jsonl'), 0);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'historyWriter.ts'), dir, 'read'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
      ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
    },
  );
  let stdout = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  assert.equal(await new Promise((resolve) => child.once('close', resolve)), 0);
  assert.deepEqual(JSON.parse(stdout), { list: { error: 'EACCES' }, add: { error: 'EACCES' } });
  if (!asRoot) chmodSync(join(dir, 'index.jsonl'), 0o600);
  assert.equal(readFileSync(join(dir, 'index.jsonl'), 'utf8'), index);
});
