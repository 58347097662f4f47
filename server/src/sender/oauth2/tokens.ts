/**
 * The tokens of OAuth 2.0 sign-ins, for every host: one `OAuthTokens` a process (the command
 * line's, whose store is its memory: a sign-in once per process) or a workspace's editor (whose
 * store is the editor's secret storage). It signs in by the configured grant (the authorization
 * code with PKCE in the browser, or the client's credentials), refreshes a token before it
 * expires and once a server refused it (401), and signs in again when the refresh token was
 * revoked, or says so, as the host wants. A sign-in is kept under a key made of base_url's
 * origin, the token endpoint, the client, the grant and the scope: the token it holds goes only
 * to that origin, and a repository that names another server gets another sign-in.
 */
import { own } from '../../core/index';
import { OAuthError, requestToken, type TokenAnswer, type TokenRequestOptions } from './tokenRequest';
import type { OAuthConfig } from './config';
import { waitForRedirect } from './loopback';
import { plainText } from './plainText';
import { challengeOf, randomToken } from './pkce';

/** A sign-in as a store keeps it (JSON); never written to a file by lpreq. */
export interface SignIn {
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  /** When the access token expires (ms since 1970), when the answer or the token says. */
  expiresAt?: number;
  obtainedAt: number;
  /** Who signed in, when the answer or the ID token says. */
  who?: string;
  scope?: string;
  /** The origin the token goes to: base_url's when it was obtained. */
  origin: string;
  environment: string;
  id: string;
}

/** Where sign-ins are kept: the editor's SecretStorage has these three methods. */
export interface SignInStore {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

/** A store in memory: the command line's, so a sign-in lasts as long as its process. */
export class MemoryStore implements SignInStore {
  private readonly values = new Map<string, string>();
  get(key: string): Promise<string | undefined> {
    return Promise.resolve(this.values.get(key));
  }
  store(key: string, value: string): Promise<void> {
    this.values.set(key, value);
    return Promise.resolve();
  }
  delete(key: string): Promise<void> {
    this.values.delete(key);
    return Promise.resolve();
  }
}

/** What only a host can give: where sign-ins are kept, how the browser is opened, how the user is told. */
export interface OAuthHost {
  store: SignInStore;
  /** Opens the authorization page in the user's browser; false when it could not (the URL is told too). */
  openBrowser(url: string): Promise<boolean>;
  /** Tells the user what happens (the URL to open by hand on a machine without a browser). */
  tell(message: string): void;
  /**
   * A browser sign-in may start (false: a run with no one to sign in, as CI: an authorization
   * code sign-in is refused with a message that says what to do instead).
   */
  interactive: boolean;
  /** Asked before the browser is opened; false stops the sign-in. Without it, no question. */
  confirmSignIn?: (config: OAuthConfig, authorizationUrl: string) => Promise<boolean>;
  /** When the refresh token is refused: sign in again (the editor), or stop with an error that says so (the command line). */
  signInAgain: boolean;
  /** How long the browser's sign-in may take; 5 minutes by default. */
  waitMs?: number;
  now?: () => number;
  /** Proxy, timeout and the process's environment for the token requests. */
  requests?: Pick<TokenRequestOptions, 'proxy' | 'env' | 'timeoutMs'>;
}

/** What the status bar shows of a sign-in. */
export type SignInStatus =
  { signedIn: false } | { signedIn: true; who?: string; expiresAt?: number; expired: boolean; refreshable: boolean };

export interface TokenOptions {
  signal?: AbortSignal;
  tls?: TokenRequestOptions['tls'];
  foreignSecrets?: TokenRequestOptions['foreignSecrets'];
}

const DEFAULT_WAIT_MS = 5 * 60_000;
const KEY_PREFIX = 'lpreq.oauth2.';

export class OAuthTokens {
  /** A sign-in or refresh under way, by key: a second send waits for it instead of starting another. */
  private readonly pending = new Map<string, Promise<SignIn>>();
  /** The access and ID tokens seen in this process, with the origin each goes to. */
  private readonly api = new Map<string, string>();
  /** Refresh tokens, client secrets and codes seen in this process: they go to the token endpoint alone. */
  private readonly never = new Set<string>();

