/** The response view's body model: JSON as rows, folded, in ranges, found by path and offset; paths as the sender writes them. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { formatJsonPath } from '../../server/src/sender/typed';
import { CHUNK, JsonDocument } from '../../client/webview/model/jsonDocument';
import { formatPath, parsePath, pathPattern, patternExample, WILDCARD } from '../../client/webview/model/jsonPath';
import { JsonBodyModel, TextBodyModel, type RowPresentation } from '../../client/webview/model/bodyModel';
import { IssueIndex } from '../../client/webview/model/issueIndex';
import { fuzzRuns } from '../fuzzRuns';

/** A row as the view writes it, two spaces an indent. */
function line(r: RowPresentation): string {
  return `${'  '.repeat(r.indent)}${r.key !== undefined ? `${r.key}: ` : ''}${r.text}${r.comma ? ',' : ''}`;
}

function lines(model: JsonBodyModel): string[] {
  return Array.from({ length: model.rowCount }, (_, i) => line(model.row(i)));
}

test('paths are written as the sender writes them, and read back', () => {
  const samples: (string | number)[][] = [
    [],
    [0, 'items_count'],
    ['a b', 3, 'x'],
    ['__proto__', 'constructor'],
    ['*'],
    ['quote"and\\back'],
    ['$x', '_y1', '1abc'],
  ];
  for (const segments of samples) {
    const path = formatPath(segments);
    assert.equal(path, formatJsonPath(segments), `as the sender: ${JSON.stringify(segments)}`);
    assert.deepEqual(parsePath(path), segments);
  }
  assert.equal(pathPattern('$[12].items[3].id'), '$[*].items[*].id');
  assert.equal(pathPattern('$["*"][2]'), '$["*"][*]', 'a member named * is not an index');
  assert.deepEqual(parsePath('$[*].x'), [WILDCARD, 'x']);
  assert.equal(patternExample('$[*].items[*].id'), '$[0].items[0].id');
  assert.equal(parsePath('not a path'), undefined);
  assert.equal(parsePath('$[abc]'), undefined);
});

test('a body is shown pretty-printed, line for line as JSON.stringify writes it', () => {
  const body = {
    id: 7,
    name: 'Week "1"',
    nested: { a: [1, 2, { b: null }], empty: {}, none: [] },
    ok: true,
    'a b': -1.5e3,
  };
  const text = JSON.stringify(body);
  assert.deepEqual(lines(new JsonBodyModel(text)), JSON.stringify(body, null, 2).split('\n'));
  // Spaces and line breaks of the text as the server wrote it do not matter.
  assert.deepEqual(
    lines(new JsonBodyModel(JSON.stringify(body, null, 4).replace(/\n/g, '\r\n'))),
    JSON.stringify(body, null, 2).split('\n'),
  );
  for (const scalar of ['12', '"text"', 'null', 'true']) assert.deepEqual(lines(new JsonBodyModel(scalar)), [scalar]);
  assert.equal(new JsonBodyModel('').rowCount, 0);
});

test('a long array comes in ranges of CHUNK, the first one open; ranges of ranges beyond CHUNK * CHUNK', () => {
  const model = new JsonBodyModel(JSON.stringify(Array.from({ length: 250 }, (_, i) => i)));
  const rows = lines(model);
  assert.equal(rows[0], '[');
  assert.equal(rows[1], '  [0 … 99]');
  assert.equal(rows[2], '    0,');
  assert.equal(rows[101], '    99,');
  assert.equal(rows[102], '  [100 … 199]');
  assert.equal(model.row(102).fold, 'closed');
  assert.equal(model.row(102).summary, '100 items');
  assert.equal(rows[103], '  [200 … 249]');
  assert.equal(rows.at(-1), ']');
  assert.equal(model.rowCount, 105);
  // Opening a range shows its elements.
  assert.equal(model.toggle(102), true);
  assert.equal(line(model.row(103)), '    100,');
  assert.equal(model.rowCount, 205);

  const big = new JsonDocument(JSON.stringify(Array.from({ length: 20_000 }, (_, i) => ({ id: i }))));
  const root = big.root!;
  const top = big.items(root);
  assert.equal(top.length, 2, 'two ranges of 10,000');
  assert.ok(top[0].isRange && top[0].end === 10_000 && top[0].expanded);
  assert.ok(top[1].isRange && !top[1].expanded);
  const inner = big.items(top[0]);
  assert.equal(inner.length, CHUNK);
  // [, [0 … 9999], [0 … 99], 100 objects of 3 rows, 99 closed ranges, [10000 … 19999], ]
  assert.equal(big.rowCount, 1 + 1 + 1 + 300 + 99 + 1 + 1);
});

