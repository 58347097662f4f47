/**
 * The JSON encoder of the stdio connection. Every message is JSON.stringify'd as the
 * library would, except that in a publishDiagnostics notification each diagnostic's JSON is
 * kept with the diagnostic object and reused: the server reuses the objects of every block
 * an edit did not touch (server.ts, placedDiagnostics), so republishing the 1,000
 * diagnostics of a large document after a one-character edit serialises only the few that
 * changed instead of half a megabyte.
 */
import type { ContentTypeEncoder, ContentTypeEncoderOptions, Message } from 'vscode-languageserver/node';

/** The JSON of a diagnostic, for as long as the object lives. The objects are never changed once published. */
const fragments = new WeakMap<object, string>();

/** Stands for the diagnostics array while the rest of the message is stringified; a string no diagnostic list can be. */
const MARK = '\u0000lpreq:diagnostics\u0000';
const MARK_JSON = JSON.stringify(MARK);

function diagnosticsOf(message: Message): unknown[] | undefined {
  const m = message as { method?: unknown; params?: { diagnostics?: unknown } };
  if (m.method !== 'textDocument/publishDiagnostics' || typeof m.params !== 'object' || m.params === null) return undefined;
  return Array.isArray(m.params.diagnostics) ? m.params.diagnostics : undefined;
}

/** The message as JSON: the same value JSON.stringify gives, with each diagnostic's JSON taken from the cache. */
export function encodeMessage(message: Message): string {
  const diagnostics = diagnosticsOf(message);
  if (!diagnostics) return JSON.stringify(message);
  const parts: string[] = [];
  for (const d of diagnostics) {
    if (typeof d !== 'object' || d === null) {
      parts.push(JSON.stringify(d) ?? 'null');
      continue;
    }
    let json = fragments.get(d);
    if (json === undefined) {
      json = JSON.stringify(d);
      fragments.set(d, json);
    }
    parts.push(json);
  }
  const m = message as unknown as { params: object };
  const text = JSON.stringify({ ...m, params: { ...m.params, diagnostics: MARK } });
  // The diagnostics are the last thing in the message: the last mark is theirs, whatever the URI holds.
  const at = text.lastIndexOf(MARK_JSON);
  return `${text.slice(0, at)}[${parts.join(',')}]${text.slice(at + MARK_JSON.length)}`;
}

export const diagnosticsEncoder: ContentTypeEncoder = {
  name: 'application/json',
  encode(message: Message, options: ContentTypeEncoderOptions): Promise<Uint8Array> {
    try {
      return Promise.resolve(Buffer.from(encodeMessage(message), options.charset));
    } catch (e) {
      return Promise.reject(e);
    }
  },
};
