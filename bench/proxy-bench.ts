/**
 * What `lpreq proxy` adds to an exchange (issue 22: "the proxy adds under 2 ms at p50"): the
 * built mock and the built proxy in front of it, each a process of its own as a user runs
 * them, and one keep-alive client here sending the same request alternately direct to the
 * mock and through the proxy, so that both see the same machine at the same moment. Each run
 * gives the p50 and p99 of both; the report gives their medians over the runs, and the
 * difference and the ratio of the p50s.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { Pool } from 'undici';

const ROOT = join(import.meta.dirname, '..');
const TOKEN = 'bench-token';

interface Options {
  runs?: number;
  pairs?: number;
  warmup?: number;
}

interface Exchange {
  name: string;
  method: string;
  path: string;
  body?: string;
}

/** A list the checker and the typed schemas read whole (Module[] with items), and a form POST. */
const EXCHANGES: Exchange[] = [
  {
    name: 'GET modules?include[]=items',
    method: 'GET',
    path: '/api/v1/courses/42/modules?include[]=items&per_page=10',
  },
  {
    name: 'POST module item',
    method: 'POST',
    path: '/api/v1/courses/42/modules/7/items',
    body: 'module_item[type]=SubHeader&module_item[title]=Bench',
  },
];

function start(argv: string[]): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'lpreq.js'), ...argv], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`lpreq ${argv[0]} printed no address`)), 20_000);
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, url: m[0] });
      }
    });
    child.once('exit', (code) => reject(new Error(`lpreq ${argv[0]} exited with ${code}`)));
  });
}

async function once(pool: Pool, e: Exchange): Promise<number> {
  const t = performance.now();
  const r = await pool.request({
    method: e.method,
    path: e.path,
    headers: {
      authorization: `Bearer ${TOKEN}`,
      ...(e.body ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: e.body,
  });
  await r.body.arrayBuffer();
  const ms = performance.now() - t;
  if (r.statusCode !== 200) throw new Error(`${e.name}: ${r.statusCode}`);
  return ms;
}

const quantile = (xs: number[], q: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
};
const median = (xs: number[]) => quantile(xs, 0.5);

export interface ProxyBenchRow {
  name: string;
  directP50: number;
  proxyP50: number;
  directP99: number;
  proxyP99: number;
  addedP50: number;
  ratioP50: number;
}

export async function runProxyBench(options: Options = {}): Promise<ProxyBenchRow[]> {
  const runs = options.runs ?? 6;
  const pairs = options.pairs ?? 300;
  const mock = await start(['mock', '--port', '0', '--token', TOKEN, '--quiet']);
  const proxy = await start(['proxy', '--target', mock.url, '--port', '0']).catch((e: unknown) => {
    mock.child.kill();
    throw e;
  });
  const direct = new Pool(mock.url, { connections: 1 });
  const through = new Pool(proxy.url, { connections: 1 });
  try {
    const rows: ProxyBenchRow[] = [];
    for (const e of EXCHANGES) {
      for (let i = 0; i < (options.warmup ?? 200); i++) {
        await once(direct, e);
        await once(through, e);
      }
      const perRun: { d50: number; p50: number; d99: number; p99: number }[] = [];
      for (let run = 0; run < runs; run++) {
        const d: number[] = [];
        const p: number[] = [];
        // Alternating, and each pair in the other order every time: neither side always goes first.
        for (let i = 0; i < pairs; i++) {
          if (i % 2 === 0) {
            d.push(await once(direct, e));
            p.push(await once(through, e));
          } else {
            p.push(await once(through, e));
            d.push(await once(direct, e));
          }
        }
        perRun.push({ d50: median(d), p50: median(p), d99: quantile(d, 0.99), p99: quantile(p, 0.99) });
      }
      const directP50 = median(perRun.map((r) => r.d50));
      const proxyP50 = median(perRun.map((r) => r.p50));
      rows.push({
        name: e.name,
        directP50,
        proxyP50,
        directP99: median(perRun.map((r) => r.d99)),
        proxyP99: median(perRun.map((r) => r.p99)),
        addedP50: median(perRun.map((r) => r.p50 - r.d50)),
        ratioP50: proxyP50 / directP50,
      });
    }
    return rows;
  } finally {
    await direct.close();
    await through.close();
    proxy.child.kill('SIGINT');
    mock.child.kill('SIGINT');
  }
}

export function formatProxyBench(rows: ProxyBenchRow[]): string {
  const f = (n: number) => n.toFixed(2);
  const lines = [
    '| exchange | direct p50 ms | through the proxy p50 ms | added at p50 ms | ratio p50 | direct p99 ms | proxy p99 ms |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.name} | ${f(r.directP50)} | ${f(r.proxyP50)} | ${f(r.addedP50)} | ${r.ratioP50.toFixed(2)} | ${f(r.directP99)} | ${f(r.proxyP99)} |`,
    ),
  ];
  const worst = Math.max(...rows.map((r) => r.addedP50));
  lines.push('', `goal: under 2 ms added at p50: ${worst < 2 ? 'met' : 'NOT met'} (largest ${f(worst)} ms)`);
  return lines.join('\n');
}
