/**
 * The property of issues 17 and 26: a secret (the token, another environment's token, a
 * secret prompt answer, a value of the private environment file), placed in any part of a
 * request (URL path, query, header name, header value, Host, form value, JSON body, body file)
 * through a variable, a system variable or a file, and written in any spelling the scrubber
 * knows, sent to another origin directly, through a redirect, through a next-page link, or to
 * base_url's address under another Host, never reaches a server but base_url's origin, the
 * output, the history or a spill file. Another environment's token reaches no server at all.
 * The private file's default header (a secret in every case) likewise.
 *
 * The same holds for what is copied from the request: the cURL command (written, then run by
 * the shell and the real curl against the same servers), and the generated fetch and Python
 * programs (written, then run with a fetch and a `requests` of this test that record what
 * they would send): none writes a secret, and what they send when run, with the token and the
 * private header in their environment variables, goes where the sender's would.
 *
 * `lpreq send` runs in-process against two loopback servers; base_url's server echoes what
 * it receives in several spellings (in the body, a header value and header names), in a
 * documented field of the wrong type (so that typed-check issues quote it), and in some runs
 * pads its answer over the body limit (so that it is cut and spilled): output, history and
 * spill files are tried too.
 * Leaks are looked for with a decoder of this test's own, not with secrets.ts. A fixed seed
 * and a bounded number of runs: it stops by itself.
 *
 * The same property for an environment that signs in (OAuth 2.0 client credentials against a
 * token endpoint of this test on another loopback origin, issue 33): the sign-in's access and ID
 * tokens go to base_url's origin alone, its refresh token and the client secret to no server
 * but the token endpoint; none of them is in the output, the history or a spill file.
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { run } from '../../server/src/cli/sendCommand';
import { bodyFileReader } from '../../server/src/node/bodyFile';
import { loadEnvironmentFiles } from '../../server/src/node/environments';
import { toCode } from '../../server/src/sender/codegen';
import { privateHeaderVariable, toCurl } from '../../server/src/sender/curl';
import { CopyRefused } from '../../server/src/sender/outgoing';
import { prepareRequest } from '../../server/src/sender/prepare';
import { parseDotenv } from '../../server/src/sender/variables';
import { tempDir } from '../helpers';
import { captureIo } from '../io';
import { fuzzRuns } from '../fuzzRuns';
import { doc, json, startServer, testChecker, type Received, type TestServer } from '../sender/server';

const RUNS = fuzzRuns(200);
/** Padding of base_url's answers: over the body limit (spilled, not typed), or none (typed, with issues that quote the echo). */
let padding = 0;
let base: TestServer;
let other: TestServer;
/** The token endpoint of the OAuth property: it issues the tokens of the case at hand. */
let tokenServer: TestServer;
const spillRoot = tempDir('property-spill');
/** A workspace a case: a generated program reads its body file when it runs, after the property. */
const workspaces = tempDir('property-ws');
/** The header of the private file's `$defaultHeaders` of every case, its value a secret. */
const PRIVATE_HEADER = 'X-Private-Key';
const previousTmp = process.env.TMPDIR;

/** Every UTF-16 unit of a text as a JSON `\u` escape. */
const uEscape = (text: string) => [...text].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
const pct = (text: string, lower = false) =>
  [...Buffer.from(text, 'utf8')]
    .map((b) => `%${b.toString(16).padStart(2, '0')[lower ? 'toLowerCase' : 'toUpperCase']()}`)
    .join('');

