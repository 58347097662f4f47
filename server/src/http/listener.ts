/**
 * The HTTP server of the hosts that answer on a port (the mock, the proxy): Node's server
 * with bounded heads and times, every connection kept so that closing ends them all, and one
 * answer to what is not a request: malformed HTTP (in the head, or in a chunked body) gets
 * 400, headers too large 431, a client too slow with its request 408, a CONNECT (a tunnel,
 * which neither host makes) 405, and the connection closes. Once the head has arrived, the request's own response answers (so that whatever
 * watches it sees the status), unless it has started already.
 */
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/** Why a request got no handling: what the host's answer says. */
export interface Malformed {
  status: 400 | 405 | 408 | 431;
  message: string;
  code: 'request-timeout' | 'malformed-request' | 'method-not-allowed';
}

export interface ListenerOptions {
  requestTimeout: number;
  keepAliveTimeout: number;
  handle(req: IncomingMessage, res: ServerResponse): void;
  /** The host's answer to a request that is not one: its content type and body. */
  answer(malformed: Malformed): { contentType: string; body: string };
  /** A request whose head never arrived whole: no response of its own was made. */
  onHeadless?(malformed: Malformed): void;
  /** A CONNECT request, answered 405: its target (`host:port`, nothing before an `@`), for the host's log. */
  onConnect?(target: string, malformed: Malformed): void;
}

const CONNECT_REFUSED: Malformed = {
  status: 405,
  message: 'CONNECT is not supported: this server opens no tunnels; send the request itself',
  code: 'method-not-allowed',
};

export interface Listener {
  server: Server;
  /** Ends every open connection, idle or not. */
  destroyConnections(): void;
}

export function createListener(options: ListenerOptions): Listener {
  const sockets = new Set<Socket>();
  const server = createServer(
    {
      requestTimeout: options.requestTimeout,
      headersTimeout: Math.min(10_000, options.requestTimeout),
      keepAliveTimeout: options.keepAliveTimeout,
      maxHeaderSize: 32 * 1024,
      connectionsCheckingInterval: 1_000,
    },
    options.handle,
  );
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  });
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
    if (!socket.writable || response?.headersSent) {
      socket.destroy();
      return;
    }
    const malformed: Malformed =
      err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? { status: 408, message: 'the request took too long to arrive', code: 'request-timeout' }
        : err.code === 'HPE_HEADER_OVERFLOW'
          ? { status: 431, message: 'the request headers are too large', code: 'malformed-request' }
          : { status: 400, message: 'the request is not valid HTTP/1.1', code: 'malformed-request' };
    const { contentType, body } = options.answer(malformed);
    const length = Buffer.byteLength(body);
    if (response) {
      response.on('finish', () => socket.destroy());
      response.writeHead(malformed.status, {
        'Content-Type': contentType,
        'Content-Length': length,
        Connection: 'close',
      });
      response.end(body);
      return;
    }
    options.onHeadless?.(malformed);
    socket.end(
      `HTTP/1.1 ${malformed.status} ${STATUS_CODES[malformed.status] ?? ''}\r\nContent-Type: ${contentType}\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  // Without a listener Node closes a CONNECT's connection without a word: the client is told why, and the host logs it.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    socket.on('error', () => socket.destroy());
    const target = (req.url ?? '').replace(/^.*@/, '').slice(0, 300);
    options.onConnect?.(target, CONNECT_REFUSED);
    const { contentType, body } = options.answer(CONNECT_REFUSED);
    socket.end(
      `HTTP/1.1 405 ${STATUS_CODES[405]}\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return { server, destroyConnections: () => sockets.forEach((s) => s.destroy()) };
}
