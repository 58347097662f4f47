/**
 * The environment of each request file as the send session's rule answers it (the choice
 * remembered for the project in `.lpreq/environment.json`, which `lpreq send` and the language
 * server read too; else the only environment; else `local`; else none chosen), shown in the
 * status bar and chosen with the picker; and the access token of each environment, kept in SecretStorage and nowhere else, bound to the origins it
 * was set for or confirmed for: SecretStorage is shared by every workspace, and a cloned
 * repository can call any server by any environment's name. Which token goes to which origin
 * is the sender's decision (tokenOrigin.ts); this host keeps the tokens, shows the origin and
 * asks.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { decideEnvironment, describeAnswer, hasOwn, own, type EnvironmentAnswer } from '../../server/src/core/index';
import {
  EnvironmentFileError,
  loadEnvironmentFiles,
  readRememberedEnvironment,
  type EnvironmentFiles,
} from '../../server/src/node/index';
import type { BoundToken, SendEnvironments, SendSession, TokenDecision } from '../../server/src/sender/index';
import {
  environmentChoices,
  isProtected,
  legacyTokenKey,
  statusBarText,
  tokenKey,
  tokenTooltip,
  withoutMetaKeys,
} from './model/environments';

/** The rule's answer for a project, and the folder it is kept for. */
export type ProjectAnswer = EnvironmentAnswer & { projectFolder: string };

type SenderModule = typeof import('../../server/src/sender/index');
let sender: Promise<SenderModule> | undefined;
/** The sender, loaded when a token is first read (not at activation); sendSupport's load() gets the same module. */
function senderModule(): Promise<SenderModule> {
  sender ??= import('../../server/src/sender/index');
  return sender;
}

/** What a send is given: the token when it may go to base_url's origin, and the kept one, to keep out of output either way. */
export interface TokenForSend {
  token: string | undefined;
  kept: string | undefined;
}

