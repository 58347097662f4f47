/**
 * The rows a virtualised list draws: from the scroll position, the rows on screen and a few
 * around them. A list taller than a browser lets an element be is drawn in a scroller of
 * at most `maxHeight` pixels, whose scroll position maps to rows proportionally. Pure.
 */

export interface ListMetrics {
  rowCount: number;
  rowHeight: number;
  /** The scroller's visible height. */
  viewportHeight: number;
  /** The tallest the scroller's content may be (browsers stop near 33 million pixels). */
  maxHeight: number;
}

export interface RowWindow {
  /** First and past-the-last row to draw. */
  first: number;
  end: number;
  /** Where the first drawn row stands in the scroller's content, in pixels. */
  top: number;
  /** The height of the scroller's content. */
  contentHeight: number;
}

const OVERSCAN = 8;

export function contentHeight(m: ListMetrics): number {
  return Math.min(m.rowCount * m.rowHeight, m.maxHeight);
}

/** The row at the top of the viewport for a scroll position, in rows (with a fraction). */
function topRow(scrollTop: number, m: ListMetrics): number {
  const total = m.rowCount * m.rowHeight;
  const content = contentHeight(m);
  if (total <= content) return scrollTop / m.rowHeight;
  const scrollable = Math.max(1, content - m.viewportHeight);
  const fraction = Math.min(1, Math.max(0, scrollTop / scrollable));
  return (fraction * Math.max(0, total - m.viewportHeight)) / m.rowHeight;
}

export function rowWindow(scrollTop: number, m: ListMetrics, overscan = OVERSCAN): RowWindow {
  const height = contentHeight(m);
  if (m.rowCount === 0 || m.rowHeight <= 0) return { first: 0, end: 0, top: 0, contentHeight: height };
  const exact = topRow(Math.max(0, scrollTop), m);
  const onTop = Math.min(m.rowCount - 1, Math.floor(exact));
  // The row on top is drawn where the scroll position puts it, partly hidden by its fraction.
  const topOfOnTop = Math.max(0, scrollTop) - (exact - onTop) * m.rowHeight;
  const first = Math.max(0, onTop - overscan);
  const visible = Math.ceil(m.viewportHeight / m.rowHeight) + 1;
  const end = Math.min(m.rowCount, onTop + visible + overscan);
  return { first, end, top: topOfOnTop - (onTop - first) * m.rowHeight, contentHeight: height };
}

/** The scroll position that shows `row` with `rowsAbove` rows above it (so a revealed row is not on the very edge). */
export function scrollTopFor(row: number, m: ListMetrics, rowsAbove = 3): number {
  const target = Math.max(0, row - rowsAbove);
  const total = m.rowCount * m.rowHeight;
  const content = contentHeight(m);
  const maxScroll = Math.max(0, content - m.viewportHeight);
  if (total <= content) return Math.min(maxScroll, target * m.rowHeight);
  const fraction = (target * m.rowHeight) / Math.max(1, total - m.viewportHeight);
  return Math.min(maxScroll, fraction * maxScroll);
}

/** Whether a row is wholly on screen at this scroll position. */
export function rowVisible(row: number, scrollTop: number, m: ListMetrics): boolean {
  const top = topRow(scrollTop, m);
  return row >= Math.ceil(top) && row + 1 <= top + m.viewportHeight / m.rowHeight;
}
