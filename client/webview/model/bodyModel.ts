/**
 * What the Body tab draws, row by row, for a JSON body (JsonDocument with the typed issues)
 * or a text body (TextLines): the list asks for the rows on screen only. Pure: the DOM code
 * turns a RowPresentation into elements, the tests and the benchmark read it as data.
 */
import { IssueIndex, type ViewIssue } from './issueIndex';
import { JsonDocument, type Item, type JsonValue } from './jsonDocument';
import { parsePath } from './jsonPath';
import { TextSearch, type Matches } from './search';
import { MAX_LINE_CHARS, TextLines } from './textLines';
import { WrappedRows, type RowPlace } from './wrappedRows';

/** Characters of a value shown on its row; the rest is cut (its tooltip and Copy Value give all of it). */
const MAX_VALUE_CHARS = 2000;

export type TokenKind = 'key' | 'string' | 'number' | 'boolean' | 'null' | 'punct' | 'range' | 'text';

export interface RowPresentation {
  indent: number;
  /** A row that folds: `open` (expanded) or `closed`. */
  fold?: 'open' | 'closed';
  /** The member's name as written, quotes included. */
  key?: string;
  text: string;
  kind: TokenKind;
  /** The value was longer than what `text` shows. */
  cut?: boolean;
  comma?: boolean;
  /** What a collapsed container or a range holds: `12 fields`, `[100 … 199]`'s issue count. */
  summary?: string;
  /** The JSON path of the value on this row (not on closing rows). */
  path?: string;
  /** Its path with every index `[*]`: what its documented type is asked by. */
  pattern?: string;
  /** Issues at this very value. */
  issues?: readonly ViewIssue[];
  /** Issues below a collapsed container or in a collapsed range. */
  issuesInside?: number;
  /** A value opened whole (`open`: its own row; `more`: a continuation row under it). */
  wrap?: 'open' | 'more';
}

export interface BodyModel {
  readonly rowCount: number;
  row(index: number): RowPresentation;
  /** Folds or unfolds the row; false when it does not fold. */
  toggle(index: number): boolean;
  /**
   * Shows a long value (a string, a line) whole, on continuation rows under its row, or closes
   * it again; false when the row holds nothing longer than the row. `columns`: the characters a
   * continuation row holds at indent 0; `firstColumns`, the value's own row (less, where a
   * documented type stands beside the value).
   */
  expand(index: number, columns: number, firstColumns?: number): boolean;
  find(query: string): Matches;
  /** The row that shows a match, with what it needs expanded. */
  rowOfOffset(offset: number): number | undefined;
  /** The row of a JSON path, with what it needs expanded; undefined when the body has no value there. */
  rowOfPath(path: string): number | undefined;
  /** The whole text. */
  readonly text: string;
}

