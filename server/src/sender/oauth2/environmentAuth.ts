/**
 * The OAuth 2.0 sign-ins of one environment for the sends of a setup: the environment's own
 * token (its only `Security.Auth` configuration, added to every request as a pasted token is),
 * the values of `{{$auth.token("id")}}` and `{{$auth.idToken("id")}}` readied before a request
 * is prepared, a new token after a 401, and which of their secrets go where: access and ID
 * tokens only to base_url's origin (as the token), refresh tokens, client secrets and codes
 * nowhere but the token endpoint. The tokens come from the host's `OAuthTokens`.
 */
import { environmentOrigin, type SendEnvironments } from '../prepare';
import type { SystemContext } from '../variables';
import { authSettingsOf, clientSecretsOf, environmentAuthId, resolveAuthConfig, type OAuthConfig } from './config';
import { OAuthError } from './tokenRequest';
import type { OAuthTokens, SignIn, TokenOptions } from './tokens';

/** A `{{$auth.token("id")}}` or `{{$auth.idToken("id")}}` of a request. */
export interface AuthReference {
  kind: 'token' | 'idToken';
  id: string;
}

const REFERENCE = /\{\{\s*\$auth\.(token|idToken)\(\s*(?:"([^"]*)"|'([^']*)')\s*\)\s*\}\}/g;

/** The `$auth` references in texts (a request block, the variables it may read). */
export function authReferences(texts: Iterable<string>): AuthReference[] {
  const out: AuthReference[] = [];
  for (const text of texts) {
    if (!text.includes('$auth.')) continue;
    for (const m of text.matchAll(REFERENCE)) {
      const ref = { kind: m[1] as AuthReference['kind'], id: m[2] ?? m[3] ?? '' };
      if (!out.some((r) => r.kind === ref.kind && r.id === ref.id)) out.push(ref);
    }
  }
  return out;
}

/** What the send flow asks of an environment's sign-ins (send.ts). */
export interface SendAuth {
  /** Readies the values of these references; an error message when one cannot be had. */
  ready(references: readonly AuthReference[], signal?: AbortSignal): Promise<string | undefined>;
  /** A referenced value, readied before (`SystemContext.auth`). */
  value(kind: AuthReference['kind'], id: string): { value: string } | { error: string };
  /**
   * A server refused these tokens (401): new ones, when the sign-ins can give them. `token` is
   * the environment's token now; `renewed` whether anything changed (then the request is sent once more).
   */
  renew(
    refused: readonly string[],
    signal?: AbortSignal,
  ): Promise<{ token?: string; renewed: boolean; error?: string }>;
  /** The access and ID tokens for this environment's origin: they go where the token goes. */
  secrets(): string[];
  /** Refresh tokens, client secrets and every other origin's tokens: they go nowhere from here. */
  foreignSecrets(): string[];
  /** References asked for in the pure step before they were readied (in a body file): ready them, and prepare again. */
  takeMissing(): AuthReference[];
}

export class EnvironmentAuth implements SendAuth {
  /** The ids of the configurations whose tokens were handed out, with the sign-in they came from. */
  private readonly handed = new Map<string, SignIn>();
  /** References asked for before they were readied (takeMissing). */
  private missing: AuthReference[] = [];
  /** The configurations resolved, by id. */
  private readonly configs = new Map<string, OAuthConfig | OAuthError>();

  constructor(
    readonly tokens: OAuthTokens,
    readonly environments: SendEnvironments | undefined,
    readonly system: SystemContext,
    readonly options: Omit<TokenOptions, 'signal'> = {},
  ) {}

  /** The id of the environment's own configuration, whose token every request gets (none with several). */
  get ownId(): string | undefined {
    return environmentAuthId(this.environments);
  }

  /** A configuration of the environment, resolved, or an OAuthError saying why it cannot be signed in with. */
  config(id: string): OAuthConfig {
    let config = this.configs.get(id);
    if (config === undefined) {
      const read = resolveAuthConfig(this.environments, id, this.system);
      config = 'problem' in read ? new OAuthError(read.problem, 'config') : read.config;
      this.configs.set(id, config);
    }
    if (config instanceof OAuthError) throw config;
    return config;
  }

  takeMissing(): AuthReference[] {
    const missing = this.missing;
    this.missing = [];
    return missing;
  }

  /** The environment's own token (signing in when needed), or undefined when it has no configuration of its own. */
  async environmentToken(signal?: AbortSignal): Promise<string | undefined> {
    const id = this.ownId;
    if (id === undefined) return undefined;
    return this.tokenOf(id, 'token', signal);
  }

  private async tokenOf(id: string, kind: AuthReference['kind'], signal?: AbortSignal): Promise<string> {
    const config = this.config(id);
    const token = await this.tokens.token(config, { ...this.options, signal });
    const signIn = await this.tokens.current(config);
    if (signIn) this.handed.set(id, signIn);
    if (kind === 'token') return token;
    if (signIn?.idToken === undefined)
      throw new OAuthError(`the sign-in of ${id} gave no ID token (ask for the openid scope)`, 'invalid-response');
    return signIn.idToken;
  }

  async ready(references: readonly AuthReference[], signal?: AbortSignal): Promise<string | undefined> {
    for (const ref of references) {
      try {
        await this.tokenOf(ref.id, ref.kind, signal);
      } catch (e) {
        return `{{$auth.${ref.kind}("${ref.id}")}}: ${e instanceof Error ? e.message : String(e)}`;
      }
    }
    return undefined;
  }

  value(kind: AuthReference['kind'], id: string): { value: string } | { error: string } {
    const signIn = this.handed.get(id);
    if (signIn === undefined) {
      // A reference the scan before the pure step did not see (in a body file): readied, and the request prepared again.
      if (!this.missing.some((r) => r.kind === kind && r.id === id)) this.missing.push({ kind, id });
      return { error: `{{$auth.${kind}("${id}")}}: the environment has no sign-in '${id}' (Security.Auth)` };
    }
    let config: OAuthConfig;
    try {
      config = this.config(id);
    } catch (e) {
      return { error: (e as Error).message };
    }
    const value = kind === 'idToken' ? signIn.idToken : config.useIdToken ? signIn.idToken : signIn.accessToken;
    return value === undefined
      ? { error: `{{$auth.${kind}("${id}")}}: the sign-in of ${id} gave no ID token (ask for the openid scope)` }
      : { value };
  }

  async renew(
    refused: readonly string[],
    signal?: AbortSignal,
  ): Promise<{ token?: string; renewed: boolean; error?: string }> {
    let renewed = false;
    let error: string | undefined;
    for (const [id, signIn] of [...this.handed]) {
      const config = this.config(id);
      const sent = [signIn.accessToken, signIn.idToken].find((t) => t !== undefined && refused.includes(t));
      if (sent === undefined) continue;
      try {
        const fresh = await this.tokens.renew(config, sent, { ...this.options, signal });
        if (fresh !== undefined) {
          renewed = true;
          const now = await this.tokens.current(config);
          if (now) this.handed.set(id, now);
        }
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
    }
    const own = this.ownId;
    const token = own !== undefined ? this.handed.get(own) : undefined;
    const value = token === undefined ? undefined : this.value('token', own as string);
    return {
      ...(value !== undefined && 'value' in value ? { token: value.value } : {}),
      renewed,
      ...(error !== undefined ? { error } : {}),
    };
  }

  secrets(): string[] {
    return this.tokens.apiTokens(environmentOrigin(this.environments));
  }

  foreignSecrets(): string[] {
    const mine = new Set(this.secrets());
    // The client secrets of the files go to their token endpoints alone, whether a sign-in used them yet or not.
    const clients = clientSecretsOf(this.environments);
    for (const id of Object.keys(authSettingsOf(this.environments) ?? {})) {
      try {
        const secret = this.config(id).clientSecret;
        if (secret !== undefined) clients.push(secret);
      } catch {
        // A configuration that cannot be signed in with has no secret to keep.
      }
    }
    return [...new Set([...this.tokens.secrets(), ...clients])].filter((s) => !mine.has(s) && s.length >= 4);
  }
}
