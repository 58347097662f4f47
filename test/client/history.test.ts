import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ago, historyItems, historyMarks, localTime, requestFromEntry, shortUrl } from '../../client/src/model/history';
import { readSettings, exchangeOptions, DEFAULT_SETTINGS } from '../../client/src/model/settings';
import { summaryFromHistory } from '../../client/src/model/sendResult';
import type { HistoryEntry } from '../../server/src/sender/history';

const entry: HistoryEntry = {
  id: 'abc123456-0123abcd',
  time: '2026-01-01T10:00:00.000Z',
  method: 'POST',
  url: 'http://127.0.0.1:4010/api/v1/courses/1/modules',
  status: 200,
  durationMs: 42.4,
  name: 'createModule',
  request: {
    method: 'POST',
    url: 'http://127.0.0.1:4010/api/v1/courses/1/modules',
    headers: [
      ['Accept', 'application/json'],
      ['Authorization', 'Bearer x'],
    ],
    body: 'module%5Bname%5D=W',
  },
  ok: true,
  responseHeaders: { 'content-type': 'application/json' },
  body: '{"id":1}',
  resource: 'Module',
  issues: [],
};

test('history items name the request as its file does, with the file, the environment and a local time', () => {
  // Local times are built from local parts, so the test holds in any time zone.
  const sent = new Date(2026, 0, 1, 9, 5, 7);
  const now = new Date(2026, 0, 1, 9, 10, 0).getTime();
  const summary = { ...entry, time: sent.toISOString(), file: '/w/examples/modules.lpreq', environment: 'local' };
  const [named] = historyItems([summary], now);
  assert.equal(named.label, 'createModule');
  assert.equal(named.description, '200 OK · POST · modules.lpreq · local · 09:05:07');
  assert.match(named.tooltip, /POST http:\/\/127\.0\.0\.1:4010\/api\/v1\/courses\/1\/modules/);
  assert.match(named.tooltip, /Environment: local/);
  assert.equal(named.icon, 'pass');
  // A `###` title wins over the name; without either, the request line is the label.
  assert.equal(historyItems([{ ...summary, title: 'Create a module' }], now)[0].label, 'Create a module');
  const [bare] = historyItems([{ ...summary, name: undefined }], now);
  assert.equal(bare.label, 'POST /api/v1/courses/1/modules');
  assert.equal(bare.description, '200 OK · modules.lpreq · local · 09:05:07');
  assert.equal(historyItems([{ ...entry, status: null }])[0].icon, 'error');
  assert.equal(ago('2026-01-01T10:00:00Z', Date.parse('2026-01-01T10:00:30Z')), 'just now');
  assert.equal(shortUrl('not a url'), 'not a url');
});

test('Fetch All, cancelled and resent answers are marked', () => {
  const now = new Date(2026, 0, 1, 12, 0, 0).getTime();
  const time = new Date(2026, 0, 1, 11, 0, 0).toISOString();
  const paged = historyItems([{ ...entry, time, pages: 25 }], now)[0];
  assert.match(paged.description, /· all pages \(25\)$/);
  const cancelled = historyItems([{ ...entry, time, status: null, errorKind: 'cancelled' }], now)[0];
  assert.equal(cancelled.icon, 'cancelled');
  assert.match(cancelled.description, /^cancelled · /);
  // Cancelled while the body came: the status is there, and the mark says the rest.
  const cut = historyItems([{ ...entry, time, errorKind: 'cancelled' }], now)[0];
  assert.match(cut.description, /^200 OK · .* · cancelled$/);
  assert.equal(cut.icon, 'cancelled');
  assert.deepEqual(historyMarks({ ...entry, resent: true }), ['sent again from history']);
  assert.equal(
    historyItems([{ ...entry, time, status: null, errorKind: 'refused' }], now)[0].description.split(' · ')[0],
    'failed',
  );
});

test('local times: the clock today, the day this year, the date before', () => {
  const now = new Date(2026, 5, 15, 18, 0, 0).getTime();
  assert.equal(localTime(new Date(2026, 5, 15, 8, 4, 3).toISOString(), now), '08:04:03');
  assert.equal(localTime(new Date(2026, 2, 14, 9, 26, 53).toISOString(), now), 'Mar 14 09:26');
  assert.equal(localTime(new Date(2025, 11, 31, 23, 59, 0).toISOString(), now), '2025-12-31 23:59');
  assert.equal(localTime('not a time', now), 'not a time');
});

