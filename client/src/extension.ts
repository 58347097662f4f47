/**
 * The VS Code extension: the language client, the environment and its token, sending
 * through code lenses and commands, the response view (an editor beside the request, or the
 * side bar's tree) and the History view. Activation does as little as it can: the sender and
 * the catalog load on the first send or code lens.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { HistoryStore, SendSession } from '../../server/src/sender/index';
import { editorSessionHost, load, setSessionMaker } from './sendSupport';
import { EnvironmentController } from './environmentController';
import { SignInController } from './signInController';
import { HistoryView } from './historyView';
import { createLanguageClient } from './languageClient';
import type { HistoryItem } from './model/history';
import type { ResponseNode } from './model/responseTree';
import { readSettings, settingProblems, type LpreqSettings } from './model/settings';
import { ResponseDocuments } from './responseDocuments';
import { ResponsePanels } from './responsePanel';
import { ResponsePresenter } from './responsePresenter';
import { ResponseView } from './responseView';
import { SendController } from './sendController';
import { RequestLenses } from './requestLenses';
import { CopyCommands } from './copyCommands';
import { HistoryCommands } from './historyCommands';
import { ImportCommands } from './importCommands';
import { registerMcpServer } from './mcpServer';
import { TestExplorer } from './testController';
import { Comparisons } from './compareCommands';

let client: LanguageClient | undefined;

function settings(): LpreqSettings {
  const config = vscode.workspace.getConfiguration('lpreq');
  return readSettings((key) => config.get(key));
}

/** Says once which settings cannot be read (`lpreq.maxBodySize: '10 MBs' is not ...`); their defaults are used. */
function reportSettingProblems(): void {
  const config = vscode.workspace.getConfiguration('lpreq');
  for (const problem of settingProblems((key) => config.get(key))) void vscode.window.showWarningMessage(problem);
}

/** What the in-editor tests (test/e2e/electron-suite.ts) may read; given only in test mode. */
export interface LpreqTestApi {
  response(): { summary: string; labels: string[] } | undefined;
  /** What the response view in the editor shows last: its title, header line and body label. */
  responseView(): { title: string; status: string; facts: string[]; bodyLabel: string } | undefined;
  /** The Compare tab shown last: what it compared with and each difference as `kind path`. */
  comparison(): { title: string; summary: string; rows: string[] } | undefined;
  historyDir(): string | undefined;
}

