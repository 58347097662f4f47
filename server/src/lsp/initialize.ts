/**
 * The handshake: what the client can do and what it asks for (initializationOptions), and
 * what the server answers it can do. After `initialized` the environment files are watched
 * and the catalog is loaded, while the editor is still opening files.
 */
import { fileURLToPath } from 'node:url';
import {
  CodeActionKind,
  DidChangeWatchedFilesNotification,
  TextDocumentSyncKind,
  type InitializeParams,
  type InitializeResult,
} from 'vscode-languageserver/node';
import { TOKEN_MODIFIERS, TOKEN_TYPES } from '../core/index';
import type { Session } from './session';

export function registerInitialize(session: Session): void {
  const { connection, documents, diagnostics, client } = session;
  connection.onInitialize((params: InitializeParams): InitializeResult => {
    const init = (params.initializationOptions ?? {}) as { environment?: unknown; debounceMs?: unknown };
    if (typeof init.environment === 'string') documents.selected = init.environment;
    if (typeof init.debounceMs === 'number' && init.debounceMs >= 0) diagnostics.debounceMs = init.debounceMs;
    // A client without snippets (eglot without yasnippet) gets plain text: `$1` would be inserted as it is.
    client.completion.snippets = params.capabilities?.textDocument?.completion?.completionItem?.snippetSupport !== false;
    // VS Code (or code-server) runs `editor.action.triggerSuggest` itself; other editors would send it to the server.
    client.completion.triggerSuggest = /code/i.test(params.clientInfo?.name ?? '') ? 'editor.action.triggerSuggest' : undefined;
    client.semanticRefresh = params.capabilities?.workspace?.semanticTokens?.refreshSupport === true;
    const folder = params.workspaceFolders?.[0]?.uri ?? params.rootUri ?? undefined;
    try {
      documents.root = folder && folder.startsWith('file:') ? fileURLToPath(folder) : undefined;
    } catch {
      documents.root = undefined;
    }
    const watch = params.capabilities.workspace?.didChangeWatchedFiles?.dynamicRegistration === true;
    connection.onInitialized(() => {
      if (watch) {
        connection.client
          .register(DidChangeWatchedFilesNotification.type, {
            watchers: [{ globPattern: '**/http-client.env.json' }, { globPattern: '**/http-client.private.env.json' }],
          })
          .catch((e: unknown) => session.log(`cannot watch environment files: ${String(e)}`));
      }
      // Load the catalog while the editor is still opening files, not when the first one arrives.
      setImmediate(() => session.guard('loading the catalog', undefined, undefined, () => {
        session.service();
      }));
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
}
