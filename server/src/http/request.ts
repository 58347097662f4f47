/**
 * An HTTP request read as the checker reads a request block, in the steps both the mock and
 * the proxy take: the target routed with the checker's matcher, the body decoded by its
 * declared type and charset into parameter pairs (or kept as JSON), and the whole checked.
 * A step that cannot go on says how the mock answers (status, code, message); the proxy
 * turns the same refusal into a violation or a note.
 */
import { TextDecoder } from 'node:util';
import type { Checker, Endpoint, MatchResult } from '../core';
import { targetPath } from '../core';
import { checkHttpRequest, type RequestCheck } from './check';
import { flatten, type Pair } from './pairs';

/**
 * More parameters than this in one request are refused with 400: checking is linear, but
 * a 10 MB form of `&a=1` (two million pairs) would still hold every other client for seconds.
 */
export const MAX_PARAMETERS = 100_000;
/** JSON nested deeper than this is refused with 400 (Rails' JSON parser stops at 100 too). */
const MAX_JSON_DEPTH = 100;

/** Why a request cannot be read further, as the mock answers it. */
export interface Refusal {
  status: number;
  problem: { message: string; code: string };
  headers?: Record<string, string>;
}

export type Route =
  | {
      kind: 'matched';
      /** The method as matched: HEAD is GET's. */
      method: string;
      url: URL;
      match: Extract<MatchResult, { kind: 'matched' }>;
      /** The path as the checker sees it: segments decoded, so `%7Bcourse_id%7D` is an unfilled placeholder. */
      checkedPath: string;
    }
  | ({ kind: 'refused' } & Refusal);

/** The request target as a URL (only its path and query are read), or undefined when it is none. */
export function requestUrl(target: string): URL | undefined {
  try {
    return new URL(target, 'http://request.invalid');
  } catch {
    return undefined;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** The documented endpoint of a method and path, or the 404 or 405 that says there is none. */
export function routeRequest(checker: Checker, method: string, url: URL): Route {
  const rawPath = url.pathname;
  const target = targetPath(rawPath, () => undefined);
  if (!target)
    return { kind: 'refused', status: 404, problem: { message: `no such path: ${rawPath}`, code: 'unknown-endpoint' } };
  const matchMethod = method === 'HEAD' ? 'GET' : method;
  const match = checker.matcher.match(target, matchMethod);
  if (match.kind === 'not-checked' || match.kind === 'unknown-endpoint') {
    return {
      kind: 'refused',
      status: 404,
      problem: {
        message: `no documented endpoint matches ${rawPath}${match.kind === 'unknown-endpoint' && match.near ? ` (nearest documented path: ${match.near})` : ''}`,
        code: 'unknown-endpoint',
      },
    };
  }
  if (match.kind === 'method-not-allowed') {
    const allow = [...match.allowed, ...(match.allowed.includes('GET') ? ['HEAD'] : [])].join(', ');
    return {
      kind: 'refused',
      status: 405,
      problem: {
        message: `${method} is not documented for ${match.templates.join(', ')}; documented: ${match.allowed.join(', ')}`,
        code: 'method-not-allowed',
      },
      headers: { Allow: allow },
    };
  }
  const checkedPath = target.segments.map((s) => {
    const d = safeDecode(s.text);
    return d.includes('/') ? s.text : d;
  });
  return { kind: 'matched', method: matchMethod, url, match, checkedPath: `/${checkedPath.join('/')}` };
}

/** A body as the checker reads it: form pairs (or JSON spelled as pairs), or the JSON text of an endpoint that takes JSON. */
export type DecodedBody =
  { kind: 'decoded'; pairs: Pair[]; json?: unknown; jsonText?: string } | ({ kind: 'refused' } & Refusal);

/** Whether a Content-Type is one `decodeBody` reads (form, JSON, or none declared). */
export function isCheckedBodyType(contentType: string): boolean {
  const type = mediaType(contentType);
  return (
    type === '' || type === 'application/x-www-form-urlencoded' || type === 'application/json' || type.endsWith('+json')
  );
}

function mediaType(contentType: string): string {
  return contentType.split(';')[0].trim().toLowerCase();
}

/** Reads a request body by its declared type and charset. */
export function decodeBody(endpoint: Endpoint, contentType: string, bytes: Buffer): DecodedBody {
  if (bytes.length === 0) return { kind: 'decoded', pairs: [] };
  const type = mediaType(contentType);
  const charset = charsetOf(contentType);
  const decoder = charset === undefined ? undefined : textDecoder(charset);
  if (decoder === null) {
    return refused(
      415,
      `the charset ${charset ?? ''} cannot be decoded: send UTF-8, or a single-byte charset such as ISO-8859-1 or windows-1252`,
      'unsupported-charset',
    );
  }
  const text = decoder && decoder.encoding !== 'utf-8' ? decoder.decode(bytes) : bytes.toString('utf8');
  if (type === 'application/json' || type.endsWith('+json')) {
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      return refused(400, `the body is not valid JSON: ${(e as Error).message}`, 'invalid-json');
    }
    if (jsonDepth(json) > MAX_JSON_DEPTH)
      return refused(400, `the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`, 'invalid-json');
    if (endpoint.body === 'json') return { kind: 'decoded', pairs: [], json, jsonText: text };
    if (json === null || typeof json !== 'object' || Array.isArray(json))
      return refused(400, 'a JSON body must be an object of parameters', 'invalid-json');
    const pairs = flatten(json, '', [], MAX_PARAMETERS);
    if (pairs.length > MAX_PARAMETERS) return tooManyParameters();
    return { kind: 'decoded', pairs, json };
  }
  if (type === 'application/x-www-form-urlencoded' || type === '') {
    if (countOf(text, '&') >= MAX_PARAMETERS) return tooManyParameters();
    // Percent-escapes stand for bytes of the declared charset (Caf%E9 is Café in ISO-8859-1).
    return {
      kind: 'decoded',
      pairs: decoder && decoder.encoding !== 'utf-8' ? decodeForm(bytes, decoder) : [...new URLSearchParams(text)],
    };
  }
  return refused(
    415,
    `content type ${type} is not accepted: send form fields as application/x-www-form-urlencoded, or JSON as application/json`,
    'unsupported-media-type',
  );
}

export interface CheckedRequest extends RequestCheck {
  /** The pairs the checker read, in order: the query's, then the body's (the body's alone for an endpoint that takes JSON). */
  pairs: Pair[];
}

/** Checks a routed request with its query and decoded body; more than MAX_PARAMETERS pairs in all are refused. */
export function checkRequest(
  checker: Checker,
  route: Extract<Route, { kind: 'matched' }>,
  queryPairs: Pair[],
  body: Extract<DecodedBody, { kind: 'decoded' }>,
): CheckedRequest | ({ kind: 'refused' } & Refusal) {
  if (queryPairs.length + body.pairs.length > MAX_PARAMETERS) return tooManyParameters();
  const json = route.match.endpoint.body === 'json';
  const pairs = json ? body.pairs : [...queryPairs, ...body.pairs];
  const check = checkHttpRequest(checker, {
    method: route.method,
    path: route.checkedPath,
    pairs,
    jsonBody: json ? body.jsonText : undefined,
  });
  return { ...check, pairs };
}

function refused(status: number, message: string, code: string): { kind: 'refused' } & Refusal {
  return { kind: 'refused', status, problem: { message, code } };
}

function tooManyParameters(): { kind: 'refused' } & Refusal {
  return refused(400, `the request has more than ${MAX_PARAMETERS} parameters`, 'too-many-parameters');
}

function countOf(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i >= 0; i = text.indexOf(char, i + 1)) n++;
  return n;
}

