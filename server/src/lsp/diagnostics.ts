/**
 * Publishing diagnostics. A document just opened is published from one pass over its text
 * that keeps an outline of each block and tells what it found of each (`diagnose`); the
 * per-block cache is filled from that before the diagnostics go out, without checking any
 * block again. Every later publish comes from the tree and the cache, debounced after
 * edits, and never over a newer version of the document.
 */
import type { Connection, Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  blockBoundaries,
  blockIndexAt,
  ForwardPositions,
  parseOutline,
  RequestsBefore,
  type Block,
  type BlockRef,
  type Diagnostic,
  type Endpoint,
  type LanguageService,
} from '../core/index';
import { markReusable } from './diagnosticsEncoder';
import { cacheKey, type Documents, type DocumentState } from './documents';
import type { EditableDocument } from './editableDocument';
import type { Guard } from './guard';
import { diagnostic, relatedInformation } from './toProto';

/** A diagnostic whose lines are relative to its block's first line. */
interface BlockDiagnostic {
  diagnostic: LspDiagnostic;
  startLine: number;
  endLine: number;
  /** The core's related lines, made relatedInformation where the diagnostic is placed (it needs the document's URI). */
  related?: readonly string[];
}

/** A block's diagnostics in the cache, valid while the scope key and the count of named requests above the block are these. */
interface CacheEntry {
  readonly key: string;
  readonly at: number;
  readonly list: BlockDiagnostic[];
}

const NO_DIAGNOSTICS: readonly LspDiagnostic[] = [];
const NO_BLOCK_DIAGNOSTICS: BlockDiagnostic[] = [];

export class DiagnosticsPublisher {
  /** Per-block diagnostics: valid while the block object (its text), the scope key and the count of named requests above it are the same. */
  private readonly blockDiagnostics = new WeakMap<Block, CacheEntry>();
  /** The last entry kept for a block without diagnostics. */
  private lastEmpty: CacheEntry | undefined;
  /** A block's diagnostics placed at its current first line (most edits move no block). */
  private readonly placedDiagnostics = new WeakMap<BlockDiagnostic[], { line: number; diagnostics: LspDiagnostic[] }>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Delay between the last edit and re-checking, in milliseconds. */
  debounceMs: number;
  /** The client reads relatedInformation (`textDocument.publishDiagnostics.relatedInformation`). */
  relatedInformation = false;
  /**
   * Also done for each block of a document just opened (the code lenses' catalog lookups), with
   * the scope key and the endpoint the open pass checked its request against when it matched one.
   */
  prepareBlock?: (block: Block, state: DocumentState, key: string, endpoint: Endpoint | undefined) => void;
  /** Told of a document just opened before its diagnostics go out (the code lenses write their first answer). */
  opened?: (uri: string) => void;

  constructor(
    private readonly connection: Connection,
    private readonly documents: Documents,
    private readonly service: () => LanguageService,
    private readonly guard: Guard,
    debounceMs: number,
  ) {
    this.debounceMs = debounceMs;
    // An outline parsed in full has the diagnostics its outline had.
    documents.realized.push((outline, block) => {
      const cached = this.blockDiagnostics.get(outline);
      if (cached) this.blockDiagnostics.set(block, cached);
    });
  }

  /**
   * Diagnostics of one block, positions relative to the block's first line. `before` gives
   * what the block sees where it stands (the requests above it), and its key that place.
   */
  private diagnoseBlock(block: Block, key: string, before: RequestsBefore): BlockDiagnostic[] {
    const cached = this.blockDiagnostics.get(block);
    if (cached && cached.key === key && cached.at === before.key) return cached.list;
    return this.keep(block, key, before, this.service().checkBlock(this.documents.full(block), before.scope));
  }

