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
