/** What curl and the shell make of lpreq's encoding and of a copied cURL command: the same bytes as lpreq sends. */
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { run as runSend } from '../../server/src/cli/sendCommand';
import { encodeForm } from '../../server/src/sender/encoding';
import { toCurl } from '../../server/src/sender/curl';
import { prepareRequest } from '../../server/src/sender/prepare';
import { sendSetup } from '../../server/src/sender/setup';
import { tempDir } from '../helpers';
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
  server = await startServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('[]'));
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

/**
 * Issue 26, item 2: a copied command, run by the shell and the real curl, sends what `lpreq
 * send` sends: the same request target and the same body bytes, once. A body that starts
 * with `@` is no file upload, `@-` reads no standard input, and `[1-5]` in a query is no
 * range of five requests.
 */
/** Runs a command with `sh -c` without blocking this process (its server answers curl), standard input given. */
function shell(
  command: string,
  o: { cwd: string; env: NodeJS.ProcessEnv; input: string },
): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd: o.cwd, env: o.env, timeout: 20_000 });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stderr }));
    child.stdin.end(o.input);
  });
}

const HOSTILE: { label: string; text: string; files?: Record<string, string | Buffer> }[] = [
  {
    label: 'a body file with variables whose text is @/etc/passwd',
    text: 'POST /api/v1/courses/1/modules\nContent-Type: text/plain\n\n<@ ./note.txt\n',
    files: { 'note.txt': '@/etc/passwd' },
  },
  {
    label: 'a body file with variables whose text is @-',
    text: 'POST /api/v1/courses/1/modules\nContent-Type: text/plain\n\n<@ ./note.txt\n',
    files: { 'note.txt': '@-' },
  },
  {
    label: 'a body file sent as it is whose text is @/etc/passwd',
    text: 'POST /api/v1/courses/1/modules\nContent-Type: text/plain\n\n< ./note.txt\n',
    files: { 'note.txt': '@/etc/passwd' },
  },
  {
    label: 'a body file with quotes, $HOME, backquotes, CR LF, a tab, % and non-ASCII',
    text: 'POST /api/v1/courses/1/modules\nContent-Type: text/plain\n\n<@ ./note.txt\n',
    files: { 'note.txt': `it's "$HOME" \`id\` \\n 100%\r\nline two\tË ✓ 😀\n\n` },
  },
  {
    label: 'a body file with variables that holds a NUL, % and the token',
    text: 'POST /api/v1/courses/1/modules\nContent-Type: text/plain\n\n<@ ./note.txt\n',
    files: { 'note.txt': 'a\u0000b 100% \\0 {{$processEnv LPREQ_TOKEN}} end' },
  },
  {
    label: 'a binary body file',
    text: 'POST /api/v1/courses/1/files\nContent-Type: application/octet-stream\n\n< ./blob.bin\n',
    files: { 'blob.bin': Buffer.from([0x40, 0x2f, 0x00, 0xff, 0xfe, 0x0d, 0x0a, 0x27, 0x22, 0x80]) },
  },
  {
    label: 'a range and a set in the query',
    text: 'GET /api/v1/courses/1/modules?search_term=[1-5]&include[]=items&x={a,b}\n',
  },
  {
    label: 'a JSON body with quotes, a line break, $( ) and non-ASCII',
    text: `POST /api/v1/courses/1/modules\nContent-Type: application/json\n\n{"module": {"name": "@/etc/passwd it's \\"$(id)\\" Wëek ✓",\n  "position": 1}}\n`,
  },
  {
    label: 'a form value that starts with @',
    text: 'POST /api/v1/courses/1/modules\n\nmodule[name] = @/etc/passwd [1-5]\n',
  },
];

for (const c of HOSTILE) {
  test(`a copied command, run by curl, sends what lpreq send sends: ${c.label}`, async (t) => {
    if (!curl) return t.skip('curl is not installed');
    const dir = tempDir('curl-copy');
    writeFileSync(join(dir, 'r.lpreq'), c.text);
    for (const [name, content] of Object.entries(c.files ?? {})) writeFileSync(join(dir, name), content);
    writeFileSync(
      join(dir, 'http-client.env.json'),
      JSON.stringify({ dev: { base_url: server.origin }, staging: { base_url: 'https://staging.example.edu' } }),
    );
    const env = { LPREQ_TOKEN: TOKEN };
    const before = server.received.length;
    const code = await runSend([join(dir, 'r.lpreq'), '--env', 'dev', '--no-history'], {
      stdout: () => undefined,
      stderr: () => undefined,
      readStdin: () => '',
      isTTY: false,
      env,
      cwd: dir,
    });
    assert.equal(code, 0);
    assert.equal(server.received.length, before + 1);
    const sent = server.received[before];

    const setup = sendSetup(join(dir, 'r.lpreq'), { environment: 'dev', env, chooseWith: '--env' });
    const r = prepareRequest(testChecker(), doc(c.text), 0, {
      environments: setup.environments,
      system: setup.system,
      readFile: setup.readFile,
    });
    assert.ok(r.ok, r.ok ? '' : r.error);
    const command = toCurl(r.request, { token: TOKEN, secrets: r.secrets });
    // Run elsewhere, as a user pastes it, with something on standard input that `@-` would read.
    const ran = await shell(command.replace(/^curl /, 'curl -s -o /dev/null --noproxy "*" '), {
      cwd: tempDir('curl-elsewhere'),
      env: { PATH: process.env.PATH ?? '', LPREQ_TOKEN: TOKEN },
      input: 'what standard input holds',
    });
    assert.equal(ran.status, 0, `${command}\n${ran.stderr}`);
    assert.equal(server.received.length, before + 2, `curl sent ${server.received.length - before - 1} requests`);
    const copied = server.received[before + 1];
    assert.equal(copied.method, sent.method);
    assert.equal(copied.url, sent.url);
    assert.deepEqual(
      copied.raw,
      sent.raw,
      `${command}\nsent ${sent.raw.toString('latin1')}\ncurl ${copied.raw.toString('latin1')}`,
    );
    assert.equal(copied.headers['content-type'], sent.headers['content-type']);
    assert.equal(copied.headers.authorization, `Bearer ${TOKEN}`);
    assert.match(command, /--globoff/);
  });
}
