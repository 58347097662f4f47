/**
 * OAuth 2.0 sign-in on the command line (issue 33, part 2): `lpreq send` and `lpreq test` sign
 * in once a process with the environment's Security.Auth (client credentials silently, the
 * authorization code through the address they print), LPREQ_TOKEN wins, CI is told what to do,
 * a client secret in the shared file is refused (and `lpreq check` reports it on that file);
 * and no token, refresh token, code or client secret reaches the output or the history, though
 * the API echoes what it received.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Io } from '../../server/src/cli/check';
import { runCheck } from '../../server/src/cli/check';
import { run as runSend } from '../../server/src/cli/sendCommand';
import { run as runTest } from '../../server/src/cli/testCommand';
import { tempDir, sharedChecker } from '../helpers';
import { json, startServer, type TestServer } from '../sender/server';
import {
  browse,
  CLIENT_ID,
  CLIENT_SECRET,
  startAuthServer,
  writeEnvironments,
  type AuthServer,
} from '../system/authServer';

let auth: AuthServer;
let api: TestServer;
before(async () => {
  auth = await startAuthServer();
  // The API echoes what it received (the Authorization header among it) in its body and a header.
  api = await startServer((req, res) => {
    const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    if (bearer === undefined || !auth.issued.includes(bearer)) return json(res, 401, { errors: [{ message: 'no' }] });
    return json(res, 200, [{ id: 1, name: String(req.headers.authorization) }], {
      'x-echo': String(req.headers.authorization),
    });
  });
});
after(async () => {
  await auth.close();
  await api.close();
});

/** `lpreq send`, `test` or `check` in this process; `onStderr` sees each line as it is written (the address to sign in at). */
async function runCli(argv: string[], o: { cwd: string; env?: NodeJS.ProcessEnv; onStderr?: (s: string) => void }) {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: (s) => void (stdout += s),
    stderr: (s) => {
      stderr += s;
      o.onStderr?.(s);
    },
    readStdin: () => '',
    isTTY: false,
    env: o.env ?? {},
    cwd: o.cwd,
  };
  const [command, ...rest] = argv;
  const code =
    command === 'send'
      ? await runSend(rest, io)
      : command === 'test'
        ? await runTest(rest, io)
        : await runCheck(rest, io, sharedChecker);
  return { code, stdout, stderr };
}

/** A project with environments dev and staging (no local), dev signing in with `settings`, and two request files. */
function project(shared: Record<string, unknown>, priv: Record<string, unknown> | undefined): string {
  const dir = join(tempDir('oauth-cli'), 'repo');
  mkdirSync(dir, { recursive: true });
  writeEnvironments(
    dir,
    {
      dev: { base_url: api.origin, course: '1', Security: { Auth: { lms: shared } } },
      staging: { base_url: 'https://staging.example.edu', course: '2' },
    },
    priv === undefined ? undefined : { dev: { Security: { Auth: { lms: priv } } } },
  );
  writeFileSync(join(dir, 'courses.lpreq'), 'GET /api/v1/courses\n\n?? status == 200\n');
  writeFileSync(join(dir, 'modules.lpreq'), 'GET /api/v1/courses/{{course}}/modules\n\n?? status == 200\n');
  return dir;
}

const clientCredentials = {
  Type: 'OAuth2',
  'Grant Type': 'Client Credentials',
  'Token URL': '',
  'Client ID': CLIENT_ID,
};
const ccShared = () => ({ ...clientCredentials, 'Token URL': auth.tokenUrl });
const ccPrivate = () => ({ 'Token URL': auth.tokenUrl, 'Client Secret': CLIENT_SECRET });
const codeShared = () => ({
  Type: 'OAuth2',
  'Grant Type': 'Authorization Code',
  'Auth URL': auth.authUrl,
  'Token URL': auth.tokenUrl,
  'Client ID': CLIENT_ID,
  Scope: 'openid',
});

/** Every file under a folder, as text. */
function filesUnder(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesUnder(path));
    else out.push(readFileSync(path, 'latin1'));
  }
  return out;
}

/** None of the secrets the authorization server issued or was given is in any of these texts. */
function assertNoSecrets(texts: string[], extra: string[] = []): void {
  const secrets = [
    ...auth.issued,
    CLIENT_SECRET,
    ...auth.tokens.map((t) => String(t.body.code ?? '')),
    ...extra,
  ].filter((s) => s.length >= 8);
  for (const text of texts)
    for (const s of secrets) assert.ok(!text.includes(s), `a secret is in ${text.slice(0, 200)}`);
}

