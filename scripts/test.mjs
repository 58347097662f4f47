// Runs the tests (Node 20 does not expand globs itself, nor run files in one process).
//
//   node scripts/test.mjs            every test: the in-process tier in one process, then
//                                    test/system/ (processes, the clock, over a second), a process per file
//   node scripts/test.mjs --quick    the in-process tier only, with fewer fuzz runs (npm run test:quick)
//   node scripts/test.mjs PATH...    those files or folders, a process per file (with --quick, fewer fuzz runs)
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join, sep } from 'node:path';

/** Fuzz and property runs of the quick tier, unless LPREQ_FUZZ_RUNS says otherwise (test/fuzzRuns.ts). */
const QUICK_FUZZ_RUNS = '100';

function collect(path, out) {
  if (statSync(path).isDirectory()) {
    for (const name of readdirSync(path).sort()) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      collect(join(path, name), out);
    }
  } else if (path.endsWith('.test.ts')) out.push(path);
  return out;
}

/** Each file in a process of its own, as node's test runner does. */
function perFile(files, env = process.env) {
  return (
    spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-reporter=spec', ...files], {
      stdio: 'inherit',
      env,
    }).status ?? 1
  );
}

/** Every file in this one process after another (scripts/inProcessTests.mjs): no process start per file. */
function inOneProcess(files, env = process.env) {
  return (
    spawnSync(
      process.execPath,
      ['--import', 'tsx', '--test-reporter=spec', join('scripts', 'inProcessTests.mjs'), ...files],
      { stdio: 'inherit', env },
    ).status ?? 1
  );
}

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const paths = args.filter((a) => a !== '--quick');
const quickEnv = { ...process.env, LPREQ_FUZZ_RUNS: process.env.LPREQ_FUZZ_RUNS ?? QUICK_FUZZ_RUNS };
if (paths.length > 0) {
  const files = paths.flatMap((p) => collect(p, []));
  process.exit(perFile(files, quick ? quickEnv : process.env));
}

const system = join('test', 'system');
const inProcess = collect('test', []).filter(
  (f) => !f.startsWith(system + sep) && !f.startsWith(join('test', 'e2e') + sep),
);
if (quick) process.exit(inOneProcess(inProcess, quickEnv));
const first = inOneProcess(inProcess);
const second = perFile(collect(system, []));
process.exit(first !== 0 ? first : second);
