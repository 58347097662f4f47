/**
 * Snapshots of a 20 MB list (issue 32: compared in under 1 s): the typed comparison of the
 * list of modules the end-to-end fixture serves (21,500 modules, about 20 MB) with itself made
 * again (every id and URL new, so the list pairs by position) and with itself shuffled
 * (the same ids in another order, so it pairs by id), and the snapshot file's text written and
 * read back; against JSON.parse of the same body (the least any comparison of it does),
 * measured in the same rounds, alternating.
 */
import { bundledCatalog } from '../server/src/catalogData';
import { compareResponses, parseSnapshot, snapshotText } from '../server/src/sender/index';
import { bigBody } from '../test/e2e/fixture';

const ROUNDS = 7;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const time = (f: () => void) => {
  const t = performance.now();
  f();
  return performance.now() - t;
};

export interface SnapshotBench {
  megabytes: number;
  elements: number;
  parseMs: number;
  madeAgainMs: number;
  shuffledMs: number;
  writeMs: number;
  readMs: number;
  snapshotMegabytes: number;
}

export function runSnapshotBench(): SnapshotBench {
  const catalog = bundledCatalog();
  const text = bigBody();
  const before = JSON.parse(text) as Record<string, unknown>[];
  // Made again: new ids and URLs everywhere (the modules have no timestamp).
  const again = before.map((m) => ({
    ...m,
    id: (m.id as number) + 1_000_000,
    prerequisite_module_ids: [99],
    items_url: `https://lms.example.edu/api/v1/courses/4/modules/${(m.id as number) + 1_000_000}/items`,
  }));
  // The same modules in another order (a fixed shuffle).
  const shuffled = [...before];
  for (let i = shuffled.length - 1, seed = 7; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const j = seed % (i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j], shuffled[i]];
  }
  const asResponse = (body: unknown) => ({ status: 200, body, json: true });
  const parse: number[] = [];
  const madeAgain: number[] = [];
  const shuffle: number[] = [];
  const write: number[] = [];
  const read: number[] = [];
  let snapshot = '';
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? ['compare', 'parse'] : ['parse', 'compare'];
    for (const which of order) {
      if (which === 'parse') {
        parse.push(time(() => JSON.parse(text)));
        continue;
      }
      madeAgain.push(
        time(() => {
          const r = compareResponses(catalog, 'Module[]', asResponse(before), asResponse(again));
          if (r.differences.length !== 0)
            throw new Error(`made again: ${r.differences[0].path} ${r.differences[0].kind}`);
        }),
      );
      shuffle.push(
        time(() => {
          const r = compareResponses(catalog, 'Module[]', asResponse(before), asResponse(shuffled));
          if (r.differences.length !== 0)
            throw new Error(`shuffled: ${r.differences[0].path} ${r.differences[0].kind}`);
        }),
      );
      write.push(
        time(() => {
          snapshot = snapshotText({
            request: 'GET /api/v1/courses/4/modules',
            resource: 'Module[]',
            status: 200,
            body: before,
            json: true,
          });
        }),
      );
      read.push(
        time(() => {
          if (!('record' in parseSnapshot(snapshot))) throw new Error('the snapshot does not read back');
        }),
      );
    }
  }
  return {
    megabytes: Buffer.byteLength(text) / 1048576,
    elements: before.length,
    parseMs: median(parse),
    madeAgainMs: median(madeAgain),
    shuffledMs: median(shuffle),
    writeMs: median(write),
    readMs: median(read),
    snapshotMegabytes: Buffer.byteLength(snapshot) / 1048576,
  };
}

export function formatSnapshotBench(b: SnapshotBench): string {
  const ms = (x: number) => `${x.toFixed(0)} ms`;
  const ratio = (x: number) => `${(x / b.parseMs).toFixed(2)}x JSON.parse`;
  return [
    `A list of ${b.elements.toLocaleString('en-US')} modules, ${b.megabytes.toFixed(1)} MB; medians of ${ROUNDS} rounds.`,
    '',
    '| step | median | against JSON.parse of the body |',
    '|---|---|---|',
    `| JSON.parse of the body (reference) | ${ms(b.parseMs)} | 1.00x |`,
    `| compared with itself made again (new ids and URLs: by position) | ${ms(b.madeAgainMs)} | ${ratio(b.madeAgainMs)} |`,
    `| compared with itself shuffled (the same ids: by id) | ${ms(b.shuffledMs)} | ${ratio(b.shuffledMs)} |`,
    `| the snapshot file written (${b.snapshotMegabytes.toFixed(1)} MB of text) | ${ms(b.writeMs)} | ${ratio(b.writeMs)} |`,
    `| the snapshot file read back | ${ms(b.readMs)} | ${ratio(b.readMs)} |`,
    '',
    `Target (issue 32): a 20 MB list compared in under 1 s: ${Math.max(b.madeAgainMs, b.shuffledMs) < 1000 ? 'met' : 'not met'}.`,
  ].join('\n');
}
