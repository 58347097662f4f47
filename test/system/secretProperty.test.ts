/**
 * The property of issue 17: a secret (the token, another environment's token, a secret
 * prompt answer), placed in any part of a request (URL path, query, header name, header
 * value, Host, form value, JSON body, body file) through a variable, a system variable or a
 * file, and written in any spelling the scrubber knows, sent to another origin directly,
 * through a redirect, through a next-page link, or to base_url's address under another Host,
 * never reaches a server but base_url's origin, the output, the history, a spill file or a
 * copied cURL command. Another environment's token reaches no server at all.
 *
 * `lpreq send` runs in-process against two loopback servers; base_url's server echoes what
 * it receives in several spellings (in the body, a header value and header names), in a
 * documented field of the wrong type (so that typed-check issues quote it), and in some runs
 * pads its answer over the body limit (so that it is cut and spilled): output, history and
 * spill files are tried too.
 * Leaks are looked for with a decoder of this test's own, not with secrets.ts. A fixed seed
 * and a bounded number of runs: it stops by itself.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import fc from 'fast-check';
import { run } from '../../server/src/cli/sendCommand';
import { bodyFileReader } from '../../server/src/node/bodyFile';
import { loadEnvironmentFiles } from '../../server/src/node/environments';
import { toCurl } from '../../server/src/sender/curl';
import { prepareRequest } from '../../server/src/sender/prepare';
import { parseDotenv } from '../../server/src/sender/variables';
import { tempDir } from '../helpers';
import { captureIo } from '../io';
import { fuzzRuns } from '../fuzzRuns';
import { doc, startServer, testChecker, type Received, type TestServer } from '../sender/server';

const RUNS = fuzzRuns(200);
/** Padding of base_url's answers: over the body limit (spilled, not typed), or none (typed, with issues that quote the echo). */
let padding = 0;
let base: TestServer;
let other: TestServer;
const spillRoot = tempDir('property-spill');
const workspace = tempDir('property-ws');
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

type Kind = 'token' | 'foreign' | 'prompt';
/** How a secret of each kind gets into the request's text: `{{...}}` of a variable or a system variable (`.env` values are written spelled). */
const CARRIERS: Record<Kind, string[]> = {
  token: ['{{token}}', '{{$processEnv LPREQ_TOKEN}}', '{{%token}}', '{{$dotenv SPELLED_TOKEN}}'],
  foreign: ['{{$dotenv PROD_TOKEN}}'],
  prompt: ['{{password}}', '{{%password}}'],
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
});

interface Case {
  secrets: Record<Kind, string>;
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

async function check(c: Case): Promise<void> {
  const secret = c.secrets[c.kind];
  const spelled = SPELLINGS[c.spelling](secret);
  const { text, bodyFile } = requestText(c, spelled);
  const file = join(workspace, 'r.lpreq');
  writeFileSync(file, text);
  writeFileSync(join(workspace, 'body.txt'), bodyFile ?? 'none');
  writeFileSync(
    join(workspace, 'http-client.env.json'),
    JSON.stringify({ local: { base_url: base.origin }, prod: { base_url: 'https://lms.example.edu' } }),
  );
  writeFileSync(
    join(workspace, 'http-client.private.env.json'),
    JSON.stringify({ local: { token: c.secrets.token }, prod: { token: c.secrets.foreign } }),
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
  // Nor a copied cURL command, made as the editor makes it.
  const files = loadEnvironmentFiles(workspace);
  const prepared = prepareRequest(testChecker(), doc(text), 0, {
    environments: { environments: files.environments, selected: 'local' },
    system: { processEnv: { LPREQ_TOKEN: c.secrets.token }, dotenv: parseDotenv(dotenv), projectRoot: workspace },
    prompts: new Map([['password', c.secrets.prompt]]),
    readFile: bodyFileReader(file, files),
  });
  if (prepared.ok) {
    const command = toCurl(prepared.request, {
      token: c.secrets.token,
      secrets: [...prepared.secrets, ...prepared.foreignSecrets],
    });
    for (const s of all) assert.ok(!leaks(command, s), `the copied command holds a secret: ${command}\n${label}`);
  }
}

/** Secrets as tokens and answers are written: letters and digits with `/+=._~-` (and a space, `@` or `!` in an answer). */
const secretOf = (alphabet: string) =>
  fc.array(fc.constantFrom(...alphabet), { minLength: 8, maxLength: 18 }).map((cs) => `K${cs.join('')}9`);
const TOKEN_CHARS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/+=._~-';

test(`a secret in any part of a request, in any spelling, by any route, reaches only base_url's origin and nothing written (${RUNS} runs)`, async () => {
  const secrets = fc
    .record({ token: secretOf(TOKEN_CHARS), foreign: secretOf(TOKEN_CHARS), prompt: secretOf(`${TOKEN_CHARS} @!`) })
    .filter((s) => {
      const all = Object.values(s).map((x) => x.toLowerCase());
      return all.every((a, i) => all.every((b, j) => i === j || !a.includes(b)));
    });
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        secrets,
        kind: fc.constantFrom<Kind>('token', 'foreign', 'prompt'),
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
});
