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
 * as UTF-8 JSON directly (JsonText), each request's lenses copied from one encoded template
 * with its line number written in (RequestLenses), in one pass into one buffer sized for the
 * longest lenses: a few milliseconds, where building 150,000 objects for JSON.stringify, or
 * joining 20,000 strings and encoding the result, took tens. The answer is kept until the
 * document's text or scope changes; for an editor that asks for lenses, the first answer of
 * a document just opened is written before its diagnostics go out (`writeAhead`).
 */
import type { CodeAction, Command } from 'vscode-languageserver/node';
import { followsPages, type Block, type Endpoint, type LanguageService, type LpreqDocument } from '../core/index';
import { COMMANDS } from './commands';
import { JsonText } from './diagnosticsEncoder';
import { cacheKey, type DocumentState } from './documents';
import type { EditableDocument } from './editableDocument';

const TITLES = { send: 'Send Request', fetchAllPages: 'Fetch All Pages', copyAsCurl: 'Copy as cURL' } as const;

/** One lens's JSON is `before + line + middle + line + after + line + end`, for one command and document. */
function lensParts(title: string, command: string, uri: string): string[] {
  return [
    '{"range":{"start":{"line":',
    ',"character":0},"end":{"line":',
    `,"character":0}},"command":{"title":${JSON.stringify(title)},"command":${JSON.stringify(command)},"arguments":[${JSON.stringify(uri)},`,
    ']}}',
  ];
}

/**
 * The lenses of one request (`,send,curl` or `,send,pages,curl`: a comma before each) as
 * UTF-8, for line numbers of one count of digits, with the line number of the last request
 * written in. A request's lenses are this buffer with its own line number written over the
 * last one's (only the digits that differ: line numbers grow by a few lines from one request
 * to the next), then one copy into the answer. Copying each lens's four pieces and writing
 * every digit of its three line numbers took twice as long.
 */
class RequestLenses {
  readonly bytes: Buffer;
  /** Where each copy of the line number ends, three a lens. */
  private readonly ends: Int32Array;
  /** The line number written in, -1 before the first. */
  private line = -1;

  constructor(
    lenses: string[][],
    private readonly digits: number,
  ) {
    const pieces: Buffer[] = [];
    const ends: number[] = [];
    let length = 0;
    const add = (text: string) => {
      const bytes = Buffer.from(text);
      pieces.push(bytes);
      length += bytes.length;
    };
    for (const [before, middle, after, end] of lenses) {
      add(',');
      for (const piece of [before, middle, after]) {
        add(piece);
        add('0'.repeat(digits));
        ends.push(length);
      }
      add(end);
    }
    this.bytes = Buffer.concat(pieces, length);
    this.ends = Int32Array.from(ends);
  }

  /** Writes `line` (of this count of digits) in place of the last request's. */
  at(line: number): Buffer {
    const { bytes, ends } = this;
    let x = line;
    let last = this.line;
    for (let k = 1; k <= this.digits && x !== last; k++) {
      const digit = 48 + (x % 10);
      for (let s = 0; s < ends.length; s++) bytes[ends[s] - k] = digit;
      x = Math.floor(x / 10);
      last = last < 0 ? last : Math.floor(last / 10);
    }
    this.line = line;
    return this.bytes;
  }
}

/** The lenses of a document, each command's pieces around its line number. */
interface DocumentLenses {
  send: string[];
  pages: string[];
  curl: string[];
}

function lensesOf(uri: string): DocumentLenses {
  return {
    send: lensParts(TITLES.send, COMMANDS.send, uri),
    pages: lensParts(TITLES.fetchAllPages, COMMANDS.fetchAllPages, uri),
    curl: lensParts(TITLES.copyAsCurl, COMMANDS.copyAsCurl, uri),
  };
}

/** The length of a buffer that holds the answer for `blocks` requests and lines up to `lineCount`, with room for the message around it. */
function answerRoom(lenses: DocumentLenses, blocks: number, lineCount: number): number {
  return (
    MESSAGE_ROOM +
    2 +
    blocks * new RequestLenses([lenses.send, lenses.pages, lenses.curl], digitsOf(lineCount)).bytes.length +
    1
  );
}

