/**
 * `matches` against values a server chose, within a time budget, never on the calling thread.
 * A backtracking pattern such as `^(a|aa)+$` on a long value takes longer than the age of the
 * universe in V8's engine, and the value is the server's to choose: matched on the calling
 * thread, one assertion hangs `lpreq test` (whose `--timeout` covers the exchange only) and,
 * in the editor, blocks the extension host with every extension in it.
 *
 * So every `matches` of every host is decided in one worker thread, kept between assertions,
 * started on first need: V8's engine first, for a quarter of the budget (it is the fastest on
 * sane patterns, and its verdict is JavaScript's); past that, a pattern the linear engine reads
 * whole (linearRegex.ts: no backreference, no lookaround) is decided by it, in time
 * proportional to the value's length; a pattern only a backtracking engine runs keeps V8 for
 * the whole budget. When the budget is spent, the worker is terminated (V8 stops it wherever
 * it is) and the next assertion starts another: a pattern that runs out is a failed assertion
 * that says so. The worker is unreferenced: it keeps no process alive, and leaves after five
 * minutes idle.
 */
import { Worker } from 'node:worker_threads';
import type { Assertion } from '../../core/index';
import {
  evaluateAssertion,
  matchesInput,
  type AssertionOutcome,
  type EvaluationContext,
  type MatchVerdict,
  type ResponseFacts,
} from './evaluate';
import { compileLinear, linearTest, type LinearProgram } from './linearRegex';

/** How long the values of one assertion may take: a sane pattern takes milliseconds on a megabyte. */
const REGEX_BUDGET_MS = 1000;
/** How long a worker may take to start before the assertion fails (a loaded machine's start, not a match). */
const START_LIMIT_MS = 20_000;
/** A worker idle this long is stopped (it holds about 5 MB): the next `matches` starts another. */
const IDLE_MS = 5 * 60_000;

interface Job {
  id: number;
  source: string;
  flags: string;
  texts: readonly string[];
  /** The linear engine's program, when it reads the pattern whole. */
  program?: LinearProgram;
  /** How long V8 tries first when there is a program (ms). */
  slice: number;
}

type Reply = { id: number; first: number } | { id: number; error: string };

/**
 * The worker's script, run from its source text (no file of its own to find in a bundle):
 * `linearTest` reads nothing outside its body. tsx, which runs the tests, names functions
 * with a helper `__name`: defined here as nothing.
 */
const WORKER_SOURCE = `'use strict';
var __name = (f) => f;
const { parentPort } = require('node:worker_threads');
const vm = require('node:vm');
const linearTest = ${linearTest.toString()};
const context = vm.createContext(Object.create(null));
const testAll = new vm.Script(
  '(function () { for (let i = 0; i < texts.length; i++) { re.lastIndex = 0; if (!re.test(texts[i])) return i; } return -1; })()',
);
function backtracking(re, texts, timeout) {
  context.re = re;
  context.texts = texts;
  try {
    return timeout === undefined ? testAll.runInContext(context) : testAll.runInContext(context, { timeout });
  } catch (e) {
    if (e && e.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return undefined;
    throw e;
  } finally {
    context.re = undefined;
    context.texts = undefined;
  }
}
parentPort.on('message', (job) => {
  try {
    const re = new RegExp(job.source, job.flags);
    let first = backtracking(re, job.texts, job.program ? job.slice : undefined);
    if (first === undefined) {
      first = -1;
      for (let i = 0; i < job.texts.length; i++) if (!linearTest(job.program, job.texts[i])) { first = i; break; }
    }
    parentPort.postMessage({ id: job.id, first });
  } catch (e) {
    parentPort.postMessage({ id: job.id, error: String((e && e.message) || e) });
  }
});
parentPort.postMessage({ ready: true });
`;

/** The one worker, once it started (or while it starts). */
let current: { worker: Worker; ready: Promise<Worker> } | undefined;
let idle: NodeJS.Timeout | undefined;
/** Jobs run one at a time: a job waiting behind another does not spend its budget waiting. */
let queue: Promise<unknown> = Promise.resolve();
let nextId = 0;
/** Jobs under way or waiting for the worker: the worker is not idle. */
let busy = 0;

