/**
 * Sending from the language server, over stdio as an editor drives it: code lenses and the
 * commands (server/src/lsp/commands.ts, sending.ts), against a test server on 127.0.0.1.
 * The response file, its scrubbing, its mode and its diagnostics; progress and cancellation;
 * the protected environment's confirmation; malformed arguments; the environment chosen and
 * remembered; an editor with lenses of its own (clientLenses) offered none.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LspClient, ROOT, type Message } from '../lsp/rpc';
import { json, startServer, type TestServer } from '../sender/server';
import { tempDir } from '../helpers';

const TOKEN = 'lsp-token-0123456789abcdef';
const PRIVATE_TOKEN = 'private-lsp-token-987654321';
let api: TestServer;
/** Set by a test to hold the next answers of the test server until it says so. */
let hold: Promise<void> | undefined;

before(async () => {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT });
  api = await startServer(async (req, res) => {
    if (hold) await hold;
    const url = new URL(req.url, api.origin);
    if (url.pathname === '/api/v1/courses/1/modules' && req.method === 'GET') {
      // Echoes what it was sent, the token too, in a header and the body: the file must not keep it.
      return json(
        res,
        200,
        [{ id: 1, name: 'Week 1', position: 1, x_echo: req.headers.authorization ?? 'none', items_count: 'many' }],
        {
          'x-seen-authorization': req.headers.authorization ?? 'none',
        },
      );
    }
    if (url.pathname === '/api/v1/courses/1/modules' && req.method === 'POST')
      return json(res, 200, { id: 9, name: 'Made', position: 2 });
    return json(res, 404, { errors: [{ message: 'not here' }] });
  });
});

after(async () => {
  await api.close();
});

const REQUESTS = [
  '### list',
  '# @name list',
  'GET {{base_url}}/api/v1/courses/1/modules',
  '',
  '### create',
  'POST {{base_url}}/api/v1/courses/1/modules',
  '',
  'module[name] = Made',
  '',
].join('\n');
const LIST_LINE = 2;
const CREATE_LINE = 5;

/** A workspace: environment files pointing at the test server, a request file. */
function workspace(options: { protectedEnv?: boolean; privateToken?: boolean } = {}): {
  dir: string;
  file: string;
  uri: string;
} {
  const dir = tempDir('lsp-send');
  writeFileSync(
    join(dir, 'http-client.env.json'),
    JSON.stringify({
      local: { base_url: api.origin, ...(options.protectedEnv ? { $protected: true } : {}) },
      other: { base_url: 'http://127.0.0.1:9' },
    }),
  );
  if (options.privateToken)
    writeFileSync(join(dir, 'http-client.private.env.json'), JSON.stringify({ local: { token: PRIVATE_TOKEN } }));
  const file = join(dir, 'requests.lpreq');
  writeFileSync(file, REQUESTS);
  return { dir, file, uri: pathToFileURL(file).href };
}

interface Session {
  c: LspClient;
  /** Requests the server made of the editor. */
  asked: Message[];
}

async function withServer(
  dir: string,
  fn: (s: Session) => Promise<void>,
  options: {
    env?: NodeJS.ProcessEnv;
    init?: unknown;
    window?: Record<string, unknown>;
    answer?: (m: Message) => unknown;
  } = {},
) {
  const c = new LspClient(undefined, undefined, {
    env: { PATH: process.env.PATH ?? '', ...(options.env ?? { LPREQ_TOKEN: TOKEN }) },
  });
  const asked: Message[] = [];
  c.answer = (m) => {
    asked.push(m);
    return options.answer ? options.answer(m) : m.method === 'window/showDocument' ? { success: true } : null;
  };
  const timer = setTimeout(() => c.kill(), 60_000);
  try {
    await c.initialize(
      options.init ?? {},
      pathToFileURL(dir).href,
      {},
      options.window ?? { workDoneProgress: true, showDocument: { support: true } },
    );
    await fn({ c, asked });
    await c.shutdown();
    assert.equal(c.process.exitCode, 0, c.stderr);
  } finally {
    clearTimeout(timer);
    c.kill();
  }
}

