/**
 * `lpreq lsp --stdio`: the language server over standard input and output, for any LSP
 * editor (Neovim, Helix, Emacs). Bundled to dist/lsp.js; the command line loads it.
 */
import { createConnection, ProposedFeatures } from 'vscode-languageserver/node';
import type { Io } from '../cli/check';
import { startServer } from './server';

export const LSP_USAGE = 'usage: lpreq lsp --stdio';

export function run(argv: string[], io: Io): Promise<number> {
  const unknown = argv.filter((a) => a !== '--stdio');
  if (unknown.length > 0) {
    io.stderr(`lpreq: unknown argument '${unknown[0]}'\n${LSP_USAGE}\n`);
    return Promise.resolve(2);
  }
  const connection = createConnection(ProposedFeatures.all, process.stdin, process.stdout);
  startServer(connection);
  // The process ends on the protocol's exit notification (the library calls process.exit).
  return new Promise<number>((resolve) => {
    process.stdin.on('end', () => resolve(0));
  });
}
