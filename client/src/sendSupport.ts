/**
 * What the editor's ways of sending share: the sender and the catalog loaded on first use,
 * the editor's part of the send session (the sender's SendSession decides the environment,
 * the token, the chain and the mock run; the editor gives its secret storage, its picker and
 * its questions), the request a command is about, the questions asked before or while
 * sending (a protected environment, a prompt variable), and the ids of response trees.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { bodyFileReader, readConfinedText, type TlsSettings } from '../../server/src/node/index';
import { Checker, type LpreqDocument } from '../../server/src/core/index';
import type {
  AssertionResult,
  BodyFileRead,
  HistoryStore,
  SendResult,
  SendSession,
  SessionHost,
} from '../../server/src/sender/index';
import type { EnvironmentController } from './environmentController';
import type { RequestInfo } from './model/requestInfo';
import type { RequestRef, ShownResponse } from './responsePanel';
import type { ResponsePresenter } from './responsePresenter';

export type SenderModule = typeof import('../../server/src/sender/index');
type RequestsModule = typeof import('./model/requests');
type SendResultModule = typeof import('./model/sendResult');
type TreeModule = typeof import('./model/responseTree');

interface Loaded {
  sender: SenderModule;
  requests: RequestsModule;
  results: SendResultModule;
  trees: TreeModule;
  checker: Checker;
}

/** The sender and the catalog are loaded on first use, not at activation (the core's code runs at activation: the environments use its own-property lookups). */
let loading: Promise<Loaded> | undefined;
export function load(): Promise<Loaded> {
  loading ??= (async () => {
    const [sender, requests, results, trees, catalog] = await Promise.all([
      import('../../server/src/sender/index'),
      import('./model/requests'),
      import('./model/sendResult'),
      import('./model/responseTree'),
      import('../../server/src/catalogData'),
    ]);
    return { sender, requests, results, trees, checker: new Checker(catalog.bundledCatalog()) };
  })();
  return loading;
}

/**
 * The editor's part of the send session: its secret storage for tokens, its picker when the
 * rule cannot decide, its history, its modal questions and `lpreq.protectedEnvironments`.
 */
export function editorSessionHost(
  environments: EnvironmentController,
  o: {
    protectedSetting: () => string[];
    history: () => Pick<HistoryStore, 'add' | 'lastOf'> | undefined;
    signIns?: SessionHost['signIns'];
    signingIn?: SessionHost['signingIn'];
  },
): SessionHost {
  return {
    env: process.env,
    signIns: o.signIns,
    signingIn: o.signingIn,
    chooseWith: 'lpreq: Select Environment, Ctrl+Alt+E',
    // Bound to the origins it was set or confirmed for: another origin is asked for first (tokenOrigin.ts).
    token: (environment, origin) => environments.tokenForSend(undefined, { environment, origin }),
    otherTokens: async (chosen, names) => {
      const out: string[] = [];
      for (const name of names) {
        if (name === chosen) continue;
        const token = await environments.keptToken(name);
        if (token) out.push(token);
      }
      return out;
    },
    pickEnvironment: (names, projectFolder) => environments.pick(names, projectFolder),
    chosen: (projectFolder, choice, written) => environments.chosen(projectFolder, choice, written),
    history: () => o.history(),
    isProtected: (environment) => o.protectedSetting().includes(environment),
    confirmNote: async (q) =>
      (await vscode.window.showWarningMessage(
        `${q.request} is marked @note. Send it?`,
        { modal: true, detail: q.note || undefined },
        'Send',
      )) === 'Send',
    confirmChange: (q) =>
      confirmProtected(
        `'${q.environment}' is a protected environment. Send ${q.request.startsWith(`${q.method} `) ? q.request : `${q.method} '${q.request}'`} to '${q.environment}'?`,
        'POST, PUT, PATCH and DELETE change data on the server.',
      ),
    ask: askPrompt,
  };
}

/** The session of this window, made when the sender is first loaded (extension.ts sets it). */
let sessionMaker: (() => Promise<SendSession>) | undefined;
export function setSessionMaker(make: () => Promise<SendSession>): void {
  sessionMaker = make;
}
export function sendSession(): Promise<SendSession> {
  if (!sessionMaker) return Promise.reject(new Error('the send session is not ready'));
  return sessionMaker();
}