  /** Keeps a block's diagnostics (offsets relative to the block) in the cache, as LSP diagnostics with lines relative to the block. */
  private keep(block: Block, key: string, before: RequestsBefore, found: readonly Diagnostic[]): BlockDiagnostic[] {
    let list = NO_BLOCK_DIAGNOSTICS;
    if (found.length > 0) {
      // The line breaks of the editor (a lone \r too), as for the whole document at open.
      const cursor = new ForwardPositions(block.text);
      list = found.map((d) => {
        const start = cursor.at(d.start);
        const end = cursor.fork().at(Math.max(d.start, d.end));
        const placed: BlockDiagnostic = {
          diagnostic: diagnostic(d, { start, end }),
          startLine: start.line,
          endLine: end.line,
        };
        if (d.related) placed.related = d.related;
        return placed;
      });
    }
    // Most blocks have none: consecutive ones in the same place share one entry (they are never changed).
    let entry = this.lastEmpty;
    if (list.length > 0 || entry?.key !== key || entry.at !== before.key) {
      entry = { key, at: before.key, list };
      if (list.length === 0) this.lastEmpty = entry;
    }
    this.blockDiagnostics.set(block, entry);
    return list;
  }

  /** The diagnostics of a block placed at its current first line (most edits move no block). */
  private placed(
    document: TextDocument,
    start: number,
    block: Block,
    key: string,
    before: RequestsBefore,
  ): readonly LspDiagnostic[] {
    const list = this.diagnoseBlock(block, key, before);
    if (list.length === 0) return NO_DIAGNOSTICS;
    const line = document.positionAt(start).line;
    const known = this.placedDiagnostics.get(list);
    if (known && known.line === line) return known.diagnostics;
    const absolute = list.map((b) => {
      const d = b.diagnostic;
      const range = {
        start: { line: line + b.startLine, character: d.range.start.character },
        end: { line: line + b.endLine, character: d.range.end.character },
      };
      const placedDiagnostic: LspDiagnostic = { ...d, range };
      if (b.related && this.relatedInformation)
        placedDiagnostic.relatedInformation = relatedInformation(document.uri, range, b.related);
      markReusable(placedDiagnostic);
      return placedDiagnostic;
    });
    this.placedDiagnostics.set(list, { line, diagnostics: absolute });
    return absolute;
  }

  publish(uri: string): void {
    const document = this.documents.get(uri);
    if (!document) return;
    const state: DocumentState = this.documents.outlineState(document);
    const diagnostics: LspDiagnostic[] = [];
    const key = cacheKey(state);
    const before = new RequestsBefore(state.scope);
    for (const { start, block } of state.parsed.blocks) {
      for (const d of this.placed(document, start, block, key, before)) diagnostics.push(d);
      before.pass(block);
    }
    // Never publish over a newer version: the document may have changed meanwhile.
    if (this.documents.get(uri)?.version !== state.version) return;
    void this.connection.sendDiagnostics({ uri, version: state.version, diagnostics });
  }

