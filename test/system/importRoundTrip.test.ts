/**
 * Round trip: what an imported file sends is what the original sent. Both go to a recording
 * server on 127.0.0.1, which notes each request (method, path, query, body read by its type)
 * and passes it on to the built-in mock. The original cURL commands of the corpus run in the
 * real curl (bash), the browser's HAR is replayed entry by entry as recorded; the imported
 * file is sent request by request with `lpreq send --line N`. The requests must be the same,
 * less what the import leaves out on purpose: credentials (authenticity_token, access_token,
 * client_secret, refresh_token) and multipart file fields. Headers are not compared (lpreq
 * adds its own token; the browsers' headers are noise the import leaves out). It runs curl
 * processes, so it stands with the system tests.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { run as send } from '../../server/src/cli/sendCommand';
import { startMock, type RunningMock } from '../../server/src/mock';
import { ROOT, tempDir } from '../helpers';
import { runImport } from '../cli/importHelpers';

const CORPUS = join(ROOT, 'test', 'fixtures', 'import');
const TOKEN = 'round-trip-token-0123456789';
/** What the import leaves out on purpose. */
const LEFT_OUT = new Set(['authenticity_token', 'access_token', 'client_secret', 'refresh_token']);

interface Recorded {
  method: string;
  path: string;
  query: [string, string][];
  body: unknown;
}

async function bodyOf(req: IncomingMessage, bytes: Buffer): Promise<unknown> {
  if (bytes.length === 0) return null;
  const type = req.headers['content-type'] ?? '';
  if (type.includes('json')) return JSON.parse(bytes.toString('utf8')) as unknown;
  if (type.includes('multipart/form-data') || type.includes('x-www-form-urlencoded') || type === '') {
    // One reading of both form encodings: the fields, files left out.
    const form = await new Response(bytes, {
      headers: { 'content-type': type || 'application/x-www-form-urlencoded' },
    }).formData();
    return [...form].filter(([k, v]) => typeof v === 'string' && !LEFT_OUT.has(k)).map(([k, v]) => [k, v]);
  }
  return bytes.toString('utf8');
}

/** The recording server: notes each request, then answers with the mock's answer. */
async function recorder(mock: RunningMock): Promise<{ server: Server; url: string; take(): Recorded[] }> {
  let recorded: Recorded[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const bytes = Buffer.concat(chunks);
        const url = new URL(req.url ?? '/', 'http://127.0.0.1');
        recorded.push({
          method: req.method ?? '',
          path: decodeURIComponent(url.pathname),
          query: [...url.searchParams].filter(([k]) => !LEFT_OUT.has(k)),
          body: await bodyOf(req, bytes),
        });
        const answer = await fetch(`${mock.url}${req.url ?? '/'}`, {
          method: req.method,
          headers: {
            authorization: `Bearer ${mock.token}`,
            ...(req.headers['content-type'] ? { 'content-type': req.headers['content-type'] } : {}),
          },
          body: bytes.length > 0 && req.method !== 'GET' && req.method !== 'HEAD' ? bytes : undefined,
        });
        res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'text/plain' });
        res.end(Buffer.from(await answer.arrayBuffer()));
      })().catch(() => {
        res.writeHead(502);
        res.end();
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    server,
    url,
    take: () => {
      const out = recorded;
      recorded = [];
      return out;
    },
  };
}

/** The 1-based lines of the request lines of an imported file. */
function requestLines(text: string): number[] {
  return text
    .split('\n')
    .map((l, i) => (/^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) /.test(l) ? i + 1 : 0))
    .filter((n) => n > 0);
}

/** Imports a source into a folder whose environment `rt` points at the recorder, and sends each request of it. */
async function sendImported(source: string, baseUrl: string, dir: string): Promise<void> {
  writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ rt: { base_url: baseUrl } }));
  const out = join(dir, 'imported.lpreq');
  const imported = await runImport(['--out', out, '--force', source], { cwd: dir });
  assert.equal(imported.code, 0, imported.stderr);
  const text = readFileSync(out, 'utf8');
  for (const line of requestLines(text)) {
    let stderr = '';
    await send([out, '--line', String(line), '--env', 'rt', '--no-history', '--format', 'json'], {
      stdout: () => undefined,
      stderr: (s) => (stderr += s),
      readStdin: () => '',
      isTTY: false,
      env: { LPREQ_TOKEN: TOKEN },
      cwd: dir,
    });
    assert.ok(!stderr.includes('internal error'), stderr);
  }
}

