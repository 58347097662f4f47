/**
 * Two builds of the library, timed in turns: `node --expose-gc --import tsx bench/compare-core.ts
 * <folder of build A> [<folder of build B>]` (B defaults to this tree). Each folder holds a
 * `dist/library.js` (`node scripts/build.mjs --no-code-cache` in a checkout of the base commit
 * makes one). Parse, parse + check with the tree kept, and `diagnose` run over the same
 * 10,000 generated requests, each timed in a fresh process, A then B, round after round, so a
 * drift of the machine's speed reaches both builds alike; the figures are medians of every
 * run (and the fastest), in wall-clock and in CPU time, and the ratio B/A of each mode is
 * given with the spread of the per-round ratios. `LPREQ_BENCH_ASSERTIONS=3` gives each request
 * three assertion lines, and `LPREQ_BENCH_DISTINCT=1` makes them differ from request to request.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { generateRequests, toLpreq } from './generate';
import { median, ROOT } from './core-bench';

const DATA = join(ROOT, 'bench', '.data');
const MODES = ['parse', 'tree', 'diagnose'] as const;

const CHILD = `const fs = require('fs');
const [library, mode, file, runs] = process.argv.slice(2);
const L = require(library);
const text = fs.readFileSync(file, 'utf8');
const env = { environments: {} };
const checker = L.defaultChecker();
const fn = { parse: () => L.parse(text), tree: () => checker.checkDocument(L.parse(text), env), diagnose: () => L.diagnose(text, env) }[mode];
fn(); fn();
const wall = [];
const cpu = [];
for (let i = 0; i < Number(runs); i++) {
  global.gc();
  const c = process.cpuUsage();
  const t = performance.now();
  fn();
  wall.push(performance.now() - t);
  const u = process.cpuUsage(c);
  cpu.push((u.user + u.system) / 1000);
}
process.stdout.write(JSON.stringify({ wall, cpu }));
`;

function main() {
  const [a, b = ROOT] = process.argv.slice(2);
  if (!a) {
    console.error(
      'usage: node --expose-gc --import tsx bench/compare-core.ts <folder of build A> [<folder of build B>]',
    );
    process.exitCode = 2;
    return;
  }
  const rounds = Number(process.env.LPREQ_BENCH_ROUNDS ?? 10);
  const runs = Number(process.env.LPREQ_BENCH_RUNS ?? 7);
  const count = Number(process.env.LPREQ_BENCH_REQUESTS ?? 10000);
  // LPREQ_BENCH_ASSERTIONS=3: each request carries that many assertion lines (issue 19).
  const assertions = Number(process.env.LPREQ_BENCH_ASSERTIONS ?? 0);
  // LPREQ_BENCH_DISTINCT=1: no two requests share their status and duration lines.
  const distinct = process.env.LPREQ_BENCH_DISTINCT === '1';
  const builds = { A: join(resolve(a), 'dist', 'library.js'), B: join(resolve(b), 'dist', 'library.js') };
  mkdirSync(DATA, { recursive: true });
  const library = createRequire(import.meta.filename)(builds.B) as typeof import('../server/src/library');
  const file = join(
    DATA,
    `compare-${count}${assertions > 0 ? `-${assertions}-assertions` : ''}${distinct ? '-distinct' : ''}.lpreq`,
  );
  const catalog = library.bundledCatalog();
  writeFileSync(file, toLpreq(generateRequests(catalog, count), { catalog, assertions, distinct }));
  const script = join(DATA, 'compare-child.cjs');
  writeFileSync(script, CHILD);
  const clocks = ['wall', 'cpu'] as const;
  type Clock = (typeof clocks)[number];
  const empty = () => ({ parse: [] as number[], tree: [] as number[], diagnose: [] as number[] });
  const times = { wall: { A: empty(), B: empty() }, cpu: { A: empty(), B: empty() } };
  const ratios = { wall: empty(), cpu: empty() };
  for (let round = 0; round < rounds; round++) {
    for (const mode of MODES) {
      const roundMedian = { wall: { A: 0, B: 0 }, cpu: { A: 0, B: 0 } };
      // A first in even rounds, B first in odd ones: neither always runs on a warmer machine.
      for (const build of round % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
        const r = spawnSync(process.execPath, ['--expose-gc', script, builds[build], mode, file, String(runs)], {
          encoding: 'utf8',
        });
        if (r.status !== 0) throw new Error(`${build} ${mode} failed: ${r.stderr}`);
        const measured = JSON.parse(r.stdout) as Record<Clock, number[]>;
        for (const clock of clocks) {
          times[clock][build][mode].push(...measured[clock]);
          roundMedian[clock][build] = median(measured[clock]);
        }
      }
      for (const clock of clocks) ratios[clock][mode].push(roundMedian[clock].B / roundMedian[clock].A);
    }
  }
  const f = (x: number) => x.toFixed(1);
  console.log(
    `A: ${builds.A}\nB: ${builds.B}\n${count.toLocaleString('en')} requests${assertions > 0 ? ` with ${assertions} assertions each` : ''}, ${rounds} rounds of ${runs} runs a build and mode`,
  );
  for (const clock of clocks) {
    // CPU time (user + system of the process) leaves out the time the process waited for a
    // core, which on a busy machine is most of the noise of the wall-clock figures.
    console.log(`\n${clock === 'wall' ? 'Wall-clock time' : 'CPU time'}, ms:\n`);
    console.log('| mode | A median | B median | B/A | A fastest | B fastest | per-round B/A: min, median, max |');
    console.log('|---|---:|---:|---:|---:|---:|---|');
    for (const mode of MODES) {
      const ma = median(times[clock].A[mode]);
      const mb = median(times[clock].B[mode]);
      const rs = [...ratios[clock][mode]].sort((x, y) => x - y);
      const fa = Math.min(...times[clock].A[mode]);
      const fb = Math.min(...times[clock].B[mode]);
      console.log(
        `| ${mode} | ${f(ma)} | ${f(mb)} | ${(mb / ma).toFixed(3)} | ${f(fa)} | ${f(fb)} | ${rs[0].toFixed(3)}, ${median(rs).toFixed(3)}, ${rs[rs.length - 1].toFixed(3)} |`,
      );
    }
  }
}

main();
