/**
 * Issue 26, item 1 on the command line: LPREQ_TOKEN_ORIGIN (or --token-origin) pins the token
 * to an origin. When the chosen environment's base_url is on another one (a pull request
 * changed http-client.env.json), `lpreq send` and `lpreq test` send nothing and exit 2 with a
 * message that names both origins.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Io } from '../../server/src/cli/check';
import { run as runSend } from '../../server/src/cli/sendCommand';
import { run as runTest } from '../../server/src/cli/testCommand';
import { tempDir } from '../helpers';
import { startServer, type TestServer } from '../sender/server';

const TOKEN = 'pinned-token-0123456789';
let api: TestServer;
before(async () => {
  api = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
});
after(() => api.close());

/** `lpreq send` or `lpreq test` in this process, what they print captured. */
async function runCli(argv: string[], o: { cwd: string; env: NodeJS.ProcessEnv }) {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    readStdin: () => '',
    isTTY: false,
    env: o.env,
    cwd: o.cwd,
  };
  const code = await (argv[0] === 'send' ? runSend : runTest)(argv.slice(1), io);
  return { code, stdout, stderr };
}

/** A folder with environments dev and staging (no local), dev's base_url `devUrl`, and a request file. */
function project(devUrl: string, name = 'p'): string {
  const dir = join(tempDir('token-origin'), name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'http-client.env.json'),
    JSON.stringify({ dev: { base_url: devUrl }, staging: { base_url: 'https://staging.example.edu' } }),
  );
  writeFileSync(join(dir, 'r.lpreq'), 'GET {{base_url}}/api/v1/courses/1/modules\n\n?? status == 200\n');
  return dir;
}

test('lpreq send sends when base_url is on the pinned origin (a trailing / is no matter)', async () => {
  const dir = project(api.origin);
  const before = api.received.length;
  const r = await runCli(['send', join(dir, 'r.lpreq'), '--env', 'dev', '--no-history'], {
    cwd: dir,
    env: { LPREQ_TOKEN: TOKEN, LPREQ_TOKEN_ORIGIN: `${api.origin}/` },
  });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(api.received.length, before + 1);
  assert.equal(api.received.at(-1)?.headers.authorization, `Bearer ${TOKEN}`);
});

test('lpreq send refuses, sending nothing, when base_url is on another origin than LPREQ_TOKEN_ORIGIN, and names both', async () => {
  const dir = project(api.origin);
  const before = api.received.length;
  const r = await runCli(['send', join(dir, 'r.lpreq'), '--env', 'dev'], {
    cwd: dir,
    env: { LPREQ_TOKEN: TOKEN, LPREQ_TOKEN_ORIGIN: 'https://lms.example.edu' },
  });
  assert.equal(r.code, 2);
  assert.equal(api.received.length, before, 'nothing was sent');
  assert.ok(r.stderr.includes('https://lms.example.edu'), r.stderr);
  assert.ok(r.stderr.includes(api.origin), r.stderr);
  assert.match(
    r.stderr,
    /^lpreq send: LPREQ_TOKEN_ORIGIN pins the token to https:\/\/lms\.example\.edu, and the environment 'dev' sends to /,
  );
  assert.ok(!r.stderr.includes(TOKEN) && !r.stdout.includes(TOKEN));
});

test('--token-origin says the same, and wins over LPREQ_TOKEN_ORIGIN', async () => {
  const dir = project(api.origin);
  const before = api.received.length;
  const refused = await runCli(
    ['send', join(dir, 'r.lpreq'), '--env', 'dev', '--token-origin', 'https://lms.example.edu'],
    { cwd: dir, env: { LPREQ_TOKEN: TOKEN, LPREQ_TOKEN_ORIGIN: api.origin } },
  );
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /--token-origin pins the token to https:\/\/lms\.example\.edu/);
  assert.equal(api.received.length, before);
  const sent = await runCli(
    ['send', join(dir, 'r.lpreq'), '--env', 'dev', '--token-origin', api.origin, '--no-history'],
    { cwd: dir, env: { LPREQ_TOKEN: TOKEN, LPREQ_TOKEN_ORIGIN: 'https://lms.example.edu' } },
  );
  assert.equal(sent.code, 0, sent.stderr);
  assert.equal(api.received.length, before + 1);
});

test('an environment without base_url, or a value that is no origin, is refused too', async () => {
  const dir = project(api.origin);
  writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ dev: { course: '1' }, staging: { course: '2' } }));
  writeFileSync(join(dir, 'r.lpreq'), `GET ${api.origin}/api/v1/courses/1/modules\n`);
  const before = api.received.length;
  const none = await runCli(['send', join(dir, 'r.lpreq'), '--env', 'dev'], {
    cwd: dir,
    env: { LPREQ_TOKEN: TOKEN, LPREQ_TOKEN_ORIGIN: api.origin },
  });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /the environment 'dev' has no base_url: nothing was sent/);
  for (const bad of [
    'lms.example.edu',
    'https://lms.example.edu/api',
    'ftp://lms.example.edu',
    'https://u:p@x.example',
  ]) {
    const r = await runCli(['send', join(dir, 'r.lpreq'), '--env', 'dev'], {
      cwd: dir,
      env: { LPREQ_TOKEN: TOKEN, LPREQ_TOKEN_ORIGIN: bad },
    });
    assert.equal(r.code, 2, bad);
    assert.match(r.stderr, /LPREQ_TOKEN_ORIGIN: '.*' is not an origin/, bad);
  }
  assert.equal(api.received.length, before);
});

test('lpreq test refuses the whole run, before anything is sent, when one folder sends elsewhere', async () => {
  const root = tempDir('token-origin-run');
  const good = project(api.origin, 'a');
  const bad = project('https://attacker.example', 'b');
  const before = api.received.length;
  const r = await runCli(['test', '--env', 'dev', good, bad], {
    cwd: root,
    env: { LPREQ_TOKEN: TOKEN, LPREQ_TOKEN_ORIGIN: api.origin },
  });
  assert.equal(r.code, 2);
  assert.match(
    r.stderr,
    /^lpreq test: LPREQ_TOKEN_ORIGIN pins the token to http:\/\/127\.0\.0\.1:\d+, and the environment 'dev' sends to https:\/\/attacker\.example/,
  );
  assert.equal(api.received.length, before, 'nothing was sent');
  // The folder alone runs; --mock sends no token, so the pin does not stop it.
  const alone = await runCli(['test', '--env', 'dev', good], {
    cwd: root,
    env: { LPREQ_TOKEN: TOKEN, LPREQ_TOKEN_ORIGIN: api.origin },
  });
  assert.equal(alone.code, 0, alone.stderr);
  const mock = await runCli(['test', '--mock', bad], {
    cwd: root,
    env: { LPREQ_TOKEN: TOKEN, LPREQ_TOKEN_ORIGIN: api.origin },
  });
  assert.notEqual(mock.code, 2, mock.stderr);
});
