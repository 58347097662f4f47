/**
 * The exchange: one prepared request sent through undici, and everything that can happen
 * turned into a plain result object. Nothing here throws.
 *
 * Redirects are followed here, not by undici, so that the token goes with a hop only when
 * the hop's origin is the origin of the environment's base_url.
 */
import { createWriteStream } from 'node:fs';
import { lstat, mkdir, mkdtemp, readdir, stat, unlink } from 'node:fs/promises';
import { STATUS_CODES } from 'node:http';
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Agent, Client, ProxyAgent, buildConnector, request, type Dispatcher } from 'undici';
import type { PreparedRequest } from './prepare';
import { exactIntegers, type ExactNumbers } from './exactNumbers';
import { carriesSecret, SecretScrubber, withoutSecretStart } from './secrets';
import { own, setOwn } from '../core/own';

export type FailureKind =
  | 'refused'
  | 'reset'
  | 'timeout'
  | 'cancelled'
  | 'tls'
  | 'dns'
  | 'invalid-url'
  | 'too-many-redirects'
  /** The method, the URL or the body carries the token (or a secret) and is bound for an origin it may not go to: not sent. */
  | 'secret-elsewhere'
  /** `--all-pages`: a later page failed (or was not fetched), so the merged list is not whole. */
  | 'incomplete'
  | 'network'
  | 'http';

export interface ExchangeError {
  kind: FailureKind;
  message: string;
}

export interface Timing {
  /** Name lookup, when a lookup took place (not for IP addresses or through a proxy). */
  dnsMs?: number;
  /** TCP (and TLS) connection, lookup included. */
  connectMs?: number;
  /** From the start until the status line and headers of the last hop arrived. */
  firstByteMs?: number;
  totalMs: number;
}

export interface ExchangeResult {
  /** True for a 2xx status whose body could be read. */
  ok: boolean;
  /** Null when no response arrived. */
  status: number | null;
  statusText: string;
  /** Response headers, lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** Parsed JSON when the body is JSON; the text otherwise; null when empty or binary. */
  body: unknown;
  /** The body as text (for a truncated body, its first part). */
  bodyText: string;
  bodyKind: 'json' | 'text' | 'binary' | 'empty';
  contentType?: string;
  bytes: number;
  durationMs: number;
  timing: Timing;
  /**
   * The body stopped before its end (a timeout, a reset, a cancellation): `bytes` arrived, and
   * `bodyText` holds them, unparsed.
   */
  bodyIncomplete?: boolean;
  /** Integers of a JSON body beyond 2^53, as written, by JSON path: `body` holds them rounded. */
  exactNumbers?: ExactNumbers;
  /** The body was larger than the limit: all of it is in `file`. */
  truncated?: { file: string; bytes: number; limit: number };
  /** The URL that answered (after redirects). */
  url: string;
  redirects: { status: number; from: string; to: string; tokenSent: boolean }[];
  /** Whether the token went with the request that answered. */
  tokenSent: boolean;
  /**
   * The request's own `Authorization` header went with the request that answered; the token
   * was then not added (a header written in the file says what this request authenticates with).
   */
  authorizationWritten?: boolean;
  error?: ExchangeError;
  warnings: string[];
}

export interface ExchangeOptions {
  /** The access token; sent only to `prepared.tokenOrigin`. */
  token?: string;
  /** Whole exchange, redirects and body included. Default 30 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** A proxy URL; without it HTTPS_PROXY / HTTP_PROXY (and NO_PROXY) of `env` apply. */
  proxy?: string;
  /** Where proxy settings are read; default process.env. */
  env?: Record<string, string | undefined>;
  /** Default 5. */
  maxRedirects?: number;
  /** Bodies above this are written to a file and reported as truncated. Default 10 MiB. */
  maxBodyBytes?: number;
  /** Folder for truncated bodies; default the system's temporary folder. */
  spillDir?: string;
  /**
   * Secrets that go where the token goes, and nowhere else (`{{token}}`, a secret prompt's
   * answer, the selected environment's secret variables): a header that carries one is left
   * out anywhere else, and a method, URL or body that carries one is not sent there.
   */
  secrets?: (string | undefined)[];
  /**
   * Secrets that go nowhere from here (the tokens of the other environments): a request that
   * carries one is not sent to any origin, and a header that carries one is left out.
   */
  foreignSecrets?: (string | undefined)[];
}

