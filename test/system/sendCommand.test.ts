/** `lpreq send` end to end: the built command line (bin/lpreq.js) against a test server. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, tempDir } from '../helpers';
import { captureIo } from '../io';
import { json, startServer, type TestServer } from '../sender/server';

const TOKEN = 'cli-token-0123456789';
const PRIVATE_TOKEN = 'private-token-987654';
let api: TestServer;
let dir: string;
/** Ids the test server's POST /create gave so far. */
let created = 0;

function newestSource(folder: string): number {
  let newest = 0;
  for (const name of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, name.name);
    newest = Math.max(newest, name.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
  }
  return newest;
}

function run(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(ROOT, 'bin', 'lpreq.js'), 'send', ...args], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', ...env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

before(async () => {
  // The command line runs from dist/: build it when it is missing or older than the sources.
  const bundle = join(ROOT, 'dist', 'send.js');
  if (!existsSync(bundle) || statSync(bundle).mtimeMs < newestSource(join(ROOT, 'server', 'src'))) {
    await new Promise<void>((resolve, reject) => {
      const b = spawn(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
      b.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`build failed (${code})`))));
    });
  }
  api = await startServer((req, res) => {
    const url = new URL(req.url, api.origin);
    if (url.pathname === '/api/v1/courses/1/modules') {
      const page = Number(url.searchParams.get('page') ?? '1');
      const link: Record<string, string> =
        page < 3 ? { link: `<${api.origin}/api/v1/courses/1/modules?page=${page + 1}>; rel="next"` } : {};
      return json(res, 200, [{ id: page, name: `M${page}`, items_count: page === 2 ? 'many' : 1 }], link);
    }
    if (url.pathname === '/api/v1/courses/1/modules/5')
      return json(res, 404, { errors: [{ message: 'The specified resource does not exist.' }] });
    if (url.pathname === '/api/v1/courses/1/modules/6' && req.method === 'PUT')
      return json(res, 200, { id: 6, name: new URLSearchParams(req.body).get('module[name]') });
    if (url.pathname === '/upload')
      return json(res, 200, {
        bytes: [...req.raw],
        contentType: req.headers['content-type'] ?? null,
        authorization: req.headers.authorization ?? null,
      });
    if (url.pathname === '/echo')
      return json(res, 200, { authorization: req.headers.authorization ?? null, query: url.search });
    if (url.pathname === '/create' && req.method === 'POST') return json(res, 201, { id: ++created });
    return json(res, 404, { errors: [{ message: 'nothing here' }] });
  });
  dir = tempDir('cli');
  writeFileSync(
    join(dir, 'http-client.env.json'),
    JSON.stringify({ local: { base_url: api.origin }, other: { base_url: 'http://127.0.0.1:9' } }),
  );
  writeFileSync(join(dir, 'http-client.private.env.json'), JSON.stringify({ local: { token: PRIVATE_TOKEN } }));
  writeFileSync(join(dir, 'one.lpreq'), 'GET /api/v1/courses/1/modules\n');
  writeFileSync(
    join(dir, 'many.lpreq'),
    [
      '### List',
      '# @name list',
      'GET /api/v1/courses/1/modules',
      '',
      '### Missing',
      'GET /api/v1/courses/1/modules/5',
      '',
      '### Rename',
      '# @name rename',
      'PUT /api/v1/courses/1/modules/6',
      '',
      'module[name] = New name & more',
      'module[published] = maybe',
      '',
    ].join('\n'),
  );
});
after(async () => {
  await api.close();
  rmSync(dir, { recursive: true, force: true });
});

