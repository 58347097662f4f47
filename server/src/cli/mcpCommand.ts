/**
 * `lpreq mcp [--root DIR]` (bundled to dist/mcp.js): the Model Context Protocol server over
 * standard input and output, for a coding agent (docs/agents.md). It answers for the
 * workspace it was started in: the folder given, or this one.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { serveStdio } from '../mcp/index';
import { flagValue, parseArgs, UsageError } from './args';
import type { Io } from './check';
import { HELP_FLAG, helpText, type CommandHelp } from './help';

export const MCP_HELP: CommandHelp = {
  usage: 'usage: lpreq mcp [--root DIR]',
  summary:
    'Runs the MCP server over standard input and output, for a coding agent (VS Code, Claude Code, Cursor, Codex): ' +
    'the API documentation, the checker, the mock and the sender as tools. It reads and sends only inside the ' +
    'workspace it was started in; docs/agents.md shows how to configure an agent.',
  flags: {
    root: { value: true, arg: 'DIR', help: 'the workspace root (default: this folder); nothing outside it is read' },
    help: HELP_FLAG,
  },
  examples: ['lpreq mcp', 'lpreq mcp --root ~/src/lms-integration'],
};

export async function run(argv: string[], io: Io): Promise<number> {
  let root: string;
  try {
    const args = parseArgs(argv, MCP_HELP.flags);
    if (args.flags.has('help')) {
      io.stdout(helpText(MCP_HELP));
      return 0;
    }
    if (args.positionals.length > 0)
      throw new UsageError(`unexpected argument '${args.positionals[0]}'\n${MCP_HELP.usage}`);
    root = resolve(io.cwd, flagValue(args, 'root') ?? '.');
    let folder = false;
    try {
      folder = statSync(root).isDirectory();
    } catch {
      // Reported below.
    }
    if (!folder) throw new UsageError(`--root ${root}: not a folder`);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`lpreq mcp: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  // Standard output is the protocol's: the log goes to standard error.
  await serveStdio(
    { root, env: io.env, log: (line) => io.stderr(`${line}\n`) },
    { input: process.stdin, output: process.stdout },
  );
  return 0;
}

// Run as a program (`node dist/mcp.js --root DIR`: the VS Code extension's server definition),
// not loaded by bin/lpreq.js: this process is the server.
if (require.main === module) {
  void run(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    readStdin: () => process.stdin,
    isTTY: false,
    env: process.env,
    cwd: process.cwd(),
  }).then((code) => {
    process.exitCode = code;
  });
}