/** What `lpreq env` says of the project in `dir`: the same answer the server gives. */
function lpreqEnv(dir: string): string {
  return execFileSync(process.execPath, [join(ROOT, 'bin', 'lpreq.js'), 'env'], { cwd: dir, encoding: 'utf8' });
}

function open(c: LspClient, uri: string, text = REQUESTS) {
  c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text } });
}

type Lens = { range: { start: { line: number } }; command: { title: string; command: string; arguments: unknown[] } };
type Published = {
  uri: string;
  diagnostics: {
    code: string;
    severity: number;
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
  }[];
};

test('lsp send: code lenses above each request of a file, none for an unsaved document; opening sends nothing', async () => {
  const { dir, uri } = workspace();
  await withServer(dir, async ({ c }) => {
    const caps = (
      c.initializeResult as {
        capabilities: { executeCommandProvider?: { commands: string[] }; codeLensProvider?: unknown };
      }
    ).capabilities;
    assert.deepEqual(caps.executeCommandProvider?.commands.sort(), [
      'lpreq.copyAsCurl',
      'lpreq.fetchAllPages',
      'lpreq.generateCode',
      'lpreq.selectEnvironment',
      'lpreq.send',
      'lpreq.sendAll',
    ]);
    assert.ok(caps.codeLensProvider);
    const before = api.received.length;
    open(c, uri);
    const lenses = await c.request<Lens[]>('textDocument/codeLens', { textDocument: { uri } });
    assert.deepEqual(
      lenses.map((l) => [l.range.start.line, l.command.title, l.command.command, ...l.command.arguments]),
      [
        [LIST_LINE, 'Send Request', 'lpreq.send', uri, LIST_LINE],
        // The modules list is paginated (followsPages); the POST is not.
        [LIST_LINE, 'Fetch All Pages', 'lpreq.fetchAllPages', uri, LIST_LINE],
        [LIST_LINE, 'Copy as cURL', 'lpreq.copyAsCurl', uri, LIST_LINE],
        [CREATE_LINE, 'Send Request', 'lpreq.send', uri, CREATE_LINE],
        [CREATE_LINE, 'Copy as cURL', 'lpreq.copyAsCurl', uri, CREATE_LINE],
      ],
    );
    // The same commands as code actions of the request under the cursor (for editors without lenses).
    const actions = await c.request<{ title: string; command?: { command: string; arguments: unknown[] } }[]>(
      'textDocument/codeAction',
      {
        textDocument: { uri },
        range: { start: { line: 7, character: 0 }, end: { line: 7, character: 0 } },
        context: { diagnostics: [] },
      },
    );
    assert.deepEqual(
      actions.filter((a) => a.command).map((a) => [a.title, a.command?.command, ...(a.command?.arguments ?? [])]),
      [
        ['lpreq: Send Request', 'lpreq.send', uri, CREATE_LINE],
        ['lpreq: Copy as cURL', 'lpreq.copyAsCurl', uri, CREATE_LINE],
      ],
    );
    // Asked again, the same lenses (the server keeps its answer); after a change they move with the text, even when a client
    // sends a change without raising the version.
    assert.deepEqual(await c.request<Lens[]>('textDocument/codeLens', { textDocument: { uri } }), lenses);
    const lensLines = async () =>
      (await c.request<Lens[]>('textDocument/codeLens', { textDocument: { uri } })).map((l) => [
        l.range.start.line,
        l.command.arguments[1],
      ]);
    for (const [version, shift] of [
      [2, 1],
      [2, 2],
    ]) {
      c.notify('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [
          { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# a note\n' },
        ],
      });
      const at = [LIST_LINE + shift, LIST_LINE + shift, LIST_LINE + shift, CREATE_LINE + shift, CREATE_LINE + shift];
      assert.deepEqual(
        await lensLines(),
        at.map((line) => [line, line]),
      );
    }
    // Written as bytes around each line number: lines of one to four digits, and a URI beyond ASCII.
    const wide = 'file:///tmp/%C3%A9/déjà 😀.lpreq';
    const lines = [0, 9, 11, 99, 101, 1234];
    const text: string[] = [];
    for (const line of lines) {
      while (text.length < line - 1) text.push('');
      if (text.length === line - 1) text.push('###');
      text.push('GET https://lms.example.edu/api/v1/courses/1/modules');
    }
    open(c, wide, text.join('\n'));
    assert.deepEqual(
      (await c.request<Lens[]>('textDocument/codeLens', { textDocument: { uri: wide } })).map((l) => [
        l.range.start.line,
        l.command.title,
        ...l.command.arguments,
      ]),
      lines.flatMap((line) =>
        ['Send Request', 'Fetch All Pages', 'Copy as cURL'].map((title) => [line, title, wide, line]),
      ),
    );
    // A document that grew before its lenses were first asked for: the memory readied at open is too small, the answer is sized anew.
    const grown = 'file:///tmp/grown.lpreq';
    open(c, grown, 'GET https://lms.example.edu/api/v1/courses/1/modules');
    c.notify('textDocument/didChange', {
      textDocument: { uri: grown, version: 2 },
      contentChanges: [
        {
          range: { start: { line: 1, character: 0 }, end: { line: 1, character: 0 } },
          text: '\n###\nGET https://lms.example.edu/api/v1/courses/1/modules\n'.repeat(40),
        },
      ],
    });
    assert.deepEqual(
      (await c.request<Lens[]>('textDocument/codeLens', { textDocument: { uri: grown } }))
        .filter((l) => l.command.title === 'Send Request')
        .map((l) => l.range.start.line),
      [0, ...Array.from({ length: 40 }, (_, k) => 2 + k * 3)],
    );
    const untitled = 'untitled:Untitled-1';
    open(c, untitled);
    assert.deepEqual(await c.request('textDocument/codeLens', { textDocument: { uri: untitled } }), []);
    await c.request('textDocument/hover', { textDocument: { uri }, position: { line: LIST_LINE, character: 5 } });
    assert.equal(api.received.length, before, 'nothing was sent without a command');
  });
});

