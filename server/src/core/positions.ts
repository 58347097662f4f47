/** Offsets to 1-based lines and columns, made only when a result leaves the core. */
import { TextDocument } from 'vscode-languageserver-textdocument';

export interface LineColumn {
  line: number;
  column: number;
}

/** Converts offsets of a text into 1-based line and column (columns in UTF-16 code units + 1). */
export class LineIndex {
  private readonly doc: TextDocument;

  constructor(text: string) {
    this.doc = TextDocument.create('lpreq:text', 'lpreq', 0, text);
  }

  at(offset: number): LineColumn {
    const p = this.doc.positionAt(offset);
    return { line: p.line + 1, column: p.character + 1 };
  }
}

/**
 * Start offsets of the lines of a text as an editor counts them: after `\r\n`, `\n` or a
 * lone `\r` (TextDocument and LSP do the same). The parser reads lines by `\n` alone; these
 * are for telling a user where something stands.
 */
export function lineStarts(text: string): number[] {
  const starts = [0];
  let lf = indexOrEnd(text, '\n', 0);
  let cr = indexOrEnd(text, '\r', 0);
  while (lf < text.length || cr < text.length) {
    const next = afterBreak(text, Math.min(lf, cr));
    starts.push(next);
    if (lf < next) lf = indexOrEnd(text, '\n', next);
    if (cr < next) cr = indexOrEnd(text, '\r', next);
  }
  return starts;
}

/** The 0-based line of an offset, given the line starts (binary search). */
export function lineOfOffset(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export interface LinePosition {
  /** 0-based line. */
  line: number;
  /** 0-based, in UTF-16 code units. */
  character: number;
}

/**
 * Positions of increasing offsets of one text, found in one forward pass with native
 * `indexOf` and without an index of every line: for a large text whose few positions are
 * wanted once (the diagnostics of a document just opened). Line breaks are those of LSP
 * and of TextDocument: `\r\n`, `\n` and a lone `\r`.
 */
export class ForwardPositions {
  private line = 0;
  private lineStart = 0;
  /** The next `\n` and `\r` at or after lineStart (text.length when there is none). */
  private nextLf = -1;
  private nextCr = -1;

  constructor(private readonly text: string) {}

  /** A cursor where this one stands, to look further ahead (a range's end) without moving this one. */
  fork(): ForwardPositions {
    const copy = new ForwardPositions(this.text);
    copy.line = this.line;
    copy.lineStart = this.lineStart;
    copy.nextLf = this.nextLf;
    copy.nextCr = this.nextCr;
    return copy;
  }

  /**
   * The position of `offset`. Offsets should come in increasing order; an earlier one is
   * still answered right, by starting again from the top.
   */
  at(offset: number): LinePosition {
    const text = this.text;
    const target = Math.max(0, Math.min(offset, text.length));
    if (target < this.lineStart) {
      this.line = 0;
      this.lineStart = 0;
      this.nextLf = -1;
      this.nextCr = -1;
    }
    for (;;) {
      if (this.nextLf < this.lineStart) this.nextLf = indexOrEnd(text, '\n', this.lineStart);
      if (this.nextCr < this.lineStart) this.nextCr = indexOrEnd(text, '\r', this.lineStart);
      const brk = Math.min(this.nextLf, this.nextCr);
      if (brk >= target) break;
      const next = afterBreak(text, brk);
      // An offset between a `\r` and its `\n` is placed before the pair, as TextDocument does.
      if (next > target) return { line: this.line, character: brk - this.lineStart };
      this.line++;
      this.lineStart = next;
    }
    return { line: this.line, character: target - this.lineStart };
  }
}

/** Where the line after the break at `at` starts: a `\r\n` pair is one break. */
function afterBreak(text: string, at: number): number {
  return text.charCodeAt(at) === 13 && text.charCodeAt(at + 1) === 10 ? at + 2 : at + 1;
}

function indexOrEnd(text: string, ch: string, from: number): number {
  const at = text.indexOf(ch, from);
  return at === -1 ? text.length : at;
}