test('--format json prints one object with the fields of the contract; exit 0 for a 2xx', async () => {
  const r = await run(['one.lpreq', '--format', 'json'], { LPREQ_TOKEN: TOKEN });
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as Record<string, unknown>;
  for (const key of ['status', 'headers', 'body', 'durationMs', 'resource', 'issues']) assert.ok(key in out, key);
  assert.equal(out.status, 200);
  assert.deepEqual(out.body, [{ id: 1, name: 'M1', items_count: 1 }]);
  assert.equal(out.resource, 'Module[]');
  assert.deepEqual(out.issues, []);
  assert.equal(typeof out.durationMs, 'number');
  assert.equal((out.headers as Record<string, string>)['content-type'], 'application/json; charset=utf-8');
  assert.equal(api.received.at(-1)?.headers.authorization, `Bearer ${TOKEN}`);
  assert.ok(!r.stdout.includes(TOKEN) && !r.stderr.includes(TOKEN));
});

test('the token is never printed, even when the URL carries it or the server echoes it', async () => {
  writeFileSync(join(dir, 'echo.lpreq'), 'GET /echo?access_token={{$processEnv LPREQ_TOKEN}}\n');
  for (const format of ['json', 'text']) {
    const r = await run(['echo.lpreq', '--format', format], { LPREQ_TOKEN: TOKEN });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(api.received.at(-1)?.headers.authorization, `Bearer ${TOKEN}`);
    assert.ok(!r.stdout.includes(TOKEN) && !r.stderr.includes(TOKEN), r.stdout);
    assert.match(r.stdout, /\*\*\*/);
  }
});

test('several environments and none called local: --env is required, nothing is sent', async () => {
  const sub = join(dir, 'two-envs');
  const { mkdirSync } = await import('node:fs');
  mkdirSync(sub, { recursive: true });
  writeFileSync(
    join(sub, 'http-client.env.json'),
    JSON.stringify({ prod: { base_url: api.origin }, dev: { base_url: api.origin } }),
  );
  writeFileSync(join(sub, 'http-client.private.env.json'), '{}');
  writeFileSync(join(sub, 'one.lpreq'), 'GET {{base_url}}/api/v1/courses/1/modules\n');
  const before = api.received.length;
  const r = await run([join('two-envs', 'one.lpreq')], { LPREQ_TOKEN: TOKEN });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /several environments \(prod, dev\).*--env/);
  assert.equal(api.received.length, before);
  const chosen = await run([join('two-envs', 'one.lpreq'), '--env', 'dev', '--format', 'json'], { LPREQ_TOKEN: TOKEN });
  assert.equal(chosen.code, 0, chosen.stderr);
});

test('--all-pages merges the pages and lists the typed issues; the private env token is used', async () => {
  const r = await run(['one.lpreq', '--all-pages', '--format', 'json']);
  assert.equal(r.code, 0, r.stderr);
  const out = JSON.parse(r.stdout) as { body: unknown[]; issues: { path: string; code: string }[]; pages: number };
  assert.equal(out.body.length, 3);
  assert.equal(out.pages, 3);
  assert.deepEqual(
    out.issues.map((i) => `${i.path} ${i.code}`),
    ['$[1].items_count type-mismatch'],
  );
  assert.equal(api.received.at(-1)?.headers.authorization, `Bearer ${PRIVATE_TOKEN}`);
  assert.ok(!r.stdout.includes(PRIVATE_TOKEN));
});

test('text output: status line, headers, pretty body, issues', async () => {
  const r = await run(['one.lpreq', '--all-pages']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^GET http:\/\/127\.0\.0\.1:\d+\/api\/v1\/courses\/1\/modules {2}\[env local\]$/m);
  assert.match(r.stdout, /^HTTP 200 OK {2}\(\d+ ms, first byte \d+ ms, 3 pages\)$/m);
  assert.match(r.stdout, /^content-type: application\/json/m);
  assert.match(r.stdout, /^ {4}"name": "M1",$/m);
  assert.match(r.stdout, /Module\[\]: 1 difference from the documentation/);
  assert.match(r.stdout, /\$\[1\]\.items_count {2}type-mismatch/);
});

test('more than one request and no selector is a usage error listing them', async () => {
  const r = await run(['many.lpreq']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /--name list/);
  assert.match(r.stderr, /--line 6/);
  assert.match(r.stderr, /--name rename/);
  assert.equal(r.stdout, '');
});

