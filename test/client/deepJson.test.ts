/**
 * Issue 26, item 9: a JSON body nested 30,000 levels deep (60 KB) is drawn by the response
 * view: its models (client/src/model, client/webview/model) walk it without recursion, where
 * "Maximum call stack size exceeded" left the view empty before.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildView } from '../../client/src/model/responseViewModel';
import { ResponseTree, type ResponseNode, type ResponseSummary } from '../../client/src/model/responseTree';
import { JsonBodyModel } from '../../client/webview/model/bodyModel';

const DEPTH = 30_000;

function deep(open: string, close: string, key = ''): { text: string; body: unknown } {
  const text = `${open}${key}`.repeat(DEPTH) + '1' + close.repeat(DEPTH);
  return { text, body: JSON.parse(text) };
}

for (const [shape, open, close, key] of [
  ['arrays', '[', ']', ''],
  ['objects', '{"a":', '}', ''],
] as const) {
  test(`a body of ${DEPTH.toLocaleString('en-US')} nested ${shape}: every row is drawn, the deepest value found by path and offset`, () => {
    const { text } = deep(open, close, key);
    const model = new JsonBodyModel(text);
    // Arrays open by default (every level a row, and its closing line); an object this long starts folded.
    assert.ok(model.rowCount >= 1);
    assert.equal(model.row(0).indent, 0);
    const deepest = shape === 'arrays' ? `$${'[0]'.repeat(DEPTH)}` : `$${'.a'.repeat(DEPTH)}`;
    const row = model.rowOfPath(deepest);
    assert.ok(row !== undefined, 'the deepest value has a row');
    assert.equal(model.row(row).text, '1');
    assert.equal(model.row(row).indent, DEPTH);
    assert.equal(model.valueAt(row)?.path, deepest);
    assert.equal(model.rowCount, 2 * DEPTH + 1);
    assert.equal(model.row(model.rowCount - 1).text, shape === 'arrays' ? ']' : '}');
    assert.equal(model.rowOfOffset(text.indexOf('1')), row);
    // Folding the root and opening it again counts the rows again.
    assert.ok(model.toggle(0));
    assert.equal(model.rowCount, 1);
    assert.ok(model.toggle(0));
    assert.equal(model.rowCount, 2 * DEPTH + 1);
  });
}

test('the host side: the view data and the side bar tree of a 30,000-level body', () => {
  const { text, body } = deep('[', ']');
  const summary: ResponseSummary = {
    method: 'GET',
    url: 'http://127.0.0.1/api/v1/courses',
    status: 200,
    statusText: 'OK',
    headers: { 'content-type': 'application/json' },
    body,
    bodyText: text,
    bodyKind: 'json',
    bytes: text.length,
    durationMs: 1,
    resource: null,
    issues: [],
  };
  const view = buildView(summary, { id: 1, environment: 'dev', tokenSet: true, fromRequest: true });
  assert.equal(view.bodyKind, 'json');
  const tree = new ResponseTree(summary, () => undefined);
  let node: ResponseNode | undefined = tree.roots().find((n) => n.label.startsWith('Body') || n.jsonPath === '$');
  assert.ok(node);
  for (let level = 0; level < 200 && node; level++) {
    node = tree.children(node)[0];
    assert.ok(node, `level ${level}`);
  }
});
