/**
 * search_endpoints ranks by the docs' words (issue 31): questions written from the docs'
 * sentences, as an agent would ask them, each with the operation the docs mean; at least
 * 90% must have it among the first three.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bundledCatalog } from '../../server/src/catalogData';
import { EndpointSearch, words } from '../../server/src/mcp/search';
import { QUERIES } from './searchQueries';

const search = new EndpointSearch(bundledCatalog());

test('at least 40 questions, each naming a documented operation', () => {
  assert.ok(QUERIES.length >= 40);
  const ids = new Set(bundledCatalog().endpoints.map((e) => e.id));
  for (const [, id] of QUERIES) assert.ok(ids.has(id), id);
});

test('the operation the docs mean is in the first three for at least 90% of the questions', () => {
  const missed: string[] = [];
  for (const [query, id] of QUERIES) {
    const top = search.search(query, 3).map((h) => h.endpoint.id);
    if (!top.includes(id)) missed.push(`${query} -> ${top.join(', ')} (expected ${id})`);
  }
  const rate = (QUERIES.length - missed.length) / QUERIES.length;
  assert.ok(rate >= 0.9, `${Math.round(rate * 100)}% in the first three; missed:\n${missed.join('\n')}`);
});

test('a question of no documented words finds nothing; the limit holds', () => {
  assert.deepEqual(search.search('zzz qqq', 5), []);
  assert.deepEqual(search.search('', 5), []);
  assert.equal(search.search('course', 4).length, 4);
});

test('words are split, lower-cased and stemmed alike in questions and docs', () => {
  assert.deepEqual(words('ModuleItems'), words('module items'));
  assert.deepEqual(words('module_item[completion_requirement]'), words('module item completion requirements'));
  assert.deepEqual(words('__proto__ constructor'), ['proto', 'constructor']);
});
