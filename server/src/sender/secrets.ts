/**
 * Where a secret (the access token, a password prompt's answer) hides in a request or a
 * response: as it is, inside a JSON string, or percent- and form-encoded. Pure functions,
 * shared by the exchange (what may leave for which origin) and the spill file of a large body.
 */

/** Secrets shorter than this are not looked for: they would match ordinary text. */
export const MIN_SECRET_LENGTH = 4;

/** The forms a secret takes in a URL, a header or a body. */
export function secretForms(secret: string): string[] {
  const encoded = encodeURIComponent(secret);
  return [...new Set([secret, JSON.stringify(secret).slice(1, -1), encoded, encoded.replace(/%20/g, '+'), encodeURI(secret)])];
}

/** Runs of percent escapes decoded where they decode (`%74ok%65n` is `token`); a broken escape stays as written. */
function percentDecoded(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/** Whether `text` carries one of `secrets`, in any of its forms, percent escapes (upper or lower case, `+` for a space) included. */
export function carriesSecret(text: string, secrets: readonly (string | undefined)[] | undefined): boolean {
  const wanted = (secrets ?? []).filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH);
  if (wanted.length === 0 || text.length === 0) return false;
  const views = [text];
  if (text.includes('%') || text.includes('+')) views.push(percentDecoded(text), percentDecoded(text.replace(/\+/g, ' ')));
  return wanted.some((s) => secretForms(s).some((form) => views.some((v) => v.includes(form))));
}

/**
 * Replaces secrets in a stream of bytes with `***`, chunk by chunk: the end of each chunk
 * that could be the start of a secret is held back until the next one (or `end`).
 */
export class SecretScrubber {
  private readonly forms: string[];
  private readonly keep: number;
  private carry = '';

  constructor(secrets: readonly (string | undefined)[]) {
    // latin1 strings hold one character per byte, so any bytes (UTF-8 or not) go through unchanged.
    this.forms = [...new Set((secrets ?? []).filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH).flatMap(secretForms))]
      .map((f) => Buffer.from(f, 'utf8').toString('latin1'))
      .sort((a, b) => b.length - a.length);
    this.keep = Math.max(0, ...this.forms.map((f) => f.length - 1));
  }

  get active(): boolean {
    return this.forms.length > 0;
  }

  /** The scrubbed bytes that are ready to be written. */
  push(chunk: Buffer): Buffer {
    if (!this.active) return chunk;
    let text = this.carry + chunk.toString('latin1');
    for (const form of this.forms) text = text.split(form).join('***');
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
