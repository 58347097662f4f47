/**
 * Pagination: list endpoints return one page per request (api-docs A, convention 7). The
 * next page is in the `Link` header (`rel="next"`), or, for the webhook subscription list,
 * fetched by sending a `StartKey` header holding the previous response's `EndKey`.
 * `sendAllPages` follows them up to a limit and merges the pages into one body.
 */
import { sendPrepared, type ExchangeOptions, type ExchangeResult } from './exchange';
import { shiftExact, stringifyExact } from './exactNumbers';
import type { PreparedRequest } from './prepare';
import { hasOwn, own, setOwn } from '../core/index';
import { formatJsonPath } from './typed';

export interface PageProgress {
  /** 1-based number of the page just read. */
  page: number;
  /** Items merged so far. */
  items: number;
  url: string;
}

export interface PagingOptions extends ExchangeOptions {
  /** Stop after this many pages (default 100); the result then says so. */
  maxPages?: number;
  onPage?: (progress: PageProgress) => void;
  /** The request alone, as Send Request sends it: the first page is the answer, complete as it is. */
  onePage?: boolean;
}

export interface PagedResult extends ExchangeResult {
  /** Pages read. */
  pages: number;
  /** Why reading stopped before the last page, when it did. */
  incomplete?: 'page-limit' | 'cancelled' | 'failed' | 'repeated';
}

const DEFAULT_MAX_PAGES = 100;

/** Headers of one page that would misdescribe merged pages: its length and its links to other pages. */
const PAGE_ONLY_HEADERS: ReadonlySet<string> = new Set(['content-length', 'link', 'endkey', 'content-range', 'etag']);

/** Parses a Link header into rel -> URL (`<https://...?page=2>; rel="next", <...>; rel="last"`). */
export function parseLinkHeader(value: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!value) return out;
  const re = /<([^>]*)>((?:\s*;\s*[^;,]+)*)/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(value)) !== null) {
    const rel = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(m[2]);
    if (!rel) continue;
    for (const name of rel[1].trim().split(/\s+/))
      if (!hasOwn(out, name.toLowerCase())) setOwn(out, name.toLowerCase(), m[1]);
  }
  return out;
}

/** What the next request is, after a response; undefined on the last page. */
function nextPage(
  prepared: PreparedRequest,
  current: PreparedRequest,
  response: ExchangeResult,
): PreparedRequest | undefined {
  if (prepared.paging === 'start-key') {
    const endKey = response.headers.endkey;
    if (!endKey || endKey.length === 0) return undefined;
    const previous = current.headers.find(([n]) => n.toLowerCase() === 'startkey')?.[1];
    if (previous === endKey) return undefined;
    const headers = prepared.headers.filter(([n]) => n.toLowerCase() !== 'startkey');
    return { ...prepared, headers: [...headers, ['StartKey', endKey]] };
  }
  const next = parseLinkHeader(response.headers.link).next;
  if (!next) return undefined;
  let url: string;
  try {
    url = new URL(next, response.url).toString();
  } catch {
    return undefined;
  }
  // The Link URL already carries the query of the list; a form body is never repeated.
  return { ...prepared, method: 'GET', url, body: undefined };
}

/** `1 page`, `2 pages`. */
function pageCount(n: number): string {
  return `${n} page${n === 1 ? '' : 's'}`;
}

/** The items of one page: the array itself, or the arrays of a wrapper (`{grading_periods: [...]}`). */
function countItems(body: unknown): number {
  if (Array.isArray(body)) return body.length;
  if (body && typeof body === 'object') {
    return Object.values(body as Record<string, unknown>).reduce<number>(
      (n, v) => n + (Array.isArray(v) ? v.length : 0),
      0,
    );
  }
  return 0;
}

/**
 * Merges a page into what came before: arrays are joined; in a wrapper object every array
 * member is joined and the other members are those of the first page. Returns undefined
 * when the pages do not have the same shape.
 */
export function mergePages(merged: unknown, page: unknown): unknown {
  if (Array.isArray(merged) && Array.isArray(page)) return [...merged, ...page];
  if (
    merged &&
    page &&
    typeof merged === 'object' &&
    typeof page === 'object' &&
    !Array.isArray(merged) &&
    !Array.isArray(page)
  ) {
    const out: Record<string, unknown> = { ...(merged as Record<string, unknown>) };
    for (const [k, v] of Object.entries(page as Record<string, unknown>)) {
      const before = own(out, k);
      if (Array.isArray(before) && Array.isArray(v)) setOwn(out, k, [...before, ...v]);
      else if (!hasOwn(out, k)) setOwn(out, k, v);
    }
    return out;
  }
  return undefined;
}

/**
 * Sends a request and every following page, up to `maxPages`. The result is the first
 * page's response with the merged body; `pages` counts what was read, and a page that
 * failed, a cancellation or the limit leaves `incomplete` set with what was read so far.
 */
