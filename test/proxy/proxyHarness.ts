/** Test harness of the proxy: a target server of the test's own on 127.0.0.1, the proxy in front of it, and a raw HTTP client. */
import {
  createServer,
  request,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type OutgoingHttpHeaders,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { startProxy, type ExchangeRecord, type ProxyOptions, type RunningProxy } from '../../server/src/proxy/index';

export interface Target {
  url: string;
  port: number;
  /** What the target received, in order: method, path, headers and body. */
  received: { method: string; url: string; headers: IncomingHttpHeaders; rawHeaders: string[]; body: Buffer }[];
  close(): Promise<void>;
}

/** A target that answers with `handler` after reading each request whole (or as it likes, when `stream` is set). */
export async function startTarget(
  handler: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void,
  options: { stream?: boolean } = {},
): Promise<Target> {
  const received: Target['received'] = [];
  const server = createServer((req, res) => {
    if (options.stream) {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: Buffer.alloc(0),
      });
      handler(req, res, Buffer.alloc(0));
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body,
      });
      handler(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface Exchange {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  text: string;
}

/** One request with node:http (which, unlike fetch, sends hop-by-hop headers as given). */
export function call(
  url: string,
  options: { method?: string; headers?: OutgoingHttpHeaders; body?: string | Buffer } = {},
): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, text: body.toString('utf8') });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

export type Violations = { code?: string; parameter?: string; path?: string; omitted?: number }[];

export function violationsOf(exchange: Exchange): Violations | undefined {
  const header = exchange.headers['lpreq-violations'];
  return typeof header === 'string' ? (JSON.parse(header) as Violations) : undefined;
}

/** Starts the proxy in front of `target`, runs `fn` with it and the records of its exchanges so far, and always stops it. */
export async function withProxy(
  target: string,
  fn: (proxy: RunningProxy, records: ExchangeRecord[]) => Promise<void>,
  options: Omit<ProxyOptions, 'target'> = {},
): Promise<void> {
  const records: ExchangeRecord[] = [];
  const proxy = await startProxy({
    port: 0,
    ...options,
    target,
    onExchange: (r) => (records.push(r), options.onExchange?.(r)),
  });
  try {
    await fn(proxy, records);
  } finally {
    await proxy.close(1_000);
  }
}

/** Waits until `ready()` holds (records arrive when a response closes, just after the client has read it). */
export async function until(ready: () => boolean): Promise<void> {
  for (let i = 0; i < 500 && !ready(); i++) await new Promise((r) => setTimeout(r, 10));
}
