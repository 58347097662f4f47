/**
 * Semantic tokens, full, delta and by range. Each block's tokens are cached, relative to the
 * block, while the block and the scope are the same; a large document is gathered a slice
 * of blocks at a time, so that a request that arrives meanwhile (a completion) is answered
 * between slices.
 */
import { LSPErrorCodes, ResponseError } from './protocol';
import type { CancellationToken } from 'vscode-languageserver/node';
import { blockIndexAt, ForwardPositions, type Block, type LanguageService } from '../core/index';
import type { EditableDocument } from './editableDocument';
import { cacheKey, type Documents, type DocumentState } from './documents';

/** Blocks whose tokens are gathered between two turns of the event loop. */
const TOKEN_SLICE = 512;

export type TokensDelta =
  | { resultId?: string; data: number[] }
  | { resultId: string; edits: { start: number; deleteCount: number; data: number[] }[] };

export class SemanticTokensProvider {
  /**
   * Per-block semantic tokens, five numbers each as the protocol counts them but relative to
   * the block (line in the block, character, length, type, modifiers); valid while the block
   * and the scope key are the same, like the diagnostics.
   */
  private readonly blockTokens = new WeakMap<Block, { key: string; data: number[] }>();
  /**
   * The last full answer per document, for deltas: an edit changes the relative encoding
   * around it only, so the answer to the next request is a single small splice.
   */
  private readonly lastTokens = new Map<string, { resultId: string; data: number[] }>();
  private tokenResults = 0;

  constructor(
    private readonly documents: Documents,
    private readonly service: () => LanguageService,
  ) {}

  private tokensOf(state: DocumentState, block: Block, key: string, fileNames: Set<string>): number[] {
    const cached = this.blockTokens.get(block);
    if (cached && cached.key === key) return cached.data;
    const data: number[] = [];
    const cursor = new ForwardPositions(block.text);
    // An outline is parsed to be read, and not kept (documents.ts).
    for (const t of this.service().semanticTokens(state, this.documents.full(block), fileNames)) {
      const at = cursor.at(t.start);
      data.push(at.line, at.character, t.end - t.start, t.type, t.modifiers);
    }
    this.blockTokens.set(block, { key, data });
    return data;
  }

  /**
   * The document's semantic tokens, or those of the blocks that meet [from, to]. A large
   * document is gathered a slice of blocks at a time: requests that arrive meanwhile (a
   * completion) are answered between slices, and a cancelled request stops. A document
   * that changes meanwhile gets ContentModified, as the protocol asks.
   */
  async tokens(
    document: EditableDocument,
    state: DocumentState,
    token: CancellationToken,
    from?: number,
    to?: number,
  ): Promise<{ data: number[] }> {
    const version = document.version;
    const fileNames = this.service().fileVariableNames(state.parsed);
    // Whether a name comes from the file or the environment changes its modifiers, not the scope's values.
    const key = `${cacheKey(state)}\u0000${[...fileNames].sort().join('\u0000')}`;
    const blocks = state.parsed.blocks;
    const data: number[] = [];
    let previousLine = 0;
    let previousCharacter = 0;
    let slice = 0;
    for (let k = from === undefined ? 0 : Math.max(0, blockIndexAt(state.parsed, from)); k < blocks.length; k++) {
      const { start, block } = blocks[k];
      if (to !== undefined && start > to) break;
      if (++slice === TOKEN_SLICE) {
        slice = 0;
        await new Promise((resolve) => setImmediate(resolve));
        if (token.isCancellationRequested) return { data: [] };
        if (this.documents.get(document.uri) !== document || document.version !== version)
          throw new ResponseError(LSPErrorCodes.ContentModified, 'the document changed');
      }
      const tokens = this.tokensOf(state, block, key, fileNames);
      if (tokens.length === 0) continue;
      const first = document.positionAt(start);
      for (let i = 0; i < tokens.length; i += 5) {
        const line = first.line + tokens[i];
        const character = tokens[i] === 0 ? first.character + tokens[i + 1] : tokens[i + 1];
        data.push(
          line - previousLine,
          line === previousLine ? character - previousCharacter : character,
          tokens[i + 2],
          tokens[i + 3],
          tokens[i + 4],
        );
        previousLine = line;
        previousCharacter = character;
      }
    }
    return { data };
  }

  /** The whole document's tokens, kept for the next delta. */
  async full(
    document: EditableDocument,
    state: DocumentState,
    token: CancellationToken,
  ): Promise<{ resultId?: string; data: number[] }> {
    const { data } = await this.tokens(document, state, token);
    if (token.isCancellationRequested) return { data: [] };
    const resultId = String(++this.tokenResults);
    this.lastTokens.set(document.uri, { resultId, data });
    return { resultId, data };
  }

  /** The change since the answer `previousResultId`, or the whole answer when that one is not the last. */
  async delta(
    document: EditableDocument,
    state: DocumentState,
    previousResultId: string,
    token: CancellationToken,
  ): Promise<TokensDelta> {
    const previous = this.lastTokens.get(document.uri);
    const next = await this.full(document, state, token);
    if (!previous || previous.resultId !== previousResultId || next.resultId === undefined) return next;
    const before = previous.data;
    const after = next.data;
    let head = 0;
    while (head < before.length && head < after.length && before[head] === after[head]) head++;
    let tail = 0;
    while (
      tail < before.length - head &&
      tail < after.length - head &&
      before[before.length - 1 - tail] === after[after.length - 1 - tail]
    )
      tail++;
    if (head === before.length && head === after.length) return { resultId: next.resultId, edits: [] };
    return {
      resultId: next.resultId,
      edits: [{ start: head, deleteCount: before.length - head - tail, data: after.slice(head, after.length - tail) }],
    };
  }

  closed(uri: string): void {
    this.lastTokens.delete(uri);
  }
}
