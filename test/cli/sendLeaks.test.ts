/**
 * Findings of the audit of issue 17 through `lpreq send` (run in-process): the history holds
 * no secret, typed-check issues included; a body file carries no other environment's token
 * anywhere, and is read only from inside the workspace.
 */
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { run } from '../../server/src/cli/sendCommand';
import { tempDir } from '../helpers';
import { captureIo } from '../io';
import { json, startServer, type TestServer } from '../sender/server';

const TOKEN = 'local-token-0123456789';
const PROD_TOKEN = 'prod-token-9876543210';
let api: TestServer;
let other: TestServer;

before(async () => {
  other = await startServer((_req, res) => json(res, 200, { where: 'other' }));
  api = await startServer((req, res) => {
    const path = req.url.split('?')[0];
    if (path === '/api/v1/courses/1/modules') {
      // The token echoed in a field value and as a key: both are typed-check issues.
      // A long value is shown cut in a message: the cut falls inside the token.
      return json(res, 200, [
        {
          id: 1,
          name: 'M',
          position: 1,
          items_count: `${'n'.repeat(20)} ${req.headers.authorization}`,
          workflow_state: 'active',
          [String(req.headers.authorization)]: 1,
        },
      ]);
    }
    return json(res, 200, { ok: true });
  });
});
after(async () => {
  await api.close();
  await other.close();
});

/** A workspace: the environment files, and the request file in a folder below them. */
function workspace(request: string): { dir: string; file: string } {
  const dir = tempDir('ws');
  writeFileSync(
    join(dir, 'http-client.env.json'),
    JSON.stringify({ local: { base_url: api.origin }, prod: { base_url: 'https://lms.example.edu' } }),
  );
  writeFileSync(join(dir, 'http-client.private.env.json'), JSON.stringify({ prod: { token: PROD_TOKEN } }));
  mkdirSync(join(dir, 'requests'));
  const file = join(dir, 'requests', 'r.lpreq');
  writeFileSync(file, request);
  return { dir, file };
}

async function send(args: string[], cwd: string) {
  const out = captureIo({ cwd, env: { LPREQ_TOKEN: TOKEN } });
  const code = await run(args, out.io);
  return { code, stdout: out.stdout, stderr: out.stderr };
}

/** Every file under `dir`, as text. */
function allText(dir: string): string {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(e.parentPath, e.name), 'utf8'))
    .join('\n');
}

test('the history keeps no token echoed into typed-check issues (a field value, a key)', async () => {
  const { dir, file } = workspace('GET /api/v1/courses/1/modules\n');
  const r = await send([file, '--format', 'json'], dir);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { issues: { path: string; message: string }[] };
  assert.ok(out.issues.length >= 2, r.stdout);
  // Neither the token nor the start of it that a cut value would show.
  const start = TOKEN.slice(0, 8);
  assert.ok(!r.stdout.includes(start), r.stdout);
  const history = allText(join(dir, '.lpreq', 'history'));
  assert.match(history, /"issues":\[/);
  assert.ok(!history.includes(start), history.slice(history.indexOf('"issues"'), history.indexOf('"issues"') + 400));
});

test("a body file carries another environment's token nowhere: not to another origin, not to base_url", async () => {
  for (const target of [`${other.origin}/x`, '/api/v1/courses/1/modules']) {
    const { dir, file } = workspace(
      `POST ${target}\nContent-Type: application/json\n\n< ../http-client.private.env.json\n`,
    );
    const before = other.received.length + api.received.length;
    const r = await send([file, '--format', 'json'], dir);
    assert.equal(other.received.length + api.received.length, before, `${target}: nothing sent`);
    assert.equal(r.code, 1);
    assert.equal((JSON.parse(r.stdout) as { error?: { kind: string } }).error?.kind, 'secret-elsewhere', r.stdout);
    assert.ok(!r.stdout.includes(PROD_TOKEN) && !r.stderr.includes(PROD_TOKEN));
  }
});

test('a body file is read only from inside the workspace: a relative path out of it, an absolute one, a symlink out of it are errors naming it', async () => {
  const outside = tempDir('outside');
  writeFileSync(join(outside, 'id_rsa'), 'PRIVATE KEY');
  for (const [label, body, setup] of [
    ['../..', `< ../../${outside.split('/').at(-1)}/id_rsa`, () => undefined],
    ['absolute', `< ${join(outside, 'id_rsa')}`, () => undefined],
    [
      'a symlink',
      '< ./key.txt',
      (dir: string) => symlinkSync(join(outside, 'id_rsa'), join(dir, 'requests', 'key.txt')),
    ],
  ] as const) {
    const { dir, file } = workspace(`POST ${other.origin}/x\nContent-Type: text/plain\n\n${body}\n`);
    setup(dir);
    const before = other.received.length;
    const r = await send([file], dir);
    assert.equal(other.received.length, before, `${label}: nothing sent`);
    assert.equal(r.code, 1, label);
    assert.match(r.stdout, /error \(prepare\)/, label);
    assert.ok(r.stdout.includes(body.slice(2)), `${label}: the path is named: ${r.stdout}`);
    assert.match(r.stdout, /outside/, label);
  }
  // A file beside the environment files, above the request file, is inside.
  const { dir, file } = workspace(`POST ${other.origin}/x\nContent-Type: text/plain\n\n< ../data/body.txt\n`);
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'data', 'body.txt'), 'hello');
  const r = await send([file], dir);
  assert.equal(r.code, 0, r.stdout);
  assert.equal(other.received.at(-1)?.body, 'hello');
});
