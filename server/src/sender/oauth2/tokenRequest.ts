/**
 * Requests to the token endpoint (RFC 6749 sections 4.1.3, 4.4.2 and 6): the form lpreq builds
 * from the configuration alone, sent to the configured token URL and nowhere else (a redirect
 * is an error, not followed), through the proxy that applies, and the answer read within a
 * small limit, in memory only: a token is never written to a file.
 */
import { request, type Dispatcher } from 'undici';
import { Deadline, describeFailure, proxyAgent, proxyFor, timedAgent } from '../connection';
import { checkOutgoing } from '../outgoing';
import { scrubSecrets } from '../secrets';
import type { TlsFiles } from '../../node/index';
import { USER_AGENT } from '../prepare';
import type { OAuthConfig } from './config';
import { plainText } from './plainText';

/** Why a sign-in or a refresh did not give a token; the message never holds a secret. */
export class OAuthError extends Error {
  constructor(
    message: string,
    readonly kind:
      | 'refused'
      | 'revoked'
      | 'network'
      | 'invalid-response'
      | 'cancelled'
      | 'timeout'
      | 'state'
      | 'denied'
      | 'config'
      | 'interactive',
  ) {
    super(message);
  }
}

/** A token endpoint's answer, as RFC 6749 section 5.1 has it. */
export interface TokenAnswer {
  accessToken: string;
  refreshToken?: string;
  idToken?: string;
  /** Seconds, when the answer says. */
  expiresIn?: number;
  scope?: string;
  /** Who signed in, when the answer says it besides an ID token (an LMS's `user.name`). */
  userName?: string;
}

export interface TokenRequestOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  proxy?: string;
  env?: Record<string, string | undefined>;
  /** The environment's `$tls`: used when the token endpoint is on base_url's origin (where `$tls` applies). */
  tls?: TlsFiles;
  /** Secrets that may not go to the token endpoint (the tokens of other environments). */
  foreignSecrets?: readonly (string | undefined)[];
}

/** The largest answer read from a token endpoint: a token answer is a few kilobytes. */
const MAX_ANSWER_BYTES = 256 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;

/** Posts `form` to the configuration's token endpoint with the client's credentials, and reads the token answer. */
export async function requestToken(
  config: OAuthConfig,
  form: [string, string][],
  options: TokenRequestOptions = {},
): Promise<TokenAnswer> {
  const body = new URLSearchParams([...form, ...config.tokenParams]);
  const headers: Record<string, string> = {
    'content-type': 'application/x-www-form-urlencoded',
    accept: 'application/json',
    'user-agent': USER_AGENT,
  };
  if (config.clientAuth === 'basic' && config.clientSecret !== undefined) {
    // RFC 6749 section 2.3.1: each part form-encoded, then joined and Base64-encoded.
    const user = encodeURIComponent(config.clientId).replace(/%20/g, '+');
    const pass = encodeURIComponent(config.clientSecret).replace(/%20/g, '+');
    headers.authorization = `Basic ${Buffer.from(`${user}:${pass}`).toString('base64')}`;
  } else {
    body.set('client_id', config.clientId);
    if (config.clientAuth === 'body' && config.clientSecret !== undefined)
      body.set('client_secret', config.clientSecret);
  }
  const text = body.toString();
  const secrets = [config.clientSecret, ...form.map(([, v]) => v)].filter(
    (s): s is string => typeof s === 'string' && s.length >= 4,
  );
  const scrub = (s: string) => scrubSecrets(s, secrets);
  // The one check of what leaves: no token of another environment goes to the token endpoint.
  const check = checkOutgoing(
    { method: 'POST', url: config.tokenUrl, headers: Object.entries(headers), body: text },
    options.foreignSecrets ?? [],
  );
  if (check.refuse !== undefined || check.drop.size > 0)
    throw new OAuthError(
      `the token request to ${originOf(config.tokenUrl)} would carry a token of another environment: not sent`,
      'config',
    );

  const url = new URL(config.tokenUrl);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const deadline = new Deadline(timeoutMs, options.signal);
  const controller = deadline.controller;
  const proxy = proxyFor(url, options);
  const tls = url.origin === config.origin && url.protocol === 'https:' ? options.tls : undefined;
  const dispatcher: Dispatcher & { close(): Promise<void> } = proxy
    ? proxyAgent(proxy, timeoutMs, () => controller.abort(), tls)
    : timedAgent(timeoutMs, {}, tls);
  let status: number;
  let answer: string;
  try {
    const response = await request(url, {
      method: 'POST',
      headers,
      body: text,
      dispatcher,
      signal: controller.signal,
    });
    status = response.statusCode;
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) {
        controller.abort();
        throw new OAuthError(
          `the token endpoint ${url.origin} answered with more than ${MAX_ANSWER_BYTES / 1024} KiB: not a token answer`,
          'invalid-response',
        );
      }
      chunks.push(chunk);
    }
    answer = Buffer.concat(chunks).toString('utf8');
  } catch (e) {
    if (e instanceof OAuthError) throw e;
    const failure = describeFailure(
      e,
      config.tokenUrl,
      deadline.timedOut,
      deadline.cancelled,
      timeoutMs,
      timeoutMs,
      proxy,
    );
    throw new OAuthError(
      `the token request failed: ${scrub(failure.message)}`,
      failure.kind === 'cancelled' ? 'cancelled' : failure.kind === 'timeout' ? 'timeout' : 'network',
    );
  } finally {
    deadline.dispose();
    void dispatcher.close().catch(() => undefined);
  }
  return readAnswer(status, answer, url.origin, scrub);
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** A short, printable, scrubbed text of the server's (an error_description). */
function quote(value: unknown, scrub: (s: string) => string): string {
  return plainText(scrub(typeof value === 'string' ? value : ''), 200);
}