/** Runs a command in bash, without blocking this process (the recorder answers in it). */
function bash(
  command: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-c', command], {
      cwd,
      // A UTF-8 locale, as a terminal has: bash writes $'\u00e9' as é only in one.
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 20_000,
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('close', (status) => resolve({ status, stderr }));
  });
}

/** The bash-form commands of the corpus (cmd.exe's cannot run here; the corpus test holds their reading). */
const CURL_CASES = readdirSync(join(CORPUS, 'curl'))
  .filter((n) => n.endsWith('.curl'))
  .filter((n) => !readFileSync(join(CORPUS, 'curl', n), 'utf8').includes('^'))
  .sort();

/** Cases whose base address has a path of its own before /api/. */
const BASE_PATHS = new Map([['base-prefix.curl', '/school']]);

const hasCurl = spawnSync('curl', ['--version']).status === 0;

test(
  'imported cURL commands send what curl sends',
  { skip: hasCurl ? false : 'curl is not installed', timeout: 120_000 },
  async () => {
    const mock = await startMock({ port: 0, token: TOKEN });
    const rec = await recorder(mock);
    try {
      assert.ok(CURL_CASES.length >= 25, `${CURL_CASES.length} cases`);
      for (const name of CURL_CASES) {
        const dir = tempDir('import-rt');
        // Files the commands read, in the folder curl runs in and beside the imported file alike.
        writeFileSync(join(dir, 'quiz-answers.json'), '{"quiz_submissions":[{"attempt":1,"fudge_points":1}]}');
        writeFileSync(join(dir, 'notes.pdf'), '%PDF-1.4 test');
        const command = readFileSync(join(CORPUS, 'curl', name), 'utf8').replaceAll('https://lms.example.edu', rec.url);
        const ran = await bash(command, dir, { LMS: rec.url, TOKEN: 'S3CRET-env-token' });
        assert.equal(ran.status, 0, `${name}: curl failed: ${ran.stderr}`);
        const original = rec.take();
        assert.ok(original.length > 0, `${name}: curl sent nothing`);
        const source = join(dir, name);
        writeFileSync(source, command);
        // The environment's base_url, with the path a base of the original holds (https://host/school/api/v1/...).
        await sendImported(source, rec.url + (BASE_PATHS.get(name) ?? ''), dir);
        assert.deepEqual(rec.take(), original, name);
      }
    } finally {
      rec.server.close();
      await mock.close();
    }
  },
);

test('an imported HAR sends what the browser sent', { timeout: 60_000 }, async () => {
  const mock = await startMock({ port: 0, token: TOKEN });
  const rec = await recorder(mock);
  try {
    const har = JSON.parse(readFileSync(join(CORPUS, 'har', 'browser-visit.har'), 'utf8')) as {
      log: {
        entries: {
          request: {
            method: string;
            url: string;
            headers: { name: string; value: string }[];
            postData?: { text: string };
          };
        }[];
      };
    };
    const origin = new URL(har.log.entries[0].request.url).origin;
    for (const { request } of har.log.entries) {
      const url = new URL(request.url);
      if (!url.pathname.startsWith('/api/v1/')) continue;
      const type = request.headers.find((h) => h.name.toLowerCase() === 'content-type')?.value;
      await fetch(`${rec.url}${url.pathname}${url.search}`, {
        method: request.method,
        headers: type ? { 'content-type': type } : {},
        body: request.postData?.text,
      });
    }
    const original = rec.take();
    assert.ok(original.length >= 6);
    const dir = tempDir('import-rt-har');
    const source = join(dir, 'visit.har');
    writeFileSync(source, readFileSync(join(CORPUS, 'har', 'browser-visit.har'), 'utf8').replaceAll(origin, rec.url));
    await sendImported(source, rec.url, dir);
    assert.deepEqual(rec.take(), original);
  } finally {
    rec.server.close();
    await mock.close();
  }
});
