/**
 * A JSON body as the rows of a foldable, pretty-printed view, without ever building the whole
 * view: the text is scanned only where it is shown. A container's children are found when it
 * is first expanded or counted (one pass over its span, nested values skipped), long arrays
 * are shown in ranges of CHUNK elements (ranges of ranges beyond CHUNK * CHUNK), only the
 * first range of an array is expanded at first, and the row at an index is found by
 * descending through cached row counts. Pure: no DOM, so the benchmark and the tests run it.
 *
 * The text is taken to be valid JSON (the sender parsed it); a malformed one shows what can
 * be read and never loops.
 */
import { appendSegment, WILDCARD, type PathSegment } from './jsonPath';

export type ValueKind = 'object' | 'array' | 'string' | 'number' | 'boolean' | 'null';

/** Elements of an array shown at once; longer arrays come in ranges of this many. */
export const CHUNK = 100;
/** An object larger than this (in characters) starts collapsed, unless it is the body itself. */
const OPEN_OBJECT_MAX_CHARS = 1 << 20;

const SPACE = 32;
const TAB = 9;
const LF = 10;
const CR = 13;
const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const COLON = 58;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

function skipSpace(text: string, i: number, end: number): number {
  while (i < end) {
    const c = text.charCodeAt(i);
    if (c === SPACE || c === LF || c === CR || c === TAB) i++;
    else break;
  }
  return i;
}

/** `i` at an opening quote: the index after the closing one. */
function stringEnd(text: string, i: number): number {
  let from = i + 1;
  for (;;) {
    const q = text.indexOf('"', from);
    if (q === -1) return text.length;
    let backslashes = 0;
    for (let b = q - 1; text.charCodeAt(b) === BACKSLASH; b--) backslashes++;
    if (backslashes % 2 === 0) return q + 1;
    from = q + 1;
  }
}

/** A container this long has its end remembered: found again by every level above it, it would make a deep body quadratic. */
const REMEMBERED_END = 4096;

/**
 * `i` at `{` or `[`: the index after the matching close. The ends of the long containers met
 * on the way are kept in `ends` and skipped over when met again: a body nested 30,000 levels
 * deep is scanned once, not once per level.
 */
function containerEnd(text: string, i: number, ends?: Map<number, number>): number {
  const known = ends?.get(i);
  if (known !== undefined) return known;
  const opens: number[] = [];
  const n = text.length;
  while (i < n) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      i = stringEnd(text, i);
      continue;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const skip = opens.length > 0 ? ends?.get(i) : undefined;
      if (skip !== undefined) {
        i = skip;
        continue;
      }
      opens.push(i);
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      const open = opens.pop();
      if (open !== undefined && ends && i + 1 - open >= REMEMBERED_END) ends.set(open, i + 1);
      if (opens.length === 0) return i + 1;
    }
    i++;
  }
  return n;
}

function valueEnd(text: string, i: number, end: number, ends?: Map<number, number>): number {
  const c = text.charCodeAt(i);
  if (c === QUOTE) return stringEnd(text, i);
  if (c === OPEN_BRACE || c === OPEN_BRACKET) return containerEnd(text, i, ends);
  while (i < end) {
    const d = text.charCodeAt(i);
    if (d === COMMA || d === CLOSE_BRACE || d === CLOSE_BRACKET || d === SPACE || d === LF || d === CR || d === TAB)
      break;
    i++;
  }
  return i;
}

function kindAt(text: string, i: number): ValueKind {
  switch (text.charCodeAt(i)) {
    case OPEN_BRACE:
      return 'object';
    case OPEN_BRACKET:
      return 'array';
    case QUOTE:
      return 'string';
    case 116: // t
    case 102: // f
      return 'boolean';
    case 110: // n
      return 'null';
    default:
      return 'number';
  }
}

/** Where the children of a container stand in the text. */
interface Scan {
  /** Start of each member's name (its opening quote), objects only. */
  keyStarts?: number[];
  keyEnds?: number[];
  starts: number[];
  ends: number[];
}

/** What a row shows: a value (a member, an element, the body) or a range of an array's elements. */
export type Item = JsonValue | JsonRange;

abstract class ItemBase {
  expanded = false;
  /** The item whose rows hold this one's (a value in a range belongs to the range). */
  parentItem: Item | undefined;
  /** The position among the parent item's child items. */
  slot = 0;
  indent = 0;
  rowsCache = -1;
  prefixCache: number[] | undefined;
  itemsCache: Item[] | undefined;
}

