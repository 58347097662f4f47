/**
 * A real OAuth 2.0 authorization server for the tests (oauth2-mock-server) on 127.0.0.1, with
 * what the tests need besides: every token request recorded, the client's secret checked,
 * refresh tokens revoked on demand, a lifetime of the test's choosing; and a browser that
 * follows the authorization's redirects to lpreq's loopback address, as a person's would.
 */
import { OAuth2Server } from 'oauth2-mock-server';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface TokenRequestSeen {
  grant: string;
  body: Record<string, unknown>;
  authorization?: string;
}

export interface AuthServer {
  origin: string;
  tokenUrl: string;
  authUrl: string;
  /** Token requests, in order. */
  tokens: TokenRequestSeen[];
  /** Authorization requests (their query), in order. */
  authorizations: URLSearchParams[];
  /** Every answer given to token requests (tokens issued), to look for later. */
  issued: string[];
  /** Refresh tokens answered with invalid_grant. */
  revoked: Set<string>;
  /** `expires_in` of the next answers (default the server's 3600). */
  expiresIn?: number;
  /** A user the token answers name, as an LMS's do (`"user": {"name": ...}`). */
  userName?: string;
  /** Changes the redirect the authorization answers with (another port, another path). */
  redirectTo?: (url: URL) => void;
  close(): Promise<void>;
}

export const CLIENT_ID = 'lpreq-test-client';
export const CLIENT_SECRET = 'cs-7fd1c0ffee-secret-Q9';

export async function startAuthServer(): Promise<AuthServer> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  await server.start(0, '127.0.0.1');
  const origin = (server.issuer.url ?? '').replace(/\/$/, '');
  const state: AuthServer = {
    origin,
    tokenUrl: `${origin}/token`,
    authUrl: `${origin}/authorize`,
    tokens: [],
    authorizations: [],
    issued: [],
    revoked: new Set(),
    close: () => server.stop(),
  };
  // Two tokens issued in the same second would be the same JWT: each gets an id of its own.
  server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) => {
    token.payload.jti = randomUUID();
  });
  server.service.on('beforeAuthorizeRedirect', (redirect: { url: URL }, req: IncomingMessage) => {
    state.authorizations.push(new URL(req.url ?? '/', origin).searchParams);
    state.redirectTo?.(redirect.url);
  });
  server.service.on(
    'beforeResponse',
    (
      response: { statusCode: number; body: Record<string, unknown> | '' },
      req: IncomingMessage & { body: Record<string, unknown> },
    ) => {
      const grant = String(req.body.grant_type);
      const authorization = req.headers.authorization;
      state.tokens.push({ grant, body: { ...req.body }, ...(authorization ? { authorization } : {}) });
      const basic = authorization?.startsWith('Basic ')
        ? Buffer.from(authorization.slice(6), 'base64').toString('utf8')
        : undefined;
      const secret = basic !== undefined ? basic.slice(basic.indexOf(':') + 1) : req.body.client_secret;
      // A confidential client's secret is checked, as a real server does.
      if (grant === 'client_credentials' && secret !== CLIENT_SECRET) {
        response.statusCode = 401;
        response.body = { error: 'invalid_client', error_description: 'the client secret is wrong' };
        return;
      }
      if (grant === 'refresh_token' && state.revoked.has(String(req.body.refresh_token))) {
        response.statusCode = 400;
        response.body = { error: 'invalid_grant', error_description: 'the refresh token was revoked' };
        return;
      }
      if (typeof response.body === 'object') {
        if (state.expiresIn !== undefined) response.body.expires_in = state.expiresIn;
        if (state.userName !== undefined) response.body.user = { id: 1, name: state.userName };
        for (const k of ['access_token', 'refresh_token', 'id_token'])
          if (typeof response.body[k] === 'string') state.issued.push(response.body[k]);
      }
    },
  );
  return state;
}

/**
 * A browser: opens the URL and follows each redirect (the authorization server's to lpreq's
 * loopback address), as a person's browser does after signing in. `tamper` changes the
 * redirect before it is followed. The final status, or the error when nothing answered.
 */
export async function browse(
  url: string,
  tamper?: (redirect: URL) => void,
): Promise<{ status: number; url: string } | { error: string }> {
  let current = url;
  for (let hop = 0; hop < 5; hop++) {
    let response: Response;
    try {
      response = await fetch(current, { redirect: 'manual' });
    } catch (e) {
      return { error: String((e as Error).cause ?? e) };
    }
    const location = response.headers.get('location');
    await response.arrayBuffer();
    if (response.status < 300 || response.status >= 400 || location === null)
      return { status: response.status, url: current };
    const next = new URL(location, current);
    if (hop === 0) tamper?.(next);
    current = next.href;
  }
  return { error: 'too many redirects' };
}

/** An environment folder: http-client.env.json and, when given, the private file. */
export function writeEnvironments(dir: string, shared: unknown, priv?: unknown): void {
  writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify(shared, null, 2));
  if (priv !== undefined) writeFileSync(join(dir, 'http-client.private.env.json'), JSON.stringify(priv, null, 2));
}
