/**
 * Where the browser's answer to an authorization request comes back (RFC 8252 section 7.3): a
 * server on this machine's loopback address, listening for that one answer. Only a GET of the
 * redirect's own path, naming the redirect's own host and port, is read; the answer must carry
 * the state lpreq sent (a sign-in lpreq did not start is refused), and then the server closes.
 * Another path is not found and the wait goes on; nothing comes after a time limit.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { sameState } from './pkce';
import { plainText } from './plainText';
import { OAuthError } from './tokenRequest';

export interface RedirectWait {
  /** The redirect_uri to send, with the port actually listened on. */
  redirectUri: string;
  /** The code of the answer, or an OAuthError (denied, a wrong state, the time ran out, cancelled). */
  code: Promise<string>;
  /** Stops listening (the sign-in ended otherwise). */
  close(): void;
}

export interface RedirectOptions {
  /** The configured redirect; without one, a free port of 127.0.0.1 at /callback. */
  redirect?: { url: string; hostname: string; port: number; path: string };
  state: string;
  /** How long the answer may take. */
  timeoutMs: number;
  signal?: AbortSignal;
}

const PAGE = (title: string, text: string) =>
  `<!doctype html><html><head><meta charset="utf-8"><title>lpreq: ${title}</title></head><body style="font-family:sans-serif;margin:3em"><h1>${title}</h1><p>${text}</p></body></html>`;

/** Starts listening for the answer; rejects when the address cannot be listened on. */
export async function waitForRedirect(options: RedirectOptions): Promise<RedirectWait> {
  const hostname = options.redirect?.hostname ?? '127.0.0.1';
  // `localhost` is listened for on 127.0.0.1: the browser finds it there.
  const listenOn = hostname === '[::1]' || hostname === '::1' ? '::1' : '127.0.0.1';
  const path = options.redirect?.path ?? '/callback';
  const sockets = new Set<Socket>();
  let settle: { resolve: (code: string) => void; reject: (e: OAuthError) => void } | undefined;
  const code = new Promise<string>((resolve, reject) => {
    settle = { resolve, reject };
  });
  code.catch(() => undefined);
  let done = false;
  let port = options.redirect?.port ?? 0;
  const server = createServer((req, res) => answer(req, res));
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const close = () => {
    if (!done) finish(new OAuthError('the sign-in was stopped', 'cancelled'));
  };
  const finish = (outcome: string | OAuthError) => {
    if (done) return;
    done = true;
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    server.close();
    // The answer page is written before its socket is closed.
    setTimeout(() => {
      for (const s of sockets) s.destroy();
    }, 50).unref();
    if (typeof outcome === 'string') settle?.resolve(outcome);
    else settle?.reject(outcome);
  };
  const send = sendPage;
  function answer(req: IncomingMessage, res: ServerResponse): void {
    if (done) return send(res, 410, 'Gone', 'lpreq is not waiting for a sign-in here any more.');
    const expectedHost = `${hostname}:${port}`;
    const host = (req.headers.host ?? '').toLowerCase();
    // A page elsewhere can make the browser ask this port: only a request for the redirect's own host and path is read.
    if (
      req.method !== 'GET' ||
      (host !== expectedHost.toLowerCase() && !(port === 80 && host === hostname.toLowerCase()))
    )
      return send(res, 400, 'Not the sign-in', 'This is not the address lpreq waits on for a sign-in.');
    const url = new URL(req.url ?? '/', `http://${expectedHost}`);
    if (url.pathname !== path)
      return send(res, 404, 'Not found', 'lpreq waits for the sign-in at another path of this address.');
    const params = url.searchParams;
    if (!sameState(options.state, params.get('state'))) {
      send(res, 400, 'Sign-in refused', 'This answer is not for the sign-in lpreq started. Sign in again from lpreq.');
      finish(
        new OAuthError(
          'the answer to the sign-in did not carry the state lpreq sent: it is not the sign-in lpreq started, and nothing was exchanged',
          'state',
        ),
      );
      return;
    }
    const error = params.get('error');
    if (error !== null) {
      const words = plainText(params.get('error_description') ?? '', 200);
      send(res, 200, 'Sign-in not completed', 'The authorization server did not grant access. You can close this tab.');
      finish(
        new OAuthError(
          `the authorization server did not grant access: ${error.replace(/[^\w.-]/g, '').slice(0, 60)}${words ? `: ${words}` : ''}`,
          'denied',
        ),
      );
      return;
    }
    const value = params.get('code');
    if (value === null || value.length === 0) {
      send(res, 400, 'Sign-in refused', 'The answer carries no authorization code.');
      finish(new OAuthError('the answer to the sign-in carried no authorization code', 'denied'));
      return;
    }
    send(
      res,
      200,
      'Signed in',
      'lpreq has the authorization. You can close this tab and go back to your editor or terminal.',
    );
    finish(value);
  }
  const onAbort = () => finish(new OAuthError('the sign-in was cancelled', 'cancelled'));
  const timer = setTimeout(
    () =>
      finish(
        new OAuthError(
          `no answer came back to ${hostname}:${port}${path} within ${Math.round(options.timeoutMs / 1000)} s: the browser's sign-in was not completed (is this redirect address registered with the authorization server?)`,
          'timeout',
        ),
      ),
    options.timeoutMs,
  );
  timer.unref?.();
  await new Promise<void>((resolve, reject) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        new OAuthError(
          `lpreq cannot listen for the sign-in's answer on ${hostname}:${port}: ${e.code === 'EADDRINUSE' ? 'another program uses that port' : e.message}`,
          'config',
        ),
      );
    });
    server.listen(port, listenOn, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  if (options.signal?.aborted) onAbort();
  else options.signal?.addEventListener('abort', onAbort, { once: true });
  const shownHost = hostname.includes(':') && !hostname.startsWith('[') ? `[${hostname}]` : hostname;
  // A configured redirect is sent as written: the authorization server compares it with the one registered.
  return { redirectUri: options.redirect?.url ?? `http://${shownHost}:${port}${path}`, code, close };
}

/** The page the browser shows after the redirect: no cache, no referrer, nothing it may load. */
function sendPage(res: ServerResponse, status: number, title: string, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    connection: 'close',
  });
  res.end(PAGE(title, text));
}
