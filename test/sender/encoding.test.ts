/** Encoding of parameters: every shape in the docs (compared with curl itself in test/system/curl.test.ts). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  appendQuery,
  encodeForm,
  encodeFormName,
  encodeFormValue,
  escapeUrlText,
} from '../../server/src/sender/encoding';
import { SHAPES } from './formShapes';

const KNOWN: [string, string][] = [
  ['a b', 'a+b'],
  ['a+b', 'a%2Bb'],
  ['&=+', '%26%3D%2B'],
  ['2026-09-14T08:00:00+02:00', '2026-09-14T08%3A00%3A00%2B02%3A00'],
  ['é', '%C3%A9'],
  ['日', '%E6%97%A5'],
  ['😀', '%F0%9F%98%80'],
  ['~-._', '~-._'],
  ["!*'()", '%21%2A%27%28%29'],
];

for (const [value, encoded] of KNOWN) {
  test(`encodeFormValue ${JSON.stringify(value)}`, () => assert.equal(encodeFormValue(value), encoded));
}

test('names keep their brackets literally', () => {
  assert.equal(
    encodeFormName('module_item[completion_requirement][type]'),
    'module_item[completion_requirement][type]',
  );
  assert.equal(encodeFormName('include[]'), 'include[]');
  assert.equal(encodeFormName('custom_fields[my field]'), 'custom_fields[my+field]');
  assert.equal(
    encodeForm([
      { name: 'include[]', value: 'a' },
      { name: 'include[]', value: 'b' },
    ]),
    'include[]=a&include[]=b',
  );
});

test('the order of pairs is kept (nested pairs name[X][])', () => {
  const encoded = encodeForm(SHAPES.slice(5, 8));
  assert.equal(
    encoded,
    'appointment_group[new_appointments][0][]=2026-09-14T08%3A00%3A00%2B02%3A00&appointment_group[new_appointments][0][]=2026-09-14T09%3A00%3A00%2B02%3A00&appointment_group[new_appointments][1][]=2026-09-15T08%3A00%3A00Z',
  );
});

test('escapeUrlText keeps what is written and escapes what a URL cannot hold', () => {
  assert.equal(
    escapeUrlText('/api/v1/courses/sis_course_id:A1/files?sort=size'),
    '/api/v1/courses/sis_course_id:A1/files?sort=size',
  );
  assert.equal(escapeUrlText('a b%20c%zz é'), 'a%20b%20c%25zz%20%C3%A9');
});

test('appendQuery keeps the query already in the target', () => {
  assert.equal(appendQuery('http://h/p', 'a=1'), 'http://h/p?a=1');
  assert.equal(appendQuery('http://h/p?sort=size', 'a=1'), 'http://h/p?sort=size&a=1');
  assert.equal(appendQuery('http://h/p?', 'a=1'), 'http://h/p?a=1');
  assert.equal(appendQuery('http://h/p#f', 'a=1'), 'http://h/p?a=1#f');
  assert.equal(appendQuery('http://h/p', ''), 'http://h/p');
});
