/**
 * A text body as lines, for the virtualised view: where each line starts is found in one
 * pass (indexOf, no copy of the text), the first time it is asked for. Pure.
 */

/** Characters of a line shown; the rest is cut (copying the body gives all of it). */
export const MAX_LINE_CHARS = 4000;

export class TextLines {
  private starts: number[] | undefined;

  constructor(readonly text: string) {}

  private lineStarts(): number[] {
    if (!this.starts) {
      const starts = [0];
      const text = this.text;
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
      this.starts = starts;
    }
    return this.starts;
  }

  get lineCount(): number {
    return this.lineStarts().length;
  }

  /** Where line `i` starts and ends in the text, its line break left out. */
  private bounds(i: number): [number, number] | undefined {
    const starts = this.lineStarts();
    if (i < 0 || i >= starts.length) return undefined;
    let end = i + 1 < starts.length ? starts[i + 1] - 1 : this.text.length;
    if (end > starts[i] && this.text.charCodeAt(end - 1) === 13) end--;
    return [starts[i], end];
  }

  /** Line `i` without its line break, cut at MAX_LINE_CHARS. */
  line(i: number): string {
    const b = this.bounds(i);
    if (!b) return '';
    return b[1] - b[0] > MAX_LINE_CHARS
      ? `${this.text.slice(b[0], b[0] + MAX_LINE_CHARS)}…`
      : this.text.slice(b[0], b[1]);
  }

  /** Line `i` whole, without its line break. */
  wholeLine(i: number): string {
    const b = this.bounds(i);
    return b ? this.text.slice(b[0], b[1]) : '';
  }

  /** The line that holds `offset`. */
  lineOf(offset: number): number {
    const starts = this.lineStarts();
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }
}
