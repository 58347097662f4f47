/**
 * `lpreq mock` against Prism (`prism mock` serving the document `lpreq export openapi`
 * writes), under the same bounded load: 100 and 1,000 keep-alive clients on loopback, GETs
 * of a paginated list (a course's modules) and POSTs of a module item. Throughput, p50 and
 * p99 for both, the servers alternating within every round, medians over the rounds.
 *
 * Both servers are child processes; the load comes from this process through undici. Each
 * measurement of `lpreq mock` starts a fresh one (the seeded state, so the items earlier
 * measurements created do not weigh on later ones); Prism keeps no state and runs for the
 * whole comparison.
 * Run: node --import tsx bench/mock-compare.ts [--seconds 2] [--rounds 3]
 *
 * With `--against PATH` (another build's `bin/lpreq.js`, such as a checkout of an earlier
 * commit, built), the other server is that build's `lpreq mock` instead of Prism, started
 * fresh for each measurement like this one: a before and after of the mock itself.
 * `--kinds post` (or `get`) measures one kind of request only.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Pool, request } from 'undici';

const ROOT = join(__dirname, '..');
const DATA = join(ROOT, 'bench', '.data');
const TOKEN = 'bench-token';
const LPREQ = join(ROOT, 'bin', 'lpreq.js');

export type Kind = 'GET list' | 'POST item';
export type Server = 'lpreq mock' | 'other';
const KINDS: Kind[] = ['GET list', 'POST item'];

export interface Figure {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  failed: number;
}

export interface CompareCell {
  kind: Kind;
  clients: number;
  /** Medians over the rounds. */
  lpreq: Figure;
  /** Prism, or the other build of the mock (`against`). */
  other: Figure;
}

export interface CompareResult {
  rounds: number;
  seconds: number;
  /** `Prism 5.14.2`, or `the mock of <path>`. */
  otherName: string;
  cells: CompareCell[];
  failures: string[];
  wallSeconds: number;
}

export interface CompareOptions {
  /** Timed seconds of load per server, kind and client count in each round. */
  seconds?: number;
  rounds?: number;
  clients?: number[];
  /** Another build's bin/lpreq.js: its mock instead of Prism. */
  against?: string;
  kinds?: Kind[];
  log?: (line: string) => void;
}

/** The paginated list (6 modules, 3 a page) and the module item, as both servers are sent them. */
const LIST_PATH = '/api/v1/courses/42/modules?per_page=3';
const ITEM_PATH = '/api/v1/courses/42/modules/7/items';
const ITEM_BODY =
  'module_item[type]=Assignment&module_item[content_id]=305&module_item[title]=Bench%20reading&module_item[indent]=1';
const HEADERS = { authorization: `Bearer ${TOKEN}` };
const FORM_HEADERS = { ...HEADERS, 'content-type': 'application/x-www-form-urlencoded' };

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

function prismBin(): { bin: string; version: string } {
  const require = createRequire(__filename);
  const manifestPath = require.resolve('@stoplight/prism-cli/package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { version: string; bin: Record<string, string> };
  return { bin: join(dirname(manifestPath), manifest.bin.prism), version: manifest.version };
}

/** Resolves once the server answers HTTP at all; a server that exits or stays silent for 30 s is an error. */
async function waitForHttp(child: ChildProcess, port: number, name: string, output: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${name} exited with ${child.exitCode}: ${output()}`);
    try {
      const r = await request(`http://127.0.0.1:${port}/`, { headersTimeout: 2000, bodyTimeout: 2000 });
      await r.body.text();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`${name} did not answer within 30 s: ${output()}`);
}

