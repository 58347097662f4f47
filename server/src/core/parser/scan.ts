/*
 * Scanning a block's text: character classes, tokens, and the line ranges of the block.
 * The block is scanned by index: lines are [start, end) ranges of the block text, and only
 * the tokens that go into the tree are sliced out. No per-line objects or strings, and no
 * regular expressions on the common lines: this is the hot path of every keystroke and of
 * `lpreq check` over large files.
 */
import type { Token } from './tree';

export function isSpace(c: number): boolean {
  return (
    c === 32 ||
    c === 9 ||
    c === 13 ||
    c === 10 ||
    c === 12 ||
    c === 11 ||
    c === 0xa0 ||
    c === 0xfeff ||
    (c >= 0x2000 && (c <= 0x200a || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000)) ||
    c === 0x1680
  );
}

/** The first index in [from, to) that is not a space or tab (or `to`). */
export function skipBlanks(text: string, from: number, to: number): number {
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) break;
    i++;
  }
  return i;
}

export function isBlankRange(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

/** A whole-line comment: `#` or `//` after leading blanks. */
export function isCommentRange(text: string, from: number, to: number): boolean {
  const i = skipBlanks(text, from, to);
  const c = text.charCodeAt(i);
  return i < to && (c === 35 || (c === 47 && i + 1 < to && text.charCodeAt(i + 1) === 47));
}

/** The trimmed token in [from, to); an empty token stands at `from`. */
export function tokenIn(text: string, from: number, to: number): Token {
  let a = from;
  let b = to;
  while (a < b && isSpace(text.charCodeAt(a))) a++;
  while (b > a && isSpace(text.charCodeAt(b - 1))) b--;
  return { text: text.slice(a, b), start: a, end: b };
}

function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** After the first character of a name: letters, digits, `_`, `-` and, with `dots`, `.`. */
function isIdentPart(c: number, dots: boolean): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57) || c === 45 || (dots && c === 46);
}

/** The end of a name starting at `from`: a letter or `_`, then letters, digits, `_`, `-` (and `.` with `dots`). */
export function identEnd(text: string, from: number, to: number, dots: boolean): number {
  if (from >= to || !isIdentStart(text.charCodeAt(from))) return from;
  let i = from + 1;
  while (i < to && isIdentPart(text.charCodeAt(i), dots)) i++;
  return i;
}

/** HTTP token characters (RFC 9110), for header names, as a table of the ASCII range. */
const TOKEN_CHARS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letterOrDigit = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  TOKEN_CHARS[c] = letterOrDigit || "!#$%&'*+.^_`|~-".includes(String.fromCharCode(c)) ? 1 : 0;
}

export function isTokenChar(c: number): boolean {
  return c < 128 && TOKEN_CHARS[c] === 1;
}

export function safeDecode(s: string): string {
  if (!s.includes('%') && !s.includes('+')) return s;
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/**
 * Lists a block does not use share one empty array, and the line ranges live in
 * scratch arrays reused from block to block (parsing is synchronous): a large document
 * allocates little beyond its tree.
 */
// Not frozen: a frozen array has another elements kind, which makes every loop over block lists polymorphic.
// Only `add` below ever grows a list, and it never pushes onto NONE.
export const NONE: never[] = [];
export const scratchStarts: number[] = [];
export const scratchEnds: number[] = [];

export function add<T>(list: T[], item: T): T[] {
  if (list === NONE) return [item];
  list.push(item);
  return list;
}

/** Fills the scratch line ranges: scratchStarts[k] .. scratchEnds[k], before the line break and without a trailing CR. Returns the count. */
export function splitLines(text: string): number {
  const n = text.length;
  const starts = scratchStarts;
  const ends = scratchEnds;
  let count = 0;
  for (let start = 0; start <= n;) {
    let nl = text.indexOf('\n', start);
    if (nl === -1) nl = n;
    starts[count] = start;
    ends[count] = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    count++;
    if (nl >= n) break;
    start = nl + 1;
  }
  return count;
}
