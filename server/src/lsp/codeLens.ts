/**
 * The server's code lenses and the code actions that send, for an editor without lpreq's own
 * (every editor but VS Code with the extension): above each request of a saved file, Send
 * Request, Fetch All Pages where paging applies (core's followsPages, as the VS Code
 * extension decides it) and Copy as cURL, each running a command of commands.ts with the
 * document's URI and the request line. They read only what a block's outline keeps (its
 * request line), so a document just opened is not parsed in full for them; whether a
 * request's endpoint is paged is kept per block while the block and the scope stay the same.
 */
import type { CodeAction, CodeLens, Command } from 'vscode-languageserver/node';
import { followsPages, type Block, type LanguageService } from '../core/index';
import { COMMANDS } from './commands';
import { cacheKey, type DocumentState } from './documents';
import type { EditableDocument } from './editableDocument';

export class CodeLenses {
  /** Whether each block's endpoint is paged, with the scope key it was matched in. */
  private readonly paged = new WeakMap<Block, { key: string; paged: boolean }>();

  constructor(private readonly service: () => LanguageService) {}

  private isPaged(block: Block, state: DocumentState, key: string): boolean {
    const known = this.paged.get(block);
    if (known && known.key === key) return known.paged;
    const match = this.service().checker.matchBlock(block, state.scope);
    const paged = followsPages(match?.kind === 'matched' ? match.endpoint : undefined);
    this.paged.set(block, { key, paged });
    return paged;
  }

  /** The commands of the request of one block, at the line of its request line. */
  private commands(
    document: EditableDocument,
    state: DocumentState,
    key: string,
    start: number,
    block: Block,
  ): { line: number; commands: Command[] } | undefined {
    const request = block.request;
    if (!request?.methodKnown) return undefined;
    const line = document.positionAt(start + request.start).line;
    const args = [document.uri, line];
    const commands: Command[] = [{ title: 'Send Request', command: COMMANDS.send, arguments: args }];
    if (this.isPaged(block, state, key)) commands.push({ title: 'Fetch All Pages', command: COMMANDS.fetchAllPages, arguments: args });
    commands.push({ title: 'Copy as cURL', command: COMMANDS.copyAsCurl, arguments: args });
    return { line, commands };
  }

  /** Lenses above every request; none for a document that is not a saved file (nothing to send from). */
  lenses(document: EditableDocument, state: DocumentState): CodeLens[] {
    if (!document.uri.startsWith('file:')) return [];
    const key = cacheKey(state);
    const out: CodeLens[] = [];
    for (const { start, block } of state.parsed.blocks) {
      const found = this.commands(document, state, key, start, block);
      if (!found) continue;
      const range = { start: { line: found.line, character: 0 }, end: { line: found.line, character: 0 } };
      for (const command of found.commands) out.push({ range, command });
    }
    return out;
  }

  /** The same commands as code actions of the request at `offset`: for an editor that shows no code lenses (Helix, Emacs's eglot). */
  actions(document: EditableDocument, state: DocumentState, index: number): CodeAction[] {
    if (!document.uri.startsWith('file:')) return [];
    const ref = state.parsed.blocks[index];
    const found = ref ? this.commands(document, state, cacheKey(state), ref.start, ref.block) : undefined;
    return found ? found.commands.map((command) => ({ title: `lpreq: ${command.title}`, command })) : [];
  }
}