/** The path a document's settings are found from: its file, or for an unsaved one a name in its workspace folder. */
export function settingsPath(doc: { uri: vscode.Uri }): { file: string; saved: boolean } {
  if (doc.uri.scheme === 'file') return { file: doc.uri.fsPath, saved: true };
  const folder = vscode.workspace.getWorkspaceFolder(doc.uri) ?? vscode.workspace.workspaceFolders?.[0];
  return { file: path.join(folder?.uri.fsPath ?? process.cwd(), 'untitled.lpreq'), saved: false };
}

/** The document and request a command is about: the code lens's (its document and line), or the cursor's. */
export async function requestAt(
  environments: EnvironmentController,
  uri?: vscode.Uri,
  line?: number,
): Promise<{ doc: vscode.TextDocument; parsed: LpreqDocument; request: RequestInfo; all: RequestInfo[] } | undefined> {
  const editor = vscode.window.activeTextEditor;
  const doc = uri instanceof vscode.Uri ? await vscode.workspace.openTextDocument(uri) : editor?.document;
  if (!doc || doc.languageId !== 'lpreq') {
    void vscode.window.showWarningMessage('lpreq: open a .lpreq file and put the cursor in a request.');
    return undefined;
  }
  const { requests, checker } = await load();
  const { document: parsed, requests: all } = requests.parseRequests(
    checker,
    doc.getText(),
    environments.environments(doc.uri),
  );
  const at = typeof line === 'number' ? line : editor && editor.document === doc ? editor.selection.active.line : 0;
  const request = requests.requestAtLine(all, at);
  if (!request) {
    void vscode.window.showWarningMessage('lpreq: this file has no request (a line like GET /api/v1/courses).');
    return undefined;
  }
  return { doc, parsed, request, all };
}

/** A body file (`< ./body.json`), relative to the request file's folder and inside its workspace, as the command line reads it. */
export function readBodyFileOf(
  environments: EnvironmentController,
  doc: vscode.TextDocument,
  file: string,
  encoding: string | undefined,
): BodyFileRead {
  if (doc.uri.scheme !== 'file') return { error: 'an unsaved request file has no folder to read it from' };
  return bodyFileReader(doc.uri.fsPath, environments.environmentFiles(doc.uri))(file, encoding);
}

/** What a shown result needs besides the result: the secrets to scrub, where it was sent, and what it can be sent again from. */
export interface PresentOptions {
  secrets: (string | undefined)[];
  /** Those of `secrets` that go nowhere from this environment (the tokens kept for the others). */
  foreignSecrets?: (string | undefined)[];
  token: string | undefined;
  environment: string | undefined;
  tls?: TlsSettings;
  /** The history entry it is, when it has no request file to send again from. */
  historyId?: string;
}

/**
 * A send's result in the response view (its summary scrubbed of every secret given), typed by
 * the docs when it is a success: for Send Request, a test run's exchange and a history entry
 * sent again. `ref` is the request in its file, when there is one to send again from.
 */
export async function presentResult(
  presenter: ResponsePresenter,
  key: string,
  ref: RequestRef | undefined,
  result: SendResult,
  assertions: AssertionResult[] | undefined,
  o: PresentOptions,
): Promise<void> {
  presenter.show(await shownResult(key, ref, result, assertions, o));
}

