/** The history store: add, list, get, clear, the last N, and what is left by an interrupted write (processes that write together or are killed: test/system/historyWriters.test.ts). */
import assert from 'node:assert/strict';
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  appendFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { HistoryStore, entryFromExchange, type NewHistoryEntry } from '../../server/src/sender/history';
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

test('add, list (newest first), get, clear; only the last N are kept', async () => {
  const store = new HistoryStore(freshDir(), { keep: 5 });
  assert.deepEqual(await store.list(), []);
  const ids: string[] = [];
  for (let n = 0; n < 8; n++) ids.push((await store.add(entry(n))).id);
  const list = await store.list();
  assert.deepEqual(
    list.map((e) => e.durationMs),
    [7, 6, 5, 4, 3],
  );
  assert.equal((await store.list(2)).length, 2);
  assert.equal((await store.get(ids[7]))?.body, '{"n":7}');
  assert.equal(await store.get(ids[0]), undefined, 'the oldest were removed');
  assert.equal(readdirSync(store.dir).filter((f) => f.endsWith('.json')).length, 5);
  assert.equal(await store.get('../../etc/passwd'), undefined);
  await store.clear();
  assert.deepEqual(await store.list(), []);
  assert.deepEqual(readdirSync(store.dir), []);
});

test('concurrent adds are all recorded', async () => {
  const store = new HistoryStore(freshDir(), { keep: 50 });
  await Promise.all(Array.from({ length: 20 }, (_, n) => store.add(entry(n))));
  assert.equal((await store.list()).length, 20);
});

test('an empty lock file (a writer killed as it created it) does not stop later writes either', async () => {
  const dir = freshDir();
  const store = new HistoryStore(dir);
  await store.add(entry(1));
  writeFileSync(join(dir, 'index.lock'), '');
  await store.add(entry(2));
  assert.deepEqual(
    (await store.list()).map((e) => e.durationMs),
    [2, 1],
  );
  assert.ok(!readdirSync(dir).some((f) => f.startsWith('index.lock')), 'no lock, nor a lock being written, is left');
});

test('no history folder is an empty history; a history that is there but cannot be read is an error, and is not written over', async () => {
  const missing = new HistoryStore(join(freshDir(), 'never-written'));
  assert.deepEqual(await missing.list(), []);
  assert.equal(await missing.get('0000000001-0badc0de'), undefined);
  await missing.clear();

  // A folder where the index should be cannot be read as one, as root too (unlike a chmod).
  const dir = freshDir();
  const store = new HistoryStore(dir);
  const kept = await store.add(entry(1));
  const index = readFileSync(join(dir, 'index.jsonl'), 'utf8');
  renameSync(join(dir, 'index.jsonl'), join(dir, 'index.saved'));
  mkdirSync(join(dir, 'index.jsonl'));
  await assert.rejects(store.list(), (e: NodeJS.ErrnoException) => e.code === 'EISDIR');
  await assert.rejects(store.add(entry(2)), (e: NodeJS.ErrnoException) => e.code === 'EISDIR');
  assert.ok(statSync(join(dir, 'index.jsonl')).isDirectory(), 'the index that could not be read is not replaced');
  rmSync(join(dir, 'index.jsonl'), { recursive: true });
  renameSync(join(dir, 'index.saved'), join(dir, 'index.jsonl'));
  assert.equal(readFileSync(join(dir, 'index.jsonl'), 'utf8'), index);

  // The same for one entry: missing is undefined, unreadable is an error.
  renameSync(join(dir, `${kept.id}.json`), join(dir, 'entry.saved'));
  assert.equal(await store.get(kept.id), undefined);
  mkdirSync(join(dir, `${kept.id}.json`));
  await assert.rejects(store.get(kept.id), (e: NodeJS.ErrnoException) => e.code === 'EISDIR');
});

test('entries never hold the token', () => {
  const e = entryFromExchange(
    {
      method: 'POST',
      url: 'http://h/x?access_token=tok-secret-1',
      headers: [
        ['Authorization', 'Bearer tok-secret-1'],
        ['X-Other', 'tok-secret-1'],
      ],
      body: { contentType: 'a', text: 'k=tok-secret-1' },
      blockIndex: 0,
      returns: null,
      paginated: false,
      paging: 'link',
    },
    {
      ok: true,
      status: 200,
      statusText: 'OK',
      headers: { 'set-cookie': 's=1', echo: 'tok-secret-1' },
      body: null,
      bodyText: 'tok-secret-1',
      bodyKind: 'text',
      bytes: 1,
      durationMs: 1,
      timing: { totalMs: 1 },
      url: 'http://h/x?access_token=tok-secret-1',
      redirects: [],
      tokenSent: true,
      warnings: [],
    },
    { secrets: ['tok-secret-1'] },
  );
  assert.ok(!JSON.stringify(e).includes('tok-secret-1'));
  assert.ok(!e.request.headers.some(([n]) => n === 'Authorization'));
});

