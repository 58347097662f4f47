/**
 * Compare with Previous Response and Compare with Snapshot outside VS Code: which history entry
 * is a response's previous one, a history entry and a shown response as the comparison reads
 * them, and what the Compare tab lists.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { bundledCatalog } from '../../server/src/catalogData';
import { compareResponses, type HistoryEntry, type HistorySummary } from '../../server/src/sender/index';
import {
  comparedOfEntry,
  comparedOfSummary,
  compareProblem,
  compareView,
  previousEntry,
} from '../../client/src/model/compareView';

const entry = (id: string, o: Partial<HistorySummary>): HistorySummary => ({
  id,
  time: '2026-11-29T10:00:00Z',
  method: 'GET',
  url: 'https://lms.example.edu/api/v1/courses/42/modules',
  status: 200,
  durationMs: 10,
  file: '/w/m.lpreq',
  environment: 'dev',
  ...o,
});

test('the previous response: the newest earlier one of the same request in the same environment', () => {
  // Newest first, as the history lists them.
  const list = [
    entry('e6', { name: 'list' }),
    entry('e5', { name: 'list', environment: 'staging' }),
    entry('e4', { name: 'other' }),
    entry('e3', { name: 'list', status: null }),
    entry('e2', { name: 'list', errorKind: 'timeout' }),
    entry('e1', { name: 'list' }),
    entry('e0', { name: 'list', file: '/w/other.lpreq' }),
  ];
  const me = { file: '/w/m.lpreq', name: 'list', method: 'GET', url: 'x', environment: 'dev' };
  // The response shown is e6 itself: its previous one skips another environment, another
  // request, one without a response and one cut short.
  assert.equal(previousEntry(list, { ...me, historyId: 'e6' })?.id, 'e1');
  // A response the history does not hold (a test run's): the newest of the request is earlier.
  assert.equal(previousEntry(list, me)?.id, 'e6');
  assert.equal(previousEntry(list, { ...me, environment: 'staging' })?.id, 'e5');
  assert.equal(previousEntry(list, { ...me, historyId: 'e1' }), undefined);
  // Shown before its own entry was written: only what ended before it is earlier.
  const later = [entry('e7', { name: 'list', time: '2026-11-29T10:00:05Z' }), ...list];
  assert.equal(previousEntry(later, { ...me, historyId: 'e7-not-yet', shownAt: '2026-11-29T10:00:04Z' })?.id, 'e6');
});

test('a request without @name is the same by its title, else by its method and URL', () => {
  const url = 'https://lms.example.edu/api/v1/courses/42/modules/7';
  const list = [
    entry('e3', { title: 'Read it', url }),
    entry('e2', { url }),
    entry('e1', { title: '  ', url: `${url}?x=1` }),
    entry('e0', { title: 'Read it', url: `${url}/items` }),
  ];
  const base = { file: '/w/m.lpreq', method: 'GET', environment: 'dev' };
  assert.equal(previousEntry(list, { ...base, title: 'Read it', url, historyId: 'e3' })?.id, 'e0');
  assert.equal(previousEntry(list, { ...base, url })?.id, 'e2');
  // A bare ### is no title: by method and URL.
  assert.equal(previousEntry(list, { ...base, title: ' ', url: `${url}?x=1` })?.id, 'e1');
});

test('a history entry and a shown response as the comparison reads them', () => {
  const full = (o: Partial<HistoryEntry>) =>
    ({
      ...entry('e1', {}),
      request: { method: 'GET', url: 'u', headers: [] },
      ok: true,
      responseHeaders: { 'Content-Type': 'application/json' },
      body: '{"id": 1}',
      ...o,
    }) as HistoryEntry;
  assert.deepEqual(comparedOfEntry(full({})), { response: { status: 200, body: { id: 1 }, json: true } });
  assert.deepEqual(comparedOfEntry(full({ responseHeaders: { 'content-type': 'text/plain' }, body: 'ok' })), {
    response: { status: 200, body: 'ok', json: false },
  });
  assert.ok('problem' in comparedOfEntry(full({ bodyCut: true })));
  assert.deepEqual(comparedOfSummary({ status: 201, body: { a: 1 }, bodyText: '{"a":1}', bodyKind: 'json' }), {
    status: 201,
    body: { a: 1 },
    json: true,
  });
  assert.deepEqual(comparedOfSummary({ status: 200, body: null, bodyText: 'hi', bodyKind: 'text' }), {
    status: 200,
    body: 'hi',
    json: false,
  });
});

test("the Compare tab's rows: each difference with its path, kind, values and type; a removed one is not revealed", () => {
  const before = { id: 7, name: 'Week 1', position: 1, workflow_state: 'active' };
  const after = { id: 8, name: 'Week 2', workflow_state: 'archived', x_rank: 1 };
  const comparison = compareResponses(
    bundledCatalog(),
    'Module',
    { status: 200, body: before, json: true },
    { status: 200, body: after, json: true },
  );
  const view = compareView(comparison, {
    against: 'snapshot',
    title: 'the snapshot __snapshots__/m.lpreq/list.json',
    options: ['ignore $.items_count'],
    canUpdate: true,
  });
  assert.equal(view.differences, 4);
  assert.match(view.summary, /^4 differences: /);
  assert.deepEqual(
    view.rows.map((r) => [r.kind, r.path, r.revealable, r.type ?? '']),
    [
      ['value-changed', '$.name', true, 'string'],
      ['unknown-enum-value', '$.workflow_state', true, 'string'],
      ['undocumented-field', '$.x_rank', true, ''],
      ['removed', '$.position', false, 'integer'],
    ],
  );
  assert.equal(view.rows[0].before, 'string "Week 1"');
  assert.equal(view.rows[0].after, 'string "Week 2"');
  const same = compareView(
    compareResponses(
      bundledCatalog(),
      'Module',
      { status: 200, body: before, json: true },
      { status: 200, body: { ...before, id: 9 }, json: true },
    ),
    { against: 'previous', title: 'the previous response', options: [], canUpdate: false },
  );
  assert.equal(same.differences, 0);
  assert.match(same.summary, /^No difference/);
  const problem = compareProblem('snapshot', 'the snapshot x', 'No snapshot yet', true);
  assert.equal(problem.problem, 'No snapshot yet');
  assert.equal(problem.canUpdate, true);
});