export function activate(context: vscode.ExtensionContext): LpreqTestApi | undefined {
  const started = performance.now();
  const output = vscode.window.createOutputChannel('lpreq', { log: true });
  reportSettingProblems();
  context.subscriptions.push(output);

  const environments = new EnvironmentController(context, output, () => settings().protectedEnvironments);
  context.subscriptions.push(environments);
  // OAuth 2.0 sign-ins (Security.Auth): their tokens in secret storage, their state in the status bar.
  const signIns = new SignInController(context, output, environments, () => settings().proxy || undefined);
  context.subscriptions.push(signIns);

  const historyStore = historyStoreOf(context);

  const comparisons = new Comparisons(historyStore);
  const makeSession = sessionMaker(environments, signIns, historyStore);
  setSessionMaker(makeSession);
  environments.sessionLoader = makeSession;

  const documents = new ResponseDocuments();
  const responseView = new ResponseView(documents);
  const historyView = new HistoryView(historyStore, () => settings().historySize);
  // The panels' actions call the sender, made just below (they run only after activation).
  const panels: ResponsePanels = new ResponsePanels(
    context,
    documents,
    {
      sendAgain: (ref, allPages): Promise<void> => sender.sendAgain(ref, allPages),
      resendEntry: (id): Promise<void> => history.resend(id),
      copyCurl: (shown): Promise<void> => copies.copyCurlOf(shown),
      // Whether a token is set once the user has answered (Escape sets none).
      setToken: async (environment) => {
        await environments.setToken(false, environment);
        return (await environments.keptToken()) !== undefined;
      },
      cancel: () => sender.cancel(),
      compare: (shown, what) => comparisons.compare(shown, what),
    },
    output,
  );
  const presenter: ResponsePresenter = new ResponsePresenter(responseView, panels, settings);
  const sender: SendController = new SendController(environments, presenter, historyView, settings, output);
  const copies: CopyCommands = new CopyCommands(environments, settings, (uri) => sender.responsesOf(uri));
  const history = new HistoryCommands(environments, presenter, historyView, settings, historyStore, (title, task) =>
    sender.run(title, task),
  );
  context.subscriptions.push(documents, responseView, panels, historyView, sender);
  const lenses = new RequestLenses(environments, settings);
  context.subscriptions.push(lenses, vscode.languages.registerCodeLensProvider({ language: 'lpreq' }, lenses));
  const tests = new TestExplorer(settings, output, (uri, line, result, assertions, o) =>
    sender.showExchange(uri, line, result, assertions, o),
  );
  context.subscriptions.push(tests);
  registerMcpServer(context, output);

  const register = commandRegistrar(context, output);
  register('lpreq.sendRequest', (uri?: unknown, line?: unknown) => sender.send(...lensArgs(uri, line)));
  register('lpreq.fetchAllPages', (uri?: unknown, line?: unknown) => sender.send(...lensArgs(uri, line), true));
  register('lpreq.sendAll', (uri?: unknown) => sender.sendAll(lensArgs(uri)[0]));
  register('lpreq.cancelRequest', () => sender.cancel());
  register('lpreq.runTestsAgainstMock', () => tests.runAgainstMock());
  register('lpreq.tests.showResponse', (item: unknown) => tests.showResponse(item));
  register('lpreq.compareWithPrevious', () => panels.compareActive('previous'));
  register('lpreq.compareWithSnapshot', () => panels.compareActive('snapshot'));
  register('lpreq.copyAsCurl', (uri?: unknown, line?: unknown) => copies.copyAsCurl(...lensArgs(uri, line)));
  register('lpreq.generateCode', async (uri?: unknown, line?: unknown, language?: unknown) => {
    const code = await copies.generateCode(...lensArgs(uri, line), language);
    if (code) await documents.open(code.name, code.text);
  });
  register('lpreq.copyAsCurlWithToken', (uri?: unknown, line?: unknown) =>
    copies.copyAsCurl(...lensArgs(uri, line), true),
  );
  // An environment name as argument (from a key binding's "args") chooses it without the picker.
  register('lpreq.selectEnvironment', (name?: unknown) =>
    typeof name === 'string' ? environments.choose(name) : environments.select(),
  );
  // An environment name as argument (a response view's "Set Access Token for 'local'") sets that one's.
  register('lpreq.setToken', (name?: unknown) =>
    environments.setToken(false, typeof name === 'string' ? name : undefined),
  );
  register('lpreq.replaceToken', () => environments.setToken(true));
  register('lpreq.clearToken', () => environments.clearToken());
  register('lpreq.signIn', () => signIns.signIn());
  register('lpreq.signOut', () => signIns.signOut());
  const imports = new ImportCommands(context);
  register('lpreq.pasteAsRequest', () => imports.pasteAsRequest());
  register('lpreq.importFile', () => imports.importFile());
  register('lpreq.showOutput', () => output.show());
  register('lpreq.restartServer', async () => {
    if (client) await client.restart();
  });
  register('lpreq.response.copyValue', (node?: ResponseNode) => responseView.copyValue(node));
  register('lpreq.response.copyPath', (node?: ResponseNode) => responseView.copyPath(node));
  register('lpreq.response.openRaw', () => responseView.openRaw());
  register('lpreq.response.showDocumentation', (node?: ResponseNode) => responseView.showDocumentation(node));
  register('lpreq.response.clear', () => responseView.clear());
  register('lpreq.history.resend', (item?: HistoryItem) => (item ? history.resend(item.id) : undefined));
  register('lpreq.history.show', (item?: HistoryItem) => (item ? history.showHistoryEntry(item.id) : undefined));
  register('lpreq.rerunLastRequest', () => sender.rerunLast(() => history.resendNewest()));
  register('lpreq.history.pick', () => history.pickHistory());
  register('lpreq.history.clear', async () => {
    const answer = await vscode.window.showWarningMessage(
      'Clear the lpreq history of this workspace?',
      { modal: true },
      'Clear',
    );
    if (answer === 'Clear') await historyStore()?.clear();
    historyView.refresh();
  });

  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('lpreq')) {
        if (e.affectsConfiguration('lpreq.maxBodySize')) reportSettingProblems();
        lenses.refresh();
        environments.refresh();
        historyView.refresh();
      }
    }),
    environments.onDidChange(() => lenses.refresh()),
  );

  startLanguageClient(context, output, environments, started);

  output.info(`activate() took ${(performance.now() - started).toFixed(1)} ms`);
  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return testApi(responseView, panels, historyStore);
}

/**
 * The send session of this window: the sender's one set-up of a send (environment, token,
 * chain, mock run), made when the sender is first loaded, with what only the editor can give.
 */