export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_REDIRECTS = 5;
export const DEFAULT_MAX_BODY_BYTES = 10 * 1024 * 1024;

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopback(hostname: string): boolean {
  return LOOPBACK.has(hostname.toLowerCase());
}

/** A body's text as sent: a body file's own bytes when it has them. */
function bodyText(body: NonNullable<PreparedRequest['body']>): string {
  return body.bytes ? Buffer.from(body.bytes.buffer, body.bytes.byteOffset, body.bytes.byteLength).toString('utf8') : body.text;
}

/** The response fields of an exchange that got no response (yet): a fresh object each time. */
export function noResponse(): Pick<ExchangeResult, 'status' | 'statusText' | 'headers' | 'body' | 'bodyText' | 'bodyKind' | 'bytes' | 'durationMs'> {
  return { status: null, statusText: '', headers: {}, body: null, bodyText: '', bodyKind: 'empty', bytes: 0, durationMs: 0 };
}

/** A header that names the server a request is for: undici takes the TLS server name and the certificate check from it. */
function namesServer(name: string): boolean {
  const lower = name.toLowerCase();
  return lower === 'host' || lower === ':authority';
}

/**
 * The origin a request to `url` with `headers` is connected to and authenticated as: the
 * URL's, unless a Host (or `:authority`) header names another host. undici takes the TLS server
 * name and the certificate check from that header, and a virtual host answers by it, so such
 * a request goes to the server the header names: undefined, an origin no token is bound to.
 */
export function hopOrigin(url: URL, headers: readonly (readonly [string, string])[]): string | undefined {
  for (const [name, value] of headers) {
    if (!namesServer(name)) continue;
    let named: URL;
    try {
      named = new URL(`${url.protocol}//${value.trim()}`);
    } catch {
      return undefined;
    }
    if (named.origin !== url.origin || named.href !== `${url.origin}/`) return undefined;
  }
  return url.origin;
}

/** Whether a request to `url` (with `headers`) may carry the token: the origin it is connected to and authenticated as is the token's origin. */
export function tokenAllowed(url: string, tokenOrigin: string | undefined, headers: readonly (readonly [string, string])[] = []): boolean {
  if (!tokenOrigin) return false;
  try {
    return hopOrigin(new URL(url), headers) === tokenOrigin;
  } catch {
    return false;
  }
}

/** A part of a hop that carries a secret it may not: the whole hop stops (`refuse`), or the headers at `drop` are left out. */
export interface SecretCheck {
  refuse?: 'method' | 'URL' | 'body';
  drop: Set<number>;
}

/**
 * The one check of what leaves the machine: every part of one hop (the method, the URL, each
 * header's name and value, the body) read for the secrets in `notHere`, in every way they
 * are written (secrets.ts). A header that carries one is left out (the request still makes
 * sense without it); any other part stops the hop before a byte is sent.
 */
export function checkOutgoing(
  hop: { method: string; url: string; headers: readonly (readonly [string, string])[]; body?: string },
  notHere: readonly (string | undefined)[],
): SecretCheck {
  const drop = new Set<number>();
  if (carriesSecret(hop.method, notHere)) return { refuse: 'method', drop };
  if (carriesSecret(hop.url, notHere)) return { refuse: 'URL', drop };
  if (hop.body !== undefined && carriesSecret(hop.body, notHere)) return { refuse: 'body', drop };
  hop.headers.forEach(([name, value], i) => {
    if (carriesSecret(name, notHere) || carriesSecret(value, notHere)) drop.add(i);
  });
  return { drop };
}

