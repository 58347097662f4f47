/** "Copy as cURL": a copied command holds no secret unless the token is asked for in so many words. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { toCurl } from '../../server/src/sender/curl';
import { prepareRequest } from '../../server/src/sender/prepare';
import { carriesSecret } from '../../server/src/sender/secrets';
import { doc, testChecker } from './server';
import { ANSWER, PROD_TOKEN, prepared, system, TOKEN } from './secretRequests';

const CASES: [string, string][] = [
  ['{{token}} in the query', 'GET /api/v1/courses/1/modules?access_token={{token}}\n'],
  ['{{$processEnv LPREQ_TOKEN}} in the path', 'GET /api/v1/courses/{{$processEnv LPREQ_TOKEN}}/modules\n'],
  ['{{token}} in a header value', 'GET /api/v1/courses/1/modules\nX-Api-Key: key {{token}}\n'],
  ['{{token}} in a header name', 'GET /api/v1/courses/1/modules\nX-{{token}}: 1\n'],
  [
    '{{token}} in a JSON body',
    'POST /api/v1/courses/1/modules\nContent-Type: application/json\n\n{"module": {"name": "{{token}}"}}\n',
  ],
  [
    'a secret prompt answer in a form body',
    '# @prompt password\nPOST /api/v1/courses/1/modules\n\nmodule[name] = {{password}}\n',
  ],
  ['a secret prompt answer in a header', '# @prompt password\nGET /api/v1/courses/1/modules\nX-Pass: {{password}}\n'],
  ["another environment's token through $dotenv", 'GET /api/v1/courses/1/modules?t={{$dotenv PROD_API_TOKEN}}\n'],
];

for (const [label, text] of CASES) {
  test(`Copy as cURL without the token writes no secret: ${label}`, () => {
    const r = prepared(text);
    const command = toCurl(r.request, { token: TOKEN, secrets: [...r.secrets, ...r.foreignSecrets] });
    for (const secret of [TOKEN, PROD_TOKEN, ANSWER])
      assert.ok(!carriesSecret(command, [secret]), `${secret} in ${command}`);
    // The token's own place reads $LPREQ_TOKEN when the command runs.
    if (text.includes('{{token}}') || text.includes('LPREQ_TOKEN')) assert.match(command, /\$LPREQ_TOKEN/);
  });
}

test('only Copy as cURL with the token writes it', () => {
  const r = prepared(
    'POST /api/v1/courses/1/modules\nX-Api-Key: {{token}}\nContent-Type: application/json\n\n{"t": "{{token}}"}\n',
  );
  const command = toCurl(r.request, { includeToken: true, token: TOKEN, secrets: [...r.secrets, ...r.foreignSecrets] });
  assert.ok(command.includes(`'X-Api-Key: ${TOKEN}'`), command);
  assert.ok(command.includes(`'Authorization: Bearer ${TOKEN}'`), command);
  assert.ok(command.includes(`{"t": "${TOKEN}"}`), command);
});

test('the command is one option a line, each line but the last continued with a backslash', () => {
  const r = prepared('# @timeout 30\nPOST /api/v1/courses/1/modules\nX-Trace: a b\n\nmodule[name] = Week 1\n');
  const lines = toCurl(r.request, { token: TOKEN }).split('\n');
  assert.equal(lines[0], 'curl --globoff -X POST http://127.0.0.1:4010/api/v1/courses/1/modules \\');
  assert.deepEqual(
    lines.slice(1).map((l) => l.trim().split(' ')[0]),
    ['--max-time', '-H', '-H', '-H', '-H', '-H', '--data-raw'],
  );
  for (const l of lines.slice(0, -1)) assert.ok(l.endsWith(' \\'), l);
  assert.ok(!lines.at(-1)!.endsWith('\\'));
  assert.ok(lines.includes('  -H "Authorization: Bearer $LPREQ_TOKEN" \\'));
});

test("the environment's $tls becomes curl's options where the sender uses it: https to base_url's origin", () => {
  const tls = {
    rejectUnauthorized: false,
    ca: '/certs/staging ca.pem',
    cert: '/certs/client.pem',
    key: '/certs/client.key',
  };
  const staging = { environments: { staging: { base_url: 'https://staging.example.edu' } }, selected: 'staging' };
  const r = prepareRequest(testChecker(), doc('GET /api/v1/courses/1/modules\n'), 0, { environments: staging, system });
  assert.ok(r.ok);
  const lines = toCurl(r.request, { tls })
    .split(' \\\n')
    .map((l) => l.trim());
  assert.ok(lines.includes('--insecure'));
  assert.ok(lines.includes("--cacert '/certs/staging ca.pem'"));
  assert.ok(lines.includes('--cert /certs/client.pem'));
  assert.ok(lines.includes('--key /certs/client.key'));
  // Another origin, or plain http, gets none of them, as the sender applies none there.
  for (const url of ['https://elsewhere.example/x', 'http://staging.example.edu/api/v1/courses/1/modules']) {
    assert.doesNotMatch(toCurl({ ...r.request, url }, { tls }), /--insecure|--cacert|--cert|--key/);
  }
});