/** The spellings of a secret the scrubber knows, as a server or a file writes them. */
const SPELLINGS: Record<string, (s: string) => string> = {
  'as it is': (s) => s,
  'upper case': (s) => s.toUpperCase(),
  'lower case': (s) => s.toLowerCase(),
  'percent-encoded, upper': (s) => pct(s),
  'percent-encoded, lower': (s) => pct(s, true),
  'form-encoded': (s) => encodeURIComponent(s).replace(/%20/g, '+'),
  'JSON \\u escapes': uEscape,
  'JSON \\/': (s) => s.replace(/\//g, '\\/'),
  'a mix': (s) => [...s].map((c, i) => (i % 3 === 0 ? pct(c) : i % 3 === 1 ? uEscape(c) : c)).join(''),
};

type Kind = 'token' | 'foreign' | 'prompt' | 'private';
/** How a secret of each kind gets into the request's text: `{{...}}` of a variable or a system variable (`.env` values are written spelled). */
const CARRIERS: Record<Kind, string[]> = {
  token: ['{{token}}', '{{$processEnv LPREQ_TOKEN}}', '{{%token}}', '{{$dotenv SPELLED_TOKEN}}'],
  foreign: ['{{$dotenv PROD_TOKEN}}'],
  prompt: ['{{password}}', '{{%password}}'],
  // A variable of the private file whose name does not look secret.
  private: ['{{account}}', '{{%account}}'],
};
const PARTS = [
  'path',
  'query',
  'header name',
  'header value',
  'Host',
  'form value',
  'JSON body',
  'body file',
  'body file with variables',
] as const;
const ROUTES = [
  'directly',
  'through a 307',
  'through a next-page link',
  'under another Host',
  "to base_url's origin",
] as const;

/** The texts a leak could hide in, decoded as a server could decode them: percent (`+` a space), JSON escapes, each up to twice, in any order. */
function decodings(text: string): string[] {
  const percent = (t: string) => t.replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  const json = (t: string) =>
    t
      .replace(/\\u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
      .replace(/\\(["/\\])/g, '$1');
  const steps = [percent, (t: string) => percent(t.replace(/\+/g, ' ')), json];
  let all = [text];
  for (let depth = 0; depth < 2; depth++) all = [...new Set([...all, ...all.flatMap((t) => steps.map((f) => f(t)))])];
  return all;
}
function leaks(text: string, secret: string): boolean {
  return decodings(text).some((d) => d.toLowerCase().includes(secret.toLowerCase()));
}
const partsOf = (r: Received) => [
  r.method,
  r.url,
  r.body,
  r.raw.toString('latin1'),
  ...Object.entries(r.headers).flatMap(([n, v]) => [n, String(v)]),
];

before(async () => {
  process.env.TMPDIR = spillRoot;
  tokenServer = await startServer((req, res) => {
    const basic = /^Basic (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    const [id, secret] = Buffer.from(basic ?? '', 'base64')
      .toString('utf8')
      .split(':')
      .map(decodeURIComponent);
    if (issuing === undefined || id !== 'lpreq-test' || secret !== issuing.client)
      return json(res, 401, { error: 'invalid_client' });
    return json(res, 200, {
      access_token: issuing.access,
      token_type: 'Bearer',
      expires_in: 3600,
      refresh_token: issuing.refresh,
      id_token: issuing.id,
    });
  });
  other = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[]');
  });
  base = await startServer((req, res) => {
    if (req.url.startsWith('/r307/')) {
      res.writeHead(307, { location: `${other.origin}${req.url.slice(5)}` });
      res.end();
      return;
    }
    // Everything it received, echoed: as it is, percent-encoded and \u-escaped in the body,
    // in a header value, and each header value that can be a header name as one.
    const seen = partsOf(req).join('\n');
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'x-echo-url': req.url,
      link: `<${other.origin}${req.url}>; rel="next"`,
    };
    for (const v of Object.values(req.headers))
      if (typeof v === 'string' && /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,200}$/.test(v)) headers[`x-e-${v}`] = '1';
    // Typed-check issues quote it too: a documented field of the wrong type or value, and undocumented keys.
    const keys = Object.fromEntries(Object.entries(req.headers).map(([n, v]) => [`${n} ${String(v)}`, 1]));
    const module = {
      id: 1,
      name: 'M',
      position: 1,
      items_count: seen,
      workflow_state: req.url,
      echo: seen,
      percent: encodeURIComponent(seen),
      escaped: 'ESCAPED',
      ...keys,
      padding: 'p'.repeat(padding),
    };
    const body = JSON.stringify([module]).replace('"ESCAPED"', `"${uEscape(seen)}"`);
    try {
      res.writeHead(200, headers);
    } catch {
      res.writeHead(200, { 'content-type': 'application/json' });
    }
    res.end(body);
  });
});
after(async () => {
  if (previousTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previousTmp;
  await base.close();
  await other.close();
  await tokenServer.close();
});

interface Case {
  /** Each kind's secret, and `header`: the private file's default header's value. */
  secrets: Record<Kind | 'header', string>;
  kind: Kind;
  carrier: number;
  part: (typeof PARTS)[number];
  spelling: string;
  route: (typeof ROUTES)[number];
  format: 'text' | 'json';
  big: boolean;
}

/** The request file of a case. */
function requestText(c: Case, spelled: string): { text: string; bodyFile?: string } {
  const ref = CARRIERS[c.kind][c.carrier % CARRIERS[c.kind].length];
  const prefix = c.route === 'directly' ? '{{other}}' : c.route === 'through a 307' ? '/r307' : '';
  const path = c.part === 'path' ? `/api/v1/courses/${ref}/modules` : '/api/v1/courses/1/modules';
  const query = c.part === 'query' ? `?q=${ref}` : '';
  const hasBody = ['form value', 'JSON body', 'body file', 'body file with variables'].includes(c.part);
  const headers: string[] = [];
  if (c.part === 'header name') headers.push(`X-${ref}: 1`);
  if (c.part === 'header value') headers.push(`X-Leak: key ${ref}`);
  if (c.part === 'Host') headers.push(`Host: ${ref}`);
  else if (c.route === 'under another Host') headers.push('Host: other.test');
  if (c.part === 'JSON body') headers.push('Content-Type: application/json');
  if (c.part.startsWith('body file')) headers.push('Content-Type: text/plain');
  let body = '';
  let bodyFile: string | undefined;
  if (c.part === 'form value') body = `\nmodule[name] = ${ref}\n`;
  if (c.part === 'JSON body') body = `\n{"module": {"name": "${ref}"}}\n`;
  if (c.part === 'body file') {
    body = '\n< ./body.txt\n';
    bodyFile = `payload ${spelled}`;
  }
  if (c.part === 'body file with variables') {
    body = '\n<@ ./body.txt\n';
    bodyFile = `payload ${ref}`;
  }
  const text = `@other = ${other.origin}\n\n# @prompt password\n${hasBody ? 'POST' : 'GET'} ${prefix}${path}${query}\n${headers.map((h) => `${h}\n`).join('')}${body}`;
  return { text, bodyFile };
}

/** Every file under `dir` as text (none when it does not exist). */
function filesUnder(dir: string): { name: string; text: string }[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => ({ name: join(e.parentPath, e.name), text: readFileSync(join(e.parentPath, e.name), 'latin1') }));
  } catch {
    return [];
  }
}

/** What a copy sent, or would send when run: to this URL (and Host), these headers, this body. */
interface Sent {
  url: string;
  headers: [string, string][];
  body: string;
  /** A program that follows redirects on its own (fetch's and requests' default). */
  follows?: boolean;
}

/** A generated program of a case: the JavaScript run at once, the Python after the property (all in one process). */
interface Program {
  c: Case;
  language: 'javascript' | 'python';
  code: string;
  label: string;
}
const programs: Program[] = [];

/**
 * What a copy sends (or would send) may go where the sender's requests may: every secret only
 * to base_url's origin, connected to as itself; another environment's token nowhere. A
 * program that sends a secret does not follow redirects by itself (they would take its
 * headers to another origin).
 */
function checkSent(c: Case, sent: Sent, how: string, label: string): void {
  const host = sent.headers.find(([n]) => n.toLowerCase() === 'host')?.[1];
  let origin = '';
  try {
    origin = new URL(sent.url).origin;
  } catch {
    // Not a URL: it goes nowhere a secret may.
  }
  const atBase = origin === base.origin && (host === undefined || host === new URL(base.origin).host);
  const all = Object.values(c.secrets);
  const parts = [sent.url, sent.body, ...sent.headers.flatMap(([n, v]) => [n, v])];
  for (const s of atBase ? [c.secrets.foreign] : all)
    for (const p of parts)
      assert.ok(
        !leaks(p, s),
        `${how} sends a secret to ${atBase ? 'base_url' : sent.url}: ${p.slice(0, 200)}\n${label}`,
      );
  if (sent.follows) {
    for (const s of all)
      for (const p of parts)
        assert.ok(!leaks(p, s), `${how} follows redirects with a secret: ${p.slice(0, 200)}\n${label}`);
  }
}

/** Runs a command with `sh -c` (the servers of this process answer meanwhile). */
function shell(
  command: string,
  env: NodeJS.ProcessEnv,
  cwd: string,
): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { cwd, env, timeout: 20_000 });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (status) => resolve({ status, stderr }));
    child.stdin.end();
  });
}