/** The token answer, or the error the endpoint gave (RFC 6749 section 5.2), in words. */
function readAnswer(status: number, text: string, origin: string, scrub: (s: string) => string): TokenAnswer {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  const body =
    json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as Record<string, unknown>) : {};
  if (status >= 300 && status < 400)
    throw new OAuthError(
      `the token endpoint ${origin} answered ${status}, a redirect, which lpreq does not follow with the client's secrets: give the endpoint's own address as "Token URL"`,
      'invalid-response',
    );
  if (status !== 200) {
    const error = typeof body.error === 'string' ? quote(body.error, scrub) : undefined;
    const description = quote(body.error_description, scrub);
    const said = error !== undefined ? `${error}${description ? `: ${description}` : ''}` : `HTTP ${status}`;
    // invalid_grant: the code or the refresh token is expired, used or revoked (RFC 6749 section 5.2).
    throw new OAuthError(
      `the token endpoint ${origin} refused: ${said}`,
      error === 'invalid_grant' ? 'revoked' : 'refused',
    );
  }
  const accessToken = body.access_token;
  if (typeof accessToken !== 'string' || accessToken.length === 0)
    throw new OAuthError(`the token endpoint ${origin} answered without an access_token`, 'invalid-response');
  const tokenType = body.token_type;
  if (typeof tokenType === 'string' && tokenType.toLowerCase() !== 'bearer')
    throw new OAuthError(
      `the token endpoint ${origin} gave a '${quote(tokenType, scrub)}' token; lpreq sends Bearer tokens`,
      'invalid-response',
    );
  const expires = typeof body.expires_in === 'string' ? Number(body.expires_in) : body.expires_in;
  const user = body.user !== null && typeof body.user === 'object' ? (body.user as Record<string, unknown>) : undefined;
  const answer: TokenAnswer = { accessToken };
  if (typeof body.refresh_token === 'string' && body.refresh_token.length > 0) answer.refreshToken = body.refresh_token;
  if (typeof body.id_token === 'string' && body.id_token.length > 0) answer.idToken = body.id_token;
  if (typeof expires === 'number' && Number.isFinite(expires) && expires > 0) answer.expiresIn = expires;
  if (typeof body.scope === 'string') answer.scope = body.scope;
  if (typeof user?.name === 'string' && user.name.length > 0) answer.userName = quote(user.name, scrub);
  return answer;
}
