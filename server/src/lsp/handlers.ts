/**
 * Every request and notification the server answers, as one table: each entry names its
 * method, its empty answer, what it does and the capability that announces it (initialize.ts
 * answers the union of the table's). They are all registered through the one guard
 * (guard.ts); a request about a document reaches it through `onDocument` or `atPosition`.
 */
import {
  CodeActionKind,
  CodeActionRequest,
  CodeLensRequest,
  ErrorCodes,
  ExecuteCommandRequest,
  CompletionRequest,
  DefinitionRequest,
  DidChangeTextDocumentNotification,
  DidChangeWatchedFilesNotification,
  DidCloseTextDocumentNotification,
  DidOpenTextDocumentNotification,
  DocumentFormattingRequest,
  DocumentHighlightRequest,
  DocumentSymbolRequest,
  FoldingRangeRequest,
  HoverRequest,
  LSPErrorCodes,
  PrepareRenameRequest,
  ReferencesRequest,
  RenameRequest,
  RequestType,
  ResponseError,
  SemanticTokensDeltaRequest,
  SemanticTokensRangeRequest,
  SemanticTokensRequest,
} from './protocol';
import type {
  CancellationToken,
  CodeAction,
  CodeLens,
  Command,
  Connection,
  NotificationType,
  Position,
  RequestHandler,
  SelectionRange,
  SelectionRangeParams,
  ServerCapabilities,
  TextDocumentIdentifier,
} from 'vscode-languageserver/node';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { blockIndexAt, lineOfOffset, lineStarts, TOKEN_MODIFIERS, TOKEN_TYPES } from '../core/index';
import { environmentDefinitions, scopeAdditionEdit } from '../node/index';
import { COMMAND_NAMES, parseCommand } from './commands';
import type { DocumentState } from './documents';
import type { EditableDocument } from './editableDocument';
import { offsetOf } from './fromProto';
import type { Guard } from './guard';
import type { TokensDelta } from './semanticTokens';
import type { ClientSupport, Session } from './session';
import * as proto from './toProto';

/** What a handler announces in the answer to `initialize`, for the client as it said it is. */
type Capabilities = ServerCapabilities | ((client: ClientSupport) => ServerCapabilities);

export interface Handler {
  readonly method: string;
  /** The capability that announces it (none: a notification, or announced by another entry). */
  readonly capabilities?: Capabilities;
  /** What of a document a request names besides its URI, and its empty answer (the protocol fuzz sends malformed ones). */
  readonly takes?: 'document' | 'position' | 'range';
  readonly empty?: unknown;
  register(connection: Connection, guard: Guard): void;
}

interface RequestOptions {
  capabilities?: Capabilities;
  takes?: Handler['takes'];
}

interface DocumentOptions extends RequestOptions {
  /**
   * The parse may hold outlines (Documents.outlineState): only for what reads no more of a
   * block than an outline keeps (its text, `###` line, metadata, variables, request line).
   * Without it every block is parsed in full first.
   */
  outline?: boolean;
}

function request<P, R>(
  type: RequestType<P, R, unknown>,
  name: string,
  empty: R,
  run: (params: P, token: CancellationToken) => R | Promise<R>,
  options: RequestOptions = {},
): Handler {
  // The library's result type of a handler is conditional on R, which a generic R cannot satisfy: registered as unknown, as it is sent.
  const handle =
    (guard: Guard): RequestHandler<P, unknown, unknown> =>
    (params, token) =>
      guard(name, empty, token, () => run(params, token));
  return {
    method: type.method,
    capabilities: options.capabilities,
    takes: options.takes,
    empty,
    register: (connection, guard) => connection.onRequest<P, unknown, unknown>(type, handle(guard)),
  };
}

/** The capabilities the table announces to this client: the union of its entries'. */
export function capabilitiesOf(table: readonly Handler[], client: ClientSupport): ServerCapabilities {
  const out: ServerCapabilities = {};
  for (const { capabilities } of table) {
    if (capabilities) Object.assign(out, typeof capabilities === 'function' ? capabilities(client) : capabilities);
  }
  return out;
}

function notification<P>(type: NotificationType<P> | string, name: string, run: (params: P) => void): Handler {
  const method = typeof type === 'string' ? type : type.method;
  return {
    method,
    register: (connection, guard) => {
      const handler = (params: P) => {
        void guard(name, undefined, undefined, () => run(params));
      };
      if (typeof type === 'string') connection.onNotification(type, handler);
      else connection.onNotification(type, handler);
    },
  };
}

/** The table: every request and notification the server answers, by group. */
export function handlers(session: Session): Handler[] {
  return [...documentSync(session), ...editing(session), ...structure(session), ...navigation(session)];
}

