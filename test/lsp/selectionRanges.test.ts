import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SelectionRange } from 'vscode-languageserver/node';
import { inProcessServer } from './inProcessServer';
import { atCursor, getService } from './service';

/** The selection ranges at the cursor of `marked`, innermost first, as the texts they select. */
export function testSelectionRanges(marked: string, expected: string[]): void {
  const { text, offset, doc } = atCursor(marked);
  const [ranges] = getService().selectionRanges(doc.parsed, [offset]);
  assert.deepEqual(
    ranges.map((r) => text.slice(r.start, r.end)),
    expected,
  );
}

const FILE =
  '@course = 42\n\n### Add an item\n# @name item\nPOST {{base_url}}/api/v1/courses/{{course}}/modules/7/items?include[]=items\nAccept: application/json\n\nmodule_item[type] = Assignment\nmodule_item[content_id] = 12\n?? status == 201\n\n###\nGET /api/v1/courses/1/files\n  &sort=size\n';
const ITEM_BLOCK = FILE.slice(FILE.indexOf('### Add'), FILE.indexOf('?? status == 201') + '?? status == 201'.length);
const mark = (needle: string, at: number) => {
  const i = FILE.indexOf(needle) + at;
  return FILE.slice(0, i) + '|' + FILE.slice(i);
};

const cases: [string, string[]][] = [
  // A parameter's value, the parameter, the request block, the file.
  [mark('Assignment', 3), ['Assignment', 'module_item[type] = Assignment', ITEM_BLOCK, FILE]],
  [
    mark('module_item[content_id]', 2),
    ['module_item', 'module_item[content_id]', 'module_item[content_id] = 12', ITEM_BLOCK, FILE],
  ],
  // A path segment, the target, the request line.
  [
    mark('modules/7', 2),
    [
      'modules',
      '{{base_url}}/api/v1/courses/{{course}}/modules/7/items?include[]=items',
      'POST {{base_url}}/api/v1/courses/{{course}}/modules/7/items?include[]=items',
      ITEM_BLOCK,
      FILE,
    ],
  ],
  // A query pair's value, the pair, the query, the target.
  [
    mark('=items', 2),
    [
      'items',
      'include[]=items',
      '?include[]=items',
      '{{base_url}}/api/v1/courses/{{course}}/modules/7/items?include[]=items',
      'POST {{base_url}}/api/v1/courses/{{course}}/modules/7/items?include[]=items',
      ITEM_BLOCK,
      FILE,
    ],
  ],
  // A header's value, the header.
  [mark('application/json', 3), ['application', 'application/json', 'Accept: application/json', ITEM_BLOCK, FILE]],
  // A query line's parameter, the line, the block of the last request.
  [mark('&sort=size', 7), ['size', 'sort=size', '&sort=size', '###\nGET /api/v1/courses/1/files\n  &sort=size', FILE]],
  // An assertion: its expected value, the line.
  [mark('201', 1), ['201', '?? status == 201', ITEM_BLOCK, FILE]],
  // A file variable: its value, the definition; metadata.
  [mark('42', 1), ['42', '@course = 42', FILE]],
  [mark('@name item', 8), ['item', '# @name item', ITEM_BLOCK, FILE]],
  // Nothing at all: the cursor.
  ['|', ['']],
];

for (const [marked, expected] of cases) {
  test(`selection ranges at ${JSON.stringify(marked.slice(Math.max(0, marked.indexOf('|') - 12), marked.indexOf('|') + 12))}`, () =>
    testSelectionRanges(marked, expected));
}

test('the server announces selection ranges and answers each position with its chain of parents', async () => {
  const server = await inProcessServer({});
  try {
    const uri = 'untitled:selection.lpreq';
    await server.client.sendNotification('textDocument/didOpen', {
      textDocument: { uri, languageId: 'lpreq', version: 1, text: FILE },
    });
    const ranges = (await server.client.sendRequest('textDocument/selectionRange', {
      textDocument: { uri },
      positions: [{ line: 7, character: 22 }],
    })) as SelectionRange[];
    const texts: string[] = [];
    const lines = FILE.split('\n');
    const offset = (p: { line: number; character: number }) =>
      lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
    for (let r: SelectionRange | undefined = ranges[0]; r; r = r.parent)
      texts.push(FILE.slice(offset(r.range.start), offset(r.range.end)));
    assert.deepEqual(texts, ['Assignment', 'module_item[type] = Assignment', ITEM_BLOCK, FILE]);
    assert.equal(server.capabilities.selectionRangeProvider, true);
  } finally {
    server.close();
  }
});
