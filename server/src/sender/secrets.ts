/**
 * Where a secret (the access token, another environment's token, a password prompt's answer)
 * hides in a request or a response, and the one place that knows how a secret is written:
 * each character as it is, percent-encoded (its UTF-8 bytes; `+` for a space) or JSON-escaped
 * (`\/`, `\"`, `\\`, `\uXXXX` of any character), and each character of such an escape escaped
 * once more (`%254B`, `\\u004B`, `%5Cu004B`, `\u0025\u0034\u0042`, as servers that echo an
 * escaped value write it), in any mix and in any case. Case does not matter: header names
 * arrive lower-cased (undici and Node lower-case them), and a hex token means the same in
 * either case.
 *
 * One matcher walks that definition (no regular expression: one of every spelling of a token
 * takes V8 tens of milliseconds to compile). It serves the exchange's one check of what
 * leaves for which origin (carriesSecret), the one scrubber of what is printed or stored
 * (scrubSecrets, scrubDeep), the streaming scrubber of spilled bodies (SecretScrubber), and
 * the cut of a body that stopped early (withoutSecretStart). Pure functions.
 */

/** Secrets shorter than this are not looked for: they would match ordinary text. */
export const MIN_SECRET_LENGTH = 4;

/** How deep escapes go: a character may be escaped, and each character of its escape escaped once more. */
const DEPTH = 2;

const hex = (n: number, digits: number) => n.toString(16).padStart(digits, '0');

const escapeCache = new Map<string, string[]>();

/** The escapes of one character: percent-encoded (its UTF-8 bytes), JSON-escaped (a surrogate pair beyond the BMP), `\/`, `\"`, `\\`, and `+` for a space. */
function escapesOf(c: string): string[] {
  let out = escapeCache.get(c);
  if (out === undefined) {
    out = [
      [...Buffer.from(c, 'utf8')].map((b) => `%${hex(b, 2)}`).join(''),
      Array.from({ length: c.length }, (_, i) => `\\u${hex(c.charCodeAt(i), 4)}`).join(''),
    ];
    if (c === '/' || c === '"' || c === '\\') out.push(`\\${c}`);
    if (c === ' ') out.push('+');
    if (escapeCache.size < 4096) escapeCache.set(c, out);
  }
  return out;
}

/** One character as it stands in a text: itself, or (in bytes read as latin1, a spilled body) its UTF-8 bytes; lower-cased, as texts are looked at. */
function itself(c: string, bytes: boolean): string {
  return (bytes ? Buffer.from(c, 'utf8').toString('latin1') : c).toLowerCase();
}

const caseCache = new Map<string, string[]>();

/** The escapes of a character in either case (`%4B` and `%6B` are both a `k`). */
function escapesInAnyCase(c: string): string[] {
  let out = caseCache.get(c);
  if (out === undefined) {
    const cases = [...new Set([c, c.toLowerCase(), c.toUpperCase()].filter((v) => [...v].length === 1))];
    out = [...new Set(cases.flatMap(escapesOf))];
    if (caseCache.size < 4096) caseCache.set(c, out);
  }
  return out;
}

/** A UTF-16 unit lower-cased (one whose lower case is longer stays as it is): texts are compared in any case without a lower-cased copy of them. */
function fold(code: number): number {
  if (code >= 0x41 && code <= 0x5a) return code + 0x20;
  if (code < 0x80) return code;
  const lower = String.fromCharCode(code).toLowerCase();
  return lower.length === 1 ? lower.charCodeAt(0) : code;
}

/** Whether `text` at `at` holds `plain` (lower-case), in any case; `cut` when the text ends inside it. */
function holds(text: string, at: number, plain: string): 'yes' | 'no' | 'cut' {
  for (let i = 0; i < plain.length; i++) {
    if (at + i >= text.length) return 'cut';
    if (fold(text.charCodeAt(at + i)) !== plain.charCodeAt(i)) return 'no';
  }
  return 'yes';
}

