/**
 * The server's code lenses and the code actions that send, for an editor without lpreq's own
 * (every editor but VS Code with the extension): above each request of a saved file, Send
 * Request, Fetch All Pages where paging applies (core's followsPages, as the VS Code
 * extension decides it) and Copy as cURL, each running a command of commands.ts with the
 * document's URI and the request line. They read only what a block's outline keeps (its
 * request line), so a document just opened is not parsed in full for them; whether a
 * request's endpoint is paged is kept per block while the block and the scope stay the
 * same, and known ahead for a document just opened (`prepare`).
 *
 * A document of 10,000 requests has 20,000 lenses, four megabytes of JSON: they are written
 * as UTF-8 JSON directly (JsonText), each lens from the same few encoded pieces around its
 * line, into one buffer sized first: a few milliseconds, where building 150,000 objects for
 * JSON.stringify, or joining 20,000 strings and encoding the result, took tens. The answer
 * is kept until the document's text or scope changes.
 */
import type { CodeAction, Command } from 'vscode-languageserver/node';
import { followsPages, type Block, type Endpoint, type LanguageService, type LpreqDocument } from '../core/index';
import { COMMANDS } from './commands';
import { JsonText } from './diagnosticsEncoder';
import { cacheKey, type DocumentState } from './documents';
import type { EditableDocument } from './editableDocument';

const TITLES = { send: 'Send Request', fetchAllPages: 'Fetch All Pages', copyAsCurl: 'Copy as cURL' } as const;

/** One lens's JSON is `before + line + middle + line + after + line + end`: its pieces as UTF-8, for one command and document. */
function lensPieces(title: string, command: string, uri: string): { before: Buffer; middle: Buffer; after: Buffer; end: Buffer; fixed: number } {
  const before = Buffer.from('{"range":{"start":{"line":');
  const middle = Buffer.from(',"character":0},"end":{"line":');
  const after = Buffer.from(
    `,"character":0}},"command":{"title":${JSON.stringify(title)},"command":${JSON.stringify(command)},"arguments":[${JSON.stringify(uri)},`,
  );
  const end = Buffer.from(']}}');
  return { before, middle, after, end, fixed: before.length + middle.length + after.length + end.length };
}

type LensPieces = ReturnType<typeof lensPieces>;

/** Room left before an answer for the message's start (`{"jsonrpc":"2.0","id":...,"result":`, an id of up to 80 characters). */
const MESSAGE_ROOM = 128;

/** The count of decimal digits of a line number. */
function digitsOf(n: number): number {
  let digits = 1;
  for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++;
  return digits;
}

/** Writes a line number's digits at `at`; returns the offset after them. */
function writeLine(out: Buffer, at: number, n: number, digits: number): number {
  for (let i = at + digits - 1, x = n; i >= at; i--, x = Math.floor(x / 10)) out[i] = 48 + (x % 10);
  return at + digits;
}

/** Writes one lens at `at`; returns the offset after it. */
function writeLens(out: Buffer, at: number, p: LensPieces, line: number, digits: number): number {
  out.set(p.before, at);
  at = writeLine(out, at + p.before.length, line, digits);
  out.set(p.middle, at);
  at = writeLine(out, at + p.middle.length, line, digits);
  out.set(p.after, at);
  at = writeLine(out, at + p.after.length, line, digits);
  out.set(p.end, at);
  return at + p.end.length;
}

interface PagedEntry {
  readonly key: string;
  readonly paged: boolean;
}

export class CodeLenses {
  /** Whether each block's endpoint is paged, with the scope key it was matched in. */
  private readonly paged = new WeakMap<Block, PagedEntry>();
  private entries: { key: string; yes: PagedEntry; no: PagedEntry } | undefined;
  /**
   * Each open document's last answer, while its parse (a new one at every change of the text,
   * whatever the version says) and the scope key are those it was written for: an editor
   * asks again for the lenses of a document that did not change (on every scroll or focus),
   * and four megabytes written and encoded again each time cost tens of milliseconds and
   * left as much garbage.
   */
  private readonly answers = new WeakMap<EditableDocument, { parsed: LpreqDocument; key: string; answer: JsonText }>();

  constructor(private readonly service: () => LanguageService) {}

  /**
   * What the lenses of a block need from the catalog, found ahead for a document just opened
   * (diagnostics.ts): from the endpoint the open pass checked the request against when there
   * is one (the same one matchBlock finds in the same scope), else by matching.
   */
  prepare(block: Block, state: DocumentState, key: string, endpoint: Endpoint | undefined): void {
    if (!block.request?.methodKnown) return;
    if (endpoint) this.paged.set(block, this.entry(key, followsPages(endpoint)));
    else this.isPaged(block, state, key);
  }

  private isPaged(block: Block, state: DocumentState, key: string): boolean {
    const known = this.paged.get(block);
    if (known && known.key === key) return known.paged;
    const match = this.service().checker.matchBlock(block, state.scope);
    const paged = followsPages(match?.kind === 'matched' ? match.endpoint : undefined);
    this.paged.set(block, this.entry(key, paged));
    return paged;
  }

  /** The entry of `paged` for a scope key: one object per key and answer, shared by the blocks (entries are never changed). */
  private entry(key: string, paged: boolean): PagedEntry {
    if (this.entries?.key !== key) this.entries = { key, yes: { key, paged: true }, no: { key, paged: false } };
    return paged ? this.entries.yes : this.entries.no;
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
    // The line of each request, negative when its endpoint is paged (three lenses), and the answer's length.
    const lines: number[] = [];
    let size = 2;
    for (const { start, block } of state.parsed.blocks) {
      const request = block.request;
      if (!request?.methodKnown) continue;
      const line = document.positionAt(start + request.start).line;
      const paged = this.isPaged(block, state, key);
      lines.push(paged ? -line - 1 : line);
      size += send.fixed + curl.fixed + (paged ? pages.fixed : 0) + (paged ? 9 : 6) * digitsOf(line) + (paged ? 3 : 2);
    }
    // With room before and after for the message around it (JsonText.frameMessage).
    const out = Buffer.allocUnsafe(MESSAGE_ROOM + size + 1);
    let at = MESSAGE_ROOM;
    out[at++] = 0x5b;
    for (let i = 0; i < lines.length; i++) {
      const paged = lines[i] < 0;
      const line = paged ? -lines[i] - 1 : lines[i];
      const digits = digitsOf(line);
      if (i > 0) out[at++] = 0x2c;
      at = writeLens(out, at, send, line, digits);
      if (paged) {
        out[at++] = 0x2c;
        at = writeLens(out, at, pages, line, digits);
      }
      out[at++] = 0x2c;
      at = writeLens(out, at, curl, line, digits);
    }
    out[at++] = 0x5d;
    const answer = new JsonText(out.subarray(0, at + 1), MESSAGE_ROOM);
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
