/**
 * The JSON encoder of the stdio connection. Every message is encoded as the library would
 * (JSON.stringify, then UTF-8), except that in a publishDiagnostics notification each
 * diagnostic's bytes are kept with the diagnostic object and reused: the server reuses the
 * objects of every block an edit did not touch (diagnostics.ts, placedDiagnostics), so
 * republishing the 1,000 diagnostics of a large document after a one-character edit
 * serialises and encodes only the few that changed, and copies the rest, instead of
 * stringifying and encoding half a megabyte. A result the server wrote as JSON text itself
 * (JsonText: the code lenses of a document, 20,000 of them for 10,000 requests) is written
 * as it is, from bytes encoded once.
 */
import type { ContentTypeEncoder, ContentTypeEncoderOptions, Message } from 'vscode-languageserver/node';

/** A diagnostic's JSON as UTF-8, for as long as the object lives. The objects are never changed once published. */
const fragments = new WeakMap<object, Buffer>();

/** Diagnostics the server publishes again after edits (its per-block cache): only these are worth keeping encoded. */
const reusable = new WeakSet<object>();

/**
 * A request's result the server has written as JSON text itself, because building it as
 * objects for JSON.stringify would cost more than the text (codeLens.ts). This encoder
 * writes the text as it is; any other (the VS Code client's IPC) reads the value through
 * toJSON, the same JSON.
 */
export class JsonText {
  /** The text as UTF-8, made once: an answer kept and sent again (the code lenses of a version) is not encoded again. */
  private encoded: Buffer | undefined;

  /**
   * JSON text, or its UTF-8 bytes. Bytes may stand in a larger buffer with room before them
   * (`room` bytes) and one byte after them: the message is then written around them in place
   * (frameMessage).
   */
  constructor(
    private readonly json: string | Buffer,
    private readonly room = 0,
  ) {
    if (typeof json !== 'string') this.encoded = json.subarray(room, json.length - (room > 0 ? 1 : 0));
  }

  get bytes(): Buffer {
    this.encoded ??= Buffer.from(this.json as string);
    return this.encoded;
  }

  /**
   * The whole message around the bytes, written in the room left for it, without copying
   * them; undefined when there is no room (or not enough). The connection writes one message
   * at a time and the next only once the last is written out, so the room is free again.
   */
  frameMessage(prefix: Buffer): Buffer | undefined {
    const framed = this.json;
    if (typeof framed === 'string' || prefix.length > this.room) return undefined;
    const from = this.room - prefix.length;
    framed.set(prefix, from);
    framed[framed.length - 1] = 0x7d;
    return framed.subarray(from);
  }

  toJSON(): unknown {
    return JSON.parse(this.bytes.toString('utf8'));
  }
}

/** Marks a diagnostic the server will publish again while it lives, so that its bytes are kept. */
export function markReusable(diagnostic: object): void {
  reusable.add(diagnostic);
}

/** Stands for the diagnostics array while the rest of the message is stringified; a string no diagnostic list can be. */
const MARK = '\u0000lpreq:diagnostics\u0000';
const MARK_JSON = JSON.stringify(MARK);
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from('}');

function diagnosticsOf(message: Message): unknown[] | undefined {
  const m = message as { method?: unknown; params?: { diagnostics?: unknown } };
  if (m.method !== 'textDocument/publishDiagnostics' || typeof m.params !== 'object' || m.params === null)
    return undefined;
  return Array.isArray(m.params.diagnostics) ? m.params.diagnostics : undefined;
}

function fragmentOf(d: unknown): Buffer {
  if (typeof d !== 'object' || d === null) return Buffer.from(JSON.stringify(d) ?? 'null');
  let bytes = fragments.get(d);
  if (bytes === undefined) {
    bytes = Buffer.from(JSON.stringify(d));
    fragments.set(d, bytes);
  }
  return bytes;
}

/** The message as UTF-8 JSON: the bytes of JSON.stringify's value, with each diagnostic's bytes taken from the cache. */
export function encodeMessage(message: Message): Buffer {
  const response = message as { jsonrpc?: unknown; id?: unknown; result?: unknown };
  // Written out in the library's order of keys: jsonrpc, id, result.
  if (response.result instanceof JsonText) {
    const prefix = Buffer.from(
      `{"jsonrpc":${JSON.stringify(response.jsonrpc)},"id":${JSON.stringify(response.id ?? null)},"result":`,
    );
    // Written around the bytes where they stand when they were made with room for it: an answer of megabytes, sent again and
    // again, is not copied (and its copy left to the collector) each time. Else one copy.
    return response.result.frameMessage(prefix) ?? Buffer.concat([prefix, response.result.bytes, CLOSE]);
  }
  const diagnostics = diagnosticsOf(message);
  // Diagnostics published once (those of a document just opened) are encoded with the rest
  // of the message in one go: keeping their bytes would cost time for nothing.
  const first = diagnostics?.[0];
  if (!diagnostics || typeof first !== 'object' || first === null || !reusable.has(first))
    return Buffer.from(JSON.stringify(message));
  const m = message as unknown as { params: object };
  const text = JSON.stringify({ ...m, params: { ...m.params, diagnostics: MARK } });
  // The diagnostics are the last thing in the message: the last mark is theirs, whatever the URI holds.
  const at = text.lastIndexOf(MARK_JSON);
  const pieces: Buffer[] = [Buffer.from(`${text.slice(0, at)}[`)];
  for (let i = 0; i < diagnostics.length; i++) {
    if (i > 0) pieces.push(COMMA);
    pieces.push(fragmentOf(diagnostics[i]));
  }
  pieces.push(Buffer.from(`]${text.slice(at + MARK_JSON.length)}`));
  return Buffer.concat(pieces);
}

const UTF8 = new Set(['utf-8', 'utf8']);

export const diagnosticsEncoder: ContentTypeEncoder = {
  name: 'application/json',
  encode(message: Message, options: ContentTypeEncoderOptions): Promise<Uint8Array> {
    try {
      // The connection asks for UTF-8 (lspCommand.ts); any other charset is encoded as the library would.
      if (!UTF8.has(options.charset.toLowerCase()))
        return Promise.resolve(Buffer.from(JSON.stringify(message), options.charset));
      return Promise.resolve(encodeMessage(message));
    } catch (e) {
      return Promise.reject(e);
    }
  },
};
