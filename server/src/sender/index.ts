/**
 * The sender: what the VS Code extension, the command line, the language server and the demo
 * call to send requests of a `.lpreq` file and read typed responses. It reuses the language
 * core for parsing, matching and variables; only exchange.ts, paging.ts, history.ts,
 * setup.ts and environmentChoice.ts (the environment files, the token, the project's `.lpreq`
 * folder and its remembered environment) do I/O.
 *
 * Typical use (a host's Send Request): one session per workspace, asked for every send.
 *
 *   const session = new SendSession(host, checker);   // host: where the choice is kept, tokens, questions, history
 *   const { result, setup } = await session.send(parseDocument(text), blockIndex, {
 *     file,                                      // the request file: its environment files, its project
 *     allPages, signal, timeoutMs,
 *   });
 *   // setup.selected: the environment by the rule; result.response: status, headers, body, timing;
 *   // result.resource + result.issues: typed check
 *   // result.response: status, headers, body, timing; result.resource + result.issues: typed check
 *
 * - prepareRequest(checker, document, blockIndex, { environments, system, reference }) -> PrepareResult
 *   The pure step: block + variables -> PreparedRequest (url, headers, encoded body), and beside it
 *   the secrets it may carry (secrets: where the token goes; foreignSecrets: nowhere). No I/O.
 * - sendPrepared(prepared, { token, secrets, foreignSecrets, timeoutMs, signal, proxy, maxRedirects, maxBodyBytes }) -> ExchangeResult
 *   One exchange (redirects followed, the token only to prepared.tokenOrigin, every part of every
 *   hop through the one secret check). Never throws.
 * - sendAllPages(prepared, { ...exchange options, maxPages, onPage }) -> PagedResult
 *   Follows Link rel="next" (or EndKey/StartKey) and merges the pages.
 * - sendBlock(document, blockIndex, SendBlockOptions) -> SendResult
 *   The whole flow: chaining, preparing, sending (pages), typed check, history. Never throws.
 * - toCurl(prepared, { includeToken?, token?, secrets?, foreignSecrets?, tls?, notes? }) -> string   ("Copy as cURL": what the sender would send, planned by its own outgoing check; `$LPREQ_TOKEN` in the token's place, other secrets `***`, unless includeToken; throws CopyRefused, with the sender's reason, where the sender would send nothing)
 * - toCode(prepared, 'javascript' | 'python', { token?, secrets?, foreignSecrets?, tls? }) -> string   ("Generate Code": fetch or Python requests, planned as toCurl; the token read from LPREQ_TOKEN when it runs, never written; $tls as the sender applies it)
 * - scrubSecrets(text, secrets) -> string, carriesSecret(text, secrets)   (secrets.ts: every way a secret is written)
 * - checkResponse(catalog, returns, body, scrub?) -> { resource, issues }   (scrub: a long value's secrets out before a message shows it cut)
 * - describeAt(catalog, returns, '$[0].items_count') -> { type, note?, enum?, enumDescriptions? } | undefined
 * - new HistoryStore(dir, { keep }) with add / list(limit) / get(id) / clear()
 * - runTests(sources, { checker, token, signal, bail, grep, events, ...send options }) -> RunResult
 *   The test runner (LPREQ-FORMAT section 7) of `lpreq test` and the editor: each file's requests in
 *   order through sendBlock, their assertions evaluated (evaluateAssertion), progress through
 *   `events`, stopped by `signal`. testsOf(document, lines) lists what a file's run reports.
 * - evaluateBlockAssertions(document, blockIndex, sendResult, context) -> Promise<AssertionResult[]>
 *   One block's assertions on the response a send got: the runner's own step, which the editor's
 *   Send Request calls too. `matches` is decided off the calling thread, within 1 s an assertion;
 *   readyForAssertions(document, blockIndex), called before sending, starts its worker meanwhile.
 * - sendSetup(file, { environment, env, chooseWith, remembered?, forMock?, tokenOrigin? }) -> SendSetup   (what `lpreq send`, `lpreq test` and the language server find besides the file; LPREQ_TOKEN_ORIGIN or tokenOrigin pins the token's origin, and a base_url elsewhere is a SetupError)
 * - new OAuthTokens({ store, openBrowser, tell, interactive, signInAgain }): a host's OAuth 2.0 sign-ins, given to its
 *   SendSession as `signIns` (oauth2/: an environment's Security.Auth sign-in, JetBrains' shape: authorization code with
 *   PKCE through a loopback redirect, client credentials, refresh before expiry and after a 401). The session's setup
 *   signs in (signInFor) and its sends get the sign-ins as `auth` ({{$auth.token("id")}}, the 401 retry). A sign-in is
 *   kept by the host's store under base_url's origin, token URL, client, grant and scope.
 * - tokenFor(kept, environmentOrigin(environments)) -> TokenDecision   (tokenOrigin.ts: which kept token goes to which origin; a token is bound to the origins it was set for or confirmed for, and asks for any other: confirmationOf words the question)
 * - new SendSession(host, checker): the one send setup of every host (session.ts): answer(folder) (the
 *   environment rule, core/environmentRule.ts), remember(folder, choice), setup(file), send(document, block, { file }),
 *   testSource(file, ...) and runOptions(setups, mock?) for a test run. The host gives what only it has: where the
 *   choice is kept, the token of an environment for its origin, how to ask the user, the history.
 */
