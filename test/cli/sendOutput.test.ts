/**
 * What `lpreq send` tells its user, run in-process against a server on 127.0.0.1: hints about
 * the token, redirects, repeated pages, exact large numbers, short secrets (a body cut by a
 * timeout: test/system/sendTimeouts.test.ts).
 */
import assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { run as runSend } from '../../server/src/cli/sendCommand';
import { tempDir } from '../helpers';
import { captureIo } from '../io';
import { json, startServer, type TestServer } from '../sender/server';

const TOKEN = 'out-token-0123456789';
let api: TestServer;
let dir: string;

async function send(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = captureIo({ cwd: dir, env: { PATH: process.env.PATH ?? '', ...env } });
  const code = await runSend([...args, '--no-history'], out.io);
  return { code, stdout: out.stdout, stderr: out.stderr };
}

/** Writes `text` as `name` in the folder `folder` of the test directory, and returns its path relative to it. */
function file(folder: string, name: string, text: string): string {
  writeFileSync(join(dir, folder, name), text);
  return join(folder, name);
}

before(async () => {
  api = await startServer((req, res) => {
    const url = new URL(req.url, api.origin);
    const auth = req.headers.authorization;
    switch (url.pathname) {
      case '/echo':
        return json(res, 200, { authorization: auth ?? null }, auth ? { 'x-echo-auth': auth } : {});
      case '/moved':
        res.writeHead(302, { location: '/moved-again' });
        return res.end();
      case '/moved-again':
        res.writeHead(307, { location: `${api.origin}/echo` });
        return res.end();
      case '/big':
        res.writeHead(200, { 'content-type': 'application/json' });
        return res.end('{"id":9007199254740993,"name":"big","n":12345678901234567890123,"list":[18014398509481985]}');
      case '/big-pages': {
        const page = Number(url.searchParams.get('page') ?? '1');
        res.writeHead(200, {
          'content-type': 'application/json',
          ...(page < 2 ? { link: `<${api.origin}/big-pages?page=2>; rel="next"` } : {}),
        });
        return res.end(`[{"id":900719925474099${page * 2 + 1}}]`);
      }
      case '/two-kb':
        return json(res, 200, { text: 'x'.repeat(2048) });
      case '/private':
        return auth
          ? json(res, 200, { ok: true })
          : json(res, 401, { errors: [{ message: 'send Authorization: Bearer <token>' }] });
      default:
        return json(res, 404, { errors: [{ message: 'nothing here' }] });
    }
  });
  dir = tempDir('out');
  mkdirSync(join(dir, 'env'));
  mkdirSync(join(dir, 'noenv'));
  writeFileSync(join(dir, 'env', 'http-client.env.json'), JSON.stringify({ local: { base_url: api.origin } }));
});
after(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a request that goes out without the token says so, and a 401 names what to set', async () => {
  const cases: { folder: string; env: Record<string, string>; hints: RegExp[] }[] = [
    // No token anywhere: the warning and the 401 hint name both places.
    { folder: 'env', env: {}, hints: [/LPREQ_TOKEN/, /http-client\.private\.env\.json/] },
    // No environment: nothing says where the token may go.
    { folder: 'noenv', env: {}, hints: [/LPREQ_TOKEN/, /http-client\.env\.json/] },
    { folder: 'noenv', env: { LPREQ_TOKEN: TOKEN }, hints: [/not sent/] },
  ];
  for (const c of cases) {
    const path = file(c.folder, 'private.lpreq', `@base_url = ${api.origin}\nGET {{base_url}}/private\n`);
    const r = await send([path, '--format', 'json'], c.env);
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout) as { status: number; warnings: string[] };
    assert.equal(out.status, 401);
    for (const hint of c.hints) assert.match(out.warnings.join('\n'), hint, `${c.folder} ${JSON.stringify(c.env)}`);
    assert.ok(
      out.warnings.some((w) => w.startsWith('401')),
      out.warnings.join('\n'),
    );
    assert.ok(!r.stdout.includes(TOKEN) && !r.stderr.includes(TOKEN));
  }
  // With the token sent, no hint about it.
  const sent = await send([file('env', 'ok.lpreq', 'GET /private\n'), '--format', 'json'], { LPREQ_TOKEN: TOKEN });
  assert.equal(sent.code, 0, sent.stderr);
  assert.equal((JSON.parse(sent.stdout) as { warnings?: string[] }).warnings, undefined);
});

test('text output shows each redirect followed, up to the URL that answered', async () => {
  const r = await send([file('env', 'moved.lpreq', 'GET /moved\n')], { LPREQ_TOKEN: TOKEN });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stdout.split('\n');
  const at = lines.findIndex((l) => l.startsWith('GET '));
  assert.deepEqual(lines.slice(at + 1, at + 3), [
    `-> 302 to ${api.origin}/moved-again`,
    `-> 307 to ${api.origin}/echo`,
  ]);
  assert.match(lines[at + 3], /^HTTP 200/);
});

