/**
 * The language server: the only layer that knows LSP. It keeps the open documents, a
 * cache of their parses keyed by URI and version, per-block diagnostics keyed by block
 * and scope, and turns the core's offsets into ranges. Every handler runs guarded: an
 * exception becomes a log line and an empty result, never a dead server.
 */
import { ForwardPositions, lineOfOffset, lineStarts } from '../core/positions';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  CodeActionKind,
  CompletionItemKind,
  DiagnosticSeverity,
  DiagnosticTag,
  DidChangeWatchedFilesNotification,
  DocumentHighlightKind,
  InsertTextFormat,
  LSPErrorCodes,
  MessageType,
  ResponseError,
  ShowMessageNotification,
  SymbolKind,
  TextDocumentSyncKind,
  type CancellationToken,
  type CodeAction as LspCodeAction,
  type CompletionItem,
  type Connection,
  type Diagnostic as LspDiagnostic,
  type InitializeParams,
  type InitializeResult,
  type Position,
  type Range,
  type TextEdit as LspTextEdit,
} from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { markReusable } from './diagnosticsEncoder';
import { EditableDocument } from './editableDocument';
import { bundledCatalog } from '../catalogData';
import { Checker, RequestsBefore, shiftDiagnostic, type Diagnostic } from '../core/checker';
import { codeActions, type TextEdit } from '../core/codeActions';
import { complete, type CompletionEntry } from '../core/completion';
import { blockAt, blockIndexAt, ScopeTracker, type EnvironmentInfo, type ServiceContext } from '../core/documentIndex';
import { formatDocument } from '../core/formatting';
import { hover } from '../core/hover';
import { definitions, references, rename, renameBlocker, symbolAt } from '../core/navigation';
import { reparseEdit } from '../core/incremental';
import { parseDocument, type Block, type LpreqDocument } from '../core/parser';
import { blockSemanticTokens, fileVariableNames, TOKEN_MODIFIERS, TOKEN_TYPES } from '../core/semanticTokens';
import { documentSymbols, foldingRanges } from '../core/symbols';
import { EnvironmentFileError, environmentDefinitions, loadEnvironmentFiles } from '../node/environments';
import { hasOwn } from '../core/own';
import { CODES } from '../core/codes';

export const CODE_DOCS = 'https://github.com/lpreq/lpreq/blob/main/docs/codes.md';

export interface ServerOptions {
  /** Delay between the last edit and re-checking, in milliseconds. */
  debounceMs?: number;
  /** Reads the environment files for a folder (tests replace it). */
  loadEnvironment?: (dir: string, root: string | undefined, onProblem: (message: string) => void) => EnvironmentInfo | undefined;
}

/** A diagnostic whose lines are relative to its block's first line. */
interface BlockDiagnostic {
  diagnostic: LspDiagnostic;
  startLine: number;
  endLine: number;
}

interface DocumentState {
  version: number;
  parsed: LpreqDocument;
  scopes: ScopeTracker;
  scopeKey: number;
  ctx: ServiceContext;
}

const NO_DIAGNOSTICS: readonly LspDiagnostic[] = [];

const KIND: Record<CompletionEntry['kind'], CompletionItemKind> = {
  method: CompletionItemKind.Keyword,
  path: CompletionItemKind.Module,
  segment: CompletionItemKind.Folder,
  parameter: CompletionItemKind.Property,
  value: CompletionItemKind.Value,
  variable: CompletionItemKind.Variable,
  header: CompletionItemKind.Field,
  reference: CompletionItemKind.Reference,
  metadata: CompletionItemKind.Keyword,
};

