/**
 * The scrubber of secrets (server/src/sender/secrets.ts) on a large response body: every
 * spelling of three secrets (two tokens, a password) looked for and replaced in a 12 MB JSON
 * list with URLs (percent escapes) and non-ASCII text, against a reference measured in the same
 * rounds, alternating: replacing the same three secrets written as they are (replaceAll), the
 * least any scrubber does. Also the first use of a new secret on a short text (what a
 * command-line run pays once per secret).
 */
import { scrubSecrets } from '../server/src/sender/index';

const ROUNDS = 7;
const SECRETS = [
  '7~AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvWxYz01',
  '9~ZyXwVuTsRqPoNmLkJiHgFeDcBa9876543210ZyXwVuTsRqPoNmLkJiHgFeDcBa98',
  'hunter2-password',
];

function body(): string {
  return JSON.stringify(
    Array.from({ length: 25_000 }, (_, i) => ({
      id: i,
      title: `Week ${i} reading: "Chapter 7" \u2014 notes`,
      position: i,
      type: 'ExternalUrl',
      html_url: `https://canvas.example.edu/courses/1234/modules/items/${i}`,
      url: `https://canvas.example.edu/api/v1/courses/1234/modules/77/items/${i}`,
      external_url: `https://docs.example.org/view?file=My%20Document%20${i}.pdf&from=canvas%2Fmodules`,
      echo: i % 5000 === 0 ? `Bearer ${SECRETS[0]}` : null,
      content_details: { points_possible: 10, due_at: '2026-03-01T12:00:00Z', locked_for_user: false },
    })),
  );
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

export interface ScrubBench {
  megabytes: number;
  scrubMs: number;
  referenceMs: number;
  firstUseMs: number;
}

export function runScrubBench(): ScrubBench {
  const text = body();
  const scrub: number[] = [];
  const reference: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating which goes first, so that neither always finds the other's garbage.
    const order = round % 2 === 0 ? ['scrub', 'reference'] : ['reference', 'scrub'];
    for (const which of order) {
      const t = performance.now();
      if (which === 'scrub') scrubSecrets(text, SECRETS);
      else SECRETS.reduce((out, s) => out.replaceAll(s, '***'), text);
      (which === 'scrub' ? scrub : reference).push(performance.now() - t);
    }
  }
  const first: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const fresh = `tok-${round}-${Math.random().toString(36).slice(2)}-${'x'.repeat(50)}`;
    const t = performance.now();
    scrubSecrets(`GET https://lms.example.edu/api/v1/courses?access_token=${fresh}\n${text.slice(0, 1000)}`, [fresh]);
    first.push(performance.now() - t);
  }
  return {
    megabytes: text.length / 1e6,
    scrubMs: median(scrub),
    referenceMs: median(reference),
    firstUseMs: median(first),
  };
}

export function formatScrubBench(r: ScrubBench): string {
  return [
    `| what | median of ${ROUNDS} |`,
    '|---|---|',
    `| scrubSecrets, ${r.megabytes.toFixed(1)} MB, 3 secrets, every spelling | ${r.scrubMs.toFixed(1)} ms |`,
    `| reference: replaceAll of the 3 secrets as they are | ${r.referenceMs.toFixed(1)} ms |`,
    `| ratio | ${(r.scrubMs / r.referenceMs).toFixed(2)} |`,
    `| first use of a new 70-character secret, 1 KB of text | ${r.firstUseMs.toFixed(2)} ms |`,
  ].join('\n');
}