test('a line about sending is true: a dependency that never left, a request stopped by an unanswered prompt', async () => {
  const cycle = file(
    'env',
    'cycle.lpreq',
    '# @name a\nGET /echo?x={{b.response.body.$.authorization}}\n###\n# @name b\nGET /echo?x={{a.response.body.$.authorization}}\n',
  );
  const c = await send([cycle, '--name', 'a'], { LPREQ_TOKEN: TOKEN });
  assert.equal(c.code, 1);
  assert.doesNotMatch(c.stdout, /sent 'b' first/);
  const cj = JSON.parse((await send([cycle, '--name', 'a', '--format', 'json'], { LPREQ_TOKEN: TOKEN })).stdout) as {
    dependencies: { name: string; notSent?: boolean }[];
    error: { kind: string };
  };
  assert.equal(cj.error.kind, 'dependency');
  assert.ok(
    cj.dependencies.every((d) => d.notSent === true),
    JSON.stringify(cj.dependencies),
  );
  // A checker error, and a prompt nobody answers: nothing is sent, and nothing says it was.
  const before = api.received.length;
  const p = await send([file('env', 'prompt.lpreq', '# @prompt course\nGET /echo?c={{course}}&per_page=x\n')], {
    LPREQ_TOKEN: TOKEN,
  });
  assert.equal(p.code, 1);
  assert.equal(api.received.length, before);
  assert.doesNotMatch(p.stdout + p.stderr, /\bsent (with|anyway)\b/);
});

test('integers beyond 2^53 stay as the server wrote them: printed, in JSON output, merged pages and chaining', async () => {
  const path = file(
    'env',
    'big.lpreq',
    '# @name big\nGET /big\n###\n# @name next\nGET /echo?id={{big.response.body.$.id}}&list={{big.response.body.$.list}}\n',
  );
  const text = await send([path, '--name', 'big'], { LPREQ_TOKEN: TOKEN });
  assert.match(text.stdout, /"id": 9007199254740993,/);
  assert.match(text.stdout, /"n": 12345678901234567890123,/);
  const json = await send([path, '--name', 'big', '--format', 'json'], { LPREQ_TOKEN: TOKEN });
  assert.match(
    json.stdout,
    /"body":\{"id":9007199254740993,"name":"big","n":12345678901234567890123,"list":\[18014398509481985\]\}/,
  );
  assert.equal((JSON.parse(json.stdout) as { status: number }).status, 200);
  const chained = await send([path, '--name', 'next', '--format', 'json'], { LPREQ_TOKEN: TOKEN });
  assert.equal(chained.code, 0, chained.stdout);
  assert.equal(
    new URL(api.received.at(-1)?.url ?? '', api.origin).search,
    '?id=9007199254740993&list=%5B18014398509481985%5D',
  );
  const pages = await send([file('env', 'pages.lpreq', 'GET /big-pages\n'), '--all-pages', '--format', 'json'], {
    LPREQ_TOKEN: TOKEN,
  });
  assert.match(pages.stdout, /"body":\[\{"id":9007199254740993\},\{"id":9007199254740995\}\]/);
});

test('a token shorter than 4 characters is refused; a short secret is still masked where it is plainly a credential (D12)', async () => {
  const short = 'q7z';
  const before = api.received.length;
  const out = captureIo({ cwd: dir, env: { LPREQ_TOKEN: short } });
  const code = await runSend([file('env', 'echo.lpreq', 'GET /echo\n')], out.io);
  // Too short to tell from other text, so it could not be kept out of output or from other hosts.
  assert.equal(code, 2);
  assert.ok(!out.stderr.includes(short));
  assert.equal(api.received.length, before);
  // A short secret prompt answer: masked after Bearer, as a whole header value and as a whole JSON string.
  const { scrubSecrets } = await import('../../server/src/sender/secrets');
  const text = 'authorization: Bearer q7z\nx-key: q7z\n{"password":"q7z","note":"q7zq7z"}';
  assert.equal(
    scrubSecrets(text, [short]),
    'authorization: Bearer ***\nx-key: ***\n{"password":"***","note":"q7zq7z"}',
  );
});

test('--max-body-size: the body limit of the editor setting, in bytes or with a unit; documented in --help', async () => {
  const path = file('env', 'two.lpreq', 'GET /two-kb\n');
  const cut = await send([path, '--max-body-size', '1024', '--format', 'json'], { LPREQ_TOKEN: TOKEN });
  const out = JSON.parse(cut.stdout) as { truncated?: { limit: number; file: string } };
  assert.equal(out.truncated?.limit, 1024);
  if (out.truncated) rmSync(out.truncated.file, { force: true });
  const whole = await send([path, '--format', 'json'], { LPREQ_TOKEN: TOKEN });
  assert.equal((JSON.parse(whole.stdout) as { truncated?: unknown }).truncated, undefined);
  // A size with a unit, as the editor's setting takes it.
  const withUnit = await send([path, '--max-body-size', '1 KiB', '--format', 'json'], { LPREQ_TOKEN: TOKEN });
  const unitOut = JSON.parse(withUnit.stdout) as { truncated?: { limit: number; file: string } };
  assert.equal(unitOut.truncated?.limit, 1024);
  if (unitOut.truncated) rmSync(unitOut.truncated.file, { force: true });
  for (const bad of ['10', 'lots', '10 MBs']) assert.equal((await send([path, '--max-body-size', bad])).code, 2, bad);
  assert.match((await send(['--help'])).stdout, /--max-body-size SIZE.*10MB.*10485760/);
});