/** What the response view shows of a send's result (see presentResult), for a view that shows it among others (a run). */
export async function shownResult(
  key: string,
  ref: RequestRef | undefined,
  result: SendResult,
  assertions: AssertionResult[] | undefined,
  o: PresentOptions,
): Promise<ShownResponse> {
  const { sender, results, trees, checker } = await load();
  // What the summary names when the result holds no request (it was not sent).
  const fallback = ref
    ? { method: ref.method, url: ref.target }
    : { method: result.request?.method ?? '', url: result.request?.url ?? '' };
  const summary = results.summaryFromSend(result, fallback, (text) => sender.scrubSecrets(text, o.secrets), assertions);
  // Only a success answer is typed by the docs: an error body is not the documented resource.
  const returns = result.ok ? result.resource : null;
  const describe = (p: string) => sender.describeAt(checker.catalog, returns, p);
  return {
    key,
    summary,
    tree: new trees.ResponseTree(summary, describe, nextTreeIdPrefix()),
    describe,
    environment: o.environment,
    tokenSet: o.token !== undefined && o.token.length > 0,
    ref,
    names: ref ?? { title: result.request?.title, name: result.request?.name },
    historyId: o.historyId,
    prepared: result.request,
    curlSecrets: o.secrets.filter((x): x is string => typeof x === 'string' && x !== o.token),
    curlForeignSecrets: [...(o.foreignSecrets ?? []), ...(result.foreignSecretValues ?? [])].filter(
      (x): x is string => typeof x === 'string' && x !== o.token,
    ),
    curlTls: o.tls,
  };
}

let generation = 0;

/** A prefix for the node ids of the next response tree, so that a new response starts collapsed as it should. */
export function nextTreeIdPrefix(): string {
  return `g${++generation}`;
}

/**
 * The confirmation of a request that changes data in a protected environment: a modal whose
 * first button, the one focused and pressed by Enter, is Cancel. VS Code's modal always adds a
 * button of its own for Escape, which the first item cannot be; it is named Don't Send (as
 * Save, Don't Save, Cancel), so that no two buttons read the same.
 */
export async function confirmProtected(message: string, detail?: string): Promise<boolean> {
  const cancel: vscode.MessageItem = { title: 'Cancel' };
  const send: vscode.MessageItem = { title: 'Send' };
  const close: vscode.MessageItem = { title: "Don't Send", isCloseAffordance: true };
  const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, cancel, send, close);
  return answer === send;
}

/** Asks for a prompt variable (`# @prompt name description`) as REST Client does; undefined when the user cancels. */
export async function askPrompt(q: {
  name: string;
  description: string;
  request: string;
  secret: boolean;
}): Promise<string | undefined> {
  return await vscode.window.showInputBox({
    title: `lpreq: ${q.request} asks for {{${q.name}}}`,
    prompt: q.description || `The value of {{${q.name}}} for this request`,
    placeHolder: q.name,
    password: q.secret,
    ignoreFocusOut: true,
  });
}

const toldDotenv = new Set<string>();

/** Says once per file and problem why a `.env` is not read: {{$dotenv NAME}} then stays unresolved. */
function dotenvProblem(file: string, problem: string): void {
  warnOnce(`${file}: ${problem}; {{$dotenv ...}} stays unresolved`);
}

/** A warning of a send's setup (a `.env` that is not read, and why), shown once a session. */
export function warnOnce(message: string): void {
  if (toldDotenv.has(message)) return;
  toldDotenv.add(message);
  void vscode.window.showWarningMessage(`lpreq: ${message}`);
}

/**
 * What system variables read when the editor sends: the extension host's environment
 * (`{{$processEnv NAME}}`, `{{$env.NAME}}`), the `.env` file beside the request file
 * (`{{$dotenv NAME}}`) and the workspace folder (`{{$projectRoot}}`), as the command line does.
 */
export function systemContext(doc: { uri: vscode.Uri }, parseDotenv: (text: string) => Record<string, string>) {
  let dotenv: Record<string, string> = {};
  const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
  if (doc.uri.scheme === 'file') {
    // The confined reader: a link out of the workspace folder, a pipe or a device is not read (nor waited on).
    const file = path.join(path.dirname(doc.uri.fsPath), '.env');
    const read = readConfinedText(file, folder?.uri.fsPath ?? path.dirname(doc.uri.fsPath));
    if (read.problem === undefined) dotenv = parseDotenv(read.text);
    else if (!/^no such file/.test(read.problem)) dotenvProblem(file, read.problem);
  }
  return {
    processEnv: process.env,
    dotenv,
    projectRoot: folder?.uri.fsPath ?? (doc.uri.scheme === 'file' ? path.dirname(doc.uri.fsPath) : undefined),
  };
}
