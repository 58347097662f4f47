/**
 * What the visibility statements cost the mock (issue 30: under 5% on a list of 100 items).
 * Two mocks in one process of their own, bundled from the same source by esbuild as the built
 * mock is (bench/visibility-server.ts), from the same seed (the bundled one, with 100 more
 * courses Priya studies in and 100 more published modules in BIO-101): one with the catalog as
 * it is, one with every visibility statement taken out (the reference). The same requests go
 * to both, in blocks whose order alternates:
 *
 * - the course list of a student read by an administrator (`/users/1001/courses?per_page=100`):
 *   every statement holds for an administrator, so both answer the same bytes, and the
 *   difference is the interpreter alone (the access statement, the rows statement of 100
 *   courses, the four field statements of each);
 * - the same list as the student (`/courses?per_page=100`): her answer leaves out the SIS
 *   fields, the reference's has them;
 * - the modules of BIO-101 with their items, as the student (`?include[]=items&per_page=100`).
 *
 * What is compared is the CPU time the server process spent on a block of requests to one of
 * them (as the process tells it, to the microsecond, so that a busy machine's waits do not
 * count), per request; medians over the rounds, and the median of the rounds' ratios. The wall time of a request, as the client saw it, is
 * given beside it.
 *
 *   node --import tsx bench/visibility-bench.ts [--rounds N] [--same]
 *
 * `--same` runs the reference against itself: the ratios it gives are the run's noise.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { build, type Plugin } from 'esbuild';
import { Pool } from 'undici';

const ROOT = join(__dirname, '..');
const DATA = join(ROOT, 'bench', '.data');

interface Case {
  name: string;
  path: string;
  token: string;
}

const CASES: Case[] = [
  {
    name: "a student's 100 courses, read by an administrator (the same answer)",
    path: '/api/v1/users/1001/courses?per_page=100',
    token: 'bench-admin-token',
  },
  { name: '100 courses, read by the student', path: '/api/v1/courses?per_page=100', token: 'bench-student-token' },
  {
    name: '100 modules with their items, read by the student',
    path: '/api/v1/courses/42/modules?include[]=items&per_page=100',
    token: 'bench-student-token',
  },
];

export interface VisibilityFigures {
  case: string;
  items: number;
  /** CPU time of the server per request, medians over the rounds. */
  withCpuMs: number;
  referenceCpuMs: number;
  /** Median of the rounds' ratios, with statements / without. */
  ratio: number;
  /** Wall time per request as the client saw it, medians. */
  withWallMs: number;
  referenceWallMs: number;
  sameBody: boolean;
}

/** As scripts/build.mjs bundles jsonc-parser: its ES module build (the UMD one requires its parts at run time). */
const jsoncAsEsm: Plugin = {
  name: 'jsonc-parser-esm',
  setup(b) {
    b.onResolve({ filter: /^jsonc-parser$/ }, (args) =>
      b.resolve('jsonc-parser/lib/esm/main.js', { kind: args.kind, resolveDir: args.resolveDir }),
    );
  },
};

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** The CPU time a server process has used, in milliseconds, as it tells it (process.cpuUsage, to the microsecond). */
function cpuMs(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (us) => resolve(Number(us) / 1000));
    child.send('cpu');
  });
}

function startServer(bundle: string, variants: string[]): Promise<{ child: ChildProcess; urls: string[] }> {
  const variant = variants.join(' and ');
  const child = spawn(process.execPath, [bundle, ...variants], {
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: { ...process.env, LPREQ_ROOT: ROOT },
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${variant} mock did not start`)), 30_000);
    child.stdout?.once('data', (d: Buffer) => {
      clearTimeout(timer);
      resolve({ child, urls: d.toString().trim().split(' ') });
    });
    child.once('exit', (code) => reject(new Error(`the ${variant} mock exited with ${code}`)));
  });
}

async function once(pool: Pool, c: Case): Promise<{ ms: number; body: string }> {
  const t = performance.now();
  const r = await pool.request({ method: 'GET', path: c.path, headers: { authorization: `Bearer ${c.token}` } });
  const body = await r.body.text();
  if (r.statusCode !== 200) throw new Error(`${c.path}: ${r.statusCode} ${body.slice(0, 200)}`);
  return { ms: performance.now() - t, body };
}

export async function runVisibilityBench(
  options: { rounds?: number; block?: number; same?: boolean } = {},
): Promise<VisibilityFigures[]> {
  const rounds = options.rounds ?? 60;
  const block = options.block ?? 40;
  mkdirSync(DATA, { recursive: true });
  const bundle = join(DATA, 'visibility-server.cjs');
  await build({
    entryPoints: [join(ROOT, 'bench', 'visibility-server.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: bundle,
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'error',
    plugins: [jsoncAsEsm],
  });
  // `same`: both mocks without the statements, a calibration (the ratio a run gives for no difference at all).
  const server = await startServer(bundle, [options.same ? 'without' : 'with', 'without']);
  const pools = server.urls.map((url) => new Pool(url, { connections: 1 }));
  try {
    const out: VisibilityFigures[] = [];
    for (const c of CASES) {
      const bodies = [await once(pools[0], c), await once(pools[1], c)].map((b) =>
        b.body.replace(/127\.0\.0\.1:\d+/g, ''),
      );
      for (let i = 0; i < 200; i++) for (const pool of pools) await once(pool, c);
      const cpu: number[][] = [[], []];
      const wall: number[][] = [[], []];
      const ratios: number[] = [];
      for (let r = 0; r < rounds; r++) {
        const order = r % 2 === 0 ? [0, 1] : [1, 0];
        const round: number[] = [0, 0];
        for (const i of order) {
          const before = await cpuMs(server.child);
          const times: number[] = [];
          for (let k = 0; k < block; k++) times.push((await once(pools[i], c)).ms);
          round[i] = ((await cpuMs(server.child)) - before) / block;
          cpu[i].push(round[i]);
          wall[i].push(median(times));
        }
        ratios.push(round[0] / round[1]);
      }
      out.push({
        case: c.name,
        items: (JSON.parse(bodies[0]) as unknown[]).length,
        withCpuMs: median(cpu[0]),
        referenceCpuMs: median(cpu[1]),
        ratio: median(ratios),
        withWallMs: median(wall[0]),
        referenceWallMs: median(wall[1]),
        sameBody: bodies[0] === bodies[1],
      });
    }
    return out;
  } finally {
    for (const p of pools) await p.close();
    server.child.kill('SIGTERM');
  }
}

export function formatVisibilityBench(figures: VisibilityFigures[]): string {
  const lines = [
    '| request | items | CPU ms, with the statements | CPU ms, without (reference) | with / without | wall ms, with | wall ms, without | same answer |',
    '|---|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const f of figures)
    lines.push(
      `| ${f.case} | ${f.items} | ${f.withCpuMs.toFixed(2)} | ${f.referenceCpuMs.toFixed(2)} | ${f.ratio.toFixed(3)} | ${f.withWallMs.toFixed(2)} | ${f.referenceWallMs.toFixed(2)} | ${f.sameBody ? 'yes' : 'no'} |`,
    );
  return lines.join('\n');
}

if (require.main === module) {
  const at = process.argv.indexOf('--rounds');
  const rounds = at === -1 ? undefined : Number(process.argv[at + 1]);
  runVisibilityBench({ rounds, same: process.argv.includes('--same') }).then(
    (f) => console.log(formatVisibilityBench(f)),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
