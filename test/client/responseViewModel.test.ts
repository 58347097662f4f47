/**
 * What the response view shows of an exchange (model/responseViewModel.ts): the header line,
 * honest labels (an error body is never the success resource, a page is a page, cancelled is
 * not failed), the banners and their actions, the request as sent with the token masked, the
 * timing, and the issues grouped. Also the checks of what the webview sends, and its page's
 * content security policy.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { buildView, shortName, viewTitle, type ViewContext } from '../../client/src/model/responseViewModel';
import { groupIssues } from '../../client/src/model/issueGroups';
import { ResponseTree, type ResponseSummary } from '../../client/src/model/responseTree';
import { readSettings } from '../../client/src/model/settings';
import { parseWebviewMessage } from '../../client/src/model/webviewMessages';
import { contentSecurityPolicy, responsePage } from '../../client/src/model/webviewHtml';
import { formatBytes, formatDuration, groupLabel } from '../../client/webview/model/format';
import { fuzzRuns } from '../fuzzRuns';

const ctx: ViewContext = { id: 1, environment: 'local', tokenSet: true, fromRequest: true };

function summary(extra: Partial<ResponseSummary> = {}): ResponseSummary {
  const body = extra.body ?? [{ id: 1 }];
  return {
    method: 'GET',
    url: 'http://127.0.0.1:4010/api/v1/courses/42/modules',
    status: 200,
    statusText: 'OK',
    headers: { 'content-type': 'application/json' },
    body,
    bodyText: JSON.stringify(body),
    bodyKind: 'json',
    contentType: 'application/json',
    bytes: 738_304,
    durationMs: 1012,
    resource: 'Module[]',
    issues: [],
    tokenSent: true,
    sent: { headers: [['Accept', 'application/json']] },
    ...extra,
  };
}

test('the header line of a typed answer: status, time, size, resource, environment, issues', () => {
  const v = buildView(summary({ issues: [{ path: '$[0].x', code: 'undocumented-field', message: 'm' }] }), ctx);
  assert.equal(v.status.text, '200 OK');
  assert.equal(v.status.tone, 'ok');
  assert.deepEqual(v.facts, ['721 KB', '1.0 s', 'Module[]', 'local', '1 issue']);
  assert.equal(v.bodyLabel, 'Module[]');
  assert.equal(v.typed, true);
  assert.equal(v.title, 'GET modules · 200');
});

test('merged pages: "25 pages · 2,500 items · 721 KB · 1.0 s"', () => {
  const body = Array.from({ length: 2500 }, (_, i) => ({ id: i }));
  const v = buildView(summary({ body, pages: 25 }), ctx);
  assert.deepEqual(v.facts.slice(0, 4), ['25 pages', '2,500 items', '721 KB', '1.0 s']);
});

test('a 401 is an error body, never the success resource: the API messages first, and Set Access Token', () => {
  const body = { errors: [{ message: 'Invalid access token.' }, { message: 'Log in again.' }] };
  const v = buildView(
    summary({
      status: 401,
      statusText: 'Unauthorized',
      body,
      resource: null,
      apiErrors: ['Invalid access token.', 'Log in again.'],
    }),
    ctx,
  );
  assert.equal(v.bodyLabel, 'Error body');
  assert.equal(v.typed, false);
  assert.ok(!v.facts.includes('Module[]'));
  assert.deepEqual(v.apiErrors, ['Invalid access token.', 'Log in again.']);
  assert.equal(v.status.tone, 'client-error');
  const banner = v.banners.find((b) => b.text.startsWith('401'));
  assert.ok(banner);
  assert.deepEqual(
    banner.actions?.map((a) => [a.id, a.label]),
    [['setToken', "Set Access Token for 'local'"]],
  );
  // Even a resource handed in by mistake does not label an error body.
  assert.equal(buildView(summary({ status: 404, statusText: 'Not Found', body }), ctx).bodyLabel, 'Error body');
});

test("the side bar's tree is as honest: an error body is an error body, a cancelled request is not a failure", () => {
  const body = { errors: [{ message: 'Invalid access token.' }] };
  const error = new ResponseTree(
    summary({ status: 401, statusText: 'Unauthorized', body, resource: 'Module[]' }),
    () => ({ type: 'Module[]' }),
  );
  const labels = error.roots().map((n) => n.label);
  assert.ok(labels.includes('Error body') && !labels.includes('Module[]'), labels.join(', '));
  const none = {
    status: null,
    statusText: '',
    headers: {},
    body: null,
    bodyText: '',
    bodyKind: 'empty' as const,
    bytes: 0,
    resource: null,
  };
  const cancelled = new ResponseTree(
    summary({ ...none, error: { kind: 'cancelled', message: 'the request was cancelled' } }),
    () => undefined,
  );
  assert.equal(cancelled.summary(), 'cancelled');
  assert.equal(cancelled.roots()[0].icon, 'info');
});

test('the response settings: the editor by default, the side bar when asked, one view per request unless reuse', () => {
  assert.deepEqual(
    [readSettings(() => undefined).responseView, readSettings(() => undefined).responseReuse],
    ['editor', false],
  );
  const values = new Map<string, unknown>([
    ['response.view', 'sidebar'],
    ['response.reuse', true],
  ]);
  const s = readSettings((k) => values.get(k));
  assert.deepEqual([s.responseView, s.responseReuse], ['sidebar', true]);
  assert.equal(readSettings((k) => (k === 'response.view' ? 'somewhere' : undefined)).responseView, 'editor');
});

test('a request sent without a token says so, and offers to set one for its environment', () => {
  const v = buildView(summary({ tokenSent: false }), { ...ctx, tokenSet: false });
  const banner = v.banners.find((b) => /without an access token/.test(b.text));
  assert.ok(banner, JSON.stringify(v.banners));
  assert.match(banner.text, /'local'/);
  assert.equal(banner.actions?.[0].id, 'setToken');
  assert.equal(v.request?.tokenNote, 'No access token went with it.');
  // A 401 then has one offer, not two.
  const unauthorized = buildView(
    summary({ tokenSent: false, status: 401, statusText: 'Unauthorized', resource: null }),
    { ...ctx, tokenSet: false },
  );
  assert.equal(unauthorized.banners.flatMap((b) => b.actions ?? []).filter((a) => a.id === 'setToken').length, 1);
  // An Authorization header written in the request is not "without a token".
  assert.equal(buildView(summary({ tokenSent: false, authorizationWritten: true }), ctx).banners.length, 0);
});

test('an HTML 500 is a page: its own body kind, labelled an error page, its markup a click away', () => {
  const html = '<html><head><title>Oops</title></head><body><h1>Server error</h1></body></html>';
  const v = buildView(
    summary({
      status: 500,
      statusText: 'Internal Server Error',
      body: html,
      bodyText: html,
      bodyKind: 'text',
      contentType: 'text/html',
      resource: null,
    }),
    ctx,
  );
  assert.equal(v.bodyKind, 'html');
  assert.equal(v.bodyLabel, 'Error page (HTML)');
  assert.equal(v.status.tone, 'server-error');
  assert.ok(v.actions.some((a) => a.id === 'openRaw' && a.label === 'Open Markup'));
  const text = buildView(
    summary({ body: 'plain', bodyText: 'plain', bodyKind: 'text', contentType: 'text/plain', resource: null }),
    ctx,
  );
  assert.equal(text.bodyKind, 'text');
  assert.equal(text.bodyLabel, 'Text');
});

test('cancelled is cancelled, not failed; a failure says what failed', () => {
  const none = {
    status: null,
    statusText: '',
    headers: {},
    body: null,
    bodyText: '',
    bodyKind: 'empty' as const,
    bytes: 0,
    durationMs: 120,
    resource: null,
  };
  const cancelled = buildView(
    summary({ ...none, error: { kind: 'cancelled', message: 'the request was cancelled' } }),
    ctx,
  );
  assert.equal(cancelled.status.text, 'Cancelled');
  assert.equal(cancelled.status.tone, 'cancelled');
  assert.deepEqual(
    cancelled.banners.map((b) => b.kind),
    ['cancelled'],
  );
  assert.equal(cancelled.title, 'GET modules · cancelled');
  const refused = buildView(
    summary({ ...none, error: { kind: 'refused', message: '127.0.0.1:4010 refused the connection' } }),
    ctx,
  );
  assert.equal(refused.status.text, 'Connection refused');
  assert.equal(refused.status.tone, 'failed');
  assert.equal(refused.banners[0].kind, 'error');
  assert.equal(refused.bodyKind, 'none');
  assert.equal(refused.title, 'GET modules · failed');
});

test('the request as sent: the token masked, the body and the redirects', () => {
  const v = buildView(
    summary({
      method: 'POST',
      sent: {
        headers: [['Accept', 'application/json']],
        body: 'module%5Bname%5D=Week+1',
        contentType: 'application/x-www-form-urlencoded',
      },
      redirects: [{ status: 302, from: 'http://a/x', to: 'http://a/y' }],
    }),
    ctx,
  );
  assert.deepEqual(v.request?.headers, [
    ['Accept', 'application/json'],
    ['Content-Type', 'application/x-www-form-urlencoded'],
    ['Authorization', 'Bearer ***'],
  ]);
  assert.equal(v.request?.body, 'module%5Bname%5D=Week+1');
  assert.equal(v.request?.redirects.length, 1);
  assert.match(v.request?.tokenNote ?? '', /'local'/);
});

test('timing: DNS, TCP, TLS, first byte and download, each from where it starts', () => {
  const v = buildView(
    summary({ timing: { dnsMs: 5, connectMs: 15, tlsMs: 20, firstByteMs: 100, downloadMs: 50, totalMs: 151 } }),
    ctx,
  );
  assert.deepEqual(
    v.timing.map((t) => [t.label, t.startMs, t.ms]),
    [
      ['DNS lookup', 0, 5],
      ['TCP connection', 5, 10],
      ['TLS handshake', 15, 20],
      ['Waiting for the first byte', 35, 65],
      ['Download', 100, 50],
    ],
  );
  assert.equal(buildView(summary({ timing: { totalMs: 3, connectMs: 1, firstByteMs: 2 } }), ctx).timing.length, 2);
});

test('issues grouped by path pattern and kind, the largest group first', () => {
  const issues = [
    ...Array.from({ length: 2500 }, (_, i) => ({
      path: `$[${i}].x_internal_rank`,
      code: 'undocumented-field' as const,
      message: 'not documented',
    })),
    { path: '$[3].position', code: 'type-mismatch' as const, message: 'a string' },
    { path: '$[9].position', code: 'type-mismatch' as const, message: 'a string' },
    { path: '$[4].position', code: 'undocumented-field' as const, message: 'odd' },
  ];
  const groups = groupIssues(issues);
  assert.deepEqual(
    groups.map((g) => groupLabel(g)),
    [
      '$[*].x_internal_rank · undocumented × 2,500',
      '$[*].position · type mismatch × 2',
      '$[*].position · undocumented',
    ],
  );
  assert.equal(groups[0].paths[0], '$[0].x_internal_rank');
  assert.equal(groups[0].paths.length, 50);
  assert.equal(buildView(summary({ issues }), ctx).issueGroups.length, 3);
});

test('names and numbers as the view writes them', () => {
  assert.equal(shortName('http://h/api/v1/courses/1/modules'), 'modules');
  assert.equal(shortName('http://h/api/v1/courses/1/modules/7'), 'modules 7');
  assert.equal(shortName('http://h/api/v1/courses/sis_course_id:A1/modules/7/items'), 'items');
  assert.equal(shortName('http://h/'), '/');
  assert.equal(shortName('{{base_url}}/api/v1/users/self'), 'self');
  assert.equal(viewTitle('GET', 'http://h/a/b%2Fc', 200), 'GET b∕c · 200');
  assert.equal(formatBytes(512), '512 B');
  assert.equal(formatBytes(5 * 1024 + 300), '5.3 KB');
  assert.equal(formatBytes(20 * 1024 * 1024), '20 MB');
  assert.equal(formatDuration(340.4), '340 ms');
  assert.equal(formatDuration(1012), '1.0 s');
});

test('what the webview sends is checked: the right shapes pass, anything else is dropped and nothing throws', () => {
  assert.deepEqual(parseWebviewMessage({ type: 'action', action: 'copyCurl' }), { type: 'action', action: 'copyCurl' });
  assert.deepEqual(parseWebviewMessage({ type: 'describe', id: 3, patterns: ['$[*].id'] }), {
    type: 'describe',
    id: 3,
    patterns: ['$[*].id'],
  });
  assert.deepEqual(parseWebviewMessage({ type: 'copy', what: 'value', path: '$[0]' }), {
    type: 'copy',
    what: 'value',
    path: '$[0]',
  });
  assert.deepEqual(parseWebviewMessage({ type: 'tree', id: 1, parent: null }), { type: 'tree', id: 1, parent: null });
  for (const bad of [
    null,
    'ready',
    [],
    { type: 'action', action: 'deleteEverything' },
    { type: 'action', action: 'constructor' },
    { type: 'describe', id: -1, patterns: [] },
    { type: 'describe', id: 1, patterns: ['x'] },
    { type: 'describe', id: 1, patterns: Array.from({ length: 501 }, () => '$') },
    { type: 'copy', what: 'value', path: 'nope' },
    { type: 'copy', what: 'everything', path: '$' },
    { type: 'docs', path: `$${'.a'.repeat(3000)}` },
    { type: 'rendered', id: 1, ms: Number.NaN },
    { type: '__proto__' },
    JSON.parse('{"__proto__": {"type": "ready"}}'),
  ]) {
    assert.equal(parseWebviewMessage(bad), undefined, JSON.stringify(bad));
  }
  fc.assert(
    fc.property(fc.anything({ withNullPrototype: true, withObjectString: true }), (m) => {
      parseWebviewMessage(m);
      parseWebviewMessage({ type: 'describe', id: 1, patterns: m });
      parseWebviewMessage({ type: 'action', action: m });
    }),
    { numRuns: fuzzRuns(1000) },
  );
});

test('the page: no network, no inline script, the one script by its nonce, styles from the extension only', () => {
  const csp = contentSecurityPolicy({ cspSource: 'https://file+.vscode-resource.vscode-cdn.net', nonce: 'abc123' });
  const directives = new Map(
    csp
      .split(';')
      .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
      .map(([k, ...v]) => [k, v]),
  );
  assert.deepEqual(directives.get('default-src'), ["'none'"]);
  assert.deepEqual(directives.get('script-src'), ["'nonce-abc123'"]);
  assert.deepEqual(directives.get('style-src'), ['https://file+.vscode-resource.vscode-cdn.net']);
  for (const absent of ['connect-src', 'img-src', 'font-src', 'frame-src', 'media-src'])
    assert.equal(directives.has(absent), false, absent);
  assert.ok(!csp.includes('unsafe'), csp);
  const page = responsePage({
    cspSource: 'vscode-resource:',
    nonce: 'n"1',
    scriptUri: 'vscode-resource:/media/response.js',
    styleUri: 'vscode-resource:/media/response.css',
  });
  assert.equal((page.match(/<script/g) ?? []).length, 1);
  assert.match(page, /<script nonce="n&quot;1" src="vscode-resource:\/media\/response.js"><\/script>/);
  assert.ok(!/\son\w+=/.test(page), 'no inline event handlers');
});

test("a request not sent because a request it reads failed says so: never 'Network error' (issue 27)", () => {
  const message =
    "not sent: this request reads the response of 'listModules' in the environment 'dev', and 'listModules', sent first, answered 401 Unauthorized: its body is an error, not what this request reads. Send 'listModules' first and look at its response";
  const v = buildView(
    summary({
      status: null,
      statusText: '',
      body: null,
      bodyText: '',
      bodyKind: 'empty',
      error: { kind: 'dependency', message },
    }),
    ctx,
  );
  assert.equal(v.status.text, 'Not sent');
  const banner = v.banners.find((b) => b.kind === 'error');
  assert.equal(banner?.text, `Not sent: ${message.replace(/^not sent: /, '')}`);
  assert.ok(!JSON.stringify(v).includes('Network error'));
  assert.equal(
    viewTitle('GET', 'http://h/api/v1/courses/42/modules/5', null, 'dependency'),
    'GET modules 5 · not sent',
  );
});
