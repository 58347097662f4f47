/**
 * Error bodies (issue 27, item 2): a body is the API's message only when it is JSON in a known
 * error shape, or text/plain; an HTML page is rendered as a page whatever its size (nginx's
 * 157-byte 502 included), and never quoted as what the API says, in the view or on the
 * command line. Each answer comes from a loopback server through the sender, as a send does.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { apiErrorMessages, ERROR_SHAPES, scrubSecrets, sendBlock } from '../../server/src/sender/index';
import { summaryFromHistory, summaryFromSend } from '../../client/src/model/sendResult';
import { buildView } from '../../client/src/model/responseViewModel';
import { doc, startServer, testChecker, type TestServer } from '../sender/server';

/** nginx's own 502 page, as it sends it: 157 bytes. */
const NGINX_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.18.0</center>\r\n</body>\r\n</html>\r\n';

const answers: Record<string, { status: number; type: string; body: string }> = {
  '/nginx': { status: 502, type: 'text/html', body: NGINX_502 },
  // The same page without a content type: told by its first tag.
  '/untyped': { status: 502, type: '', body: NGINX_502 },
  '/plain': { status: 503, type: 'text/plain; charset=utf-8', body: 'Service Unavailable: back at 14:00\n' },
  '/xml': { status: 500, type: 'application/xml', body: '<error>short</error>' },
  '/shape': { status: 404, type: 'application/json', body: '{"errors":[{"message":"no such module"}]}' },
  '/unknown': { status: 400, type: 'application/json', body: '{"status":"bad","detail":7}' },
};

let api: TestServer;
before(async () => {
  api = await startServer((req, res) => {
    const a = answers[req.url.replace('/api/v1/courses/1/modules', '')] ?? answers['/shape'];
    res.writeHead(a.status, a.type ? { 'content-type': a.type } : {});
    res.end(a.body);
  });
});
after(() => api.close());

async function viewOf(path: string) {
  const text = `GET {{base_url}}/api/v1/courses/1/modules${path}\n`;
  const environments = { environments: { dev: { base_url: api.origin } }, selected: 'dev' };
  const result = await sendBlock(doc(text), 0, { checker: testChecker(), environments, token: 't' });
  const summary = summaryFromSend(result, { method: 'GET', url: '' }, (s) => scrubSecrets(s, ['t']));
  return { result, summary, view: buildView(summary, { id: 1, tokenSet: true, fromRequest: true }) };
}

test("nginx's 157-byte 502 is a page: rendered as HTML, no 'The API says', no markup in the error message", async () => {
  assert.equal(Buffer.byteLength(NGINX_502), 157);
  for (const path of ['/nginx', '/untyped']) {
    const { result, view } = await viewOf(path);
    assert.equal(view.bodyKind, 'html', path);
    assert.equal(view.bodyLabel, 'Error page (HTML)', path);
    assert.deepEqual(view.apiErrors, [], path);
    // What the command line prints of the failure.
    assert.equal(result.error?.message, '502 Bad Gateway', path);
  }
});

test("a text/plain body is the API's message; XML and an unknown JSON shape are not", async () => {
  assert.deepEqual((await viewOf('/plain')).view.apiErrors, ['Service Unavailable: back at 14:00']);
  assert.equal(
    (await viewOf('/plain')).result.error?.message,
    '503 Service Unavailable: Service Unavailable: back at 14:00',
  );
  assert.deepEqual((await viewOf('/xml')).view.apiErrors, []);
  assert.deepEqual((await viewOf('/unknown')).view.apiErrors, []);
  assert.deepEqual((await viewOf('/shape')).view.apiErrors, ['no such module']);
});

test('each documented error shape gives its messages; a near miss gives none', () => {
  for (const shape of ERROR_SHAPES) {
    const messages = apiErrorMessages(JSON.parse(shape.example), 'application/json');
    assert.ok(messages.length > 0 && messages.every((m) => m.length > 0), shape.name);
  }
  const cases: [unknown, string[]][] = [
    [{ errors: [{ message: 'a' }, { message: 'b' }] }, ['a', 'b']],
    [{ errors: ['plain'] }, ['plain']],
    [
      { errors: { name: [{ message: 'too long' }], position: ['not a number'] } },
      ['name: too long', 'position: not a number'],
    ],
    [{ message: 'Invalid access token.' }, ['Invalid access token.']],
    [{ error: 'invalid_grant', error_description: 'expired' }, ['invalid_grant: expired']],
    [{ error: 'invalid_client' }, ['invalid_client']],
    // Near misses: not a message.
    [{ errors: [{ code: 'x' }] }, []],
    [{ errors: [] }, []],
    [{ errors: { name: [{ code: 1 }] } }, []],
    [{ message: 42 }, []],
    [{ message: '   ' }, []],
    [['a list'], []],
    ['<html><title>502</title></html>', []],
    [null, []],
  ];
  for (const [body, expected] of cases)
    assert.deepEqual(apiErrorMessages(body, 'application/json'), expected, JSON.stringify(body));
  assert.deepEqual(apiErrorMessages('<p>short</p>', 'text/html'), []);
  assert.deepEqual(apiErrorMessages('short', 'text/csv'), []);
  assert.deepEqual(apiErrorMessages('short\n', 'TEXT/PLAIN'), ['short']);
});

test('a history entry of the 502 page is a page too', () => {
  const summary = summaryFromHistory(
    {
      id: '1',
      time: new Date().toISOString(),
      method: 'GET',
      url: 'http://127.0.0.1/api/v1/courses/1/modules',
      status: 502,
      durationMs: 3,
      ok: false,
      request: { method: 'GET', url: 'http://127.0.0.1/api/v1/courses/1/modules', headers: [] },
      responseHeaders: { 'content-type': 'text/html' },
      body: NGINX_502,
    },
    (s) => s,
  );
  const view = buildView(summary, { id: 1, tokenSet: true, fromRequest: false, fromHistory: '14:00:00' });
  assert.equal(view.bodyKind, 'html');
  assert.deepEqual(view.apiErrors, []);
});
