/**
 * Publishing diagnostics. A document just opened is published from one pass over its text
 * that keeps nothing (`diagnose`); its tree and the per-block cache are built right after,
 * in slices, so that requests arriving meanwhile are answered between them. Every later
 * publish comes from the tree and the cache, debounced after edits, and never over a newer
 * version of the document.
 */
import type { Connection, Diagnostic as LspDiagnostic } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import {
  ForwardPositions,
  outlineOf,
  RequestsBefore,
  type Block,
  type BlockRef,
  type Diagnostic,
  type Endpoint,
  type EnvironmentInfo,
  type LanguageService,
} from '../core/index';
import { markReusable } from './diagnosticsEncoder';
import { cacheKey, type Documents, type DocumentState } from './documents';
import type { Guard } from './guard';
import { diagnostic } from './toProto';

/** A diagnostic whose lines are relative to its block's first line. */
interface BlockDiagnostic {
  diagnostic: LspDiagnostic;
  startLine: number;
  endLine: number;
}

const NO_DIAGNOSTICS: readonly LspDiagnostic[] = [];
const NO_BLOCK_DIAGNOSTICS: BlockDiagnostic[] = [];

/**
 * What the pass that published a document just opened found of each block (Checker.diagnose's
 * onChecked), in the environment it was checked in: the block cache is filled from it, not by
 * checking every block again.
 */
interface OpenedChecks {
  version: number;
  env: EnvironmentInfo | undefined;
  /** Each outline block's diagnostics (offsets relative to the block) and the endpoint its request was checked against, by block index. */
  found: (readonly Diagnostic[])[];
  endpoints: (Endpoint | undefined)[];
}

/** How long one slice of prepare() may run, in milliseconds: a request that arrives meanwhile waits for it. */
const SLICE_MS = 2;
/** Blocks checked between two looks at the clock. */
const BLOCKS_BETWEEN_CHECKS = 8;