test('lpreq send signs in with client credentials and sends the token to base_url; neither the token nor the secret is printed or kept', async () => {
  const dir = project(ccShared(), ccPrivate());
  const before = auth.tokens.length;
  const r = await runCli(['send', join(dir, 'courses.lpreq'), '--env', 'dev'], { cwd: dir });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(auth.tokens.length, before + 1);
  assert.equal(auth.tokens[before].grant, 'client_credentials');
  const sent = String(api.received.at(-1)?.headers.authorization);
  assert.ok(auth.issued.includes(sent.slice('Bearer '.length)));
  // The API echoed the token: the output shows it scrubbed.
  assert.match(r.stdout, /HTTP 200/);
  assertNoSecrets([r.stdout, r.stderr, ...filesUnder(join(dir, '.lpreq'))]);
  // The environment files are as they were: nothing was written to them.
  assert.doesNotMatch(readFileSync(join(dir, 'http-client.env.json'), 'utf8'), /access|refresh/i);
});

test("--format json hides the sign-in's token as well", async () => {
  const dir = project(ccShared(), ccPrivate());
  const r = await runCli(['send', join(dir, 'courses.lpreq'), '--env', 'dev', '--format', 'json', '--no-history'], {
    cwd: dir,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(JSON.parse(r.stdout).status, 200);
  assertNoSecrets([r.stdout, r.stderr]);
});

test('lpreq test signs in once for the run, whatever the number of files', async () => {
  const dir = project(ccShared(), ccPrivate());
  const before = auth.tokens.length;
  const r = await runCli(['test', dir, '--env', 'dev', '--reporter', 'json'], { cwd: dir });
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.equal(JSON.parse(r.stdout).passed, 2);
  assert.equal(auth.tokens.length, before + 1);
  assertNoSecrets([r.stdout, r.stderr]);
});

test('the authorization code: the address is printed, a browser on another machine signs in, and the send goes on', async () => {
  const dir = project(codeShared(), { 'Token URL': auth.tokenUrl });
  let browsing: Promise<unknown> | undefined;
  const r = await runCli(['send', join(dir, 'courses.lpreq'), '--env', 'dev', '--no-history'], {
    cwd: dir,
    onStderr: (s) => {
      const url = /https?:\/\/\S+\/authorize\?\S+/.exec(s)?.[0];
      if (url !== undefined && browsing === undefined) browsing = browse(url);
    },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(browsing !== undefined, 'the address to sign in at was printed');
  assert.equal(((await browsing) as { status: number }).status, 200);
  assert.match(r.stderr, /Open this address in a browser to sign in \(lms, for http:\/\/127\.0\.0\.1:\d+\)/);
  assert.equal(auth.tokens.at(-1)?.grant, 'authorization_code');
  assertNoSecrets([r.stdout, r.stderr]);
});

test('in CI an authorization code sign-in is refused at once, and says what to do', async () => {
  const dir = project(codeShared(), { 'Token URL': auth.tokenUrl });
  const r = await runCli(['send', join(dir, 'courses.lpreq'), '--env', 'dev', '--no-history'], {
    cwd: dir,
    env: { CI: 'true' },
  });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /signing in with Security\.Auth\.lms of 'dev' failed: .*LPREQ_TOKEN/);
  assert.doesNotMatch(r.stderr, /authorize\?/);
});

test('LPREQ_TOKEN wins over the sign-in: nothing is asked of the authorization server', async () => {
  const dir = project(ccShared(), ccPrivate());
  const token = auth.issued[0];
  const before = auth.tokens.length;
  const r = await runCli(['send', join(dir, 'courses.lpreq'), '--env', 'dev', '--no-history'], {
    cwd: dir,
    env: { LPREQ_TOKEN: token },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(auth.tokens.length, before);
  assert.equal(api.received.at(-1)?.headers.authorization, `Bearer ${token}`);
});

test('a client secret in the shared file: sending refuses to sign in, and lpreq check reports it where it stands', async () => {
  const dir = project({ ...ccShared(), 'Client Secret': CLIENT_SECRET }, { 'Token URL': auth.tokenUrl });
  const before = auth.tokens.length;
  const r = await runCli(['send', join(dir, 'courses.lpreq'), '--env', 'dev', '--no-history'], { cwd: dir });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /client-secret-in-shared-file/);
  assert.equal(auth.tokens.length, before, 'the secret went nowhere');
  assert.ok(!r.stderr.includes(CLIENT_SECRET));

  const check = await runCli(['check', '--format', 'json', dir], { cwd: dir });
  assert.equal(check.code, 1);
  const findings = (JSON.parse(check.stdout) as { file: string; line: number; code: string }[]).filter(
    (d) => d.code === 'client-secret-in-shared-file',
  );
  assert.equal(findings.length, 1, check.stdout);
  assert.equal(findings[0].file, 'http-client.env.json');
  const line = readFileSync(join(dir, 'http-client.env.json'), 'utf8').split('\n')[findings[0].line - 1];
  assert.match(line, /"Client Secret"/);
  assert.ok(!check.stdout.includes(CLIENT_SECRET), 'the finding does not quote the secret');
});
