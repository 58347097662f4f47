/**
 * The History view's model: summaries of past exchanges as list items, and an entry
 * turned back into a request to send again. The token is never part of an entry (the
 * sender drops Authorization and scrubs the token); nothing here adds it.
 */
import type { HistoryEntry, HistorySummary, PreparedRequest } from '../../../server/src/sender/index';
import { statusWithReason } from './reasons';

export interface HistoryItem {
  id: string;
  label: string;
  description: string;
  tooltip: string;
  icon: 'pass' | 'error' | 'warning' | 'cancelled';
}

/** `3 min ago`, `yesterday`, or the date. */
export function ago(time: string, now: number): string {
  const t = Date.parse(time);
  if (Number.isNaN(t)) return time;
  const s = Math.max(0, Math.round((now - t) / 1000));
  if (s < 60) return 'just now';
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 2 * 86400) return 'yesterday';
  return new Date(t).toISOString().slice(0, 10);
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * The time of an entry in the user's own time zone (the index keeps UTC): `14:03:12` today,
 * `Mar 14 14:03` this year, `2024-03-14 14:03` before.
 */
export function localTime(time: string, now: number): string {
  const t = Date.parse(time);
  if (Number.isNaN(t)) return time;
  const d = new Date(t);
  const today = new Date(now);
  const clock = `${two(d.getHours())}:${two(d.getMinutes())}`;
  if (d.getFullYear() === today.getFullYear() && d.getMonth() === today.getMonth() && d.getDate() === today.getDate()) {
    return `${clock}:${two(d.getSeconds())}`;
  }
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getMonth()];
  if (d.getFullYear() === today.getFullYear()) return `${month} ${d.getDate()} ${clock}`;
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${clock}`;
}

/** The path and query of a URL, for a short label. */
export function shortUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.pathname}${u.search}`;
  } catch {
    return url;
  }
}

/** The last part of a file path, on any system. */
function baseName(file: string): string {
  return file.split(/[\\/]/).pop() || file;
}

/** What is special about an answer, in words a list can show: `all pages (25)`, `cancelled`, `sent again`. */
export function historyMarks(s: HistorySummary): string[] {
  const marks: string[] = [];
  if (s.pages !== undefined) marks.push(`all pages (${s.pages})`);
  if (s.errorKind === 'cancelled') marks.push('cancelled');
  if (s.resent) marks.push('sent again from history');
  return marks;
}

/**
 * One entry as a list shows it: the request as the file names it (its `###` title or `@name`,
 * else METHOD path), then the status, the file, the environment and the local time, and what
 * is special about the answer (all pages, cancelled, sent again from history).
 */
function historyItem(s: HistorySummary, now: number): HistoryItem {
  const cancelled = s.errorKind === 'cancelled';
  const status = s.status !== null ? statusWithReason(s.status) : cancelled ? 'cancelled' : 'failed';
  const ok = s.status !== null && s.status >= 200 && s.status < 300 && s.errorKind === undefined;
  const request = `${s.method} ${shortUrl(s.url)}`;
  const label = s.title ?? s.name ?? request;
  const marks = historyMarks(s).filter((m) => m !== 'cancelled' || s.status !== null);
  const parts = [
    status,
    ...(label !== request ? [s.method] : []),
    ...(s.file !== undefined ? [baseName(s.file)] : []),
    ...(s.environment !== undefined ? [s.environment] : []),
    localTime(s.time, now),
    ...marks,
  ];
  const tooltip = [
    label !== request ? label : undefined,
    `${s.method} ${s.url}`,
    `${status} in ${Math.round(s.durationMs)} ms${s.pages !== undefined ? `, ${s.pages} pages merged` : ''}`,
    s.file !== undefined ? `File: ${s.file}` : undefined,
    s.environment !== undefined ? `Environment: ${s.environment}` : undefined,
    `At ${localTime(s.time, now)} (${ago(s.time, now)})`,
    s.resent ? 'Sent again from the history' : undefined,
  ].filter((l): l is string => l !== undefined);
  return {
    id: s.id,
    label,
    description: parts.join(' · '),
    tooltip: tooltip.join('\n'),
    icon: cancelled ? 'cancelled' : ok ? 'pass' : s.status === null || s.status >= 500 ? 'error' : 'warning',
  };
}

/** Whether `text` holds every word of `query` (any case, any order): the history's search, `dev 404`. */
export function matchesEveryWord(text: string, query: string): boolean {
  const haystack = text.toLowerCase();
  return query
    .toLowerCase()
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .every((w) => haystack.includes(w));
}

export function historyItems(list: readonly HistorySummary[], now = Date.now()): HistoryItem[] {
  return list.map((s) => historyItem(s, now));
}

/** A duration read back from a history file: a positive number of milliseconds, up to a day. */
function validDuration(ms: unknown): ms is number {
  return typeof ms === 'number' && Number.isFinite(ms) && ms > 0 && ms <= 86_400_000;
}

/**
 * The request of a history entry, ready for the sender. The documented facts (response
 * type, paging) and the origin the token may go to are the caller's: they depend on the
 * catalog and on the environment chosen now.
 */
export function requestFromEntry(
  entry: HistoryEntry,
  facts: Pick<PreparedRequest, 'endpointId' | 'returns' | 'paginated' | 'paging' | 'tokenOrigin'>,
  readBytes?: (path: string) => { bytes: Uint8Array } | { error: string },
): PreparedRequest | { error: string } {
  const headers = entry.request.headers.filter(([n]) => n.toLowerCase() !== 'authorization');
  const text = entry.request.body;
  const declared = headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
  // The type it was sent with; older entries did not keep it, so it is told from the body.
  const contentType =
    declared ??
    entry.request.contentType ??
    (text && /^\s*[[{]/.test(text) ? 'application/json' : 'application/x-www-form-urlencoded');
  let body: PreparedRequest['body'];
  const file = entry.request.bodyFile;
  if (file !== undefined) {
    // A body file's bytes were sent, not the text that describes them: they are read again.
    if (!readBytes) return { error: `the body was the file ${file}, and no file can be read here` };
    const read = readBytes(file);
    if ('error' in read) return { error: `the body was the file ${file}: ${read.error}` };
    body = { contentType, text: text ?? '', bytes: read.bytes, file };
  } else if (text !== undefined) {
    body = { contentType, text };
  }
  return {
    method: entry.request.method,
    url: entry.request.url,
    headers,
    body,
    name: entry.name,
    title: entry.title,
    blockIndex: -1,
    ...(entry.request.noRedirect ? { noRedirect: true } : {}),
    // Read back from a file on disk: only a sensible duration is taken.
    ...(validDuration(entry.request.timeoutMs) ? { timeoutMs: entry.request.timeoutMs } : {}),
    ...(validDuration(entry.request.connectTimeoutMs) ? { connectTimeoutMs: entry.request.connectTimeoutMs } : {}),
    ...facts,
  };
}
