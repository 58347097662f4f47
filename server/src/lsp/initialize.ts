/**
 * The handshake: what the client can do and what it asks for (initializationOptions), and
 * what the server answers it can do. After `initialized` the environment files are watched
 * and the catalog is loaded, while the editor is still opening files.
 */
import { DidChangeWatchedFilesNotification, TextDocumentSyncKind } from './protocol';
import type { InitializeParams, WorkspaceFoldersChangeEvent, InitializeResult } from 'vscode-languageserver/node';
import { VERSION } from '../version';
import { capabilitiesOf, type Handler } from './handlers';
import type { Session } from './session';

/** `table`: the handlers, whose capabilities the answer announces. */
export function registerInitialize(session: Session, table: readonly Handler[]): void {
  const { connection, documents, diagnostics, client } = session;
  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const init = (params.initializationOptions ?? {}) as {
      environment?: unknown;
      debounceMs?: unknown;
      triggerSuggestCommand?: unknown;
      clientLenses?: unknown;
    };
    // A configuration's default: a project's remembered choice wins over it (the user's later choice).
    if (typeof init.environment === 'string') documents.preferred = init.environment;
    if (typeof init.debounceMs === 'number' && init.debounceMs >= 0) diagnostics.debounceMs = init.debounceMs;
    // A client without snippets (eglot without yasnippet) gets plain text: `$1` would be inserted as it is.
    client.completion.snippets =
      params.capabilities?.textDocument?.completion?.completionItem?.snippetSupport !== false;
    // The editor's own command that opens completion again (VS Code's `editor.action.triggerSuggest`): an
    // editor that has none would send it back to the server, so it is attached only when the client names it.
    client.completion.triggerSuggest =
      typeof init.triggerSuggestCommand === 'string' && init.triggerSuggestCommand !== ''
        ? init.triggerSuggestCommand
        : undefined;
    client.semanticRefresh = params.capabilities?.workspace?.semanticTokens?.refreshSupport === true;
    // What stands behind a diagnostic's short message (the endpoint, the documentation's words) goes where the client shows it.
    diagnostics.relatedInformation = params.capabilities?.textDocument?.publishDiagnostics?.relatedInformation === true;
    // An editor with lpreq's own lenses and commands (the VS Code extension) says so: the server's
    // would be shown twice, and a command id both register is an error there.
    client.lenses = init.clientLenses !== true;
    client.asksLenses = params.capabilities?.textDocument?.codeLens !== undefined;
    client.workDoneProgress = params.capabilities?.window?.workDoneProgress === true;
    client.showDocument = params.capabilities?.window?.showDocument?.support === true;
    client.codeLensRefresh = params.capabilities?.workspace?.codeLens?.refreshSupport === true;
    // "Add parameter" leaves the cursor at the value where the editor takes snippet edits (VS Code's client 10+).
    const workspaceEdit = params.capabilities?.workspace?.workspaceEdit;
    client.snippetEdits = workspaceEdit?.snippetEditSupport === true && workspaceEdit.documentChanges === true;
    // Every workspace folder is a root (a document's environment files are looked for up to its own); rootUri without them.
    const folders = Array.isArray(params.workspaceFolders)
      ? params.workspaceFolders.map((f) => f?.uri).filter((u): u is string => typeof u === 'string')
      : [];
    documents.setRoots(folders.length > 0 ? folders : typeof params.rootUri === 'string' ? [params.rootUri] : []);
    const folderEvents = params.capabilities.workspace?.workspaceFolders === true;
    const watch = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    connection.onInitialized(() => {
      if (watch) {
        connection.client
          .register(DidChangeWatchedFilesNotification.type, {
            // Every JSON file: an environment may name its list of scopes (`"$scopes": "scopes.json"`); handlers.ts keeps the changes that matter.
            watchers: [{ globPattern: '**/*.json' }],
          })
          .catch((e: unknown) => session.log(`cannot watch environment files: ${String(e)}`));
      }
      // Not in the table of handlers: the library takes this notification over at initialize when
      // the client has workspace folders, and hands it on through this event (in the same guard).
      if (folderEvents) {
        connection.workspace.onDidChangeWorkspaceFolders((event: WorkspaceFoldersChangeEvent) => {
          void session.guard('workspace folders', undefined, undefined, () => foldersChanged(session, event));
        });
      }
      // Load the catalog while the editor is still opening files, not when the first one arrives.
      setImmediate(() =>
        session.guard('loading the catalog', undefined, undefined, () => {
          session.service();
        }),
      );
    });
    return {
      capabilities: {
        textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
        ...capabilitiesOf(table, client),
        workspace: { workspaceFolders: { supported: true, changeNotifications: true } },
      },
      serverInfo: { name: 'lpreq', version: VERSION },
    };
  });
}

/** Folders added to or removed from the workspace: the roots change, and with them the environment files a document finds. */
function foldersChanged(session: Session, event: WorkspaceFoldersChangeEvent): void {
  const removed = new Set(event.removed.map((f) => f.uri));
  const uris = session.documents.rootUris.filter((u) => !removed.has(u));
  for (const f of event.added) if (!uris.includes(f.uri)) uris.push(f.uri);
  session.documents.setRoots(uris);
  session.documents.forgetEnvironments();
  session.recheckAll();
}
