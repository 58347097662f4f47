/** Shared test helpers: the repository paths, the bundled catalog, a checker and an in-memory CLI. */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundledCatalog } from '../server/src/catalogData';
import { Checker } from '../server/src/core/index';
import { main } from '../server/src/cli/main';
import { captureIo } from './io';

export const ROOT = join(import.meta.dirname, '..');
export const SHARED = join(ROOT, '..', 'shared');

const madeDirs: string[] = [];

/**
 * A fresh folder, `lpreq-<prefix>-XXXXXX` under the system's temporary folder (or under
 * `parent`, made if need be), removed when the test process exits.
 */
export function tempDir(prefix: string, parent = tmpdir()): string {
  mkdirSync(parent, { recursive: true });
  const dir = mkdtempSync(join(parent, `lpreq-${prefix}-`));
  if (madeDirs.length === 0) {
    process.once('exit', () => {
      for (const d of madeDirs) rmSync(d, { recursive: true, force: true });
    });
  }
  madeDirs.push(dir);
  return dir;
}

let checker: Checker | undefined;
export function sharedChecker(): Checker {
  checker ??= new Checker(bundledCatalog());
  return checker;
}

/** Runs the command line in-process and captures what it prints. */
export async function runCli(argv: string[], options: { cwd?: string; stdin?: string; env?: NodeJS.ProcessEnv } = {}) {
  const out = captureIo({ cwd: options.cwd ?? ROOT, stdin: options.stdin, env: options.env });
  const code = await main(argv, out.io);
  return { code, stdout: out.stdout, stderr: out.stderr };
}
