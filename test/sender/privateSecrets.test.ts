/**
 * Issue 26, item 5: the values of http-client.private.env.json, its `$defaultHeaders` among
 * them (an Authorization, a Cookie, an API key), are secrets like the token: they go only to
 * base_url's origin (with no base_url, nowhere), every output scrubs them, and a copied
 * command or generated program never writes them: it reads each private header from an
 * environment variable when it runs.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Io } from '../../server/src/cli/check';
import { run as runSend } from '../../server/src/cli/sendCommand';
import { toCode } from '../../server/src/sender/codegen';
import { toCurl } from '../../server/src/sender/curl';
import { prepareRequest } from '../../server/src/sender/prepare';
import { sendSetup } from '../../server/src/sender/setup';
import { tempDir } from '../helpers';
import { doc, startServer, testChecker, type Received, type TestServer } from './server';

const AUTHORIZATION = 'Basic cHJpdmF0ZS11c2VyOnMzY3JldA==';
const COOKIE = 'session=Private-Cookie-Value-8841';
const API_KEY = 'Private-Api-Key-77aa21';
const ACCOUNT = 'acct-Private-4410';
const STAGING_KEY = 'Staging-Api-Key-99xx12';
const PRIVATE = [AUTHORIZATION, COOKIE, API_KEY, ACCOUNT, STAGING_KEY];

let base: TestServer;
let other: TestServer;
before(async () => {
  // base_url's server echoes every header it received, in its body and its headers.
  base = await startServer((req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'x-echo': JSON.stringify(req.headers) });
    res.end(JSON.stringify([{ id: 1, name: JSON.stringify(req.headers), url: req.url }]));
  });
  other = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
});
after(async () => {
  await base.close();
  await other.close();
});

/** A workspace with environments dev (base_url the base server) and staging, and a private file with default headers and a variable. */
function workspace(request: string, baseUrl: string | undefined = base.origin): string {
  const dir = tempDir('private-secrets');
  writeFileSync(join(dir, 'r.lpreq'), `@other = ${other.origin}\n\n${request}`);
  writeFileSync(
    join(dir, 'http-client.env.json'),
    JSON.stringify({
      dev: { ...(baseUrl ? { base_url: baseUrl } : {}), course: '1', $defaultHeaders: { 'X-Shared': 'shared-value' } },
      staging: { base_url: 'https://staging.example.edu' },
    }),
  );
  writeFileSync(
    join(dir, 'http-client.private.env.json'),
    JSON.stringify({
      dev: {
        account: ACCOUNT,
        $defaultHeaders: { Authorization: AUTHORIZATION, Cookie: COOKIE, 'X-Api-Key': API_KEY },
      },
      staging: { $defaultHeaders: { 'X-Api-Key': STAGING_KEY } },
    }),
  );
  return dir;
}

async function send(dir: string, format = 'text'): Promise<{ code: number; out: string }> {
  let out = '';
  const io: Io = {
    stdout: (s) => void (out += s),
    stderr: (s) => void (out += s),
    readStdin: () => '',
    isTTY: false,
    env: {},
    cwd: dir,
  };
  const code = await runSend([join(dir, 'r.lpreq'), '--env', 'dev', '--format', format], io);
  return { code, out };
}

const partsOf = (r: Received) => [r.url, r.body, ...Object.entries(r.headers).flatMap(([n, v]) => [n, String(v)])];
const holds = (texts: string[], secret: string) => texts.some((t) => t.includes(secret));

/** Every file under `dir` as text. */
function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'latin1'));
}

