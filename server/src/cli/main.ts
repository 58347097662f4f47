/**
 * The `lpreq` command line. `check` and `scopes` are bundled here; heavier commands (send, test, mock, lsp, export, import)
 * live in bundles of their own, loaded only when asked for, so checking stays fast.
 */
import { join } from 'node:path';
import { bundledCatalog } from '../catalogData';
import { Checker, closest } from '../core/index';
import { VERSION } from '../version';
import { UsageError } from './args';
import { runCheck, type Io } from './check';
import { runScopes } from './scopesCommand';
import { printableErrors } from './terminalText';

/** Every command, with its one line of `lpreq --help`. */
const COMMANDS: [string, string][] = [
  ['check', 'check request files against the API documentation (this folder when no path is given)'],
  ['scopes', 'list the token scopes the requests need (this folder when no path is given)'],
  ['send', 'send one request of a file and print the typed response'],
  ['test', 'send every request of files and folders and evaluate their ?? assertions'],
  ['env', 'show or remember the environment every host uses in this project'],
  ['mock', 'run the mock API, answered from the documentation'],
  ['proxy', "forward an integration's requests to an instance and check them"],
  ['export', 'write the documentation as an OpenAPI document'],
  ['import', 'write requests from cURL, HAR, Postman or .http files as a checked .lpreq file'],
  ['lsp', 'run the language server over standard input and output (for an editor)'],
];

const USAGE = `lpreq: write, check and send Learning Platform API requests

usage: lpreq COMMAND [options]   (lpreq COMMAND --help for a command's options)

commands:
${COMMANDS.map(([name, line]) => `  ${name.padEnd(7)}  ${line}`).join('\n')}

options:
  --help     print this help and exit
  --version  print the version and exit

examples:
  lpreq check
  lpreq send requests/modules.lpreq --name createModule --env staging
  lpreq test --mock requests/
  lpreq lsp --stdio
`;

/** Subcommands bundled separately: dist/<name>.js exporting `run(argv, io)`. */
const SEPARATE = new Set(['send', 'mock', 'lsp', 'export', 'test', 'proxy', 'import', 'env']);

export async function main(argv: string[], given: Io): Promise<number> {
  // Messages quote paths and values from the user's files: no control character reaches the terminal as it is.
  const io = printableErrors(given);
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      if (command === 'help' && rest[0] !== undefined) return await main([rest[0], '--help'], given);
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
    const near = command.startsWith('-')
      ? closest(command.replace(/^-+/, ''), ['help', 'version'])
      : closest(
          command,
          COMMANDS.map(([name]) => name),
        );
    const meant =
      near === undefined ? '' : command.startsWith('-') ? `; did you mean --${near}?` : `; did you mean ${near}?`;
    throw new UsageError(
      `unknown ${command.startsWith('-') ? 'option' : 'command'} '${command}'${meant} (lpreq --help lists the commands)`,
    );
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`lpreq: ${e.message}\n`);
      return 2;
    }
    io.stderr(`lpreq: internal error: ${(e as Error).message}\n`);
    return 2;
  }
}