/** The two ways a request about a document reaches its handler, for one session's documents. */
function routes(session: Session) {
  const { documents } = session;

  /**
   * A request about an open document: `run` with it and its parse, the empty answer when it
   * is not open. `options.outline`: the parse may hold outlines (see DocumentOptions).
   */
  const onDocument = <P extends { textDocument: TextDocumentIdentifier }, R>(
    type: RequestType<P, R, unknown>,
    name: string,
    empty: R,
    run: (document: EditableDocument, state: DocumentState, params: P, token: CancellationToken) => R | Promise<R>,
    options: DocumentOptions = {},
  ): Handler =>
    request(
      type,
      name,
      empty,
      (params, token) => {
        const document = documents.get(params.textDocument.uri);
        if (!document) return empty;
        const state = options.outline ? documents.outlineState(document) : documents.stateOf(document);
        return run(document, state, params, token);
      },
      { takes: 'document', ...options },
    );

  /**
   * A request about one position of an open document that must be answered at once
   * (completion, hover): the block at the position is parsed in full when it is still an
   * outline, and nothing else is (Documents.quickState).
   */
  const atPosition = <P extends { textDocument: TextDocumentIdentifier; position: Position }, R>(
    type: RequestType<P, R, unknown>,
    name: string,
    empty: R,
    run: (document: EditableDocument, state: DocumentState, offset: number, params: P) => R,
    capabilities: Capabilities,
  ): Handler =>
    request(
      type,
      name,
      empty,
      (params) =>
        documents.withDocumentAt<R>(
          params.textDocument.uri,
          empty,
          (document) => offsetOf(document, params.position),
          (document, state, offset) => run(document, state, offset, params),
        ),
      { takes: 'position', capabilities },
    );

  return { onDocument, atPosition };
}

/** The documents' lifecycle and what changes their checks: open, change, close, the environment. */
function documentSync(session: Session): Handler[] {
  const { documents, diagnostics, tokens } = session;
  return [
    notification(DidOpenTextDocumentNotification.type, 'open', (params) => {
      const { uri, languageId, version, text } = params.textDocument;
      if (typeof uri !== 'string' || typeof text !== 'string' || !Number.isSafeInteger(version)) {
        session.log(`open: refused a didOpen whose uri, text or version is missing or malformed`);
        return;
      }
      documents.opened(uri, languageId, version, text);
      diagnostics.publishOpened(uri);
    }),

    notification(DidChangeTextDocumentNotification.type, 'change', (params) => {
      const document = documents.get(params.textDocument.uri);
      if (!document) return;
      documents.changed(document, params.textDocument.version, params.contentChanges);
      diagnostics.schedule(document.uri);
    }),

    notification(DidCloseTextDocumentNotification.type, 'close', (params) => {
      const uri = params.textDocument.uri;
      documents.closed(uri);
      tokens.closed(uri);
      diagnostics.closed(uri);
    }),

    notification('lpreq/selectEnvironment', 'selectEnvironment', (params: { name?: string | null } | undefined) => {
      // The VS Code extension's word that a choice changed: without a name, each project's is read again where
      // every host keeps it; a name (or null for none) when it could not be kept there.
      session.sending.sendSession.forgetChoices();
      documents.chosen = typeof params?.name === 'string' ? params.name : params?.name === null ? null : undefined;
      session.recheckAll();
    }),

    notification(DidChangeWatchedFilesNotification.type, 'environment change', (params) => {
      const changes = Array.isArray(params?.changes) ? params.changes : undefined;
      if (changes && !changes.some((c) => typeof c?.uri === 'string' && documents.readsFile(pathOfUri(c.uri)))) return;
      // An environment file, or a project's remembered choice (another host's: `lpreq env`, the editor).
      session.sending.sendSession.forgetChoices();
      documents.forgetEnvironments();
      session.recheckAll();
    }),
  ];
}