test("a body file's entry keeps where its bytes came from, its content type, # @no-redirect and # @timeout, never the bytes", () => {
  const e = entryFromExchange(
    {
      method: 'POST',
      url: 'http://h/upload',
      headers: [],
      body: {
        contentType: 'image/png',
        text: '[6 bytes of binary data from ./logo.png]',
        bytes: Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0xff]),
        file: '/w/logo.png',
      },
      noRedirect: true,
      timeoutMs: 90_000,
      blockIndex: 0,
      returns: null,
      paginated: false,
      paging: 'link',
    },
    {
      ok: true,
      status: 200,
      statusText: 'OK',
      headers: {},
      body: null,
      bodyText: '',
      bodyKind: 'empty',
      bytes: 0,
      durationMs: 1,
      timing: { totalMs: 1 },
      url: 'http://h/upload',
      redirects: [],
      tokenSent: false,
      warnings: [],
    },
  );
  assert.deepEqual(e.request, {
    method: 'POST',
    url: 'http://h/upload',
    headers: [],
    body: '[6 bytes of binary data from ./logo.png]',
    contentType: 'image/png',
    bodyFile: '/w/logo.png',
    noRedirect: true,
    timeoutMs: 90_000,
  });
});

test('a damaged index line and leftovers of an interrupted write are ignored', async () => {
  const store = new HistoryStore(freshDir());
  await store.add(entry(1));
  await store.add(entry(2));
  appendFileSync(join(store.dir, 'index.jsonl'), '{"id":"broken');
  writeFileSync(join(store.dir, 'index.jsonl.tmp-1-deadbeef'), '{"half');
  const list = await store.list();
  assert.deepEqual(
    list.map((e) => e.durationMs),
    [2, 1],
  );
  await store.add(entry(3));
  assert.deepEqual(
    (await store.list()).map((e) => e.durationMs),
    [3, 2, 1],
  );
});

test('clearing while another store adds: no add fails', async () => {
  const dir = freshDir();
  const adder = new HistoryStore(dir, { keep: 10 });
  const clearer = new HistoryStore(dir);
  const adds: Promise<unknown>[] = [];
  const clears: Promise<unknown>[] = [];
  for (let i = 0; i < 60; i++) {
    adds.push(adder.add(entry(i)));
    clears.push(clearer.clear());
  }
  const results = await Promise.allSettled([...adds, ...clears]);
  assert.deepEqual(
    results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason)),
    [],
  );
});

test('the index says what a list shows: the title, the pages merged, why no answer came, a resend', async () => {
  const store = new HistoryStore(freshDir());
  const prepared = {
    method: 'GET',
    url: 'http://h/m',
    headers: [],
    blockIndex: 0,
    returns: null,
    paginated: true,
    paging: 'link' as const,
    title: 'List modules',
  };
  const cancelled = {
    ok: false,
    status: null,
    statusText: '',
    headers: {},
    body: null,
    bodyText: '',
    bodyKind: 'empty' as const,
    bytes: 0,
    durationMs: 3,
    timing: { totalMs: 3 },
    url: 'http://h/m',
    redirects: [],
    tokenSent: false,
    warnings: [],
    error: { kind: 'cancelled' as const, message: 'the request was cancelled' },
  };
  await store.add(entryFromExchange(prepared, cancelled, { environment: 'local' }));
  await store.add(
    entryFromExchange(prepared, { ...cancelled, ok: true, status: 200, error: undefined }, { pages: 25, resent: true }),
  );
  await store.add(entryFromExchange(prepared, { ...cancelled, ok: true, status: 200, error: undefined }, { pages: 1 }));
  const [one, paged, first] = await store.list();
  assert.equal(first.title, 'List modules');
  assert.equal(first.errorKind, 'cancelled');
  assert.equal(first.environment, 'local');
  assert.equal(paged.pages, 25);
  assert.equal(paged.resent, true);
  assert.equal(paged.errorKind, undefined);
  // One page is no Fetch All.
  assert.equal(one.pages, undefined);
});