export class EnvironmentController implements vscode.Disposable {
  private readonly statusBar = vscode.window.createStatusBarItem(
    'lpreq.environment',
    vscode.StatusBarAlignment.Left,
    50,
  );
  private readonly changed = new vscode.EventEmitter<string | undefined>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private files: EnvironmentFiles | undefined;
  private filesDir: string | undefined;
  private tokenState: { decision: TokenDecision; boundTo: string[]; signIn?: string } = {
    decision: { kind: 'none' },
    boundTo: [],
  };
  /** The rule's answer by the folder of a request file, until the files or a project's choice change. */
  private readonly answers = new Map<string, ProjectAnswer>();
  /** The send session, once the sender is loaded: its choices of this window are the ones read. */
  private session: SendSession | undefined;
  /** Where the language server learns that a project's choice changed (no name: read it again from `.lpreq`). */
  notifyServer: (name: string | null | undefined) => void = () => undefined;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly output: vscode.LogOutputChannel,
    private readonly protectedSetting: () => string[],
  ) {
    this.statusBar.name = 'lpreq environment';
    this.statusBar.command = 'lpreq.selectEnvironment';
    const watcher = vscode.workspace.createFileSystemWatcher('**/http-client*.env.json');
    // A project's choice made by another host (`lpreq env`, Neovim's :LpreqEnv) shows here too.
    const chosen = vscode.workspace.createFileSystemWatcher('**/.lpreq/environment.json');
    const reload = () => {
      this.files = undefined;
      this.forget();
    };
    const rechoose = () => {
      this.session?.forgetChoices();
      this.forget();
      this.notifyServer(undefined);
    };
    this.disposables.push(
      this.statusBar,
      this.changed,
      watcher,
      chosen,
      watcher.onDidChange(reload),
      watcher.onDidCreate(reload),
      watcher.onDidDelete(reload),
      chosen.onDidChange(rechoose),
      chosen.onDidCreate(rechoose),
      chosen.onDidDelete(rechoose),
      context.secrets.onDidChange(() => this.refresh()),
      vscode.window.onDidChangeActiveTextEditor((e) => {
        if (e?.document.languageId === 'lpreq') this.refresh();
        this.updateVisibility();
      }),
      // The response view is a webview: no text editor is active while it is, and the environment stays in view.
      vscode.window.tabGroups.onDidChangeTabs(() => this.updateVisibility()),
      vscode.window.tabGroups.onDidChangeTabGroups(() => this.updateVisibility()),
    );
    this.updateVisibility();
    // The first drawing reads the environment files: after activation, not during it.
    setTimeout(() => this.refresh(), 0);
  }

  /** The environment of the active request file's project (of the workspace's, without one): undefined when none is chosen. */
  get selected(): string | undefined {
    return this.selectedFor();
  }

  /** The environment of a request file's project, by the rule. */
  selectedFor(fileUri?: vscode.Uri): string | undefined {
    const answer = this.answerFor(fileUri);
    return answer.state === 'chosen' ? answer.name : undefined;
  }

  /** The send session's answer for a request file's project (the rule, over the choice kept in `.lpreq`). */
  answerFor(fileUri?: vscode.Uri): ProjectAnswer {
    const dir = this.dirFor(fileUri) ?? '';
    let answer = this.answers.get(dir);
    if (!answer) {
      const files = this.environmentFiles(fileUri);
      const projectFolder = files.shared || files.private ? path.dirname(files.shared ?? files.private ?? '') : dir;
      const remembered = this.session
        ? this.session.remembered(projectFolder)
        : readRememberedEnvironment(projectFolder);
      answer = { ...decideEnvironment(Object.keys(files.environments), { remembered }), projectFolder };
      this.answers.set(dir, answer);
    }
    return answer;
  }

  /** The session decides from now on: its choices of this window are read before `.lpreq`'s. */
  attach(session: SendSession): void {
    this.session = session;
    this.forget();
  }

  /** A project's choice was made (by the session: a pick when sending, the picker, a key binding). */
  chosen(projectFolder: string, choice: string | null, written: boolean): void {
    this.output.info(`environment of ${projectFolder}: ${choice ?? '(none)'}${written ? '' : ' (not kept on disk)'}`);
    this.forget();
    // The server reads the choice where it was kept; one that could not be written is told by name.
    this.notifyServer(written ? undefined : choice);
    this.changed.fire(choice ?? undefined);
  }

  /** The answers are made again (the files or a project's choice changed), and the status bar redrawn. */
  private forget(): void {
    this.answers.clear();
    this.refresh();
  }

  /** The environment files for a request file (or the workspace), read when needed. */
  environmentFiles(fileUri?: vscode.Uri): EnvironmentFiles {
    const dir = this.dirFor(fileUri);
    if (!this.files || this.filesDir !== dir) {
      this.filesDir = dir;
      try {
        this.files = dir ? loadEnvironmentFiles(dir, this.rootFor(fileUri)) : { environments: {}, privateNames: {} };
      } catch (e) {
        this.output.warn(
          e instanceof EnvironmentFileError ? (e as Error).message : `environment files: ${(e as Error).message}`,
        );
        this.files = { environments: {}, privateNames: {} };
      }
    }
    return this.files;
  }

  /** What the sender is given: the variables without `$` settings, and the chosen environment. */
  environments(fileUri?: vscode.Uri): SendEnvironments {
    const files = this.environmentFiles(fileUri);
    // With each environment's `$tls` and `$defaultHeaders`: the sender uses the chosen one's.
    return {
      environments: withoutMetaKeys(files.environments),
      selected: this.selectedFor(fileUri),
      options: files.options,
      // The private file's values are secrets, like the token.
      privateNames: files.privateNames,
    };
  }

  isProtected(fileUri?: vscode.Uri): boolean {
    const name = this.selectedFor(fileUri);
    return isProtected(
      name,
      name === undefined ? undefined : own(this.environmentFiles(fileUri).environments, name),
      this.protectedSetting(),
    );
  }

  /** The token kept for an environment, with its origins: under its key, else under the key of before tokens were bound (no origin). */
  private async kept(environment: string | undefined): Promise<BoundToken | undefined> {
    const [stored, legacy] = await Promise.all([
      this.context.secrets.get(tokenKey(environment)),
      this.context.secrets.get(legacyTokenKey(environment)),
    ]);
    if (stored === undefined && legacy === undefined) return undefined;
    return (await senderModule()).readStoredToken(stored, legacy);
  }

  private async keep(environment: string | undefined, token: BoundToken): Promise<void> {
    await this.context.secrets.store(tokenKey(environment), (await senderModule()).storedToken(token));
    // Moved under the new key: no token is left unbound.
    await this.context.secrets.delete(legacyTokenKey(environment));
  }

  /**
   * The token kept for the chosen environment, whatever origin it is bound to: to keep it out
   * of output and copies. Never to send: tokenForSend says whether it may go.
   */
  async keptToken(environment: string | undefined = this.selected): Promise<string | undefined> {
    return (await this.kept(environment))?.token;
  }

  /** The origin the chosen environment (of `fileUri`'s files) sends to: its base_url's, as the sender reads it. */
  private async origin(
    fileUri: vscode.Uri | undefined,
    environment = this.selectedFor(fileUri),
  ): Promise<string | undefined> {
    const envs = this.environments(fileUri);
    return (await senderModule()).environmentOrigin({ ...envs, selected: environment });
  }

  /**
   * The token for a send from `fileUri`: the chosen environment's, when it is bound to the
   * origin of the environment's base_url. Bound to others (or kept from before tokens were
   * bound), the user is asked once, in words that name both origins; confirmed, the origin is
   * kept with the token. Undefined when the user cancels: nothing is sent.
   */
  async tokenForSend(
    fileUri?: vscode.Uri,
    /** The environment and its base_url's origin, as the send session settled them; else the file's. */
    target?: { environment: string; origin: string | undefined },
  ): Promise<TokenForSend | undefined> {
    const environment = target ? target.environment : this.selectedFor(fileUri);
    // No environment: a token would go nowhere.
    if (environment === undefined) return { token: undefined, kept: undefined };
    const kept = await this.kept(environment);
    if (!kept) return { token: undefined, kept: undefined };
    const sender = await senderModule();
    const decision = sender.tokenFor(kept, target ? target.origin : await this.origin(fileUri, environment));
    if (decision.kind === 'send') return { token: decision.token, kept: kept.token };
    if (decision.kind !== 'confirm') return { token: undefined, kept: kept.token };
    const question = sender.confirmationOf(decision, environment);
    if (!(await confirmOrigin(question))) {
      this.output.info(
        `access token of ${environment ?? '(no environment)'}: ${decision.origin} not confirmed, nothing sent`,
      );
      return undefined;
    }
    await this.keep(environment, sender.confirmed(kept, decision.origin));
    this.output.info(`access token of ${environment ?? '(no environment)'}: ${decision.origin} confirmed`);
    this.refresh();
    return { token: kept.token, kept: kept.token };
  }

  /**
   * The tokens secret storage keeps for the other environments of these files: the sender
   * sends none of them anywhere, and keeps them out of history and copied commands.
   */
  async otherTokens(fileUri?: vscode.Uri, chosen: string | undefined = this.selectedFor(fileUri)): Promise<string[]> {
    const out: string[] = [];
    for (const name of Object.keys(this.environmentFiles(fileUri).environments)) {
      if (name === chosen) continue;
      const token = (await this.kept(name))?.token;
      if (token) out.push(token);
    }
    return out;
  }

  /** The picker: an environment for the project of a request file (of the active one), remembered for it. */
  async select(fileUri?: vscode.Uri): Promise<void> {
    this.files = undefined;
    const uri = fileUri ?? this.activeLpreqUri();
    const answer = this.answerFor(uri);
    const picked = await this.pick(answer.names, answer.projectFolder, uri);
    if (picked === undefined) return;
    await this.remember(answer.projectFolder, picked);
  }

  /**
   * Asks which environment (a name, null for none; undefined when the user closed the picker):
   * the picker, or when sending what the rule could not decide. The choice is not kept here:
   * the session keeps it.
   */
  async pick(
    _names: readonly string[],
    _projectFolder: string,
    fileUri?: vscode.Uri,
  ): Promise<string | null | undefined> {
    const uri = fileUri ?? this.activeLpreqUri();
    const files = this.environmentFiles(uri);
    const withToken = new Set<string>();
    for (const name of Object.keys(files.environments)) if (await this.kept(name)) withToken.add(name);
    const answer = this.answerFor(uri);
    const choices = environmentChoices(files.environments, {
      selected: answer.state === 'chosen' ? answer.name : undefined,
      protectedSetting: this.protectedSetting(),
      withToken,
      privateNames: files.privateNames,
    });
    const items: (vscode.QuickPickItem & { name?: string; edit?: true })[] = choices.map((c) => ({
      ...c,
      // "No environment" is marked only when it was chosen: not while none is chosen yet.
      label: c.picked && !(c.name === undefined && answer.state === 'ask') ? `${c.label} $(check)` : c.label,
    }));
    const where = files.shared ?? files.private;
    items.push(
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      { label: '$(edit) Edit environment files…', edit: true, description: editDescription(files) },
    );
    const picked = await vscode.window.showQuickPick(items, {
      title:
        answer.state === 'ask'
          ? `lpreq: Select Environment (${answer.names.join(', ')}: none is called local; the choice is kept for this project)`
          : 'lpreq: Select Environment',
      placeHolder: where
        ? `Environments of ${vscode.workspace.asRelativePath(where)}`
        : 'No http-client.env.json found beside the request file or above it',
      matchOnDescription: true,
    });
    if (!picked) return undefined;
    if (picked.edit) {
      await this.editFiles(files, uri);
      return undefined;
    }
    return picked.name ?? null;
  }

  /** Keeps a project's choice through the session (loaded for it when it is not yet). */
  private async remember(projectFolder: string, choice: string | null): Promise<void> {
    const session = await this.sessionLoader();
    session.remember(projectFolder, choice);
  }

  /** Loads the sender and makes the session (extension.ts sets it). */
  sessionLoader: () => Promise<SendSession> = () => Promise.reject(new Error('the send session is not ready'));

  /**
   * Opens the environment files: the shared one, and the private one beside it when it exists.
   * Without a shared file, a new one is created beside the request file (or in the workspace).
   */
  private async editFiles(files: EnvironmentFiles, fileUri: vscode.Uri | undefined): Promise<void> {
    const open = [files.shared, files.private].filter((f): f is string => f !== undefined);
    if (open.length === 0) {
      const dir = this.dirFor(fileUri);
      if (dir === undefined)
        return void vscode.window.showWarningMessage('lpreq: open a folder to keep environment files in it');
      const created = vscode.Uri.file(path.join(dir, 'http-client.env.json'));
      await vscode.workspace.fs.writeFile(created, new TextEncoder().encode(NEW_ENVIRONMENT_FILE));
      open.push(created.fsPath);
    }
    for (const [i, file] of open.entries()) {
      await vscode.window.showTextDocument(vscode.Uri.file(file), {
        preview: false,
        viewColumn: i === 0 ? vscode.ViewColumn.Active : vscode.ViewColumn.Beside,
      });
    }
  }

  /** Chooses an environment by name (a key binding's argument) for the active file's project; an unknown name is refused. */
  async choose(name: string): Promise<void> {
    this.files = undefined;
    if (!hasOwn(this.environmentFiles(this.activeLpreqUri()).environments, name)) {
      void vscode.window.showWarningMessage(`lpreq: there is no environment '${name}' in http-client.env.json.`);
      return;
    }
    await this.remember(this.answerFor(this.activeLpreqUri()).projectFolder, name);
  }

  /**
   * Sets the token of the chosen environment, or of `environment` (a response view's "Set
   * Access Token for 'local'"), bound to the origin of that environment's base_url, which the
   * prompt names.
   */
  async setToken(replace: boolean, environment?: string): Promise<void> {
    const uri = this.activeLpreqUri();
    const env =
      environment !== undefined && hasOwn(this.environmentFiles(uri).environments, environment)
        ? environment
        : this.selected;
    // A token is sent only to an environment's base_url: with none chosen there is nowhere it would go.
    if (env === undefined) {
      void vscode.window.showWarningMessage(
        'lpreq: no environment is chosen, so an access token would go nowhere: choose an environment first (lpreq: Select Environment).',
      );
      return;
    }
    const existing = await this.kept(env);
    const origin = await this.origin(uri, env);
    const where = env === undefined ? 'when no environment is chosen' : `for the environment '${env}'`;
    const value = await vscode.window.showInputBox({
      title: `lpreq: ${existing || replace ? 'Replace' : 'Set'} Access Token${env === undefined ? '' : ` for '${env}'`}${origin ? ` (${origin})` : ''}`,
      prompt: origin
        ? `The access token ${where}, bound to ${origin} (the origin of its base_url): kept in the editor's secret storage and sent only there. Another origin gets it only after you confirm it.`
        : `The access token ${where}. The environment has no base_url: the token is bound to no origin, and goes nowhere until you confirm one when you send.`,
      password: true,
      ignoreFocusOut: true,
      placeHolder: existing ? 'A token is set: type a new one to replace it' : 'Paste the access token',
      // A token shorter than 4 characters could not be told from other text, so lpreq could not keep it out of output (secrets.ts).
      validateInput: (v) =>
        v.trim().length === 0
          ? 'The token is empty'
          : /\s/.test(v.trim())
            ? 'A token has no spaces'
            : v.trim().length < 4
              ? 'A token has at least 4 characters'
              : undefined,
    });
    if (value === undefined) return;
    // A new token is bound anew: to this origin alone.
    await this.keep(env, { token: value.trim(), origins: origin ? [origin] : [] });
    const bound = origin ? `, bound to ${origin}` : ', bound to no origin (the environment has no base_url)';
    void vscode.window.showInformationMessage(`lpreq: access token ${existing ? 'replaced' : 'set'} ${where}${bound}.`);
    this.output.info(`access token ${existing ? 'replaced' : 'set'} ${where}${bound}`);
    this.refresh();
  }

  async clearToken(): Promise<void> {
    const env = this.selected;
    const where = env === undefined ? 'when no environment is chosen' : `of the environment '${env}'`;
    if (!(await this.kept(env))) {
      void vscode.window.showInformationMessage(`lpreq: no access token is set ${where}.`);
      return;
    }
    await this.context.secrets.delete(tokenKey(env));
    await this.context.secrets.delete(legacyTokenKey(env));
    void vscode.window.showInformationMessage(`lpreq: access token ${where} cleared.`);
    this.output.info(`access token cleared ${where}`);
    this.refresh();
  }

  /** Redraws the status bar (after a choice, a token change, an edited env file). */
  refresh(): void {
    const environment = this.selected;
    const uri = this.activeLpreqUri();
    void this.kept(environment)
      .then(async (kept) => {
        // The sender is loaded only when a token is kept.
        const sender = kept ? await senderModule() : undefined;
        // An environment that signs in (Security.Auth of its own) sends its sign-in's token: the pasted one is not asked about.
        const signIn = sender?.environmentAuthId(this.environments(uri));
        const decision: TokenDecision =
          kept && sender && signIn === undefined
            ? sender.tokenFor(kept, await this.origin(uri, environment))
            : { kind: 'none' };
        this.tokenState = { decision, boundTo: kept?.origins ?? [], ...(signIn !== undefined ? { signIn } : {}) };
        this.draw();
      })
      .catch((e: unknown) => this.output.warn(`access token: ${(e as Error).message}`));
    this.draw();
  }

  private draw(): void {
    const answer = this.answerFor(this.activeLpreqUri());
    const name = answer.state === 'chosen' ? answer.name : undefined;
    const prot = this.isProtected(this.activeLpreqUri());
    this.statusBar.text = statusBarText(name, prot, this.tokenState.decision.kind, answer.state === 'ask');
    const tip = new vscode.MarkdownString(undefined, true);
    // The names and origins come from the workspace's files: text, never Markdown.
    tip.appendMarkdown('**lpreq environment**: ');
    tip.appendText(`${describeAnswer(answer)}\n\n`);
    if (prot) tip.appendMarkdown('$(lock) Protected: POST, PUT, PATCH and DELETE ask for confirmation.\n\n');
    const { decision, boundTo, signIn } = this.tokenState;
    if (decision.kind === 'send') tip.appendMarkdown('$(key) ');
    if (decision.kind === 'confirm') tip.appendMarkdown('$(warning) ');
    tip.appendText(
      signIn !== undefined
        ? `Its token comes from its OAuth 2.0 sign-in (Security.Auth.${signIn}): the access token kept for it is not sent.\n\n`
        : `${tokenTooltip(decision, boundTo)}\n\n`,
    );
    tip.appendMarkdown('Click to choose another environment (Ctrl+Alt+E).');
    this.statusBar.tooltip = tip;
    this.statusBar.backgroundColor = prot ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
  }

  /**
   * Shown while an lpreq file or view is in front: a request file, the response view beside it,
   * or a side-bar view of lpreq (focusing a view leaves the request file the active editor).
   */
  private updateVisibility(): void {
    const editor = vscode.window.activeTextEditor;
    const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
    const responseView = input instanceof vscode.TabInputWebview && input.viewType.endsWith(RESPONSE_VIEW_TYPE);
    if (editor?.document.languageId === 'lpreq' || (editor === undefined && responseView)) this.statusBar.show();
    else this.statusBar.hide();
  }

  private activeLpreqUri(): vscode.Uri | undefined {
    const doc = vscode.window.activeTextEditor?.document;
    return doc?.languageId === 'lpreq' ? doc.uri : undefined;
  }

  private dirFor(fileUri?: vscode.Uri): string | undefined {
    const uri = fileUri ?? this.activeLpreqUri();
    if (uri?.scheme === 'file') return path.dirname(uri.fsPath);
    return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
  }

  private rootFor(fileUri?: vscode.Uri): string | undefined {
    const uri = fileUri ?? this.activeLpreqUri();
    const folder = uri ? vscode.workspace.getWorkspaceFolder(uri) : vscode.workspace.workspaceFolders?.[0];
    return folder?.uri.fsPath;
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
  }
}

