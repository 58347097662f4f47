/**
 * What a `matches` assertion costs (issue 26, item 7), through `evaluateBlockAssertions`, the
 * step Send Request and the runner take after each request. One response of the mock (started
 * in this process), and two blocks evaluated on it, alternating, many times a round:
 *
 * - equals: `?? body $.name == Week 0: Orientation`, the reference;
 * - matches: `?? body $.name matches ^Week \d+: [A-Z][a-z]+$`, a normal pattern.
 *
 * What `matches` adds is matches - equals, a call, medians of the rounds. Beside it, the first
 * `matches` of a process (what starting the evaluation costs once), in fresh processes: each
 * sends and evaluates a request with `?? status == 200` untimed, then the equality's request
 * and the `matches` request timed, sent and evaluated as Send Request does (the worker told to
 * start before the send: `readyForAssertions`).
 */
import { spawnSync } from 'node:child_process';
import { bundledCatalog } from '../server/src/catalogData';
import { Checker, LineIndex, parseDocument } from '../server/src/core/index';
import { startMock } from '../server/src/mock/index';
import * as sender from '../server/src/sender/index';

const ROUNDS = 25;
const CALLS = 200;
const PROCESSES = 7;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const TEXT = [
  '### warm-up',
  'GET {{base_url}}/api/v1/courses/42/modules/6',
  '?? status == 200',
  '',
  '### equals',
  'GET {{base_url}}/api/v1/courses/42/modules/5',
  '?? body $.name == Week 0: Orientation',
  '',
  '### matches',
  'GET {{base_url}}/api/v1/courses/42/modules/5',
  '?? body $.name matches ^Week \\d+: [A-Z][a-z]+$',
  '',
].join('\n');

export interface MatchesBench {
  equalsMs: number;
  matchesMs: number;
  /** The request with `matches`, sent and evaluated, first of its kind in a fresh process: median of several processes. */
  firstMatchesMs: number;
  /** The request with the equality before it in the same processes, for reference. */
  firstEqualsMs: number;
  failures: number;
}

async function setUp() {
  const catalog = bundledCatalog();
  const checker = new Checker(catalog);
  const mock = await startMock({ port: 0, catalog });
  const document = parseDocument(TEXT);
  const environments = { environments: { local: { base_url: mock.url } }, selected: 'local' };
  const context = {
    checker,
    lines: new LineIndex(TEXT),
    values: new Map(),
    responses: new Map(),
    secrets: [mock.token],
  };
  /** Sends block `blockIndex` as Send Request does, then evaluates its assertions: whether they passed. */
  const sendAndEvaluate = async (blockIndex: number) => {
    // Absent before issue 26's item 7 (the bench runs on the code before it too).
    (sender as { readyForAssertions?: typeof sender.readyForAssertions }).readyForAssertions?.(document, blockIndex);
    const result = await sender.sendBlock(document, blockIndex, { checker, environments, token: mock.token });
    return (await sender.evaluateBlockAssertions(document, blockIndex, result, context)).every((a) => a.passed);
  };
  const sent = await sender.sendBlock(document, 1, { checker, environments, token: mock.token });
  // `await` takes a result as it is: the evaluation was synchronous before issue 26's item 7.
  const evaluate = async (blockIndex: number) =>
    (await sender.evaluateBlockAssertions(document, blockIndex, sent, context)).every((a) => a.passed);
  return { mock, evaluate, sendAndEvaluate };
}

/** In a fresh process: a warm-up request, then the equality's and the `matches` request, each sent and evaluated, timed. */
async function first(): Promise<void> {
  const { mock, sendAndEvaluate } = await setUp();
  const ok = await sendAndEvaluate(0);
  let t = performance.now();
  const okEquals = await sendAndEvaluate(1);
  const equalsMs = performance.now() - t;
  t = performance.now();
  const okMatches = await sendAndEvaluate(2);
  const matchesMs = performance.now() - t;
  await mock.close();
  process.stdout.write(JSON.stringify({ equalsMs, matchesMs, ok: ok && okEquals && okMatches }));
}

export async function runMatchesBench(): Promise<MatchesBench> {
  const { mock, evaluate } = await setUp();
  let failures = 0;
  const round = async (blockIndex: number) => {
    const t = performance.now();
    for (let k = 0; k < CALLS; k++) if (!(await evaluate(blockIndex))) failures++;
    return (performance.now() - t) / CALLS;
  };
  for (let k = 0; k < 5; k++) {
    await round(1);
    await round(2);
  }
  failures = 0;
  const equals: number[] = [];
  const matches: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2 === 0) {
      equals.push(await round(1));
      matches.push(await round(2));
    } else {
      matches.push(await round(2));
      equals.push(await round(1));
    }
  }
  await mock.close();
  const firsts: { equalsMs: number; matchesMs: number; ok: boolean }[] = [];
  for (let p = 0; p < PROCESSES; p++) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--first'], {
      encoding: 'utf8',
    });
    const out = JSON.parse(child.stdout) as { equalsMs: number; matchesMs: number; ok: boolean };
    if (!out.ok) failures++;
    firsts.push(out);
  }
  return {
    equalsMs: median(equals),
    matchesMs: median(matches),
    firstEqualsMs: median(firsts.map((f) => f.equalsMs)),
    firstMatchesMs: median(firsts.map((f) => f.matchesMs)),
    failures,
  };
}

export function formatMatchesBench(b: MatchesBench): string {
  const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
  return [
    `| evaluateBlockAssertions, one assertion (medians of ${ROUNDS} rounds of ${CALLS} calls) | a call |`,
    '|---|---:|',
    `| \`== Week 0: Orientation\` (reference) | ${us(b.equalsMs)} |`,
    `| \`matches ^Week \\d+: [A-Z][a-z]+$\` | ${us(b.matchesMs)} |`,
    `| matches - equals | **${us(b.matchesMs - b.equalsMs)}** |`,
    `| a fresh process's first request with the equality, sent and evaluated (median of ${PROCESSES}) | ${b.firstEqualsMs.toFixed(2)} ms |`,
    `| its first request with \`matches\`, sent and evaluated, after it | **${b.firstMatchesMs.toFixed(2)} ms** |`,
    '',
    `failures: ${b.failures}`,
  ].join('\n');
}

if (process.argv.includes('--first')) {
  first().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
  });
}
