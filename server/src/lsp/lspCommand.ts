/**
 * `lpreq lsp --stdio`: the language server over standard input and output, for any LSP
 * editor (Neovim, Helix, Emacs). Bundled to dist/lsp.js; the command line loads it.
 */
import { createConnection, ProposedFeatures, StreamMessageWriter } from './protocol';
import type { Connection, MessageWriter } from 'vscode-languageserver/node';
import { closest } from '../core/index';
import type { Io } from '../node/index';
import { diagnosticsEncoder } from './diagnosticsEncoder';
import { startServer } from './server';

export const LSP_USAGE = 'usage: lpreq lsp --stdio';

const LSP_HELP = `${LSP_USAGE}

Runs the language server over standard input and output, for an editor that speaks the
Language Server Protocol (Neovim, Helix, Emacs, Sublime Text); docs/editors.md shows how.

options:
  --stdio  talk over standard input and output (the one transport)
  --help   print this help and exit

examples:
  lpreq lsp --stdio
`;

export function run(argv: string[], io: Io): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.stdout(LSP_HELP);
    return Promise.resolve(0);
  }
  const unknown = argv.filter((a) => a !== '--stdio');
  if (unknown.length > 0) {
    // One transport, one flag: a near miss of it is named.
    const meant = closest(unknown[0].replace(/^-+/, ''), ['stdio']) ? '; did you mean --stdio?' : '';
    io.stderr(`lpreq: unknown argument '${unknown[0]}'${meant}\n${LSP_USAGE}\n`);
    return Promise.resolve(2);
  }
  // Standard input as a stream, so that the library ends the process when the editor goes
  // away, as it does for two streams; standard output through a writer with lpreq's encoder.
  // The library takes a stream and a writer together (it wraps each side on its own); its
  // typings list only the pairs.
  const create = createConnection as (
    features: typeof ProposedFeatures.all,
    input: NodeJS.ReadableStream,
    output: MessageWriter,
  ) => Connection;
  const connection = create(
    ProposedFeatures.all,
    process.stdin,
    new StreamMessageWriter(process.stdout, { charset: 'utf-8', contentTypeEncoder: diagnosticsEncoder }),
  );
  startServer(connection);
  // The process ends on the protocol's exit notification (the library calls process.exit).
  return new Promise<number>((resolve) => {
    process.stdin.on('end', () => resolve(0));
  });
}
