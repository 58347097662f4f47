/**
 * `lpreq import [--from curl|har|postman|http] [--out FILE] [--with-responses] [--force] SOURCE...`
 * (bundled to dist/import.js): requests from a cURL command, a HAR capture, a Postman
 * collection or environment, or a `.http` file, written as a `.lpreq` file and checked. The
 * file goes to standard output or FILE, the report to standard error. With --out, the
 * environment entries the file needs go into the `http-client.env.json` lpreq reads for it
 * (a name it already has is left alone); without, the report shows them. Every byte written
 * passes the scrubber with the credentials the import left out. The VS Code extension loads
 * this bundle too, for its import commands: it exports what server/src/importHost.ts shares.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { basename, dirname, resolve } from 'node:path';
import {
  detectFormat,
  formatReport,
  IMPORT_FORMATS,
  ImportError,
  type ImportFormat,
  type ImportResult,
  type ImportSource,
} from '../import/index';
import { editorImport, environmentSummary, folderEnvironments, writeEnvironmentEntries } from '../importHost';
import { httpClientEnvironments, readTextInput, readTextStream, type EnvironmentMerge } from '../node/index';
import { scrubSecrets } from '../sender/index';
import { flagValue, parseArgs, UsageError } from './args';
import type { Io } from './check';
import { HELP_FLAG, helpText, type CommandHelp } from './help';
import { printable } from './terminalText';

// What the editor's import commands use of this bundle (client/src/importCommands.ts).
export * from '../importHost';

export const IMPORT_HELP: CommandHelp = {
  usage: `usage: lpreq import [--from ${IMPORT_FORMATS.join('|')}] [--out FILE] [--with-responses] [--force] SOURCE...`,
  summary:
    "Writes the requests of SOURCE as a .lpreq file and checks it: the report (each request's documented endpoint and " +
    'diagnostics) goes to standard error. Authorization headers, cookies, CSRF tokens and session ids are left out: ' +
    'lpreq adds the token.',
  flags: {
    from: {
      value: true,
      choices: [...IMPORT_FORMATS],
      help: 'curl (bash or Windows cmd), har (a browser capture), postman (a collection or environment), http (REST Client, JetBrains)',
    },
    out: {
      value: true,
      arg: 'FILE',
      help: 'write FILE, not standard output, and add the environment entries it needs to http-client.env.json',
    },
    'with-responses': { help: 'HAR: keep each recorded response as an example, in comments' },
    force: { help: 'replace an existing --out FILE' },
    help: HELP_FLAG,
  },
  operands: { 'SOURCE...': 'files to import, or - for standard input (the format is told from the content)' },
  examples: [
    'lpreq import --from curl - < copied-command.txt',
    'lpreq import --out requests/capture.lpreq capture.har',
  ],
};
const IMPORT_USAGE = IMPORT_HELP.usage;

async function readSource(path: string, io: Io, from: ImportFormat | undefined): Promise<ImportSource> {
  if (path === '-') {
    const stdin = io.readStdin();
    const read = typeof stdin === 'string' ? { text: stdin } : await readTextStream(stdin);
    if (read.text === undefined) throw new UsageError(`cannot read standard input: ${read.problem}`);
    return { name: 'standard input', text: read.text, ...(from ? { from } : {}) };
  }
  const absolute = resolve(io.cwd, path);
  const read = await readTextInput(absolute);
  if (read.text === undefined) throw new UsageError(`cannot read ${path}: ${read.problem}`);
  const format = from ?? detectFormat(read.text);
  return {
    name: basename(path),
    text: read.text,
    ...(from ? { from } : {}),
    ...(format === 'http' ? { environments: httpClientEnvironments(absolute) } : {}),
  };
}

export async function run(argv: string[], given: Io): Promise<number> {
  const io = given;
  try {
    const args = parseArgs(argv, IMPORT_HELP.flags);
    if (args.flags.has('help')) {
      io.stdout(helpText(IMPORT_HELP));
      return 0;
    }
    if (args.positionals.length === 0) throw new UsageError(`what to import is missing\n${IMPORT_USAGE}`);
    if (args.positionals.filter((p) => p === '-').length > 1)
      throw new UsageError('standard input (-) can be read once');
    const from = flagValue(args, 'from') as ImportFormat | undefined;
    const out = flagValue(args, 'out');
    if (out !== undefined && out.trim() === '') throw new UsageError('--out needs a file name');
    const outPath = out === undefined || out === '-' ? undefined : resolve(io.cwd, out);
    if (outPath && existsSync(outPath) && !args.flags.has('force'))
      throw new UsageError(`${out} exists: give --force to replace it, or another --out`);
    const sources: ImportSource[] = [];
    for (const p of args.positionals) sources.push(await readSource(p, io, from));
    // The shell grammar's WebAssembly, compiled by Liftoff alone: V8's optimising tier compiles
    // it in the background after the command is done, and the process waited for it to exit.
    // A command line process only (the editor's long-lived host is left as it is).
    if (sources.some((s) => (s.from ?? detectFormat(s.text)) === 'curl')) setFlagsFromString('--liftoff-only');
    const environments = folderEnvironments(outPath ? dirname(outPath) : io.cwd).environments;
    let result: ImportResult;
    try {
      result = await editorImport(sources, { withResponses: args.flags.has('with-responses'), environments });
    } catch (e) {
      if (e instanceof ImportError) throw new UsageError(e.message);
      throw e;
    }
    let merge: EnvironmentMerge | undefined;
    if (outPath) {
      try {
        writeFileSync(outPath, result.text);
      } catch (e) {
        throw new UsageError(`cannot write ${out} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
      }
      try {
        merge = writeEnvironmentEntries(outPath, result);
      } catch (e) {
        io.stderr(`lpreq import: ${printable((e as Error).message)}\n`);
      }
    } else {
      io.stdout(printable(result.text, { lines: true }));
    }
    const header = `lpreq import: ${outPath ? `wrote ${out}` : 'imported'} from ${sources.map((s) => s.name).join(', ')}`;
    const report = formatReport(result.report, header, result.notes) + environmentSummary(result, merge);
    io.stderr(printable(scrubSecrets(report, result.secrets), { lines: true }));
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`lpreq import: ${printable(e.message, { lines: true })}\n`);
      return 2;
    }
    io.stderr(`lpreq import: internal error: ${printable((e as Error).message)}\n`);
    return 2;
  }
}