/** How deep a parsed JSON value nests, found without recursion (the value may be nested past the stack). */
function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) max = depth + 1;
    if (max > MAX_JSON_DEPTH) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>))
      stack.push([child, depth + 1]);
  }
  return max;
}

/** The `charset` parameter of a Content-Type, when there is one. */
function charsetOf(contentType: string): string | undefined {
  const m = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  return m ? (m[1] ?? m[2]).trim() : undefined;
}

interface Decoder {
  encoding: string;
  decode(bytes: Uint8Array): string;
}

/**
 * A decoder for a declared charset, or null when it cannot be decoded: unknown, or not
 * ASCII-compatible (UTF-16), where the `&`, `=` and `%` of a form body are not single bytes.
 * WHATWG decoders read ISO-8859-1, latin1 and US-ASCII as windows-1252, as browsers do.
 */
function textDecoder(charset: string): Decoder | null {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    return null;
  }
  if (decoder.encoding.startsWith('utf-16')) return null;
  // Node's windows-1252 decoder is ISO-8859-1 (0x80 stays U+0080), so its 32 differences are mapped here.
  if (decoder.encoding === 'windows-1252')
    return {
      encoding: decoder.encoding,
      decode: (bytes) =>
        Buffer.from(bytes)
          .toString('latin1')
          .replace(/[\x80-\x9f]/g, (c) => WINDOWS_1252[c.charCodeAt(0) - 0x80]),
    };
  return { encoding: decoder.encoding, decode: (bytes) => decoder.decode(bytes) };
}

/** windows-1252 at 0x80 to 0x9F (WHATWG Encoding); the five unassigned bytes stay as they are. */
const WINDOWS_1252 = [
  ...'\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178',
];

/** A form body whose escapes and bytes are of a charset other than UTF-8. */
function decodeForm(bytes: Buffer, decoder: Decoder): Pair[] {
  const pairs: Pair[] = [];
  // One character per byte, so that the split never cuts a byte sequence.
  for (const part of bytes.toString('latin1').split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    pairs.push(
      eq === -1
        ? [decodeComponent(part, decoder), '']
        : [decodeComponent(part.slice(0, eq), decoder), decodeComponent(part.slice(eq + 1), decoder)],
    );
  }
  return pairs;
}

function decodeComponent(s: string, decoder: Decoder): string {
  const out = Buffer.allocUnsafe(s.length);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2b) out[n++] = 0x20;
    else if (c === 0x25 && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      out[n++] = parseInt(s.slice(i + 1, i + 3), 16);
      i += 2;
    } else out[n++] = c;
  }
  return decoder.decode(out.subarray(0, n));
}