/** The proxy that applies to `url`, from the option or the environment. */
export function proxyFor(url: URL, options: Pick<ExchangeOptions, 'proxy' | 'env'>): string | undefined {
  if (options.proxy) return options.proxy;
  const env = options.env ?? process.env;
  // Requests to this machine never go through a proxy from the environment.
  if (isLoopback(url.hostname)) return undefined;
  const noProxy = (env.NO_PROXY ?? env.no_proxy ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const host = url.hostname.toLowerCase();
  if (noProxy.some((n) => n === '*' || host === n.replace(/^\./, '') || host.endsWith(n.startsWith('.') ? n : `.${n}`))) return undefined;
  const value = url.protocol === 'https:' ? (env.HTTPS_PROXY ?? env.https_proxy) : (env.HTTP_PROXY ?? env.http_proxy);
  return value && value.length > 0 ? value : undefined;
}

interface HopTiming {
  dnsMs?: number;
  connectMs?: number;
}

/** An agent for one hop, measuring name lookup and connection. */
function timedAgent(timeoutMs: number, timing: HopTiming): Agent {
  const lookup = (hostname: string, opts: object, callback: (...args: unknown[]) => void) => {
    const t = performance.now();
    dnsLookup(hostname, opts as { all?: boolean }, (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => {
      timing.dnsMs = performance.now() - t;
      callback(err, address, family);
    });
  };
  const base = buildConnector({ timeout: timeoutMs, lookup } as unknown as buildConnector.BuildOptions);
  const connect: buildConnector.connector = (opts, callback) => {
    const t = performance.now();
    base(opts, (err, socket) => {
      timing.connectMs = performance.now() - t;
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      (callback as any)(err, socket);
    });
  };
  return new Agent({ connect, keepAliveTimeout: 1000 });
}

/**
 * An agent through `proxy`. undici connects to a proxy again and again when it closes the
 * connection before answering: `onProxyClosed` is told at the first such close instead.
 */
function proxyAgent(proxy: string, connectTimeoutMs: number, onProxyClosed: () => void): ProxyAgent {
  return new ProxyAgent({
    uri: proxy,
    proxyTls: { timeout: connectTimeoutMs },
    clientFactory: (origin, opts) => {
      const connect = (opts as { connect: buildConnector.connector }).connect;
      const watched: buildConnector.connector = (connectOpts, callback) =>
        connect(connectOpts, (err, socket) => {
          socket?.once('close', () => {
            if (socket.bytesRead === 0) onProxyClosed();
          });
          // eslint-disable-next-line @typescript-eslint/no-explicit-any
          (callback as any)(err, socket);
        });
      return new Client(origin, { ...opts, connect: watched });
    },
  });
}

function errorCode(e: unknown): string {
  const seen = new Set<unknown>();
  let cur: unknown = e;
  while (cur && typeof cur === 'object' && !seen.has(cur)) {
    seen.add(cur);
    const err = cur as { code?: unknown; errors?: unknown[]; cause?: unknown };
    if (typeof err.code === 'string' && err.code !== 'UND_ERR') return err.code;
    if (Array.isArray(err.errors) && err.errors.length > 0) cur = err.errors[0];
    else cur = err.cause;
  }
  return '';
}

/** `proxy`: the proxy the request went through, when no answer came back through it. */
function describeFailure(e: unknown, url: string, timedOut: boolean, cancelled: boolean, timeoutMs: number, connectTimeoutMs: number, proxy?: string): ExchangeError {
  const hostOf = (u: string) => {
    try {
      return new URL(u).host;
    } catch {
      return u;
    }
  };
  const target = hostOf(url);
  if (timedOut) return { kind: 'timeout', message: `no complete answer from ${target}${proxy ? ` through the proxy ${hostOf(proxy)}` : ''} within ${timeoutMs} ms` };
  if (cancelled) return { kind: 'cancelled', message: 'the request was cancelled' };
  // Before any answer, a connection that fails is the proxy's: it is the only peer lpreq talks to.
  const host = proxy ? `the proxy ${hostOf(proxy)}` : target;
  const code = errorCode(e);
  const detail = (e as Error)?.message || String(e);
  if (code === 'ECONNREFUSED') return { kind: 'refused', message: `${host} refused the connection (is the server running?)` };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') {
    return { kind: 'reset', message: `${host} closed the connection before the response was complete (${code})` };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return { kind: 'dns', message: `the name ${(proxy ? hostOf(proxy) : target).replace(/:\d+$/, '')}${proxy ? ' (the proxy)' : ''} could not be resolved (${code})` };
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT') return { kind: 'timeout', message: `could not connect to ${host} within ${connectTimeoutMs} ms` };
  if (/TIMEOUT|ETIMEDOUT/.test(code)) return { kind: 'timeout', message: `${host} did not answer in time (${code})` };
  if (/CERT|TLS|SSL|EPROTO|ERR_OSSL/.test(code) || /certificate|TLS|SSL/i.test(detail)) {
    return { kind: 'tls', message: `TLS with ${host} failed: ${detail}${code ? ` (${code})` : ''}` };
  }
  if (code === 'UND_ERR_INVALID_ARG' || code === 'ERR_INVALID_URL') return { kind: 'invalid-url', message: `cannot send to ${url}: ${detail}` };
  return { kind: 'network', message: `the request to ${host} failed: ${detail}${code ? ` (${code})` : ''}` };
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    setOwn(out, k.toLowerCase(), Array.isArray(v) ? v.join(', ') : v);
  }
  return out;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function looksTextual(contentType: string | undefined, bytes: Buffer): boolean {
  if (contentType && /json|text|xml|javascript|x-www-form-urlencoded/i.test(contentType)) return true;
  if (contentType && /^(image|audio|video|application\/(octet-stream|pdf|zip))/i.test(contentType)) return false;
  return !bytes.subarray(0, 1024).includes(0);
}

/** The message of an API error body (`{"errors":[{"message":...}]}`, `{"message":...}`), if any. */
export function apiErrorMessage(body: unknown): string | undefined {
  if (!body || typeof body !== 'object') return typeof body === 'string' && body.length > 0 && body.length < 300 ? body : undefined;
  const b = body as Record<string, unknown>;
  if (Array.isArray(b.errors)) {
    const msgs = b.errors
      .map((e) => (e && typeof e === 'object' ? (e as Record<string, unknown>).message : e))
      .filter((m): m is string => typeof m === 'string');
    if (msgs.length > 0) return msgs.join('; ');
  }
  if (b.errors && typeof b.errors === 'object') {
    const parts = Object.entries(b.errors as Record<string, unknown>).map(([k, v]) => `${k}: ${JSON.stringify(v)}`);
    if (parts.length > 0) return parts.join('; ');
  }
  for (const key of ['message', 'error', 'error_description'] as const) if (typeof b[key] === 'string') return b[key] as string;
  return undefined;
}

/**
 * Sends a prepared request and reads the response. Never throws: refused and reset
 * connections, timeouts, cancellation, TLS and DNS failures, unreadable bodies and 4xx/5xx
 * answers are all described in the result.
 */
export async function sendPrepared(prepared: PreparedRequest, options: ExchangeOptions = {}): Promise<ExchangeResult> {
  const start = performance.now();
  // The request's own `# @timeout` wins over the setting; `# @connection-timeout` bounds connecting within it.
  const timeoutMs = prepared.timeoutMs ?? options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const connectTimeoutMs = Math.min(prepared.connectTimeoutMs ?? timeoutMs, timeoutMs);
  // Not following (the setting, or the request's `# @no-redirect`): a 3xx answer is the response.
  const maxRedirects = prepared.noRedirect ? 0 : (options.maxRedirects ?? DEFAULT_MAX_REDIRECTS);
  const controller = new AbortController();
  let timedOut = false;
  let cancelled = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onAbort = () => {
    cancelled = true;
    controller.abort();
  };
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });

  const result: ExchangeResult = {
    ok: false,
    ...noResponse(),
    timing: { totalMs: 0 },
    url: prepared.url,
    redirects: [],
    tokenSent: false,
    warnings: [],
  };
  let method = prepared.method;
  let body = prepared.body;
  let url = prepared.url;
  let dispatcher: Dispatcher & { close(): Promise<void>; destroy(): Promise<void> } | undefined;
  let proxyUsed: string | undefined;
  let proxyClosed = false;
  const stopped = new Promise<never>((_, reject) => {
    if (controller.signal.aborted) reject(new Error('aborted'));
    else controller.signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });
  stopped.catch(() => undefined);
  try {
    for (let hop = 0; ; hop++) {
      let parsed: URL;
      try {
        parsed = new URL(url);
        if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`the scheme ${parsed.protocol} is not http or https`);
      } catch (e) {
        result.error = { kind: 'invalid-url', message: `cannot send to ${url}: ${(e as Error).message}` };
        return result;
      }
      const firstOrigin = new URL(prepared.url).origin;
      // A Host header written for the first URL names that server: a hop to another origin goes without it.
      const hopHeaders = parsed.origin === firstOrigin ? prepared.headers : prepared.headers.filter(([n]) => !namesServer(n));
      // The origin this hop is connected to and authenticated as (undefined: another server, by its Host header).
      const origin = hopOrigin(parsed, hopHeaders);
      const where = origin ?? `the server its Host header names (not ${parsed.host})`;
      const tokenHere = prepared.tokenOrigin !== undefined && origin === prepared.tokenOrigin;
      // Credentials the user wrote go to the origin the request was written for.
      const sameOrigin = origin !== undefined && origin === firstOrigin;
      // Other secrets (a password prompt's answer) go where the token may go; with no
      // environment to say where that is, to the origin the request was written for.
      const secretsHere = prepared.tokenOrigin ? tokenHere : sameOrigin;
      const ownSecrets = [options.token, ...(options.secrets ?? [])];
      // Another environment's token goes nowhere, whatever else says it may (unless it is the token itself).
      const foreign = (options.foreignSecrets ?? []).filter((s) => s !== options.token);
      const notHere = [...(tokenHere ? [] : [options.token]), ...(secretsHere ? [] : (options.secrets ?? [])), ...foreign];
      // The one check: every part that leaves, before a byte is sent.
      const check = checkOutgoing({ method, url, headers: hopHeaders, body: body ? bodyText(body) : undefined }, notHere);
      if (check.refuse) {
        const bound = prepared.tokenOrigin ? `the token goes only to the origin of base_url (${prepared.tokenOrigin})` : 'no environment with a base_url says where the token may go';
        result.error = {
          kind: 'secret-elsewhere',
          message: `${hop === 0 ? 'not sent' : `the redirect to ${parsed.origin} is not followed`}: the ${check.refuse} carries the access token or a secret, and ${where} may not receive it (${bound})`,
        };
        return result;
      }
      const sendToken = options.token !== undefined && options.token.length > 0 && tokenHere;
      if (sendToken && parsed.protocol === 'http:' && !isLoopback(parsed.hostname)) {
        result.warnings.push(`the token is sent over plain http to ${parsed.host}: anyone on the way can read it; use https`);
      }
      if (options.token && !sendToken && hop === 0) {
        result.warnings.push(
          origin === undefined
            ? `the token is not sent: the request's Host header names another server than ${parsed.host}, and the token goes only to the origin of base_url, connected to as itself`
            : prepared.tokenOrigin
              ? `the token is not sent: ${parsed.origin} is not the origin of base_url (${prepared.tokenOrigin})`
              : 'the token is not sent: it goes only to the base_url of the selected environment (http-client.env.json), and none is selected or it has no base_url',
        );
      }
      const headers: Record<string, string> = {};
      hopHeaders.forEach(([name, value], i) => {
        const lower = name.toLowerCase();
        // Credentials the user wrote stay with the first origin, like the token.
        if (!sameOrigin && (lower === 'authorization' || lower === 'cookie')) return;
        if (check.drop.has(i)) {
          // A header whose name is the secret is not named.
          const which = carriesSecret(name, [...ownSecrets, ...foreign]) ? 'a header whose name' : `the header ${name}`;
          result.warnings.push(`${which} carries the access token or a secret and is not sent to ${where}${prepared.tokenOrigin ? ` (the token belongs to ${prepared.tokenOrigin})` : ''}`);
          return;
        }
        if (!body && (lower === 'content-type' || lower === 'content-length')) return;
        const earlier = own(headers, lower);
        setOwn(headers, lower, earlier !== undefined ? `${earlier}, ${value}` : value);
      });
      // An Authorization header written in the request wins over the token: the user chose it
      // for this request (another scheme, another user's token, a test of a bad one).
      const written = headers.authorization;
      const writtenIsToken = written !== undefined && (carriesSecret(written, [options.token]) || written.trim() === `Bearer ${options.token}`);
      if (written !== undefined && sendToken && hop === 0 && !writtenIsToken) {
        result.warnings.push("the request's own Authorization header is sent, and the token is not added");
      }
      if (sendToken && written === undefined) headers.authorization = `Bearer ${options.token}`;
      if (body && headers['content-type'] === undefined) headers['content-type'] = body.contentType;
      result.tokenSent = sendToken && (written === undefined || writtenIsToken);
      result.authorizationWritten = written !== undefined;

      const hopTiming: HopTiming = {};
      const proxy = proxyFor(parsed, options);
      await dispatcher?.close().catch(() => undefined);
      proxyUsed = proxy;
      dispatcher = proxy
        ? proxyAgent(proxy, connectTimeoutMs, () => {
            proxyClosed = true;
            controller.abort();
          })
        : timedAgent(connectTimeoutMs, hopTiming);
      const pending = request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body: body?.bytes ?? body?.text,
        dispatcher,
        signal: controller.signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      // undici looks at the signal only once a connection is there: a proxy that never
      // answers CONNECT would hold the request (and close()) forever, so the abort wins here.
      pending.catch(() => undefined);
      const response = await Promise.race([pending, stopped]);
      result.timing.firstByteMs = performance.now() - start;
      if (hopTiming.dnsMs !== undefined) result.timing.dnsMs = hopTiming.dnsMs;
      if (hopTiming.connectMs !== undefined) result.timing.connectMs = hopTiming.connectMs;
      const responseHeaders = flattenHeaders(response.headers as Record<string, string | string[] | undefined>);
      const location = responseHeaders.location;
      if (REDIRECTS.has(response.statusCode) && location !== undefined && maxRedirects > 0) {
        await response.body.dump().catch(() => undefined);
        let next: string;
        try {
          next = new URL(location, url).toString();
        } catch {
          result.error = { kind: 'invalid-url', message: `the redirect from ${url} points at an invalid address: ${location}` };
          return result;
        }
        result.redirects.push({ status: response.statusCode, from: url, to: next, tokenSent: sendToken });
        if (hop + 1 > maxRedirects) {
          result.status = response.statusCode;
          result.statusText = STATUS_CODES[response.statusCode] ?? '';
          result.headers = responseHeaders;
          result.error = { kind: 'too-many-redirects', message: `more than ${maxRedirects} redirects; the last one pointed at ${next}` };
          return result;
        }
        // 303, and 301/302 after a POST, continue as GET without the body (as browsers do).
        if (response.statusCode === 303 ? method !== 'HEAD' : (response.statusCode === 301 || response.statusCode === 302) && method === 'POST') {
          method = 'GET';
          body = undefined;
        }
        url = next;
        continue;
      }
      result.status = response.statusCode;
      result.statusText = STATUS_CODES[response.statusCode] ?? '';
      result.headers = responseHeaders;
      result.url = url;
      result.contentType = responseHeaders['content-type'];
      await readBody(response.body, result, options);
      break;
    }
    interpretBody(result, method);
  } catch (e) {
    result.error =
      proxyClosed && proxyUsed && !timedOut && !cancelled
        ? { kind: 'reset', message: `the proxy ${new URL(proxyUsed).host} closed the connection without answering (no tunnel to ${new URL(url).host})` }
        : describeFailure(e, url, timedOut, cancelled, timeoutMs, connectTimeoutMs, result.timing.firstByteMs !== undefined ? undefined : proxyUsed);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    // close() waits for requests in flight; after a failure there may be one that never ends.
    await (result.error ? dispatcher?.destroy() : dispatcher?.close())?.catch(() => undefined);
    result.timing.totalMs = performance.now() - start;
    result.durationMs = Math.round(result.timing.totalMs);
    result.ok = result.error === undefined && result.status !== null && result.status >= 200 && result.status < 300;
  }
  return result;
}

