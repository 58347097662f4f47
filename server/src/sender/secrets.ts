/**
 * Where a secret (the access token, another environment's token, a password prompt's answer)
 * hides in a request or a response, and the one place that knows how a secret is written: as
 * it is, percent-encoded (`+` for a space), or JSON-escaped (`\/`, `\"`, `\\`, `\uXXXX` of any
 * character), in any mix and in any case. Case does not matter: header names arrive
 * lower-cased (undici and Node lower-case them), and a hex token means the same in either
 * case. Pure functions, shared by the exchange's one check of what leaves for which origin,
 * the one scrubber of what is printed or stored (scrubSecrets, scrubDeep), the streaming
 * scrubber of spilled bodies, and the cut of a body that stopped early (withoutSecretStart).
 */

/** Secrets shorter than this are not looked for: they would match ordinary text. */
export const MIN_SECRET_LENGTH = 4;

const hex = (n: number, digits: number) => n.toString(16).padStart(digits, '0');
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');

/** The JSON `\u` escape of one character: a surrogate pair beyond the BMP. */
function jsonEscape(c: string): string {
  let out = '';
  for (let i = 0; i < c.length; i++) out += `\\u${hex(c.charCodeAt(i), 4)}`;
  return out;
}

/** The literal spellings of one character, besides itself: percent-encoded (its UTF-8 bytes) and JSON-escaped. */
function escapedSpellings(c: string): string[] {
  const out = [[...Buffer.from(c, 'utf8')].map((b) => `%${hex(b, 2)}`).join(''), jsonEscape(c)];
  if (c === '/') out.push('\\/');
  if (c === '"') out.push('\\"');
  if (c === '\\') out.push('\\\\');
  if (c === ' ') out.push('+');
  return out;
}

/**
 * A pattern of one character of a secret, every way it is written. With `bytes`, the text is
 * bytes read as latin1 (a spilled body): the character's UTF-8 bytes, each as it is or
 * percent-escaped, or its JSON escape.
 */
function characterPattern(c: string, bytes: boolean): string {
  const alternatives = escapedSpellings(c).map(escapeRegex);
  alternatives.unshift(bytes ? [...Buffer.from(c, 'utf8')].map((b) => `(?:\\x${hex(b, 2)}|%${hex(b, 2)})`).join('') : escapeRegex(c));
  return `(?:${alternatives.join('|')})`;
}

/** A pattern of every way `secret` is written in a text (or, with `bytes`, in bytes read as latin1); case-insensitive. */
export function secretPattern(secret: string, bytes = false, flags = 'g'): RegExp {
  return new RegExp([...secret].map((c) => characterPattern(c, bytes)).join(''), flags.includes('i') ? flags : `${flags}i`);
}

/** The most characters (or bytes) one spelling of `secret` takes: 6 a character for `\u0074`, 12 for a surrogate pair or 4 UTF-8 bytes. */
export function longestSpelling(secret: string): number {
  return [...secret].reduce((n, c) => n + Math.max(...escapedSpellings(c).map((s) => s.length), 1), 0);
}

/** The secrets worth looking for: strings of MIN_SECRET_LENGTH characters or more, each once. */
function wanted(secrets: readonly (string | undefined)[] | undefined): string[] {
  return [...new Set((secrets ?? []).filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH))];
}

/** Whether `text` carries one of `secrets`, written in any of the ways secretPattern knows. */
export function carriesSecret(text: string, secrets: readonly (string | undefined)[] | undefined): boolean {
  if (text.length === 0) return false;
  return wanted(secrets).some((s) => secretPattern(s, false, '').test(text));
}

/**
 * The one scrubber of what is printed or stored: the text with every secret (of 4 characters
 * or more), written in any of the ways secretPattern knows, replaced by `***`. A shorter one is
 * replaced only where it is plainly a credential: after `Bearer`, as a whole header value,
 * JSON string or text. `replacement` may write something else in a secret's place, given the
 * secret and how it was written (a copied cURL command reads `$LPREQ_TOKEN` where the token
 * stood as it is).
 */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[], replacement: (secret: string, written: string) => string = () => '***'): string {
  let out = text;
  for (const s of secrets) {
    if (typeof s !== 'string' || s.length === 0) continue;
    if (s.length < MIN_SECRET_LENGTH) {
      // Too short to replace everywhere (it would mask ordinary text), but never shown where it
      // is plainly a credential: after `Bearer`, or as a whole header value or JSON string.
      const e = s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const r = replacement(s, s).replace(/\$/g, '$$$$');
      out = out
        .replace(new RegExp(`(\\bBearer(?:\\s|%20|\\+)+)${e}(?![\\w.~+/=-])`, 'gi'), `$1${r}`)
        .replace(new RegExp(`^([!#$%&'*+.^_\`|~0-9A-Za-z-]+: *)${e} *$`, 'gm'), `$1${r}`)
        .replace(new RegExp(`":(\\s*)"${e}"`, 'g'), `":$1"${r}"`)
        .replace(new RegExp(`^${e}$`), r);
      continue;
    }
    out = out.replace(secretPattern(s), (written) => replacement(s, written));
    // A long value is shown cut to its first 37 characters in typed-check messages (typed.ts).
    if (s.length > 40) out = out.replace(secretPattern(s.slice(0, 37)), '***');
  }
  return out;
}

