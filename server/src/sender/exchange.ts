/**
 * The exchange: one prepared request sent through undici, and everything that can happen
 * turned into a plain result object. Nothing here throws.
 *
 * Redirects are followed here, not by undici, so that the token goes with a hop only when
 * the hop's origin is the origin of the environment's base_url. What a hop may carry is
 * outgoing.ts's to say, how it connects connection.ts's, and the body responseBody.ts's.
 */
import { STATUS_CODES } from 'node:http';
import { request, type Dispatcher } from 'undici';
import type { PreparedRequest } from './prepare';
import { own, setOwn } from '../core/index';
import { Deadline, describeFailure, proxyAgent, proxyFor, timedAgent, type HopTiming } from './connection';
import { bodyText, planHop, type HopPlan } from './outgoing';
import { interpretBody, readBody } from './responseBody';
import type { ExchangeOptions, ExchangeResult } from './exchangeTypes';

export type { FailureKind, ExchangeError, Timing, ExchangeResult, ExchangeOptions } from './exchangeTypes';

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_MAX_REDIRECTS = 5;

/** The response fields of an exchange that got no response (yet): a fresh object each time. */
export function noResponse(): Pick<
  ExchangeResult,
  'status' | 'statusText' | 'headers' | 'body' | 'bodyText' | 'bodyKind' | 'bytes' | 'durationMs'
> {
  return {
    status: null,
    statusText: '',
    headers: {},
    body: null,
    bodyText: '',
    bodyKind: 'empty',
    bytes: 0,
    durationMs: 0,
  };
}

function flattenHeaders(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) {
    if (v === undefined) continue;
    setOwn(out, k.toLowerCase(), Array.isArray(v) ? v.join(', ') : v);
  }
  return out;
}

/** The headers of one hop: the plan's (joined by name, lower-cased), the token where it goes, the body's type. */
function hopHeaders(plan: HopPlan, body: PreparedRequest['body'], token: string | undefined): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of plan.headers) {
    const lower = name.toLowerCase();
    if (!body && (lower === 'content-type' || lower === 'content-length')) continue;
    const earlier = own(headers, lower);
    setOwn(headers, lower, earlier !== undefined ? `${earlier}, ${value}` : value);
  }
  if (plan.addToken) headers.authorization = `Bearer ${token}`;
  if (body && headers['content-type'] === undefined) headers['content-type'] = body.contentType;
  return headers;
}

/**
 * A redirect to follow: the address it points at, and whether the request goes on as a GET
 * without its body (303, and 301/302 after a POST, as browsers do). Undefined when the
 * exchange ends here, its error set on `result` (an invalid address, too many redirects).
 */
function nextHop(
  result: ExchangeResult,
  status: number,
  responseHeaders: Record<string, string>,
  at: { url: string; method: string; hop: number; maxRedirects: number },
  plan: HopPlan,
): { url: string; asGet: boolean } | undefined {
  const { url, method, hop, maxRedirects } = at;
  const location = responseHeaders.location ?? '';
  let next: string;
  try {
    next = new URL(location, url).toString();
  } catch {
    result.error = {
      kind: 'invalid-url',
      message: `the redirect from ${url} points at an invalid address: ${location}`,
    };
    return undefined;
  }
  result.redirects.push({ status, from: url, to: next, tokenSent: plan.tokenMayGo });
  if (hop + 1 > maxRedirects) {
    result.status = status;
    result.statusText = STATUS_CODES[status] ?? '';
    result.headers = responseHeaders;
    result.error = {
      kind: 'too-many-redirects',
      message: `more than ${maxRedirects} redirects; the last one pointed at ${next}`,
    };
    return undefined;
  }
  const asGet = status === 303 ? method !== 'HEAD' : (status === 301 || status === 302) && method === 'POST';
  return { url: next, asGet };
}

/** The connection of one hop: through the proxy for its URL, or direct and timed; `$tls` only toward the token's origin over https. */
function connectionFor(
  prepared: PreparedRequest,
  options: ExchangeOptions,
  hop: {
    parsed: URL;
    origin: string | undefined;
    hop: number;
    connectTimeoutMs: number;
    timing: HopTiming;
    proxy: string | undefined;
  },
  warnings: string[],
  onProxyClosed: () => void,
): Dispatcher & { close(): Promise<void>; destroy(): Promise<void> } {
  const { parsed, origin, connectTimeoutMs, proxy } = hop;
  const tls =
    options.tls && parsed.protocol === 'https:' && origin !== undefined && origin === prepared.tokenOrigin
      ? options.tls
      : undefined;
  if (tls?.rejectUnauthorized === false && hop.hop === 0) {
    warnings.push(
      `the certificate of ${parsed.host} is not checked ($tls "rejectUnauthorized": false): anyone on the way could read the token`,
    );
  }
  return proxy
    ? proxyAgent(proxy, connectTimeoutMs, onProxyClosed, tls)
    : timedAgent(connectTimeoutMs, hop.timing, tls);
}