async function readBody(stream: AsyncIterable<Buffer>, result: ExchangeResult, options: ExchangeOptions) {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const chunks: Buffer[] = [];
  let total = 0;
  let kept = 0;
  let file: string | undefined;
  let out: ReturnType<typeof createWriteStream> | undefined;
  const secrets = [options.token, ...(options.secrets ?? []), ...(options.foreignSecrets ?? [])];
  // The file is scrubbed as the output is: a server that echoes the token does not put it on disk.
  const scrubber = new SecretScrubber(secrets);
  let finished = false;
  try {
    for await (const chunk of stream) {
      total += chunk.length;
      if (!out && total > limit) {
        const dir = await spillFolder(options.spillDir ?? join(tmpdir(), `lpreq-bodies-${userFolderSuffix()}`), result);
        file = join(dir, `body-${Date.now()}-${randomBytes(4).toString('hex')}`);
        // Readable by this user only: a response can hold what only its reader should see.
        out = createWriteStream(file, { mode: 0o600, flags: 'wx' });
        // Everything read so far is in `chunks` (it fitted): the file starts with it.
        for (const c of chunks) out.write(scrubber.push(c));
      }
      if (out && !out.write(scrubber.push(chunk))) await new Promise<void>((resolve) => out?.once('drain', resolve));
      // The first `limit` bytes are kept in memory: the whole body when it fits.
      if (kept < limit) {
        const part = chunk.subarray(0, limit - kept);
        chunks.push(part);
        kept += part.length;
      }
    }
    finished = true;
  } finally {
    if (out) {
      const stream = out;
      // A body cut short ends without what was held back: it could be the start of a secret.
      await new Promise<void>((resolve) => stream.end(scrubber.end(!finished), resolve));
    }
    // A body cut by a failure still says how much of it came, shows it, and where the rest went.
    if (file) result.truncated = { file, bytes: total, limit };
    if (!finished && total > 0) {
      result.bodyIncomplete = true;
      result.bytes = total;
      const head = Buffer.concat(chunks);
      result.bodyKind = looksTextual(result.contentType, head) ? 'text' : 'binary';
      result.bodyText = result.bodyKind === 'text' ? withoutSecretStart(head.toString('utf8'), secrets) : `(${total} bytes of ${result.contentType ?? 'binary data'})`;
      result.body = result.bodyKind === 'text' ? result.bodyText : null;
    }
  }
  result.bytes = total;
  const head = Buffer.concat(chunks);
  if (total === 0) {
    result.bodyKind = 'empty';
    return;
  }
  if (looksTextual(result.contentType, head)) {
    // A body cut at the limit may end inside an echoed secret: that start is not shown.
    result.bodyText = file ? withoutSecretStart(head.toString('utf8'), secrets) : head.toString('utf8');
    result.bodyKind = 'text';
    result.body = result.bodyText;
  } else {
    result.bodyKind = 'binary';
    result.bodyText = `(${total} bytes of ${result.contentType ?? 'binary data'})`;
    result.body = null;
  }
}

