import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bundledCatalog } from '../../server/src/catalogData';
import { Checker } from '../../server/src/core/index';
import { describeRequest, lineAt, lineStarts, parseRequests, requestAtLine } from '../../client/src/model/requests';

const checker = new Checker(bundledCatalog());

const text = [
  '@base_url = http://127.0.0.1:4010',
  '',
  '### List modules',
  'GET /api/v1/courses/1/modules',
  '',
  '### Create a module',
  '# @name createModule',
  'POST /api/v1/courses/1/modules',
  '',
  'module[name] = Week 1',
  '',
  '### not a request',
  '# nothing here',
].join('\n');

test('every request with its line, title, name and whether its endpoint pages', () => {
  const { requests } = parseRequests(checker, text);
  assert.equal(requests.length, 2);
  assert.deepEqual(
    requests.map((r) => [r.line, r.method, r.paginated, r.endpointId]),
    [
      [3, 'GET', true, 'modules.list'],
      [7, 'POST', false, 'modules.create'],
    ],
  );
  assert.equal(requests[0].title, 'List modules');
  assert.equal(requests[1].name, 'createModule');
  assert.equal(describeRequest(requests[1]), 'createModule');
  assert.equal(describeRequest(requests[0]), 'List modules');
});

test('the request at a line is the one whose block holds it', () => {
  const { requests } = parseRequests(checker, text);
  assert.equal(requestAtLine(requests, 3)?.method, 'GET');
  assert.equal(requestAtLine(requests, 9)?.method, 'POST');
  assert.equal(requestAtLine(requests, 0)?.method, 'GET');
  assert.equal(requestAtLine([], 0), undefined);
});

test('lines of offsets', () => {
  const starts = lineStarts('a\nbc\n\nd');
  assert.deepEqual(starts, [0, 2, 5, 6]);
  assert.equal(lineAt(starts, 0), 0);
  assert.equal(lineAt(starts, 3), 1);
  assert.equal(lineAt(starts, 6), 3);
});

test('Fetch All Pages is offered exactly where the sender follows pages, the webhook list (EndKey/StartKey) included', async () => {
  const { prepareRequest } = await import('../../server/src/sender/prepare');
  const { parseDocument } = await import('../../server/src/core/index');
  const lines = (await import('node:fs'))
    .readFileSync(new URL('../fixtures/documented-endpoints.txt', import.meta.url), 'utf8')
    .split('\n');
  const requests = lines
    .filter((l) => /^(GET|POST|PUT|PATCH|DELETE) \//.test(l))
    .map((l) => l.replace(/\{[^}]+\}/g, '1'));
  const paged: string[] = [];
  for (const request of requests) {
    const lens = parseRequests(checker, `${request}\n`).requests[0];
    const prepared = prepareRequest(checker, parseDocument(`${request}\n`), 0, {
      environments: { environments: { local: { base_url: 'http://127.0.0.1:4010' } }, selected: 'local' },
    });
    assert.ok(prepared.ok, request);
    assert.equal(lens.paginated, prepared.request.paginated, request);
    if (lens.paginated) paged.push(request);
  }
  assert.ok(paged.includes('GET /api/lti/subscriptions'), 'the webhook list has the lens');
  assert.ok(paged.includes('GET /api/v1/courses/1/modules'));
  assert.ok(!paged.some((r) => !r.startsWith('GET ')), 'only lists page');
});
