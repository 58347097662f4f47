/**
 * The language server: the only layer that knows LSP. This file wires one connection: the
 * open documents (documents.ts), the diagnostics they publish (diagnostics.ts), semantic
 * tokens (semanticTokens.ts), the handshake (initialize.ts) and the table of handlers
 * (handlers.ts), every one of them run in the one guard (guard.ts); the answers are the
 * language service's (core/languageService.ts), turned into LSP types by toProto.ts.
 */
import { CodeLensRefreshRequest, MessageType, ShowMessageNotification } from './protocol';
import type { Connection } from 'vscode-languageserver/node';
import { bundledCatalog } from '../catalogData';
import { createLanguageService, type LanguageService } from '../core/index';
import { DiagnosticsPublisher } from './diagnostics';
import { defaultLoadEnvironment, Documents, type LoadEnvironment } from './documents';
import { CodeLenses } from './codeLens';
import { createGuard } from './guard';
import { handlers } from './handlers';
import { registerInitialize } from './initialize';
import { SemanticTokensProvider } from './semanticTokens';
import { ServerSending } from './sending';
import { EnvironmentFindings } from './environmentFindings';
import type { Session } from './session';

export interface ServerOptions {
  /** Delay between the last edit and re-checking, in milliseconds. */
  debounceMs?: number;
  /** Reads the environment files for a folder (tests replace it). */
  loadEnvironment?: LoadEnvironment;
}

export function startServer(connection: Connection, options: ServerOptions = {}): void {
  const log = (message: string) => connection.console.error(`lpreq: ${message}`);
  let service: LanguageService | undefined;
  const getService = () => (service ??= createLanguageService(bundledCatalog()));
  const guard = createGuard(log);
  let sending: ServerSending | undefined;
  const documents = new Documents({
    service: getService,
    log,
    warn: (message) =>
      void connection.sendNotification(ShowMessageNotification.type, { type: MessageType.Warning, message }),
    loadEnvironment: options.loadEnvironment ?? defaultLoadEnvironment,
    readShared: (file) => findings.publish(file),
  });
  const findings = new EnvironmentFindings(connection);
  const session: Session = {
    connection,
    log,
    guard,
    service: getService,
    documents,
    diagnostics: new DiagnosticsPublisher(connection, documents, getService, guard, options.debounceMs ?? 50),
    tokens: new SemanticTokensProvider(documents, getService),
    lenses: new CodeLenses(getService),
    get sending() {
      sending ??= new ServerSending(session);
      return sending;
    },
    client: {
      completion: { snippets: true },
      semanticRefresh: false,
      lenses: true,
      asksLenses: false,
      workDoneProgress: false,
      showDocument: false,
      codeLensRefresh: false,
    },
    recheckAll() {
      session.diagnostics.recheckAll();
      // The colours of {{variables}} depend on the environment too: the editor asks again.
      if (session.client.semanticRefresh)
        connection.languages.semanticTokens
          .refresh()
          .catch((e: unknown) => log(`semantic tokens refresh: ${String(e)}`));
      // Whether Fetch All Pages applies can depend on a variable of the environment.
      if (session.client.lenses && session.client.codeLensRefresh)
        connection
          .sendRequest(CodeLensRefreshRequest.type)
          .catch((e: unknown) => log(`code lens refresh: ${String(e)}`));
    },
  };
  // An editor that shows the server's code lenses gets them at once after open: what they need of the catalog is known while the diagnostics cache fills.
  session.diagnostics.prepareBlock = (block, state, key, endpoint) => {
    if (session.client.lenses) session.lenses.prepare(block, state, key, endpoint);
  };
  // An editor that asks for code lenses asks for a document's as soon as it is open: the answer is written first.
  session.diagnostics.opened = (uri) => {
    const document = documents.get(uri);
    if (document && session.client.lenses && session.client.asksLenses)
      session.lenses.writeAhead(document, documents.outlineState(document));
  };
  // A project's remembered environment, which checking follows too, is the send session's to read.
  documents.remembered = (folder) => session.sending.remembered(folder);
  const table = handlers(session);
  registerInitialize(session, table);
  for (const handler of table) handler.register(connection, guard);
  connection.listen();
}