/** What went wrong, said: a proxy that closed without a tunnel, or what describeFailure reads of the error. */
function failureOf(
  e: unknown,
  url: string,
  how: {
    timedOut: boolean;
    cancelled: boolean;
    timeoutMs: number;
    connectTimeoutMs: number;
    proxyUsed: string | undefined;
    proxyClosed: boolean;
    /** The proxy to name, when no byte of an answer came. */
    proxy: string | undefined;
  },
): NonNullable<ExchangeResult['error']> {
  const { timedOut, cancelled, timeoutMs, connectTimeoutMs, proxyUsed, proxyClosed, proxy } = how;
  if (proxyClosed && proxyUsed && !timedOut && !cancelled)
    return {
      kind: 'reset',
      message: `the proxy ${new URL(proxyUsed).host} closed the connection without answering (no tunnel to ${new URL(url).host})`,
    };
  return describeFailure(e, url, timedOut, cancelled, timeoutMs, connectTimeoutMs, proxy);
}

/** A promise rejected when `signal` aborts (at once if it has): what a hop races against. */
function rejectedOnAbort(signal: AbortSignal): Promise<never> {
  const stopped = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(new Error('aborted'));
    else signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });
  stopped.catch(() => undefined);
  return stopped;
}

/** The answer that ends the exchange: its status and headers, and its body read. */
async function readAnswer(
  result: ExchangeResult,
  response: Dispatcher.ResponseData,
  responseHeaders: Record<string, string>,
  url: string,
  options: ExchangeOptions,
): Promise<void> {
  result.status = response.statusCode;
  result.statusText = STATUS_CODES[response.statusCode] ?? '';
  result.headers = responseHeaders;
  result.url = url;
  result.contentType = responseHeaders['content-type'];
  const headersAt = performance.now();
  await readBody(response.body, result, options);
  result.timing.downloadMs = performance.now() - headersAt;
}

/** The hop's connection times, kept after a failure as well: a refused certificate still took a TCP connection and part of a handshake. */
function keepHopTiming(result: ExchangeResult, hopTiming: HopTiming): void {
  if (hopTiming.dnsMs !== undefined) result.timing.dnsMs = hopTiming.dnsMs;
  if (hopTiming.connectMs !== undefined) result.timing.connectMs = hopTiming.connectMs;
  if (hopTiming.tlsMs !== undefined) result.timing.tlsMs = hopTiming.tlsMs;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

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
  const deadline = new Deadline(timeoutMs, options.signal);
  const controller = deadline.controller;

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
  let dispatcher: (Dispatcher & { close(): Promise<void>; destroy(): Promise<void> }) | undefined;
  let proxyUsed: string | undefined;
  let proxyClosed = false;
  let hopTiming: HopTiming = {};
  const stopped = rejectedOnAbort(controller.signal);
  try {
    for (let hop = 0; ; hop++) {
      let parsed: URL;
      try {
        parsed = new URL(url);
        if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
          throw new Error(`the scheme ${parsed.protocol} is not http or https`);
      } catch (e) {
        result.error = { kind: 'invalid-url', message: `cannot send to ${url}: ${(e as Error).message}` };
        return result;
      }
      // The one decision of what this hop carries (outgoing.ts), before a byte of it is sent.
      const plan = planHop(prepared, { index: hop, method, url, body: body ? bodyText(body) : undefined }, options);
      if (plan.refused !== undefined) {
        result.error = {
          kind: 'secret-elsewhere',
          message: `${hop === 0 ? 'not sent' : `the redirect to ${parsed.origin} is not followed`}: ${plan.refused}`,
        };
        return result;
      }
      result.warnings.push(...plan.warnings);
      const origin = plan.origin;
      const headers = hopHeaders(plan, body, options.token);
      result.tokenSent = plan.tokenSent;
      result.authorizationWritten = plan.authorizationWritten;

      // Each hop is timed anew: the timing said is the one of the hop that answered (or failed).
      hopTiming = {};
      const proxy = proxyFor(parsed, options);
      await dispatcher?.close().catch(() => undefined);
      proxyUsed = proxy;
      const hopOf = { parsed, origin, hop, connectTimeoutMs, timing: hopTiming, proxy };
      dispatcher = connectionFor(prepared, options, hopOf, result.warnings, () => {
        proxyClosed = true;
        controller.abort();
      });
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
      const responseHeaders = flattenHeaders(response.headers as Record<string, string | string[] | undefined>);
      const location = responseHeaders.location;
      if (REDIRECTS.has(response.statusCode) && location !== undefined && maxRedirects > 0) {
        await response.body.dump().catch(() => undefined);
        const next = nextHop(result, response.statusCode, responseHeaders, { url, method, hop, maxRedirects }, plan);
        if (!next) return result;
        if (next.asGet) {
          method = 'GET';
          body = undefined;
        }
        url = next.url;
        continue;
      }
      await readAnswer(result, response, responseHeaders, url, options);
      break;
    }
    interpretBody(result, method);
  } catch (e) {
    const proxy = result.timing.firstByteMs !== undefined ? undefined : proxyUsed;
    result.error = failureOf(e, url, {
      timedOut: deadline.timedOut,
      cancelled: deadline.cancelled,
      timeoutMs,
      connectTimeoutMs,
      proxyUsed,
      proxyClosed,
      proxy,
    });
  } finally {
    deadline.dispose();
    keepHopTiming(result, hopTiming);
    // close() waits for requests in flight; after a failure there may be one that never ends.
    await (result.error ? dispatcher?.destroy() : dispatcher?.close())?.catch(() => undefined);
    result.timing.totalMs = performance.now() - start;
    result.durationMs = Math.round(result.timing.totalMs);
    result.ok = result.error === undefined && result.status !== null && result.status >= 200 && result.status < 300;
  }
  return result;
}