const plural = (n: number, one: string, many: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export class JsonBodyModel implements BodyModel {
  readonly doc: JsonDocument;
  private issues: IssueIndex;
  private readonly search: TextSearch;
  private readonly wraps = new WrappedRows<JsonValue>();

  constructor(
    readonly text: string,
    issues: readonly ViewIssue[] = [],
  ) {
    this.doc = new JsonDocument(text);
    this.issues = new IssueIndex(issues);
    this.search = new TextSearch(text);
  }

  get rowCount(): number {
    return this.doc.rowCount + this.wraps.extra;
  }

  /** The typed issues, come after the body was shown (the check runs once its first screen is drawn). */
  setIssues(issues: readonly ViewIssue[]): void {
    this.issues = new IssueIndex(issues);
  }

  private itemAt(index: number): { item: Item; kind: 'open' | 'close' | 'line' | 'range' } | undefined {
    return this.doc.rowAt(this.wraps.size === 0 ? index : this.wraps.place(index).base);
  }

  row(index: number): RowPresentation {
    if (this.wraps.size === 0) return this.baseRow(index);
    const place = this.wraps.place(index);
    const row = this.baseRow(place.base);
    return place.wrapped ? wrappedRow(row, place) : row;
  }

  private baseRow(index: number): RowPresentation {
    const row = this.doc.rowAt(index);
    if (!row) return { indent: 0, text: '', kind: 'text' };
    const { item, kind } = row;
    if (item.isRange) {
      const inside = this.issues.countInRange(item.array.path, item.start, item.end);
      return {
        indent: item.indent,
        fold: item.expanded ? 'open' : 'closed',
        text: `[${item.start.toLocaleString('en-US')} … ${(item.end - 1).toLocaleString('en-US')}]`,
        kind: 'range',
        summary: item.expanded ? undefined : plural(item.end - item.start, 'item', 'items'),
        issuesInside: !item.expanded && inside > 0 ? inside : undefined,
      };
    }
    const value = item;
    if (kind === 'close')
      return { indent: value.indent, text: value.kind === 'object' ? '}' : ']', kind: 'punct', comma: value.hasNext };
    const out: RowPresentation = {
      indent: value.indent,
      key: value.isArrayElement ? undefined : value.rawKey,
      text: '',
      kind: 'punct',
      comma: kind === 'line' && value.hasNext,
      path: value.path,
      pattern: value.pattern,
    };
    const here = this.issues.issuesAt(value.path);
    if (here.length > 0) out.issues = here;
    if (value.isContainer) {
      const open = value.kind === 'object' ? '{' : '[';
      const close = value.kind === 'object' ? '}' : ']';
      if (value.childCount === 0) out.text = open + close;
      else if (kind === 'open') {
        out.text = open;
        out.fold = 'open';
      } else {
        out.text = `${open}…${close}`;
        out.fold = 'closed';
        out.summary = this.doc.summary(value);
        const inside = this.issues.countBelow(value.path) - here.length;
        if (inside > 0) out.issuesInside = inside;
      }
      return out;
    }
    const length = value.end - value.start;
    out.text = length > MAX_VALUE_CHARS ? `${this.text.slice(value.start, value.start + MAX_VALUE_CHARS)}…` : value.raw;
    if (length > MAX_VALUE_CHARS) out.cut = true;
    out.kind = value.kind === 'object' || value.kind === 'array' ? 'punct' : value.kind;
    return out;
  }

  toggle(index: number): boolean {
    const row = this.itemAt(index);
    if (!row || row.kind === 'close') return false;
    const item = row.item;
    if (!item.isRange && !(item.isContainer && item.childCount > 0)) return false;
    this.doc.toggle(item);
    this.reanchor();
    return true;
  }

  expand(index: number, columns: number, firstColumns = columns): boolean {
    const row = this.itemAt(index);
    if (!row || row.kind !== 'line' || row.item.isRange || row.item.isContainer) return false;
    const value = row.item;
    if (this.wraps.close(value)) return true;
    const before =
      value.indent * 2 + (value.isArrayElement || value.rawKey === undefined ? 0 : value.rawKey.length + 2);
    const first = firstColumns - before - 1;
    if (value.end - value.start <= first) return false;
    this.wraps.open(value, this.doc.rowIndexOf(value), value.raw, first, columns - (value.indent + 1) * 2 - 1);
    return true;
  }

  /** Opened values move with folding above them, and close when folded away. */
  private reanchor(): void {
    if (this.wraps.size === 0) return;
    this.wraps.reanchor((value) => {
      for (let up = value.parentItem; up; up = up.parentItem) if (!up.expanded) return undefined;
      return this.doc.rowIndexOf(value);
    });
  }

  find(query: string): Matches {
    return this.search.find(query);
  }

  rowOfOffset(offset: number): number | undefined {
    const value = this.doc.revealOffset(offset);
    this.reanchor();
    return value ? this.wraps.rowOf(this.doc.rowIndexOf(value)) : undefined;
  }

  rowOfPath(path: string): number | undefined {
    const segments = parsePath(path);
    if (!segments) return undefined;
    const value = this.doc.reveal(segments);
    this.reanchor();
    return value ? this.wraps.rowOf(this.doc.rowIndexOf(value)) : undefined;
  }

  /** The value on a row, for Copy Value. */
  valueAt(index: number): JsonValue | undefined {
    const row = this.itemAt(index);
    return row && !row.item.isRange ? row.item : undefined;
  }
}

/** A row of a value opened whole: its own row shows the start, each continuation row the next part. */
function wrappedRow<K>(row: RowPresentation, place: RowPlace<K>): RowPresentation {
  const w = place.wrapped;
  if (!w) return row;
  const text = WrappedRows.part(w, place.part);
  const last = place.part === w.more;
  if (place.part === 0) return { ...row, text, cut: false, wrap: 'open', comma: last && row.comma };
  return { indent: row.indent + 1, text, kind: row.kind, path: row.path, comma: last && row.comma, wrap: 'more' };
}

export class TextBodyModel implements BodyModel {
  private readonly lines: TextLines;
  private readonly search: TextSearch;
  private readonly wraps = new WrappedRows<number>();

  constructor(readonly text: string) {
    this.lines = new TextLines(text);
    this.search = new TextSearch(text);
  }

  get rowCount(): number {
    return this.text.length === 0 ? 0 : this.lines.lineCount + this.wraps.extra;
  }

  row(index: number): RowPresentation {
    const place = this.wraps.place(index);
    const text = this.lines.line(place.base);
    return wrappedRow({ indent: 0, text, kind: 'text', cut: text.length > MAX_LINE_CHARS }, place);
  }

  toggle(): boolean {
    return false;
  }

  expand(index: number, columns: number, firstColumns = columns): boolean {
    const line = this.wraps.place(index).base;
    if (this.wraps.close(line)) return true;
    const whole = this.lines.wholeLine(line);
    if (whole.length <= firstColumns - 1) return false;
    this.wraps.open(line, line, whole, firstColumns - 1, columns - 3);
    return true;
  }

  find(query: string): Matches {
    return this.search.find(query);
  }

  rowOfOffset(offset: number): number {
    return this.wraps.rowOf(this.lines.lineOf(offset));
  }

  rowOfPath(): undefined {
    return undefined;
  }
}
