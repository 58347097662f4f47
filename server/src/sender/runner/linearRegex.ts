/**
 * A linear-time matcher for the JavaScript regular expressions it reads whole: `matches` gives
 * the verdict of V8's own engine (`RegExp.prototype.test`) on every value, in time proportional
 * to the value's length times the pattern's size, where V8 may backtrack without end
 * (`^(a|aa)+$`, `^(\w+\s?)*$`). Only the verdict is needed, never captures, so a pattern
 * without backreferences and lookaround is a regular language, matched by a Thompson NFA.
 *
 * `compileLinear` reads a pattern with JavaScript's meaning, character by character, and
 * refuses (undefined) whatever it does not read whole: backreferences, lookaround, `\p{...}`,
 * the `v` flag, `i` with `u`, under `i` a character beyond ASCII named in the pattern (case
 * folding beyond ASCII is the Unicode tables', not ours), a legacy octal escape or any escape
 * whose meaning depends on Annex B's leniency, more than MAX_INSTRUCTIONS states. Such a
 * pattern is matched by V8 alone, within the budget. Without `u`, text is read as UTF-16 code
 * units, as V8 reads it; with `u`, as code points (a lone surrogate is one). `\s` is
 * ECMAScript's white space and line terminators, `.` excludes the four line terminators
 * (unless `s`), `^` and `$` under `m` stand at each of them, `\w` and `\b` are ASCII. The
 * property test `test/sender/linearRegex.test.ts` holds the verdicts to V8's.
 */

/** The instructions of a program (`linearTest` writes these numbers out). */
const SET = 0;
const SPLIT = 1;
const ASSERT = 2;
const MATCH = 3;

/** The zero-width assertions. */
const LINE_START = 0;
const LINE_END = 1;
const WORD_BOUNDARY = 2;
const NOT_WORD_BOUNDARY = 3;

/** Past this many states, a pattern is left to V8 (each value's time grows with it). */
const MAX_INSTRUCTIONS = 10_000;
/** Past this many groups one inside another, a pattern is left to V8 (the reader recurses). */
const MAX_DEPTH = 100;

/** A compiled pattern: plain data, copied to the thread that matches. */
export interface LinearProgram {
  /** Each instruction's kind (SET, SPLIT, ASSERT, MATCH) and its two operands. */
  op: Uint8Array;
  a: Int32Array;
  b: Int32Array;
  start: number;
  /** The sets SET reads: set k is the inclusive ranges ranges[from[k]..to[k]) (pairs), its ASCII members also in ascii[k*128+c]. */
  ranges: Int32Array;
  from: Int32Array;
  to: Int32Array;
  ascii: Uint8Array;
  unicode: boolean;
  multiline: boolean;
  sticky: boolean;
}

/** Ranges of code units or code points, inclusive: [lo, hi, lo, hi, ...], sorted and disjoint once normalized. */
type Ranges = number[];

type Node =
  | { kind: 'set'; ranges: Ranges }
  | { kind: 'assert'; which: number }
  | { kind: 'cat'; items: Node[] }
  | { kind: 'alt'; items: Node[] }
  | { kind: 'repeat'; item: Node; min: number; max: number };

/** Thrown inside the parser for what it does not read whole: the pattern goes to V8. */
class NotLinear extends Error {}

const DIGITS: Ranges = [0x30, 0x39];
const WORD: Ranges = [0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a];
/** ECMAScript's WhiteSpace and LineTerminator, what `\s` matches. */
const SPACE: Ranges = [
  0x09, 0x0d, 0x20, 0x20, 0xa0, 0xa0, 0x1680, 0x1680, 0x2000, 0x200a, 0x2028, 0x2029, 0x202f, 0x202f, 0x205f, 0x205f,
  0x3000, 0x3000, 0xfeff, 0xfeff,
];
const LINE_TERMINATORS: Ranges = [0x0a, 0x0a, 0x0d, 0x0d, 0x2028, 0x2029];
const SYNTAX = '^$\\.*+?()[]{}|/';

