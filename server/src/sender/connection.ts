/**
 * The connection of one hop: the proxy that applies, an agent that measures name lookup and
 * connecting, an agent through a proxy that notices one that closes without answering, and
 * what a failure to connect or to get an answer is called.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import type { Socket } from 'node:net';
import { Agent, Client, ProxyAgent, buildConnector } from 'undici';
import type { ExchangeError, ExchangeOptions } from './exchangeTypes';
import { isLoopback } from './outgoing';
import type { TlsFiles } from '../node/index';

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
  if (noProxy.some((n) => n === '*' || host === n.replace(/^\./, '') || host.endsWith(n.startsWith('.') ? n : `.${n}`)))
    return undefined;
  const value = url.protocol === 'https:' ? (env.HTTPS_PROXY ?? env.https_proxy) : (env.HTTP_PROXY ?? env.http_proxy);
  return value && value.length > 0 ? value : undefined;
}

export interface HopTiming {
  dnsMs?: number;
  /** TCP connection, name lookup included. */
  connectMs?: number;
  /** The TLS handshake after the TCP connection (https only). */
  tlsMs?: number;
}

/**
 * An agent for one hop, measuring name lookup, the TCP connection and the TLS handshake
 * apart: the connector's socket says when TCP connected ('connect') before undici is told
 * that TLS is done. A failed handshake is timed as well (a certificate refused after 40 ms).
 */
export function timedAgent(timeoutMs: number, timing: HopTiming, tls?: TlsFiles): Agent {
  const lookup = (hostname: string, opts: object, callback: (...args: unknown[]) => void) => {
    const t = performance.now();
    dnsLookup(
      hostname,
      opts as { all?: boolean },
      (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => {
        timing.dnsMs = performance.now() - t;
        callback(err, address, family);
      },
    );
  };
  // The environment's `$tls` (CA, client certificate, or no check), for the hops it applies to.
  const base = buildConnector({ ...tls, timeout: timeoutMs, lookup } as unknown as buildConnector.BuildOptions);
  const connect: buildConnector.connector = (opts, callback) => {
    const t = performance.now();
    let tcpAt: number | undefined;
    // undici's connector returns the socket it made, though its type says void.
    const socket = (base as unknown as (o: typeof opts, cb: buildConnector.Callback) => Socket | undefined)(
      opts,
      (err, socket) => {
        const now = performance.now();
        timing.connectMs = (tcpAt ?? now) - t;
        if (opts.protocol === 'https:' && tcpAt !== undefined) timing.tlsMs = now - tcpAt;
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        (callback as any)(err, socket);
      },
    );
    socket?.once('connect', () => {
      tcpAt = performance.now();
    });
  };
  return new Agent({ connect, keepAliveTimeout: 1000 });
}

/**
 * An agent through `proxy`. undici connects to a proxy again and again when it closes the
 * connection before answering: `onProxyClosed` is told at the first such close instead.
 */
export function proxyAgent(
  proxy: string,
  connectTimeoutMs: number,
  onProxyClosed: () => void,
  tls?: TlsFiles,
): ProxyAgent {
  return new ProxyAgent({
    uri: proxy,
    proxyTls: { timeout: connectTimeoutMs },
    // The TLS inside the tunnel is with the target: the environment's `$tls` is for it, not for the proxy.
    ...(tls ? { requestTls: { ...tls } } : {}),
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
export function describeFailure(
  e: unknown,
  url: string,
  timedOut: boolean,
  cancelled: boolean,
  timeoutMs: number,
  connectTimeoutMs: number,
  proxy?: string,
): ExchangeError {
  const hostOf = (u: string) => {
    try {
      return new URL(u).host;
    } catch {
      return u;
    }
  };
  const target = hostOf(url);
  if (timedOut)
    return {
      kind: 'timeout',
      message: `no complete answer from ${target}${proxy ? ` through the proxy ${hostOf(proxy)}` : ''} within ${timeoutMs} ms`,
    };
  if (cancelled) return { kind: 'cancelled', message: 'the request was cancelled' };
  // Before any answer, a connection that fails is the proxy's: it is the only peer lpreq talks to.
  const host = proxy ? `the proxy ${hostOf(proxy)}` : target;
  const code = errorCode(e);
  const detail = (e as Error)?.message || String(e);
  if (code === 'ECONNREFUSED')
    return { kind: 'refused', message: `${host} refused the connection (is the server running?)` };
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET' || code === 'UND_ERR_CLOSED') {
    return { kind: 'reset', message: `${host} closed the connection before the response was complete (${code})` };
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_NONAME') {
    return {
      kind: 'dns',
      message: `the name ${(proxy ? hostOf(proxy) : target).replace(/:\d+$/, '')}${proxy ? ' (the proxy)' : ''} could not be resolved (${code})`,
    };
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT')
    return { kind: 'timeout', message: `could not connect to ${host} within ${connectTimeoutMs} ms` };
  if (/TIMEOUT|ETIMEDOUT/.test(code)) return { kind: 'timeout', message: `${host} did not answer in time (${code})` };
  if (/CERT|TLS|SSL|EPROTO|ERR_OSSL/.test(code) || /certificate|TLS|SSL/i.test(detail)) {
    return { kind: 'tls', message: `TLS with ${host} failed: ${detail}${code ? ` (${code})` : ''}` };
  }
  if (code === 'UND_ERR_INVALID_ARG' || code === 'ERR_INVALID_URL')
    return { kind: 'invalid-url', message: `cannot send to ${url}: ${detail}` };
  return { kind: 'network', message: `the request to ${host} failed: ${detail}${code ? ` (${code})` : ''}` };
}

/**
 * A request's time limit and its caller's cancel in one abort signal (`controller`), with
 * which of the two ended it kept for the failure's words. `dispose()` once the request is over.
 */
export class Deadline {
  readonly controller = new AbortController();
  timedOut = false;
  cancelled = false;
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly onAbort = () => {
    this.cancelled = true;
    this.controller.abort();
  };

  constructor(
    timeoutMs: number,
    private readonly signal?: AbortSignal,
  ) {
    this.timer = setTimeout(() => {
      this.timedOut = true;
      this.controller.abort();
    }, timeoutMs);
    if (signal?.aborted) this.onAbort();
    else signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.signal?.removeEventListener('abort', this.onAbort);
  }
}
