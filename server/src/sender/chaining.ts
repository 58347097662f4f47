/**
 * Request chaining (REST Client's request variables): `{{name.response.body.$.id}}` and
 * `{{name.response.headers.Location}}` read the newest exchange of the request named `name`
 * in the same file, sent in the same environment to the same base_url origin, when its answer
 * is one the request expects (`answerCounts`: a 2xx, or the status its own `?? status`
 * assertions ask for). This file finds which requests a block depends on, reads values out of
 * stored exchanges and tells which of two is the newest; sending the dependencies first is the
 * flow's job (send.ts). The command line has no memory between runs: the last exchange comes
 * from the history (`exchangeFromHistory`).
 */
import {
  assertionsOf,
  type Block,
  findVariableReferences,
  type LpreqDocument,
  type RequestReference,
  parseRequestReference,
  hasOwn,
  own,
} from '../core/index';
import { exactIntegers, stringifyExact } from './exactNumbers';
import type { ExchangeResult } from './exchange';
import type { HistoryEntry } from './history';
import type { PreparedRequest } from './prepare';
import { evaluateAssertion } from './runner/evaluate';
import { parseJsonPath } from './typed';

/** The last exchange of a named request. */
export interface StoredExchange {
  request: PreparedRequest;
  response: ExchangeResult;
  /** When its answer came (ISO 8601): the newer of a kept one and the history's is read. */
  time?: string;
}

/**
 * Last exchanges by request name, of one file in one environment: a test run keeps one per
 * file; the send session (session.ts) one per file, environment and base_url origin.
 */
export type ResponseStore = Map<string, StoredExchange>;

/**
 * Whether an answer is one a later request may read (REST Client reads any; lpreq reads only
 * what the request was sent for): a 2xx that arrived whole, or, for a request whose own
 * `?? status` assertions say which status it expects (`?? status == 400`, a request meant to
 * be refused), a status every one of them holds for. A status assertion whose EXPECTED holds a
 * `{{variable}}` is not read here: such a request chains on a 2xx only.
 */
export function answerCounts(
  block: Block | undefined,
  answer: { status: number | null; incomplete?: boolean; ok?: boolean },
): boolean {
  const { status } = answer;
  if (status === null || answer.incomplete) return false;
  const expected = block
    ? assertionsOf(block).flatMap((a) => (a.assertion?.field.kind === 'status' ? [a.assertion] : []))
    : [];
  if (expected.length === 0 || expected.some((a) => a.expected?.raw.includes('{{'))) {
    return status >= 200 && status < 300 && answer.ok !== false;
  }
  const facts = { status, durationMs: 0, headers: {}, body: null, bodyText: '', bodyKind: 'empty' as const };
  return expected.every((a) => evaluateAssertion(a, facts, a.expected?.text).passed);
}

/** An exchange as `answerCounts` reads it. */
export function answerOf(stored: StoredExchange): { status: number | null; incomplete: boolean; ok: boolean } {
  const r = stored.response;
  return {
    status: r.status,
    incomplete: r.error !== undefined && r.error.kind !== 'http',
    ok: r.ok,
  };
}

/** The newer of two stored exchanges (one without a time is the newer: it was just kept in this process). */
export function newer(a: StoredExchange | undefined, b: StoredExchange | undefined): StoredExchange | undefined {
  if (!a || !b) return a ?? b;
  if (a.time === undefined) return a;
  if (b.time === undefined) return b;
  return a.time >= b.time ? a : b;
}

/**
 * Reads a small JSONPath (`$`, `$.id`, `$[0].id`, `$.items[2].title`, `$.a.b`, `$["k"]`)
 * out of a value. `found` is false when the path does not exist or does not parse.
 */
export function selectJsonPath(value: unknown, path: string): { found: boolean; value?: unknown } {
  const segments = parseJsonPath(path);
  if (!segments) return { found: false };
  let cur = value;
  for (const seg of segments) {
    if (typeof seg === 'number') {
      if (!Array.isArray(cur) || seg >= cur.length) return { found: false };
      cur = cur[seg];
    } else {
      if (!cur || typeof cur !== 'object' || Array.isArray(cur) || !hasOwn(cur, seg)) return { found: false };
      cur = own(cur as Record<string, unknown>, seg);
    }
  }
  return { found: true, value: cur };
}

/** A value as it goes into a request: strings as they are, everything else as JSON. */
function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  return JSON.stringify(value);
}