/** What answers while a user types: completion, hover, code actions, code lenses and the commands they run. */
function editing(session: Session): Handler[] {
  const { documents, diagnostics } = session;
  const service = session.service;
  const { onDocument, atPosition } = routes(session);
  return [
    atPosition(
      CompletionRequest.type,
      'completion',
      null,
      (document, state, at, params) => {
        // The protocol wants every edit on the cursor's line and around the cursor: an entry that is not is left out.
        const line = params.position.line;
        const typed = params.context?.triggerKind === 2 ? params.context.triggerCharacter : undefined;
        const entries = service()
          .complete(state, at, typeof typed === 'string' ? { triggerCharacter: typed } : {})
          .filter(
            (e) =>
              e.start <= at &&
              at <= e.end &&
              document.positionAt(e.start).line === line &&
              document.positionAt(e.end).line === line,
          );
        return {
          isIncomplete: false,
          items: entries.map((e) => proto.completionItem(document, e, session.client.completion)),
        };
      },
      {
        completionProvider: {
          triggerCharacters: ['/', '?', '&', '[', '{', '=', ':', '.', ' '],
          resolveProvider: false,
        },
      },
    ),

    atPosition(
      HoverRequest.type,
      'hover',
      null,
      (document, state, at) => {
        const h = service().hover(state, at, diagnostics.saidAt(document, at));
        return h ? proto.hover(document, h) : null;
      },
      { hoverProvider: true },
    ),

    // The blocks of the range in full, the others as outlines: code actions are answered at once after open too.
    onDocument(
      CodeActionRequest.type,
      'codeAction',
      [],
      (document, _outline, params) => {
        const start = offsetOf(document, params.range?.start);
        const end = offsetOf(document, params.range?.end);
        const state = documents.quickState(document, start, Math.max(start, end));
        const only = params.context.only;
        const actions: (CodeAction | Command)[] = [];
        for (const a of service().codeActions(state, start, end, only)) {
          // A scope added to an environment file: an edit of that file, as it reads now (none when it cannot be read).
          const outside = a.grant && scopeAdditionEdit(a.grant.site, a.grant.scope);
          if (a.grant && !outside) continue;
          actions.push(proto.codeAction(document, a, session.client.snippetEdits, outside));
        }
        // Sending from the request under the cursor, for an editor that shows no code lenses; they have no kind, so a request for some kinds leaves them out.
        if (session.client.lenses && only === undefined && state.parsed.blocks.length > 0) {
          actions.push(...session.lenses.actions(document, state, blockIndexAt(state.parsed, start)));
        }
        return actions;
      },
      {
        outline: true,
        takes: 'range',
        capabilities: {
          codeActionProvider: { codeActionKinds: [CodeActionKind.QuickFix, CodeActionKind.RefactorExtract] },
        },
      },
    ),

    // Written as JSON text (codeLens.ts): the protocol's type is CodeLens[], which JsonText reads as.
    onDocument(
      CodeLensRequest.type,
      'codeLens',
      [],
      (document, state) =>
        session.client.lenses ? (session.lenses.lenses(document, state) as unknown as CodeLens[]) : [],
      {
        outline: true,
        capabilities: (client) => (client.lenses ? { codeLensProvider: { resolveProvider: false } } : {}),
      },
    ),

    request(
      ExecuteCommandRequest.type,
      'executeCommand',
      null,
      async (params, token) => {
        // An editor that runs lpreq's commands itself was offered none of the server's.
        if (!session.client.lenses)
          throw new ResponseError(
            ErrorCodes.InvalidRequest,
            'lpreq: this editor runs the lpreq commands itself (initializationOptions clientLenses)',
          );
        const command = parseCommand(params);
        try {
          return await session.sending.run(command, token, params.workDoneToken);
        } catch (e) {
          if (e instanceof ResponseError) throw e;
          session.log(`${command.command} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
          throw new ResponseError(
            ErrorCodes.InternalError,
            `lpreq: ${command.command} failed: ${e instanceof Error ? e.message : String(e)}`,
          );
        }
      },
      { capabilities: (client) => (client.lenses ? { executeCommandProvider: { commands: [...COMMAND_NAMES] } } : {}) },
    ),
  ];
}

/** What reads a whole document: symbols, semantic tokens, folding. */
function structure(session: Session): Handler[] {
  const { tokens } = session;
  const service = session.service;
  const { onDocument } = routes(session);
  return [
    onDocument(
      DocumentSymbolRequest.type,
      'documentSymbol',
      [],
      (document, state) =>
        service()
          .symbols(state.parsed)
          .map((s) => proto.documentSymbol(document, s)),
      { outline: true, capabilities: { documentSymbolProvider: true } },
    ),

    onDocument(
      SemanticTokensRequest.type,
      'semanticTokens',
      { data: [] },
      (document, state, _params, token) => tokens.full(document, state, token),
      {
        outline: true,
        capabilities: {
          semanticTokensProvider: {
            legend: { tokenTypes: [...TOKEN_TYPES], tokenModifiers: [...TOKEN_MODIFIERS] },
            full: { delta: true },
            range: true,
          },
        },
      },
    ),

    onDocument(
      SemanticTokensDeltaRequest.type,
      'semanticTokens',
      { data: [] } as TokensDelta,
      (document, state, params, token) => tokens.delta(document, state, params.previousResultId, token),
      { outline: true },
    ),

    onDocument(
      SemanticTokensRangeRequest.type,
      'semanticTokens',
      { data: [] },
      (document, state, params, token) =>
        tokens.tokens(
          document,
          state,
          token,
          offsetOf(document, params.range?.start),
          offsetOf(document, params.range?.end),
        ),
      { outline: true, takes: 'range' },
    ),

    onDocument(
      FoldingRangeRequest.type,
      'foldingRange',
      [],
      (document, state) =>
        service()
          .foldingRanges(state.parsed)
          .map((f) => proto.foldingRange(document, f)),
      { outline: true, capabilities: { foldingRangeProvider: true } },
    ),
  ];
}

/** Names and their uses, formatting and selection: definition, references, highlights, rename, format, selection ranges. */
function navigation(session: Session): Handler[] {
  const { documents } = session;
  const service = session.service;
  const { onDocument } = routes(session);
  return [
    onDocument(
      DefinitionRequest.type,
      'definition',
      [],
      (document, state, params) => {
        const found = service().definition(state.parsed, offsetOf(document, params.position));
        if (!found) return [];
        const { symbol, locations } = found;
        const here = locations.map((l) => proto.location(document, l));
        if (here.length > 0 || symbol.kind !== 'variable') return here;
        // Not a file variable: the key in the environment files (the chosen environment's, or every one's).
        const env = state.env;
        return environmentDefinitions([env?.privateFile, env?.sharedFile], symbol.name, env?.selected).map((site) => {
          const starts = lineStarts(site.text);
          const at = (offset: number) => {
            const line = lineOfOffset(starts, offset);
            return { line, character: offset - starts[line] };
          };
          return { uri: pathToFileURL(site.file).href, range: { start: at(site.start), end: at(site.end) } };
        });
      },
      { takes: 'position', capabilities: { definitionProvider: true } },
    ),

    onDocument(
      ReferencesRequest.type,
      'references',
      [],
      (document, state, params) =>
        service()
          .references(state.parsed, offsetOf(document, params.position), params.context.includeDeclaration)
          .map((l) => proto.location(document, l)),
      { takes: 'position', capabilities: { referencesProvider: true } },
    ),

    // Every use of the variable or request name under the cursor, its definitions marked as
    // writes. Elsewhere null, not an empty list: the editor then highlights the word as text.
    onDocument(
      DocumentHighlightRequest.type,
      'documentHighlight',
      null,
      (document, state, params) => {
        const found = service().highlights(state.parsed, offsetOf(document, params.position));
        return found ? found.map((h) => proto.highlight(document, h)) : null;
      },
      { takes: 'position', capabilities: { documentHighlightProvider: true } },
    ),

    onDocument(
      PrepareRenameRequest.type,
      'prepareRename',
      null,
      (document, state, params) => {
        const found = service().prepareRename(state.parsed, offsetOf(document, params.position));
        if (!found) return null;
        if ('error' in found) throw new ResponseError(LSPErrorCodes.RequestFailed, found.error);
        return { range: proto.range(document, found.start, found.end), placeholder: found.placeholder };
      },
      { takes: 'position' },
    ),

    onDocument(
      RenameRequest.type,
      'rename',
      null,
      (document, state, params) => {
        const edits = service().rename(state, offsetOf(document, params.position), params.newName);
        if (!edits) return null;
        if ('error' in edits) throw new ResponseError(LSPErrorCodes.RequestFailed, edits.error);
        return { changes: { [document.uri]: edits.map((e) => proto.textEdit(document, e)) } };
      },
      { takes: 'position', capabilities: { renameProvider: { prepareProvider: true } } },
    ),

    onDocument(
      DocumentFormattingRequest.type,
      'formatting',
      [],
      (document, state) =>
        service()
          .format(state.parsed)
          .map((e) => proto.textEdit(document, e)),
      { capabilities: { documentFormattingProvider: true } },
    ),

    // Expand selection: the blocks at the positions in full (their parameters, headers and assertions), the others as they are.
    onDocument(
      new RequestType<SelectionRangeParams, SelectionRange[], unknown>('textDocument/selectionRange'),
      'selectionRange',
      [],
      (document, _outline, params) => {
        const offsets = params.positions.map((p) => offsetOf(document, p));
        if (offsets.length === 0) return [];
        const state = documents.quickState(document, Math.min(...offsets), Math.max(...offsets));
        return service()
          .selectionRanges(state.parsed, offsets)
          .map((ranges) => proto.selectionRange(document, ranges));
      },
      { outline: true, takes: 'position', capabilities: { selectionRangeProvider: true } },
    ),
  ];
}

/** The path of a file: URI as the environments know it; any other URI as it is. */
function pathOfUri(uri: string): string {
  try {
    return uri.startsWith('file:') ? fileURLToPath(uri) : uri;
  } catch {
    return uri;
  }
}
