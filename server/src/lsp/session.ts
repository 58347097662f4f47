/**
 * What the handlers of one connection share: the documents, the diagnostics and semantic
 * tokens they publish, the language service, the guard, and what the client said it can
 * do at initialize.
 */
import type { Connection } from 'vscode-languageserver/node';
import type { LanguageService } from '../core/index';
import type { CodeLenses } from './codeLens';
import type { DiagnosticsPublisher } from './diagnostics';
import type { Documents } from './documents';
import type { Guard } from './guard';
import type { SemanticTokensProvider } from './semanticTokens';
import type { ServerSending } from './sending';
import type { CompletionSupport } from './toProto';

/** What the client said at initialize, as far as the answers depend on it. */
export interface ClientSupport {
  completion: CompletionSupport;
  /** It asks for semantic tokens again when told to (`workspace/semanticTokens/refresh`). */
  semanticRefresh: boolean;
  /**
   * The server offers its code lenses, its code actions that send and its commands: unless
   * the client shows its own (initializationOptions `clientLenses`, the VS Code extension).
   */
  lenses: boolean;
  /** It asks for code lenses (it declares `textDocument.codeLens`). */
  asksLenses: boolean;
  /** It shows progress the server creates (`window/workDoneProgress/create`). */
  workDoneProgress: boolean;
  /** It opens a document the server names (`window/showDocument`). */
  showDocument: boolean;
  /** It asks for code lenses again when told to (`workspace/codeLens/refresh`). */
  codeLensRefresh: boolean;
  /** It applies snippet edits in a workspace edit (LSP 3.18 `snippetEditSupport`, with `documentChanges`). */
  snippetEdits?: boolean;
}

export interface Session {
  connection: Connection;
  log(message: string): void;
  guard: Guard;
  /** The language service over the bundled catalog, created on first use. */
  service(): LanguageService;
  documents: Documents;
  diagnostics: DiagnosticsPublisher;
  tokens: SemanticTokensProvider;
  lenses: CodeLenses;
  /** Sending, for the commands (lpreq.send...). */
  sending: ServerSending;
  client: ClientSupport;
  /** Re-checks every open document (the environment changed) and has the editor ask for semantic tokens and code lenses again. */
  recheckAll(): void;
}