test("the private file's default headers go to base_url's origin, and no output or history shows them", async () => {
  const dir = workspace('GET /api/v1/courses/{{course}}/modules\n');
  const before = base.received.length;
  for (const format of ['text', 'json']) {
    const { code, out } = await send(dir, format);
    assert.equal(code, 0, out);
    for (const s of [AUTHORIZATION, COOKIE, API_KEY]) assert.ok(!out.includes(s), `the output shows ${s}:\n${out}`);
  }
  const got = base.received[before];
  assert.equal(got.headers.authorization, AUTHORIZATION);
  assert.equal(got.headers.cookie, COOKIE);
  assert.equal(got.headers['x-api-key'], API_KEY);
  assert.equal(got.headers['x-shared'], 'shared-value');
  for (const text of filesUnder(join(dir, '.lpreq')))
    for (const s of PRIVATE) assert.ok(!text.includes(s), `the history holds ${s}`);
});

test('a request to another origin gets none of them, and one that carries a private value there is not sent', async () => {
  const before = other.received.length;
  const { code, out } = await send(workspace('GET {{other}}/api/v1/courses/1/modules\n'));
  assert.equal(code, 0, out);
  const got = other.received.slice(before);
  assert.equal(got.length, 1);
  for (const s of PRIVATE) assert.ok(!holds(partsOf(got[0]), s), `another origin received ${s}`);
  assert.equal(got[0].headers['x-shared'], 'shared-value');
  // A private variable (its name does not look secret) in the URL of a request to another origin.
  const carried = await send(workspace('GET {{other}}/api/v1/courses/1/modules?ref={{account}}\n'));
  assert.equal(carried.code, 1);
  assert.match(carried.out, /secret-elsewhere|carries the access token or a secret/);
  assert.equal(other.received.length, before + 1);
  assert.ok(!carried.out.includes(ACCOUNT));
});

test('with no base_url the private values go nowhere, as the token does', async () => {
  const before = other.received.length;
  const { code, out } = await send(workspace('GET {{other}}/api/v1/courses/1/modules\n', undefined));
  assert.equal(code, 0, out);
  for (const s of PRIVATE) assert.ok(!holds(partsOf(other.received[before]), s), `${s} went to the request's origin`);
});

test('a copied command and a generated program read the private headers from environment variables, never write them', () => {
  const dir = workspace('GET /api/v1/courses/{{course}}/modules?ref={{account}}\n');
  const setup = sendSetup(join(dir, 'r.lpreq'), { environment: 'dev', env: {}, chooseWith: '--env' });
  const r = prepareRequest(testChecker(), doc(readFileSync(join(dir, 'r.lpreq'), 'utf8')), 0, {
    environments: setup.environments,
    system: setup.system,
  });
  assert.ok(r.ok, r.ok ? '' : r.error);
  const options = { secrets: r.secrets, foreignSecrets: r.foreignSecrets };
  const curl = toCurl(r.request, options);
  const js = toCode(r.request, 'javascript', options);
  const py = toCode(r.request, 'python', options);
  for (const copy of [curl, js, py]) for (const s of PRIVATE) assert.ok(!copy.includes(s), `${s} in\n${copy}`);
  assert.ok(curl.includes(`-H 'X-Api-Key: '"$LPREQ_HEADER_X_API_KEY"`), curl);
  assert.ok(curl.includes(`-H 'Cookie: '"$LPREQ_HEADER_COOKIE"`), curl);
  assert.ok(curl.includes(`-H 'Authorization: '"$LPREQ_HEADER_AUTHORIZATION"`), curl);
  assert.ok(js.includes('["X-Api-Key", process.env.LPREQ_HEADER_X_API_KEY]'), js);
  assert.match(js, /if \(!process\.env\.LPREQ_HEADER_COOKIE\) throw new Error/);
  assert.ok(py.includes('"X-Api-Key": os.environ["LPREQ_HEADER_X_API_KEY"]'), py);
  // The private variable in the query is a secret the copy cannot read from anywhere: ***.
  assert.ok(curl.includes('ref=***'), curl);
  // Copy as cURL with the token, asked for by name, writes every secret.
  assert.ok(toCurl(r.request, { ...options, includeToken: true }).includes(`X-Api-Key: ${API_KEY}`));
});
