/**
 * The checker's warnings about a request the mock accepts are never silent (issue 22, item 2):
 * every answer carries them in `Lpreq-Warnings`, the request log gets them, and what the docs
 * say the API ignores, the mock ignores.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_HEADER_LENGTH, violationsHeader } from '../../server/src/http';
import type { RequestLogEntry } from '../../server/src/mock/index';
import { errorsOf, withMock, type Answer } from './mockClient';

type Obj = Record<string, unknown>;
type Entry = { code?: string; parameter?: string; path?: string; omitted?: number };

function warningsOf(answer: Answer): Entry[] | undefined {
  const header = answer.headers.get('lpreq-warnings');
  if (header === null) return undefined;
  assert.match(header, /^[\x20-\x7e]*$/, 'ASCII only');
  assert.ok(header.length <= MAX_HEADER_LENGTH);
  return JSON.parse(header) as Entry[];
}

test('a request the mock accepts carries its warnings in Lpreq-Warnings; a clean one has no such header', () =>
  withMock(async (call) => {
    const clean = await call('GET', '/api/v1/courses/42/modules?include[]=items');
    assert.equal(clean.status, 200);
    assert.equal(warningsOf(clean), undefined);

    const warned = await call('GET', '/api/v1/courses/42/modules?include[]=items&zz=1&per_page=2&per_page=3');
    assert.equal(warned.status, 200);
    assert.deepEqual(warningsOf(warned), [
      { code: 'unknown-parameter', parameter: 'zz' },
      { code: 'duplicate-parameter', parameter: 'per_page' },
    ]);
  }));

test('a 400 keeps its body of errors and warnings, and carries the warnings in the header too', () =>
  withMock(async (call) => {
    const r = await call('POST', '/api/v1/courses/42/modules', { form: { 'module[name][]': 'x' } });
    assert.equal(r.status, 400);
    assert.equal(errorsOf(r)[0].code, 'missing-required');
    const body = r.body as { warnings?: Entry[] };
    assert.equal(body.warnings?.[0].code, 'unknown-parameter');
    assert.deepEqual(warningsOf(r), [{ code: 'unknown-parameter', parameter: 'module[name][]' }]);
  }));

test('the header is ASCII (other characters as JSON escapes), each warning once, and bounded with a count of what it leaves out', () =>
  withMock(async (call) => {
    const accented = await call('GET', '/api/v1/courses/42/modules?caf\u00e9=1&\u202eevil=2&caf\u00e9=3');
    assert.deepEqual(warningsOf(accented), [
      { code: 'unknown-parameter', parameter: 'caf\u00e9' },
      { code: 'unknown-parameter', parameter: '\u202eevil' },
    ]);
    const pairs: [string, string][] = [['module[name]', 'x']];
    for (let i = 0; i < 2000; i++) pairs.push([`unknown_${i}`, '1']);
    const many = await call('POST', '/api/v1/courses/42/modules', { form: pairs });
    assert.equal(many.status, 200);
    const list = warningsOf(many) ?? [];
    const last = list[list.length - 1];
    assert.equal(typeof last.omitted, 'number');
    assert.equal(list.length - 1 + (last.omitted ?? 0), 2000);
    assert.deepEqual(list[0], { code: 'unknown-parameter', parameter: 'unknown_0' });
  }));

test('violationsHeader: a name longer than 200 characters is cut; nothing at all is no header', () => {
  assert.equal(violationsHeader([]), undefined);
  const long = JSON.parse(
    violationsHeader([{ code: 'unknown-parameter', parameter: 'x'.repeat(5000) }]) ?? '',
  ) as Entry[];
  assert.equal(long[0].parameter?.length, 200);
  assert.ok(long[0].parameter?.endsWith('...'));
  const paths = JSON.parse(violationsHeader([{ code: 'undocumented-field', path: '$[0].x' }]) ?? '') as Entry[];
  assert.deepEqual(paths, [{ code: 'undocumented-field', path: '$[0].x' }]);
});

test('a parameter the docs say is ignored in this request is warned about and ignored: never stored, never echoed', () =>
  withMock(async (call) => {
    const created = await call('POST', '/api/v1/courses/42/modules/7/items', {
      form: {
        'module_item[type]': 'Assignment',
        'module_item[content_id]': '305',
        // Document A: page_url is for Page items, external_url for ExternalUrl and ExternalTool, new_tab for ExternalTool.
        'module_item[page_url]': 'intro',
        'module_item[external_url]': 'https://example.org/x',
        'module_item[new_tab]': 'true',
      },
    });
    assert.equal(created.status, 200);
    assert.deepEqual(
      (warningsOf(created) ?? []).map((w) => `${w.code} ${w.parameter}`).sort(),
      ['module_item[external_url]', 'module_item[new_tab]', 'module_item[page_url]'].map(
        (p) => `ignored-parameter ${p}`,
      ),
    );
    const item = created.body as Obj;
    assert.equal(item.type, 'Assignment');
    for (const field of ['page_url', 'external_url', 'new_tab'])
      assert.equal(field in item, false, `${field} was ignored`);
    const shown = (await call('GET', `/api/v1/courses/42/modules/7/items/${String(item.id)}`)).body as Obj;
    for (const field of ['page_url', 'external_url', 'new_tab'])
      assert.equal(field in shown, false, `${field} was not stored`);

    // The same parameters where they apply are kept.
    const page = await call('POST', '/api/v1/courses/42/modules/7/items', {
      form: { 'module_item[type]': 'Page', 'module_item[page_url]': 'intro' },
    });
    assert.equal(page.status, 200);
    assert.equal(warningsOf(page), undefined);
    assert.equal((page.body as Obj).page_url, 'intro');
  }));

test('the request log gets one entry a request: method, path and the names of the query, status, time, warnings; no value, no header', async () => {
  const entries: RequestLogEntry[] = [];
  await withMock(
    async (call) => {
      await call('GET', '/api/v1/courses/42/modules?access_token=secret-in-query&zz=1&zz=2', {
        token: 'secret-in-header',
      });
      await call('GET', '/api/v1/courses/42/modulez');
      await call('GET', '/api/v1/courses/42/modules', { token: null });
    },
    { onRequest: (e) => entries.push(e) },
  );
  assert.equal(entries.length, 3);
  const [first, unknown, unauthenticated] = entries;
  assert.equal(first.method, 'GET');
  assert.equal(first.target, '/api/v1/courses/42/modules?access_token&zz');
  assert.equal(first.status, 200);
  assert.ok(first.ms >= 0);
  assert.deepEqual(
    first.warnings.map((w) => `${w.code} ${w.parameter}`),
    ['unknown-parameter access_token', 'unknown-parameter zz', 'unknown-parameter zz'],
  );
  assert.equal(JSON.stringify(entries).includes('secret-in'), false);
  assert.equal(unknown.status, 404);
  assert.equal(unauthenticated.status, 401);
});
