/**
 * Encoding of parameters as the API expects them (api-docs A, convention 2): form fields
 * with bracket names (`module_item[type]`, `include[]`, `name[X][]`), in the query string
 * for GET, DELETE and HEAD and as an `application/x-www-form-urlencoded` body otherwise.
 *
 * Values are encoded byte for byte like curl's `--data-urlencode`: a space becomes `+`, and
 * every other UTF-8 byte outside the unreserved set `A-Z a-z 0-9 - . _ ~` becomes `%XX`
 * (so a literal `+` is `%2B`, `&` is `%26`, `=` is `%3D`).
 * Names are encoded the same way except that `[` and `]` stay literal, as the API reads
 * them and as curl users write them.
 */

const HEX = '0123456789ABCDEF';

function isUnreserved(byte: number): boolean {
  return (
    (byte >= 0x30 && byte <= 0x39) ||
    (byte >= 0x41 && byte <= 0x5a) ||
    (byte >= 0x61 && byte <= 0x7a) ||
    byte === 0x2d ||
    byte === 0x2e ||
    byte === 0x5f ||
    byte === 0x7e
  );
}

function percentEncode(text: string, keep: (byte: number) => boolean): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    if (byte === 0x20) out += '+';
    else out += keep(byte) ? String.fromCharCode(byte) : `%${HEX[byte >> 4]}${HEX[byte & 15]}`;
  }
  return out;
}

/** A parameter value, as curl's `--data-urlencode` sends it. */
export function encodeFormValue(value: string): string {
  return percentEncode(value, isUnreserved);
}

/** A parameter name: like a value, with the brackets of `name[key][]` kept literally. */
export function encodeFormName(name: string): string {
  return percentEncode(name, (b) => isUnreserved(b) || b === 0x5b || b === 0x5d);
}

export interface FormPair {
  name: string;
  value: string;
}

/** `a=1&b%5B%5D=...`: the pairs in the order given, repeated names repeated. */
export function encodeForm(pairs: readonly FormPair[]): string {
  return pairs.map((p) => `${encodeFormName(p.name)}=${encodeFormValue(p.value)}`).join('&');
}

/**
 * Makes text the user wrote in a URL safe to send without changing what it says: `%XX`
 * escapes and reserved characters stay as written; spaces, non-ASCII characters and the
 * few characters a URL cannot hold are percent-encoded.
 */
export function escapeUrlText(text: string): string {
  let out = '';
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === 0x25) {
      const hex = /^[0-9A-Fa-f]{2}$/.test(String.fromCharCode(bytes[i + 1] ?? 0, bytes[i + 2] ?? 0));
      out += hex ? '%' : '%25';
      continue;
    }
    const safe = b > 0x20 && b < 0x7f && !'"<>\\^`{|}'.includes(String.fromCharCode(b));
    out += safe ? String.fromCharCode(b) : `%${HEX[b >> 4]}${HEX[b & 15]}`;
  }
  return out;
}

/** Appends encoded pairs to a URL, after the query it already has (kept as it is). */
export function appendQuery(url: string, encoded: string): string {
  if (encoded.length === 0) return url;
  const hash = url.indexOf('#');
  const base = hash === -1 ? url : url.slice(0, hash);
  const fragment = hash === -1 ? '' : url.slice(hash);
  const q = base.indexOf('?');
  const sep = q === -1 ? '?' : q === base.length - 1 || base.endsWith('&') ? '' : '&';
  return `${base}${sep}${encoded}${fragment}`;
}