  constructor(readonly host: OAuthHost) {}

  private now(): number {
    return this.host.now?.() ?? Date.now();
  }

  /** The sign-in kept for a configuration, if any (and only for its origin). */
  async current(config: OAuthConfig): Promise<SignIn | undefined> {
    const text = await this.host.store.get(KEY_PREFIX + config.key);
    const kept = text === undefined ? undefined : readSignIn(text);
    if (kept === undefined || kept.origin !== config.origin) return undefined;
    this.remember(kept, config);
    return kept;
  }

  async status(config: OAuthConfig): Promise<SignInStatus> {
    const kept = await this.current(config);
    if (!kept) return { signedIn: false };
    return {
      signedIn: true,
      ...(kept.who !== undefined ? { who: kept.who } : {}),
      ...(kept.expiresAt !== undefined ? { expiresAt: kept.expiresAt } : {}),
      expired: kept.expiresAt !== undefined && kept.expiresAt <= this.now(),
      refreshable: kept.refreshToken !== undefined || config.grant === 'client_credentials',
    };
  }

  /**
   * The token to send for a configuration: the kept one while it is good, refreshed when it
   * is about to expire, or a new sign-in. Throws an OAuthError that says why there is none.
   */
  async token(config: OAuthConfig, options: TokenOptions = {}): Promise<string> {
    const signIn = await this.once(config, async () => {
      const kept = await this.current(config);
      if (kept && !this.due(kept)) return kept;
      if (kept?.refreshToken !== undefined) return this.refreshOrSignIn(config, kept, options);
      // No refresh token: the kept token serves until it expires.
      if (kept && (kept.expiresAt === undefined || kept.expiresAt > this.now())) return kept;
      return this.signInNow(config, options);
    });
    return this.tokenOf(config, signIn);
  }

  /**
   * After a server refused `refused` (401): a new token, unless another send renewed it already
   * (then that one); undefined when there is none to try (the caller keeps the 401).
   */
  async renew(config: OAuthConfig, refused: string, options: TokenOptions = {}): Promise<string | undefined> {
    const signIn = await this.once(config, async () => {
      const kept = await this.current(config);
      if (kept && this.tokenOf(config, kept) !== refused) return kept;
      if (kept?.refreshToken !== undefined) return this.refreshOrSignIn(config, kept, options);
      if (config.grant === 'client_credentials' || this.host.signInAgain) return this.signInNow(config, options);
      throw new OAuthError(
        `the server refused the token of ${config.id}, and the sign-in gave no refresh token: sign in again`,
        'revoked',
      );
    });
    const token = this.tokenOf(config, signIn);
    return token === refused ? undefined : token;
  }

  /** Signs in anew (the editor's Sign In), whatever is kept. */
  async signIn(config: OAuthConfig, options: TokenOptions = {}): Promise<SignIn> {
    return this.once(config, () => this.signInNow(config, options), true);
  }

  /** Forgets the sign-in of a configuration; true when there was one. */
  async signOut(config: OAuthConfig): Promise<boolean> {
    const had = (await this.host.store.get(KEY_PREFIX + config.key)) !== undefined;
    await this.host.store.delete(KEY_PREFIX + config.key);
    return had;
  }

  /** Every token and client secret this process has seen or kept: to keep out of output, history and copies. */
  secrets(): string[] {
    return [...this.api.keys(), ...this.never];
  }

  /** The access and ID tokens this process has seen for `origin`: they go there, as the token does. */
  apiTokens(origin: string | undefined): string[] {
    return [...this.api].filter(([, o]) => o === origin).map(([t]) => t);
  }

  private remember(signIn: SignIn, config: OAuthConfig): void {
    for (const s of [signIn.accessToken, signIn.idToken])
      if (s !== undefined && s.length > 0) this.api.set(s, signIn.origin);
    for (const s of [signIn.refreshToken, config.clientSecret]) if (s !== undefined && s.length > 0) this.never.add(s);
  }