/** The environment a copy runs with: the token and the private header where they read them. */
const copyEnv = (c: Case) => ({
  PATH: process.env.PATH ?? '',
  LPREQ_TOKEN: c.secrets.token,
  [privateHeaderVariable(PRIVATE_HEADER)]: c.secrets.header,
});

const curlInstalled = spawnSync('curl', ['--version']).status === 0;
const python = spawnSync('python3', ['--version']).status === 0;

async function check(c: Case): Promise<void> {
  const secret = c.secrets[c.kind];
  const spelled = SPELLINGS[c.spelling](secret);
  const { text, bodyFile } = requestText(c, spelled);
  const workspace = mkdtempSync(join(workspaces, 'case-'));
  const file = join(workspace, 'r.lpreq');
  writeFileSync(file, text);
  writeFileSync(join(workspace, 'body.txt'), bodyFile ?? 'none');
  writeFileSync(
    join(workspace, 'http-client.env.json'),
    JSON.stringify({ local: { base_url: base.origin }, prod: { base_url: 'https://lms.example.edu' } }),
  );
  writeFileSync(
    join(workspace, 'http-client.private.env.json'),
    JSON.stringify({
      local: {
        token: c.secrets.token,
        account: c.secrets.private,
        $defaultHeaders: { [PRIVATE_HEADER]: c.secrets.header },
      },
      prod: { token: c.secrets.foreign },
    }),
  );
  const dotenv = `SPELLED_TOKEN=${SPELLINGS[c.spelling](c.secrets.token)}\nPROD_TOKEN=${SPELLINGS[c.spelling](c.secrets.foreign)}\n`;
  writeFileSync(join(workspace, '.env'), dotenv);

  const seenBefore = { base: base.received.length, other: other.received.length };
  const captured = captureIo({ cwd: workspace, env: { LPREQ_TOKEN: c.secrets.token } });
  padding = c.big ? 3000 : 0;
  const args = [
    file,
    '--format',
    c.format,
    ...(c.big ? ['--max-body-size', '1024'] : []),
    '--prompt',
    `password=${c.secrets.prompt}`,
    ...(c.route === 'through a next-page link' ? ['--all-pages'] : []),
  ];
  const code = await run(args, captured.io);
  const out = captured.stdout + captured.stderr;
  const label = `${JSON.stringify(c)}\n${text}\n${out.slice(0, 2000)}`;
  assert.ok(code === 0 || code === 1, `exit ${code}: ${label}`);

  const all = Object.values(c.secrets);
  // No server but base_url's origin receives any secret; base_url's origin receives no other environment's token.
  const baseHost = new URL(base.origin).host;
  for (const r of [...other.received.slice(seenBefore.other), ...base.received.slice(seenBefore.base)]) {
    const atBase = base.received.includes(r) && r.headers.host === baseHost;
    for (const s of atBase ? [c.secrets.foreign] : all) {
      for (const p of partsOf(r))
        assert.ok(
          !leaks(p, s),
          `a server (${atBase ? 'base_url' : 'another origin'}) received a secret in ${p.slice(0, 200)}\n${label}`,
        );
    }
  }
  // Nor the output, the history, a spill file.
  for (const s of all) assert.ok(!leaks(out, s), `the output holds a secret\n${label}`);
  for (const f of [...filesUnder(join(workspace, '.lpreq')), ...filesUnder(spillRoot)]) {
    for (const s of all) assert.ok(!leaks(f.text, s), `${f.name} holds a secret\n${label}`);
  }

  // Nor what is copied, made as the editor makes it: the cURL command and the programs.
  const files = loadEnvironmentFiles(workspace);
  const prepared = prepareRequest(testChecker(), doc(text), 0, {
    environments: {
      environments: files.environments,
      selected: 'local',
      options: files.options,
      privateNames: files.privateNames,
    },
    system: { processEnv: { LPREQ_TOKEN: c.secrets.token }, dotenv: parseDotenv(dotenv), projectRoot: workspace },
    prompts: new Map([['password', c.secrets.prompt]]),
    readFile: bodyFileReader(file, files),
  });
  if (!prepared.ok) return;
  const options = { token: c.secrets.token, secrets: prepared.secrets, foreignSecrets: prepared.foreignSecrets };
  const copy = (make: () => string): string | undefined => {
    try {
      return make();
    } catch (e) {
      // What the sender refuses is not copied.
      if (e instanceof CopyRefused) return undefined;
      throw e;
    }
  };
  const command = copy(() => toCurl(prepared.request, options));
  for (const language of ['javascript', 'python'] as const) {
    const code = copy(() => toCode(prepared.request, language, options));
    if (code === undefined) continue;
    for (const s of all) assert.ok(!leaks(code, s), `the ${language} program holds a secret:\n${code}\n${label}`);
    const program = { c, language, code, label };
    if (language === 'python') programs.push(program);
    else {
      const sent = await runJavaScript(program);
      if (sent) checkSent(c, sent, 'the JavaScript program', `${code}\n${label}`);
    }
  }
  if (command === undefined) return;
  for (const s of all) assert.ok(!leaks(command, s), `the copied command holds a secret: ${command}\n${label}`);
  if (!curlInstalled) return;
  // Run as a user runs it, with the token and the private header in their variables.
  const before = { base: base.received.length, other: other.received.length };
  const ran = await shell(
    command.replace(/\bcurl --globoff /, 'curl -s -o /dev/null --noproxy "*" --globoff '),
    copyEnv(c),
    workspace,
  );
  assert.equal(ran.status, 0, `${command}\n${ran.stderr}\n${label}`);
  const arrived = [...base.received.slice(before.base), ...other.received.slice(before.other)];
  assert.equal(arrived.length, 1, `the copied command sent ${arrived.length} requests\n${label}`);
  const r = arrived[0];
  const origin = base.received.includes(r) ? base.origin : other.origin;
  checkSent(
    c,
    {
      url: `${origin}${r.url}`,
      headers: Object.entries(r.headers).map(([n, v]): [string, string] => [n, String(v)]),
      body: r.raw.toString('latin1'),
    },
    'the copied command',
    `${command}\n${label}`,
  );
}