/**
 * The folder a large body is written to: `wanted` when only this user can write it (created
 * 0700, or found as a folder, not a symbolic link, owned by this user and writable by no
 * one else). Otherwise another user could read the body, or swap the file: it is not used,
 * a warning says why, and the body goes to a new private folder.
 */
async function spillFolder(wanted: string, result: ExchangeResult): Promise<string> {
  let why: string | undefined;
  try {
    await mkdir(wanted, { recursive: true, mode: 0o700 });
    const info = await lstat(wanted);
    const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
    if (info.isSymbolicLink()) why = 'it is a symbolic link';
    else if (!info.isDirectory()) why = 'it is not a folder';
    else if (uid !== undefined && info.uid !== uid) why = `it belongs to another user (uid ${info.uid})`;
    else if ((info.mode & 0o022) !== 0) why = 'others can write to it';
  } catch (e) {
    why = `it cannot be made (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`;
  }
  if (why === undefined) {
    await pruneSpills(wanted);
    return wanted;
  }
  const fresh = await mkdtemp(join(tmpdir(), 'lpreq-bodies-'));
  result.warnings.push(`the folder ${wanted} is not used for large bodies, since ${why}: the body is written to ${fresh} instead`);
  return fresh;
}

/** Parses a JSON body and names what went wrong with an answer. */
function interpretBody(result: ExchangeResult, method: string) {
  const status = result.status ?? 0;
  const isJsonType = result.contentType !== undefined && /[/+]json\b/i.test(result.contentType);
  if (result.bodyKind === 'text' && !result.truncated) {
    const trimmed = result.bodyText.trim();
    // canvas-style APIs prefix JSON with `while(1);` against JSON hijacking.
    const jsonText = trimmed.startsWith('while(1);') ? trimmed.slice(9) : trimmed;
    if (isJsonType || /^[[{]/.test(jsonText)) {
      try {
        result.body = JSON.parse(jsonText);
        result.bodyKind = 'json';
        const exact = exactIntegers(jsonText);
        if (exact) result.exactNumbers = exact;
      } catch (e) {
        if (isJsonType) result.warnings.push(`the body is declared as JSON but is not valid JSON (${(e as Error).message})`);
      }
    }
  }
  if (result.truncated) {
    result.warnings.push(`the body (${result.truncated.bytes} bytes) is larger than ${result.truncated.limit} bytes: it is in ${result.truncated.file}`);
  }
  if (status >= 400) {
    const detail = apiErrorMessage(result.body);
    result.error = { kind: 'http', message: `${status} ${result.statusText}${detail ? `: ${detail}` : ''}` };
  } else if (status >= 200 && status < 300 && result.bodyKind === 'empty' && status !== 204 && status !== 205 && method !== 'HEAD') {
    // Not a failure: an empty body is worth saying when a resource was expected.
    result.warnings.push('the response has an empty body');
  }
}

/** Spill files kept at most, and how long: older ones are removed when a new one is written. */
export const SPILL_KEEP_FILES = 20;
export const SPILL_KEEP_MS = 24 * 60 * 60 * 1000;

/** Removes spill files older than a day, and all but the newest of the rest, so that the folder stays bounded. Never throws. */
async function pruneSpills(dir: string): Promise<void> {
  try {
    const files = await Promise.all(
      (await readdir(dir))
        .filter((n) => n.startsWith('body-'))
        .map(async (n) => ({ path: join(dir, n), mtime: (await stat(join(dir, n)).catch(() => undefined))?.mtimeMs ?? 0 })),
    );
    files.sort((a, b) => b.mtime - a.mtime);
    const now = Date.now();
    // One place is left for the file about to be written.
    const old = files.filter((f, i) => i >= SPILL_KEEP_FILES - 1 || now - f.mtime > SPILL_KEEP_MS);
    await Promise.all(old.map((f) => unlink(f.path).catch(() => undefined)));
  } catch {
    // A folder that cannot be read is no reason to lose the body.
  }
}

/** A name for this user's folder of large bodies (the uid where there is one). */
function userFolderSuffix(): string {
  return typeof process.getuid === 'function' ? String(process.getuid()) : 'user';
}
