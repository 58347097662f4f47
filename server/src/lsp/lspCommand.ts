/**
 * `lpreq lsp --stdio`: the language server over standard input and output, for any LSP
 * editor (Neovim, Helix, Emacs). Bundled to dist/lsp.js; the command line loads it.
 */
import { createConnection, ProposedFeatures, StreamMessageWriter } from './protocol';
import type { Connection, MessageWriter } from 'vscode-languageserver/node';
import type { Io } from '../node/index';
import { diagnosticsEncoder } from './diagnosticsEncoder';
import { startServer } from './server';

export const LSP_USAGE = 'usage: lpreq lsp --stdio';

export function run(argv: string[], io: Io): Promise<number> {
  const unknown = argv.filter((a) => a !== '--stdio');
  if (unknown.length > 0) {
    io.stderr(`lpreq: unknown argument '${unknown[0]}'\n${LSP_USAGE}\n`);
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