/**
 * A character of a secret, ready to be looked for: itself as it stands (lower-cased), its
 * escapes (each a sequence of characters one level down), and the characters any of its
 * spellings can start with, so that most places of a text are passed over at once.
 */
interface Spelled {
  plain: string;
  escapes: Spelled[][];
  first: Set<number>;
}

const spelledCache = new Map<string, Spelled>();

function spelled(c: string, depth: number, bytes: boolean): Spelled {
  const key = `${depth}${bytes ? 'b' : 't'}${c}`;
  let node = spelledCache.get(key);
  if (node === undefined) {
    const plain = itself(c, bytes);
    const escapes = depth === 0 ? [] : escapesInAnyCase(c).map((e) => [...e].map((x) => spelled(x, depth - 1, false)));
    node = { plain, escapes, first: new Set([plain.charCodeAt(0), ...escapes.flatMap((e) => [...e[0].first])]) };
    if (spelledCache.size < 8192) spelledCache.set(key, node);
  }
  return node;
}

/**
 * The beginnings of `k` characters of the spellings of a sequence of characters; a shorter
 * one is a whole spelling of the sequence.
 */
function beginnings(sequence: readonly Spelled[], k: number): Set<string> {
  if (k === 0 || sequence.length === 0) return new Set(['']);
  const [head, ...rest] = sequence;
  const out = new Set<string>();
  for (const option of [head.plain, ...head.escapes.flatMap((e) => [...beginnings(e, k)])]) {
    if (option.length >= k) out.add(option.slice(0, k));
    else for (const tail of beginnings(rest, k - option.length)) out.add(option + tail);
  }
  return out;
}

/** How many characters of a spelling the search for where one starts reads. */
const LOOKAHEAD = 3;

/**
 * A secret, ready to be looked for: its characters; where a spelling of it can start (a
 * pattern of every beginning of three characters, so that the regular-expression engine passes
 * over the rest of a text); and where a text cut short can end in one (a pattern of the
 * characters a spelling can start with).
 */
interface Sought {
  chars: Spelled[];
  starts: RegExp;
  firsts: RegExp;
}

const soughtCache = new Map<string, Sought>();

function sought(secret: string, bytes: boolean): Sought {
  const key = `${bytes ? 'b' : 't'}${secret}`;
  let found = soughtCache.get(key);
  if (found === undefined) {
    const chars = [...secret].map((c) => spelled(c, DEPTH, bytes));
    const literal = (text: string) => [...text].map((c) => `\\u${hex(c.charCodeAt(0), 4)}`).join('');
    const codes = [...chars[0].first].map((n) => `\\u${hex(n, 4)}`).join('');
    found = {
      chars,
      starts: new RegExp([...beginnings(chars, LOOKAHEAD)].map(literal).join('|'), 'gi'),
      firsts: new RegExp(`[${codes}]`, 'gi'),
    };
    // Kept while the process runs (an editor sends many times with the same secrets), and bounded.
    if (soughtCache.size >= 64) soughtCache.delete(soughtCache.keys().next().value as string);
    soughtCache.set(key, found);
  }
  found.starts.lastIndex = 0;
  found.firsts.lastIndex = 0;
  return found;
}

/** A walk over one text: `cut` is set when the text ends inside a spelling. */
interface Walk {
  text: string;
  cut: boolean;
}

/** Adds to `out` every position where a spelling of `node` that starts at `at` can end. */
function charEnds(node: Spelled, walk: Walk, at: number, out: number[]): void {
  const { text } = walk;
  if (at >= text.length) {
    walk.cut = true;
    return;
  }
  const code = fold(text.charCodeAt(at));
  if (!node.first.has(code)) return;
  const { plain } = node;
  if (code === plain.charCodeAt(0)) {
    const found = holds(text, at, plain);
    if (found === 'yes') out.push(at + plain.length);
    else if (found === 'cut') walk.cut = true;
  }
  for (const escape of node.escapes) {
    if (!escape[0].first.has(code)) continue;
    let here = [at];
    for (const x of escape) {
      const next: number[] = [];
      for (const p of here) charEnds(x, walk, p, next);
      here = next;
      if (here.length === 0) break;
    }
    for (const end of here) out.push(end);
  }
}

