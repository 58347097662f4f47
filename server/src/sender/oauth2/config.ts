/**
 * An environment's `Security.Auth` configuration read as a sign-in lpreq can run (pure): which
 * grant, where the token is asked for and where it goes, and every check that must hold before
 * a byte is sent. The token goes only to the origin of the environment's base_url; the token
 * request only to the configured token URL, over https (or plain http to this machine), and on
 * base_url's origin unless the user's own private file names that token URL; the client secret
 * comes from the private file or the process's environment, never from the shared file.
 */
import { createHash } from 'node:crypto';
import { own } from '../../core/index';
import type { AuthSettings, AuthValue } from '../../node/index';
import { isLoopback } from '../outgoing';
import { environmentOptions, environmentOrigin, type SendEnvironments } from '../prepare';
import { resolveText, type SystemContext } from '../variables';

export type GrantType = 'authorization_code' | 'client_credentials';

/** A sign-in lpreq can run, every value resolved and checked. */
export interface OAuthConfig {
  /** The configuration's name under `Security.Auth`. */
  id: string;
  environment: string;
  grant: GrantType;
  /** The origin of base_url: the only one the token goes to. */
  origin: string;
  tokenUrl: string;
  /** Where the browser signs in (authorization code). */
  authUrl?: string;
  /**
   * The loopback address the authorization's answer comes back to (`Redirect URL`); without
   * one, a free port of 127.0.0.1 at `/callback` (RFC 8252 lets a loopback redirect take any port).
   */
  redirect?: { url: string; hostname: string; port: number; path: string };
  clientId: string;
  clientSecret?: string;
  /** How the client proves itself at the token endpoint: Basic authentication, in the body, or not at all (a public client). */
  clientAuth: 'basic' | 'body' | 'none';
  scope?: string;
  /** PKCE with S256 (authorization code): on unless `"PKCE": false`. */
  pkce: boolean;
  /** Send the ID token instead of the access token (`"Use ID Token": true`). */
  useIdToken: boolean;
  /** `Custom Request Parameters`, for the authorization request and for the token requests. */
  authParams: [string, string][];
  tokenParams: [string, string][];
  /** What identifies a sign-in: another origin, token endpoint, client, grant or scope is another sign-in. */
  key: string;
}

/** The environment's auth configurations by id (`Security.Auth`), if any. */
export function authSettingsOf(environments: SendEnvironments | undefined): Record<string, AuthSettings> | undefined {
  return environmentOptions(environments)?.auth;
}

/**
 * The configuration whose token is the environment's token, added to every request as a pasted
 * one is: its only OAuth2 configuration. With several, none is (a request names the one it
 * uses with `{{$auth.token("id")}}`), so that which one goes does not depend on a file's order.
 */
export function environmentAuthId(environments: SendEnvironments | undefined): string | undefined {
  const ids = Object.entries(authSettingsOf(environments) ?? {})
    .filter(([, s]) => String(own(s, 'Type')?.value ?? '').toLowerCase() === 'oauth2')
    .map(([id]) => id);
  return ids.length === 1 ? ids[0] : undefined;
}

/**
 * Every client secret the environment files write as it is in the private file, of every
 * environment: they go to their token endpoints alone, never with a request.
 */
export function clientSecretsOf(environments: SendEnvironments | undefined): string[] {
  const out: string[] = [];
  for (const options of Object.values(environments?.options ?? {}))
    for (const settings of Object.values(options.auth ?? {})) {
      const secret = own(settings, 'Client Secret');
      if (secret?.private === true && typeof secret.value === 'string' && !/^\s*\{\{[^{}]+\}\}\s*$/.test(secret.value))
        out.push(secret.value.trim());
    }
  return out.filter((s) => s.length > 0);
}

/** The names a custom parameter may not take: the flow's own. */
const RESERVED = new Set([
  'grant_type',
  'code',
  'code_verifier',
  'code_challenge',
  'code_challenge_method',
  'redirect_uri',
  'state',
  'client_id',
  'client_secret',
  'refresh_token',
  'response_type',
  'scope',
]);

