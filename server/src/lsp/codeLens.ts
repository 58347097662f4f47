/**
 * The server's code lenses and the code actions that send, for an editor without lpreq's own
 * (every editor but VS Code with the extension): above each request of a saved file, Send
 * Request, Fetch All Pages where paging applies (core's followsPages, as the VS Code
 * extension decides it) and Copy as cURL, each running a command of commands.ts with the
 * document's URI and the request line. They read only what a block's outline keeps (its
 * request line), so a document just opened is not parsed in full for them; whether a
 * request's endpoint is paged is kept per block while the block and the scope stay the
 * same, and found ahead while the diagnostics cache fills (`prepare`).
 *
 * A document of 10,000 requests has 20,000 lenses, four megabytes of JSON: they are written
 * as JSON text directly (JsonText), each lens from the same few pieces around its line,
 * which costs a tenth of building 150,000 objects for JSON.stringify.
 */
import type { CodeAction, Command } from 'vscode-languageserver/node';
import { followsPages, type Block, type Endpoint, type LanguageService, type LpreqDocument } from '../core/index';
import { COMMANDS } from './commands';
import { JsonText } from './diagnosticsEncoder';
import { cacheKey, type DocumentState } from './documents';
import type { EditableDocument } from './editableDocument';

const TITLES = { send: 'Send Request', fetchAllPages: 'Fetch All Pages', copyAsCurl: 'Copy as cURL' } as const;

/** One lens's JSON is `before + line + middle + line + after + line + end`: the pieces, for one command and document. */
function lensPieces(title: string, command: string, uri: string): { before: string; middle: string; after: string; end: string } {
  return {
    before: '{"range":{"start":{"line":',
    middle: ',"character":0},"end":{"line":',
    after: `,"character":0}},"command":{"title":${JSON.stringify(title)},"command":${JSON.stringify(command)},"arguments":[${JSON.stringify(uri)},`,
    end: ']}}',
  };
}

export class CodeLenses {
  /** Whether each block's endpoint is paged, with the scope key it was matched in. */
  private readonly paged = new WeakMap<Block, { key: string; paged: boolean }>();
  /** Each block's lenses as JSON, while its line, the document's URI and the scope key are those it was written for. */
  private readonly written = new WeakMap<Block, { key: string; line: number; uri: string; json: string }>();
  /**
   * Each open document's last answer, while its parse (a new one at every change of the
   * text, whatever the version says) and the scope key are those it was written for: an editor asks again for the lenses of a document that did not change (on
   * every scroll or focus), and four megabytes written and encoded again each time cost
   * tens of milliseconds and left as much garbage.
   */
  private readonly answers = new WeakMap<EditableDocument, { parsed: LpreqDocument; key: string; answer: JsonText }>();

  constructor(private readonly service: () => LanguageService) {}

  /**
   * What the lenses of a block need from the catalog, found ahead (while the diagnostics cache
   * fills, diagnostics.ts): from the endpoint the open pass checked the request against when
   * there is one (the same one matchBlock finds in the same scope), else by matching.
   */
  prepare(block: Block, state: DocumentState, endpoint: Endpoint | undefined): void {
    if (!block.request?.methodKnown) return;
    if (endpoint) this.paged.set(block, { key: cacheKey(state), paged: followsPages(endpoint) });
    else this.isPaged(block, state, cacheKey(state));
  }

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
    const commands: Command[] = [{ title: TITLES.send, command: COMMANDS.send, arguments: args }];
    if (this.isPaged(block, state, key)) commands.push({ title: TITLES.fetchAllPages, command: COMMANDS.fetchAllPages, arguments: args });
    commands.push({ title: TITLES.copyAsCurl, command: COMMANDS.copyAsCurl, arguments: args });
    return { line, commands };
  }

  /** Lenses above every request, as JSON text (CodeLens[]); none for a document that is not a saved file (nothing to send from). */
  lenses(document: EditableDocument, state: DocumentState): JsonText {
    const uri = document.uri;
    if (!uri.startsWith('file:')) return new JsonText('[]');
    const key = cacheKey(state);
    const last = this.answers.get(document);
    if (last && last.parsed === state.parsed && last.key === key) return last.answer;
    const send = lensPieces(TITLES.send, COMMANDS.send, uri);
    const pages = lensPieces(TITLES.fetchAllPages, COMMANDS.fetchAllPages, uri);
    const curl = lensPieces(TITLES.copyAsCurl, COMMANDS.copyAsCurl, uri);
    const lens = (p: typeof send, line: number) => p.before + line + p.middle + line + p.after + line + p.end;
    const out: string[] = [];
    for (const { start, block } of state.parsed.blocks) {
      const request = block.request;
      if (!request?.methodKnown) continue;
      const line = document.positionAt(start + request.start).line;
      const kept = this.written.get(block);
      if (kept && kept.line === line && kept.key === key && kept.uri === uri) {
        out.push(kept.json);
        continue;
      }
      const json = this.isPaged(block, state, key) ? `${lens(send, line)},${lens(pages, line)},${lens(curl, line)}` : `${lens(send, line)},${lens(curl, line)}`;
      this.written.set(block, { key, line, uri, json });
      out.push(json);
    }
    const answer = new JsonText(`[${out.join(',')}]`);
    this.answers.set(document, { parsed: state.parsed, key, answer });
    return answer;
  }

  /** The same commands as code actions of the request at `offset`: for an editor that shows no code lenses (Helix, Emacs's eglot). */
  actions(document: EditableDocument, state: DocumentState, index: number): CodeAction[] {
    if (!document.uri.startsWith('file:')) return [];
    const ref = state.parsed.blocks[index];
    const found = ref ? this.commands(document, state, cacheKey(state), ref.start, ref.block) : undefined;
    return found ? found.commands.map((command) => ({ title: `lpreq: ${command.title}`, command })) : [];
  }
}