/** A line or a character as the protocol defines them: an integer from 0 (one past the end is clamped, as TextDocument does). */
function isIndex(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

function isPosition(p: unknown): p is Position {
  return typeof p === 'object' && p !== null && isIndex((p as { line?: unknown }).line) && isIndex((p as { character?: unknown }).character);
}

function isRange(r: unknown): r is Range {
  return typeof r === 'object' && r !== null && isPosition((r as { start?: unknown }).start) && isPosition((r as { end?: unknown }).end);
}

/** Params a client should not have sent (a position that is not two integers from 0): the request gets its empty answer, and the log a line. */
class MalformedParams extends Error {}

/** The offset of a position a request gives; a malformed one is refused (MalformedParams), never read as some other place. */
function offsetOf(document: TextDocument, position: unknown): number {
  if (!isPosition(position)) throw new MalformedParams(`a position must be a line and a character, integers from 0; got ${JSON.stringify(position)}`);
  return document.offsetAt(position);
}

/** Why a didChange cannot be applied, or undefined when every change in it can. */
function malformedChange(changes: unknown): string | undefined {
  if (!Array.isArray(changes)) return 'its contentChanges is not a list';
  for (const change of changes) {
    if (typeof change !== 'object' || change === null) return 'a change is not an object';
    const { text, range } = change as { text?: unknown; range?: unknown };
    // A change without text would write "undefined" into the document.
    if (typeof text !== 'string') return 'a change has no text';
    if (range !== undefined && !isRange(range)) return `a change's range is not two positions of integers from 0 (${JSON.stringify(range)})`;
  }
  return undefined;
}

function defaultLoadEnvironment(dir: string, root: string | undefined, onProblem: (message: string) => void): EnvironmentInfo | undefined {
  const files = loadEnvironmentFiles(dir, root, (e) => onProblem(e.message));
  if (!files.shared && !files.private) return undefined;
  return { environments: files.environments, privateNames: files.privateNames, sharedFile: files.shared, privateFile: files.private };
}

export function startServer(connection: Connection, options: ServerOptions = {}): void {
  /** Open documents; changes are applied here so that each edit's offsets are known. */
  const documents = new Map<string, EditableDocument>();
  const states = new Map<string, DocumentState>();
  /** Per-block diagnostics: valid while the block object (its text), the scope key and the count of named requests above it are the same. */
  const blockDiagnostics = new WeakMap<Block, { key: string; at: number; list: BlockDiagnostic[] }>();
  const envCache = new Map<string, EnvironmentInfo | undefined>();
  /** Whether the client takes snippets in completion (most do; said in initialize). */
  let snippets = true;
  /** Whether the client is VS Code (or code-server), which runs `editor.action.triggerSuggest` itself; other editors would send it to the server. */
  let vscodeClient = false;
  /** Whether the client asks for semantic tokens again when told to (`workspace/semanticTokens/refresh`). */
  let semanticRefresh = false;
  /** Environment file problems already shown to the user (each is shown once). */
  const envWarned = new Set<string>();
  /** Documents a change was refused for, whose user has been told (once, until the file is opened again). */
  const desynced = new Set<string>();
  /**
   * Per-block semantic tokens, five numbers each as the protocol counts them but relative to
   * the block (line in the block, character, length, type, modifiers); valid while the block
   * and the scope key are the same, like the diagnostics.
   */
  const blockTokens = new WeakMap<Block, { key: string; data: number[] }>();
  /** A block's diagnostics placed at its current first line (most edits move no block). */
  const placedDiagnostics = new WeakMap<BlockDiagnostic[], { line: number; diagnostics: LspDiagnostic[] }>();
  let checker: Checker | undefined;
  let selected: string | undefined;
  let root: string | undefined;
  let debounceMs = options.debounceMs ?? 50;
  const loadEnvironment = options.loadEnvironment ?? defaultLoadEnvironment;

  const log = (message: string) => connection.console.error(`lpreq: ${message}`);
  const getChecker = () => (checker ??= new Checker(bundledCatalog()));

  function runSafe<T>(name: string, empty: T, token: CancellationToken | undefined, fn: () => T): T {
    try {
      if (token?.isCancellationRequested) return empty;
      const result = fn();
      return token?.isCancellationRequested ? empty : result;
    } catch (e) {
      // A refusal meant for the user (a rename that cannot be done) goes back as the request's error.
      if (e instanceof ResponseError) throw e;
      if (e instanceof MalformedParams) log(`${name}: refused: ${e.message}`);
      else log(`${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return empty;
    }
  }

  /** runSafe for a handler that answers later (in slices): a rejection is logged the same way. */
  async function runSafeAsync<T>(name: string, empty: T, token: CancellationToken | undefined, fn: () => Promise<T>): Promise<T> {
    try {
      if (token?.isCancellationRequested) return empty;
      const result = await fn();
      return token?.isCancellationRequested ? empty : result;
    } catch (e) {
      if (e instanceof ResponseError) throw e;
      if (e instanceof MalformedParams) log(`${name}: refused: ${e.message}`);
      else log(`${name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return empty;
    }
  }

  function environmentFor(uri: string): EnvironmentInfo | undefined {
    let dir: string | undefined;
    try {
      if (uri.startsWith('file:')) dir = dirname(fileURLToPath(uri));
    } catch {
      dir = undefined;
    }
    if (!dir) return undefined;
    if (!envCache.has(dir)) {
      // Without a file's environments every {{variable}} it defines reads as undefined: say why, once per problem.
      const warn = (message: string) => {
        log(message);
        if (envWarned.has(message)) return;
        envWarned.add(message);
        void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message: `lpreq: ${message}. Its environments are not used until it is fixed.` });
      };
      let info: EnvironmentInfo | undefined;
      try {
        info = loadEnvironment(dir, root, warn);
      } catch (e) {
        warn(e instanceof EnvironmentFileError ? e.message : `environment files: ${(e as Error).message}`);
      }
      envCache.set(dir, info);
    }
    const info = envCache.get(dir);
    return info ? { ...info, selected: selected !== undefined && hasOwn(info.environments, selected) ? selected : undefined } : undefined;
  }

  /** The parse of the document's current version (reusing unchanged blocks) and its scope. */
  function stateOf(document: TextDocument): DocumentState {
    const uri = document.uri;
    let state = states.get(uri);
    if (state && state.version === document.version) return state;
    const parsed = parseDocument(document.getText(), state?.parsed);
    const scopes = state?.scopes ?? new ScopeTracker();
    const env = environmentFor(uri);
    const { scope, key } = scopes.update(parsed, env);
    state = { version: document.version, parsed, scopes, scopeKey: key, ctx: { checker: getChecker(), scope, env } };
    states.set(uri, state);
    return state;
  }

  /** Applies one incremental change to the document and, when it is current, to its parse. */
  function applyChange(document: EditableDocument, change: { range?: Range; text: string }, version: number) {
    const state = states.get(document.uri);
    if (!change.range) {
      document.update([{ text: change.text }], version);
      // The whole text is new: the parse is made again (from the old one's blocks) when next asked for,
      // even when an earlier change of the same notification brought it to this version.
      if (state) state.version = Number.NaN;
      return;
    }
    const wasCurrent = state !== undefined && state.version === document.version;
    // The parse is edited at the offsets the document applied the change at: one reading of
    // the range (a range given end first included) for both.
    const [{ start, end }] = document.update([{ range: change.range, text: change.text }], version);
    if (!state || !wasCurrent) return;
    // Read around the edit only: the document's whole text is not joined for an edit.
    const { document: parsed, removed, added } = reparseEdit(state.parsed, document, start, end, change.text.length);
    const { scope, key } = state.scopes.update(parsed, state.ctx.env, { removed, added });
    state.parsed = parsed;
    state.version = version;
    state.scopeKey = key;
    state.ctx = { ...state.ctx, scope };
  }

  function toLspDiagnostic(d: Diagnostic, range: Range): LspDiagnostic {
    const out: LspDiagnostic = {
      range,
      severity: d.severity === 'error' ? DiagnosticSeverity.Error : d.severity === 'warning' ? DiagnosticSeverity.Warning : DiagnosticSeverity.Information,
      code: d.code,
      codeDescription: { href: `${CODE_DOCS}#${d.code}` },
      source: 'lpreq',
      message: d.message,
    };
    const tags = CODES[d.code].tags;
    if (tags) out.tags = tags.map((tag) => (tag === 'deprecated' ? DiagnosticTag.Deprecated : DiagnosticTag.Unnecessary));
    if (d.data?.replacement !== undefined || d.data?.missing) out.data = { replacement: d.data.replacement, missing: d.data.missing };
    return out;
  }

  /** What a block's cached diagnostics depend on besides its text: the scope and the environment. */
  const cacheKeyOf = (state: DocumentState) => String(state.scopeKey) + (state.ctx.env?.selected ?? '');

  /**
   * Diagnostics of one block, positions relative to the block's first line. `before` gives
   * what the block sees where it stands (the requests above it), and its key that place.
   */
  function diagnoseBlock(state: DocumentState, block: Block, key: string, before: RequestsBefore): BlockDiagnostic[] {
    const cached = blockDiagnostics.get(block);
    if (cached && cached.key === key && cached.at === before.key) return cached.list;
    const found = state.ctx.checker.checkBlock(block, before.scope);
    let list: BlockDiagnostic[] = [];
    if (found.length > 0) {
      // The line breaks of the editor (a lone \r too), as for the whole document at open.
      const cursor = new ForwardPositions(block.text);
      list = found.map((d) => {
        const start = cursor.at(d.start);
        const end = cursor.fork().at(Math.max(d.start, d.end));
        return { diagnostic: toLspDiagnostic(d, { start, end }), startLine: start.line, endLine: end.line };
      });
    }
    blockDiagnostics.set(block, { key, at: before.key, list });
    return list;
  }

  /** The diagnostics of a block placed at its current first line (most edits move no block). */
  function placed(state: DocumentState, document: TextDocument, start: number, block: Block, key: string, before: RequestsBefore): readonly LspDiagnostic[] {
    const list = diagnoseBlock(state, block, key, before);
    if (list.length === 0) return NO_DIAGNOSTICS;
    const line = document.positionAt(start).line;
    const known = placedDiagnostics.get(list);
    if (known && known.line === line) return known.diagnostics;
    const absolute = list.map((b) => {
      const d = b.diagnostic;
      const placedDiagnostic = { ...d, range: { start: { line: line + b.startLine, character: d.range.start.character }, end: { line: line + b.endLine, character: d.range.end.character } } };
      markReusable(placedDiagnostic);
      return placedDiagnostic;
    });
    placedDiagnostics.set(list, { line, diagnostics: absolute });
    return absolute;
  }

  function publish(uri: string) {
    const document = documents.get(uri);
    if (!document) return;
    const state = stateOf(document);
    const diagnostics: LspDiagnostic[] = [];
    const key = cacheKeyOf(state);
    const before = new RequestsBefore(state.ctx.scope);
    for (const { start, block } of state.parsed.blocks) {
      for (const d of placed(state, document, start, block, key, before)) diagnostics.push(d);
      before.pass(block);
    }
    // Never publish over a newer version: the document may have changed meanwhile.
    if (documents.get(uri)?.version !== state.version) return;
    void connection.sendDiagnostics({ uri, version: state.version, diagnostics });
  }

  /**
   * A document just opened: its diagnostics come from one pass over the text that keeps
   * nothing (Checker.diagnose, the same diagnostics as checking the parsed document), which
   * takes about half the time of parsing into a kept tree and checking it. The tree and the
   * per-block cache that edits, completion and the other features use are built right after,
   * in slices, so that requests arriving meanwhile are answered between them.
   */
  function publishOpened(uri: string) {
    const document = documents.get(uri);
    if (!document) return;
    const version = document.version;
    const text = document.getText();
    const found = getChecker().diagnose(text, environmentFor(uri));
    // Positions in one pass over the text: the document's index of every line is built later, off this path.
    const cursor = new ForwardPositions(text);
    const diagnostics = found.map((d) => {
      const start = cursor.at(d.start);
      return toLspDiagnostic(d, { start, end: cursor.fork().at(Math.max(d.start, d.end)) });
    });
    // Prepared once the diagnostics are written out, not before: the parse would hold them up.
    const next = () => setImmediate(() => runSafe('preparing the document', undefined, undefined, () => prepare(uri, version, 0)));
    connection.sendDiagnostics({ uri, version, diagnostics }).then(next, next);
  }

  /** Blocks checked in one slice of prepare(): a few milliseconds of work. */
  const PREPARE_SLICE = 500;

  /** Parses an opened document and fills the block cache, a slice at a time; stops when the document changes or closes. */
  function prepare(uri: string, version: number, from: number, walked?: RequestsBefore) {
    const document = documents.get(uri);
    if (!document || document.version !== version) return;
    const state = stateOf(document);
    const key = cacheKeyOf(state);
    const blocks = state.parsed.blocks;
    const before = walked ?? new RequestsBefore(state.ctx.scope);
    const to = Math.min(blocks.length, from + PREPARE_SLICE);
    for (let k = from; k < to; k++) {
      placed(state, document, blocks[k].start, blocks[k].block, key, before);
      before.pass(blocks[k].block);
    }
    if (to < blocks.length) setImmediate(() => runSafe('preparing the document', undefined, undefined, () => prepare(uri, version, to, before)));
  }

  const timers = new Map<string, NodeJS.Timeout>();
  function schedule(uri: string, delay: number) {
    const pending = timers.get(uri);
    if (pending) clearTimeout(pending);
    timers.set(
      uri,
      setTimeout(() => {
        timers.delete(uri);
        runSafe('diagnostics', undefined, undefined, () => publish(uri));
      }, delay),
    );
  }

  /** Re-checks every open document (the environment changed): blocks are reused, the scope is not. */
  function recheckAll() {
    for (const document of documents.values()) {
      const state = states.get(document.uri);
      if (state) state.version = Number.NaN;
      runSafe('diagnostics', undefined, undefined, () => publish(document.uri));
    }
    // The colours of {{variables}} depend on the environment too: the editor asks again.
    if (semanticRefresh) connection.languages.semanticTokens.refresh().catch((e: unknown) => log(`semantic tokens refresh: ${String(e)}`));
  }

  const range = (document: TextDocument, start: number, end: number): Range => ({ start: document.positionAt(start), end: document.positionAt(end) });
  const lspEdit = (document: TextDocument, e: TextEdit): LspTextEdit => ({ range: range(document, e.start, e.end), newText: e.newText });

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const init = (params.initializationOptions ?? {}) as { environment?: unknown; debounceMs?: unknown };
    if (typeof init.environment === 'string') selected = init.environment;
    if (typeof init.debounceMs === 'number' && init.debounceMs >= 0) debounceMs = init.debounceMs;
    // A client without snippets (eglot without yasnippet) gets plain text: `$1` would be inserted as it is.
    snippets = params.capabilities?.textDocument?.completion?.completionItem?.snippetSupport !== false;
    vscodeClient = /code/i.test(params.clientInfo?.name ?? '');
    semanticRefresh = params.capabilities?.workspace?.semanticTokens?.refreshSupport === true;
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    try {
      root = folder && folder.startsWith('file:') ? fileURLToPath(folder) : undefined;
    } catch {
      root = undefined;
    }
    const watch = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    connection.onInitialized(() => {
      if (watch) {
        connection.client
          .register(DidChangeWatchedFilesNotification.type, {
            watchers: [{ globPattern: '**/http-client.env.json' }, { globPattern: '**/http-client.private.env.json' }],
          })
          .catch((e: unknown) => log(`cannot watch environment files: ${String(e)}`));
      }
      // Load the catalog while the editor is still opening files, not when the first one arrives.
      setImmediate(() => runSafe('loading the catalog', undefined, undefined, getChecker));
    });
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        completionProvider: { triggerCharacters: ['/', '?', '&', '[', '{', '=', ':', '.', ' '], resolveProvider: false },
        hoverProvider: true,
        codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorExtract] },
        documentSymbolProvider: true,
        foldingRangeProvider: true,
        definitionProvider: true,
        referencesProvider: true,
        documentHighlightProvider: true,
        renameProvider: { prepareProvider: true },
        documentFormattingProvider: true,
        semanticTokensProvider: { legend: { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] }, full: { delta: true }, range: true },
      },
      serverInfo: { name: 'lpreq', version: '0.1.0' },
    };
  });

  connection.onNotification('lpreq/selectEnvironment', (params: { name?: string | null }) => {
    runSafe('selectEnvironment', undefined, undefined, () => {
      selected = typeof params?.name === 'string' ? params.name : undefined;
      recheckAll();
    });
  });

  connection.onDidChangeWatchedFiles(() => {
    runSafe('environment change', undefined, undefined, () => {
      envCache.clear();
      // A file fixed and broken again is told again.
      envWarned.clear();
      recheckAll();
    });
  });

  connection.onDidOpenTextDocument((params) => {
    runSafe('open', undefined, undefined, () => {
      const { uri, languageId, version, text } = params.textDocument;
      if (typeof uri !== 'string' || typeof text !== 'string' || !Number.isSafeInteger(version)) {
        log(`open: refused a didOpen whose uri, text or version is missing or malformed`);
        return;
      }
      documents.set(uri, new EditableDocument(uri, languageId, version, text));
      states.delete(uri);
      desynced.delete(uri);
      publishOpened(uri);
    });
  });
  connection.onDidChangeTextDocument((params) => {
    runSafe('change', undefined, undefined, () => {
      const document = documents.get(params.textDocument.uri);
      if (!document) return;
      const version = params.textDocument.version;
      // A malformed change (no text, a position that is not two integers from 0) cannot be
      // placed: the whole notification is refused, as the changes after one are relative to it.
      // The document stays as it was, whole and consistent with its parse, which is built
      // again from its text; the editor's copy may now differ, so the user is told once.
      const problem = Number.isSafeInteger(version) ? malformedChange(params.contentChanges) : 'its version is not an integer';
      if (problem !== undefined) {
        log(`change: refused a didChange of ${document.uri} (version ${String(version)}): ${problem}`);
        states.delete(document.uri);
        if (!desynced.has(document.uri)) {
          desynced.add(document.uri);
          void connection.sendNotification(ShowMessageNotification.type, {
            type: MessageType.Warning,
            message: `lpreq: the editor sent a change to ${document.uri} that cannot be applied (${problem}); its diagnostics may not match the editor's text until the file is closed and opened again.`,
          });
        }
        schedule(document.uri, debounceMs);
        return;
      }
      for (const change of params.contentChanges) applyChange(document, change, version);
      schedule(document.uri, debounceMs);
    });
  });
  connection.onDidCloseTextDocument((params) => {
    const uri = params.textDocument.uri;
    const pending = timers.get(uri);
    if (pending) clearTimeout(pending);
    timers.delete(uri);
    states.delete(uri);
    documents.delete(uri);
    desynced.delete(uri);
    lastTokens.delete(uri);
    void connection.sendDiagnostics({ uri, diagnostics: [] });
  });

  connection.onCompletion((params, token) =>
    runSafe('completion', null, token, () => {
      const document = documents.get(params.textDocument.uri);
      if (!document) return null;
      const state = stateOf(document);
      const at = offsetOf(document, params.position);
      // The protocol wants every edit on the cursor's line and around the cursor: an entry that is not is left out.
      const line = params.position.line;
      const entries = complete(state.ctx, state.parsed, at).filter((e) => e.start <= at && at <= e.end && document.positionAt(e.start).line === line && document.positionAt(e.end).line === line);
      const items: CompletionItem[] = entries.map((e) => {
        const item: CompletionItem = {
          label: e.label,
          kind: KIND[e.kind],
          sortText: e.sortText,
          textEdit: { range: range(document, e.start, e.end), newText: e.snippet && !snippets ? snippetToPlain(e.insertText) : e.insertText },
          insertTextFormat: e.snippet && snippets ? InsertTextFormat.Snippet : InsertTextFormat.PlainText,
        };
        if (e.detail) item.detail = e.detail;
        if (e.documentation) item.documentation = { kind: 'markdown', value: e.documentation };
        if (e.filterText) item.filterText = e.filterText;
        if (e.deprecated) item.tags = [1];
        if (e.retrigger && vscodeClient) item.command = { title: 'Suggest', command: 'editor.action.triggerSuggest' };
        return item;
      });
      return { isIncomplete: false, items };
    }),
  );

  connection.onHover((params, token) =>
    runSafe('hover', null, token, () => {
      const document = documents.get(params.textDocument.uri);
      if (!document) return null;
      const state = stateOf(document);
      const h = hover(state.ctx, state.parsed, offsetOf(document, params.position));
      return h ? { contents: { kind: 'markdown' as const, value: h.contents }, range: range(document, h.start, h.end) } : null;
    }),
  );

  connection.onCodeAction((params, token) =>
    runSafe('codeAction', [] as LspCodeAction[], token, () => {
      const document = documents.get(params.textDocument.uri);
      if (!document) return [];
      const state = stateOf(document);
      const start = offsetOf(document, params.range?.start);
      const end = offsetOf(document, params.range?.end);
      // Diagnostics of the current text for the blocks in the range (the editor's may be stale).
      const current: Diagnostic[] = [];
      const seen = new Set<number>();
      for (const offset of [start, end]) {
        const ref = blockAt(state.parsed, offset);
        if (!ref || seen.has(ref.start)) continue;
        seen.add(ref.start);
        for (const d of state.ctx.checker.checkBlock(ref.block, state.ctx.scope)) current.push(shiftDiagnostic(d, ref.start));
      }
      const only = params.context.only;
      return codeActions(state.ctx, state.parsed, start, end, current)
        .filter((a) => !only || only.some((k) => a.kind === k || a.kind.startsWith(`${k}.`)))
        .map((a) => ({
          title: a.title,
          kind: a.kind,
          isPreferred: a.isPreferred,
          diagnostics: a.diagnostics.map((d) => toLspDiagnostic(d, range(document, d.start, d.end))),
          edit: { changes: { [document.uri]: a.edits.map((e) => lspEdit(document, e)) } },
        }));
    }),
  );

  connection.onDocumentSymbol((params, token) =>
    runSafe('documentSymbol', [], token, () => {
      const document = documents.get(params.textDocument.uri);
      if (!document) return [];
      const state = stateOf(document);
      return documentSymbols(state.parsed).map((s) => ({
        name: s.name,
        detail: s.detail,
        kind: s.kind === 'request' ? SymbolKind.Function : SymbolKind.Variable,
        range: range(document, s.start, s.end),
        selectionRange: range(document, s.selectionStart, s.selectionEnd),
      }));
    }),
  );

  function semanticTokensOf(state: DocumentState, block: Block, key: string, fileNames: Set<string>): number[] {
    const cached = blockTokens.get(block);
    if (cached && cached.key === key) return cached.data;
    const data: number[] = [];
    const cursor = new ForwardPositions(block.text);
    for (const t of blockSemanticTokens(state.ctx, block, fileNames)) {
      const at = cursor.at(t.start);
      data.push(at.line, at.character, t.end - t.start, t.type, t.modifiers);
    }
    blockTokens.set(block, { key, data });
    return data;
  }

  /** Blocks whose tokens are gathered between two turns of the event loop. */
  const TOKEN_SLICE = 512;

  /**
   * The document's semantic tokens, or those of the blocks that meet [from, to]. A large
   * document is gathered a slice of blocks at a time: requests that arrive meanwhile (a
   * completion) are answered between slices, and a cancelled request stops. A document
   * that changes meanwhile gets ContentModified, as the protocol asks.
   */
  async function semanticTokens(document: TextDocument, token: CancellationToken, from?: number, to?: number): Promise<{ data: number[] }> {
    const state = stateOf(document);
    const version = document.version;
    const fileNames = fileVariableNames(state.parsed);
    // Whether a name comes from the file or the environment changes its modifiers, not the scope's values.
    const key = `${cacheKeyOf(state)}\u0000${[...fileNames].sort().join('\u0000')}`;
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
        if (documents.get(document.uri) !== document || document.version !== version) throw new ResponseError(LSPErrorCodes.ContentModified, 'the document changed');
      }
      const tokens = semanticTokensOf(state, block, key, fileNames);
      if (tokens.length === 0) continue;
      const first = document.positionAt(start);
      for (let i = 0; i < tokens.length; i += 5) {
        const line = first.line + tokens[i];
        const character = tokens[i] === 0 ? first.character + tokens[i + 1] : tokens[i + 1];
        data.push(line - previousLine, line === previousLine ? character - previousCharacter : character, tokens[i + 2], tokens[i + 3], tokens[i + 4]);
        previousLine = line;
        previousCharacter = character;
      }
    }
    return { data };
  }

  /**
   * The last full answer per document, for deltas: an edit changes the relative encoding
   * around it only, so the answer to the next request is a single small splice.
   */
  const lastTokens = new Map<string, { resultId: string; data: number[] }>();
  let tokenResults = 0;

  async function fullTokens(uri: string, token: CancellationToken): Promise<{ resultId?: string; data: number[] }> {
    const document = documents.get(uri);
    if (!document) return { data: [] };
    const { data } = await semanticTokens(document, token);
    if (token.isCancellationRequested) return { data: [] };
    const resultId = String(++tokenResults);
    lastTokens.set(uri, { resultId, data });
    return { resultId, data };
  }

  connection.languages.semanticTokens.on((params, token) => runSafeAsync('semanticTokens', { data: [] }, token, () => fullTokens(params.textDocument.uri, token)));

  connection.languages.semanticTokens.onDelta((params, token) =>
    runSafeAsync('semanticTokens', { data: [] } as { resultId?: string; data: number[] } | { resultId: string; edits: { start: number; deleteCount: number; data: number[] }[] }, token, async () => {
      const uri = params.textDocument.uri;
      const previous = lastTokens.get(uri);
      const next = await fullTokens(uri, token);
      if (!previous || previous.resultId !== params.previousResultId || next.resultId === undefined) return next;
      const before = previous.data;
      const after = next.data;
      let head = 0;
      while (head < before.length && head < after.length && before[head] === after[head]) head++;
      let tail = 0;
      while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
      if (head === before.length && head === after.length) return { resultId: next.resultId, edits: [] };
      return { resultId: next.resultId, edits: [{ start: head, deleteCount: before.length - head - tail, data: after.slice(head, after.length - tail) }] };
    }),
  );

  connection.languages.semanticTokens.onRange((params, token) =>
    runSafeAsync('semanticTokens', { data: [] }, token, async () => {
      const document = documents.get(params.textDocument.uri);
      return document ? await semanticTokens(document, token, offsetOf(document, params.range?.start), offsetOf(document, params.range?.end)) : { data: [] };
    }),
  );

  connection.onFoldingRanges((params, token) =>
    runSafe('foldingRange', [], token, () => {
      const document = documents.get(params.textDocument.uri);
      if (!document) return [];
      return foldingRanges(stateOf(document).parsed).map((f) => ({ startLine: document.positionAt(f.start).line, endLine: document.positionAt(f.end).line }));
    }),
  );

  /** The open document, its parse and the variable or request name at a position, if any. */
  function symbolUnder(params: { textDocument: { uri: string }; position: Position }) {
    const document = documents.get(params.textDocument.uri);
    if (!document) return undefined;
    const parsed = stateOf(document).parsed;
    const symbol = symbolAt(parsed, offsetOf(document, params.position));
    return symbol ? { document, parsed, symbol } : undefined;
  }

  connection.onDefinition((params, token) =>
    runSafe('definition', [], token, () => {
      const at = symbolUnder(params);
      if (!at) return [];
      const { document, parsed, symbol } = at;
      const here = definitions(parsed, symbol).map((l) => ({ uri: document.uri, range: range(document, l.start, l.end) }));
      if (here.length > 0 || symbol.kind !== 'variable') return here;
      // Not a file variable: the key in the environment files (the chosen environment's, or every one's).
      const env = stateOf(document).ctx.env;
      return environmentDefinitions([env?.privateFile, env?.sharedFile], symbol.name, env?.selected).map((site) => {
        const starts = lineStarts(site.text);
        const at = (offset: number) => {
          const line = lineOfOffset(starts, offset);
          return { line, character: offset - starts[line] };
        };
        return { uri: pathToFileURL(site.file).href, range: { start: at(site.start), end: at(site.end) } };
      });
    }),
  );

  connection.onReferences((params, token) =>
    runSafe('references', [], token, () => {
      const at = symbolUnder(params);
      return at ? references(at.parsed, at.symbol, params.context.includeDeclaration).map((l) => ({ uri: at.document.uri, range: range(at.document, l.start, l.end) })) : [];
    }),
  );

  // Every use of the variable or request name under the cursor, its definitions marked as
  // writes. Elsewhere null, not an empty list: the editor then highlights the word as text.
  connection.onDocumentHighlight((params, token) =>
    runSafe('documentHighlight', null, token, () => {
      const at = symbolUnder(params);
      if (!at) return null;
      const { document, parsed, symbol } = at;
      const defined = new Set(definitions(parsed, symbol).map((l) => l.start));
      return references(parsed, symbol, true).map((l) => ({ range: range(document, l.start, l.end), kind: defined.has(l.start) ? DocumentHighlightKind.Write : DocumentHighlightKind.Read }));
    }),
  );

  connection.onPrepareRename((params, token) =>
    runSafe('prepareRename', null, token, () => {
      const at = symbolUnder(params);
      if (!at) return null;
      const { document, parsed, symbol } = at;
      const blocker = renameBlocker(parsed, symbol);
      if (blocker) throw new ResponseError(LSPErrorCodes.RequestFailed, blocker);
      return { range: range(document, symbol.start, symbol.end), placeholder: symbol.name };
    }),
  );

  connection.onRenameRequest((params, token) =>
    runSafe('rename', null, token, () => {
      const at = symbolUnder(params);
      if (!at) return null;
      const { document, parsed, symbol } = at;
      const taken = Object.values(stateOf(document).ctx.env?.environments ?? {}).flatMap((vars) => Object.keys(vars));
      const edits = rename(parsed, symbol, params.newName, taken);
      if ('error' in edits) throw new ResponseError(LSPErrorCodes.RequestFailed, edits.error);
      return { changes: { [document.uri]: edits.map((e) => lspEdit(document, e)) } };
    }),
  );

  connection.onDocumentFormatting((params, token) =>
    runSafe('formatting', [], token, () => {
      const document = documents.get(params.textDocument.uri);
      if (!document) return [];
      return formatDocument(stateOf(document).parsed).map((e) => lspEdit(document, e));
    }),
  );

  connection.listen();
}

/** A snippet as plain text: placeholders give their default or first choice, tab stops nothing, escapes their character. */
export function snippetToPlain(snippet: string): string {
  return snippet
    .replace(/\$\{\d+\|([^,|}]*)[^}]*\|\}/g, '$1')
    .replace(/\$\{\d+:([^}]*)\}/g, '$1')
    .replace(/\$\{\d+\}|\$\d+/g, '')
    .replace(/\\([\\$}])/g, '$1');
}