const GRANTS = new Map<string, GrantType>([
  ['authorization code', 'authorization_code'],
  ['client credentials', 'client_credentials'],
]);

/**
 * The sign-in of configuration `id` of the chosen environment, or why lpreq cannot run it (in
 * words that say what to change). `system` resolves `{{$processEnv NAME}}` in the settings.
 */
export function resolveAuthConfig(
  environments: SendEnvironments | undefined,
  id: string,
  system: SystemContext = {},
): { config: OAuthConfig } | { problem: string } {
  const environment = environments?.selected;
  const where = `Security.Auth.${id}`;
  if (environment === undefined)
    return { problem: `no environment is chosen, so there is no ${where} to sign in with` };
  const settings = own(authSettingsOf(environments), id);
  if (settings === undefined)
    return {
      problem: `the environment '${environment}' has no auth configuration '${id}' (Security.Auth in http-client.env.json)`,
    };
  const problem = (text: string) => ({ problem: `${where} of '${environment}': ${text}` });
  const origin = environmentOrigin(environments);
  if (origin === undefined)
    return problem(
      'the environment has no http(s) base_url, and the token goes only to the origin of base_url: add one',
    );
  const variables = own(environments?.environments, environment) ?? {};
  const privateNames = own(environments?.privateNames, environment);
  const errors: string[] = [];
  const text = (name: string): string | undefined => {
    const v = own(settings, name);
    if (v === undefined || typeof v.value !== 'string') return undefined;
    const resolved = resolveText(v.value, { values: new Map(Object.entries(variables)), system });
    errors.push(...resolved.errors.map((e) => `${name}: ${e}`));
    const value = resolved.text.trim();
    return value === '' ? undefined : value;
  };

  const type = text('Type');
  if (type === undefined || type.toLowerCase() !== 'oauth2')
    return problem(`"Type" is ${type === undefined ? 'missing' : `'${type}'`}: lpreq signs in with "Type": "OAuth2"`);
  const grantName = text('Grant Type');
  const grant = grantName === undefined ? undefined : GRANTS.get(grantName.toLowerCase());
  if (grant === undefined)
    return problem(
      grantName === undefined
        ? '"Grant Type" is missing: "Authorization Code" or "Client Credentials"'
        : `lpreq signs in with "Authorization Code" (with PKCE) or "Client Credentials", not '${grantName}'${/password|implicit/i.test(grantName) ? ', which OAuth 2.1 drops for its risks' : ''}`,
    );

  const tokenUrl = text('Token URL');
  if (tokenUrl === undefined) return problem('"Token URL" is missing: where lpreq asks for the token');
  const tokenCheck = endpoint(tokenUrl, '"Token URL"');
  if ('problem' in tokenCheck) return problem(tokenCheck.problem);
  // A token endpoint elsewhere gets the client secret, the code and the refresh token: only when the user's own file says so.
  if (tokenCheck.url.origin !== origin && own(settings, 'Token URL')?.private !== true)
    return problem(
      `the token endpoint ${tokenCheck.url.origin} is not the origin of base_url (${origin}), and the client's secrets would go there: if it is right, write the same "Token URL" under ${where} of '${environment}' in http-client.private.env.json (your own file, which no one else's change can write)`,
    );

  let authUrl: string | undefined;
  let redirect: OAuthConfig['redirect'];
  if (grant === 'authorization_code') {
    authUrl = text('Auth URL');
    if (authUrl === undefined) return problem('"Auth URL" is missing: where the browser signs in');
    const authCheck = endpoint(authUrl, '"Auth URL"');
    if ('problem' in authCheck) return problem(authCheck.problem);
    const redirectUrl = text('Redirect URL');
    if (redirectUrl !== undefined) {
      const read = loopbackRedirect(redirectUrl);
      if ('problem' in read) return problem(read.problem);
      redirect = read.redirect;
    }
  }

  const clientId = text('Client ID');
  if (clientId === undefined) return problem('"Client ID" is missing: the id of the developer key');
  const secret = clientSecret(settings, variables, privateNames, system, where, environment);
  if ('problem' in secret) return { problem: secret.problem };
  const credentials = text('Client Credentials')?.toLowerCase();
  if (credentials !== undefined && !['basic', 'in body', 'none'].includes(credentials))
    return problem(`"Client Credentials" is '${credentials}': "basic", "in body" or "none"`);
  const clientAuth: OAuthConfig['clientAuth'] =
    secret.value === undefined || credentials === 'none' ? 'none' : credentials === 'in body' ? 'body' : 'basic';
  if (grant === 'client_credentials' && clientAuth === 'none')
    return problem(
      `"Client Credentials" needs the client secret: write "Client Secret" under ${where} of '${environment}' in http-client.private.env.json, or "{{$processEnv NAME}}" to read it from the process's environment`,
    );

  const pkceValue = own(settings, 'PKCE')?.value;
  if (
    pkceValue !== null &&
    typeof pkceValue === 'object' &&
    /^plain$/i.test(String(own(pkceValue, 'Code Challenge Method') ?? ''))
  )
    return problem(
      'PKCE "Code Challenge Method" is "Plain": lpreq uses SHA-256 (S256), as RFC 7636 asks of every client that can',
    );

  let scope = text('Scope');
  // Without a Scope, the scopes the environment's token is limited to (`$scopes`) are the ones asked for.
  const scopes = environmentOptions(environments)?.scopes?.list;
  if (scope === undefined && scopes !== undefined && scopes.length > 0) scope = scopes.join(' ');

  const params = customParameters(own(settings, 'Custom Request Parameters')?.value);
  if ('problem' in params) return problem(params.problem);
  if (errors.length > 0) return problem(errors[0]);

  const key = createHash('sha256')
    .update(JSON.stringify([origin, tokenCheck.url.href, clientId, id, grant, scope ?? '']))
    .digest('hex')
    .slice(0, 32);
  return {
    config: {
      id,
      environment,
      grant,
      origin,
      tokenUrl: tokenCheck.url.href,
      ...(authUrl !== undefined ? { authUrl } : {}),
      ...(redirect ? { redirect } : {}),
      clientId,
      ...(secret.value !== undefined ? { clientSecret: secret.value } : {}),
      clientAuth,
      ...(scope !== undefined ? { scope } : {}),
      pkce: grant === 'authorization_code' && pkceValue !== false,
      useIdToken: own(settings, 'Use ID Token')?.value === true,
      authParams: params.auth,
      tokenParams: params.token,
      key,
    },
  };
}

