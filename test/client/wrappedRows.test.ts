/**
 * Long values shown whole (issue 27, item 4): a string or a line longer than its row opens on
 * a click into continuation rows under it, as wide as the list, and folds again; the rows
 * around it keep their paths, folding above it moves it, folding it away closes it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { JsonBodyModel, TextBodyModel, type RowPresentation } from '../../client/webview/model/bodyModel';
import { WrappedRows } from '../../client/webview/model/wrappedRows';

const rows = (m: { rowCount: number; row(i: number): RowPresentation }) =>
  Array.from({ length: m.rowCount }, (_, i) => m.row(i));

const long = 'x'.repeat(95) + 'END';
const body = JSON.stringify([{ id: 1, description: long, name: 'a' }, { id: 2 }]);

test('a long string opens into continuation rows that hold all of it, and folds again', () => {
  const m = new JsonBodyModel(body);
  const before = rows(m);
  const at = before.findIndex((r) => r.path === '$[0].description');
  assert.ok(before[at].text.length >= long.length, 'unopened, the row holds the value (the view cuts it at its edge)');
  assert.equal(m.expand(at, 40), true);
  const after = rows(m);
  const parts = after.filter((r) => r.path === '$[0].description');
  assert.equal(parts[0].wrap, 'open');
  assert.ok(parts.slice(1).every((r) => r.wrap === 'more' && r.indent === parts[0].indent + 1));
  // Every character once, in order, and each part no wider than its row.
  assert.equal(parts.map((r) => r.text).join(''), JSON.stringify(long));
  assert.ok(parts.every((r) => r.text.length <= 40));
  assert.equal(parts.at(-1)?.comma, true);
  assert.equal(parts[0].comma, false);
  // The rows after it are the same rows as before.
  assert.deepEqual(
    after.slice(at + parts.length).map((r) => r.path),
    before.slice(at + 1).map((r) => r.path),
  );
  // A click on any of its rows folds it.
  assert.equal(m.expand(at + 2, 40), true);
  assert.deepEqual(rows(m), before);
});

test('a short value does not open; paths and finds lead past an opened value to the right row', () => {
  const m = new JsonBodyModel(body);
  const name = rows(m).findIndex((r) => r.path === '$[0].name');
  assert.equal(m.expand(name, 40), false);
  const at = rows(m).findIndex((r) => r.path === '$[0].description');
  m.expand(at, 40);
  const row = m.rowOfPath('$[1].id');
  assert.equal(row === undefined ? undefined : m.row(row).path, '$[1].id');
  const found = m.find('"id": 2'.replace(': ', ':'));
  const match = m.rowOfOffset(found.offsets[0]);
  assert.equal(match === undefined ? undefined : m.row(match).path, '$[1].id');
});

test('folding above an opened value moves it; folding it away closes it', () => {
  const m = new JsonBodyModel(body);
  const at = rows(m).findIndex((r) => r.path === '$[0].description');
  m.expand(at, 40);
  const opened = m.rowCount;
  const first = rows(m).findIndex((r) => r.path === '$[0]');
  m.toggle(first);
  assert.ok(m.rowCount < opened);
  m.toggle(first);
  // Folded away and unfolded: shown on one row again.
  assert.equal(rows(m).filter((r) => r.path === '$[0].description').length, 1);
});

test('a long line of a text body opens and folds the same way', () => {
  const text = `short\n${'y'.repeat(250)}\nlast`;
  const m = new TextBodyModel(text);
  assert.equal(m.expand(0, 40), false);
  assert.equal(m.expand(1, 40), true);
  const parts = rows(m).slice(1, -1);
  assert.equal(parts.map((r) => r.text).join(''), 'y'.repeat(250));
  assert.equal(m.row(m.rowCount - 1).text, 'last');
  assert.equal(m.rowOfOffset(text.length - 1), m.rowCount - 1);
  assert.equal(m.expand(3, 40), true);
  assert.equal(m.rowCount, 3);
});

test('the row map: anchors sorted, rows after each opened value shifted by its continuation rows', () => {
  const w = new WrappedRows<string>();
  w.open('b', 10, 'x'.repeat(25), 5, 10);
  w.open('a', 2, 'y'.repeat(9), 4, 5);
  assert.equal(w.extra, 2 + 1);
  assert.deepEqual(w.place(2), { base: 2, wrapped: w.find('a'), part: 0 });
  assert.deepEqual(w.place(3), { base: 2, wrapped: w.find('a'), part: 1 });
  assert.deepEqual(w.place(4), { base: 3, part: 0 });
  assert.equal(w.rowOf(3), 4);
  assert.equal(w.rowOf(10), 11);
  assert.equal(w.rowOf(11), 14);
  assert.equal(w.place(14).base, 11);
});
