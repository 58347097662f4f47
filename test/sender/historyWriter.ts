/** Adds history entries in a loop until killed (history.test.ts kills it mid-write). */
import { HistoryStore } from '../../server/src/sender/history';

const store = new HistoryStore(process.argv[2], { keep: 20 });
const body = 'x'.repeat(200_000);
async function loop() {
  process.stdout.write('ready\n');
  for (let n = 0; ; n++) {
    await store.add({ method: 'GET', url: `http://127.0.0.1/${n}`, status: 200, durationMs: n, ok: true, request: { method: 'GET', url: `http://127.0.0.1/${n}`, headers: [] }, responseHeaders: {}, body });
  }
}
void loop();