export class JsonValue extends ItemBase {
  readonly isRange = false;
  private scanned: Scan | undefined;
  private kids: (JsonValue | undefined)[] | undefined;
  private pathCache: string | undefined;
  private patternCache: string | undefined;

  constructor(
    readonly doc: JsonDocument,
    /** The container that holds this value in the JSON (not a range). */
    readonly parent: JsonValue | undefined,
    readonly kind: ValueKind,
    readonly start: number,
    readonly end: number,
    /** Index among the parent's children: the element's index, or the member's position. */
    readonly index: number,
    readonly keyStart: number,
    readonly keyEnd: number,
  ) {
    super();
  }

  get isContainer(): boolean {
    return this.kind === 'object' || this.kind === 'array';
  }

  /** Children of a container, scanned once. */
  scan(): Scan {
    if (this.scanned) return this.scanned;
    const text = this.doc.text;
    const out: Scan = { starts: [], ends: [] };
    if (this.kind === 'object') {
      out.keyStarts = [];
      out.keyEnds = [];
    }
    if (this.isContainer) {
      const close = this.end - 1;
      let i = skipSpace(text, this.start + 1, close);
      while (i < close) {
        if (out.keyStarts && out.keyEnds) {
          if (text.charCodeAt(i) !== QUOTE) break;
          const keyEnd = stringEnd(text, i);
          out.keyStarts.push(i);
          out.keyEnds.push(keyEnd);
          i = skipSpace(text, keyEnd, close);
          if (text.charCodeAt(i) !== COLON) {
            out.keyStarts.pop();
            out.keyEnds.pop();
            break;
          }
          i = skipSpace(text, i + 1, close);
        }
        const end = Math.min(valueEnd(text, i, close, this.doc.containerEnds), close);
        if (end <= i) {
          out.keyStarts?.pop();
          out.keyEnds?.pop();
          break;
        }
        out.starts.push(i);
        out.ends.push(end);
        i = skipSpace(text, end, close);
        if (text.charCodeAt(i) !== COMMA) break;
        i = skipSpace(text, i + 1, close);
      }
    }
    this.scanned = out;
    return out;
  }

  get childCount(): number {
    return this.isContainer ? this.scan().starts.length : 0;
  }

  /** The child value at `i` (element index or member position), made once. */
  child(i: number): JsonValue {
    const s = this.scan();
    this.kids ??= new Array<JsonValue | undefined>(s.starts.length);
    let kid = this.kids[i];
    if (!kid) {
      kid = new JsonValue(
        this.doc,
        this,
        kindAt(this.doc.text, s.starts[i]),
        s.starts[i],
        s.ends[i],
        i,
        s.keyStarts?.[i] ?? -1,
        s.keyEnds?.[i] ?? -1,
      );
      kid.expanded = kid.kind === 'array' || (kid.kind === 'object' && kid.end - kid.start <= OPEN_OBJECT_MAX_CHARS);
      this.kids[i] = kid;
    }
    return kid;
  }

  /** The member's name as written, quotes included. */
  get rawKey(): string | undefined {
    return this.keyStart >= 0 ? this.doc.text.slice(this.keyStart, this.keyEnd) : undefined;
  }

  /** The member's name. */
  get key(): string | undefined {
    const raw = this.rawKey;
    if (raw === undefined) return undefined;
    if (!raw.includes('\\')) return raw.slice(1, -1);
    try {
      return JSON.parse(raw) as string;
    } catch {
      return raw.slice(1, -1);
    }
  }

  get isArrayElement(): boolean {
    return this.parent?.kind === 'array';
  }

  get segment(): PathSegment | undefined {
    if (!this.parent) return undefined;
    return this.isArrayElement ? this.index : (this.key ?? '');
  }

  /** The JSON path, as the sender writes it. */
  get path(): string {
    if (this.pathCache === undefined) {
      // Down from the nearest ancestor that knows its path, without recursion: a body may nest 100,000 levels deep.
      const above: JsonValue[] = [this];
      for (let v = this.parent; v && v.pathCache === undefined; v = v.parent) above.push(v);
      for (let k = above.length - 1; k >= 0; k--) {
        const v = above[k];
        v.pathCache = v.parent ? appendSegment(v.parent.pathCache ?? '$', v.segment ?? '') : '$';
      }
    }
    return this.pathCache ?? '$';
  }