/**
 * The question before the token goes to an origin it is not bound to: a modal whose first
 * button, the one Enter presses, is Cancel (as confirmProtected in sendSupport.ts); VS Code
 * adds a button for Escape, named Don't Send.
 */
async function confirmOrigin(question: { message: string; detail: string; confirm: string }): Promise<boolean> {
  const cancel: vscode.MessageItem = { title: 'Cancel' };
  const send: vscode.MessageItem = { title: question.confirm };
  const close: vscode.MessageItem = { title: "Don't Send", isCloseAffordance: true };
  const answer = await vscode.window.showWarningMessage(
    question.message,
    { modal: true, detail: question.detail },
    cancel,
    send,
    close,
  );
  return answer === send;
}

/** The view type of the response view (responsePanel.ts); a webview tab's view type ends with it. */
const RESPONSE_VIEW_TYPE = 'lpreq.response';

/** A first environment file: a local environment for the mock (`lpreq mock`); the token belongs in the editor's secret storage. */
const NEW_ENVIRONMENT_FILE = `{
  "local": {
    "base_url": "http://127.0.0.1:4010"
  }
}
`;

/** Which files "Edit environment files…" opens, or that it creates one. */
function editDescription(files: EnvironmentFiles): string {
  const names = [files.shared, files.private].filter((f): f is string => f !== undefined).map((f) => path.basename(f));
  return names.length > 0 ? names.join(', ') : 'create http-client.env.json';
}