export class DiagnosticsPublisher {
  /** Per-block diagnostics: valid while the block object (its text), the scope key and the count of named requests above it are the same. */
  private readonly blockDiagnostics = new WeakMap<Block, { key: string; at: number; list: BlockDiagnostic[] }>();
  /** A block's diagnostics placed at its current first line (most edits move no block). */
  private readonly placedDiagnostics = new WeakMap<BlockDiagnostic[], { line: number; diagnostics: LspDiagnostic[] }>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Per document just opened, until its block cache is filled. */
  private readonly opened = new Map<string, OpenedChecks>();
  /** Delay between the last edit and re-checking, in milliseconds. */
  debounceMs: number;
  /**
   * Also done for each block while an opened document is prepared (the code lenses' catalog
   * lookups), with the endpoint the open pass checked its request against when it matched one.
   */
  prepareBlock?: (block: Block, state: DocumentState, endpoint: Endpoint | undefined) => void;

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
        return { diagnostic: diagnostic(d, { start, end }), startLine: start.line, endLine: end.line };
      });
    }
    this.blockDiagnostics.set(block, { key, at: before.key, list });
    return list;
  }

  /** The diagnostics of a block placed at its current first line (most edits move no block). */
  private placed(document: TextDocument, start: number, block: Block, key: string, before: RequestsBefore): readonly LspDiagnostic[] {
    const list = this.diagnoseBlock(block, key, before);
    if (list.length === 0) return NO_DIAGNOSTICS;
    const line = document.positionAt(start).line;
    const known = this.placedDiagnostics.get(list);
    if (known && known.line === line) return known.diagnostics;
    const absolute = list.map((b) => {
      const d = b.diagnostic;
      const placedDiagnostic = {
        ...d,
        range: { start: { line: line + b.startLine, character: d.range.start.character }, end: { line: line + b.endLine, character: d.range.end.character } },
      };
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
   * nothing but an outline of each block (`diagnose`, the same diagnostics as checking the
   * parsed document), which takes about half the time of parsing into a kept tree and
   * checking it. The outline is the document's tree until a service needs a block in full
   * (Documents.stateOf, quickState): a tree of a large document kept whole would cost the
   * garbage collector pauses of tens of milliseconds while it is built, as long as a request
   * waits. The per-block cache that later publishes read is filled right after, in slices
   * of a few milliseconds, so that a request waits for one slice at most.
   */
  publishOpened(uri: string): void {
    const document = this.documents.get(uri);
    if (!document) return;
    const version = document.version;
    const text = document.getText();
    const outline: BlockRef[] = [];
    const env = this.documents.environmentFor(uri);
    const checks: OpenedChecks = { version, env, found: [], endpoints: [] };
    const found = this.service().diagnose(
      text,
      env,
      (start, block) => outline.push({ start, block: outlineOf(block) }),
      (_k, diagnostics, endpoint) => {
        checks.found.push(diagnostics);
        checks.endpoints.push(endpoint);
      },
    );
    this.documents.outlined(document, text, outline);
    this.opened.set(uri, checks);
    // Positions in one pass over the text: the document's index of every line is built later, off this path.
    const cursor = new ForwardPositions(text);
    const diagnostics = found.map((d) => {
      const start = cursor.at(d.start);
      return diagnostic(d, { start, end: cursor.fork().at(Math.max(d.start, d.end)) });
    });
    // Prepared once the diagnostics are written out, not before: the parse would hold them up.
    const next = () => this.prepareLater(uri, version, -1);
    this.connection.sendDiagnostics({ uri, version, diagnostics }).then(next, next);
  }

  /**
   * The next slice, behind the requests that arrived during this one. The connection reads
   * a request when the event loop polls, and handles it in an immediate queued then: behind
   * an immediate this slice would queue. So the next slice is queued from an immediate of the
   * next turn of the loop, after its poll, and a request waits for one slice at most.
   */
  private prepareLater(uri: string, version: number, from: number, walked?: RequestsBefore): void {
    setImmediate(() => setImmediate(() => this.guard('preparing the document', undefined, undefined, () => this.prepare(uri, version, from, walked))));
  }

  /**
   * One slice of preparing an opened document: the index of its lines (`from` -1), then the
   * block cache from block `from` (an outline is parsed to be checked, and not kept). Each
   * slice stops after SLICE_MS; the next is queued behind what arrived meanwhile. Stops when
   * the document changes or closes.
   */
  private prepare(uri: string, version: number, from: number, walked?: RequestsBefore): void {
    const document = this.documents.get(uri);
    if (!document || document.version !== version) {
      if (this.opened.get(uri)?.version === version) this.opened.delete(uri);
      return;
    }
    if (from === -1) {
      // Every position a request gives is read through it: built before the first one comes.
      void document.lineCount;
      this.prepareLater(uri, version, 0);
      return;
    }
    const deadline = performance.now() + SLICE_MS;
    const stop = () => performance.now() >= deadline;
    const state = this.documents.outlineState(document);
    const key = cacheKey(state);
    const blocks = state.parsed.blocks;
    const before = walked ?? new RequestsBefore(state.scope);
    const checks = this.openedChecks(uri, state);
    let k = from;
    while (k < blocks.length) {
      const to = Math.min(blocks.length, k + BLOCKS_BETWEEN_CHECKS);
      for (; k < to; k++) {
        const block = blocks[k].block;
        // What the open pass found of the block (its blocks are the state's while the version is the same), unless the cache has it already.
        if (checks && !this.blockDiagnostics.has(block)) this.keep(block, key, before, checks.found[k]);
        this.placed(document, blocks[k].start, block, key, before);
        this.prepareBlock?.(block, state, checks?.endpoints[k]);
        before.pass(blocks[k].block);
      }
      if (stop()) break;
    }
    if (k < blocks.length) this.prepareLater(uri, version, k, before);
    else this.opened.delete(uri);
  }

  /**
   * What the open pass found, while it holds for the state: the same version, and the same
   * environment (an environment file may have changed meanwhile, and the state been made
   * with the new one).
   */
  private openedChecks(uri: string, state: DocumentState): OpenedChecks | undefined {
    const opened = this.opened.get(uri);
    if (!opened) return undefined;
    const env = state.env;
    if (
      opened.version === state.version &&
      opened.found.length === state.parsed.blocks.length &&
      opened.env?.environments === env?.environments &&
      opened.env?.selected === env?.selected
    )
      return opened;
    this.opened.delete(uri);
    return undefined;
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
    this.opened.delete(uri);
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