  private tokenOf(config: OAuthConfig, signIn: SignIn): string {
    if (!config.useIdToken) return signIn.accessToken;
    if (signIn.idToken === undefined)
      throw new OAuthError(
        `${config.id} says "Use ID Token", and the sign-in gave no ID token (ask for the openid scope)`,
        'invalid-response',
      );
    return signIn.idToken;
  }

  /** Whether a token is to be refreshed now: it expires within a minute, or within a quarter of its lifetime when that is shorter. */
  private due(signIn: SignIn): boolean {
    if (signIn.expiresAt === undefined) return false;
    const margin = Math.min(60_000, Math.max(0, (signIn.expiresAt - signIn.obtainedAt) / 4));
    return signIn.expiresAt - this.now() <= margin;
  }

  private once(config: OAuthConfig, run: () => Promise<SignIn>, fresh = false): Promise<SignIn> {
    const running = this.pending.get(config.key);
    if (running && !fresh) return running;
    const started = run().finally(() => {
      if (this.pending.get(config.key) === started) this.pending.delete(config.key);
    });
    this.pending.set(config.key, started);
    return started;
  }

  private async refreshOrSignIn(config: OAuthConfig, kept: SignIn, options: TokenOptions): Promise<SignIn> {
    try {
      const answer = await requestToken(
        config,
        [
          ['grant_type', 'refresh_token'],
          ['refresh_token', kept.refreshToken ?? ''],
        ],
        this.requestOptions(options),
      );
      return await this.keep(config, answer, kept);
    } catch (e) {
      if (!(e instanceof OAuthError) || e.kind !== 'revoked') throw e;
      // The refresh token is expired or revoked: it is of no use any more.
      await this.host.store.delete(KEY_PREFIX + config.key);
      if (config.grant === 'client_credentials' || this.host.signInAgain) return this.signInNow(config, options);
      throw new OAuthError(
        `${e.message}: the refresh token of ${config.id} is expired or revoked; sign in again (run the command again to sign in in the browser)`,
        'revoked',
      );
    }
  }

  private requestOptions(options: TokenOptions): TokenRequestOptions {
    return { ...this.host.requests, signal: options.signal, tls: options.tls, foreignSecrets: options.foreignSecrets };
  }

  private async signInNow(config: OAuthConfig, options: TokenOptions): Promise<SignIn> {
    if (config.grant === 'client_credentials') {
      const form: [string, string][] = [['grant_type', 'client_credentials']];
      if (config.scope !== undefined) form.push(['scope', config.scope]);
      return this.keep(config, await requestToken(config, form, this.requestOptions(options)));
    }
    return this.keep(config, await this.authorizationCode(config, options));
  }

  /** The authorization code grant with PKCE (RFC 6749 section 4.1, RFC 7636): the browser signs in, the answer comes back to a loopback address. */
  private async authorizationCode(config: OAuthConfig, options: TokenOptions): Promise<TokenAnswer> {
    if (!this.host.interactive)
      throw new OAuthError(
        `${config.id} signs in in a browser ("Authorization Code"), and no one is here to do it (CI): set LPREQ_TOKEN, or use a "Client Credentials" configuration`,
        'interactive',
      );
    if (config.authUrl === undefined) throw new OAuthError(`${config.id} has no "Auth URL"`, 'config');
    const state = randomToken();
    const verifier = randomToken();
    const wait = await waitForRedirect({
      redirect: config.redirect,
      state,
      timeoutMs: this.host.waitMs ?? DEFAULT_WAIT_MS,
      signal: options.signal,
    });
    try {
      const url = new URL(config.authUrl);
      const params: [string, string][] = [
        ['response_type', 'code'],
        ['client_id', config.clientId],
        ['redirect_uri', wait.redirectUri],
        ['state', state],
      ];
      if (config.scope !== undefined) params.push(['scope', config.scope]);
      if (config.pkce) params.push(['code_challenge', challengeOf(verifier)], ['code_challenge_method', 'S256']);
      for (const [k, v] of [...params, ...config.authParams]) url.searchParams.append(k, v);
      const authorizationUrl = url.href;
      if (this.host.confirmSignIn && !(await this.host.confirmSignIn(config, authorizationUrl)))
        throw new OAuthError('the sign-in was not confirmed', 'cancelled');
      const opened = await this.host.openBrowser(authorizationUrl).catch(() => false);
      this.host.tell(
        `${opened ? 'Sign in in the browser' : 'Open this address in a browser to sign in'} (${config.id}, for ${config.origin}); lpreq waits for the answer on ${wait.redirectUri}:\n${authorizationUrl}`,
      );
      const code = await wait.code;
      this.never.add(code);
      const form: [string, string][] = [
        ['grant_type', 'authorization_code'],
        ['code', code],
        ['redirect_uri', wait.redirectUri],
      ];
      if (config.pkce) form.push(['code_verifier', verifier]);
      return await requestToken(config, form, this.requestOptions(options));
    } finally {
      wait.close();
    }
  }