test('--line and --name choose; a 404 exits 1 with the API error', async () => {
  const missing = await run(['many.lpreq', '--line', '6', '--format', 'json']);
  assert.equal(missing.code, 1);
  const out = JSON.parse(missing.stdout) as { status: number; error: { kind: string; message: string }; body: unknown };
  assert.equal(out.status, 404);
  assert.equal(out.error.kind, 'http');
  assert.ok(
    out.error.message.includes('The specified resource does not exist'),
    "the error carries the API's own message",
  );
  const list = await run(['many.lpreq', '--name', 'list', '--format', 'json']);
  assert.equal(list.code, 0);
});

test('checker errors go to stderr first, and the request is sent anyway', async () => {
  const r = await run(['many.lpreq', '--name', 'rename']);
  assert.equal(r.code, 0);
  assert.match(r.stderr, /many\.lpreq:13:\d+ error invalid-type/);
  assert.match(r.stdout, /sent with 1 checker error/);
  assert.equal(api.received.at(-1)?.body, 'module[name]=New+name+%26+more&module[published]=maybe');
});

test('failures and bad arguments', async () => {
  const refused = await run(['one.lpreq', '--env', 'other', '--timeout', '2000', '--format', 'json']);
  assert.equal(refused.code, 1);
  assert.equal((JSON.parse(refused.stdout) as { error: { kind: string } }).error.kind, 'refused');
  for (const args of [
    ['one.lpreq', '--timeout', 'soon'],
    ['one.lpreq', '--env', 'nope'],
    ['nope.lpreq'],
    ['many.lpreq', '--name', 'zz'],
    ['many.lpreq', '--line', '1', '--name', 'list'],
    ['one.lpreq', '--format', 'xml'],
    ['one.lpreq', '--bogus'],
  ]) {
    const r = await run(args);
    assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
    assert.match(r.stderr, /lpreq/);
  }
});

test('--history writes the exchange, without the token', async () => {
  const historyDir = join(dir, 'hist');
  const r = await run(['one.lpreq', '--history', historyDir, '--format', 'json'], { LPREQ_TOKEN: TOKEN });
  assert.equal(r.code, 0);
  const files = readdirSync(historyDir);
  assert.ok(files.includes('index.jsonl'));
  assert.equal(files.filter((f) => f.endsWith('.json')).length, 1);
  for (const f of files) assert.ok(!readFileSync(join(historyDir, f), 'utf8').includes(TOKEN));
});

test('--prompt takes NAME=VALUE; without a terminal a prompt variable that is not given is named, and nothing is sent', async () => {
  writeFileSync(join(dir, 'prompt.lpreq'), '# @prompt course\nGET /api/v1/courses/{{course}}/modules\n');
  const bad = await run(['prompt.lpreq', '--prompt', 'course']);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /--prompt takes NAME=VALUE/);
  const missing = await run(['prompt.lpreq', '--format', 'json']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /--prompt course=VALUE/);
  assert.equal(JSON.parse(missing.stdout).status, null);
  const given = await run(['prompt.lpreq', '--prompt', 'course=1', '--format', 'json']);
  assert.equal(given.code, 0);
  assert.equal(JSON.parse(given.stdout).status, 200);
});