/** An endpoint lpreq sends to: https, or plain http to this machine (tests, a local instance); no credentials or fragment. */
function endpoint(text: string, what: string): { url: URL } | { problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: `${what} '${text}' is not a URL` };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname)))
    return {
      problem: `${what} ${url.origin} is not https: the sign-in's secrets would cross the network in the clear (plain http is for this machine only)`,
    };
  if (url.username !== '' || url.password !== '') return { problem: `${what} holds a user name or password` };
  if (url.hash !== '') return { problem: `${what} has a fragment (#...)` };
  return { url };
}

/** A `Redirect URL` lpreq can listen on: plain http on this machine, with its port and path. */
function loopbackRedirect(text: string): { redirect: NonNullable<OAuthConfig['redirect']> } | { problem: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { problem: `"Redirect URL" '${text}' is not a URL` };
  }
  if (url.protocol !== 'http:' || !isLoopback(url.hostname))
    return {
      problem: `"Redirect URL" ${text} is not on this machine: lpreq waits for the browser's answer on a loopback address, such as http://127.0.0.1:8765/callback (register that one with the authorization server)`,
    };
  if (url.search !== '' || url.hash !== '' || url.username !== '' || url.password !== '')
    return { problem: `"Redirect URL" ${text} has a query, a fragment or credentials: an address and a path only` };
  return {
    redirect: {
      url: text,
      hostname: url.hostname,
      port: url.port === '' ? 80 : Number(url.port),
      path: url.pathname,
    },
  };
}

