/**
 * An open document of the language server: the TextDocument interface of
 * vscode-languageserver-textdocument (positions, offsets, text), with the text kept in
 * chunks of a few kilobytes.
 *
 * TextDocument keeps one string: every keystroke builds the whole text again (1.6 MB for
 * 10,000 requests), which costs a copy and, above all, leaves that much garbage in V8's
 * old generation at each edit, so that a full collection soon lands on a keystroke or a
 * completion. Here an edit rebuilds one chunk; the whole text is joined only when
 * something asks for it (getText), and kept until the next edit. The line table is
 * updated at each edit as TextDocument updates its own, and a property test holds every
 * answer to TextDocument's.
 */
import type { Position, Range, TextDocument } from 'vscode-languageserver-textdocument';
import { lineOfOffset } from '../core/index';

/** Chunks are cut at this length and re-cut once an edit makes one twice as long. */
const CHUNK_SIZE = 16 * 1024;

const CR = 13;
const LF = 10;

function isBreak(c: number): boolean {
  return c === CR || c === LF;
}

/** Offsets where lines start after a line break in `text` (\r\n, \n or a lone \r), each plus `base`, pushed to `out`. */
function breaksIn(text: string, base: number, out: number[] = []): number[] {
  // Without a \r (the usual case), the line starts are found by indexOf, not character by character.
  if (text.indexOf('\r') === -1) {
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) out.push(base + i + 1);
    return out;
  }
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === CR) {
      if (i + 1 < text.length && text.charCodeAt(i + 1) === LF) i++;
      out.push(base + i + 1);
    } else if (c === LF) {
      out.push(base + i + 1);
    }
  }
  return out;
}

export interface TextChange {
  range?: Range;
  text: string;
}

/** Where a change was applied: the offsets it replaced in the text before it. */
export interface AppliedChange {
  start: number;
  end: number;
}

export class EditableDocument implements TextDocument {
  private chunks: string[] = [];
  /** Offset of each chunk's first character. */
  private starts: number[] = [];
  private size = 0;
  /** The whole text, joined on demand and dropped at the next edit. */
  private joined: string | undefined;
  /** Offsets of line starts; undefined when an edit split or joined a \r\n (rebuilt on demand). */
  private lineOffsets: number[] | undefined;

  constructor(
    readonly uri: string,
    readonly languageId: string,
    private currentVersion: number,
    text: string,
    /** The length chunks are cut at (tests make it small). */
    private readonly chunkSize = CHUNK_SIZE,
  ) {
    this.reset(text);
  }

  get version(): number {
    return this.currentVersion;
  }

  get lineCount(): number {
    return this.lines().length;
  }

  getText(range?: Range): string {
    if (range) return this.slice(this.offsetAt(range.start), this.offsetAt(range.end));
    this.joined ??= this.chunks.length === 1 ? this.chunks[0] : this.chunks.join('');
    return this.joined;
  }

  /** The text of [from, to), without joining the whole text. */
  slice(from: number, to: number): string {
    if (this.joined !== undefined) return this.joined.slice(from, to);
    const a = Math.max(0, Math.min(from, this.size));
    const b = Math.max(a, Math.min(to, this.size));
    let k = this.chunkAt(a);
    let out = '';
    for (let at = a; at < b; k++) {
      const chunkStart = this.starts[k];
      const piece = this.chunks[k].slice(at - chunkStart, b - chunkStart);
      out += piece;
      at = chunkStart + this.chunks[k].length;
    }
    return out;
  }

  /** The character code at an offset (NaN outside the text), without joining the whole text. */
  charCodeAt(offset: number): number {
    if (this.joined !== undefined) return this.joined.charCodeAt(offset);
    if (offset < 0 || offset >= this.size) return Number.NaN;
    const k = this.chunkAt(offset);
    return this.chunks[k].charCodeAt(offset - this.starts[k]);
  }

  get length(): number {
    return this.size;
  }

  positionAt(offset: number): Position {
    const at = Math.max(0, Math.min(offset, this.size));
    const lines = this.lines();
    const line = lineOfOffset(lines, at);
    return { line, character: this.beforeBreak(at, lines[line]) - lines[line] };
  }

  /**
   * The line of an offset: positionAt's line, without making the position. With `from`, a line
   * at or before the offset's, it is looked for from there on: offsets in order (the requests
   * of a document) cost one pass over the lines, not a search each.
   */
  lineAt(offset: number, from = 0): number {
    const lines = this.lines();
    const at = Math.max(0, Math.min(offset, this.size));
    if (from <= 0 || from >= lines.length || lines[from] > at) return lineOfOffset(lines, at);
    let line = from;
    while (line + 1 < lines.length && lines[line + 1] <= at) line++;
    return line;
  }

  offsetAt(position: Position): number {
    const lines = this.lines();
    if (position.line >= lines.length) return this.size;
    if (position.line < 0) return 0;
    const lineStart = lines[position.line];
    if (position.character <= 0) return lineStart;
    const next = position.line + 1 < lines.length ? lines[position.line + 1] : this.size;
    return this.beforeBreak(Math.min(lineStart + position.character, next), lineStart);
  }