  /** Keeps what a token answer gave (a refresh without a new refresh token keeps the old one: RFC 6749 section 6). */
  private async keep(config: OAuthConfig, answer: TokenAnswer, before?: SignIn): Promise<SignIn> {
    const now = this.now();
    const claims = jwtClaims(answer.idToken);
    const accessClaims = jwtClaims(answer.accessToken);
    const expiresAt =
      answer.expiresIn !== undefined
        ? now + answer.expiresIn * 1000
        : typeof accessClaims?.exp === 'number'
          ? accessClaims.exp * 1000
          : undefined;
    const who = answer.userName ?? nameIn(claims) ?? before?.who;
    const signIn: SignIn = {
      accessToken: answer.accessToken,
      obtainedAt: now,
      origin: config.origin,
      environment: config.environment,
      id: config.id,
      ...(answer.refreshToken !== undefined
        ? { refreshToken: answer.refreshToken }
        : before?.refreshToken !== undefined
          ? { refreshToken: before.refreshToken }
          : {}),
      ...(answer.idToken !== undefined
        ? { idToken: answer.idToken }
        : before?.idToken !== undefined && config.useIdToken
          ? { idToken: before.idToken }
          : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {}),
      ...(who !== undefined ? { who } : {}),
      ...(answer.scope !== undefined ? { scope: answer.scope } : {}),
    };
    this.remember(signIn, config);
    await this.host.store.store(KEY_PREFIX + config.key, JSON.stringify(signIn));
    return signIn;
  }
}

/** A kept sign-in read back, or undefined when the text is not one. */
function readSignIn(text: string): SignIn | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const v = value as Record<string, unknown>;
  const str = (x: unknown) => (typeof x === 'string' && x.length > 0 ? x : undefined);
  const accessToken = str(v.accessToken);
  const origin = str(v.origin);
  if (accessToken === undefined || origin === undefined || typeof v.obtainedAt !== 'number') return undefined;
  return {
    accessToken,
    origin,
    obtainedAt: v.obtainedAt,
    environment: str(v.environment) ?? '',
    id: str(v.id) ?? '',
    ...(str(v.refreshToken) !== undefined ? { refreshToken: str(v.refreshToken) } : {}),
    ...(str(v.idToken) !== undefined ? { idToken: str(v.idToken) } : {}),
    ...(typeof v.expiresAt === 'number' ? { expiresAt: v.expiresAt } : {}),
    ...(str(v.who) !== undefined ? { who: str(v.who) } : {}),
    ...(str(v.scope) !== undefined ? { scope: str(v.scope) } : {}),
  };
}

/** The claims of a JWT, read without checking its signature: only to show who signed in and until when. */
function jwtClaims(token: string | undefined): Record<string, unknown> | undefined {
  const part = token?.split('.')[1];
  if (part === undefined || token?.split('.').length !== 3) return undefined;
  try {
    const value = JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as unknown;
    return value !== null && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The name an ID token gives, for people: its name, user name, email or subject, printable and short. */
function nameIn(claims: Record<string, unknown> | undefined): string | undefined {
  for (const key of ['name', 'preferred_username', 'email', 'sub']) {
    const value = claims === undefined ? undefined : own(claims, key);
    if (typeof value === 'string' && value.trim().length > 0) return plainText(value, 80);
  }
  return undefined;
}
