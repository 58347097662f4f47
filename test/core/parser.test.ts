/** The parser: structure, offsets, line endings, recovery and block reuse. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertionsOf,
  parseDocument,
  parseBlock,
  findVariableReferences,
  blockBoundaries,
  requestTarget,
  targetOffset,
} from '../../server/src/core/index';

const slice = (text: string, t: { start: number; end: number }) => text.slice(t.start, t.end);

test('a request with title, name, query continuation, headers and parameters', () => {
  const text = [
    '### Create an item',
    '# @name createItem',
    'POST {{base_url}}/api/v1/courses/1/modules/7/items?a=1 HTTP/1.1',
    '    &b=two%20words',
    'Accept: application/json',
    '',
    '# a comment',
    'module_item[type] = Assignment',
    '& module_item[content_id]=123',
    '',
  ].join('\n');
  const b = parseBlock(text);
  assert.equal(b.title?.text, 'Create an item');
  assert.equal(b.metadata[0].key.text, 'name');
  assert.equal(b.metadata[0].value.text, 'createItem');
  assert.equal(b.request?.method.text, 'POST');
  assert.equal(b.request?.version?.text, 'HTTP/1.1');
  assert.equal(b.request?.target.text, '{{base_url}}/api/v1/courses/1/modules/7/items?a=1');
  assert.deepEqual(
    b.params.map((p) => [p.decodedName, p.decodedValue, p.source]),
    [
      ['a', '1', 'query'],
      ['b', 'two words', 'query'],
      ['module_item[type]', 'Assignment', 'body'],
      ['module_item[content_id]', '123', 'body'],
    ],
  );
  assert.equal(b.headers[0].name.text, 'Accept');
  assert.equal(b.headers[0].value.text, 'application/json');
  for (const p of b.params) assert.equal(slice(text, p.name), p.name.text);
  assert.deepEqual(b.problems, []);
});

test("JetBrains' path lines: indented lines starting with / go on with the path, the one with ? carries the query", () => {
  const text = [
    'GET {{base_url}}/api/v1/courses/1',
    '    /modules',
    '\t/7/items?include[]=content_details',
    '    &per_page=10',
    'Accept: application/json',
    '',
  ].join('\r\n');
  const b = parseBlock(text);
  assert.deepEqual(
    b.request?.pathLines?.map((t) => t.text),
    ['/modules', '/7/items?include[]=content_details'],
  );
  assert.equal(requestTarget(b.request!), '{{base_url}}/api/v1/courses/1/modules/7/items?include[]=content_details');
  assert.deepEqual(
    b.params.map((p) => [p.decodedName, slice(text, p.value)]),
    [
      ['include[]', 'content_details'],
      ['per_page', '10'],
    ],
  );
  assert.equal(b.headers[0].name.text, 'Accept');
  assert.deepEqual(b.problems, []);
  // Every character of the joined target maps back to where it stands.
  const joined = requestTarget(b.request!);
  for (let i = 0; i < joined.length; i++) assert.equal(text[targetOffset(b.request!, i)], joined[i], `character ${i}`);
  // Without indentation, or as a `//` comment, a line is not a path line.
  assert.deepEqual(parseBlock('GET /api/v1/courses\n/modules\n').request?.pathLines, []);
  assert.deepEqual(parseBlock('GET /api/v1/courses\n    // note\n').request?.pathLines, []);
  // A request line that already has its query takes no path lines.
  assert.deepEqual(parseBlock('GET /api/v1/courses?x=1\n    /modules\n').request?.pathLines, []);
});

test('CRLF, a BOM and tabs give the same structure and true offsets', () => {
  const lf = '@x = 1\n\n### T\nGET /api/v1/courses\n\n\tinclude[]\t=\tterm\n';
  const crlf = '\uFEFF' + lf.replace(/\n/g, '\r\n');
  for (const text of [lf, crlf]) {
    const doc = parseDocument(text);
    assert.equal(doc.blocks.length, 2);
    const [first, second] = doc.blocks;
    assert.equal(first.block.variables[0].name.text, 'x');
    assert.equal(first.block.variables[0].value.text, '1');
    const p = second.block.params[0];
    assert.equal(p.name.text, 'include[]');
    assert.equal(p.value.text, 'term');
    assert.equal(text.slice(second.start + p.value.start, second.start + p.value.end), 'term');
    assert.equal(second.block.request?.target.text, '/api/v1/courses');
  }
});

test('empty, blank and comment-only documents have no request and no problem', () => {
  for (const text of ['', '\n\n', '# only a comment', '###', '### title only\n']) {
    const doc = parseDocument(text);
    for (const { block } of doc.blocks) {
      assert.equal(block.request, undefined);
      assert.deepEqual(block.problems, []);
    }
  }
});

test('a JSON body is the rest of the block', () => {
  const b = parseBlock('PUT /api/v1/x\nContent-Type: application/json\n\n{\n  "a": 1\n}\n\n');
  assert.equal(b.jsonBody?.text, '{\n  "a": 1\n}');
  assert.deepEqual(b.params, []);
});

test('recovery: a broken line does not hide the rest of the block or the next block', () => {
  const doc = parseDocument(
    'POST /api/v1/x\n\nno equals here\nname = ok\n###\nGETT /api/v1/y\n### next\nGET /api/v1/z\n',
  );
  assert.equal(doc.blocks[0].block.problems.length, 1);
  assert.equal(doc.blocks[0].block.params[0].name.text, 'name');
  assert.equal(doc.blocks[1].block.problems.length, 1);
  assert.equal(doc.blocks[2].block.request?.target.text, '/api/v1/z');
});

test('unchanged blocks are reused after an edit elsewhere', () => {
  const a = '### one\nGET /api/v1/courses\n';
  const b = '### two\nGET /api/v1/courses/1/modules\n';
  const first = parseDocument(a + b);
  const second = parseDocument(a + b.replace('modules', 'modules?search_term=x'), first);
  assert.equal(second.blocks[0].block, first.blocks[0].block);
  assert.notEqual(second.blocks[1].block, first.blocks[1].block);
});

test('block boundaries are lines beginning with ###', () => {
  assert.deepEqual(blockBoundaries('a\n### b\nc\n  ### not\n###'), [0, 2, 20]);
});

test('variable references and their offsets', () => {
  const refs = findVariableReferences('x{{ a }}y{{$datetime iso8601}}{{broken', 10);
  assert.deepEqual(refs, [
    { expression: 'a', start: 11, end: 18 },
    { expression: '$datetime iso8601', start: 19, end: 40 },
  ]);
});

test('very long lines and any Unicode parse without trouble', () => {
  const long = 'x'.repeat(200_000);
  const b = parseBlock(`POST /api/v1/courses/1/modules\n\nmodule[name] = ${long} 🎓 ünïcödé\u2028 ﷽\n`);
  assert.equal(b.params[0].value.text.length, long.length + ' 🎓 ünïcödé\u2028 ﷽'.length);
});

test('spaces in the query are read as part of the value; in the path they are a syntax problem', () => {
  const ok = parseBlock('GET /api/v1/search/recipients?search=ada lovelace HTTP/1.1\n');
  assert.deepEqual(ok.problems, []);
  assert.equal(ok.params[0].decodedValue, 'ada lovelace');
  assert.equal(ok.request?.version?.text, 'HTTP/1.1');
  const bad = parseBlock('GET /api/v1/courses/1/mod ules\n');
  assert.equal(bad.problems.length, 1);
});

test('a target that is not a path, an absolute URL or a variable cannot be read', () => {
  for (const line of ['GET api/v1/courses', 'GET courses/1', 'POST www.example.edu/api/v1/x']) {
    assert.equal(parseBlock(`${line}\n`).problems.length, 1, line);
  }
  for (const line of [
    'GET /api/v1/courses',
    'GET {{base_url}}/api/v1/courses',
    'GET https://lms.example.edu/api/v1/courses',
    'GET HTTPS://LMS.EXAMPLE.EDU/api/v1/courses',
  ]) {
    assert.deepEqual(parseBlock(`${line}\n`).problems, [], line);
  }
});

test('assertion lines are taken out of the block wherever they stand after the request line (section 6)', () => {
  const withAssertions = [
    '### Create a module',
    'POST /api/v1/courses/1/modules?a=1',
    '?? status == 200',
    '    &b=2',
    'Accept: application/json',
    '  ?? header content-type includes json',
    'X-Trace: 1',
    '',
    'module[name] = Week 5',
    '?? body $.name == Week 5',
    'module[position] = 2',
    '',
    '?? bogus line',
    '',
  ].join('\n');
  const b = parseBlock(withAssertions);
  assert.deepEqual(b.problems, []);
  assert.deepEqual(
    b.params.map((p) => [p.decodedName, p.decodedValue, p.source]),
    [
      ['a', '1', 'query'],
      ['b', '2', 'query'],
      ['module[name]', 'Week 5', 'body'],
      ['module[position]', '2', 'body'],
    ],
  );
  assert.deepEqual(
    b.headers.map((h) => h.name.text),
    ['Accept', 'X-Trace'],
  );
  assert.equal(assertionsOf(b).length, 4);
  assert.deepEqual(
    assertionsOf(b)
      .slice(0, 3)
      .map((a) => a.assertion && slice(withAssertions, a.assertion)),
    ['?? status == 200', '?? header content-type includes json', '?? body $.name == Week 5'],
  );
  const bad = assertionsOf(b)[3];
  assert.ok(bad.problem);
  assert.equal(slice(withAssertions, bad.problem), 'bogus');
});

test('an assertion line inside a multi-line JSON body is left out of the body, offsets kept', () => {
  const text = [
    'PUT /api/v1/courses/1/quizzes/2/submissions/3',
    'Content-Type: application/json',
    '',
    '{',
    '  "attempt": 1,',
    '?? status == 200',
    '  "quiz_submissions": []',
    '}',
    '?? body $.quiz_submissions isArray',
    '',
  ].join('\n');
  const b = parseBlock(text);
  assert.ok(b.jsonBody);
  assert.deepEqual(JSON.parse(b.jsonBody.text), { attempt: 1, quiz_submissions: [] });
  assert.equal(b.jsonBody.text.length, b.jsonBody.end - b.jsonBody.start);
  assert.equal(assertionsOf(b).length, 2);
  assert.ok(assertionsOf(b).every((a) => a.assertion !== undefined));
});

test('a block without assertion lines has none, and ?? before the request line is not one', () => {
  assert.deepEqual(assertionsOf(parseBlock('GET /api/v1/courses/1/modules\n')), []);
  const b = parseBlock('?? status == 200\nGET /api/v1/courses/1/modules\n');
  assert.deepEqual(assertionsOf(b), []);
  assert.ok(b.problems.length > 0);
});
