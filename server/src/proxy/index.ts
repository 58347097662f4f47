/**
 * `lpreq proxy`: the checking reverse proxy (server.ts), its headers (headers.ts) and the
 * codes it reports beside the checker's (codes.ts). The command line writes the reports.
 */
import type { AddressInfo } from 'node:net';
import { bundledCatalog } from '../catalogData';
import type { Catalog } from '../core';
import { ProxyServer, type ExchangeRecord } from './server';

export { type ExchangeRecord } from './server';
export { PROXY_CODES } from './codes';

export interface ProxyOptions {
  /** The instance to forward to: `https://lms.example.edu` (a base path is kept). */
  target: string | URL;
  /** Default 4020; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  strict?: boolean;
  /** The scopes the clients' token is granted: a request that needs another is reported as `scope-not-granted`. */
  scopes?: readonly string[];
  timeoutMs?: number;
  maxCheckedBytes?: number;
  /** Milliseconds a client's request may take to arrive (408 after). */
  requestTimeout?: number;
  catalog?: Catalog;
  onExchange?: (record: ExchangeRecord) => void;
}

export interface RunningProxy {
  /** `http://127.0.0.1:<port>`, without a trailing slash: the base URL clients use. */
  url: string;
  port: number;
  /** Stops taking requests; those under way have `graceMs` (default 10 s) to finish. */
  close(graceMs?: number): Promise<void>;
}

export async function startProxy(options: ProxyOptions): Promise<RunningProxy> {
  const target = new URL(options.target);
  const proxy = new ProxyServer({
    catalog: options.catalog ?? bundledCatalog(),
    target,
    strict: options.strict,
    scopes: options.scopes,
    timeoutMs: options.timeoutMs,
    maxCheckedBytes: options.maxCheckedBytes,
    requestTimeout: options.requestTimeout,
    onExchange: options.onExchange,
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    proxy.server.once('error', onError);
    proxy.server.listen(options.port ?? 4020, host, () => {
      proxy.server.off('error', onError);
      resolve();
    });
  });
  const port = (proxy.server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return { url: `http://${shownHost}:${port}`, port, close: (graceMs) => proxy.close(graceMs) };
}
