/**
 * What the editor shows of a response passes the scrubber the command line uses: a server
 * that echoes the token (in the body, a header, the URL it redirects to, an error message)
 * does not put it on screen. A loopback server sends the echoes; the summary both response
 * views are built from must hold none of them.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { scrubSecrets, sendBlock } from '../../server/src/sender/index';
import { summaryFromSend } from '../../client/src/model/sendResult';
import { doc, json, startServer, testChecker, type TestServer } from '../sender/server';

const TOKEN = 'tok-echoed-7a1b2c3d4e';
const PASSWORD = 'hunter2-view-secret';
let api: TestServer;

before(async () => {
  api = await startServer((req, res) => {
    const auth = String(req.headers.authorization ?? '');
    if (req.url.startsWith('/api/v1/courses/1/modules/1')) {
      // The token echoed in a JSON body, a header and a redirect's address.
      return json(
        res,
        200,
        { id: 1, name: `Module for ${auth}`, nested: [{ auth }], [auth]: 'as a key' },
        { 'x-echo': auth },
      );
    }
    if (req.url.startsWith('/api/v1/courses/1/modules/2'))
      return json(res, 401, { errors: [{ message: `the token ${auth} is not valid` }] });
    res.writeHead(200, { 'content-type': 'text/plain' });
    return res.end(`plain text with ${auth} and ${req.url}`);
  });
});
after(() => api.close());

const env = () => ({ environments: { local: { base_url: api.origin, password: PASSWORD } }, selected: 'local' });

for (const [what, text] of [
  ['a JSON body, a header and a key', 'GET {{base_url}}/api/v1/courses/1/modules/1\n'],
  ['an API error message', 'GET {{base_url}}/api/v1/courses/1/modules/2\n'],
  ['a text body and the URL', 'GET {{base_url}}/api/v1/courses/1/modules?secret={{password}}\n'],
] as const) {
  test(`the summary a response view shows carries no secret: ${what}`, async () => {
    const result = await sendBlock(doc(text), 0, { checker: testChecker(), environments: env(), token: TOKEN });
    assert.ok(result.response?.status, JSON.stringify(result.error));
    const secrets = [TOKEN, ...result.secretValues];
    const summary = summaryFromSend(result, { method: 'GET', url: '' }, (s: string) => scrubSecrets(s, secrets));
    const shown = JSON.stringify(summary);
    assert.ok(!shown.includes(TOKEN), `the token is in ${shown.slice(0, 400)}`);
    assert.ok(!shown.includes(PASSWORD), 'the password is shown');
    assert.ok(shown.includes('***'), 'the secrets are written ***');
  });
}

test("a request's assertions in the view: evaluated as a run evaluates them, the actual value scrubbed like the rest", async () => {
  const { evaluateBlockAssertions } = await import('../../server/src/sender/index');
  const { buildView } = await import('../../client/src/model/responseViewModel');
  const { LineIndex, documentScope } = await import('../../server/src/core/index');
  const text = 'GET {{base_url}}/api/v1/courses/1/modules/1\n\n?? status == 200\n?? body $.name == Week 1\n';
  const document = doc(text);
  const responses = new Map();
  const result = await sendBlock(document, 0, { checker: testChecker(), environments: env(), token: TOKEN, responses });
  // Evaluated without the secrets: the summary's scrubber alone must keep the echoed token off the view.
  const assertions = await evaluateBlockAssertions(document, 0, result, {
    checker: testChecker(),
    lines: new LineIndex(text),
    values: documentScope(document, env()).values,
    responses,
    secrets: [],
  });
  assert.ok(assertions[1].actual?.includes(TOKEN), 'the test needs an actual value that holds the token');
  const summary = summaryFromSend(
    result,
    { method: 'GET', url: '' },
    (s: string) => scrubSecrets(s, [TOKEN]),
    assertions,
  );
  const view = buildView(summary, { id: 1, tokenSet: true, fromRequest: true });
  assert.deepEqual(
    view.assertions.map((a) => [a.line, a.passed, a.expected]),
    [
      [3, true, '200'],
      [4, false, 'Week 1'],
    ],
  );
  assert.ok(view.facts.includes('1 of 2 assertions failed'), view.facts.join(' | '));
  assert.ok(!JSON.stringify(view).includes(TOKEN), 'the token is in the view');
  assert.match(view.assertions[1].actual ?? '', /Module for Bearer \*\*\*/);
});