test('a binary body file (< ./blob.png) arrives byte for byte; <@ refuses it, since its variables cannot be replaced', async () => {
  const blob = Buffer.from([
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80, 0xc3, 0x28, 0x7b, 0x7b,
  ]);
  writeFileSync(join(dir, 'blob.png'), blob);
  writeFileSync(join(dir, 'upload.lpreq'), 'POST {{base_url}}/upload\n\n< ./blob.png\n');
  const sent = await run(['upload.lpreq', '--format', 'json'], { LPREQ_TOKEN: TOKEN });
  assert.equal(sent.code, 0, sent.stderr);
  const body = JSON.parse(sent.stdout).body as { bytes: number[]; contentType: string; authorization: string | null };
  assert.deepEqual(body.bytes, [...blob]);
  assert.equal(body.contentType, 'image/png');
  writeFileSync(join(dir, 'upload-vars.lpreq'), 'POST {{base_url}}/upload\n\n<@ ./blob.png\n');
  const refused = await run(['upload-vars.lpreq', '--format', 'json'], { LPREQ_TOKEN: TOKEN });
  assert.equal(refused.code, 1);
  const error = JSON.parse(refused.stdout) as { status: number | null; error: { kind: string; message: string } };
  assert.equal(error.status, null);
  assert.equal(error.error.kind, 'prepare');
  assert.ok(error.error.message.includes('blob.png'), 'the error names the body file');
});

test('without an environment the token goes nowhere, whatever base_url the file gives', async () => {
  const bare = tempDir('noenv');
  try {
    writeFileSync(join(bare, 'file-base.lpreq'), `@base_url = ${api.origin}\nGET {{base_url}}/echo\n`);
    const r = await run([join(bare, 'file-base.lpreq'), '--format', 'json'], { LPREQ_TOKEN: TOKEN });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).body.authorization, null);
    assert.match(r.stderr + r.stdout, /token is not sent/);
  } finally {
    rmSync(bare, { recursive: true, force: true });
  }
});