export {
  prepareRequest,
  sendingEnvironments,
  environmentOrigin,
  blockAtLine,
  blockNamed,
  requestBlocks,
  endpointFacts,
  environmentOptions,
} from './prepare';
export type {
  PreparedRequest,
  PrepareResult,
  PrepareOptions,
  RequestSecrets,
  BodyFileRead,
  SendEnvironments,
} from './prepare';
export { sendPrepared, noResponse } from './exchange';
export { isLoopback, CopyRefused } from './outgoing';
export { proxyFor } from './connection';
export { apiErrorMessage, apiErrorMessages, ERROR_SHAPES } from './errorBody';
export type { ExchangeOptions, ExchangeResult, ExchangeError, FailureKind, Timing } from './exchange';
export { sendAllPages, parseLinkHeader, mergePages } from './paging';
export type { PagedResult, PagingOptions, PageProgress } from './paging';
export { sendBlock, isSecretPrompt, wasSent, environmentTls } from './send';
export { sendSetup, SetupError, ChooseEnvironmentError, projectStore, tokenNotes } from './setup';
export { tokenFor, confirmed, confirmationOf, readStoredToken, storedToken } from './tokenOrigin';
export type { BoundToken, TokenDecision } from './tokenOrigin';
export type { SendSetup, SetupOptions } from './setup';
export { SendSession, TokenDeclinedError } from './session';
export type { SessionHost, FileSetup, MockTarget } from './session';
export { projectMemory, memoryInProcess } from './environmentChoice';
export type { EnvironmentMemory } from './environmentChoice';
export type { SendBlockOptions, SendResult, PromptQuestion, DependencyError } from './send';
export { selectJsonPath, referenceValue, referencedRequests, answerCounts } from './chaining';
export { OAuthTokens, MemoryStore } from './oauth2/tokens';
export type { SignIn, SignInStore, OAuthHost, SignInStatus } from './oauth2/tokens';
export { EnvironmentAuth, authReferences } from './oauth2/environmentAuth';
export type { SendAuth, AuthReference } from './oauth2/environmentAuth';
export { resolveAuthConfig, environmentAuthId, authSettingsOf } from './oauth2/config';
export type { OAuthConfig } from './oauth2/config';
export { OAuthError } from './oauth2/tokenRequest';
export { signInFor } from './oauth2/setupAuth';
export type { ResponseStore, StoredExchange } from './chaining';
export { checkResponse, describeAt, parseJsonPath, formatJsonPath } from './typed';
export type { TypedResult, ResponseIssue, ResponseIssueCode, DocumentedType } from './typed';
export { HistoryStore, entryFromExchange } from './history';
export type { HistoryEntry, HistorySummary, HistoryOptions, NewHistoryEntry } from './history';
export { toCurl, shellQuote } from './curl';
export { toCode } from './codegen';
export type { CodeLanguage, CodeOptions } from './codegen';
export { scrubSecrets, carriesSecret, MIN_SECRET_LENGTH } from './secrets';
export { stringifyExact } from './exactNumbers';
export type { CurlOptions } from './curl';
export { encodeForm, encodeFormName, encodeFormValue, escapeUrlText, appendQuery } from './encoding';
export type { FormPair } from './encoding';
export { resolveText, systemVariable, parseDotenv } from './variables';
export { runTests, testsOf, documentedTypes, evaluateBlockAssertions, readyForAssertions } from './runner/runner';
export type {
  TestSource,
  RunOptions,
  RunResult,
  RunEvents,
  FileResult,
  RequestResult,
  RequestFailure,
  AssertionResult,
  AssertionContext,
  RequestDiagnostic,
} from './runner/runner';
export { evaluateAssertion } from './runner/evaluate';
export type { ResponseFacts, EvaluationContext, AssertionOutcome } from './runner/evaluate';
export type { SystemContext, ReferenceResolver } from './variables';
