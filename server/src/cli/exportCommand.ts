/**
 * `lpreq export openapi [--out FILE]` (bundled to dist/export.js): the catalog as an
 * OpenAPI 3.1 document, in JSON, on standard output or in FILE.
 */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { bundledCatalog } from '../catalogData';
import { catalogToOpenApi } from '../core';
import { flagValue, parseArgs, UsageError } from './args';
import type { Io } from './check';
import { HELP_FLAG, helpText, type CommandHelp } from './help';

export const EXPORT_HELP: CommandHelp = {
  usage: 'usage: lpreq export openapi [--out FILE]',
  summary: 'Writes the documentation lpreq knows as an OpenAPI 3.1 document, in JSON.',
  flags: {
    out: { value: true, arg: 'FILE', help: 'write to FILE instead of standard output' },
    help: HELP_FLAG,
  },
  operands: { openapi: 'the format (the one there is)' },
  examples: ['lpreq export openapi --out lms-openapi.json'],
};

/** What `export` can write: one format today, named so that another can be added beside it. */
const FORMATS = new Set(['openapi']);

export function run(argv: string[], io: Io): Promise<number> {
  try {
    const args = parseArgs(argv, EXPORT_HELP.flags);
    if (args.flags.has('help')) {
      io.stdout(helpText(EXPORT_HELP));
      return Promise.resolve(0);
    }
    const [format, ...extra] = args.positionals;
    if (format === undefined) throw new UsageError(`what to export is missing\n${EXPORT_HELP.usage}`);
    if (!FORMATS.has(format))
      throw new UsageError(`cannot export '${format}': the one format is openapi\n${EXPORT_HELP.usage}`);
    if (extra.length > 0) throw new UsageError(`unexpected argument '${extra[0]}'\n${EXPORT_HELP.usage}`);
    const out = flagValue(args, 'out');
    if (out !== undefined && out.trim() === '') throw new UsageError('--out needs a file name');
    const text = `${JSON.stringify(catalogToOpenApi(bundledCatalog(), { version: '0.1.0' }), null, 2)}\n`;
    if (out === undefined || out === '-') {
      io.stdout(text);
      return Promise.resolve(0);
    }
    try {
      writeFileSync(resolve(io.cwd, out), text);
    } catch (e) {
      throw new UsageError(`cannot write ${out} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
    }
    io.stderr(`lpreq export: wrote ${out}\n`);
    return Promise.resolve(0);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`lpreq export: ${e.message}\n`);
      return Promise.resolve(2);
    }
    io.stderr(`lpreq export: internal error: ${(e as Error).message}\n`);
    return Promise.resolve(2);
  }
}
