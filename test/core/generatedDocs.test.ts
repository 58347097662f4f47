/**
 * docs/codes.md and the README's table of codes are written from the one table of codes
 * (server/src/core/codes.ts), and docs/mock.md's variables of a mock run from the catalog and
 * the seed, by scripts/gen-docs.ts: a committed document that differs from what the script
 * writes fails here (run `npm run docs`).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  codesPage,
  END,
  MOCK_END,
  MOCK_START,
  mockPageWithVariables,
  readmeWithTable,
  sendingWithTypedNames,
  START,
  TYPED_END,
  TYPED_START,
} from '../../scripts/gen-docs';
import { ROOT } from '../helpers';

test('docs/codes.md is what npm run docs writes from the table of codes', () => {
  assert.equal(readFileSync(join(ROOT, 'docs', 'codes.md'), 'utf8'), codesPage());
});

test("the README's table of codes is what npm run docs writes from the table of codes", () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const written = readmeWithTable(readme);
  assert.ok(written !== undefined, `README.md has the table of codes between ${START} and ${END}`);
  assert.equal(readme, written);
});

test("docs/sending.md's list of unions and inline objects is what npm run docs writes from the catalog", () => {
  const text = readFileSync(join(ROOT, 'docs', 'sending.md'), 'utf8');
  const written = sendingWithTypedNames(text);
  assert.ok(written !== undefined, `docs/sending.md has the list between ${TYPED_START} and ${TYPED_END}`);
  assert.equal(text, written);
  assert.match(text, /submissions\.list_for_students/);
  assert.match(text, /course_audit_log\.list.*CourseEventCompoundDocument/);
});

test("docs/mock.md's variables of a mock run are what npm run docs writes from the catalog and the seed", () => {
  const page = readFileSync(join(ROOT, 'docs', 'mock.md'), 'utf8');
  const written = mockPageWithVariables(page);
  assert.ok(written !== undefined, `docs/mock.md has the table between ${MOCK_START} and ${MOCK_END}`);
  assert.equal(page, written);
});
