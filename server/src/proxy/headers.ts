/**
 * Which headers the proxy passes on, in both directions. Hop-by-hop fields (RFC 9110 section
 * 7.6.1: `Connection` and every field it names, `Keep-Alive`, `Proxy-Connection`, `TE`,
 * `Transfer-Encoding`, `Upgrade`; and the proxy credentials of section 11.7, meant for the
 * first proxy) describe one connection and are not forwarded; each side's framing is its own.
 * `Host` names the target (the client's names the proxy). Absolute URLs of the target in
 * `Location` and `Link` are turned into the proxy's, so that a client following a redirect
 * within the API or the next page stays behind the proxy.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { own } from '../core';

const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-authorization',
  'proxy-authenticate',
  'http2-settings',
]);

/** The field names a `Connection` header lists (lower case): hop-by-hop too. */
function connectionOptions(values: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const v of values) for (const token of v.split(',')) if (token.trim()) out.add(token.trim().toLowerCase());
  return out;
}

/**
 * The request's header fields for the target, as a flat `[name, value, ...]` list in the
 * client's order and case. Without `Host` (undici writes the target's), `Expect` (the proxy
 * has answered `100 Continue` itself), and `Content-Length` when the body is sent from a
 * buffer (undici counts it); with the proxy added to `Via`, so that a proxy pointed at itself
 * is found (RFC 9110 section 7.6.3).
 */
export function requestHeadersForTarget(
  rawHeaders: readonly string[],
  options: { bufferedBody: boolean; via: string },
): string[] {
  const connection: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2)
    if (rawHeaders[i].toLowerCase() === 'connection') connection.push(rawHeaders[i + 1]);
  const named = connectionOptions(connection);
  const out: string[] = [];
  const via: string[] = [];
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = rawHeaders[i];
    const lower = name.toLowerCase();
    if (HOP_BY_HOP.has(lower) || named.has(lower) || lower === 'host' || lower === 'expect') continue;
    if (lower === 'content-length' && options.bufferedBody) continue;
    if (lower === 'via') {
      via.push(rawHeaders[i + 1]);
      continue;
    }
    out.push(name, rawHeaders[i + 1]);
  }
  out.push('Via', [...via, options.via].join(', '));
  return out;
}

/** Whether a request has come through this proxy already (its own pseudonym in `Via`). */
export function cameThrough(headers: IncomingHttpHeaders, via: string): boolean {
  const value = headers.via;
  return typeof value === 'string' && value.split(',').some((v) => v.trim() === via);
}

/**
 * The target's response header fields for the client, as a flat list: hop-by-hop fields out,
 * a `Lpreq-Violations` of the target's own out (the proxy's is the one that counts), and
 * the target's absolute URLs in `Location` and `Link` rewritten by `rewrite`.
 */
export function responseHeadersForClient(headers: IncomingHttpHeaders, rewrite: (url: string) => string): string[] {
  const connection = headers.connection;
  const named = connectionOptions(
    connection === undefined ? [] : Array.isArray(connection) ? connection : [connection],
  );
  const out: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || named.has(name) || name === 'lpreq-violations') continue;
    for (const v of Array.isArray(value) ? value : [value]) {
      out.push(
        name,
        name === 'location'
          ? rewrite(v)
          : name === 'link'
            ? v.replace(/<([^>]*)>/g, (_, url: string) => `<${rewrite(url)}>`)
            : v,
      );
    }
  }
  return out;
}

/** The value of a response header as one string (repeated fields joined), or undefined. */
export function headerText(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = own(headers as Record<string, string | string[] | undefined>, name);
  return v === undefined ? undefined : Array.isArray(v) ? v.join(', ') : v;
}