  /** The path with every index written `[*]`: what the docs type (jsonPath.ts's pattern), made as `path` is. */
  get pattern(): string {
    if (this.patternCache === undefined) {
      const above: JsonValue[] = [this];
      for (let v = this.parent; v && v.patternCache === undefined; v = v.parent) above.push(v);
      for (let k = above.length - 1; k >= 0; k--) {
        const v = above[k];
        v.patternCache = v.parent
          ? appendSegment(v.parent.patternCache ?? '$', v.isArrayElement ? WILDCARD : (v.key ?? ''))
          : '$';
      }
    }
    return this.patternCache ?? '$';
  }

  /** The value as written: a scalar's text, a container's whole text. */
  get raw(): string {
    return this.doc.text.slice(this.start, this.end);
  }

  /** Whether another value follows this one in its container (it then ends with a comma). */
  get hasNext(): boolean {
    return this.parent !== undefined && this.index < this.parent.childCount - 1;
  }
}

/** Elements `start` to `end - 1` of an array, shown as one foldable row. */
class JsonRange extends ItemBase {
  readonly isRange = true;
  constructor(
    readonly array: JsonValue,
    readonly start: number,
    readonly end: number,
  ) {
    super();
  }
}

export interface Row {
  item: Item;
  /** `open`: a container's first line; `close`: its last; `line`: a scalar, or a collapsed or empty container; `range`: a range's line. */
  kind: 'open' | 'close' | 'line' | 'range';
}

function rangeStep(length: number): number {
  let step = CHUNK;
  while (step * CHUNK < length) step *= CHUNK;
  return step;
}

export class JsonDocument {
  readonly root: JsonValue | undefined;
  /** The ends of long containers, by their start (containerEnd). */
  readonly containerEnds = new Map<number, number>();

  constructor(readonly text: string) {
    const start = skipSpace(text, 0, text.length);
    if (start < text.length) {
      const end = valueEnd(text, start, text.length, this.containerEnds);
      this.root = new JsonValue(this, undefined, kindAt(text, start), start, end, 0, -1, -1);
      this.root.expanded = true;
    }
  }

  /** The child items of an item: members, elements or ranges. */
  items(item: Item): Item[] {
    if (item.itemsCache) return item.itemsCache;
    let out: Item[] = [];
    let array: JsonValue | undefined;
    let from = 0;
    let to = 0;
    if (item.isRange) {
      array = item.array;
      from = item.start;
      to = item.end;
    } else if (item.kind === 'array') {
      array = item;
      to = item.childCount;
    } else if (item.kind === 'object') {
      const n = item.childCount;
      out = new Array<Item>(n);
      for (let i = 0; i < n; i++) out[i] = item.child(i);
    }
    if (array) {
      const length = to - from;
      if (length > CHUNK) {
        const step = rangeStep(length);
        for (let s = from; s < to; s += step) {
          const range = new JsonRange(array, s, Math.min(to, s + step));
          // The first range of each level is open, so that the first elements show at once.
          range.expanded = s === from;
          out.push(range);
        }
      } else {
        for (let i = from; i < to; i++) out.push(array.child(i));
      }
    }
    out.forEach((child, slot) => {
      child.parentItem = item;
      child.slot = slot;
      child.indent = item.indent + 1;
    });
    item.itemsCache = out;
    return out;
  }

  private hasChildren(item: Item): boolean {
    return item.isRange ? item.end > item.start : item.isContainer && item.childCount > 0;
  }

  /**
   * Rows an item takes with its expanded descendants. Counted from the leaves up with a stack
   * of its own, not by recursion: a body nested 30,000 levels deep would exhaust the call stack.
   */
  rows(item: Item): number {
    if (item.rowsCache >= 0) return item.rowsCache;
    const stack: Item[] = [item];
    while (stack.length > 0) {
      const top = stack[stack.length - 1];
      if (top.rowsCache >= 0) {
        stack.pop();
        continue;
      }
      if (!top.expanded || !this.hasChildren(top)) {
        top.rowsCache = 1;
        stack.pop();
        continue;
      }
      const children = this.items(top);
      let waiting = false;
      for (const child of children) {
        if (child.rowsCache < 0) {
          stack.push(child);
          waiting = true;
        }
      }
      if (waiting) continue;
      let n = 1;
      for (const child of children) n += child.rowsCache;
      if (!top.isRange) n++; // the closing line
      top.rowsCache = n;
      stack.pop();
    }
    return item.rowsCache;
  }

  /** Rows before each child item within the item's rows, its own first row not counted. */
  private prefix(item: Item): number[] {
    if (item.prefixCache) return item.prefixCache;
    const items = this.items(item);
    const out = new Array<number>(items.length);
    let sum = 0;
    for (let k = 0; k < items.length; k++) {
      out[k] = sum;
      sum += this.rows(items[k]);
    }
    item.prefixCache = out;
    return out;
  }

