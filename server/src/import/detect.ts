/** Which format a source is in, told from its content (an editor's clipboard has no file name). */
import type { ImportFormat } from './model';

function record(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

/** Whether a JSON value is a Postman collection (v2.x), an environment export, or neither. */
export function postmanKind(json: unknown): 'collection' | 'environment' | undefined {
  const o = record(json);
  const info = record(o.info);
  if (typeof info.schema === 'string' && /schema\.getpostman\.com\/json\/collection\/v2/.test(info.schema))
    return 'collection';
  if (Array.isArray(o.item) && typeof info.name === 'string') return 'collection';
  if (Array.isArray(o.values) && (o._postman_variable_scope === 'environment' || typeof o.name === 'string'))
    return 'environment';
  return undefined;
}

const REQUEST_LINE = /^(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS)\s+\S/m;

export function detectFormat(text: string): ImportFormat | undefined {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  if (/^(curl|curl\.exe)(\s|$)/i.test(trimmed) || /^\s*curl\s/m.test(trimmed.slice(0, 2000))) {
    // A .http file may quote a curl command in a comment; a request line first means .http.
    if (!REQUEST_LINE.test(trimmed) || /^curl/i.test(trimmed)) return 'curl';
  }
  if (trimmed.startsWith('{')) {
    let json: unknown;
    try {
      json = JSON.parse(trimmed);
    } catch {
      return undefined;
    }
    const log = (json as { log?: { entries?: unknown } }).log;
    if (log && Array.isArray(log.entries)) return 'har';
    if (postmanKind(json)) return 'postman';
    return undefined;
  }
  if (
    REQUEST_LINE.test(trimmed) ||
    /^###/m.test(trimmed) ||
    /^[a-z][a-z0-9+.-]*:\/\/\S+$/im.test(trimmed.split('\n')[0])
  )
    return 'http';
  return undefined;
}
