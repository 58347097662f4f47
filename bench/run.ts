/**
 * `npm run bench`: every benchmark, each reporting medians of several runs and ratios
 * against references measured in the same run. Loopback only; bounded in time.
 * Arguments pick parts: `core`, `lsp`, `send`, `mock`, `scrub`, `runner`, `matches`, `view`, `proxy`, `visibility`, `compare` (all by default).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { formatCore, runCoreBench } from './core-bench';
import { formatMatchesBench, runMatchesBench } from './matches-bench';
import { formatProxyBench, runProxyBench } from './proxy-bench';
import { formatRunnerBench, runRunnerBench } from './runner-bench';
import { formatScrubBench, runScrubBench } from './scrub-bench';
import { formatViewBench, runViewBench } from './view-bench';

async function main() {
  const parts = process.argv.slice(2);
  const want = (p: string) => parts.length === 0 || parts.includes(p);
  if (want('core')) {
    console.log('\n## Language core: parse and check (issue 2)\n');
    console.log(formatCore(await runCoreBench()));
  }
  if (want('scrub')) {
    console.log('\n## Scrubbing secrets from a large body (issue 17)\n');
    console.log(formatScrubBench(runScrubBench()));
  }
  if (want('runner')) {
    console.log('\n## The test runner: its cost per request beyond the exchange (issue 19)\n');
    console.log(formatRunnerBench(await runRunnerBench()));
  }
  if (want('matches')) {
    console.log('\n## What a `matches` assertion costs (issue 26)\n');
    console.log(formatMatchesBench(await runMatchesBench()));
  }
  if (want('view')) {
    console.log('\n## The response view on a 20 MB body (issues 18 and 27)\n');
    console.log(formatViewBench(runViewBench()));
  }
  if (want('lsp') && existsSync(join(import.meta.dirname, 'lsp-bench.ts'))) {
    console.log('\n## Language server over stdio (issue 3)\n');
    const { runLspBench, formatLspBench, formatAfterOpen } = await import('./lsp-bench');
    // LPREQ_BENCH_BASE: another build's bin/lpreq.js, whose sessions alternate with this one's for the figures after open.
    const result = await runLspBench({ baseBin: process.env.LPREQ_BENCH_BASE });
    console.log(formatLspBench(result));
    console.log('\n### Right after open (issue 20)\n');
    console.log(formatAfterOpen(result, 2000));
  }
  if (want('send')) {
    console.log('\n## Sending: the language server and lpreq send against the mock (issue 20)\n');
    const { runSendBench, formatSendBench } = await import('./send-bench');
    console.log(formatSendBench(await runSendBench({})));
  }
  if (want('mock') && existsSync(join(import.meta.dirname, 'mock-load.ts'))) {
    console.log('\n## Mock API under load and faults (issue 6)\n');
    const { runMockLoad, formatMockLoad } = (await import('./mock-load')) as {
      runMockLoad: (o?: object) => Promise<unknown>;
      formatMockLoad?: (r: unknown) => string;
    };
    const result = await runMockLoad({});
    console.log(formatMockLoad ? formatMockLoad(result) : JSON.stringify(result, null, 2));
  }
  if (want('visibility')) {
    console.log("\n## What the visibility statements cost the mock's lists of 100 items (issue 30)\n");
    const { runVisibilityBench, formatVisibilityBench } = await import('./visibility-bench');
    console.log(formatVisibilityBench(await runVisibilityBench()));
  }
  if (want('compare') && existsSync(join(import.meta.dirname, 'mock-compare.ts'))) {
    console.log('\n## lpreq mock and Prism on the exported document, under the same load (issue 22)\n');
    const { runMockCompare, formatMockCompare } = await import('./mock-compare');
    console.log(formatMockCompare(await runMockCompare({ log: (line) => console.error(line) })));
  }
  if (want('proxy')) {
    console.log('\n## What lpreq proxy adds to an exchange (issue 22)\n');
    console.log(formatProxyBench(await runProxyBench()));
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