/**
 * The generated JavaScript run in this process, as a function of `fetch`, `process` and
 * `console` (a fetch that records and answers 200): what it would send, or nothing when it stops.
 */
async function runJavaScript(p: Program): Promise<Sent | undefined> {
  const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
    ...args: string[]
  ) => (...values: unknown[]) => Promise<void>;
  const body = p.code.replace(/\nmain\(\);\n$/, '\nawait main();\n');
  assert.notEqual(body, p.code, 'the program ends with main();');
  let sent: Sent | undefined;
  const fetch = async (url: string, init: { headers: [string, string][]; body?: unknown; redirect?: string }) => {
    const b = init.body;
    sent = {
      url,
      headers: init.headers,
      body: typeof b === 'string' ? b : b instanceof Uint8Array ? Buffer.from(b).toString('latin1') : '',
      follows: init.redirect !== 'manual',
    };
    return { status: 200, statusText: 'OK', text: async () => '' };
  };
  await new AsyncFunction('fetch', 'process', 'console', body)(fetch, { env: copyEnv(p.c) }, { log: () => undefined });
  return sent;
}

/** A `requests` module for Python that records the one request a program makes, as JSON on standard output. */
const FAKE_REQUESTS = `
import json, os, runpy, sys, types
fake = types.ModuleType("requests")
def request(method, url, headers=None, data=None, allow_redirects=True, **rest):
    if hasattr(data, "read"):
        data = data.read()
    if isinstance(data, bytes):
        data = data.decode("latin-1")
    print(json.dumps({"url": url, "headers": list((headers or {}).items()), "body": data or "", "follows": allow_redirects}))
    return types.SimpleNamespace(status_code=200, reason="OK", text="")
fake.request = request
sys.modules["requests"] = fake
for line in sys.stdin:
    job = json.loads(line)
    os.environ.clear()
    os.environ.update(job["env"])
    saved = sys.stdout
    try:
        runpy.run_path(job["file"], run_name="__main__")
    except SystemExit:
        print(json.dumps(None))
    sys.stdout = saved
    sys.stdout.flush()
`;