/** The program of `regex`, or undefined when its meaning is not read whole here (then V8 matches it alone). */
export function compileLinear(regex: RegExp): LinearProgram | undefined {
  const flags = regex.flags;
  if (flags.includes('v') || (flags.includes('i') && flags.includes('u'))) return undefined;
  let root: Node;
  try {
    root = new PatternReader(regex.source, {
      unicode: flags.includes('u'),
      ignoreCase: flags.includes('i'),
      dotAll: flags.includes('s'),
    }).read();
  } catch (e) {
    if (e instanceof NotLinear) return undefined;
    throw e;
  }
  if (sizeOf(root) > MAX_INSTRUCTIONS) return undefined;
  return emit(root, { unicode: flags.includes('u'), multiline: flags.includes('m'), sticky: flags.includes('y') });
}

/** How many instructions `node` compiles to (at least; Infinity when it is too large to count). */
function sizeOf(node: Node): number {
  switch (node.kind) {
    case 'set':
    case 'assert':
      return 1;
    case 'cat':
      return node.items.reduce((n, item) => n + sizeOf(item), 0);
    case 'alt':
      return node.items.reduce((n, item) => n + sizeOf(item), node.items.length - 1);
    case 'repeat': {
      const one = sizeOf(node.item);
      const optional = node.max === Infinity ? 1 : node.max - node.min;
      return node.min * one + optional * (one + 1);
    }
  }
}

interface ReadFlags {
  unicode: boolean;
  ignoreCase: boolean;
  dotAll: boolean;
}

/** A JavaScript pattern's source (as `RegExp.prototype.source` writes it) read into a tree. */
class PatternReader {
  private at = 0;
  private depth = 0;
  private readonly max: number;

  constructor(
    private readonly source: string,
    private readonly flags: ReadFlags,
  ) {
    this.max = flags.unicode ? 0x10ffff : 0xffff;
  }

  read(): Node {
    const node = this.disjunction();
    if (this.at < this.source.length) throw new NotLinear();
    return node;
  }

  private disjunction(): Node {
    if (++this.depth > MAX_DEPTH) throw new NotLinear();
    const items = [this.alternative()];
    while (this.source[this.at] === '|') {
      this.at++;
      items.push(this.alternative());
    }
    this.depth--;
    return items.length === 1 ? items[0] : { kind: 'alt', items };
  }

  private alternative(): Node {
    const items: Node[] = [];
    while (this.at < this.source.length && this.source[this.at] !== '|' && this.source[this.at] !== ')')
      items.push(this.term());
    return items.length === 1 ? items[0] : { kind: 'cat', items };
  }

  private term(): Node {
    const s = this.source;
    const c = s[this.at];
    if (c === '^' || c === '$' || (c === '\\' && (s[this.at + 1] === 'b' || s[this.at + 1] === 'B'))) {
      const which =
        c === '^' ? LINE_START : c === '$' ? LINE_END : s[this.at + 1] === 'b' ? WORD_BOUNDARY : NOT_WORD_BOUNDARY;
      this.at += c === '\\' ? 2 : 1;
      if (this.quantifierAhead()) throw new NotLinear();
      return { kind: 'assert', which };
    }
    return this.quantified(this.atom());
  }

