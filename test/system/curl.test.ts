/** What curl and the shell make of lpreq's encoding and of a copied cURL command: the same bytes as lpreq sends. */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { encodeForm } from '../../server/src/sender/encoding';
import { toCurl } from '../../server/src/sender/curl';
import { prepareRequest } from '../../server/src/sender/prepare';
import { SHAPES } from '../sender/formShapes';
import { doc, startServer, testChecker, type TestServer } from '../sender/server';

const TOKEN = 'Curl-Token-1234567';
const PROD_TOKEN = 'prod-token-7654321';
const ANSWER = 'pa55 w0rd/answer';
const environments = {
  environments: {
    local: { base_url: 'http://127.0.0.1:4010', token: TOKEN },
    prod: { base_url: 'https://lms.example.edu', token: PROD_TOKEN },
  },
  selected: 'local',
};
const system = { processEnv: { LPREQ_TOKEN: TOKEN }, dotenv: { PROD_API_TOKEN: PROD_TOKEN } };

function prepared(text: string) {
  const r = prepareRequest(testChecker(), doc(text), 0, {
    environments,
    system,
    prompts: new Map([['password', ANSWER]]),
  });
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r;
}

// The same pairs sent by curl itself, when curl is on this machine.
const run = promisify(execFile);
let curl = false;
let server: TestServer;
before(async () => {
  try {
    await run('curl', ['--version']);
    curl = true;
  } catch {
    curl = false;
  }
  server = await startServer((_req, res) => res.end('ok'));
});
after(() => server.close());

test('form body: byte for byte what curl --data-urlencode sends', async (t) => {
  if (!curl) return t.skip('curl is not installed');
  const args = ['-s', '-o', '/dev/null', '--noproxy', '*', `${server.origin}/form`];
  for (const p of SHAPES) args.push('--data-urlencode', `${p.name}=${p.value}`);
  await run('curl', args);
  const got = server.received.at(-1);
  assert.equal(got?.method, 'POST');
  assert.equal(got?.headers['content-type'], 'application/x-www-form-urlencoded');
  assert.equal(encodeForm(SHAPES), got?.body);
});

test('query string: byte for byte what curl -G --data-urlencode sends', async (t) => {
  if (!curl) return t.skip('curl is not installed');
  const args = ['-s', '-G', '-o', '/dev/null', '--noproxy', '*', `${server.origin}/query`];
  for (const p of SHAPES) args.push('--data-urlencode', `${p.name}=${p.value}`);
  await run('curl', args);
  const got = server.received.at(-1);
  // curl's URL parser writes the hex digits of a query in lower case; the bytes are the same.
  const upper = (s: string) => s.replace(/%[0-9a-f]{2}/gi, (m) => m.toUpperCase());
  assert.equal(upper(got?.url ?? ''), `/query?${encodeForm(SHAPES)}`);
});

test('the token written into a copied command reads $LPREQ_TOKEN, so that the command sends what lpreq sends', () => {
  const r = prepared('GET /api/v1/courses/1/modules?access_token={{token}}&x=1\nX-Api-Key: key {{token}}\n');
  const command = toCurl(r.request, { token: TOKEN, secrets: [...r.secrets, ...r.foreignSecrets] });
  // The shell reads it back as the request's own words (printf in the place of curl).
  const shown = spawnSync('sh', ['-c', command.replace(/^curl /, "printf '%s\\n' ")], {
    env: { LPREQ_TOKEN: TOKEN },
    encoding: 'utf8',
  });
  const words = shown.stdout.split('\n');
  assert.ok(words.includes(r.request.url), shown.stdout);
  assert.ok(words.includes(`X-Api-Key: key ${TOKEN}`), shown.stdout);
  assert.ok(words.includes(`Authorization: Bearer ${TOKEN}`), shown.stdout);
});