/** Every generated Python program run in one python3 process, with FAKE_REQUESTS: what each would send. */
function runPython(list: Program[]): (Sent | null)[] {
  const dir = tempDir('property-py');
  const jobs = list.map((p, i) => {
    const file = join(dir, `p${i}.py`);
    // The program's own two print lines are left out: the fake prints what it was asked to send.
    writeFileSync(file, p.code.replace(/^print\(.*\)$/gm, ''));
    return JSON.stringify({ file, env: copyEnv(p.c) });
  });
  writeFileSync(join(dir, 'fake.py'), FAKE_REQUESTS);
  const r = spawnSync('python3', [join(dir, 'fake.py')], {
    input: `${jobs.join('\n')}\n`,
    encoding: 'utf8',
    timeout: 120_000,
  });
  assert.equal(r.status, 0, r.stderr);
  const lines = r.stdout.split('\n').filter((l) => l.length > 0);
  assert.equal(lines.length, list.length, r.stdout.slice(0, 2000));
  return lines.map((l) => JSON.parse(l) as Sent | null);
}

/** Secrets as tokens and answers are written: letters and digits with `/+=._~-` (and a space, `@` or `!` in an answer). */
const secretOf = (alphabet: string) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: 8, maxLength: 18 }).map((cs) => `K${cs.join('')}9`);
const TOKEN_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/+=._~-';

