/**
 * What an answer says about its own exchange, in a header (`Lpreq-Warnings` of the mock,
 * `Lpreq-Violations` of the proxy), and what a request log line may show of a request.
 *
 * The header is compact JSON, an array of `{"code":"...","parameter":"..."}` (a request's
 * problem) or `{"code":"...","path":"$[0].x"}` (a response body's), each pair once, in the
 * order found. It is ASCII only (any other character as a JSON `\u` escape) and at most
 * MAX_HEADER_LENGTH characters: when the list does not fit, the entries that fit come
 * first and a last entry `{"omitted":N}` says how many were left out. A name or path longer
 * than MAX_NAME_LENGTH is cut and ends in `...`. The value is always valid JSON.
 */

export interface Violation {
  code: string;
  /** The request parameter it is about, as sent (decoded). */
  parameter?: string;
  /** A JSON path into the response body (`$[0].items_count`). */
  path?: string;
}

/** Prism's `sl-violations` stops near 8 KB; half of that leaves room for the other headers under a client's 16 KB limit. */
export const MAX_HEADER_LENGTH = 4096;
const MAX_NAME_LENGTH = 200;
/** Room kept for the `,{"omitted":N}` entry. */
const OMITTED_ROOM = 24;

/** JSON with every character outside printable ASCII as a `\u` escape: a header value carries bytes, and a client decodes them as Latin-1, not UTF-8. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function cut(text: string): string {
  return text.length > MAX_NAME_LENGTH ? `${text.slice(0, MAX_NAME_LENGTH - 3)}...` : text;
}

/** The header value of a list of violations, or undefined when there is none. */
export function violationsHeader(violations: readonly Violation[]): string | undefined {
  if (violations.length === 0) return undefined;
  const seen = new Set<string>();
  const entries: string[] = [];
  for (const v of violations) {
    const entry: Violation = { code: v.code };
    if (v.parameter !== undefined) entry.parameter = cut(v.parameter);
    if (v.path !== undefined) entry.path = cut(v.path);
    const text = asciiJson(entry);
    if (seen.has(text)) continue;
    seen.add(text);
    entries.push(text);
  }
  let length = 2;
  let kept = 0;
  for (const e of entries) {
    const more = e.length + (kept > 0 ? 1 : 0);
    const room = kept + 1 === entries.length ? MAX_HEADER_LENGTH : MAX_HEADER_LENGTH - OMITTED_ROOM;
    if (length + more > room) break;
    length += more;
    kept++;
  }
  const shown = entries.slice(0, kept);
  if (kept < entries.length) shown.push(`{"omitted":${entries.length - kept}}`);
  return `[${shown.join(',')}]`;
}

const MAX_LOGGED_PATH = 300;
const MAX_LOGGED_QUERY = 200;

/**
 * A request target as a log line may show it: the path as sent and the names of the query's
 * parameters, without their values (`/api/v1/courses?include[]&per_page`). A query value may
 * be a secret (`access_token=` is how some clients send the token), a student's name in a
 * `search_term`, or a password reset code, and a request log ends up in CI logs and bug
 * reports; the warnings beside it name the parameters they are about.
 */
export function logTarget(target: string): string {
  const q = target.indexOf('?');
  const rawPath = q === -1 ? target : target.slice(0, q);
  const path = rawPath.length > MAX_LOGGED_PATH ? `${rawPath.slice(0, MAX_LOGGED_PATH - 3)}...` : rawPath;
  if (q === -1) return path;
  const names: string[] = [];
  const seen = new Set<string>();
  for (const part of target.slice(q + 1).split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = safeDecode((eq === -1 ? part : part.slice(0, eq)).replace(/\+/g, ' '));
    if (seen.has(name)) continue;
    seen.add(name);
    names.push(name);
  }
  if (names.length === 0) return path;
  const query = names.join('&');
  return `${path}?${query.length > MAX_LOGGED_QUERY ? `${query.slice(0, MAX_LOGGED_QUERY - 3)}...` : query}`;
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
