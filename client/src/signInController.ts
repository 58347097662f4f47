/**
 * OAuth 2.0 sign-in in the editor (docs/oauth2.md): an environment whose `Security.Auth` has a
 * configuration of its own sends that sign-in's token, as a pasted token is sent. The tokens
 * (access, refresh, ID) live in the editor's secret storage, under a key made of base_url's
 * origin, the token endpoint, the client, the grant and the scope; they are refreshed before
 * they expire and after a 401, and a refused refresh token signs in again (the browser opens).
 * The status bar shows who is signed in and until when; Sign In and Sign Out. The sign-in
 * itself is the sender's (oauth2/tokens.ts), and which token a send gets is the send session's
 * (session.ts, as for every host): this host gives it the secret storage and the browser
 * (tokensWith, signingIn), and keeps, opens and shows.
 */
import * as vscode from 'vscode';
import { own } from '../../server/src/core/index';
import type { OAuthConfig, OAuthTokens, SignInStatus } from '../../server/src/sender/index';
import type { EnvironmentController } from './environmentController';
import { signInStatusBar } from './model/signIn';

type SenderModule = typeof import('../../server/src/sender/index');
type EnvironmentAuth = InstanceType<SenderModule['EnvironmentAuth']>;

export class SignInController implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem('lpreq.signIn', vscode.StatusBarAlignment.Left, 49);
  private readonly disposables: vscode.Disposable[] = [];
  private tokens: OAuthTokens | undefined;
  private sender: SenderModule | undefined;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly output: vscode.LogOutputChannel,
    private readonly environments: EnvironmentController,
    private readonly proxy: () => string | undefined,
  ) {
    this.item.name = 'lpreq sign-in';
    this.item.command = 'lpreq.signIn';
    this.disposables.push(
      this.item,
      environments.onDidChange(() => this.refresh()),
      context.secrets.onDidChange((e) => {
        if (e.key.startsWith('lpreq.oauth2.')) this.refresh();
      }),
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
    );
    // "until 14:05" turns to "expired" without an event: redrawn each half minute while shown.
    this.timer = setInterval(() => this.refresh(), 30_000);
    setTimeout(() => this.refresh(), 0);
  }

  private async load(): Promise<{ sender: SenderModule; tokens: OAuthTokens }> {
    this.sender ??= await import('../../server/src/sender/index');
    return { sender: this.sender, tokens: this.tokensWith(this.sender) };
  }

  /** The editor's sign-ins (secret storage, the browser through the editor): the send session's `signIns`. */
  tokensWith(sender: SenderModule): OAuthTokens {
    this.sender ??= sender;
    const proxy = this.proxy;
    this.tokens ??= new sender.OAuthTokens({
      store: this.context.secrets,
      openBrowser: async (url) => {
        const opened = await vscode.env.openExternal(vscode.Uri.parse(url, true));
        if (!opened) {
          void vscode.window
            .showInformationMessage('lpreq: open the sign-in address in a browser.', 'Copy Address')
            .then((choice) => (choice ? vscode.env.clipboard.writeText(url) : undefined));
        }
        return opened;
      },
      tell: (message) => this.output.info(message),
      interactive: true,
      signInAgain: true,
      get requests() {
        const given = proxy();
        return { env: process.env, ...(given ? { proxy: given } : {}) };
      },
    });
    return this.tokens;
  }

  /** The sign-ins of the chosen environment of a file's environment files; undefined when it has no Security.Auth. */
  private async environmentAuth(fileUri?: vscode.Uri): Promise<EnvironmentAuth | undefined> {
    const envs = this.environments.environments(fileUri);
    // Read before the sender is loaded: an environment without Security.Auth loads nothing.
    if (envs.selected === undefined || Object.keys(own(envs.options, envs.selected)?.auth ?? {}).length === 0)
      return undefined;
    const { sender, tokens } = await this.load();
    const tls = sender.environmentTls(envs);
    return new sender.EnvironmentAuth(tokens, envs, { processEnv: process.env }, 'tls' in tls ? { tls: tls.tls } : {});
  }

  /**
   * A sign-in the send session starts for a send (signing in, or refreshing, first: the browser
   * may open), shown in the window's progress and cancellable there; a failure is logged (the
   * send tells it, as the session's setup error), and the status bar redrawn.
   */
  async signingIn<T>(id: string, run: (signal: AbortSignal | undefined) => Promise<T>): Promise<T> {
    try {
      return await this.withProgress(id, run);
    } catch (e) {
      this.output.warn(`sign-in ${id}: ${e instanceof Error ? e.message : String(e)}`);
      throw e;
    } finally {
      this.refresh();
    }
  }

  /** Signs in with the chosen environment's configuration; when signed in already, asks whether to sign in again or out. */
  async signIn(): Promise<void> {
    const found = await this.ownConfig();
    if (found === undefined) return;
    const { config, tokens } = found;
    const status = await tokens.status(config);
    if (status.signedIn) {
      const again = 'Sign In Again';
      const out = 'Sign Out';
      const choice = await vscode.window.showInformationMessage(
        `lpreq: ${signInStatusBar({ id: config.id, environment: config.environment, origin: config.origin, status, now: Date.now() }).tooltip}`,
        again,
        out,
      );
      if (choice === out) return this.signOut();
      if (choice !== again) return;
    }
    try {
      const signIn = await this.withProgress(config.id, (signal) => tokens.signIn(config, { signal }));
      const view = signInStatusBar({
        id: config.id,
        environment: config.environment,
        origin: config.origin,
        status: {
          signedIn: true,
          ...(signIn.who !== undefined ? { who: signIn.who } : {}),
          ...(signIn.expiresAt !== undefined ? { expiresAt: signIn.expiresAt } : {}),
          expired: false,
          refreshable: signIn.refreshToken !== undefined,
        },
        now: Date.now(),
      });
      this.output.info(`signed in with Security.Auth.${config.id} of '${config.environment}' (${config.origin})`);
      void vscode.window.showInformationMessage(`lpreq: ${view.tooltip.replace(/ Click to .*$/, '')}`);
    } catch (e) {
      this.failed(config.id, e);
    } finally {
      this.refresh();
    }
  }

  /** Forgets the chosen environment's sign-in (its tokens leave the secret storage). */
  async signOut(): Promise<void> {
    const found = await this.ownConfig();
    if (found === undefined) return;
    const { config, tokens } = found;
    const had = await tokens.signOut(config);
    this.output.info(`signed out of Security.Auth.${config.id} of '${config.environment}'`);
    void vscode.window.showInformationMessage(
      had
        ? `lpreq: signed out of ${config.origin} (Security.Auth.${config.id}); its tokens are forgotten.`
        : `lpreq: not signed in with Security.Auth.${config.id}.`,
    );
    this.refresh();
  }

  /** The chosen environment's own configuration, resolved; undefined (and the user told why) when there is none to sign in with. */
  private async ownConfig(): Promise<{ config: OAuthConfig; tokens: OAuthTokens } | undefined> {
    const auth = await this.environmentAuth();
    const env = this.environments.selected;
    if (auth === undefined || auth.ownId === undefined) {
      void vscode.window.showInformationMessage(
        env === undefined
          ? 'lpreq: choose an environment first: a sign-in belongs to an environment (Security.Auth in http-client.env.json).'
          : `lpreq: the environment '${env}' has no Security.Auth configuration of its own to sign in with (docs/oauth2.md).`,
      );
      return undefined;
    }
    try {
      return { config: auth.config(auth.ownId), tokens: auth.tokens };
    } catch (e) {
      void vscode.window.showErrorMessage(`lpreq: ${(e as Error).message}`);
      return undefined;
    }
  }

  private withProgress<T>(id: string, run: (signal: AbortSignal) => Promise<T>): Thenable<T> {
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Window, title: `lpreq: signing in (${id})`, cancellable: true },
      (_progress, cancel) => {
        const abort = new AbortController();
        const stop = cancel.onCancellationRequested(() => abort.abort());
        return run(abort.signal).finally(() => stop.dispose());
      },
    );
  }

  private failed(id: string, e: unknown): void {
    // The sender's messages hold no secret (tokenRequest.ts scrubs what a server says).
    const message = e instanceof Error ? e.message : String(e);
    this.output.warn(`sign-in ${id}: ${message}`);
    void vscode.window.showErrorMessage(`lpreq: signing in (${id}) failed: ${message}`);
  }

  /** Redraws the status bar entry: shown while an lpreq file is in front and its environment signs in. */
  refresh(): void {
    void this.draw().catch((e: unknown) => this.output.warn(`sign-in status: ${(e as Error).message}`));
  }

  private async draw(): Promise<void> {
    const doc = vscode.window.activeTextEditor?.document;
    const auth = doc?.languageId === 'lpreq' ? await this.environmentAuth(doc.uri) : undefined;
    const id = auth?.ownId;
    if (auth === undefined || id === undefined) {
      this.item.hide();
      return;
    }
    let config: OAuthConfig | undefined;
    let problem: string | undefined;
    try {
      config = auth.config(id);
    } catch (e) {
      problem = (e as Error).message;
    }
    const status: SignInStatus | undefined = config ? await auth.tokens.status(config) : undefined;
    const view = signInStatusBar({
      id,
      environment: auth.environments?.selected ?? '',
      ...(config ? { origin: config.origin } : {}),
      ...(problem !== undefined ? { problem } : {}),
      ...(status ? { status } : {}),
      now: Date.now(),
    });
    this.item.text = view.text;
    // The names come from the workspace's files: text, never Markdown.
    this.item.tooltip = view.tooltip;
    this.item.show();
  }

  dispose(): void {
    clearInterval(this.timer);
    for (const d of this.disposables) d.dispose();
  }
}