test(`a secret in any part of a request, in any spelling, by any route, reaches only base_url's origin and nothing written, copies included (${RUNS} runs)`, async () => {
  const secrets = fc
    .record({
      token: secretOf(TOKEN_CHARS),
      foreign: secretOf(TOKEN_CHARS),
      prompt: secretOf(`${TOKEN_CHARS} @!`),
      private: secretOf(TOKEN_CHARS),
      header: secretOf(TOKEN_CHARS),
    })
    .filter((s) => {
      const all = Object.values(s).map((x) => x.toLowerCase());
      return all.every((a, i) => all.every((b, j) => i === j || !a.includes(b)));
    });
  programs.length = 0;
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        secrets,
        kind: fc.constantFrom<Kind>('token', 'foreign', 'prompt', 'private'),
        carrier: fc.nat(3),
        part: fc.constantFrom(...PARTS),
        spelling: fc.constantFrom(...Object.keys(SPELLINGS)),
        route: fc.constantFrom(...ROUTES),
        format: fc.constantFrom<'text' | 'json'>('text', 'json'),
        big: fc.boolean(),
      }),
      check,
    ),
    { numRuns: RUNS, seed: 20261126, endOnFailure: true, includeErrorInReport: true },
  );
  // The generated Python programs, run after the property in one process.
  if (!python || programs.length === 0) return;
  runPython(programs).forEach((sent, i) => {
    if (sent) checkSent(programs[i].c, sent, 'the Python program', `${programs[i].code}\n${programs[i].label}`);
  });
});

/** The secrets of a sign-in: the tokens the token endpoint issues, and the client secret it is asked with. */
type OAuthKind = 'access' | 'id' | 'refresh' | 'client';
/** The token LPREQ_TOKEN gives when a case sets it. */
const PASTED_TOKEN = 'pasted-token-0b9f2c';
/** What the token endpoint issues now (the case at hand's). */
let issuing: Record<OAuthKind, string> | undefined;
/** How a sign-in's secret gets into a request's text: `$auth` of the sign-in, or a `.env` value written spelled. */
const OAUTH_CARRIERS: Record<OAuthKind, string[]> = {
  access: ['{{$auth.token("lms")}}', '{{$dotenv SPELLED_ACCESS}}'],
  id: ['{{$auth.idToken("lms")}}', '{{$dotenv SPELLED_ID}}'],
  refresh: ['{{$dotenv SPELLED_REFRESH}}'],
  client: ['{{$dotenv SPELLED_CLIENT}}', '{{$processEnv LMS_CLIENT_SECRET}}'],
};