  get rowCount(): number {
    return this.root ? this.rows(this.root) : 0;
  }

  /** The row at `index` (0-based), or undefined past the end. */
  rowAt(index: number): Row | undefined {
    let item: Item | undefined = this.root;
    if (!item || index < 0 || index >= this.rows(item)) return undefined;
    for (;;) {
      if (index === 0) {
        if (item.isRange) return { item, kind: 'range' };
        return { item, kind: item.expanded && this.hasChildren(item) ? 'open' : 'line' };
      }
      const rel: number = index - 1;
      const prefix = this.prefix(item);
      const items = this.items(item);
      // The last child whose rows start at or before rel.
      let lo = 0;
      let hi = prefix.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (prefix[mid] <= rel) lo = mid;
        else hi = mid - 1;
      }
      const child = items[lo];
      if (child && rel < prefix[lo] + this.rows(child)) {
        item = child;
        index = rel - prefix[lo];
        continue;
      }
      return { item, kind: 'close' };
    }
  }

  /** The index of an item's first row; its ancestors are taken to be expanded. */
  rowIndexOf(item: Item): number {
    let index = 0;
    let cur = item;
    while (cur.parentItem) {
      const parent: Item = cur.parentItem;
      index += 1 + this.prefix(parent)[cur.slot];
      cur = parent;
    }
    return index;
  }

  setExpanded(item: Item, expanded: boolean): void {
    if (item.expanded === expanded) return;
    item.expanded = expanded;
    for (let cur: Item | undefined = item; cur; cur = cur.parentItem) {
      cur.rowsCache = -1;
      cur.prefixCache = undefined;
    }
  }

  toggle(item: Item): void {
    this.setExpanded(item, !item.expanded);
  }

  /** Expands every item above this one, so that its row is shown. */
  private expandAbove(item: Item): void {
    for (let cur = item.parentItem; cur; cur = cur.parentItem) this.setExpanded(cur, true);
  }

  /**
   * The child value at `index` of `value`, with the ranges that show it made, so that its
   * place among the rows is known (an element belongs to the range it is shown in).
   */
  private itemOfChild(value: JsonValue, index: number): JsonValue {
    let holder: Item = value;
    for (;;) {
      const items = this.items(holder);
      const range = items[0]?.isRange ? items.find((r) => r.isRange && index >= r.start && index < r.end) : undefined;
      if (!range) return value.child(index);
      holder = range;
    }
  }

  /** The value at a path, with everything above it expanded; undefined when the body has none there. */
  reveal(segments: readonly PathSegment[]): JsonValue | undefined {
    let value = this.root;
    if (!value) return undefined;
    for (const seg of segments) {
      if (value.kind === 'array' && typeof seg === 'number') {
        if (seg < 0 || seg >= value.childCount) return undefined;
        value = this.itemOfChild(value, seg);
      } else if (value.kind === 'object' && typeof seg === 'string') {
        let found = -1;
        for (let i = 0; i < value.childCount; i++) {
          if (value.child(i).key === seg) {
            found = i;
            break;
          }
        }
        if (found === -1) return undefined;
        value = this.itemOfChild(value, found);
      } else return undefined;
    }
    this.expandAbove(value);
    return value;
  }

  /** The innermost value whose text holds `offset` (a search match), with everything above it expanded. */
  revealOffset(offset: number): JsonValue | undefined {
    let value = this.root;
    if (!value || offset < value.start || offset >= value.end) return undefined;
    for (;;) {
      if (!value.isContainer) break;
      const s = value.scan();
      // The last child that starts at or before the offset (its name counts as its start).
      const starts = s.keyStarts ?? s.starts;
      let lo = 0;
      let hi = starts.length - 1;
      if (hi < 0 || starts[0] > offset) break;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= offset) lo = mid;
        else hi = mid - 1;
      }
      if (offset >= s.ends[lo]) break;
      value = this.itemOfChild(value, lo);
    }
    this.expandAbove(value);
    return value;
  }

  /** What a collapsed container holds: `12 fields`, `2,500 items`. */
  summary(value: JsonValue): string {
    const n = value.childCount;
    if (value.kind === 'array') return `${n.toLocaleString('en-US')} ${n === 1 ? 'item' : 'items'}`;
    return `${n.toLocaleString('en-US')} ${n === 1 ? 'field' : 'fields'}`;
  }
}