export async function sendAllPages(prepared: PreparedRequest, options: PagingOptions = {}): Promise<PagedResult> {
  const maxPages = Math.max(1, options.maxPages ?? DEFAULT_MAX_PAGES);
  const first = await sendPrepared(prepared, options);
  const result: PagedResult = { ...first, pages: 1 };
  if (!first.ok || first.bodyKind !== 'json') return result;
  let merged = first.body;
  let exact = first.exactNumbers;
  options.onPage?.({ page: 1, items: countItems(merged), url: first.url });
  let current = prepared;
  let response: ExchangeResult = first;
  const start = performance.now() - first.timing.totalMs;
  // Pages already read, by what asks for them: a next link back to one of them would loop.
  const pageKey = (r: PreparedRequest) =>
    `${r.method} ${r.url} ${r.headers.find(([n]) => n.toLowerCase() === 'startkey')?.[1] ?? ''}`;
  const read = new Map([[pageKey(prepared), 1]]);
  for (;;) {
    const next = nextPage(prepared, current, response);
    if (!next) break;
    const again = read.get(pageKey(next));
    if (again !== undefined) {
      result.incomplete = 'repeated';
      result.warnings.push(
        `the next page after page ${result.pages} is page ${again} again (${next.url}); stopped rather than loop`,
      );
      break;
    }
    // A single send asks for one page: that more follow is what the Link header says, not a limit reached.
    if (options.onePage) break;
    // The limit first: a request sent for one page does not fail for where a page it did not ask for would be.
    if (result.pages >= maxPages) {
      result.incomplete = 'page-limit';
      result.warnings.push(`stopped after ${pageCount(maxPages)}; more pages follow`);
      break;
    }
    // The next page is where the first one was: a Link to another origin is not followed with this request's headers.
    const nextOrigin = originOfUrl(next.url);
    if (nextOrigin === undefined || nextOrigin !== originOfUrl(prepared.url)) {
      result.incomplete = 'failed';
      result.warnings.push(
        `the next page is on another origin (${nextOrigin ?? next.url}); it is not fetched with this request's headers`,
      );
      break;
    }
    if (options.signal?.aborted) {
      result.incomplete = 'cancelled';
      result.warnings.push(`cancelled after ${pageCount(result.pages)}`);
      break;
    }
    const page = await sendPrepared(next, options);
    if (!page.ok || page.bodyKind !== 'json') {
      result.incomplete = page.error?.kind === 'cancelled' ? 'cancelled' : 'failed';
      result.warnings.push(
        `page ${result.pages + 1} (${page.url}) failed: ${page.error?.message ?? `status ${page.status}, body not JSON`}`,
      );
      break;
    }
    // Where this page's items land in the merged arrays: after those of the pages before it.
    const lengths = new Map<string, number>();
    if (Array.isArray(merged)) lengths.set('$', merged.length);
    else if (merged && typeof merged === 'object')
      for (const [k, v] of Object.entries(merged)) if (Array.isArray(v)) lengths.set(formatJsonPath([k]), v.length);
    const joined = mergePages(merged, page.body);
    if (joined === undefined) {
      result.incomplete = 'failed';
      result.warnings.push(`page ${result.pages + 1} has another shape than page 1; it is not merged`);
      break;
    }
    merged = joined;
    if (page.exactNumbers) exact = { ...exact, ...shiftExact(page.exactNumbers, lengths) };
    result.pages++;
    read.set(pageKey(next), result.pages);
    for (const w of page.warnings) if (!result.warnings.includes(w)) result.warnings.push(w);
    options.onPage?.({ page: result.pages, items: countItems(merged), url: page.url });
    current = next;
    response = page;
  }
  if (result.incomplete === 'failed' || result.incomplete === 'cancelled' || result.incomplete === 'repeated') {
    // A list that stops at a failed page is not the list: the whole result fails, with what was read.
    result.ok = false;
    result.error ??= {
      kind: result.incomplete === 'cancelled' ? 'cancelled' : 'incomplete',
      message: `the list is incomplete: ${pageCount(result.pages)} read, then ${result.warnings.at(-1) ?? 'a page failed'}`,
    };
  }
  result.body = merged;
  if (result.pages > 1) {
    result.bodyText = stringifyExact(merged, exact);
    if (exact) result.exactNumbers = exact;
    result.bytes = Buffer.byteLength(result.bodyText);
    // The other headers are page 1's; these described page 1 alone, not the merged body.
    result.headers = Object.fromEntries(
      Object.entries(result.headers).filter(([name]) => !PAGE_ONLY_HEADERS.has(name)),
    );
  }
  result.timing = { ...result.timing, totalMs: performance.now() - start };
  result.durationMs = Math.round(result.timing.totalMs);
  return result;
}

function originOfUrl(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
