import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCounts, runSummaryView, type RunOutcome } from '../../client/src/model/runSummary';

const ok = (label: string): RunOutcome => ({
  label,
  method: 'GET',
  target: '/api/v1/courses',
  status: 200,
  sent: true,
  ok: true,
  durationMs: 12,
});

test('a run counts what was sent, what passed and what failed', () => {
  const outcomes: RunOutcome[] = [
    ok('List courses'),
    {
      label: 'Create a module',
      method: 'POST',
      target: '/m',
      status: 422,
      sent: true,
      ok: false,
      errorKind: 'http',
      message: '422',
      durationMs: 30,
    },
    {
      label: 'GET /x',
      method: 'GET',
      target: '/x',
      status: null,
      sent: false,
      ok: false,
      errorKind: 'prepare',
      message: 'no base_url',
      durationMs: 0,
    },
    {
      label: 'Slow',
      method: 'GET',
      target: '/s',
      status: null,
      sent: true,
      ok: false,
      errorKind: 'cancelled',
      message: 'cancelled',
      durationMs: 5,
    },
  ];
  // Five requests in the file; the run was cancelled in the fourth, so the fifth never ran.
  assert.deepEqual(runCounts(outcomes, 5), { total: 5, sent: 3, passed: 1, failed: 2, cancelled: 2 });
  const { view, text } = runSummaryView('modules.lpreq', outcomes, 5, 7, 1500);
  assert.equal(view.status.text, '1 of 5 passed');
  assert.equal(view.status.tone, 'failed');
  assert.deepEqual(view.facts, ['3 sent', '1 passed', '2 failed', '2 cancelled', '1.5 s']);
  assert.deepEqual(
    view.banners.map((b) => b.kind),
    ['error', 'error', 'cancelled'],
  );
  assert.equal(view.bodyKind, 'text');
  const lines = text.split('\n');
  assert.match(lines[0], /^Send All Requests in modules\.lpreq: 5 requests, 3 sent, 1 passed, 2 failed/);
  assert.ok(lines.some((l) => l.startsWith('✓ 200') && l.includes('List courses  (GET /api/v1/courses)')));
  assert.ok(lines.some((l) => l.startsWith('✗ not sent') && l.includes('GET /x')));
  assert.ok(lines.some((l) => l.startsWith('– cancelled')));
});

test('a run where everything passed is ok, and a long list of failures is cut in the banners only', () => {
  assert.equal(runSummaryView('a.lpreq', [ok('A'), ok('B')], 2, 1, 20).view.status.tone, 'ok');
  const failures = Array.from({ length: 14 }, (_, i): RunOutcome => ({
    ...ok(`R${i}`),
    status: 500,
    ok: false,
    errorKind: 'http',
  }));
  const { view, text } = runSummaryView('a.lpreq', failures, 14, 1, 20);
  assert.equal(view.banners.length, 11);
  assert.match(view.banners[10].text, /and 4 more failed/);
  assert.equal(text.split('\n').filter((l) => l.startsWith('✗ 500')).length, 14);
});
