/**
 * What the handlers of one connection share: the documents, the diagnostics and semantic
 * tokens they publish, the language service, the guard, and what the client said it can
 * do at initialize.
 */
import type { Connection } from 'vscode-languageserver/node';
import type { LanguageService } from '../core/index';
import type { DiagnosticsPublisher } from './diagnostics';
import type { Documents } from './documents';
import type { Guard } from './guard';
import type { SemanticTokensProvider } from './semanticTokens';
import type { CompletionSupport } from './toProto';

/** What the client said at initialize, as far as the answers depend on it. */
export interface ClientSupport {
  completion: CompletionSupport;
  /** It asks for semantic tokens again when told to (`workspace/semanticTokens/refresh`). */
  semanticRefresh: boolean;
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
  client: ClientSupport;
  /** Re-checks every open document (the environment changed) and has the editor ask for semantic tokens again. */
  recheckAll(): void;
}
