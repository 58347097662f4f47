// `npm start`: the main job on the built-in default. It checks examples/ (one file there has
// deliberate mistakes, so the checker has something to catch), then, when the mock API and
// the sender are built, starts the local mock, sends example requests including a
// multi-step flow, prints their typed responses and stops the mock.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const lpreq = join(root, 'bin', 'lpreq.js');
const run = (args) => spawnSync(process.execPath, [lpreq, ...args], { cwd: root, stdio: 'inherit' });

console.log('\n== lpreq check examples/  (examples/mistakes.lpreq holds deliberate mistakes) ==\n');
const check = run(['check', 'examples']);
if (check.status === 2) process.exit(2);

if (existsSync(join(root, 'dist', 'demo.js'))) {
  const demo = spawnSync(process.execPath, [join(root, 'dist', 'demo.js'), root], { cwd: root, stdio: 'inherit' });
  process.exitCode = demo.status ?? 1;
}