/**
 * The client secret, from where a secret may come: the private file (as written, or a
 * reference), or a reference in the shared file to a private variable or a process (or `.env`)
 * variable. A secret the shared file writes is never used.
 */
function clientSecret(
  settings: AuthSettings,
  variables: Record<string, string>,
  privateNames: Set<string> | undefined,
  system: SystemContext,
  where: string,
  environment: string,
): { value?: string } | { problem: string } {
  const setting: AuthValue | undefined = own(settings, 'Client Secret');
  if (setting === undefined || typeof setting.value !== 'string') return {};
  if (setting.sharedSecret)
    return {
      problem: `the "Client Secret" of ${where} of '${environment}' is written in http-client.env.json, which the repository shares: lpreq does not use it (client-secret-in-shared-file). Move it to http-client.private.env.json under the same key, or write "{{$processEnv NAME}}" there to read it from the process's environment`,
    };
  if (setting.value.trim() === '') return {};
  if (!setting.private) {
    // A reference in the shared file: to a value of the private file, or of the process.
    const expression = /^\s*\{\{\s*([^{}]+?)\s*\}\}\s*$/.exec(setting.value)?.[1] ?? '';
    const fromProcess = /^\$(processEnv\s|env\.|dotenv\s)/.test(expression);
    if (!fromProcess && privateNames?.has(expression) !== true)
      return {
        problem: `the "Client Secret" of ${where} of '${environment}' is {{${expression}}}, which http-client.private.env.json does not define: a secret comes from the private file or the process's environment ({{$processEnv NAME}}), never from the shared file`,
      };
  }
  const resolved = resolveText(setting.value, { values: new Map(Object.entries(variables)), system });
  if (resolved.errors.length > 0)
    return { problem: `${where} of '${environment}': Client Secret: ${resolved.errors[0]}` };
  const value = resolved.text.trim();
  return value === '' ? {} : { value };
}

/** JetBrains' `Custom Request Parameters`: a value, a list, or `{ "Value": ..., "Use": "Everywhere" | "In Auth Request" | "In Token Request" }`. */
function customParameters(
  value: AuthValue['value'] | undefined,
): { auth: [string, string][]; token: [string, string][] } | { problem: string } {
  const auth: [string, string][] = [];
  const token: [string, string][] = [];
  if (value === undefined || typeof value !== 'object') return { auth, token };
  for (const [name, given] of Object.entries(value)) {
    if (RESERVED.has(name.toLowerCase()))
      return { problem: `"Custom Request Parameters": ${name} is the sign-in's own parameter, which lpreq sets` };
    let values: unknown = given;
    let use = 'everywhere';
    if (given !== null && typeof given === 'object' && !Array.isArray(given)) {
      values = own(given as Record<string, unknown>, 'Value');
      use = String(own(given as Record<string, unknown>, 'Use') ?? 'Everywhere').toLowerCase();
      if (!['everywhere', 'in auth request', 'in token request'].includes(use))
        return {
          problem: `"Custom Request Parameters": ${name}: "Use" is "Everywhere", "In Auth Request" or "In Token Request"`,
        };
    }
    const list = Array.isArray(values) ? values : [values];
    if (list.length === 0 || !list.every((v) => typeof v === 'string' || typeof v === 'number'))
      return { problem: `"Custom Request Parameters": ${name}: expected a text value or a list of them` };
    for (const v of list) {
      if (use !== 'in token request') auth.push([name, String(v)]);
      if (use !== 'in auth request') token.push([name, String(v)]);
    }
  }
  return { auth, token };
}
