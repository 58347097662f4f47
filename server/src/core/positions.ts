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

/** Start offsets of the lines of a text. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
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