  private atom(): Node {
    const s = this.source;
    const c = s[this.at];
    switch (c) {
      case '(': {
        if (s.startsWith('(?:', this.at)) this.at += 3;
        else if (s.startsWith('(?<', this.at) && s[this.at + 3] !== '=' && s[this.at + 3] !== '!') {
          const close = s.indexOf('>', this.at);
          if (close < 0 || !/^[\p{ID_Continue}$\u200c\u200d]+$/u.test(s.slice(this.at + 3, close)))
            throw new NotLinear();
          this.at = close + 1;
        } else if (s[this.at + 1] === '?') throw new NotLinear();
        else this.at++;
        const inner = this.disjunction();
        if (s[this.at] !== ')') throw new NotLinear();
        this.at++;
        return inner;
      }
      case '.':
        this.at++;
        return this.set(this.flags.dotAll ? [0, this.max] : complement(LINE_TERMINATORS, this.max));
      case '[':
        return this.characterClass();
      case '\\': {
        this.at++;
        const e = s[this.at];
        const named = this.setEscape(e);
        if (named) {
          this.at++;
          return this.set(named);
        }
        return this.char(this.charEscape(false));
      }
      case '*':
      case '+':
      case '?':
      case ')':
        throw new NotLinear();
      case '{':
      case '}':
      case ']':
        // Without `u`, a brace or bracket that starts no quantifier or class stands for itself.
        if (this.flags.unicode || (c === '{' && this.quantifierAhead())) throw new NotLinear();
        this.at++;
        return this.char(c.charCodeAt(0));
      default:
        return this.char(this.literal());
    }
  }

  /** `\d`, `\D`, `\w`, `\W`, `\s`, `\S` after the backslash, or undefined. */
  private setEscape(e: string | undefined): Ranges | undefined {
    switch (e) {
      case 'd':
        return DIGITS;
      case 'D':
        return complement(DIGITS, this.max);
      case 'w':
        return WORD;
      case 'W':
        return complement(WORD, this.max);
      case 's':
        return SPACE;
      case 'S':
        return complement(SPACE, this.max);
      default:
        return undefined;
    }
  }

  /** The character an escape stands for, the backslash read; `inClass`: `\b` is backspace there. */
  private charEscape(inClass: boolean): number {
    const s = this.source;
    const e = s[this.at];
    if (e === undefined) throw new NotLinear();
    this.at++;
    const simple = 'tnvfr'.indexOf(e);
    if (simple >= 0) return [9, 10, 11, 12, 13][simple];
    if (e === 'b' && inClass) return 8;
    if (e === '0') {
      // `\0` followed by a digit is a legacy octal escape.
      if (/[0-9]/.test(s[this.at] ?? '')) throw new NotLinear();
      return 0;
    }
    if (e === 'c') {
      const letter = s[this.at];
      if (letter === undefined || !/[A-Za-z]/.test(letter)) throw new NotLinear();
      this.at++;
      return letter.charCodeAt(0) % 32;
    }
    if (e === 'x') {
      const hex = /^[0-9A-Fa-f]{2}/.exec(s.slice(this.at, this.at + 2));
      if (!hex) throw new NotLinear();
      this.at += 2;
      return parseInt(hex[0], 16);
    }
    if (e === 'u') return this.unicodeEscape();
    if (SYNTAX.includes(e) || e === '-') return e.charCodeAt(0);
    // Any other escape is an identity escape without `u` (a letter may mean something else: left to V8).
    if (this.flags.unicode || /[A-Za-z0-9]/.test(e)) throw new NotLinear();
    return e.charCodeAt(0);
  }

  /** `\uXXXX` (with `u`, a surrogate pair of two is one code point) or `\u{...}` (with `u`), the `\u` read. */
  private unicodeEscape(): number {
    const s = this.source;
    if (this.flags.unicode && s[this.at] === '{') {
      const m = /^\{([0-9A-Fa-f]+)\}/.exec(s.slice(this.at, this.at + 10));
      if (!m || parseInt(m[1], 16) > 0x10ffff) throw new NotLinear();
      this.at += m[0].length;
      return parseInt(m[1], 16);
    }
    const hex = /^[0-9A-Fa-f]{4}/.exec(s.slice(this.at, this.at + 4));
    if (!hex) throw new NotLinear();
    this.at += 4;
    const unit = parseInt(hex[0], 16);
    if (this.flags.unicode && unit >= 0xd800 && unit <= 0xdbff) {
      const trail = /^\\u([dD][c-fC-F][0-9A-Fa-f]{2})/.exec(s.slice(this.at, this.at + 6));
      if (trail) {
        this.at += 6;
        return (unit - 0xd800) * 0x400 + (parseInt(trail[1], 16) - 0xdc00) + 0x10000;
      }
    }
    return unit;
  }