/** Where a spelling of the secret that starts at `at` can end (none when it does not start there). */
function secretEnds(secret: Sought, walk: Walk, at: number): number[] {
  let here = [at];
  for (const c of secret.chars) {
    const next: number[] = [];
    for (const p of here) charEnds(c, walk, p, next);
    if (next.length === 0) return [];
    here = next.length === 1 ? next : [...new Set(next)];
  }
  return here;
}

/** The spans [start, end) of `text` that spell `secret`, left to right, each as long as it can be. */
function spans(text: string, secret: string, bytes: boolean): [number, number][] {
  const s = sought(secret, bytes);
  const walk: Walk = { text, cut: false };
  const out: [number, number][] = [];
  for (let m = s.starts.exec(text); m !== null; m = s.starts.exec(text)) {
    const ends = secretEnds(s, walk, m.index);
    if (ends.length === 0) continue;
    const end = Math.max(...ends);
    out.push([m.index, end]);
    s.starts.lastIndex = end;
  }
  return out;
}

/** The most characters (or bytes) a character takes, written down to `depth` escapes. */
function longest(c: string, depth: number): number {
  const plain = Math.max(c.length, Buffer.byteLength(c, 'utf8'));
  if (depth === 0) return plain;
  return Math.max(plain, ...escapesOf(c).map((e) => [...e].reduce((n, x) => n + longest(x, depth - 1), 0)));
}

const spellingCache = new Map<string, number>();

/** The most characters (or bytes) one spelling of `secret` takes: 36 a character for `\u005c\u0075\u0030...`. */
export function longestSpelling(secret: string): number {
  // Walking every escape of every character takes a fraction of a millisecond, and a run asks it for the same few secrets at every response.
  let n = spellingCache.get(secret);
  if (n === undefined) {
    n = [...secret].reduce((sum, c) => sum + longest(c, DEPTH), 0);
    if (spellingCache.size >= 256) spellingCache.clear();
    spellingCache.set(secret, n);
  }
  return n;
}

/** The secrets worth looking for: strings of MIN_SECRET_LENGTH characters or more, each once. */
function wanted(secrets: readonly (string | undefined)[] | undefined): string[] {
  return [
    ...new Set((secrets ?? []).filter((s): s is string => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH)),
  ];
}

/** Whether `text` carries one of `secrets`, written in any of the ways this file knows. */
export function carriesSecret(text: string, secrets: readonly (string | undefined)[] | undefined): boolean {
  if (text.length === 0) return false;
  const list = wanted(secrets);
  if (list.length === 0) return false;
  return list.some((s) => spans(text, s, false).length > 0);
}

/** `text` with each span replaced by `replace(the text of the span)`. */
function replaceSpans(text: string, found: [number, number][], replace: (written: string) => string): string {
  let out = '';
  let at = 0;
  for (const [start, end] of found) {
    out += text.slice(at, start) + replace(text.slice(start, end));
    at = end;
  }
  return out + text.slice(at);
}

/**
 * The one scrubber of what is printed or stored: the text with every secret (of 4 characters
 * or more), written in any of the ways this file knows, replaced by `***`. A shorter one is
 * replaced only where it is plainly a credential: after `Bearer`, as a whole header value,
 * JSON string or text. `replacement` may write something else in a secret's place, given the
 * secret and how it was written (a copied cURL command reads `$LPREQ_TOKEN` where the token
 * stood as it is).
 */