interface OAuthCase {
  secrets: Record<OAuthKind, string>;
  kind: OAuthKind;
  carrier: number;
  part: (typeof PARTS)[number];
  spelling: string;
  route: (typeof ROUTES)[number];
  /** Where the private file's Client Secret is: written in it, or a reference to `.env`. */
  clientSecret: 'written' | 'from .env';
  /**
   * The environment's sign-in: its own (signed in before the send), its own with LPREQ_TOKEN set
   * (no sign-in unless `$auth` asks), or two configurations (none its own: `$auth` signs in).
   */
  signIn: 'own' | 'LPREQ_TOKEN set' | 'two configurations';
  format: 'text' | 'json';
  big: boolean;
}

async function checkOAuth(c: OAuthCase): Promise<void> {
  const secret = c.secrets[c.kind];
  const spelled = SPELLINGS[c.spelling](secret);
  const carriers = OAUTH_CARRIERS[c.kind];
  const ref = carriers[c.carrier % carriers.length];
  // The request of the pasted-token property, with this carrier in place of the token's.
  const { text: pasted, bodyFile } = requestText(
    {
      ...c,
      kind: 'token',
      carrier: 0,
      secrets: { ...c.secrets, token: '', foreign: '', prompt: '', private: '', header: '' },
    },
    spelled,
  );
  // Without a sign-in of its own, the environment signs in when `$auth` asks: a header asks for the tokens to be
  // issued (the other configuration's, when there are two), but not for the client secret with LPREQ_TOKEN set, which
  // is a secret of the files before any sign-in.
  const asking =
    c.signIn === 'two configurations'
      ? 'admin'
      : c.signIn === 'LPREQ_TOKEN set' && c.kind !== 'client'
        ? 'lms'
        : undefined;
  const text = pasted
    .replaceAll('{{token}}', ref)
    .replace(/^(GET|POST) .*$/m, (line) =>
      asking === undefined ? line : `${line}\nX-Signed-In: {{$auth.token("${asking}")}}`,
    );
  const workspace = mkdtempSync(join(workspaces, 'oauth-'));
  const file = join(workspace, 'r.lpreq');
  writeFileSync(file, text);
  writeFileSync(join(workspace, 'body.txt'), (bodyFile ?? 'none').replaceAll('{{token}}', ref));
  const tokenUrl = `${tokenServer.origin}/token`;
  const settings = {
    Type: 'OAuth2',
    'Grant Type': 'Client Credentials',
    'Token URL': tokenUrl,
    'Client ID': 'lpreq-test',
  };
  writeFileSync(
    join(workspace, 'http-client.env.json'),
    JSON.stringify({
      dev: {
        base_url: base.origin,
        Security: { Auth: { lms: settings, ...(c.signIn === 'two configurations' ? { admin: settings } : {}) } },
      },
      staging: { base_url: 'https://lms.example.edu' },
    }),
  );
  const clientSecret = c.clientSecret === 'written' ? c.secrets.client : '{{$dotenv CLIENT_SECRET}}';
  const privateSettings = { 'Token URL': tokenUrl, 'Client Secret': clientSecret };
  writeFileSync(
    join(workspace, 'http-client.private.env.json'),
    JSON.stringify({
      dev: {
        Security: {
          Auth: { lms: privateSettings, ...(c.signIn === 'two configurations' ? { admin: privateSettings } : {}) },
        },
      },
    }),
  );
  const spell = SPELLINGS[c.spelling];
  writeFileSync(
    join(workspace, '.env'),
    [
      `CLIENT_SECRET=${c.secrets.client}`,
      ...(['access', 'id', 'refresh', 'client'] as const).map(
        (k) => `SPELLED_${k.toUpperCase()}=${spell(c.secrets[k])}`,
      ),
      '',
    ].join('\n'),
  );

  const seenBefore = { base: base.received.length, other: other.received.length, token: tokenServer.received.length };
  const captured = captureIo({
    cwd: workspace,
    env: {
      LMS_CLIENT_SECRET: c.secrets.client,
      ...(c.signIn === 'LPREQ_TOKEN set' ? { LPREQ_TOKEN: PASTED_TOKEN } : {}),
    },
  });
  padding = c.big ? 3000 : 0;
  issuing = c.secrets;
  const args = [
    file,
    '--env',
    'dev',
    '--format',
    c.format,
    ...(c.big ? ['--max-body-size', '1024'] : []),
    '--prompt',
    'password=not-a-secret-here',
    ...(c.route === 'through a next-page link' ? ['--all-pages'] : []),
  ];
  const code = await run(args, captured.io);
  issuing = undefined;
  const out = captured.stdout + captured.stderr;
  const label = `${JSON.stringify(c)}\n${text}\n${out.slice(0, 2000)}`;
  assert.ok(code === 0 || code === 1, `exit ${code}: ${label}`);
  const signIns = tokenServer.received.slice(seenBefore.token);
  assert.ok(signIns.length <= (c.signIn === 'two configurations' ? 2 : 1), `one sign-in a process\n${label}`);
  // A sign-in's token asked for by `$auth` where it may go is sent, wherever the reference is (a body file's too).
  const byAuth = ref.startsWith('{{$auth');
  if (
    byAuth &&
    c.route === "to base_url's origin" &&
    ['query', 'header value', 'form value', 'JSON body', 'body file with variables'].includes(c.part)
  ) {
    assert.equal(code, 0, `not sent: ${label}`);
    const arrived = base.received.slice(seenBefore.base);
    assert.ok(
      arrived.length === 1 && partsOf(arrived[0]).some((p) => leaks(p, secret)),
      `the token was not sent\n${label}`,
    );
  }

  const all = Object.values(c.secrets);
  const baseHost = new URL(base.origin).host;
  // base_url's origin may receive the access and ID tokens; no server the refresh token or the client secret.
  for (const r of [...other.received.slice(seenBefore.other), ...base.received.slice(seenBefore.base)]) {
    const atBase = base.received.includes(r) && r.headers.host === baseHost;
    for (const s of atBase ? [c.secrets.refresh, c.secrets.client] : all)
      for (const p of partsOf(r))
        assert.ok(
          !leaks(p, s),
          `a server (${atBase ? 'base_url' : 'another origin'}) received a sign-in's secret in ${p.slice(0, 200)}\n${label}`,
        );
  }
  // The token endpoint is asked with the client secret, and is sent no token.
  for (const r of signIns)
    for (const s of [c.secrets.access, c.secrets.id, c.secrets.refresh])
      for (const p of partsOf(r)) assert.ok(!leaks(p, s), `the token endpoint received a token: ${p}\n${label}`);
  for (const s of all) assert.ok(!leaks(out, s), `the output holds a sign-in's secret\n${label}`);
  for (const f of [...filesUnder(join(workspace, '.lpreq')), ...filesUnder(spillRoot)])
    for (const s of all) assert.ok(!leaks(f.text, s), `${f.name} holds a sign-in's secret\n${label}`);
}