/** The index of the first of `texts` that `regex` does not match (-1: all match), decided off the calling thread within the budget. */
export function firstMismatch(
  regex: RegExp,
  texts: readonly string[],
  budgetMs = REGEX_BUDGET_MS,
): Promise<MatchVerdict> {
  if (texts.length === 0) return Promise.resolve(-1);
  const run = queue.then(() => runJob(regex, texts, Math.max(1, Math.round(budgetMs))));
  queue = run.catch(() => undefined);
  return run;
}

/**
 * One assertion evaluated as the runner evaluates it: the values `matches` tests matched off
 * the calling thread within the budget, then the pure evaluator given the verdict.
 */
export async function evaluateWithinBudget(
  assertion: Assertion,
  response: ResponseFacts,
  expected: string | undefined,
  context: EvaluationContext = {},
): Promise<AssertionOutcome> {
  const input = matchesInput(assertion, response, expected);
  const budget = context.regexBudgetMs ?? REGEX_BUDGET_MS;
  const matched = input ? await firstMismatch(input.regex, input.texts, budget) : undefined;
  return evaluateAssertion(assertion, response, expected, { ...context, regexBudgetMs: budget, matched });
}

/** Starts the worker, if none runs, without waiting for it: a run does so while a request with `matches` is on its way. */
export function warmRegexWorker(): void {
  try {
    ready().then(armIdle, () => undefined);
  } catch {
    // The job that needs it says why it could not start.
  }
}

/** Stops the worker, if one runs (a host that ends, a test); the next `matches` starts another. */
export async function stopRegexWorker(): Promise<void> {
  if (idle) clearTimeout(idle);
  idle = undefined;
  const w = current?.worker;
  current = undefined;
  if (w) await w.terminate();
}

async function runJob(regex: RegExp, texts: readonly string[], budget: number): Promise<MatchVerdict> {
  busy++;
  if (idle) clearTimeout(idle);
  idle = undefined;
  let w: Worker;
  try {
    w = await ready();
  } catch (e) {
    busy--;
    return { error: (e as Error).message };
  }
  const job: Job = {
    id: ++nextId,
    source: regex.source,
    flags: regex.flags,
    texts,
    program: compileLinear(regex),
    slice: Math.max(1, Math.round(budget / 4)),
  };
  const verdict = await new Promise<MatchVerdict>((resolve) => {
    const done = (v: MatchVerdict) => {
      clearTimeout(timer);
      w.off('message', onMessage);
      w.off('exit', onExit);
      resolve(v);
    };
    const onMessage = (reply: Reply) => {
      if (reply.id === job.id) done('error' in reply ? { error: reply.error } : reply.first);
    };
    const onExit = () => done({ error: 'the thread that matches regular expressions stopped' });
    // Referenced: the process waits for the verdict (the idle worker keeps nothing alive).
    const timer = setTimeout(() => {
      discard(w);
      done({ ranOut: job.program ? 'linear' : 'backtracking' });
    }, budget);
    w.on('message', onMessage);
    w.on('exit', onExit);
    w.postMessage(job);
  });
  busy--;
  armIdle();
  return verdict;
}

/** The idle worker is stopped IDLE_MS after the last job, or after it started if no job came. */
function armIdle(): void {
  if (idle) clearTimeout(idle);
  idle = busy === 0 && current ? setTimeout(() => void stopRegexWorker(), IDLE_MS).unref() : undefined;
}

/** The worker, started if none runs, once it said it is ready. */
function ready(): Promise<Worker> {
  if (current) return current.ready;
  const w = new Worker(WORKER_SOURCE, {
    eval: true,
    name: 'lpreq matches',
    // Nothing of the host's flags (a loader, an inspector) nor of its environment (a token).
    execArgv: [],
    env: {},
  });
  w.unref();
  const started = new Promise<Worker>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        fail(new Error(`the thread that matches regular expressions did not start within ${START_LIMIT_MS / 1000} s`)),
      START_LIMIT_MS,
    );
    const fail = (e: Error) => {
      clearTimeout(timer);
      discard(w);
      reject(e);
    };
    w.once('message', () => {
      clearTimeout(timer);
      resolve(w);
    });
    // An error of the worker ends it: the job it ran fails, the next starts another.
    w.on('error', fail);
    w.on('exit', () => fail(new Error('the thread that matches regular expressions stopped')));
  });
  current = { worker: w, ready: started };
  return started;
}

/** Terminates `w` and forgets it: the next job starts another. */
function discard(w: Worker): void {
  if (current?.worker === w) current = undefined;
  void w.terminate();
}
