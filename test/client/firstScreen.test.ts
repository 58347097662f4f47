/**
 * The first screen of a large answer (issue 27, performance): the view is shown before the
 * typed check ("checking against the docs…", no issue count yet) and updated with the issues
 * after; the body's rows get their marks without the body being read again; a large body
 * goes to the page deflated and the page inflates it to the same text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildView } from '../../client/src/model/responseViewModel';
import type { ResponseSummary } from '../../client/src/model/responseTree';
import { bodyBytes, DEFLATE_FROM_BYTES } from '../../client/src/model/bodyBytes';
import { parseWebviewMessage } from '../../client/src/model/webviewMessages';
import { JsonBodyModel } from '../../client/webview/model/bodyModel';
import { inflate } from '../../client/webview/model/inflate';
import { itemsBody } from '../e2e/fixture';

function summary(extra: Partial<ResponseSummary> = {}): ResponseSummary {
  return {
    method: 'GET',
    url: 'http://127.0.0.1/api/v1/courses/42/modules/7/items',
    status: 200,
    statusText: 'OK',
    headers: {},
    body: [{ id: 1, x: 1 }],
    bodyText: '[{"id":1,"x":1}]',
    bodyKind: 'json',
    contentType: 'application/json',
    bytes: 16,
    durationMs: 5,
    resource: 'ModuleItem[]',
    issues: [],
    ...extra,
  };
}

test('shown before its typed check: typed, checking, no issue count; then the issues', () => {
  const early = buildView(summary(), { id: 3, tokenSet: true, fromRequest: true, checking: true });
  assert.equal(early.typed, true);
  assert.equal(early.checking, true);
  assert.ok(early.facts.includes('checking against the docs…'));
  const issues: ResponseSummary['issues'] = [{ path: '$[0].x', code: 'undocumented-field', message: 'not documented' }];
  const done = buildView(summary({ issues }), { id: 3, tokenSet: true, fromRequest: true });
  assert.equal(done.checking, undefined);
  assert.ok(done.facts.includes('1 issue'));
  assert.equal(done.issueGroups.length, 1);
  // An answer that is not typed is not being checked.
  const failed = buildView(summary({ status: 404, resource: null }), {
    id: 4,
    tokenSet: true,
    fromRequest: true,
    checking: true,
  });
  assert.equal(failed.checking, undefined);
});

test("the body's rows get the issues that come after it was shown", () => {
  const m = new JsonBodyModel('[{"id":1,"x":1}]');
  const row = () => Array.from({ length: m.rowCount }, (_, i) => m.row(i)).find((r) => r.path === '$[0].x');
  assert.equal(row()?.issues, undefined);
  m.setIssues([{ path: '$[0].x', code: 'undocumented-field', message: 'not documented' }]);
  assert.equal(row()?.issues?.[0].code, 'undocumented-field');
});

test('a large body goes deflated to a page that inflates, and comes out the same text; a small one as it is', async () => {
  const text = itemsBody();
  const sent = await bodyBytes(text, true);
  assert.equal(sent.encoding, 'deflate-raw');
  assert.ok(sent.bytes.byteLength * 5 < Buffer.byteLength(text), `deflated to ${sent.bytes.byteLength} bytes`);
  assert.equal(new TextDecoder().decode(await inflate(sent.bytes)), text);
  const small = 'é'.repeat(10);
  assert.deepEqual(await bodyBytes(small, true), { bytes: new Uint8Array(Buffer.from(small)) });
  assert.equal((await bodyBytes('x'.repeat(DEFLATE_FROM_BYTES), false)).encoding, undefined);
});

test('what the page says of itself and of its first screen is checked', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'ready', inflate: true }), { type: 'ready', inflate: true });
  assert.deepEqual(parseWebviewMessage({ type: 'ready', inflate: 'yes' }), { type: 'ready' });
  assert.deepEqual(parseWebviewMessage({ type: 'rendered', id: 2, ms: 5, transferMs: 40 }), {
    type: 'rendered',
    id: 2,
    ms: 5,
    transferMs: 40,
  });
  assert.deepEqual(parseWebviewMessage({ type: 'rendered', id: 2, ms: 5, transferMs: -1 }), {
    type: 'rendered',
    id: 2,
    ms: 5,
  });
});
