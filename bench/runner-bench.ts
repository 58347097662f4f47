/**
 * The test runner's own cost per request (issue 19: under 2 ms beyond the HTTP exchange).
 * One file of 200 requests with 5 assertions each, sent to the mock (started in this process,
 * as `lpreq test --mock` starts it) in four ways, alternating, in one run:
 *
 * - runner: `runTests` over the file (check, send, evaluate, scrub, events), as `lpreq test` does;
 * - send loop: `sendBlock` for each request in turn, the flow `lpreq send` runs for one request
 *   (check of the block, prepare, exchange, typed check), without evaluating assertions;
 * - exchange loop: the sender's HTTP exchange alone (`sendPrepared`, the requests prepared
 *   beforehand): a connection of its own for each request, as lpreq sends, the body read,
 *   scrubbed and parsed;
 * - undici loop: the same 200 GETs through undici's `request` over a kept-alive connection,
 *   the body read and parsed: the least an exchange costs;
 * - `lpreq send` as a process per request, on 20 of the requests: what a shell loop over
 *   `lpreq send` costs, for scale.
 *
 * What lpreq test adds beyond the HTTP exchange is (runner - exchange loop) / 200, medians of
 * the rounds; what it adds to lpreq send's flow, (runner - send loop) / 200.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { bundledCatalog } from '../server/src/catalogData';
import { assertionsOf, Checker, parseDocument, type Assertion } from '../server/src/core/index';
import { startMock } from '../server/src/mock/index';
import {
  evaluateAssertion,
  prepareRequest,
  requestBlocks,
  runTests,
  sendBlock,
  sendPrepared,
} from '../server/src/sender/index';

const REQUESTS = 200;
const PROCESS_REQUESTS = 20;
const ROUNDS = 9;
const PROCESS_ROUNDS = 3;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Module 5 to 9 of course 42 in turns: five reads of the seeded data, each checked five ways. */
function file(): string {
  const names = [
    'Week 0: Orientation',
    'Week 1: Lab Safety',
    'Week 2: Microscopy',
    'Week 3: Cell Membranes',
    'Week 4: Osmosis',
  ];
  const blocks: string[] = [];
  for (let i = 0; i < REQUESTS; i++) {
    const id = 5 + (i % 5);
    blocks.push(
      [
        `### Read module ${id} (${i + 1})`,
        `GET {{base_url}}/api/v1/courses/42/modules/${id}`,
        '?? status == 200',
        '?? header content-type includes json',
        `?? body $.name == ${names[id - 5]}`,
        '?? body $.workflow_state == active',
        '?? body $.position >= 1',
        '',
      ].join('\n'),
    );
  }
  return blocks.join('\n');
}

export interface RunnerBench {
  requests: number;
  runnerMs: number;
  sendLoopMs: number;
  exchangeMs: number;
  undiciMs: number;
  /** Evaluating one request's 5 assertions against its response (values shown scrubbed), warm, in the same process. */
  evaluateMs: number;
  /** Per request, of 20 requests each sent by its own `lpreq send` process. */
  processPerRequestMs: number;
  /** What the runner adds to lpreq send's flow, a request. */
  runnerOverSendPerRequestMs: number;
  /** What lpreq test adds beyond the sender's HTTP exchange, a request: the target. */
  runnerOverExchangePerRequestMs: number;
  runnerOverUndiciPerRequestMs: number;
  failures: number;
}