export function scrubSecrets(
  text: string,
  secrets: readonly (string | undefined)[],
  replacement: (secret: string, written: string) => string = () => '***',
): string {
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
    out = replaceSpans(out, spans(out, s, false), (written) => replacement(s, written));
    // A long value is shown cut to its first 37 characters in typed-check messages (typed.ts).
    if (s.length > 40) out = replaceSpans(out, spans(out, s.slice(0, 37), false), () => '***');
  }
  return out;
}

/** A place in a copied text where a secret stood as it is: the copy reads it from this environment variable when it runs. */
export interface SecretPlace {
  variable: string;
}

/**
 * A text for a copied command or generated program, through the scrubber: cut where one of
 * `named` stands exactly as it is (`[value, variable]`: the copy reads the variable when it
 * runs, as `$LPREQ_TOKEN`); any other spelling of those values, and any of `others`, is `***`.
 */
export function cutAtSecrets(
  text: string,
  named: readonly (readonly [string | undefined, string])[],
  others: readonly (string | undefined)[],
): (string | SecretPlace)[] {
  // A mark the text cannot hold (it may hold a NUL), around the index of the named value.
  let mark = '\u0000';
  for (let c = 0xfdd0; text.includes(mark); c++) mark = String.fromCharCode(c);
  let out = text;
  named.forEach(([value], i) => {
    if (value !== undefined && value.length > 0)
      out = scrubSecrets(out, [value], (_, written) => (written === value ? `${mark}${i}${mark}` : '***'));
  });
  const pieces = scrubSecrets(out, others).split(mark);
  const parts: (string | SecretPlace)[] = [];
  pieces.forEach((piece, k) => {
    // Odd pieces are the indexes between two marks.
    if (k % 2 === 1) parts.push({ variable: named[Number(piece)][1] });
    else if (piece.length > 0) parts.push(piece);
  });
  return parts;
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

/** Whether `tail` (not empty) is a beginning of a spelling of `secret`: at least one character of it, or an escape cut in its middle, up to its end. */
function beginsSecret(tail: string, secret: Sought): boolean {
  const walk: Walk = { text: tail, cut: false };
  let here = [0];
  for (const c of secret.chars) {
    const next: number[] = [];
    for (const p of here) charEnds(c, walk, p, next);
    if (walk.cut) return true;
    if (next.length === 0) return false;
    here = [...new Set(next)];
  }
  // The whole secret up to the end counts too (the scrubber would replace it anyway).
  return here.includes(tail.length);
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
  const window = text.slice(from);
  // The earliest place the end of the text could begin a secret.
  let earliest = window.length;
  for (const secret of list) {
    const s = sought(secret, false);
    for (let m = s.firsts.exec(window); m !== null && m.index < earliest; m = s.firsts.exec(window)) {
      if (beginsSecret(window.slice(m.index), s)) earliest = m.index;
    }
  }
  return text.slice(0, from + earliest);
}

/**
 * Replaces secrets in a stream of bytes with `***`, chunk by chunk: the end of each chunk
 * that could be the start of a secret is held back until the next one (or `end`).
 */
export class SecretScrubber {
  private readonly secrets: string[];
  private readonly keep: number;
  private carry = '';

  constructor(secrets: readonly (string | undefined)[]) {
    // latin1 strings hold one character per byte, so any bytes (UTF-8 or not) go through unchanged.
    this.secrets = wanted(secrets);
    // A secret that may still be arriving is held back: as long as its longest spelling, less one.
    this.keep = Math.max(0, ...this.secrets.map((s) => longestSpelling(s) - 1));
  }

  get active(): boolean {
    return this.secrets.length > 0;
  }

  /** The scrubbed bytes that are ready to be written. */
  push(chunk: Buffer): Buffer {
    if (!this.active) return chunk;
    let text = this.carry + chunk.toString('latin1');
    for (const s of this.secrets) text = replaceSpans(text, spans(text, s, true), () => '***');
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