function rebuilt(e: HistoryEntry, readBytes?: Parameters<typeof requestFromEntry>[2]) {
  const r = requestFromEntry(
    e,
    {
      returns: 'Module',
      paginated: false,
      paging: 'link',
      endpointId: 'modules.create',
      tokenOrigin: 'http://127.0.0.1:4010',
    },
    readBytes,
  );
  if ('error' in r) assert.fail(r.error);
  return r;
}

test('an entry becomes a request again, without any Authorization header', () => {
  const r = rebuilt(entry);
  assert.equal(r.method, 'POST');
  assert.deepEqual(r.headers, [['Accept', 'application/json']]);
  assert.deepEqual(r.body, { contentType: 'application/x-www-form-urlencoded', text: 'module%5Bname%5D=W' });
  const json = rebuilt({ ...entry, request: { ...entry.request, body: '{"a":1}' } });
  assert.equal(json.body?.contentType, 'application/json');
  // The type it was sent with wins over a guess from the body; # @no-redirect is kept.
  const kept = rebuilt({
    ...entry,
    request: { ...entry.request, body: '[1 line]', contentType: 'text/plain', noRedirect: true },
  });
  assert.equal(kept.body?.contentType, 'text/plain');
  assert.equal(kept.noRedirect, true);
  // So are # @timeout and # @connection-timeout, when the file holds a sensible duration.
  const timed = rebuilt({ ...entry, request: { ...entry.request, timeoutMs: 120_000, connectTimeoutMs: 500 } });
  assert.equal(timed.timeoutMs, 120_000);
  assert.equal(timed.connectTimeoutMs, 500);
  const damaged = rebuilt({
    ...entry,
    request: { ...entry.request, timeoutMs: -1, connectTimeoutMs: 'soon' as unknown as number },
  });
  assert.equal(damaged.timeoutMs, undefined);
  assert.equal(damaged.connectTimeoutMs, undefined);
});

test("a body file's bytes are read again to resend it, never the text that describes them", () => {
  const png = Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0, 0xff]);
  const fromFile: HistoryEntry = {
    ...entry,
    request: {
      ...entry.request,
      body: '[6 bytes of binary data from ./logo.png]',
      contentType: 'image/png',
      bodyFile: '/w/logo.png',
    },
  };
  const again = rebuilt(fromFile, (path) => (path === '/w/logo.png' ? { bytes: png } : { error: 'no such file' }));
  assert.equal(again.body?.bytes, png);
  assert.equal(again.body?.contentType, 'image/png');
  const gone = requestFromEntry(fromFile, { returns: null, paginated: false, paging: 'link' }, () => ({
    error: 'no such file',
  }));
  assert.ok('error' in gone && /logo\.png: no such file/.test(gone.error));
  assert.ok('error' in requestFromEntry(fromFile, { returns: null, paginated: false, paging: 'link' }));
});

test('a stored entry shows again as a response with its body parsed', () => {
  const s = summaryFromHistory(entry, (t) => t);
  assert.equal(s.bodyKind, 'json');
  assert.deepEqual(s.body, { id: 1 });
  assert.equal(s.resource, 'Module');
});

test('settings fall back to defaults and map to the sender options', () => {
  const s = readSettings(
    (k) => ({ timeout: 5000, followRedirects: false, proxy: ' http://p:3128 ', historySize: 'x' })[k as string],
  );
  assert.equal(s.timeout, 5000);
  assert.equal(s.historySize, DEFAULT_SETTINGS.historySize);
  assert.deepEqual(exchangeOptions(s), {
    timeoutMs: 5000,
    maxBodyBytes: DEFAULT_SETTINGS.maxBodySize,
    maxRedirects: 0,
    proxy: 'http://p:3128',
  });
});

test('lpreq.defaultHeaders is read as header pairs; anything but text values is left out', () => {
  assert.deepEqual(
    readSettings((k) => (k === 'defaultHeaders' ? { 'X-Source': 'lpreq', 'X-Bad': 3 } : undefined)).defaultHeaders,
    [['X-Source', 'lpreq']],
  );
  assert.deepEqual(readSettings((k) => (k === 'defaultHeaders' ? ['X-Source: lpreq'] : undefined)).defaultHeaders, []);
  assert.deepEqual(DEFAULT_SETTINGS.defaultHeaders, []);
});
