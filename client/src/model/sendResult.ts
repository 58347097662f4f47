/**
 * A sender result (or a history entry) as the summary both response views show. Pure.
 *
 * Every text of it passes `scrub` (the sender's scrubber with the token and the secrets of
 * the flow), as the command line's output does: a server that echoes the token in a body,
 * a header or an error message does not put it on screen.
 */
import {
  apiErrorMessage,
  apiErrorMessages,
  noResponse,
  parseLinkHeader,
  type HistoryEntry,
  type SendResult,
} from '../../../server/src/sender/index';
import { setOwn } from '../../../server/src/core/index';
import { reasonPhrase } from './reasons';
import type { ResponseSummary } from './responseTree';

export type Scrub = (text: string) => string;

/** Every string of a plain value (names of members included) through `scrub`. */
function scrubDeep<T>(value: T, scrub: Scrub): T {
  if (typeof value === 'string') return scrub(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => scrubDeep(v, scrub)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) setOwn(out, scrub(k), scrubDeep(v, scrub));
    return out as T;
  }
  return value;
}

/**
 * The summary with every text scrubbed. The body's text is scrubbed as text, and a JSON body
 * that carried a secret is parsed again from the scrubbed text, so that the tree, Copy Value
 * and the raw body agree.
 */
function scrubSummary(summary: ResponseSummary, scrub: Scrub): ResponseSummary {
  const { body, bodyText, ...rest } = summary;
  const out = { ...scrubDeep(rest, scrub), body, bodyText } as ResponseSummary;
  const clean = scrub(bodyText);
  if (clean !== bodyText) {
    out.bodyText = clean;
    if (summary.bodyKind === 'json') {
      try {
        out.body = JSON.parse(clean);
      } catch {
        // A secret written so that its *** breaks the JSON: the body is shown as text.
        out.body = clean;
        out.bodyKind = 'text';
      }
    } else if (typeof body === 'string') out.body = clean;
  }
  return out;
}

/**
 * Whether an answer is one page of several (a `Link: rel="next"`, or the webhook list's
 * `EndKey`), and which page it is (the `page` of its URL, 1 without one); undefined for the
 * last or only page.
 */
export function morePagesOf(
  url: string,
  headers: Record<string, string>,
  paging: 'link' | 'start-key' | undefined,
): { page?: number } | undefined {
  const endKey = headers.endkey;
  if (paging !== 'link' && endKey !== undefined && endKey.length > 0) return {};
  if (paging === 'start-key' || !parseLinkHeader(headers.link).next) return undefined;
  let page = 1;
  try {
    const given = new URL(url).searchParams.get('page');
    if (given !== null && /^\d{1,9}$/.test(given)) page = Number(given);
  } catch {
    // Not a URL: the first page, as a list without `page` is.
  }
  return { page };
}

export function summaryFromSend(
  result: SendResult,
  fallback: { method: string; url: string },
  scrub: Scrub,
  assertions?: ResponseSummary['assertions'],
): ResponseSummary {
  const raw = rawSummary(result, fallback);
  // Scrubbed with the rest: an actual value or a resolved EXPECTED may hold what the server echoed.
  if (assertions && assertions.length > 0)
    raw.assertions = assertions.map(({ line, text, passed, expected, actual, message }) => ({
      line,
      text,
      passed,
      expected,
      actual,
      message,
    }));
  return scrubSummary(raw, scrub);
}

function rawSummary(result: SendResult, fallback: { method: string; url: string }): ResponseSummary {
  const r = result.response;
  const method = result.request?.method ?? fallback.method;
  const url = r?.url || result.request?.url || fallback.url;
  if (!r) {
    return {
      method,
      url,
      ...noResponse(),
      resource: null,
      issues: [],
      error: result.error
        ? { kind: result.error.kind, message: result.error.message }
        : { kind: 'network', message: 'nothing was sent' },
      warnings: result.warnings,
    };
  }
  const failed = r.status !== null && (r.status < 200 || r.status >= 300);
  return {
    method,
    url,
    status: r.status,
    statusText: r.statusText || reasonPhrase(r.status),
    headers: r.headers,
    body: r.body,
    bodyText: r.bodyText,
    bodyKind: r.bodyKind,
    contentType: r.contentType,
    bytes: r.bytes,
    durationMs: r.durationMs,
    resource: result.resource,
    issues: result.issues,
    error: result.error ? { kind: result.error.kind, message: result.error.message } : undefined,
    apiError: failed ? apiErrorMessage(r.body, r.contentType) : undefined,
    apiErrors: failed ? apiErrorMessages(r.body, r.contentType) : undefined,
    truncated: r.truncated,
    pages: r.pages > 1 || r.incomplete ? r.pages : undefined,
    incomplete: r.incomplete,
    morePages: r.pages <= 1 && !r.incomplete ? morePagesOf(r.url || url, r.headers, result.request?.paging) : undefined,
    warnings: result.warnings,
    timing: r.timing,
    redirects: r.redirects.map(({ status, from, to }) => ({ status, from, to })),
    tokenSent: r.tokenSent,
    authorizationWritten: r.authorizationWritten,
    sent: result.request
      ? {
          headers: result.request.headers.map(([n, v]) => [n, v]),
          body: result.request.body?.text,
          contentType: result.request.body?.contentType,
        }
      : undefined,
  };
}

/** A stored exchange, shown again: the body is parsed back when it is JSON. */
export function summaryFromHistory(entry: HistoryEntry, scrub: Scrub): ResponseSummary {
  return scrubSummary(rawHistorySummary(entry), scrub);
}

function rawHistorySummary(entry: HistoryEntry): ResponseSummary {
  const text = entry.body ?? '';
  let body: unknown = text;
  let bodyKind: ResponseSummary['bodyKind'] = text.length === 0 ? 'empty' : 'text';
  if (text.length > 0 && !entry.bodyCut) {
    try {
      body = JSON.parse(text);
      bodyKind = 'json';
    } catch {
      // Not JSON: shown as text.
    }
  }
  const failed = entry.status !== null && (entry.status < 200 || entry.status >= 300);
  const contentType = entry.responseHeaders?.['content-type'];
  return {
    method: entry.method,
    url: entry.url,
    status: entry.status,
    statusText: reasonPhrase(entry.status),
    headers: entry.responseHeaders ?? {},
    body,
    bodyText: text,
    bodyKind,
    contentType,
    bytes: Buffer.byteLength(text),
    durationMs: entry.durationMs,
    resource: entry.resource ?? null,
    issues: entry.issues ?? [],
    error: entry.error,
    apiError: failed && !entry.bodyCut ? apiErrorMessage(body, contentType) : undefined,
    apiErrors: failed && !entry.bodyCut ? apiErrorMessages(body, contentType) : undefined,
    morePages: entry.pages === undefined ? morePagesOf(entry.url, entry.responseHeaders ?? {}, undefined) : undefined,
    warnings: entry.bodyCut ? ['the stored body was cut; open the raw body for what was kept'] : [],
    timing: entry.timing,
    sent: { headers: entry.request.headers, body: entry.request.body, contentType: entry.request.contentType },
  };
}