test('lsp send: lpreq.send writes the response file, scrubbed, read-only, with its typed issues at their fields, and shows it', async () => {
  const { dir, file, uri } = workspace();
  await withServer(dir, async ({ c, asked }) => {
    open(c, uri);
    const responseUri = pathToFileURL(join(dir, '.lpreq', 'responses', 'requests.list.jsonc')).href;
    const published = c.diagnostics(responseUri, undefined, 20_000);
    const result = await c.request<{ ok: boolean; status: number; responseUri: string; issues: number }>(
      'workspace/executeCommand',
      { command: 'lpreq.send', arguments: [uri, LIST_LINE] },
      20_000,
    );
    assert.deepEqual(result, { ok: true, status: 200, issues: 2, responseUri, shown: true });
    const sent = api.received[api.received.length - 1];
    assert.equal(sent.headers.authorization, `Bearer ${TOKEN}`, 'the token of LPREQ_TOKEN went to base_url');
    const path = fileURLToPath(responseUri);
    const text = readFileSync(path, 'utf8');
    assert.ok(!text.includes(TOKEN), 'the token is not in the response file');
    assert.match(text, /x-seen-authorization: Bearer \*\*\*/);
    assert.match(text, /^\/\/ HTTP 200 OK/m);
    assert.equal(statSync(path).mode & 0o777, 0o400, "the response file is the user's alone and read-only");
    assert.equal(statSync(join(dir, '.lpreq')).mode & 0o777, 0o700);
    assert.equal(
      readFileSync(join(dir, '.lpreq', '.gitignore'), 'utf8')
        .split('\n')
        .filter((l) => !l.startsWith('#'))[0],
      '*',
    );
    // The body after the comments is the JSON the server sent, printed with two spaces.
    const body = text.slice(text.indexOf('\n[') + 1);
    assert.deepEqual(JSON.parse(body), [
      { id: 1, name: 'Week 1', position: 1, x_echo: 'Bearer ***', items_count: 'many' },
    ]);
    // The diagnostics stand on the lines of the fields: the undocumented key, the mistyped value.
    const lines = text.split('\n');
    const echo = lines.findIndex((l) => l.includes('"x_echo"'));
    const count = lines.findIndex((l) => l.includes('"items_count"'));
    const diagnostics = (await published) as unknown as Published;
    assert.deepEqual(
      diagnostics.diagnostics
        .map((d) => [d.code, d.range.start.line, d.range.start.character, d.range.end.line, d.range.end.character])
        .sort(),
      [
        [
          'type-mismatch',
          count,
          lines[count].indexOf('"many"'),
          count,
          lines[count].indexOf('"many"') + '"many"'.length,
        ],
        [
          'undocumented-field',
          echo,
          lines[echo].indexOf('"x_echo"'),
          echo,
          lines[echo].indexOf('"x_echo"') + '"x_echo"'.length,
        ],
      ].sort(),
    );
    const shown = asked.find((m) => m.method === 'window/showDocument');
    assert.deepEqual(shown?.params, { uri: responseUri, takeFocus: false });
    // As lpreq send: the exchange is in the project's history (written behind the answer), without the token.
    const history = join(dir, '.lpreq', 'history');
    await waitUntil(() => existsSync(join(history, 'index.jsonl')));
    const entries = readdirSync(history).filter((f) => f.endsWith('.json'));
    assert.equal(entries.length, 1);
    assert.ok(!readFileSync(join(history, entries[0]), 'utf8').includes(TOKEN));
    // Sending again writes the file again (it is read-only, and replaced whole).
    await c.request('workspace/executeCommand', { command: 'lpreq.send', arguments: [uri, LIST_LINE + 1] }, 20_000);
    assert.equal(readdirSync(join(dir, '.lpreq', 'responses')).filter((f) => !f.startsWith('.')).length, 1);
    void file;
  });
});