test('# @note, on the request or one it refers to: at a terminal the command asks before sending, and sends only on yes', async () => {
  const { run: runSend } = await import('../../server/src/cli/sendCommand');
  writeFileSync(
    join(dir, 'noted.lpreq'),
    '# @name first\n# @note Changes the course\nGET {{base_url}}/echo\n###\n# @name second\nGET {{base_url}}/echo?x={{first.response.body.$.query}}\n',
  );
  for (const [name, answer, code] of [
    ['first', 'n', 1],
    ['first', '', 1],
    ['first', undefined, 1],
    ['first', 'yes', 0],
    ['second', 'n', 1],
    ['second', 'y', 0],
  ] as const) {
    const out = captureIo({ cwd: dir, env: { PATH: process.env.PATH ?? '' }, ask: () => answer });
    const before = api.received.length;
    // Sent again each time, so that the question about `first` is asked (not read from the history).
    const result = await runSend(['noted.lpreq', '--name', name, '--format', 'json', '--resend-dependencies'], out.io);
    assert.equal(result, code, out.stdout);
    assert.equal(out.questions.length, 1);
    assert.match(out.questions[0], /^first is marked # @note \(Changes the course\)/);
    // Nothing at all is sent without a yes: not the noted request, not the one that refers to it.
    assert.equal(api.received.length - before, code === 0 ? (name === 'first' ? 1 : 2) : 0);
    if (code === 1) {
      const { status, error } = JSON.parse(out.stdout) as {
        status: number | null;
        error: { kind: string; message: string };
      };
      assert.equal(status, null);
      // The noted request is not sent; one that refers to it fails as its dependency did.
      assert.equal(error.kind, name === 'first' ? 'prepare' : 'dependency');
      assert.ok(error.message.includes('first'), 'the error names the noted request');
    }
  }
});

test('a request that refers to another reads its last response from the history, and sends it first only when there is none', async () => {
  const work = tempDir('chain');
  try {
    writeFileSync(
      join(work, 'http-client.env.json'),
      JSON.stringify({
        local: { base_url: api.origin },
        other: { base_url: api.origin.replace('127.0.0.1', 'localhost') },
      }),
    );
    writeFileSync(
      join(work, 'chain.lpreq'),
      '# @name create\nPOST {{base_url}}/create\n###\n# @name use\nGET {{base_url}}/echo?id={{create.response.body.$.id}}\n',
    );
    const file = join(work, 'chain.lpreq');
    const creates = () => api.received.filter((r) => r.url === '/create').length;
    const idUsed = (stdout: string) => (JSON.parse(stdout) as { body: { query: string } }).body.query;
    const before = creates();

    // First `create`, then `use` twice: create is sent once, and `use` reads its id from the default history.
    const first = await run([file, '--name', 'create', '--format', 'json'], { LPREQ_TOKEN: TOKEN });
    assert.equal(first.code, 0, first.stderr);
    const id = (JSON.parse(first.stdout) as { body: { id: number } }).body.id;
    const json = await run([file, '--name', 'use', '--format', 'json'], { LPREQ_TOKEN: TOKEN });
    assert.equal(json.code, 0, json.stderr);
    assert.equal(idUsed(json.stdout), `?id=${id}`);
    assert.equal(
      (JSON.parse(json.stdout) as { dependencies: { name: string; historyTime?: string }[] }).dependencies[0].name,
      'create',
    );
    assert.ok((JSON.parse(json.stdout) as { dependencies: { historyTime?: string }[] }).dependencies[0].historyTime);
    const text = await run([file, '--name', 'use'], { LPREQ_TOKEN: TOKEN });
    assert.match(
      text.stdout,
      /^\(used the response of 'create' from the history, sent at \d{4}-\d\d-\d\dT[^:]+:\d\d:\d\d\.\d+Z: 201; --resend-dependencies sends it again\)$/m,
    );
    assert.equal(creates() - before, 1, 'create was sent once');
    assert.ok(
      existsSync(join(work, '.lpreq', 'history', 'index.jsonl')),
      'the history is beside the environment files',
    );
    assert.match(readFileSync(join(work, '.lpreq', '.gitignore'), 'utf8'), /^\*$/m);
    for (const f of readdirSync(join(work, '.lpreq', 'history')))
      assert.ok(!readFileSync(join(work, '.lpreq', 'history', f), 'utf8').includes(TOKEN));

    // --resend-dependencies sends it again, and later runs read that newer response.
    const again = await run([file, '--name', 'use', '--resend-dependencies'], { LPREQ_TOKEN: TOKEN });
    assert.match(again.stdout, /^\(sent 'create' first: 201\)$/m);
    assert.equal(creates() - before, 2);
    assert.equal(
      idUsed((await run([file, '--name', 'use', '--format', 'json'], { LPREQ_TOKEN: TOKEN })).stdout),
      `?id=${id + 1}`,
    );

    // Another environment (another base_url origin) is another request: its own create is sent.
    const other = await run([file, '--name', 'use', '--env', 'other', '--format', 'json'], { LPREQ_TOKEN: TOKEN });
    assert.equal(idUsed(other.stdout), `?id=${id + 2}`);
    assert.equal(creates() - before, 3);

    // --no-history neither reads nor writes one; --history DIR reads and writes that folder.
    const none = await run([file, '--name', 'use', '--no-history', '--format', 'json'], { LPREQ_TOKEN: TOKEN });
    assert.equal(idUsed(none.stdout), `?id=${id + 3}`);
    const own = join(work, 'own-history');
    await run([file, '--name', 'use', '--history', own], { LPREQ_TOKEN: TOKEN });
    assert.equal(
      idUsed((await run([file, '--name', 'use', '--history', own, '--format', 'json'], { LPREQ_TOKEN: TOKEN })).stdout),
      `?id=${id + 4}`,
    );
    assert.equal(creates() - before, 5);
    assert.equal((await run([file, '--name', 'use', '--history', own, '--no-history'])).code, 2);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('a dependency whose last exchange in the history failed is sent again, and the output says why', async () => {
  const work = tempDir('chain');
  try {
    writeFileSync(join(work, 'http-client.env.json'), JSON.stringify({ local: { base_url: api.origin } }));
    writeFileSync(
      join(work, 'chain.lpreq'),
      '# @name missing\nGET {{base_url}}/api/v1/courses/1/modules/5\n###\n# @name use\nGET {{base_url}}/echo?x={{missing.response.headers.Content-Type}}\n',
    );
    const file = join(work, 'chain.lpreq');
    assert.equal((await run([file, '--name', 'missing'], { LPREQ_TOKEN: TOKEN })).code, 1);
    const r = await run([file, '--name', 'use'], { LPREQ_TOKEN: TOKEN });
    assert.match(r.stdout, /^\(sent 'missing' first: 404; its last exchange in the history answered 404\)$/m);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
});

test('a URL that carries the private token is not sent to another origin, and exits 1', async () => {
  const other = api.origin.replace('127.0.0.1', 'localhost');
  writeFileSync(join(dir, 'leak.lpreq'), `GET ${other}/echo?t={{token}}\n`);
  const before = api.received.length;
  const r = await run(['leak.lpreq', '--format', 'json']);
  assert.equal(r.code, 1);
  assert.equal(JSON.parse(r.stdout).error.kind, 'secret-elsewhere');
  assert.equal(api.received.length, before);
  assert.ok(!r.stdout.includes(PRIVATE_TOKEN) && !r.stderr.includes(PRIVATE_TOKEN));
});

test('--proxy that is not a URL and a token with a line break are bad arguments, named without the token', async () => {
  const proxy = await run(['one.lpreq', '--proxy', 'notaurl'], { LPREQ_TOKEN: TOKEN });
  assert.equal(proxy.code, 2);
  assert.match(proxy.stderr, /--proxy/);
  const before = api.received.length;
  const nl = await run(['one.lpreq'], { LPREQ_TOKEN: `${TOKEN}\n` });
  assert.equal(nl.code, 2);
  assert.match(nl.stderr, /LPREQ_TOKEN/);
  assert.ok(!nl.stderr.includes(TOKEN) && !nl.stdout.includes(TOKEN));
  // A token too short to tell from other text could not be kept out of output or from other hosts.
  const short = await run(['one.lpreq'], { LPREQ_TOKEN: 'abc' });
  assert.equal(short.code, 2);
  assert.match(short.stderr, /LPREQ_TOKEN/);
  assert.equal(api.received.length, before);
});

test('a protected environment: changing requests ask at a terminal, need --yes without one; reading ones just go', async () => {
  const { mkdirSync } = await import('node:fs');
  const { run: runSend } = await import('../../server/src/cli/sendCommand');
  const sub = join(dir, 'protected');
  mkdirSync(sub, { recursive: true });
  writeFileSync(
    join(sub, 'http-client.env.json'),
    JSON.stringify({ local: { base_url: api.origin, $protected: true } }),
  );
  writeFileSync(
    join(sub, 'req.lpreq'),
    'PUT /api/v1/courses/1/modules/6\n\nmodule[name] = x\n\n###\nGET /api/v1/courses/1/modules\n',
  );
  const file = join('protected', 'req.lpreq');
  let before = api.received.length;
  const refused = await run([file, '--line', '1', '--format', 'json'], { LPREQ_TOKEN: TOKEN });
  assert.equal(refused.code, 1);
  assert.match(refused.stderr, /--yes/);
  assert.equal(api.received.length, before);
  const reading = await run([file, '--line', '6'], { LPREQ_TOKEN: TOKEN });
  assert.equal(reading.code, 0, reading.stderr);
  before = api.received.length;
  const confirmed = await run([file, '--line', '1', '--yes'], { LPREQ_TOKEN: TOKEN });
  assert.equal(confirmed.code, 0, confirmed.stderr);
  assert.equal(api.received.length, before + 1);
  for (const [answer, code] of [
    ['n', 1],
    ['y', 0],
  ] as const) {
    const out = captureIo({
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', LPREQ_TOKEN: TOKEN },
      isTTY: true,
      ask: () => answer,
    });
    before = api.received.length;
    const result = await runSend([file, '--line', '1'], out.io);
    assert.equal(result, code);
    assert.equal(out.questions.length, 1);
    assert.equal(api.received.length - before, code === 0 ? 1 : 0);
  }
});
