/**
 * Issue 26, item 3: a copied cURL command and a generated fetch or Python program go through
 * the sender's own outgoing check. What `lpreq send` refuses (the token in the URL or the body
 * of a request to another origin, or under another Host) is not copied, and the reason is the
 * sender's; a header the sender leaves out (the token in a header to another origin) is left
 * out of the copy too; the program says it reads the token only where it does.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { toCode } from '../../server/src/sender/codegen';
import { toCurl } from '../../server/src/sender/curl';
import { sendPrepared } from '../../server/src/sender/exchange';
import { prepareRequest } from '../../server/src/sender/prepare';
import { doc, startServer, testChecker, type TestServer } from './server';

const TOKEN = 'Copy-Check-Token-12345';
let base: TestServer;
let other: TestServer;
before(async () => {
  base = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
  other = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
});
after(async () => {
  await base.close();
  await other.close();
});

/** The request of `text` in the `dev` environment (base_url the base server), `{{other}}` the other server. */
function prepared(text: string) {
  const r = prepareRequest(testChecker(), doc(`@other = ${other.origin}\n\n${text}`), 0, {
    environments: {
      environments: { dev: { base_url: base.origin, token: TOKEN }, staging: { base_url: 'https://staging.example' } },
      selected: 'dev',
    },
    system: { processEnv: { LPREQ_TOKEN: TOKEN } },
  });
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r;
}

/** The three copies of a request; an Error where one refuses. */
function copies(r: ReturnType<typeof prepared>): Record<'curl' | 'javascript' | 'python', string | Error> {
  const options = { token: TOKEN, secrets: r.secrets, foreignSecrets: r.foreignSecrets };
  const attempt = (make: () => string) => {
    try {
      return make();
    } catch (e) {
      return e as Error;
    }
  };
  return {
    curl: attempt(() => toCurl(r.request, options)),
    javascript: attempt(() => toCode(r.request, 'javascript', options)),
    python: attempt(() => toCode(r.request, 'python', options)),
  };
}

const REFUSED: [string, string][] = [
  ['the token in the query of a request to another origin', 'GET {{other}}/x?access_token={{token}}\n'],
  ['the token in the path of a request to another origin', 'GET {{other}}/x/{{$processEnv LPREQ_TOKEN}}\n'],
  [
    'the token in the body of a request to another origin',
    'POST {{other}}/x\nContent-Type: application/json\n\n{"t": "{{token}}"}\n',
  ],
  [
    'the token in the query under another Host',
    'GET /api/v1/courses/1/modules?access_token={{token}}\nHost: other.test\n',
  ],
];

for (const [label, text] of REFUSED) {
  test(`what the sender refuses is neither copied nor generated, with the sender's reason: ${label}`, async () => {
    const r = prepared(text);
    const sent = await sendPrepared(r.request, { token: TOKEN, secrets: r.secrets, foreignSecrets: r.foreignSecrets });
    assert.equal(sent.error?.kind, 'secret-elsewhere');
    const reason = (sent.error?.message ?? '').replace(/^not sent: /, '');
    for (const [how, copy] of Object.entries(copies(r))) {
      assert.ok(copy instanceof Error, `${how} was made:\n${String(copy)}`);
      assert.equal(copy.message, `lpreq would not send this request: ${reason}`, how);
    }
  });
}

const LEFT_OUT: [string, string, string][] = [
  ['the token in a header of a request to another origin', 'GET {{other}}/x\nX-Api-Key: {{token}}\n', 'X-Api-Key'],
  [
    'the token in a header under another Host',
    'GET /api/v1/courses/1/modules\nHost: other.test\nX-Api-Key: {{token}}\n',
    'X-Api-Key',
  ],
  [
    'a written Authorization under another Host',
    'GET /api/v1/courses/1/modules\nHost: other.test\nAuthorization: Bearer {{token}}\n',
    'Authorization',
  ],
];

for (const [label, text, header] of LEFT_OUT) {
  test(`a header the sender leaves out is left out of every copy, and no copy reads the token: ${label}`, async () => {
    const r = prepared(text);
    const sent = await sendPrepared(r.request, { token: TOKEN, secrets: r.secrets, foreignSecrets: r.foreignSecrets });
    assert.equal(sent.error, undefined);
    const got = [...base.received, ...other.received].at(-1);
    assert.equal(got?.headers[header.toLowerCase()], undefined);
    assert.equal(got?.headers.authorization, undefined);
    const notes: string[] = [];
    const made = copies(r);
    const curl = toCurl(r.request, { token: TOKEN, secrets: r.secrets, foreignSecrets: r.foreignSecrets, notes });
    for (const [how, copy] of Object.entries(made)) {
      assert.equal(typeof copy, 'string', `${how}: ${String(copy)}`);
      const text = copy as string;
      assert.ok(!text.includes(`${header}:`) && !text.includes(`"${header}"`), `${how} writes ${header}:\n${text}`);
      assert.ok(!text.includes('LPREQ_TOKEN'), `${how} reads the token:\n${text}`);
    }
    assert.equal(curl, made.curl);
    // The copy says what it left out, in the sender's words.
    for (const w of sent.warnings) assert.ok(notes.includes(w), `${w} not among ${notes.join(' | ')}`);
    assert.match(made.javascript as string, /^\/\/ It sends no access token\.$/m);
    assert.match(made.python as string, /^# It sends no access token\.$/m);
  });
}

test('a program that reads the token says so, wherever the token stands; one that does not, does not say it reads it', () => {
  // The token in the query of a request to base_url: sent there, read from LPREQ_TOKEN.
  const r = prepared('GET /api/v1/courses/1/modules?access_token={{token}}\nAuthorization: Basic dXNlcg==\n');
  const made = copies(r);
  assert.match(made.javascript as string, /^\/\/ The access token is read from the environment variable LPREQ_TOKEN/m);
  assert.match(made.python as string, /^# The access token is read from the environment variable LPREQ_TOKEN/m);
  assert.match(made.javascript as string, /if \(!process\.env\.LPREQ_TOKEN\) throw/);
  // The request's own Authorization wins, as in the sender: no token added beside it.
  assert.doesNotMatch(made.curl as string, /Bearer \$LPREQ_TOKEN/);
  // A program that sends a secret answers a redirect rather than follow it: fetch and requests
  // would take its headers to whatever origin a redirect names.
  assert.match(made.javascript as string, /redirect: "manual"/);
  assert.match(made.python as string, /allow_redirects=False/);
  const plain = copies(prepared('GET {{other}}/x\n'));
  assert.match(plain.javascript as string, /^\/\/ It sends no access token\.$/m);
  assert.doesNotMatch(plain.javascript as string, /LPREQ_TOKEN|redirect:/);
});