test('a path is revealed through closed ranges and objects; the row shows that value', () => {
  const body = Array.from({ length: 1234 }, (_, i) => ({ id: i, nested: { deep: [i, `v${i}`] } }));
  const model = new JsonBodyModel(JSON.stringify(body));
  const row = model.rowOfPath('$[1000].nested.deep[1]');
  assert.ok(row !== undefined);
  assert.equal(model.row(row).path, '$[1000].nested.deep[1]');
  assert.equal(model.row(row).text, '"v1000"');
  assert.equal(model.rowOfPath('$[5000].id'), undefined);
  assert.equal(model.rowOfPath('$[0].missing'), undefined);
  // A collapsed object on the way is opened.
  const first = model.rowOfPath('$[0].nested')!;
  assert.equal(model.toggle(first), true);
  assert.equal(model.row(first).fold, 'closed');
  const again = model.rowOfPath('$[0].nested.deep')!;
  assert.equal(model.row(again).path, '$[0].nested.deep');
});

test('a match offset leads to the row of the innermost value that holds it', () => {
  const body = Array.from({ length: 500 }, (_, i) => ({ id: i, name: `module ${i}` }));
  const text = JSON.stringify(body);
  const model = new JsonBodyModel(text);
  const found = model.find('MODULE 321');
  assert.equal(found.offsets.length, 1);
  const row = model.rowOfOffset(found.offsets[0])!;
  assert.equal(model.row(row).path, '$[321].name');
  // An offset in a member's name is that member's row.
  const key = text.indexOf('"name"', text.indexOf('"id":400'));
  assert.equal(model.row(model.rowOfOffset(key)!).path, '$[400].name');
});

test('names with escapes and names like Object.prototype members are members like any other', () => {
  const text = '{"__proto__":{"constructor":1},"a\\"b":2,"toString":[3]}';
  const model = new JsonBodyModel(text);
  assert.deepEqual(Array.from({ length: model.rowCount }, (_, i) => model.row(i).path).filter(Boolean), [
    '$',
    '$.__proto__',
    '$.__proto__.constructor',
    '$["a\\"b"]',
    '$.toString',
    '$.toString[0]',
  ]);
  assert.equal(model.row(model.rowOfPath('$.__proto__.constructor')!).text, '1');
});

test('issues are marked at their value, counted inside a closed container and a closed range', () => {
  const body = Array.from({ length: 300 }, (_, i) => ({ id: i, x_rank: i }));
  const issues = body.map((_, i) => ({
    path: `$[${i}].x_rank`,
    code: 'undocumented-field',
    message: 'not documented',
  }));
  const model = new JsonBodyModel(JSON.stringify(body), issues);
  const row = model.rowOfPath('$[3].x_rank')!;
  assert.equal(model.row(row).issues?.length, 1);
  assert.equal(model.row(model.rowOfPath('$[3].id')!).issues, undefined);
  // The closed range [100 … 199] holds 100 of them.
  const range = Array.from({ length: model.rowCount }, (_, i) => model.row(i)).find((r) => r.text === '[100 … 199]')!;
  assert.equal(range.issuesInside, 100);
  const index = new IssueIndex(issues);
  assert.equal(index.countBelow('$'), 300);
  assert.equal(index.countInRange('$', 250, 300), 50);
  assert.equal(index.issuesAt('$[0].x_rank').length, 1);
});

test('a text that is not whole JSON is shown as far as it reads, and never loops', () => {
  for (const text of [
    '{"a": [1, 2',
    '[1, 2,, 3]',
    '{"a" 1}',
    '{"a":}',
    '[{]',
    '"unterminated',
    '{"a":1}}}}',
    '[' + '['.repeat(5000),
  ]) {
    const model = new JsonBodyModel(text);
    for (let i = 0; i < model.rowCount; i++) model.row(i);
    assert.ok(model.rowCount >= 1 || text.trim() === '', text);
  }
  fc.assert(
    fc.property(
      fc.string({ unit: fc.constantFrom('{', '}', '[', ']', '"', ',', ':', '1', 'a', ' ', '\\') }),
      (text) => {
        const model = new JsonBodyModel(text);
        const n = Math.min(model.rowCount, 200);
        for (let i = 0; i < n; i++) {
          model.row(i);
          model.toggle(i);
        }
        model.rowOfOffset(text.length >> 1);
      },
    ),
    { numRuns: fuzzRuns(300) },
  );
});

test('a text body is shown line by line; a long line is cut, and found', () => {
  const model = new TextBodyModel(`first\r\nsecond\n${'x'.repeat(5000)}\nlast`);
  assert.equal(model.rowCount, 4);
  assert.equal(model.row(0).text, 'first');
  assert.equal(model.row(2).cut, true);
  assert.equal(model.rowOfOffset(model.find('LAST').offsets[0]), 3);
  assert.equal(model.toggle(), false);
  assert.equal(new TextBodyModel('').rowCount, 0);
});