const OAUTH_RUNS = fuzzRuns(120);
test(`a sign-in's tokens reach only base_url's origin, its refresh token and client secret no server but the token endpoint, and none is written (${OAUTH_RUNS} runs)`, async () => {
  const secrets = fc
    .record({
      access: secretOf(TOKEN_CHARS),
      id: secretOf(TOKEN_CHARS),
      refresh: secretOf(TOKEN_CHARS),
      client: secretOf(TOKEN_CHARS),
    })
    .filter((s) => {
      const all = Object.values(s).map((x) => x.toLowerCase());
      return all.every((a, i) => all.every((b, j) => i === j || !a.includes(b)));
    });
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        secrets,
        kind: fc.constantFrom<OAuthKind>('access', 'id', 'refresh', 'client'),
        carrier: fc.nat(1),
        part: fc.constantFrom(...PARTS),
        spelling: fc.constantFrom(...Object.keys(SPELLINGS)),
        route: fc.constantFrom(...ROUTES),
        clientSecret: fc.constantFrom<OAuthCase['clientSecret']>('written', 'from .env'),
        signIn: fc.constantFrom<OAuthCase['signIn']>('own', 'LPREQ_TOKEN set', 'two configurations'),
        format: fc.constantFrom<'text' | 'json'>('text', 'json'),
        big: fc.boolean(),
      }),
      checkOAuth,
    ),
    { numRuns: OAUTH_RUNS, seed: 20261129, endOnFailure: true, includeErrorInReport: true },
  );
});
