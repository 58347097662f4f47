/**
 * Long values shown whole: a value opened with a click keeps its row and gets continuation
 * rows under it, each as many characters as the list is wide, so that every row stays one
 * line high (the list draws rows of one height) and nothing is cut for good. This maps the
 * rows of a body model with such values opened to the rows of the model without them. Pure.
 */

export interface Wrapped<K> {
  /** What the value is (a JSON value, a line): its row is found again from it after folding. */
  key: K;
  /** Its row among the rows without continuation rows. */
  anchor: number;
  /** The whole text, cut into `first` characters on its own row and `width` on each continuation row. */
  text: string;
  first: number;
  width: number;
  /** Continuation rows. */
  more: number;
}

/** Where a row is: a row of the model without continuation rows (`part` 0 on an opened value's own row), or a continuation row. */
export interface RowPlace<K> {
  base: number;
  wrapped?: Wrapped<K>;
  /** 0: the value's own row; 1 and on: its continuation rows. */
  part: number;
}

export class WrappedRows<K> {
  /** By anchor, ascending. */
  private list: Wrapped<K>[] = [];

  get extra(): number {
    let n = 0;
    for (const w of this.list) n += w.more;
    return n;
  }

  get size(): number {
    return this.list.length;
  }

  find(key: K): Wrapped<K> | undefined {
    return this.list.find((w) => w.key === key);
  }

  /** Opens a value: its text shown `first` characters on its row, then `width` a row. */
  open(key: K, anchor: number, text: string, first: number, width: number): void {
    this.close(key);
    const w = Math.max(8, width);
    const f = Math.max(1, Math.min(first, text.length));
    const more = text.length > f ? Math.ceil((text.length - f) / w) : 0;
    this.list.push({ key, anchor, text, first: f, width: w, more });
    this.list.sort((a, b) => a.anchor - b.anchor);
  }

  close(key: K): boolean {
    const before = this.list.length;
    this.list = this.list.filter((w) => w.key !== key);
    return this.list.length !== before;
  }

  /** The rows of the values again, after folding moved them; a value whose row is gone (folded away) is closed. */
  reanchor(rowOf: (key: K) => number | undefined): void {
    const kept: Wrapped<K>[] = [];
    for (const w of this.list) {
      const anchor = rowOf(w.key);
      if (anchor !== undefined) kept.push({ ...w, anchor });
    }
    this.list = kept.sort((a, b) => a.anchor - b.anchor);
  }

  place(index: number): RowPlace<K> {
    let shift = 0;
    for (const w of this.list) {
      const own = w.anchor + shift;
      if (index < own) break;
      if (index <= own + w.more) return { base: w.anchor, wrapped: w, part: index - own };
      shift += w.more;
    }
    return { base: index - shift, part: 0 };
  }

  /** The row of a row of the model without continuation rows. */
  rowOf(base: number): number {
    let shift = 0;
    for (const w of this.list) {
      if (w.anchor >= base) break;
      shift += w.more;
    }
    return base + shift;
  }

  /** The text a row of an opened value shows. */
  static part<K>(w: Wrapped<K>, part: number): string {
    if (part === 0) return w.text.slice(0, w.first);
    const from = w.first + (part - 1) * w.width;
    return w.text.slice(from, from + w.width);
  }
}
