/**
 * The `lpreq` command line. `check` and `scopes` are bundled here; heavier commands (send, test, mock, lsp, export, import)
 * live in bundles of their own, loaded only when asked for, so checking stays fast.
 */
import { join } from 'node:path';
import { bundledCatalog } from '../catalogData';
import { Checker } from '../core/index';
import { VERSION } from '../version';
import { UsageError } from './args';
import { runCheck, type Io } from './check';
import { runScopes } from './scopesCommand';
import { printableErrors } from './terminalText';

const USAGE = `lpreq: write, check and send Learning Platform API requests

usage:
  lpreq check [--env NAME] [--format text|json|sarif|github] PATH...
  lpreq scopes [--env NAME] [--format text|json] [PATH...]
  lpreq send PATH [--name NAME | --line N] [--env NAME] [--all-pages] [--timeout MS] [--format text|json]
  lpreq test [--env NAME | --mock] [--reporter text|json|junit|tap|github] [--bail] [--grep TEXT] PATH...
  lpreq mock [--port 4010] [--host 127.0.0.1] [--seed FILE] [--token TOKEN] [--scopes FILE] [--quiet]
  lpreq proxy --target URL [--port 4020] [--report FILE] [--strict] [--scopes FILE]
  lpreq export openapi [--out FILE]
  lpreq import [--from curl|har|postman|http] [--out FILE] [--with-responses] [--force] SOURCE...
  lpreq lsp --stdio
  lpreq --version
`;

/** Subcommands bundled separately: dist/<name>.js exporting `run(argv, io)`. */
const SEPARATE = new Set(['send', 'mock', 'lsp', 'export', 'test', 'proxy', 'import']);

export async function main(argv: string[], given: Io): Promise<number> {
  // Messages quote paths and values from the user's files: no control character reaches the terminal as it is.
  const io = printableErrors(given);
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      io.stdout(USAGE);
      return command === undefined ? 2 : 0;
    }
    if (command === '--version') {
      io.stdout(`${VERSION}\n`);
      return 0;
    }
    // The catalog is loaded once the arguments hold: help and usage errors answer at once.
    if (command === 'check') return await runCheck(rest, io, () => new Checker(bundledCatalog()));
    if (command === 'scopes') return await runScopes(rest, io, () => new Checker(bundledCatalog()));
    if (SEPARATE.has(command)) {
      let mod: { run(argv: string[], io: Io): Promise<number> };
      try {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        mod = require(join(__dirname, `${command}.js`)) as typeof mod;
      } catch (e) {
        io.stderr(
          `lpreq: the ${command} command is not built (${(e as Error).message.split('\n')[0]}); run npm run build\n`,
        );
        return 2;
      }
      return await mod.run(rest, io);
    }
    throw new UsageError(`unknown command '${command}'\n${USAGE}`);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`lpreq: ${e.message}\n`);
      return 2;
    }
    io.stderr(`lpreq: internal error: ${(e as Error).message}\n`);
    return 2;
  }
}