/** Starts a server; its output is kept (the last few KB, for errors) and otherwise drained. */
async function start(name: Server, args: string[], port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (d: Buffer) => (output = (output + d.toString()).slice(-4000));
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  try {
    await waitForHttp(child, port, name, () => output);
  } catch (e) {
    await stop(child);
    throw e;
  }
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * One server at one client count: `clients` keep-alive connections, each answered once
 * before any clock starts (the ramp of 1,000 connections is not the latency of the load),
 * then for each kind half a second of untimed load to warm the server, then `seconds` of
 * timed load. A request started in the timed window counts, however late it ends.
 */
async function measureServer(
  origin: string,
  clients: number,
  seconds: number,
  failures: string[],
  kinds: Kind[],
): Promise<Map<Kind, Figure>> {
  const pool = new Pool(origin, {
    connections: clients,
    pipelining: 1,
    keepAliveTimeout: 30_000,
    headersTimeout: 30_000,
    bodyTimeout: 30_000,
  });
  const send = async (kind: Kind): Promise<void> => {
    const r =
      kind === 'GET list'
        ? await pool.request({ path: LIST_PATH, method: 'GET', headers: HEADERS })
        : await pool.request({ path: ITEM_PATH, method: 'POST', headers: FORM_HEADERS, body: ITEM_BODY });
    await r.body.text();
    if (r.statusCode !== 200) throw new Error(`${kind} answered ${r.statusCode}`);
  };
  const figures = new Map<Kind, Figure>();
  try {
    let failed = 0;
    const note = (kind: Kind) => (e: unknown) => {
      failed++;
      if (failures.length < 20) failures.push(`${origin} ${kind}: ${(e as Error).message}`);
    };
    await Promise.all(Array.from({ length: clients }, () => send('GET list').catch(note('GET list'))));
    // Reads first, then writes: the list is measured on the seeded state.
    for (const kind of kinds) {
      // Failures of the ramp and the warm-up count too: every request the server got wrong.
      const load = async (until: number, latencies: number[] | undefined) => {
        while (Date.now() < until) {
          const started = performance.now();
          try {
            await send(kind);
            latencies?.push(performance.now() - started);
          } catch (e) {
            note(kind)(e);
          }
        }
      };
      const warm = Date.now() + 500;
      await Promise.all(Array.from({ length: clients }, () => load(warm, undefined)));
      const latencies: number[] = [];
      const begun = performance.now();
      const until = Date.now() + seconds * 1000;
      await Promise.all(Array.from({ length: clients }, () => load(until, latencies)));
      const elapsed = (performance.now() - begun) / 1000;
      latencies.sort((x, y) => x - y);
      figures.set(kind, {
        requestsPerSecond: latencies.length / elapsed,
        p50Ms: percentile(latencies, 50),
        p99Ms: percentile(latencies, 99),
        failed,
      });
      failed = 0;
    }
    return figures;
  } finally {
    await pool.close().catch(() => undefined);
  }
}

export async function runMockCompare(options: CompareOptions = {}): Promise<CompareResult> {
  const seconds = options.seconds ?? 2;
  const rounds = options.rounds ?? 3;
  const clientCounts = options.clients ?? [100, 1000];
  const kinds = options.kinds ?? KINDS;
  const log = options.log ?? (() => undefined);
  const wallStart = performance.now();
  mkdirSync(DATA, { recursive: true });
  const document = join(DATA, 'openapi.json');
  const exported = spawnSync(process.execPath, [LPREQ, 'export', 'openapi', '--out', document], { encoding: 'utf8' });
  if (exported.status !== 0) throw new Error(`lpreq export openapi failed: ${exported.stderr}`);
  // Neither server writes a line per request: Prism's log is turned down to warnings, and the
  // mock's request log (when it has one) is turned off.
  const mockHelp = spawnSync(process.execPath, [LPREQ, 'mock', '--help'], { encoding: 'utf8' }).stdout;
  const quiet = mockHelp.includes('--quiet') ? ['--quiet'] : [];

  // Prism keeps no state and runs throughout; another build of the mock starts fresh for each measurement, as this one does.
  const prism = options.against === undefined ? prismBin() : undefined;
  const prismPort = await freePort();
  const prismChild = prism
    ? await start(
        'other',
        [prism.bin, 'mock', '-h', '127.0.0.1', '-p', String(prismPort), '-v', 'warn', document],
        prismPort,
      )
    : undefined;
  const otherName = prism ? `Prism ${prism.version}` : `the mock of ${options.against ?? ''}`;
  const samples = new Map<string, Figure[]>();
  const failures: string[] = [];
  try {
    for (let round = 0; round < rounds; round++) {
      for (const clients of clientCounts) {
        // A and B alternate: lpreq first in even rounds, the other first in odd ones.
        const order: Server[] = round % 2 === 0 ? ['lpreq mock', 'other'] : ['other', 'lpreq mock'];
        for (const server of order) {
          let figures: Map<Kind, Figure>;
          if (server === 'other' && prismChild) {
            figures = await measureServer(`http://127.0.0.1:${prismPort}`, clients, seconds, failures, kinds);
          } else {
            // A fresh mock for every measurement: each starts from the seeded state, so the
            // items earlier measurements created do not weigh on later ones.
            const bin = server === 'other' ? (options.against ?? LPREQ) : LPREQ;
            const mockPort = await freePort();
            const mock = await start(
              server,
              [bin, 'mock', '--port', String(mockPort), '--token', TOKEN, ...quiet],
              mockPort,
            );
            try {
              figures = await measureServer(`http://127.0.0.1:${mockPort}`, clients, seconds, failures, kinds);
            } finally {
              await stop(mock);
            }
          }
          for (const [kind, figure] of figures) {
            const key = `${server}|${kind}|${clients}`;
            samples.set(key, [...(samples.get(key) ?? []), figure]);
            log(
              `round ${round + 1}: ${server}, ${kind}, ${clients} clients: ${Math.round(figure.requestsPerSecond)} req/s, p50 ${figure.p50Ms.toFixed(1)} ms, p99 ${figure.p99Ms.toFixed(1)} ms${figure.failed ? `, ${figure.failed} failed` : ''}`,
            );
          }
        }
      }
    }
  } finally {
    if (prismChild) await stop(prismChild);
  }
  const medianOf = (key: string): Figure => {
    const list = samples.get(key) ?? [];
    return {
      requestsPerSecond: Math.round(median(list.map((f) => f.requestsPerSecond))),
      p50Ms: Math.round(median(list.map((f) => f.p50Ms)) * 10) / 10,
      p99Ms: Math.round(median(list.map((f) => f.p99Ms)) * 10) / 10,
      failed: list.reduce((n, f) => n + f.failed, 0),
    };
  };
  const cells: CompareCell[] = [];
  for (const kind of kinds) {
    for (const clients of clientCounts) {
      cells.push({
        kind,
        clients,
        lpreq: medianOf(`lpreq mock|${kind}|${clients}`),
        other: medianOf(`other|${kind}|${clients}`),
      });
    }
  }
  return {
    rounds,
    seconds,
    otherName,
    cells,
    failures,
    wallSeconds: Math.round((performance.now() - wallStart) / 1000),
  };
}

export function formatMockCompare(result: CompareResult): string {
  const rows = result.cells.map(
    (c) =>
      `| ${c.kind} | ${c.clients.toLocaleString('en')} | ${c.lpreq.requestsPerSecond.toLocaleString('en')} | ${c.lpreq.p50Ms} | ${c.lpreq.p99Ms} | ${c.other.requestsPerSecond.toLocaleString('en')} | ${c.other.p50Ms} | ${c.other.p99Ms} | ${(c.lpreq.requestsPerSecond / Math.max(1, c.other.requestsPerSecond)).toFixed(2)}x |`,
  );
  const failed = result.cells.reduce((n, c) => n + c.lpreq.failed + c.other.failed, 0);
  const other = result.otherName.startsWith('Prism') ? 'Prism' : 'other';
  return [
    `| request | clients | lpreq mock req/s | p50 ms | p99 ms | ${other} req/s | p50 ms | p99 ms | lpreq / ${other} throughput |`,
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `Medians of ${result.rounds} rounds of ${result.seconds} s per server, request and client count (servers alternating; ${result.otherName}); ` +
      `${failed === 0 ? 'no request failed' : `${failed} requests failed: ${result.failures.slice(0, 3).join('; ')}`}; ${result.wallSeconds} s in all.`,
  ].join('\n');
}

function flag(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  const v = i === -1 ? undefined : Number(process.argv[i + 1]);
  return v !== undefined && Number.isFinite(v) && v > 0 ? v : fallback;
}

function textFlag(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? undefined : process.argv[i + 1];
}

if (require.main === module) {
  const kinds = textFlag('kinds');
  runMockCompare({
    seconds: flag('seconds', 2),
    rounds: flag('rounds', 3),
    against: textFlag('against'),
    kinds: kinds === undefined ? undefined : KINDS.filter((k) => k.toLowerCase().startsWith(kinds.toLowerCase())),
    log: (l) => process.stderr.write(`${l}\n`),
  }).then(
    (result) => {
      process.stdout.write(`${formatMockCompare(result)}\n`);
      process.exitCode = result.cells.every((c) => c.lpreq.failed === 0 && c.other.failed === 0) ? 0 : 1;
    },
    (e: unknown) => {
      process.stderr.write(`mock-compare: ${(e as Error).message}\n`);
      process.exitCode = 2;
    },
  );
}