test('lsp send: without window/showDocument the editor is told where the response is; the token of the private environment file is used', async () => {
  const { dir, uri } = workspace({ privateToken: true });
  await withServer(
    dir,
    async ({ c, asked }) => {
      open(c, uri);
      const told = c.waitFor(
        (m) =>
          m.method === 'window/showMessage' && String((m.params as { message: string }).message).includes('.lpreq'),
        20_000,
      );
      await c.request('workspace/executeCommand', { command: 'lpreq.send', arguments: [uri, LIST_LINE] }, 20_000);
      assert.match(
        (await told).params ? String((await told).params && ((await told).params as { message: string }).message) : '',
        /requests\.list\.jsonc/,
      );
      assert.ok(
        !asked.some((m) => m.method === 'window/showDocument' || m.method === 'window/workDoneProgress/create'),
      );
      assert.equal(api.received[api.received.length - 1].headers.authorization, `Bearer ${PRIVATE_TOKEN}`);
      const text = readFileSync(join(dir, '.lpreq', 'responses', 'requests.list.jsonc'), 'utf8');
      assert.ok(!text.includes(PRIVATE_TOKEN));
    },
    { env: {}, window: {} },
  );
});

test("lsp send: LPREQ_TOKEN_ORIGIN in the server's environment pins the token: base_url on another origin sends nothing, and the error names both", async () => {
  const { dir, uri } = workspace();
  await withServer(
    dir,
    async ({ c }) => {
      open(c, uri);
      const before = api.received.length;
      await assert.rejects(
        c.request('workspace/executeCommand', { command: 'lpreq.send', arguments: [uri, LIST_LINE] }, 20_000),
        (e: Error) =>
          e.message.includes('LPREQ_TOKEN_ORIGIN pins the token to https://lms.example.edu') &&
          e.message.includes(`sends to ${api.origin}`),
      );
      assert.equal(api.received.length, before, 'nothing was sent');
    },
    { env: { LPREQ_TOKEN: TOKEN, LPREQ_TOKEN_ORIGIN: 'https://lms.example.edu' } },
  );
});