  /**
   * A document just opened: its diagnostics come from one pass over the text that keeps
   * nothing (`diagnose`, the same diagnostics as checking the parsed document), cheaper than
   * parsing into a kept tree and checking it; then an outline of each block is read from its
   * head (`parseOutline`). The outline is the document's tree until a service needs a block in
   * full (Documents.stateOf, quickState): a large document's tree kept whole would make the
   * garbage collector pause while a request waits.
   *
   * Before the diagnostics go out, the document's state, the index of its lines, the
   * per-block cache (from each block's diagnostics as diagnose told them, onChecked) and the
   * code lenses' paging are made: work left for after publishing would run in slices between
   * the steps of writing the answers the editor asks for on the first diagnostics, and hold
   * them up (docs/performance.md, issue 20).
   */
  publishOpened(uri: string): void {
    const document = this.documents.get(uri);
    if (!document) return;
    const version = document.version;
    const text = document.getText();
    const outline: BlockRef[] = [];
    const found: (readonly Diagnostic[])[] = [];
    const endpoints: (Endpoint | undefined)[] = [];
    const published = this.service().diagnose(text, this.documents.environmentFor(uri), (_k, diagnostics, endpoint) => {
      found.push(diagnostics);
      endpoints.push(endpoint);
    });
    // The outline is read afterwards, from the heads of the blocks: outlines kept while
    // diagnose ran would live through the collections of all its garbage.
    const starts = blockBoundaries(text);
    for (let k = 0; k < starts.length; k++) {
      outline.push({
        start: starts[k],
        block: parseOutline(text.slice(starts[k], k + 1 < starts.length ? starts[k + 1] : text.length)),
      });
    }
    this.documents.outlined(document, text, outline);
    // The index of the document's lines, which every request reads first, gives the positions.
    const diagnostics = published.map((d) => {
      const range = { start: document.positionAt(d.start), end: document.positionAt(Math.max(d.start, d.end)) };
      const out = diagnostic(d, range);
      if (d.related && this.relatedInformation) out.relatedInformation = relatedInformation(uri, range, d.related);
      return out;
    });
    // The state is made of the outline in the same environment diagnose read (the files are
    // read once until they change), so what it found of each block is the block's entry of
    // the cache where it stands.
    const state = this.documents.outlineState(document);
    const key = cacheKey(state);
    const before = new RequestsBefore(state.scope);
    const blocks = state.parsed.blocks;
    // (They are the outline's blocks, one for each block diagnose told of.)
    for (let k = 0; blocks === outline && k < blocks.length; k++) {
      const block = blocks[k].block;
      this.keep(block, key, before, found[k]);
      this.prepareBlock?.(block, state, key, endpoints[k]);
      before.pass(block);
    }
    this.opened?.(uri);
    void this.connection.sendDiagnostics({ uri, version, diagnostics });
  }

  /**
   * What the diagnostics published for the block at `offset` say at that position (messages
   * and related lines), for a hover that must not repeat them; undefined when the block's are
   * not at hand (an edit not yet checked), and the hover checks the block itself.
   */
  saidAt(document: EditableDocument, offset: number): string[] | undefined {
    const state = this.documents.outlineState(document);
    const blocks = state.parsed.blocks;
    if (blocks.length === 0) return undefined;
    const ref = blocks[blockIndexAt(state.parsed, offset)];
    const cached = this.blockDiagnostics.get(ref.block);
    if (!cached || cached.key !== cacheKey(state)) return undefined;
    const at = document.positionAt(offset);
    const line = at.line - document.positionAt(ref.start).line;
    const said: string[] = [];
    for (const b of cached.list) {
      const { start, end } = b.diagnostic.range;
      const after = b.startLine < line || (b.startLine === line && start.character <= at.character);
      const before = b.endLine > line || (b.endLine === line && end.character >= at.character);
      const message = b.diagnostic.message;
      if (!after || !before) continue;
      said.push(typeof message === 'string' ? message : message.value);
      // What the client does not show is no repeat.
      if (this.relatedInformation && b.related) said.push(...b.related);
    }
    return said;
  }

  /** Publishes the document's diagnostics once no edit came for `debounceMs`. */
  schedule(uri: string): void {
    const pending = this.timers.get(uri);
    if (pending) clearTimeout(pending);
    this.timers.set(
      uri,
      setTimeout(() => {
        this.timers.delete(uri);
        void this.guard('diagnostics', undefined, undefined, () => this.publish(uri));
      }, this.debounceMs),
    );
  }

  /** A closed document: nothing pending for it, and no diagnostics left in the editor. */
  closed(uri: string): void {
    const pending = this.timers.get(uri);
    if (pending) clearTimeout(pending);
    this.timers.delete(uri);
    void this.connection.sendDiagnostics({ uri, diagnostics: [] });
  }

  /** Re-checks every open document (the environment changed): blocks are reused, the scope is not. */
  recheckAll(): void {
    for (const document of this.documents.all()) {
      this.documents.invalidate(document.uri);
      void this.guard('diagnostics', undefined, undefined, () => this.publish(document.uri));
    }
  }
}
