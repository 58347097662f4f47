/**
 * Neovim with the configuration docs/editors.md gives, as a user would run it: the blocks
 * marked `<!-- nvim-config VERSIONS FILE -->` are written into a fresh config folder, and a
 * headless Neovim opens an example from a copy of examples/ whose node_modules/.bin holds
 * the built lpreq. Every documented configuration whose version range holds the installed
 * Neovim runs; CI installs Debian's (0.7.2, .ci/run).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from '../helpers';
import { json, startServer, type TestServer } from '../sender/server';
import { configBlocks, inRange, installedNeovim, runNeovim, type ConfigBlock, type StepResult } from './neovim/nvim';

const TOKEN = 'nvim-token-0123456789abcdef';
/**
 * The API the Send Request lens reaches: a files list with a field the docs do not
 * describe and a size that is not an integer, so that the response file has typed issues.
 */
let api: TestServer;
before(async () => {
  api = await startServer((req, res) =>
    json(res, 200, [
      {
        id: 4410,
        display_name: 'syllabus.pdf',
        x_internal_rank: 3,
        size: 'large',
        seen: req.headers.authorization ?? 'none',
      },
    ]),
  );
});
after(async () => {
  await api.close();
});

const LPREQ_BIN = join(ROOT, 'bin', 'lpreq.js');
const blocks = configBlocks(readFileSync(join(ROOT, 'docs', 'editors.md'), 'utf8'));
const version = installedNeovim();

type Diagnostic = { code: string; line: number; column: number };

/** `lpreq check --format json` of a text: what every editor must show. */
function checked(text: string, cwd: string, env: string): Diagnostic[] {
  const r = spawnSync(process.execPath, [LPREQ_BIN, 'check', '--env', env, '--format', 'json', '-'], {
    cwd,
    input: text,
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.ok(r.status === 0 || r.status === 1, r.stderr);
  return (JSON.parse(r.stdout) as { code: string; line: number; column: number }[]).map((d) => ({
    code: d.code,
    line: d.line - 1,
    column: d.column - 1,
  }));
}

const sorted = (list: Diagnostic[]) => list.map((d) => `${d.line}:${d.column} ${d.code}`).sort();

/** A project as a user has it: the examples, and lpreq installed in node_modules/.bin (as npm links it); `local` is the test's API. */
function project(): { dir: string; path: string } {
  const dir = tempDir('nvim-project');
  cpSync(join(ROOT, 'examples'), dir, { recursive: true });
  const environments = JSON.parse(readFileSync(join(dir, 'http-client.env.json'), 'utf8')) as {
    local: Record<string, string>;
  };
  environments.local.base_url = api.origin;
  writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify(environments, null, 2));
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true });
  symlinkSync(LPREQ_BIN, join(dir, 'node_modules', '.bin', 'lpreq'));
  return { dir, path: join(dir, 'mistakes.lpreq') };
}

test('docs/editors.md holds the Neovim configurations the test runs, none with an environment written in', () => {
  const ranges = new Set(blocks.map((b) => b.versions));
  assert.deepEqual([...ranges].sort(), ['0.10+', '0.11+', '0.7-0.9']);
  for (const b of blocks) {
    assert.match(b.text, /lsp/, `${b.versions} ${b.file}`);
    // The environment is the project's, by the rule every host follows: no name in the configuration.
    assert.doesNotMatch(b.text, /environment\s*=/, `${b.versions} ${b.file}`);
  }
  // Each plugin file asks before sending a request with errors and opens the response right or below.
  for (const b of blocks.filter((x) => x.file === 'plugin/lpreq.lua')) {
    assert.match(b.text, /Send anyway/, b.versions);
    assert.match(b.text, /rightbelow/, b.versions);
  }
});

const byRange = new Map<string, ConfigBlock[]>();
for (const b of blocks) byRange.set(b.versions, [...(byRange.get(b.versions) ?? []), b]);

