/**
 * Where a secret (the access token, a password prompt's answer) hides in a request or a
 * response: as it is, percent-encoded (either case, `+` for a space) or JSON-escaped, in any
 * mix. Pure functions, shared by the exchange (what may leave for which origin), the output
 * and the history (scrubSecrets), and the spill file of a large body.
 */

/** Secrets shorter than this are not looked for: they would match ordinary text. */
export const MIN_SECRET_LENGTH = 4;

/** A number in `digits` hex digits, either case (`%2f` and `%2F`), as a pattern. */
function hexEitherCase(n: number, digits = 2): string {
  return n
    .toString(16)
    .padStart(digits, '0')
    .split('')
    .map((h) => (/[a-f]/.test(h) ? `[${h}${h.toUpperCase()}]` : h))
    .join('');
}

/**
 * A pattern of every way a secret is written in a text: each character as it is, or
 * percent-escaped (either case, `+` for a space), or JSON-escaped (`\/`, `\u002f`, `\"`),
 * in any mix. With `bytes`, the text is bytes read as latin1 (a spilled body): the secret's
 * UTF-8 bytes, each as it is or percent-escaped.
 */
export function secretPattern(secret: string, bytes = false, flags = 'g'): RegExp {
  const units = bytes ? [...Buffer.from(secret, 'utf8')].map((b) => String.fromCharCode(b)) : [...secret];
  const parts = units.map((c) => {
    const code = c.codePointAt(0) as number;
    const alternatives = [c.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')];
    const utf8 = code < 0x80 || bytes ? [code] : [...Buffer.from(c, 'utf8')];
    alternatives.push(utf8.map((b) => `%${hexEitherCase(b)}`).join(''));
    if (code < 0x80 && !/[A-Za-z0-9]/.test(c)) alternatives.push(`\\\\u00${hexEitherCase(code)}`);
    if (!bytes && code >= 0x80 && code <= 0xffff) alternatives.push(`\\\\u${hexEitherCase(code, 4)}`);
    if (c === '/') alternatives.push('\\\\/');
    if (c === '"') alternatives.push('\\\\"');
    if (c === '\\') alternatives.push('\\\\\\\\');
    if (c === ' ') alternatives.push('\\+');
    return `(?:${alternatives.join('|')})`;
  });
  return new RegExp(parts.join(''), flags);
}

/** Whether `text` carries one of `secrets`, written in any of the ways secretPattern knows. */
export function carriesSecret(text: string, secrets: readonly (string | undefined)[] | undefined): boolean {
  if (text.length === 0) return false;
  return (secrets ?? []).some((s) => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH && secretPattern(s, false, '').test(text));
}

/** The text with every secret (of MIN_SECRET_LENGTH characters or more), written in any of the ways secretPattern knows, replaced by `***`. */
export function scrubText(text: string, secret: string): string {
  return secret.length >= MIN_SECRET_LENGTH ? text.replace(secretPattern(secret), '***') : text;
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
    const wanted = [...new Set((secrets ?? []).filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH))];
    this.patterns = wanted.map((s) => secretPattern(s, true));
    // A byte is written in at most 6 characters (`\u002f`): a secret that may still be arriving is held back.
    this.keep = Math.max(0, ...wanted.map((s) => 6 * Buffer.byteLength(s, 'utf8') - 1));
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

  /** What was held back. */
  end(): Buffer {
    const rest = this.carry;
    this.carry = '';
    return Buffer.from(rest, 'latin1');
  }
}
