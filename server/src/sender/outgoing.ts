/**
 * What leaves the machine on one hop: the origin it is connected to and authenticated as,
 * whether the token may go there, and the one check of every part of it for secrets that
 * may not.
 */
import type { PreparedRequest } from './prepare';
import { carriesSecret } from './secrets';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function isLoopback(hostname: string): boolean {
  return LOOPBACK.has(hostname.toLowerCase());
}

/** A body's text as sent: a body file's own bytes when it has them. */
export function bodyText(body: NonNullable<PreparedRequest['body']>): string {
  return body.bytes
    ? Buffer.from(body.bytes.buffer, body.bytes.byteOffset, body.bytes.byteLength).toString('utf8')
    : body.text;
}

/** A header that names the server a request is for: undici takes the TLS server name and the certificate check from it. */
export function namesServer(name: string): boolean {
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
export function tokenAllowed(
  url: string,
  tokenOrigin: string | undefined,
  headers: readonly (readonly [string, string])[] = [],
): boolean {
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