  /** A line's range without its line break; past the last line, the rest of the last line. */
  getLineRange(line: number): Range {
    const lines = this.lines();
    if (line < 0) return { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } };
    if (line >= lines.length) {
      const lastLine = lines.length - 1;
      return {
        start: { line: lastLine, character: 0 },
        end: { line: lastLine, character: this.size - lines[lastLine] },
      };
    }
    const next = line + 1 < lines.length ? lines[line + 1] : this.size;
    return {
      start: { line, character: 0 },
      end: { line, character: this.beforeBreak(next, lines[line]) - lines[line] },
    };
  }

  /** A line's line break (`\r\n`, `\n`, `\r`, or '' for the last line or a line that does not exist). */
  getEOLCharacters(line: number): string {
    const lines = this.lines();
    if (line < 0 || line >= lines.length) return '';
    const next = line + 1 < lines.length ? lines[line + 1] : this.size;
    return this.slice(this.beforeBreak(next, lines[line]), next);
  }

  /**
   * Applies changes in order, as TextDocument.update does, and tells where each went: the
   * server re-parses at exactly those offsets (a range given end first included).
   */
  update(changes: readonly TextChange[], version: number): AppliedChange[] {
    const applied: AppliedChange[] = [];
    for (const change of changes) {
      if (change.range) applied.push(this.edit(change.range, change.text));
      else {
        applied.push({ start: 0, end: this.size });
        this.reset(change.text);
      }
    }
    this.currentVersion = version;
    return applied;
  }

  private reset(text: string) {
    this.chunks = [];
    this.starts = [];
    for (let i = 0; i < text.length; i += this.chunkSize) {
      this.starts.push(i);
      this.chunks.push(text.slice(i, i + this.chunkSize));
    }
    if (this.chunks.length === 0) {
      this.chunks.push('');
      this.starts.push(0);
    }
    this.size = text.length;
    this.joined = text;
    this.lineOffsets = undefined;
  }

  private edit(range: Range, text: string): AppliedChange {
    // A range given end first is read start first.
    const [p, q] =
      range.start.line > range.end.line ||
      (range.start.line === range.end.line && range.start.character > range.end.character)
        ? [range.end, range.start]
        : [range.start, range.end];
    const start = this.offsetAt(p);
    const end = this.offsetAt(q);
    const applied = { start, end };
    const lines = this.lines();
    this.replace(start, end, text);
    // The line table, as TextDocument updates it: the line starts inside the inserted text
    // replace those of the replaced range, and the later ones move by the change in length.
    const insertedEnd = start + text.length;
    const splitsPair = (at: number) => this.charCodeAt(at - 1) === CR && this.charCodeAt(at) === LF;
    if (splitsPair(start) || splitsPair(insertedEnd)) {
      // A \r\n across the edit's boundary: the line starts are counted again when next asked for.
      this.lineOffsets = undefined;
      return applied;
    }
    // The lines of the offsets, not of the range: a range past the end (which TextDocument
    // takes as it is) cannot leave holes in the table.
    const startLine = lineOfOffset(lines, start);
    const endLine = lineOfOffset(lines, end);
    const added = breaksIn(text, start);
    let table = lines;
    if (endLine - startLine === added.length) {
      for (let i = 0; i < added.length; i++) table[startLine + 1 + i] = added[i];
    } else if (added.length < 10_000) {
      table.splice(startLine + 1, endLine - startLine, ...added);
    } else {
      // A large paste: too many arguments for splice.
      table = table.slice(0, startLine + 1).concat(added, table.slice(endLine + 1));
      this.lineOffsets = table;
    }
    const delta = text.length - (end - start);
    if (delta !== 0) for (let i = startLine + 1 + added.length; i < table.length; i++) table[i] += delta;
    return applied;
  }

  /** Replaces [start, end) with `text` in the chunks that hold it. */
  private replace(start: number, end: number, text: string) {
    const first = this.chunkAt(start);
    // The chunk that holds the last replaced character (or the first chunk for an insertion).
    const last = end > start ? this.chunkAt(end - 1) : first;
    let merged = '';
    for (let k = first; k <= last; k++) merged += this.chunks[k];
    const base = this.starts[first];
    const next = merged.slice(0, start - base) + text + merged.slice(end - base);
    const pieces: string[] = [];
    if (next.length <= 2 * this.chunkSize) pieces.push(next);
    else for (let i = 0; i < next.length; i += this.chunkSize) pieces.push(next.slice(i, i + this.chunkSize));
    if (pieces.length === 1 && pieces[0].length === 0 && this.chunks.length > 1) pieces.pop();
    this.chunks.splice(first, last - first + 1, ...pieces);
    if (this.chunks.length === 0) this.chunks.push('');
    this.size += text.length - (end - start);
    this.starts.length = this.chunks.length;
    let at = first === 0 ? 0 : this.starts[first - 1] + this.chunks[first - 1].length;
    for (let k = first; k < this.chunks.length; k++) {
      this.starts[k] = at;
      at += this.chunks[k].length;
    }
    this.joined = undefined;
  }

  /** The chunk that holds `offset` (the last chunk for the end of the text). */
  private chunkAt(offset: number): number {
    let k = lineOfOffset(this.starts, offset);
    // Empty chunks never stand before a non-empty one at the same offset, except a lone empty text.
    while (k > 0 && this.starts[k] === offset && this.chunks[k].length === 0) k--;
    return k;
  }

  private lines(): number[] {
    // Pushed to the table itself: spreading 70,000 line starts into a new array took three times as long.
    this.lineOffsets ??= breaksIn(this.getText(), 0, [0]);
    return this.lineOffsets;
  }

  /** An offset moved back out of a line break, never before the line's start. */
  private beforeBreak(offset: number, lineStart: number): number {
    let at = offset;
    while (at > lineStart && isBreak(this.charCodeAt(at - 1))) at--;
    return at;
  }
}