  /** One character as written: a code point with `u`, else a code unit. */
  private literal(): number {
    const code = this.flags.unicode ? (this.source.codePointAt(this.at) as number) : this.source.charCodeAt(this.at);
    this.at += code > 0xffff ? 2 : 1;
    return code;
  }

  private characterClass(): Node {
    const s = this.source;
    this.at++;
    const negated = s[this.at] === '^';
    if (negated) this.at++;
    const ranges: Ranges = [];
    for (;;) {
      if (this.at >= s.length) throw new NotLinear();
      if (s[this.at] === ']') break;
      const first = this.classAtom();
      if (s[this.at] === '-' && s[this.at + 1] !== ']' && this.at + 1 < s.length) {
        this.at++;
        const last = this.classAtom();
        // A range with \d or the like at an end is a union without `u` (Annex B), an error with it.
        if (typeof first !== 'number' || typeof last !== 'number' || first > last) throw new NotLinear();
        ranges.push(first, last);
      } else if (typeof first === 'number') ranges.push(first, first);
      else ranges.push(...first);
    }
    this.at++;
    const members = this.caseClosed(normalize(ranges));
    return { kind: 'set', ranges: negated ? complement(members, this.max) : members };
  }

  /** A character of a class, or the set of `\d` and the like in it. */
  private classAtom(): number | Ranges {
    if (this.source[this.at] !== '\\') {
      const code = this.literal();
      this.checkCase(code);
      return code;
    }
    this.at++;
    const named = this.setEscape(this.source[this.at]);
    if (named) {
      this.at++;
      return named;
    }
    // `\B`, `\k` and a digit in a class are identity or octal escapes without `u`: left to V8.
    const code = this.charEscape(true);
    this.checkCase(code);
    return code;
  }

  private char(code: number): Node {
    this.checkCase(code);
    return this.set([code, code]);
  }

  private set(ranges: Ranges): Node {
    return { kind: 'set', ranges: this.caseClosed(normalize(ranges)) };
  }

  /** Under `i` without `u`, a character beyond ASCII named in the pattern folds by Unicode's tables: left to V8. */
  private checkCase(code: number): void {
    if (this.flags.ignoreCase && code >= 0x80) throw new NotLinear();
  }

  /**
   * Under `i` (without `u`), a set with each ASCII letter's other case: what ECMAScript's
   * Canonicalize adds to a set whose named characters are ASCII. Beyond ASCII it adds
   * nothing there: no character beyond ASCII canonicalizes to ASCII, and the sets of `\S`,
   * `\W`, `\D` and `.` hold every case of what they hold.
   */
  private caseClosed(ranges: Ranges): Ranges {
    if (!this.flags.ignoreCase) return ranges;
    const out = [...ranges];
    for (let k = 0; k < ranges.length; k += 2) {
      for (const [lo, hi, shift] of [
        [0x41, 0x5a, 0x20],
        [0x61, 0x7a, -0x20],
      ]) {
        const from = Math.max(lo, ranges[k]);
        const to = Math.min(hi, ranges[k + 1]);
        if (from <= to) out.push(from + shift, to + shift);
      }
    }
    return normalize(out);
  }

  /** Whether a quantifier starts here: `*`, `+`, `?` or a well-formed `{n}`, `{n,}`, `{n,m}`. */
  private quantifierAhead(): boolean {
    const c = this.source[this.at];
    return c === '*' || c === '+' || c === '?' || (c === '{' && /^\{\d+(,\d*)?\}/.test(this.source.slice(this.at)));
  }

