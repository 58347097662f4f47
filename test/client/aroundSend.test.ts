/**
 * The steps around a send (issue 27, items 3 and 4), as the response view's model gives them:
 * a view named by its request's `###` title or `@name`; Set Access Token after a 401 clears
 * the "sent without a token" banner and offers Send Again; a history entry has Send Again and
 * a status with its reason; the history search matches every word; a page of several says so
 * with Fetch All Pages; Send All's run as one list whose entries are chosen by the webview.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildView, viewTitle, type ViewContext } from '../../client/src/model/responseViewModel';
import type { ResponseSummary } from '../../client/src/model/responseTree';
import { morePagesOf, summaryFromHistory } from '../../client/src/model/sendResult';
import { historyItems, matchesEveryWord } from '../../client/src/model/history';
import { runOutcome, runSummaryView, runView } from '../../client/src/model/runSummary';
import { parseWebviewMessage } from '../../client/src/model/webviewMessages';
import type { RequestInfo } from '../../client/src/model/requestInfo';

function summary(extra: Partial<ResponseSummary> = {}): ResponseSummary {
  return {
    method: 'GET',
    url: 'http://127.0.0.1:4010/api/v1/courses/42/modules',
    status: 200,
    statusText: 'OK',
    headers: { 'content-type': 'application/json' },
    body: [],
    bodyText: '[]',
    bodyKind: 'json',
    contentType: 'application/json',
    bytes: 2,
    durationMs: 12,
    resource: 'Module[]',
    issues: [],
    tokenSent: true,
    ...extra,
  };
}

const ctx: ViewContext = { id: 1, environment: 'dev', tokenSet: true, fromRequest: true };
const actionsOf = (v: ReturnType<typeof buildView>) => v.actions.map((a) => a.id);

test("a response view is named by its request's ### title, else its @name, else METHOD and path", () => {
  const names = { title: 'Create a module', name: 'createModule' };
  assert.equal(buildView(summary(), { ...ctx, names }).title, 'Create a module · 200');
  assert.equal(buildView(summary(), { ...ctx, names: { name: 'createModule' } }).title, 'createModule · 200');
  assert.equal(buildView(summary(), ctx).title, 'GET modules · 200');
  // A title names an editor tab and a document: no slash makes it a path.
  assert.equal(viewTitle('GET', 'http://h/x', null, undefined, { title: 'Items / page 2' }), 'Items ∕ page 2 · …');
});

test('Set Access Token after a 401 sent without one: the warning goes, and Send Again is offered', () => {
  const s = summary({ status: 401, statusText: 'Unauthorized', tokenSent: false, resource: null });
  const before = buildView(s, { ...ctx, tokenSet: false });
  assert.ok(before.banners.some((b) => /Sent without an access token/.test(b.text)));
  assert.ok(before.banners.some((b) => b.actions?.some((a) => a.id === 'setToken')));
  const after = buildView(s, { ...ctx, tokenSet: true, tokenJustSet: true });
  assert.ok(!after.banners.some((b) => /Sent without/.test(b.text)), 'the warning is gone');
  assert.ok(!after.banners.some((b) => b.actions?.some((a) => a.id === 'setToken')), 'no Set Access Token again');
  const offer = after.banners.find((b) => b.actions?.some((a) => a.id === 'sendAgain'));
  assert.ok(offer, 'Send Again is offered');
  assert.equal(offer.kind, 'info');
  assert.match(offer.text, /'dev'/);
});

test('a history entry: Send Again, and its status with its reason', () => {
  const entry = {
    id: 'h1',
    time: new Date().toISOString(),
    method: 'GET',
    url: 'http://127.0.0.1/api/v1/courses/1/modules/99',
    status: 404,
    durationMs: 3,
    ok: false,
    environment: 'dev',
    title: 'A missing module',
    request: { method: 'GET', url: 'http://127.0.0.1/api/v1/courses/1/modules/99', headers: [] },
    responseHeaders: { 'content-type': 'application/json' },
    body: '{"errors":[{"message":"no such module"}]}',
  } satisfies Parameters<typeof summaryFromHistory>[0];
  const view = buildView(
    summaryFromHistory(entry, (t) => t),
    {
      id: 1,
      tokenSet: true,
      fromRequest: false,
      fromHistory: '14:00:00',
      fromHistoryEntry: true,
    },
  );
  assert.equal(view.status.text, '404 Not Found');
  assert.ok(actionsOf(view).includes('sendAgain'));
  assert.match(historyItems([entry])[0].description, /^404 Not Found · /);
  // Without an entry behind it (a run's summary, say), nothing to send again.
  assert.ok(!actionsOf(buildView(summary(), { ...ctx, fromRequest: false })).includes('sendAgain'));
});

test('the history search matches every word given, in any order and any case', () => {
  const text = 'List modules\n404 Not Found · GET · modules.lpreq · dev · 14:03:12\nGET http://127.0.0.1/x';
  assert.ok(matchesEveryWord(text, 'dev 404'));
  assert.ok(matchesEveryWord(text, '  404   DEV  list '));
  assert.ok(matchesEveryWord(text, ''));
  assert.ok(!matchesEveryWord(text, 'dev 500'));
  assert.ok(!matchesEveryWord(text, 'staging 404'));
});

test('a page of several says "page 1, more pages", with Fetch All Pages from a request', () => {
  const link = '<http://h/api/v1/courses/1/modules?page=2&per_page=2>; rel="next", <http://h/x?page=3>; rel="last"';
  const url = 'http://h/api/v1/courses/1/modules?per_page=2';
  assert.deepEqual(morePagesOf(url, { link }, 'link'), { page: 1 });
  assert.deepEqual(morePagesOf(`${url}&page=2`, { link }, 'link'), { page: 2 });
  assert.equal(morePagesOf(url, { link: '<http://h/x?page=1>; rel="first"' }, 'link'), undefined);
  assert.equal(morePagesOf(url, {}, 'link'), undefined);
  assert.deepEqual(morePagesOf(url, { endkey: 'k2' }, 'start-key'), {});
  const view = buildView(summary({ morePages: { page: 1 } }), ctx);
  assert.equal(view.paging?.text, 'page 1, more pages');
  assert.equal(view.paging?.action?.id, 'fetchAllPages');
  assert.equal(
    buildView(summary({ morePages: { page: 1 } }), { ...ctx, fromRequest: false }).paging?.action,
    undefined,
  );
  assert.equal(buildView(summary(), ctx).paging, undefined);
});

const request = (title: string | undefined, name?: string): RequestInfo => ({
  blockIndex: 0,
  line: 0,
  startLine: 0,
  endLine: 1,
  method: 'POST',
  target: '{{base_url}}/api/v1/courses/1/modules/1/items',
  title,
  name,
  paginated: false,
});

test("Send All's run: one list of its exchanges, each named as its request, chosen by the webview", () => {
  const scrub = (t: string) => t.replace('secret', '***');
  const outcomes = [
    runOutcome(
      request('Add the first item'),
      { ok: true, sent: true, response: { status: 200, durationMs: 8 } as never },
      0,
      scrub,
    ),
    runOutcome(
      request(undefined, 'addItem'),
      { ok: true, sent: true, response: { status: 200, durationMs: 9 } as never },
      1,
      scrub,
    ),
    runOutcome(
      request(undefined),
      { ok: false, sent: false, error: { kind: 'prepare', message: 'no secret base_url' } },
      0,
      scrub,
    ),
  ];
  assert.deepEqual(
    outcomes.map((o) => [o.label, o.ok, o.message]),
    [
      ['Add the first item', true, undefined],
      ['addItem', false, '1 assertion failed'],
      ['POST {{base_url}}/api/v1/courses/1/modules/1/items', false, 'no *** base_url'],
    ],
  );
  const list = runView('items.lpreq', outcomes, 3, 1, false);
  assert.equal(list.summary, '1 of 3 passed');
  assert.equal(list.selected, 1);
  assert.deepEqual(
    list.entries.map((e) => [e.mark, e.status]),
    [
      ['✓', '200'],
      ['✗', '200'],
      ['✗', 'not sent'],
    ],
  );
  // While it runs: how many are sent, and no cancelled banner for those still to come.
  const running = runSummaryView('items.lpreq', outcomes.slice(0, 1), 3, 0, 10, true);
  assert.equal(running.view.status.text, '1 of 3 sent…');
  assert.ok(!running.view.banners.some((b) => b.kind === 'cancelled'));
  assert.equal(runView('items.lpreq', outcomes.slice(0, 1), 3, null, true).summary, '1 of 3 sent…');
  assert.deepEqual(parseWebviewMessage({ type: 'select', index: 2 }), { type: 'select', index: 2 });
  assert.deepEqual(parseWebviewMessage({ type: 'select', index: null }), { type: 'select', index: null });
  for (const bad of [-1, 1.5, '2', undefined])
    assert.equal(parseWebviewMessage({ type: 'select', index: bad }), undefined);
});
