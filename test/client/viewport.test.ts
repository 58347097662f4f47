/** The virtualised list's window: the rows drawn for a scroll position, in a normal and in a scaled scroller. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  contentHeight,
  rowVisible,
  rowWindow,
  scrollTopFor,
  type ListMetrics,
} from '../../client/webview/model/viewport';

const small: ListMetrics = { rowCount: 1000, rowHeight: 20, viewportHeight: 400, maxHeight: 10_000_000 };
// 2 million rows of 20 px are 40 million pixels: more than a browser draws, so the scroller is scaled.
const huge: ListMetrics = { rowCount: 2_000_000, rowHeight: 20, viewportHeight: 400, maxHeight: 10_000_000 };

test('the rows on screen and a few around them, placed where the scroll position puts them', () => {
  const w = rowWindow(2010, small, 5);
  assert.equal(contentHeight(small), 20_000);
  assert.equal(w.first, 100 - 5);
  assert.equal(w.end, 100 + 21 + 5);
  assert.equal(w.top, 95 * 20);
  assert.deepEqual(rowWindow(0, small, 5).first, 0);
  const end = rowWindow(20_000 - 400, small, 5);
  assert.equal(end.end, 1000);
  assert.deepEqual(rowWindow(0, { ...small, rowCount: 0 }), { first: 0, end: 0, top: 0, contentHeight: 0 });
});

test('a scaled scroller reaches every row, the first and the last, and draws the row on top under the scroll position', () => {
  assert.equal(contentHeight(huge), 10_000_000);
  const top = rowWindow(0, huge, 0);
  assert.equal(top.first, 0);
  const bottom = rowWindow(10_000_000 - 400, huge, 0);
  assert.equal(bottom.end, 2_000_000);
  // Rows drawn cover the viewport: from at or above its top to at or below its bottom.
  for (const scrollTop of [1, 12345, 4_999_999, 9_999_000]) {
    const w = rowWindow(scrollTop, huge, 0);
    assert.ok(w.top <= scrollTop + 0.001, `${scrollTop}: first row at ${w.top}`);
    assert.ok(
      w.top + (w.end - w.first) * huge.rowHeight >=
        Math.min(scrollTop + huge.viewportHeight, contentHeight(huge)) - 0.001,
    );
  }
});

test('scrolling to a row shows it, in both kinds of scroller', () => {
  for (const m of [small, huge]) {
    for (const row of [0, 5, 500, m.rowCount - 1, Math.floor(m.rowCount / 3)]) {
      const scrollTop = scrollTopFor(row, m);
      const w = rowWindow(scrollTop, m, 0);
      assert.ok(row >= w.first && row < w.end, `row ${row} of ${m.rowCount}: drawn ${w.first}..${w.end}`);
      assert.ok(rowVisible(row, scrollTop, m), `row ${row} of ${m.rowCount} is on screen`);
    }
  }
});