  private quantified(item: Node): Node {
    const s = this.source;
    const c = s[this.at];
    let min: number;
    let max: number;
    if (c === '*' || c === '+' || c === '?') {
      this.at++;
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(s.slice(this.at));
      // Without `u`, a brace that starts no quantifier is a character, read as the next atom.
      if (!m) return item;
      this.at += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]);
      if (min > max || min > MAX_INSTRUCTIONS || (max !== Infinity && max > MAX_INSTRUCTIONS)) throw new NotLinear();
    } else return item;
    // A lazy quantifier matches the same texts: only whether one matches is asked.
    if (s[this.at] === '?') this.at++;
    if (this.quantifierAhead()) throw new NotLinear();
    return { kind: 'repeat', item, min, max };
  }
}

/** Sorted, merged ranges. */
function normalize(ranges: Ranges): Ranges {
  const pairs: [number, number][] = [];
  for (let k = 0; k < ranges.length; k += 2) pairs.push([ranges[k], ranges[k + 1]]);
  pairs.sort((x, y) => x[0] - y[0]);
  const out: Ranges = [];
  for (const [lo, hi] of pairs) {
    const last = out.length - 1;
    if (last > 0 && lo <= out[last] + 1) out[last] = Math.max(out[last], hi);
    else out.push(lo, hi);
  }
  return out;
}

/** Every character up to `max` that `ranges` (normalized) does not hold. */
function complement(ranges: Ranges, max: number): Ranges {
  const sorted = normalize(ranges);
  const out: Ranges = [];
  let next = 0;
  for (let k = 0; k < sorted.length; k += 2) {
    if (sorted[k] > next) out.push(next, sorted[k] - 1);
    next = sorted[k + 1] + 1;
  }
  if (next <= max) out.push(next, max);
  return out;
}

/** The tree as instructions, each compiled knowing where it goes next (no patching). */
function emit(root: Node, options: { unicode: boolean; multiline: boolean; sticky: boolean }): LinearProgram {
  const op: number[] = [];
  const a: number[] = [];
  const b: number[] = [];
  const sets = new Map<Node, number>();
  const setRanges: Ranges[] = [];
  const instruction = (kind: number, x: number, y: number) => {
    op.push(kind);
    a.push(x);
    b.push(y);
    return op.length - 1;
  };
  const compile = (node: Node, next: number): number => {
    switch (node.kind) {
      case 'set': {
        let id = sets.get(node);
        if (id === undefined) {
          id = setRanges.push(node.ranges) - 1;
          sets.set(node, id);
        }
        return instruction(SET, id, next);
      }
      case 'assert':
        return instruction(ASSERT, node.which, next);
      case 'cat':
        for (let k = node.items.length - 1; k >= 0; k--) next = compile(node.items[k], next);
        return next;
      case 'alt': {
        const entries = node.items.map((item) => compile(item, next));
        let entry = entries[entries.length - 1];
        for (let k = entries.length - 2; k >= 0; k--) entry = instruction(SPLIT, entries[k], entry);
        return entry;
      }
      case 'repeat': {
        let entry: number;
        if (node.max === Infinity) {
          // A loop: its split is made first, so that the body can return to it.
          const loop = instruction(SPLIT, -1, next);
          a[loop] = compile(node.item, loop);
          entry = loop;
        } else {
          entry = next;
          for (let k = node.min; k < node.max; k++) entry = instruction(SPLIT, compile(node.item, entry), next);
        }
        for (let k = 0; k < node.min; k++) entry = compile(node.item, entry);
        return entry;
      }
    }
  };
  const match = instruction(MATCH, 0, 0);
  const start = compile(root, match);
  const from = new Int32Array(setRanges.length);
  const to = new Int32Array(setRanges.length);
  const ascii = new Uint8Array(setRanges.length * 128);
  const flat: number[] = [];
  setRanges.forEach((ranges, id) => {
    from[id] = flat.length;
    flat.push(...ranges);
    to[id] = flat.length;
    for (let k = 0; k < ranges.length && ranges[k] < 128; k += 2)
      for (let c = ranges[k]; c <= Math.min(ranges[k + 1], 127); c++) ascii[id * 128 + c] = 1;
  });
  return {
    op: Uint8Array.from(op),
    a: Int32Array.from(a),
    b: Int32Array.from(b),
    start,
    ranges: Int32Array.from(flat),
    from,
    to,
    ascii,
    ...options,
  };
}

