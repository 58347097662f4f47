/**
 * Adds history entries to the folder given as the first argument.
 * `historyWriter.ts DIR`: in a loop until killed (historyWriters.test.ts kills it mid-write).
 * `historyWriter.ts DIR COUNT KEEP TAG`: says ready, waits for a line on stdin (so that
 * several writers start together), adds COUNT entries and ends.
 * `historyWriter.ts DIR read`: lists the history, then adds one entry, and prints what each
 * gave as JSON (`{ "list": ..., "add": ... }`, or the error code in the place of either).
 */
import { HistoryStore } from '../../server/src/sender/history';

const [dir, count, keep, tag] = process.argv.slice(2);
const entry = (n: number, body: string) => ({
  method: 'GET',
  url: `http://127.0.0.1/${tag ?? ''}${n}`,
  status: 200,
  durationMs: n,
  ok: true,
  request: { method: 'GET', url: `http://127.0.0.1/${n}`, headers: [] },
  responseHeaders: {},
  body,
});

async function loop() {
  const store = new HistoryStore(dir, { keep: 20 });
  const body = 'x'.repeat(200_000);
  process.stdout.write('ready\n');
  for (let n = 0; ; n++) await store.add(entry(n, body));
}

async function some() {
  const store = new HistoryStore(dir, { keep: Number(keep) });
  process.stdout.write('ready\n');
  await new Promise((resolve) => process.stdin.once('data', resolve));
  process.stdin.destroy();
  for (let n = 0; n < Number(count); n++) await store.add(entry(n, `{"n":${n}}`));
}

async function read() {
  const store = new HistoryStore(dir);
  const code = (e: unknown) => ({ error: (e as NodeJS.ErrnoException).code ?? String(e) });
  const list = await store.list().then((l) => l.length, code);
  const add = await store.add(entry(1, '{}')).then((s) => s.id, code);
  process.stdout.write(JSON.stringify({ list, add }));
}

void (count === undefined ? loop() : count === 'read' ? read() : some());
