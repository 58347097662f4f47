import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bundledCatalog } from '../../server/src/catalogData';
import { checkResponse, describeAt } from '../../server/src/sender/typed';
import {
  CHUNK,
  ResponseTree,
  previewValue,
  type ResponseNode,
  type ResponseSummary,
} from '../../client/src/model/responseTree';
import { copyText, documentationMarkdown } from '../../client/src/model/format';

const catalog = bundledCatalog();

function summary(body: unknown, resource: string | null, extra: Partial<ResponseSummary> = {}): ResponseSummary {
  const typed = checkResponse(catalog, resource, body);
  return {
    method: 'GET',
    url: 'http://127.0.0.1/api/v1/courses/1/modules',
    status: 200,
    statusText: 'OK',
    headers: { 'content-type': 'application/json' },
    body,
    bodyText: JSON.stringify(body),
    bodyKind: 'json',
    bytes: JSON.stringify(body).length,
    durationMs: 12,
    resource: typed.resource,
    issues: typed.issues,
    ...extra,
  };
}

function treeOf(s: ResponseSummary): ResponseTree {
  return new ResponseTree(s, (p) => describeAt(catalog, s.resource, p));
}

function find(nodes: ResponseNode[], label: string): ResponseNode {
  const n = nodes.find((x) => x.label === label);
  assert.ok(n, `no node ${label} in ${nodes.map((x) => x.label).join(', ')}`);
  return n;
}

const module1 = {
  id: 1,
  workflow_state: 'active',
  position: 1,
  name: 'Week 1',
  items_count: 2,
  items_url: 'u',
  require_sequential_progress: false,
  prerequisite_module_ids: [],
  publish_final_grade: null,
};

test('the body node is labelled with its documented type and fields show value and type', () => {
  const tree = treeOf(summary([module1], 'Module[]'));
  const roots = tree.roots();
  assert.equal(roots[0].label, '200 OK');
  const body = find(roots, 'Module[]');
  assert.equal(body.collapsible, 'expanded');
  const first = tree.children(body)[0];
  assert.equal(first.label, '[0]');
  assert.match(first.description ?? '', /Module/);
  const fields = tree.children(first);
  assert.match(find(fields, 'items_count').description ?? '', /^2 · integer$/);
  assert.match(find(fields, 'publish_final_grade').description ?? '', /^null · boolean/);
  assert.match(find(fields, 'workflow_state').description ?? '', /"active" · string/);
  assert.equal(find(fields, 'items_count').jsonPath, '$[0].items_count');
  assert.equal(tree.issueCount, 0);
});

test('issues are marked at their node, counted on the way up and in the summary', () => {
  const bad = { ...module1, items_count: '2', workflow_state: 'archived', extra_field: 1 };
  const tree = treeOf(summary([bad], 'Module[]'));
  assert.equal(tree.issueCount, 3);
  assert.equal(tree.summary(), '200 · Module[] · 3 issues');
  const body = find(tree.roots(), 'Module[]');
  assert.match(body.description ?? '', /3 issues inside/);
  const fields = tree.children(tree.children(body)[0]);
  const count = find(fields, 'items_count');
  assert.equal(count.icon, 'warning');
  assert.equal(count.issues[0].code, 'type-mismatch');
  assert.match(count.description ?? '', /^⚠/);
  assert.equal(find(fields, 'extra_field').issues[0].code, 'undocumented-field');
  assert.match(find(fields, 'extra_field').description ?? '', /undocumented/);
  assert.equal(find(fields, 'workflow_state').issues[0].code, 'unknown-enum-value');
  const issues = find(tree.roots(), 'Issues');
  assert.equal(tree.children(issues).length, 3);
});

test('children are built only on demand, and long arrays come in ranges', () => {
  const many = Array.from({ length: 25_000 }, (_, i) => ({ ...module1, id: i }));
  // Each value node is described once, when it is built: count them.
  const described: string[] = [];
  const s = summary(many, null);
  const tree = new ResponseTree(s, (path) => (described.push(path), describeAt(catalog, s.resource, path)));
  const body = find(tree.roots(), 'Body');
  const top = tree.children(body);
  assert.deepEqual(described, ['$'], 'the body and its three ranges: no element built yet');
  assert.equal(top.length, 3);
  assert.equal(top[0].label, '[0 … 9999]');
  const sub = tree.children(top[0]);
  assert.equal(sub.length, CHUNK);
  assert.equal(sub[1].label, '[100 … 199]');
  const items = tree.children(sub[1]);
  assert.equal(items.length, CHUNK);
  assert.equal(items[0].label, '[100]');
  assert.equal(items[0].jsonPath, '$[100]');
  assert.equal(described.length, 1 + CHUNK, 'the body and the hundred elements opened: nothing else');
});

test('a range counts the issues of its elements', () => {
  const many = Array.from({ length: 150 }, (_, i) => ({ ...module1, id: i }));
  many[120] = { ...module1, id: 'x' as unknown as number };
  const tree = treeOf(summary(many, 'Module[]'));
  const [a, b] = tree.children(find(tree.roots(), 'Module[]'));
  assert.equal(a.issueCount, 0);
  assert.equal(b.issueCount, 1);
  assert.equal(b.icon, 'warning');
});

test('errors are shown plainly: no response, API error body, text body', () => {
  const refused = treeOf({
    ...summary(null, null),
    status: null,
    bodyKind: 'empty',
    error: { kind: 'refused', message: 'nothing listens on 127.0.0.1:1' },
  });
  const r = refused.roots();
  assert.equal(r[0].label, 'Connection refused');
  assert.equal(r[0].icon, 'error');
  assert.match(r[0].description ?? '', /nothing listens/);

  const apiError = treeOf({
    ...summary({ errors: [{ message: 'not found' }] }, null),
    status: 404,
    statusText: 'Not Found',
    apiError: 'not found',
  });
  const e = apiError.roots();
  assert.equal(e[0].label, '404 Not Found');
  assert.equal(e[0].icon, 'error');
  assert.equal(find(e, 'API error').description, 'not found');

  const text = treeOf({
    ...summary(null, null),
    body: 'oops\nline 2',
    bodyText: 'oops\nline 2',
    bodyKind: 'text',
    status: 502,
  });
  const t = find(text.roots(), 'Body (not JSON)');
  assert.deepEqual(
    text.children(t).map((n) => n.label),
    ['oops', 'line 2'],
  );
});

test('enum values show their meaning when the docs give one', () => {
  const fake = (p: string) =>
    p === '$.state'
      ? { type: 'string', enum: ['locked', 'unlocked'], enumDescriptions: { locked: 'cannot be opened yet' } }
      : undefined;
  const tree = new ResponseTree({ ...summary({ state: 'locked' }, null), resource: 'X' }, fake);
  const state = tree.children(find(tree.roots(), 'X'))[0];
  assert.equal(state.description, '"locked" · string (cannot be opened yet)');
  assert.match(documentationMarkdown('$.state', state.documented), /`locked`: cannot be opened yet/);
});

test('previews and copied text', () => {
  assert.equal(previewValue(null), 'null');
  assert.equal(previewValue([1, 2]), '[2 items]');
  assert.equal(previewValue({ a: 1 }), '{1 field}');
  assert.equal(previewValue('x'.repeat(200)).length, 80);
  assert.equal(copyText('plain'), 'plain');
  assert.equal(copyText({ a: 1 }), '{\n  "a": 1\n}');
});