/**
 * Whether `program` matches somewhere in `text` (from its start when sticky), as
 * `RegExp.prototype.test` with lastIndex 0 answers. It runs in the thread that matches
 * (regexBudget.ts) by its source text: it reads nothing outside its own body, so the
 * instruction numbers of the top of this file are written out here.
 */
export function linearTest(program: LinearProgram, text: string): boolean {
  const { op, a, b, ranges, from, to, ascii, start, unicode, multiline, sticky } = program;
  const count = op.length;
  const length = text.length;
  let current = new Int32Array(count);
  let following = new Int32Array(count);
  const seen = new Int32Array(count);
  const stack = new Int32Array(2 * count + 2);
  let generation = 0;
  const isWord = (k: number): boolean => {
    if (k < 0 || k >= length) return false;
    const c = text.charCodeAt(k);
    return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || c === 95 || (c >= 97 && c <= 122);
  };
  const isLineTerminator = (c: number): boolean => c === 10 || c === 13 || c === 0x2028 || c === 0x2029;
  // Adds to `list` the SET states reachable from `pc` at position `at` without reading; -1 when MATCH is reached.
  const add = (list: Int32Array, size: number, pc: number, at: number): number => {
    let top = 0;
    stack[top++] = pc;
    while (top > 0) {
      const p = stack[--top];
      if (seen[p] === generation) continue;
      seen[p] = generation;
      switch (op[p]) {
        case 0: // SET
          list[size++] = p;
          break;
        case 1: // SPLIT
          stack[top++] = b[p];
          stack[top++] = a[p];
          break;
        case 2: {
          // ASSERT: line start, line end, word boundary, not a word boundary
          const which = a[p];
          const holds =
            which === 0
              ? at === 0 || (multiline && isLineTerminator(text.charCodeAt(at - 1)))
              : which === 1
                ? at === length || (multiline && isLineTerminator(text.charCodeAt(at)))
                : (isWord(at - 1) !== isWord(at)) === (which === 2);
          if (holds) stack[top++] = b[p];
          break;
        }
        default: // MATCH
          return -1;
      }
    }
    return size;
  };
  const member = (set: number, c: number): boolean => {
    if (c < 128) return ascii[set * 128 + c] === 1;
    let lo = from[set] >> 1;
    let hi = (to[set] >> 1) - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (c < ranges[2 * mid]) hi = mid - 1;
      else if (c > ranges[2 * mid + 1]) lo = mid + 1;
      else return true;
    }
    return false;
  };
  generation = 1;
  let size = add(current, 0, start, 0);
  if (size < 0) return true;
  let at = 0;
  while (at < length) {
    if (size === 0 && sticky) return false;
    let c = text.charCodeAt(at);
    let width = 1;
    if (unicode && c >= 0xd800 && c <= 0xdbff && at + 1 < length) {
      const d = text.charCodeAt(at + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        c = (c - 0xd800) * 0x400 + (d - 0xdc00) + 0x10000;
        width = 2;
      }
    }
    const after = at + width;
    generation++;
    let next = 0;
    for (let k = 0; k < size; k++) {
      const p = current[k];
      if (member(a[p], c)) {
        next = add(following, next, b[p], after);
        if (next < 0) return true;
      }
    }
    if (!sticky) {
      next = add(following, next, start, after);
      if (next < 0) return true;
    }
    const swap = current;
    current = following;
    following = swap;
    size = next;
    at = after;
  }
  return false;
}