test('lsp send: a protected environment asks through showMessageRequest, Cancel first; cancelled, nothing is sent', async () => {
  const { dir, uri } = workspace({ protectedEnv: true });
  let choice = 'Cancel';
  await withServer(
    dir,
    async ({ c, asked }) => {
      open(c, uri);
      const before = api.received.length;
      const refused = await c.request<{ ok: boolean; status: number | null; error?: string }>(
        'workspace/executeCommand',
        { command: 'lpreq.send', arguments: [uri, CREATE_LINE] },
        20_000,
      );
      assert.equal(refused.ok, false);
      assert.equal(refused.status, null);
      assert.match(refused.error ?? '', /protected/);
      assert.equal(api.received.length, before, 'nothing was sent');
      const question = asked.find((m) => m.method === 'window/showMessageRequest');
      const params = question?.params as { message: string; actions: { title: string }[] };
      assert.deepEqual(
        params.actions.map((a) => a.title),
        ['Cancel', 'Send'],
      );
      assert.match(params.message, /'local' is a protected environment\. Send POST/);
      choice = 'Send';
      const sent = await c.request<{ ok: boolean; status: number }>(
        'workspace/executeCommand',
        { command: 'lpreq.send', arguments: [uri, CREATE_LINE] },
        20_000,
      );
      assert.deepEqual([sent.ok, sent.status], [true, 200]);
      assert.equal(api.received[api.received.length - 1].method, 'POST');
      // A GET asks nothing.
      const questions = asked.filter((m) => m.method === 'window/showMessageRequest').length;
      await c.request('workspace/executeCommand', { command: 'lpreq.send', arguments: [uri, LIST_LINE] }, 20_000);
      assert.equal(asked.filter((m) => m.method === 'window/showMessageRequest').length, questions);
    },
    {
      answer: (m) =>
        m.method === 'window/showMessageRequest'
          ? { title: choice }
          : m.method === 'window/showDocument'
            ? { success: true }
            : null,
    },
  );
});

test('lsp send: progress with cancellation: cancelling the progress, or the request, aborts the exchange', async () => {
  const { dir, uri } = workspace();
  let release: () => void = () => undefined;
  hold = new Promise<void>((resolve) => (release = resolve));
  try {
    await withServer(dir, async ({ c }) => {
      open(c, uri);
      // Cancelled through the progress the server created (window/workDoneProgress/cancel).
      const begun = c.waitFor(
        (m) => m.method === '$/progress' && (m.params as { value: { kind: string } }).value.kind === 'begin',
        20_000,
      );
      const answer = c.request<{ ok: boolean; status: number | null; error?: string }>(
        'workspace/executeCommand',
        { command: 'lpreq.send', arguments: [uri, LIST_LINE] },
        20_000,
      );
      const progress = (await begun).params as { token: string; value: { cancellable: boolean } };
      assert.equal(progress.value.cancellable, true);
      await waitUntil(() => api.received.length > 0 && api.received[api.received.length - 1].method === 'GET');
      c.notify('window/workDoneProgress/cancel', { token: progress.token });
      const result = await answer;
      assert.equal(result.ok, false);
      assert.match(result.error ?? '', /cancel/i);
      const ended = c.notifications.find(
        (m) =>
          m.method === '$/progress' &&
          (m.params as { token: string; value: { kind: string } }).token === progress.token &&
          (m.params as { value: { kind: string } }).value.kind === 'end',
      );
      assert.ok(ended, 'the progress ends');
      // Cancelled as a request ($/cancelRequest): the exchange is aborted too, and the answer is empty.
      const id = c.nextRequestId;
      const second = c
        .request('workspace/executeCommand', { command: 'lpreq.send', arguments: [uri, LIST_LINE] }, 20_000)
        .catch((e: unknown) => e);
      await waitUntil(
        () =>
          c.notifications.filter(
            (m) => m.method === '$/progress' && (m.params as { value: { kind: string } }).value.kind === 'begin',
          ).length === 2,
      );
      c.notify('$/cancelRequest', { id });
      const answered = await second;
      assert.ok(answered === null || (answered instanceof Error && /cancel/i.test(answered.message)), String(answered));
      // The server goes on: a hover is answered.
      await c.request('textDocument/hover', { textDocument: { uri }, position: { line: LIST_LINE, character: 5 } });
    });
  } finally {
    hold = undefined;
    release();
  }
});

