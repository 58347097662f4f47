/**
 * A sender result (or a history entry) as the summary the response tree shows. Pure.
 */
import { apiErrorMessage, noResponse, type HistoryEntry, type SendResult } from '../../../server/src/sender/index';
import type { ResponseSummary } from './responseTree';

export function summaryFromSend(result: SendResult, fallback: { method: string; url: string }): ResponseSummary {
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
      error: result.error ? { kind: result.error.kind, message: result.error.message } : { kind: 'network', message: 'nothing was sent' },
      warnings: result.warnings,
    };
  }
  const failed = r.status !== null && (r.status < 200 || r.status >= 300);
  return {
    method,
    url,
    status: r.status,
    statusText: r.statusText,
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
    apiError: failed ? apiErrorMessage(r.body) : undefined,
    truncated: r.truncated,
    pages: r.pages > 1 || r.incomplete ? r.pages : undefined,
    incomplete: r.incomplete,
    warnings: result.warnings,
  };
}

/** A stored exchange, shown again: the body is parsed back when it is JSON. */
export function summaryFromHistory(entry: HistoryEntry): ResponseSummary {
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
  return {
    method: entry.method,
    url: entry.url,
    status: entry.status,
    statusText: '',
    headers: entry.responseHeaders ?? {},
    body,
    bodyText: text,
    bodyKind,
    contentType: entry.responseHeaders?.['content-type'],
    bytes: Buffer.byteLength(text),
    durationMs: entry.durationMs,
    resource: entry.resource ?? null,
    issues: entry.issues ?? [],
    error: entry.error,
    apiError: failed && bodyKind === 'json' ? apiErrorMessage(body) : undefined,
    warnings: entry.bodyCut ? ['the stored body was cut; open the raw body for what was kept'] : [],
  };
}