function sessionMaker(
  environments: EnvironmentController,
  signIns: SignInController,
  historyStore: () => HistoryStore | undefined,
): () => Promise<SendSession> {
  let session: Promise<SendSession> | undefined;
  return (): Promise<SendSession> =>
    (session ??= load().then(({ sender, checker }) => {
      const made = new sender.SendSession(
        editorSessionHost(environments, {
          protectedSetting: () => settings().protectedEnvironments,
          history: historyStore,
          // OAuth 2.0 sign-ins: the session signs in for a send with the editor's secret storage and browser.
          signIns: signIns.tokensWith(sender),
          signingIn: (id, run) => signIns.signingIn(id, run),
        }),
        checker,
      );
      environments.attach(made);
      return made;
    }));
}

/** The history of this workspace, made on first use and again when its size setting changes; none when it keeps nothing. */
function historyStoreOf(context: vscode.ExtensionContext): () => HistoryStore | undefined {
  let store: HistoryStore | undefined;
  let storeKeep = -1;
  return (): HistoryStore | undefined => {
    const keep = settings().historySize;
    if (keep <= 0) return undefined;
    if (!store || storeKeep !== keep) {
      // The sender's module is loaded by then (history is used after a send or by the view).
      const base = context.storageUri ?? context.globalStorageUri;
      const { HistoryStore: Store } =
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        require('../../server/src/sender/index') as typeof import('../../server/src/sender/index');
      store = new Store(path.join(base.fsPath, 'history'), { keep });
      storeKeep = keep;
    }
    return store;
  };
}

/** The language server, told the environment chosen; the server reads each project's choice where the session keeps it (`.lpreq/environment.json`). */
function startLanguageClient(
  context: vscode.ExtensionContext,
  output: vscode.LogOutputChannel,
  environments: EnvironmentController,
  started: number,
): void {
  client = createLanguageClient(context, output);
  const lc = client;
  environments.notifyServer = (name) => {
    // No name: read the projects' choices again; a name (or null) only when it could not be kept on disk.
    if (lc.isRunning()) void lc.sendNotification('lpreq/selectEnvironment', name === undefined ? {} : { name });
  };
  lc.start().then(
    () => output.info(`language server started (${Math.round(performance.now() - started)} ms after activation began)`),
    (e: unknown) => output.error(`the language server could not start: ${String(e)}`),
  );
}

/** A code lens's arguments: the document and the request's line, when they are those. */
function lensArgs(uri?: unknown, line?: unknown): [vscode.Uri | undefined, number | undefined] {
  return [uri instanceof vscode.Uri ? uri : undefined, typeof line === 'number' ? line : undefined];
}

/** Registers a command whose failure is logged and shown, never thrown into VS Code. */
function commandRegistrar(context: vscode.ExtensionContext, output: vscode.LogOutputChannel) {
  return (id: string, run: (...args: never[]) => unknown) =>
    context.subscriptions.push(
      vscode.commands.registerCommand(id, async (...args: never[]) => {
        try {
          await run(...args);
        } catch (e) {
          output.error(`${id}: ${(e as Error).stack ?? String(e)}`);
          void vscode.window.showErrorMessage(`lpreq: ${(e as Error).message}`);
        }
      }),
    );
}

/** What the in-editor tests read (test mode only). */
function testApi(
  responseView: ResponseView,
  panels: ResponsePanels,
  historyStore: () => HistoryStore | undefined,
): LpreqTestApi {
  return {
    response: () => {
      const tree = responseView.current;
      if (!tree) return undefined;
      const labels: string[] = [];
      const walk = (nodes: ResponseNode[], depth: number) => {
        for (const n of nodes) {
          labels.push(`${n.label} ${n.description ?? ''}`.trim());
          if (depth < 2 && n.collapsible !== 'none' && n.kind === 'value') walk(tree.children(n), depth + 1);
        }
      };
      walk(tree.roots(), 0);
      return { summary: tree.summary(), labels };
    },
    responseView: () => {
      const v = panels.current;
      return v ? { title: v.title, status: v.status.text, facts: v.facts, bodyLabel: v.bodyLabel } : undefined;
    },
    historyDir: () => historyStore()?.dir,
    comparison: () => {
      const c = panels.currentCompare;
      return c ? { title: c.title, summary: c.summary, rows: c.rows.map((r) => `${r.kind} ${r.path}`) } : undefined;
    },
  };
}

export async function deactivate(): Promise<void> {
  if (client) await client.stop();
  client = undefined;
}