/** The largest first answer written ahead (`writeAhead`): about 15,000 requests' lenses. */
const MOST_AHEAD = 8 * 1024 * 1024;

/** Room left before an answer for the message's start (`{"jsonrpc":"2.0","id":...,"result":`, an id of up to 80 characters). */
const MESSAGE_ROOM = 128;

/** The count of decimal digits of a line number. */
function digitsOf(n: number): number {
  let digits = 1;
  for (let x = n; x >= 10; x = Math.floor(x / 10)) digits++;
  return digits;
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
    if (this.isPaged(block, state, key))
      commands.push({ title: TITLES.fetchAllPages, command: COMMANDS.fetchAllPages, arguments: args });
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
    const lenses = lensesOf(uri);
    // A request's lenses by count of digits of its line, paged (three lenses) or not.
    const templates: RequestLenses[] = [];
    const requestLenses = (paged: boolean, digits: number) =>
      (templates[digits * 2 + (paged ? 1 : 0)] ??= new RequestLenses(
        paged ? [lenses.send, lenses.pages, lenses.curl] : [lenses.send, lenses.curl],
        digits,
      ));
    // One pass, into a buffer long enough for every request's three lenses with the longest line
    // numbers (a second pass to size it exactly cost as much as the writing; the pages not
    // written are never touched): `[`, the lenses (without the first request's comma), `]`, with
    // room before and after for the message around them (JsonText.frameMessage). Requests come
    // in order: each line is looked for from the last one on.
    const blocks = state.parsed.blocks;
    const size = answerRoom(lenses, blocks.length, document.lineCount);
    const out = Buffer.allocUnsafe(size);
    let at = MESSAGE_ROOM;
    out[at++] = 0x5b;
    let line = 0;
    let first = true;
    for (const { start, block } of blocks) {
      const request = block.request;
      if (!request?.methodKnown) continue;
      line = document.lineAt(start + request.start, line);
      const bytes = requestLenses(this.isPaged(block, state, key), digitsOf(line)).at(line);
      if (first) {
        // The first request's lenses without their comma: written over the `[`, which is put back.
        out.set(bytes, at - 1);
        out[at - 1] = 0x5b;
        at += bytes.length - 1;
        first = false;
      } else {
        out.set(bytes, at);
        at += bytes.length;
      }
    }
    out[at++] = 0x5d;
    const answer = new JsonText(out.subarray(0, at + 1), MESSAGE_ROOM);
    this.answers.set(document, { parsed: state.parsed, key, answer });
    return answer;
  }

  /**
   * Writes the first answer of a document just opened before its diagnostics go out
   * (diagnostics.ts), for an editor that asks for lenses: such an editor asks for them as soon
   * as the document is open, and the first answer is the slow one (code not yet compiled,
   * memory not yet mapped). Written after the diagnostics, between requests, it would hold up
   * the first completions instead (docs/performance.md, issue 20).
   */
  writeAhead(document: EditableDocument, state: DocumentState): void {
    // Not for a far larger document: its diagnostics would wait for all of it.
    if (
      !document.uri.startsWith('file:') ||
      answerRoom(lensesOf(document.uri), state.parsed.blocks.length, document.lineCount) > MOST_AHEAD
    )
      return;
    this.lenses(document, state);
  }

  /** The same commands as code actions of the request at `offset`: for an editor that shows no code lenses (Helix, Emacs's eglot). */
  actions(document: EditableDocument, state: DocumentState, index: number): CodeAction[] {
    if (!document.uri.startsWith('file:')) return [];
    const ref = state.parsed.blocks[index];
    const found = ref ? this.commands(document, state, cacheKey(state), ref.start, ref.block) : undefined;
    return found ? found.commands.map((command) => ({ title: `lpreq: ${command.title}`, command })) : [];
  }
}
