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
function hopOrigin(url: URL, headers: readonly (readonly [string, string])[]): string | undefined {
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

/** The secrets of an exchange: the token, those that go where it goes, and those that go nowhere. */
export interface HopSecrets {
  /** The access token; it goes only to `tokenOrigin`. */
  token?: string;
  /** Secrets that go where the token goes (or, with no environment to say where, to the origin the request was written for). */
  secrets?: readonly (string | undefined)[];
  /** Secrets that go nowhere (the other environments' tokens). */
  foreignSecrets?: readonly (string | undefined)[];
}

/** What one hop may carry, decided before a byte of it is sent (planHop). */
export interface HopPlan {
  /** The origin the hop is connected to and authenticated as; undefined for another server, named by a Host header. */
  origin: string | undefined;
  /** Why the hop may not go at all (the method, the URL or the body carries a secret it may not), in words. */
  refused?: string;
  /** The headers that go, in order, as written (the token's own `Authorization` is not among them). */
  headers: [string, string][];
  /** A token is given and may go to this hop's origin. */
  tokenMayGo: boolean;
  /** The token goes as `Authorization: Bearer`: it may go here, and the request wrote no Authorization of its own. */
  addToken: boolean;
  /** The token goes with the hop, added or in the request's own Authorization. */
  tokenSent: boolean;
  /** The request's own Authorization goes with the hop. */
  authorizationWritten: boolean;
  /** What the user should know: the token or a header left out, and why. */
  warnings: string[];
}

/**
 * The one decision of what a hop carries, for the exchange and for every copy of a request
 * (Copy as cURL, Generate Code), so that a copy sends what the sender would: the token only to
 * base_url's origin, connected to as itself; the secrets that go where it goes likewise (with no
 * environment to say where, to the origin the request was written for); the other
 * environments' nowhere; a written Authorization or Cookie only to the origin the request was
 * written for. `hop.index` 0 is the request itself, later ones its redirects (a Host header
 * written for the first URL does not go to another origin).
 */
export function planHop(
  prepared: Pick<PreparedRequest, 'url' | 'headers' | 'tokenOrigin'>,
  hop: { index: number; method: string; url: string; body?: string },
  given: HopSecrets,
): HopPlan {
  const plan: HopPlan = {
    origin: undefined,
    headers: [],
    tokenMayGo: false,
    addToken: false,
    tokenSent: false,
    authorizationWritten: false,
    warnings: [],
  };
  let parsed: URL;
  let firstOrigin: string;
  try {
    parsed = new URL(hop.url);
    firstOrigin = new URL(prepared.url).origin;
  } catch {
    plan.refused = `${hop.url} is not a URL`;
    return plan;
  }
  const token = given.token !== undefined && given.token.length > 0 ? given.token : undefined;
  const secrets = given.secrets ?? [];
  const hopHeaders =
    parsed.origin === firstOrigin ? prepared.headers : prepared.headers.filter(([n]) => !namesServer(n));
  const origin = hopOrigin(parsed, hopHeaders);
  plan.origin = origin;
  const where = origin ?? `the server its Host header names (not ${parsed.host})`;
  const tokenHere = prepared.tokenOrigin !== undefined && origin === prepared.tokenOrigin;
  // Credentials the user wrote go to the origin the request was written for.
  const sameOrigin = origin !== undefined && origin === firstOrigin;
  // Other secrets (a password prompt's answer) go where the token may go; with no
  // environment to say where that is, to the origin the request was written for.
  const secretsHere = prepared.tokenOrigin ? tokenHere : sameOrigin;
  // Another environment's token goes nowhere, whatever else says it may (unless it is the token itself).
  const foreign = (given.foreignSecrets ?? []).filter((s) => s !== token);
  const notHere = [...(tokenHere ? [] : [token]), ...(secretsHere ? [] : secrets), ...foreign];
  const check = checkOutgoing({ method: hop.method, url: hop.url, headers: hopHeaders, body: hop.body }, notHere);
  if (check.refuse) {
    const bound = prepared.tokenOrigin
      ? `the token goes only to the origin of base_url (${prepared.tokenOrigin})`
      : 'no environment with a base_url says where the token may go';
    plan.refused = `the ${check.refuse} carries the access token or a secret, and ${where} may not receive it (${bound})`;
    return plan;
  }
  const sendToken = token !== undefined && tokenHere;
  plan.tokenMayGo = sendToken;
  if (sendToken && parsed.protocol === 'http:' && !isLoopback(parsed.hostname)) {
    plan.warnings.push(`the token is sent over plain http to ${parsed.host}: anyone on the way can read it; use https`);
  }
  if (token !== undefined && !sendToken && hop.index === 0) {
    plan.warnings.push(
      origin === undefined
        ? `the token is not sent: the request's Host header names another server than ${parsed.host}, and the token goes only to the origin of base_url, connected to as itself`
        : prepared.tokenOrigin
          ? `the token is not sent: ${parsed.origin} is not the origin of base_url (${prepared.tokenOrigin})`
          : 'the token is not sent: it goes only to the base_url of the selected environment (http-client.env.json), and none is selected or it has no base_url',
    );
  }
  const written: string[] = [];
  hopHeaders.forEach(([name, value], i) => {
    const lower = name.toLowerCase();
    // Credentials the user wrote stay with the first origin, like the token.
    if (!sameOrigin && (lower === 'authorization' || lower === 'cookie')) return;
    if (check.drop.has(i)) {
      // A header whose name is the secret is not named.
      const which = carriesSecret(name, [token, ...secrets, ...foreign]) ? 'a header whose name' : `the header ${name}`;
      plan.warnings.push(
        `${which} carries the access token or a secret and is not sent to ${where}${prepared.tokenOrigin ? ` (the token belongs to ${prepared.tokenOrigin})` : ''}`,
      );
      return;
    }
    if (lower === 'authorization') written.push(value);
    plan.headers.push([name, value]);
  });
  // An Authorization header written in the request wins over the token: the user chose it
  // for this request (another scheme, another user's token, a test of a bad one).
  const authorization = written.length > 0 ? written.join(', ') : undefined;
  const writtenIsToken =
    authorization !== undefined &&
    token !== undefined &&
    (carriesSecret(authorization, [token]) || authorization.trim() === `Bearer ${token}`);
  if (authorization !== undefined && sendToken && hop.index === 0 && !writtenIsToken) {
    plan.warnings.push("the request's own Authorization header is sent, and the token is not added");
  }
  plan.addToken = sendToken && authorization === undefined;
  plan.tokenSent = sendToken && (authorization === undefined || writtenIsToken);
  plan.authorizationWritten = authorization !== undefined;
  return plan;
}

/** A copy of a request was not made: it would send what the sender refuses to send (the reason is the message). */
export class CopyRefused extends Error {}

/** Stands for the token when a copy is planned without one: the copy reads it from LPREQ_TOKEN when it runs, wherever the sender would send it. */
const ANY_TOKEN = '\u0000lpreq: the token\u0000';

/**
 * What a copy of a request (Copy as cURL, Generate Code) sends: what the sender would send on
 * its first hop, decided by the same planHop. Throws CopyRefused, with the sender's reason,
 * when the sender would send nothing.
 */
export function planCopy(prepared: PreparedRequest, given: HopSecrets): HopPlan {
  const plan = planHop(
    prepared,
    { index: 0, method: prepared.method, url: prepared.url, body: prepared.body ? bodyText(prepared.body) : undefined },
    { ...given, token: given.token !== undefined && given.token.length > 0 ? given.token : ANY_TOKEN },
  );
  if (plan.refused !== undefined) throw new CopyRefused(`lpreq would not send this request: ${plan.refused}`);
  return plan;
}