async function waitUntil(condition: () => boolean, timeoutMs = 10_000) {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error('not within the time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

test('lsp send: malformed arguments are answered with an error, never read as something else; the server goes on', async () => {
  const { dir, uri } = workspace();
  const outside = tempDir('lsp-send-outside');
  const stray = join(outside, 'stray.lpreq');
  writeFileSync(stray, REQUESTS);
  await withServer(dir, async ({ c }) => {
    open(c, uri);
    const before = api.received.length;
    const bad: unknown[] = [
      null,
      {},
      { command: 42 },
      { command: 'lpreq.nothing', arguments: [] },
      { command: 'lpreq.send' },
      { command: 'lpreq.send', arguments: 'x' },
      { command: 'lpreq.send', arguments: [uri] },
      { command: 'lpreq.send', arguments: [uri, -1] },
      { command: 'lpreq.send', arguments: [uri, 1.5] },
      { command: 'lpreq.send', arguments: [uri, '2'] },
      { command: 'lpreq.send', arguments: [uri, Number.MAX_VALUE] },
      { command: 'lpreq.send', arguments: [{ uri }, 2] },
      { command: 'lpreq.send', arguments: [uri, 2, { prompts: { a: 1 } }] },
      { command: 'lpreq.send', arguments: [uri, 2, [1]] },
      { command: 'lpreq.send', arguments: [uri, 2, { prompts: ['x'] }] },
      { command: 'lpreq.send', arguments: [uri, 2, {}, 'extra'] },
      // Past the end of the document.
      { command: 'lpreq.send', arguments: [uri, 9999] },
      // Not an open document, and not a file of the workspace.
      { command: 'lpreq.send', arguments: [pathToFileURL(stray).href, 2] },
      { command: 'lpreq.send', arguments: ['file:///etc/passwd', 0] },
      { command: 'lpreq.send', arguments: ['untitled:Untitled-1', 0] },
      { command: 'lpreq.send', arguments: ['http://127.0.0.1/x.lpreq', 0] },
      { command: 'lpreq.sendAll', arguments: [pathToFileURL(join(dir, 'missing.lpreq')).href] },
      { command: 'lpreq.copyAsCurl', arguments: [uri, 'x'] },
      { command: 'lpreq.selectEnvironment', arguments: [42] },
      { command: 'lpreq.selectEnvironment', arguments: ['local', 'x'] },
      { command: 'lpreq.selectEnvironment', arguments: [''] },
    ];
    for (const params of bad) {
      const answer = await c.request('workspace/executeCommand', params, 20_000).then(
        (r) => ({ result: r }),
        (e: { code?: number; message: string }) => ({ code: e.code, message: e.message }),
      );
      assert.equal((answer as { code?: number }).code, -32602, `${JSON.stringify(params)}: ${JSON.stringify(answer)}`);
    }
    assert.equal(api.received.length, before, 'nothing was sent');
    // A file of the workspace that is not open can be sent (the command names it).
    const closed = join(dir, 'closed.lpreq');
    writeFileSync(closed, REQUESTS);
    const sent = await c.request<{ ok: boolean }>(
      'workspace/executeCommand',
      { command: 'lpreq.send', arguments: [pathToFileURL(closed).href, LIST_LINE] },
      20_000,
    );
    assert.equal(sent.ok, true);
    const hover = await c.request('textDocument/hover', {
      textDocument: { uri },
      position: { line: LIST_LINE, character: 5 },
    });
    assert.ok(hover);
  });
});

test('lsp send: a request name cannot place the response file elsewhere, and a .lpreq that is a link is not written through', async () => {
  const { dir, uri } = workspace();
  const text = '# @name ../../../escaped\nGET {{base_url}}/api/v1/courses/1/modules\n';
  const elsewhere = tempDir('lsp-send-elsewhere');
  await withServer(dir, async ({ c }) => {
    open(c, uri, text);
    const result = await c.request<{ responseUri: string }>(
      'workspace/executeCommand',
      { command: 'lpreq.send', arguments: [uri, 1] },
      20_000,
    );
    assert.equal(result.responseUri, pathToFileURL(join(dir, '.lpreq', 'responses', 'requests._escaped.jsonc')).href);
  });
  const linked = workspace();
  symlinkSync(elsewhere, join(linked.dir, '.lpreq'));
  await withServer(linked.dir, async ({ c }) => {
    open(c, linked.uri);
    const told = c.waitFor(
      (m) =>
        m.method === 'window/showMessage' &&
        /not written|symbolic link/.test(String((m.params as { message: string }).message)),
      20_000,
    );
    const result = await c.request<{ responseUri?: string; ok: boolean }>(
      'workspace/executeCommand',
      { command: 'lpreq.send', arguments: [linked.uri, LIST_LINE] },
      20_000,
    );
    assert.equal(result.responseUri, undefined);
    await told;
    assert.deepEqual(readdirSync(elsewhere), [], 'nothing was written through the link');
    assert.ok(lstatSync(join(linked.dir, '.lpreq')).isSymbolicLink());
  });
});

test('lsp send: Copy as cURL answers the command, without the token, and shows it', async () => {
  const { dir, uri } = workspace({ privateToken: true });
  await withServer(dir, async ({ c }) => {
    open(c, uri);
    const shown = c.waitFor(
      (m) => m.method === 'window/showMessage' && String((m.params as { message: string }).message).includes('curl '),
      20_000,
    );
    const { command } = await c.request<{ command: string }>(
      'workspace/executeCommand',
      { command: 'lpreq.copyAsCurl', arguments: [uri, LIST_LINE] },
      20_000,
    );
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
    assert.equal(
      command,
      `curl --globoff ${api.origin}/api/v1/courses/1/modules \\\n  -H 'Accept: application/json' \\\n  -H 'User-Agent: lpreq/${version}' \\\n  -H "Authorization: Bearer $LPREQ_TOKEN"`,
    );
    // The message is one line: a status line (Helix) or an echo area (Emacs) shows one.
    const message = String(((await shown).params as { message: string }).message);
    assert.ok(message.includes(command.replace(/ \\\n\s*/g, ' ')), message);
    assert.ok(!message.includes('\n'));
    assert.ok(!message.includes(TOKEN) && !message.includes(PRIVATE_TOKEN));
    // Generate Code answers the program, which reads the token from the environment.
    const js = await c.request<{ code: string }>(
      'workspace/executeCommand',
      { command: 'lpreq.generateCode', arguments: [uri, LIST_LINE, 'javascript'] },
      20_000,
    );
    assert.match(js.code, /process\.env\.LPREQ_TOKEN/);
    const py = await c.request<{ code: string }>(
      'workspace/executeCommand',
      { command: 'lpreq.generateCode', arguments: [uri, LIST_LINE, 'python'] },
      20_000,
    );
    assert.match(py.code, /os\.environ\["LPREQ_TOKEN"\]/);
    for (const code of [js.code, py.code]) assert.ok(!code.includes(TOKEN) && !code.includes(PRIVATE_TOKEN));
    await assert.rejects(
      c.request(
        'workspace/executeCommand',
        { command: 'lpreq.generateCode', arguments: [uri, LIST_LINE, 'cobol'] },
        20_000,
      ),
    );
  });
});

test('lsp send: the environment rule picks local among several; lpreq.selectEnvironment offers the environments, checks again with the choice and remembers it for the next session', async () => {
  const { dir, uri } = workspace();
  const text = 'GET {{base_url}}/api/v1/courses/{{only_other}}/modules\n';
  writeFileSync(
    join(dir, 'http-client.env.json'),
    JSON.stringify({ local: { base_url: api.origin }, other: { base_url: api.origin, only_other: '1' } }),
  );
  await withServer(
    dir,
    async ({ c, asked }) => {
      // Nothing chosen yet: `local`, as lpreq send takes it, where {{only_other}} is not defined.
      const first = c.diagnostics(uri);
      open(c, uri, text);
      assert.deepEqual(
        ((await first) as unknown as Published).diagnostics.map((d) => d.code),
        ['unresolved-variable'],
      );
      const again = c.diagnostics(uri);
      const chosen = await c.request<{ environment: string | null }>(
        'workspace/executeCommand',
        { command: 'lpreq.selectEnvironment', arguments: [] },
        20_000,
      );
      assert.deepEqual(chosen, { environment: 'other' });
      const offered = asked.find((m) => m.method === 'window/showMessageRequest')?.params as {
        actions: { title: string }[];
      };
      assert.deepEqual(
        offered.actions.map((a) => a.title),
        ['local', 'other', 'No environment'],
      );
      assert.deepEqual(
        ((await again) as unknown as Published).diagnostics.map((d) => d.code),
        [],
      );
      assert.deepEqual(JSON.parse(readFileSync(join(dir, '.lpreq', 'environment.json'), 'utf8')), {
        environment: 'other',
      });
    },
    { answer: (m) => (m.method === 'window/showMessageRequest' ? { title: 'other' } : null) },
  );
  // The next session starts with it, over the configuration's default; `lpreq env` reads the same choice.
  assert.match(lpreqEnv(dir), /^environment: other \(chosen for this project\)$/m);
  await withServer(
    dir,
    async ({ c }) => {
      const first = c.diagnostics(uri);
      open(c, uri, text);
      assert.deepEqual(
        ((await first) as unknown as Published).diagnostics.map((d) => d.code),
        [],
      );
      const again = c.diagnostics(uri);
      const named = await c.request(
        'workspace/executeCommand',
        { command: 'lpreq.selectEnvironment', arguments: [null] },
        20_000,
      );
      assert.deepEqual(named, { environment: null });
      assert.deepEqual(JSON.parse(readFileSync(join(dir, '.lpreq', 'environment.json'), 'utf8')), {
        environment: null,
      });
      // No environment: a variable of any environment counts as defined when checking.
      assert.deepEqual(
        ((await again) as unknown as Published).diagnostics.map((d) => d.code),
        [],
      );
      // And nothing is sent: the request needs {{base_url}}, which only an environment gives.
      const before = api.received.length;
      const answer = await c.request<{ ok: boolean; error?: string }>(
        'workspace/executeCommand',
        { command: 'lpreq.send', arguments: [uri, 0] },
        20_000,
      );
      assert.equal(answer.ok, false);
      assert.match(answer.error ?? '', /no environment is chosen: choose one of local, other/);
      assert.equal(api.received.length, before);
    },
    { init: { environment: 'local' } },
  );
  assert.match(lpreqEnv(dir), /^environment: no environment \(chosen\)$/m);
});

test('lsp send: an editor with lenses of its own (clientLenses) is offered no lens, code action or command of the server', async () => {
  const { dir, uri } = workspace();
  mkdirSync(join(dir, '.lpreq'), { recursive: true });
  writeFileSync(join(dir, '.lpreq', 'environment.json'), JSON.stringify({ environment: 'other' }));
  await withServer(
    dir,
    async ({ c }) => {
      const caps = (c.initializeResult as { capabilities: Record<string, unknown> }).capabilities;
      assert.equal(caps.executeCommandProvider, undefined);
      assert.equal(caps.codeLensProvider, undefined);
      const first = c.diagnostics(uri);
      open(c, uri);
      await first;
      assert.deepEqual(await c.request('textDocument/codeLens', { textDocument: { uri } }), []);
      const actions = await c.request<{ command?: unknown }[]>('textDocument/codeAction', {
        textDocument: { uri },
        range: { start: { line: LIST_LINE, character: 0 }, end: { line: LIST_LINE, character: 0 } },
        context: { diagnostics: [] },
      });
      assert.ok(actions.every((a) => a.command === undefined));
      const refused = await c
        .request('workspace/executeCommand', { command: 'lpreq.send', arguments: [uri, LIST_LINE] })
        .then(
          () => undefined,
          (e: { code?: number }) => e.code,
        );
      assert.equal(refused, -32600);
    },
    { init: { clientLenses: true, environment: 'local' } },
  );
  assert.ok(existsSync(join(dir, '.lpreq', 'environment.json')));
});