for (const [range, config] of byRange) {
  const skip =
    version === undefined
      ? "nvim is not installed (CI installs Debian's: apt-get install neovim, see .ci/run)"
      : inRange(version, range)
        ? false
        : `the configuration for Neovim ${range} does not apply to the installed ${version.join('.')}`;

  test(
    `neovim ${range}: the documented configuration shows lpreq's diagnostics and completes a parameter`,
    { skip, timeout: 120_000 },
    async () => {
      const { dir, path } = project();
      const text = readFileSync(path, 'utf8');
      const lines = text.split('\n');
      // Where the steps act: the first request (a missing-required error on its request line)
      // and a new line typed under the misspelt `serch_term` of the files list.
      const firstRequest = lines.findIndex((l) => l.startsWith('POST '));
      const typedAt = lines.findIndex((l) => l.startsWith('serch_term')) + 1;
      // The request the Send Request lens sends: the files list (a GET: nothing changes).
      const filesList = lines.findIndex((l) => l.startsWith('GET ') && l.includes('/files'));
      const responseFile = join(dir, '.lpreq', 'responses', `mistakes.line-${filesList + 1}.jsonc`);
      const firstResponseFile = join(dir, '.lpreq', 'responses', `mistakes.line-${firstRequest + 1}.jsonc`);
      const typed = 'sea';
      const edited = [...lines.slice(0, typedAt), typed, ...lines.slice(typedAt)].join('\n');
      // Without node_modules/.bin in the configuration, lpreq comes from the PATH, as after npm install -g.
      const usesProjectBin = config.some((b) => b.text.includes('node_modules/.bin/lpreq'));
      const binDir = tempDir('nvim-bin');
      if (!usesProjectBin) symlinkSync(LPREQ_BIN, join(binDir, 'lpreq'));

      const run = await runNeovim({
        home: tempDir('nvim-home'),
        blocks: config,
        cwd: dir,
        path: `${binDir}:${process.env.PATH ?? ''}`,
        // The token the language server sends (it inherits Neovim's environment).
        env: { LPREQ_TOKEN: TOKEN },
        timeoutMs: 90_000,
        steps: [
          { step: 'open', path, timeout_ms: 20_000 },
          { step: 'diagnostics', timeout_ms: 20_000 },
          { step: 'insert', line: typedAt, lines: [typed] },
          { step: 'complete', line: typedAt, character: typed.length },
          { step: 'diagnostics' },
          // :LpreqEnv reaches the server: it checks again, with nothing else changed.
          { step: 'command', command: 'LpreqEnv production' },
          { step: 'diagnostics' },
          { step: 'command', command: 'LpreqEnv local' },
          { step: 'diagnostics' },
          // The code lenses, and Send Request run on the files list against the test's API.
          { step: 'codelens', timeout_ms: 20_000 },
          // The line typed under it is not a parameter yet (an error): the lens asks first.
          { step: 'run_lens', line: filesList, title: 'Send Request', answers: ['Send anyway'] },
          { step: 'response', path: responseFile, timeout_ms: 30_000 },
          // :LpreqCurl on the same line puts the command in the unnamed register.
          { step: 'command', command: 'LpreqCurl' },
          { step: 'register', name: '"', contains: 'curl ', timeout_ms: 20_000 },
          // The first request has an error: its lens asks first, and Cancel sends nothing.
          { step: 'asked' },
          { step: 'run_lens', line: firstRequest, title: 'Send Request', answers: ['Cancel'] },
          { step: 'asked' },
          // :LpreqSend asks too, and Send anyway sends it.
          { step: 'cursor', line: firstRequest },
          { step: 'answer', answers: ['Send anyway'] },
          { step: 'command', command: 'LpreqSend' },
          { step: 'response', path: firstResponseFile, timeout_ms: 30_000 },
          { step: 'asked' },
        ],
      });
      const context = `\nmessages: ${run.messages}\nstderr: ${run.stderr}\nLSP log: ${run.lspLog}`;
      const result = (i: number, name: string): StepResult => {
        const r = run.results[i];
        assert.ok(r, `step ${i} (${name}) did not run${context}`);
        assert.equal(r.step, name);
        assert.ok(r.ok, `step ${i} (${name}) failed: ${r.error}${context}`);
        return r;
      };

      assert.deepEqual(result(0, 'open').value, { filetype: 'lpreq', client: 'lpreq' });

      const shown = result(1, 'diagnostics').value as Diagnostic[];
      assert.ok(
        shown.some((d) => d.code === 'missing-required' && d.line === firstRequest),
        `missing-required on line ${firstRequest + 1}${context}`,
      );
      assert.deepEqual(
        sorted(shown),
        sorted(checked(text, dir, 'local')),
        'the diagnostics Neovim shows are those of lpreq check',
      );

      const labels = result(3, 'complete').value as string[];
      assert.ok(
        Array.isArray(labels) && labels.includes('search_term'),
        `completion offers search_term: ${JSON.stringify(labels).slice(0, 500)}`,
      );

      // The typed line reached the server: the next diagnostics are those of the edited text.
      assert.deepEqual(sorted(result(4, 'diagnostics').value as Diagnostic[]), sorted(checked(edited, dir, 'local')));
      result(5, 'command');
      assert.deepEqual(
        sorted(result(6, 'diagnostics').value as Diagnostic[]),
        sorted(checked(edited, dir, 'production')),
      );
      result(7, 'command');
      assert.deepEqual(sorted(result(8, 'diagnostics').value as Diagnostic[]), sorted(checked(edited, dir, 'local')));

      // Send Request, Fetch All Pages (a paginated list) and Copy as cURL above the files list.
      const lenses = result(9, 'codelens').value as { line: number; title: string; command: string }[];
      assert.deepEqual(
        lenses.filter((l) => l.line === filesList).map((l) => [l.title, l.command]),
        [
          ['Send Request', 'lpreq.send'],
          ['Fetch All Pages', 'lpreq.fetchAllPages'],
          ['Copy as cURL', 'lpreq.copyAsCurl'],
        ],
      );
      assert.ok(lenses.some((l) => l.line === firstRequest && l.title === 'Send Request'));
      assert.deepEqual(result(10, 'run_lens').value, ['Send Request', 'Fetch All Pages', 'Copy as cURL']);
      const sent = api.received.find((r) => r.url.startsWith('/api/v1/courses/42/files'));
      assert.ok(sent, `the files list reached the API: ${JSON.stringify(api.received.map((r) => r.url))}${context}`);
      assert.equal(sent.headers.authorization, `Bearer ${TOKEN}`, 'the token of LPREQ_TOKEN went with it');

      // The response file, without the token, with its typed issues where they are; opened beside the request.
      const response = result(11, 'response').value as { text: string; diagnostics: Diagnostic[]; shown: boolean };
      assert.ok(!response.text.includes(TOKEN), 'the token is not in the response file');
      assert.equal(response.text, readFileSync(responseFile, 'utf8').replace(/\n$/, ''));
      const fileLines = response.text.split('\n');
      const rank = fileLines.findIndex((l) => l.includes('"x_internal_rank"'));
      const size = fileLines.findIndex((l) => l.includes('"size"'));
      assert.deepEqual(
        sorted(response.diagnostics),
        sorted([
          { code: 'undocumented-field', line: rank, column: fileLines[rank].indexOf('"x_internal_rank"') },
          { code: 'undocumented-field', line: fileLines.findIndex((l) => l.includes('"seen"')), column: 4 },
          { code: 'type-mismatch', line: size, column: fileLines[size].indexOf('"large"') },
        ]),
      );
      assert.equal(response.shown, true, 'the response file is shown in a window');
      // To the right of the request or below it, never left or above (:rightbelow).
      const { window, request } = response as unknown as {
        window: { row: number; column: number };
        request: { row: number; column: number };
      };
      assert.ok(
        window.row > request.row || window.column > request.column,
        `the response window at ${JSON.stringify(window)}, the request's at ${JSON.stringify(request)}`,
      );

      const curl = result(13, 'register').value as string;
      assert.match(curl, /^curl .*\/api\/v1\/courses\/42\/files/);
      assert.ok(curl.includes('$LPREQ_TOKEN') && !curl.includes(TOKEN), curl);

      // Asked before sending a request with errors, as VS Code asks: Cancel sent nothing, Send anyway sent it.
      type Asked = { prompt: string; items: string[] }[];
      result(14, 'asked');
      assert.deepEqual(result(15, 'run_lens').value, ['Send Request', 'Copy as cURL']);
      const lensAsked = result(16, 'asked').value as Asked;
      assert.equal(lensAsked.length, 2, JSON.stringify(lensAsked));
      assert.match(lensAsked[1].prompt, /the request still has 1 error \(line \d+: .*\)\. Send anyway\?/);
      assert.deepEqual(lensAsked[1].items, ['Send anyway', 'Cancel']);
      const posts = () => api.received.filter((r) => r.method === 'POST').length;
      result(17, 'cursor');
      result(18, 'answer');
      result(19, 'command');
      result(20, 'response');
      assert.equal(posts(), 1, 'only Send anyway sent the request with an error');
      assert.match((result(21, 'asked').value as Asked)[0]?.prompt ?? '', /Send anyway\?/);
      assert.doesNotMatch(run.messages, /Error|E\d+:/, 'the configuration loads without errors');
    },
  );
}
