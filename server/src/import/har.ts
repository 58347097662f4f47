/**
 * HAR 1.2 (a browser's network capture) to requests: only the entries whose URL is under an
 * API path that lpreq checks (`/api/v1/`, `/api/lti/`), grouped by the page that made them,
 * in the order they were sent. A recorded response becomes an example in comments only when
 * asked (`withResponses`). HAR is JSON with a published schema; reading it needs no parser
 * beyond JSON.parse and the checks below.
 */
import { dict, setOwn } from '../core/index';
import { isCredentialParameter, isSecretVariable } from './credentials';
import { splitForm } from './forms';
import { ImportError, type SourceBody, type SourceCollection, type SourceRequest } from './model';

interface HarNameValue {
  name?: unknown;
  value?: unknown;
  fileName?: unknown;
}

function str(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v);
}

function list(v: unknown): HarNameValue[] {
  return Array.isArray(v) ? v.filter((x): x is HarNameValue => typeof x === 'object' && x !== null) : [];
}

function record(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** The path of a URL when it is under /api/v1/ or /api/lti/, else undefined. */
function apiPathOf(url: string): string | undefined {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    return undefined;
  }
  return /(^|\/)api\/(v1|lti)\//.test(path) ? path : undefined;
}

function bodyOf(postData: Record<string, unknown>): SourceBody | undefined {
  const mime = str(postData.mimeType).toLowerCase();
  const params = list(postData.params);
  const textBody = str(postData.text);
  if (mime.includes('multipart/form-data')) {
    return {
      kind: 'multipart',
      parts: params.map((p) =>
        p.fileName !== undefined
          ? { name: str(p.name), file: str(p.fileName) }
          : { name: str(p.name), value: str(p.value) },
      ),
    };
  }
  if (mime.includes('json')) return { kind: 'json', text: textBody };
  if (mime.includes('x-www-form-urlencoded') || (mime === '' && params.length > 0)) {
    // A browser records the text as sent, and some also the params (decoded or not): the text is what was sent.
    return {
      kind: 'form',
      params: textBody.length > 0 ? splitForm(textBody) : params.map((p) => [str(p.name), str(p.value)]),
    };
  }
  if (textBody.length === 0) return undefined;
  return { kind: 'text', text: textBody, contentType: mime };
}

/** How many lines of a recorded response body are kept as an example. */
const EXAMPLE_LINES = 40;

/** A recorded JSON value with the values of members named like credentials (`access_token`, `session_id`) masked. */
function masked(value: unknown, secrets: string[]): unknown {
  if (Array.isArray(value)) return value.map((v) => masked(v, secrets));
  if (typeof value !== 'object' || value === null) return value;
  const out = dict<unknown>();
  for (const [k, v] of Object.entries(value)) {
    if ((isCredentialParameter(k) || isSecretVariable(k)) && (typeof v === 'string' || typeof v === 'number')) {
      secrets.push(String(v));
      setOwn(out, k, '***');
    } else setOwn(out, k, masked(v, secrets));
  }
  return out;
}

function responseExample(response: Record<string, unknown>, secrets: string[]): string[] {
  const content = record(response.content);
  const status = typeof response.status === 'number' ? response.status : 0;
  const mime = str(content.mimeType);
  const lines = [`Example response (recorded): ${status} ${str(response.statusText)}${mime ? `, ${mime}` : ''}`.trim()];
  let bodyText = str(content.text);
  if (content.encoding === 'base64') bodyText = '';
  if (bodyText.length > 0) {
    if (mime.includes('json')) {
      try {
        bodyText = JSON.stringify(masked(JSON.parse(bodyText), secrets), null, 2);
      } catch {
        // Kept as recorded.
      }
    }
    const bodyLines = bodyText.split(/\r?\n/);
    lines.push(...bodyLines.slice(0, EXAMPLE_LINES));
    if (bodyLines.length > EXAMPLE_LINES) lines.push(`... (${bodyLines.length - EXAMPLE_LINES} more lines)`);
  }
  return lines;
}

export function readHar(
  source: string,
  options: { withResponses?: boolean } = {},
): SourceCollection & { secrets: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch (e) {
    throw new ImportError(`not a HAR file: ${(e as Error).message}`);
  }
  const log = record(record(json).log);
  if (!Array.isArray(log.entries)) throw new ImportError('not a HAR file: it has no log.entries');
  const pages = new Map<string, string>();
  for (const page of list(log.pages)) {
    const p = record(page);
    pages.set(str(p.id), str(p.title) || str(p.id));
  }
  const requests: SourceRequest[] = [];
  const secrets: string[] = [];
  let skipped = 0;
  const entries = log.entries.map(record);
  // In the order they were sent (a HAR lists them so, but a merged one may not).
  entries.sort((a, b) => str(a.startedDateTime).localeCompare(str(b.startedDateTime)));
  for (const entry of entries) {
    const request = record(entry.request);
    const url = str(request.url);
    if (apiPathOf(url) === undefined) {
      skipped++;
      continue;
    }
    const headers = list(request.headers)
      .map((h): [string, string] => [str(h.name), str(h.value)])
      // HTTP/2 pseudo-headers (`:authority`) are not headers to send.
      .filter(([name]) => !name.startsWith(':'));
    const cookies = list(request.cookies);
    if (cookies.length > 0 && !headers.some(([n]) => n.toLowerCase() === 'cookie'))
      headers.push(['Cookie', cookies.map((c) => `${str(c.name)}=${str(c.value)}`).join('; ')]);
    const postData = request.postData === undefined ? undefined : bodyOf(record(request.postData));
    const pageref = str(entry.pageref);
    requests.push({
      method: str(request.method).toUpperCase(),
      url,
      headers,
      ...(postData ? { body: postData } : {}),
      ...(pageref ? { group: pages.get(pageref) ?? pageref } : {}),
      ...(options.withResponses && entry.response !== undefined
        ? { comments: responseExample(record(entry.response), secrets) }
        : {}),
    });
  }
  const notes: string[] = [];
  if (skipped > 0)
    notes.push(
      `${skipped} ${skipped === 1 ? 'entry' : 'entries'} outside /api/v1/ and /api/lti/ (pages, scripts, images) left out`,
    );
  // Grouped by page, pages in the order of their first request.
  const order = new Map<string | undefined, number>();
  for (const r of requests) if (!order.has(r.group)) order.set(r.group, order.size);
  const grouped = requests
    .map((r, i) => ({ r, i }))
    .sort((a, b) => order.get(a.r.group)! - order.get(b.r.group)! || a.i - b.i)
    .map((x) => x.r);
  return { format: 'har', requests: grouped, variables: [], environments: {}, notes, secrets };
}