function parseJsonText(text: string | undefined): unknown {
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The value a reference reads from a stored exchange, or why there is none. */
export function referenceValue(
  ref: RequestReference,
  stored: StoredExchange | undefined,
): { value: string } | { error: string } {
  const label = `{{${ref.name}.${ref.part}.${ref.source}${ref.selector === '*' ? '' : `.${ref.selector}`}}}`;
  if (!stored) return { error: `${label}: the request '${ref.name}' has no ${ref.part} yet` };
  if (ref.source === 'headers') {
    const wanted = ref.selector.toLowerCase();
    if (ref.part === 'response') {
      const value = own(stored.response.headers, wanted);
      return value === undefined
        ? { error: `${label}: the response of '${ref.name}' has no ${ref.selector} header` }
        : { value };
    }
    const header = stored.request.headers.find(([n]) => n.toLowerCase() === wanted);
    return header
      ? { value: header[1] }
      : { error: `${label}: the request '${ref.name}' has no ${ref.selector} header` };
  }
  const body = ref.part === 'response' ? stored.response.body : parseJsonText(stored.request.body?.text);
  const text = ref.part === 'response' ? stored.response.bodyText : (stored.request.body?.text ?? '');
  if (ref.selector === '*') return { value: text };
  if (!ref.selector.startsWith('$')) {
    return { error: `${label}: lpreq reads bodies with a JSONPath such as $.id or $[0].id` };
  }
  if (body === undefined || body === null || typeof body !== 'object') {
    return { error: `${label}: the ${ref.part} body of '${ref.name}' is not JSON` };
  }
  const selected = selectJsonPath(body, ref.selector);
  if (!selected.found) return { error: `${label}: ${ref.selector} is not in the ${ref.part} body of '${ref.name}'` };
  // An id beyond 2^53 goes on as the server wrote it, not as a JavaScript number rounds it.
  const exact = ref.part === 'response' ? stored.response.exactNumbers : exactIntegers(text);
  const segments = exact ? parseJsonPath(ref.selector) : undefined;
  if (exact && segments && typeof selected.value !== 'string')
    return { value: stringifyExact(selected.value, exact, 0, segments) };
  return { value: asText(selected.value) };
}

/**
 * A history entry as the last exchange of its request, for chaining (whether its answer
 * counts is `answerCounts`'s to say); or why it cannot be one: no response, or a body the
 * history did not keep whole.
 */
export function exchangeFromHistory(
  entry: HistoryEntry,
  blockIndex: number,
): { stored: StoredExchange } | { unusable: string } {
  if (entry.status === null) return { unusable: 'got no response' };
  if (entry.bodyCut || entry.bodyFile !== undefined) return { unusable: 'has a body too large to keep there' };
  const bodyText = entry.body ?? '';
  const body = parseJsonText(bodyText);
  const bodyKind = bodyText.length === 0 ? 'empty' : body === undefined ? 'text' : 'json';
  const request: PreparedRequest = {
    method: entry.request.method,
    url: entry.request.url,
    headers: entry.request.headers,
    ...(entry.request.body !== undefined
      ? { body: { contentType: entry.request.contentType ?? '', text: entry.request.body } }
      : {}),
    name: entry.name,
    title: entry.title,
    blockIndex,
    returns: entry.resource ?? null,
    paginated: false,
    paging: 'link',
    tokenOrigin: entry.baseOrigin,
  };
  const response: ExchangeResult = {
    ok: entry.ok,
    status: entry.status,
    statusText: '',
    headers: entry.responseHeaders,
    body: bodyKind === 'json' ? body : bodyKind === 'text' ? bodyText : null,
    ...(bodyKind === 'json' && exactIntegers(bodyText) ? { exactNumbers: exactIntegers(bodyText) } : {}),
    bodyText,
    bodyKind,
    bytes: bodyText.length,
    durationMs: entry.durationMs,
    timing: entry.timing ?? { totalMs: entry.durationMs },
    url: entry.url,
    redirects: [],
    tokenSent: false,
    warnings: [],
    ...(entry.error ? { error: entry.error } : {}),
  };
  return { stored: { request, response, time: entry.time } };
}

/**
 * The names of the requests that block `blockIndex` refers to, directly or through file
 * variables (`@moduleId = {{createModule.response.body.$.id}}`), in order of appearance.
 */
export function referencedRequests(document: LpreqDocument, blockIndex: number, values: Map<string, string>): string[] {
  const block = document.blocks[blockIndex]?.block;
  if (!block) return [];
  const names: string[] = [];
  const visited = new Set<string>();
  const scan = (text: string) => {
    for (const r of findVariableReferences(text, 0)) {
      const ref = parseRequestReference(r.expression);
      if (ref) {
        if (!names.includes(ref.name)) names.push(ref.name);
      } else if (!r.expression.startsWith('$') && !visited.has(r.expression)) {
        visited.add(r.expression);
        const value = values.get(r.expression);
        if (value !== undefined) scan(value);
      }
    }
  };
  // Only the request itself: the metadata and comment lines above it do not count.
  scan(block.request ? block.text.slice(block.request.start) : '');
  return names;
}