export async function runRunnerBench(): Promise<RunnerBench> {
  const catalog = bundledCatalog();
  const checker = new Checker(catalog);
  const mock = await startMock({ port: 0, catalog });
  const text = file();
  const document = parseDocument(text);
  const environments = { environments: { local: { base_url: mock.url } }, selected: 'local' };
  const urls = requestBlocks(document).map((i) => `${mock.url}/api/v1/courses/42/modules/${5 + (i % 5)}`);
  const prepared = requestBlocks(document).map((i) => {
    const p = prepareRequest(checker, document, i, { environments });
    if (!p.ok) throw new Error(p.error);
    return p.request;
  });
  let failures = 0;

  const ways = {
    runner: async () => {
      const run = await runTests([{ file: 'bench.lpreq', text, environments }], { checker, token: mock.token });
      failures += run.failed;
    },
    sendLoop: async () => {
      const responses = new Map();
      for (const i of requestBlocks(document)) {
        const r = await sendBlock(document, i, { checker, environments, token: mock.token, responses });
        if (!r.ok) failures++;
      }
    },
    exchange: async () => {
      for (const request of prepared) {
        const r = await sendPrepared(request, { token: mock.token });
        if (!r.ok) failures++;
      }
    },
    undici: async () => {
      for (const url of urls) {
        const r = await request(url, {
          headers: { authorization: `Bearer ${mock.token}`, accept: 'application/json' },
        });
        JSON.parse(await r.body.text());
        if (r.statusCode !== 200) failures++;
      }
    },
  };
  type Way = keyof typeof ways;
  const times: Record<Way, number[]> = { runner: [], sendLoop: [], exchange: [], undici: [] };
  const names = Object.keys(ways) as Way[];
  // One untimed pass of each: the code is compiled and the connections are open before any clock starts.
  for (const n of names) await ways[n]();
  failures = 0;
  for (let round = 0; round < ROUNDS; round++) {
    // Each way goes first in turn.
    const order = names.map((_, k) => names[(k + round) % names.length]);
    for (const n of order) {
      const t = performance.now();
      await ways[n]();
      times[n].push(performance.now() - t);
    }
  }

  // The runner's own work on one response, alone: its five assertions evaluated, what they show scrubbed.
  const sample = await sendPrepared(prepared[2], { token: mock.token });
  const assertions = assertionsOf(document.blocks[requestBlocks(document)[2]].block).map(
    (a) => a.assertion as Assertion,
  );
  const evaluate = () =>
    assertions.map((a) => evaluateAssertion(a, sample, a.expected?.text, { secrets: [mock.token] }));
  for (let k = 0; k < 2000; k++) evaluate();
  const evaluations: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const t = performance.now();
    for (let k = 0; k < 1000; k++) evaluate();
    evaluations.push((performance.now() - t) / 1000);
  }

  // `lpreq send` as a process per request, on the built command line, against the same mock.
  const dir = mkdtempSync(join(tmpdir(), 'lpreq-runner-bench-'));
  const processTimes: number[] = [];
  try {
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify(environments.environments));
    writeFileSync(join(dir, 'bench.lpreq'), text);
    const lines = requestBlocks(document)
      .slice(0, PROCESS_REQUESTS)
      .map((i) => text.slice(0, document.blocks[i].start).split('\n').length + 1);
    const bin = join(import.meta.dirname, '..', 'bin', 'lpreq.js');
    // The mock answers in this process: spawnSync would block the event loop it answers on.
    const sendOnce = (line: number) =>
      new Promise<void>((resolve) => {
        const child = spawn(
          process.execPath,
          [bin, 'send', 'bench.lpreq', '--line', String(line), '--no-history', '--format', 'json'],
          {
            cwd: dir,
            env: { PATH: process.env.PATH ?? '', LPREQ_TOKEN: mock.token },
          },
        );
        child.on('close', (code) => {
          if (code !== 0) failures++;
          resolve();
        });
      });
    for (let round = 0; round < PROCESS_ROUNDS; round++) {
      const t = performance.now();
      for (const line of lines) await sendOnce(line);
      processTimes.push((performance.now() - t) / lines.length);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await mock.close();
  }
  const runnerMs = median(times.runner);
  const sendLoopMs = median(times.sendLoop);
  const undiciMs = median(times.undici);
  const exchangeMs = median(times.exchange);
  return {
    requests: REQUESTS,
    runnerMs,
    sendLoopMs,
    exchangeMs,
    undiciMs,
    processPerRequestMs: median(processTimes),
    evaluateMs: median(evaluations),
    runnerOverSendPerRequestMs: (runnerMs - sendLoopMs) / REQUESTS,
    runnerOverExchangePerRequestMs: (runnerMs - exchangeMs) / REQUESTS,
    runnerOverUndiciPerRequestMs: (runnerMs - undiciMs) / REQUESTS,
    failures,
  };
}

export function formatRunnerBench(b: RunnerBench): string {
  const per = (ms: number) => `${(ms / b.requests).toFixed(2)} ms`;
  return [
    `| ${b.requests} requests, 5 assertions each, against the mock (in this process) | total, median of ${ROUNDS} | per request |`,
    '|---|---:|---:|',
    `| runner (runTests: check, send, evaluate, scrub) | ${b.runnerMs.toFixed(0)} ms | ${per(b.runnerMs)} |`,
    `| send loop (sendBlock per request, as lpreq send) | ${b.sendLoopMs.toFixed(0)} ms | ${per(b.sendLoopMs)} |`,
    `| exchange loop (sendPrepared: the sender's HTTP exchange alone) | ${b.exchangeMs.toFixed(0)} ms | ${per(b.exchangeMs)} |`,
    `| bare undici loop (a kept-alive connection) | ${b.undiciMs.toFixed(0)} ms | ${per(b.undiciMs)} |`,
    `| evaluating one request's 5 assertions, shown values scrubbed (warm, alone) | | ${b.evaluateMs.toFixed(3)} ms |`,
    `| lpreq send, a process per request (${PROCESS_REQUESTS} requests, median of ${PROCESS_ROUNDS}) | | ${b.processPerRequestMs.toFixed(0)} ms |`,
    '',
    `beyond the HTTP exchange, lpreq test adds ${b.runnerOverExchangePerRequestMs.toFixed(3)} ms a request (target: under 2 ms); to lpreq send's flow, ${b.runnerOverSendPerRequestMs.toFixed(3)} ms; over a bare undici loop, ${b.runnerOverUndiciPerRequestMs.toFixed(3)} ms; failures: ${b.failures}`,
  ].join('\n');
}