/**
 * A value to be stored (a history entry) with every string in it, object keys included,
 * passed through scrubSecrets: nothing in it is left out because a field was forgotten.
 */
export function scrubDeep<T>(value: T, secrets: readonly (string | undefined)[]): T {
  if (!secrets.some((s) => typeof s === 'string' && s.length > 0)) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return scrubSecrets(v, secrets);
    if (Array.isArray(v)) return v.map(walk);
    if (v !== null && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype) {
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [scrubSecrets(k, secrets), walk(x)]));
    }
    return v;
  };
  return walk(value) as T;
}

/**
 * Whether `tail` (lower-cased) is a beginning of some spelling of `secret`: at least one
 * character of it, or an escape cut in its middle, up to the end. Walked character by
 * character (the positions a spelling of the first i characters can end at), not by one
 * pattern: a pattern nested as deep as a long token (a JWT) is more than V8 compiles.
 */
function beginsSecret(tail: string, secret: string): boolean {
  let ends = new Set([0]);
  for (const c of secret) {
    const spellings = [c, ...escapedSpellings(c)].map((x) => x.toLowerCase());
    const next = new Set<number>();
    for (const at of ends) {
      // The tail ends after a whole character, or inside (or at the end of) this one's spelling.
      if (at === tail.length) return true;
      for (const spelling of spellings) {
        const rest = tail.slice(at, at + spelling.length + 1);
        if (spelling.startsWith(rest)) return true;
        if (rest.startsWith(spelling)) next.add(at + spelling.length);
      }
    }
    if (next.size === 0) return false;
    ends = next;
  }
  return false;
}

/**
 * A text cut short (a body stopped by the size limit, a reset, a timeout) without its end
 * when that end could be the beginning of a secret: what is kept is printed and stored, and
 * the scrubber cannot know a secret it sees only the start of. Only the last characters that
 * one spelling of the longest secret takes are looked at.
 */
export function withoutSecretStart(text: string, secrets: readonly (string | undefined)[]): string {
  const list = wanted(secrets);
  if (list.length === 0 || text.length === 0) return text;
  const from = Math.max(0, text.length - Math.max(...list.map(longestSpelling)));
  const window = text.slice(from).toLowerCase();
  for (let at = 0; at < window.length; at++) {
    const tail = window.slice(at);
    if (list.some((s) => beginsSecret(tail, s))) return text.slice(0, from + at);
  }
  return text;
}

/**
 * Replaces secrets in a stream of bytes with `***`, chunk by chunk: the end of each chunk
 * that could be the start of a secret is held back until the next one (or `end`).
 */
export class SecretScrubber {
  private readonly patterns: RegExp[];
  private readonly keep: number;
  private carry = '';

  constructor(secrets: readonly (string | undefined)[]) {
    // latin1 strings hold one character per byte, so any bytes (UTF-8 or not) go through unchanged.
    const list = wanted(secrets);
    this.patterns = list.map((s) => secretPattern(s, true));
    // A secret that may still be arriving is held back: as long as its longest spelling, less one.
    this.keep = Math.max(0, ...list.map((s) => longestSpelling(s) - 1));
  }

  get active(): boolean {
    return this.patterns.length > 0;
  }

  /** The scrubbed bytes that are ready to be written. */
  push(chunk: Buffer): Buffer {
    if (!this.active) return chunk;
    let text = this.carry + chunk.toString('latin1');
    for (const pattern of this.patterns) text = text.replace(pattern, '***');
    const cut = Math.max(0, text.length - this.keep);
    this.carry = text.slice(cut);
    return Buffer.from(text.slice(0, cut), 'latin1');
  }

  /**
   * What was held back, when the stream ended. A stream that was cut short (`cut`) drops it:
   * it could be the beginning of a secret that never arrived whole, and what went before it
   * is written already.
   */
  end(cut = false): Buffer {
    const rest = cut ? '' : this.carry;
    this.carry = '';
    return Buffer.from(rest, 'latin1');
  }
}
