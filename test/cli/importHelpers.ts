/** The built import command (dist/import.js), run in-process with its output captured. */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Io } from '../../server/src/cli/check';
import { ROOT } from '../helpers';

type ImportBundle = typeof import('../../server/src/cli/importCommand');

const BUNDLE = join(ROOT, 'dist', 'import.js');

/** The command as built: what `lpreq import` runs, with the bundled WebAssembly shell grammar. */
export function importBundle(): ImportBundle {
  if (!existsSync(BUNDLE)) throw new Error('dist/import.js is not built: run npm run build');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require(BUNDLE) as ImportBundle;
}

export async function runImport(
  argv: string[],
  options: { cwd?: string; stdin?: string } = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: (s) => {
      stdout += s;
    },
    stderr: (s) => {
      stderr += s;
    },
    readStdin: () => options.stdin ?? '',
    isTTY: false,
    env: {},
    cwd: options.cwd ?? ROOT,
  };
  const code = await importBundle().run(argv, io);
  return { code, stdout, stderr };
}
