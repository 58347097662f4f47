/** A test HTTP server on 127.0.0.1 (port 0) that records what it receives. */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { bundledCatalog } from '../../server/src/catalogData';
import { Checker, parseDocument } from '../../server/src/core/index';
import type { PreparedRequest } from '../../server/src/sender/prepare';

export interface Received {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  /** Header names and values as they arrived (Node's `headers` leaves out a `__proto__` header). */
  rawHeaders: string[];
  body: string;
  /** The body's bytes as they arrived. */
  raw: Buffer;
}

export interface TestServer {
  origin: string;
  port: number;
  received: Received[];
  close(): Promise<void>;
}

export type Handler = (req: Received, res: ServerResponse) => unknown;

export async function startServer(handler: Handler): Promise<TestServer> {
  const received: Received[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const r: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        rawHeaders: req.rawHeaders,
        body: raw.toString('utf8'),
        raw,
      };
      received.push(r);
      Promise.resolve(handler(r, res)).catch((e: unknown) => {
        res.statusCode = 500;
        res.end(String(e));
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A CONNECT proxy on 127.0.0.1 that sends every tunnel to `targetPort` on 127.0.0.1. */
export async function startProxy(
  targetPort: number,
): Promise<{ url: string; connects: string[]; close(): Promise<void> }> {
  const connects: string[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((_req, res) => {
    res.statusCode = 405;
    res.end();
  });
  server.on('connect', (req: IncomingMessage, client: Socket) => {
    connects.push(req.url ?? '');
    sockets.add(client);
    const upstream = connect(targetPort, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.pipe(client);
      client.pipe(upstream);
    });
    sockets.add(upstream);
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    connects,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

export function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

let checker: Checker | undefined;
export function testChecker(): Checker {
  checker ??= new Checker(bundledCatalog());
  return checker;
}

export function doc(text: string) {
  return parseDocument(text);
}

/** A GET as the sender's pure step prepares it, the token bound to `tokenOrigin`; `extra` changes any part. */
export function preparedGet(url: string, tokenOrigin: string, extra: Partial<PreparedRequest> = {}): PreparedRequest {
  return {
    method: 'GET',
    url,
    headers: [['Accept', 'application/json']],
    blockIndex: 0,
    returns: null,
    paginated: false,
    paging: 'link',
    tokenOrigin,
    ...extra,
  };
}
