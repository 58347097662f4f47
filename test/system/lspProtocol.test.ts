import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { LineIndex } from '../../server/src/core/index';
import { LspClient, ROOT } from '../lsp/rpc';
import { getChecker } from '../lsp/helpers';
import { fuzzRuns } from '../fuzzRuns';
import { tempDir } from '../helpers';

before(() => {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT });
});

const TEXT = [
  '@course = 42',
  '### Create an item',
  'POST /api/v1/courses/{{course}}/modules/7/items',
  '',
  'module_item[type] = Asignment',
  'module_item[completion_requirement][type] = must_submit',
  '',
  '### Files',
  'GET /api/v1/courses/{{course}}/files?sort=size&srot=x',
  '',
].join('\n');

type Published = {
  uri: string;
  version?: number;
  diagnostics: {
    code: string;
    source: string;
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
    tags?: number[];
  }[];
};

async function withServer(fn: (c: LspClient) => Promise<void>, env?: string) {
  const c = new LspClient();
  const timer = setTimeout(() => c.kill(), 30000);
  try {
    await c.initialize(env ? { environment: env } : {});
    await fn(c);
    await c.shutdown();
    assert.equal(c.process.exitCode, 0, c.stderr);
  } finally {
    clearTimeout(timer);
    c.kill();
  }
}

test('protocol: diagnostics equal `lpreq check`, then follow incremental edits', async () => {
  await withServer(async (c) => {
    const uri = 'untitled:a.lpreq';
    const first = c.diagnostics(uri, 1);
    c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text: TEXT } });
    const published = (await first) as unknown as Published;
    const index = new LineIndex(TEXT);
    const expected = getChecker()
      .checkText(TEXT)
      .diagnostics.map((d) => {
        const s = index.at(d.start);
        const e = index.at(d.end);
        return [d.code, s.line - 1, s.column - 1, e.line - 1, e.column - 1];
      });
    const actual = published.diagnostics.map((d) => [
      d.code,
      d.range.start.line,
      d.range.start.character,
      d.range.end.line,
      d.range.end.character,
    ]);
    assert.deepEqual(actual.sort(), expected.sort());
    assert.ok(published.diagnostics.every((d) => d.source === 'lpreq'));
    // Fix the typo with an incremental change: Asignment -> Assignment.
    const second = c.diagnostics(uri, 2);
    c.notify('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: 4, character: 21 }, end: { line: 4, character: 21 } }, text: 's' }],
    });
    const after = (await second) as unknown as Published;
    assert.ok(!after.diagnostics.some((d) => d.code === 'invalid-enum'));
    assert.ok(after.diagnostics.some((d) => d.code === 'unknown-parameter'));

    const completion = await c.request<{ items: { label: string; textEdit: { newText: string } }[] }>(
      'textDocument/completion',
      {
        textDocument: { uri },
        position: { line: 8, character: 40 },
      },
    );
    assert.ok(
      completion.items.some((i) => i.label === 'order'),
      JSON.stringify(completion.items.map((i) => i.label)),
    );
    const hover = await c.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 2, character: 8 },
    });
    assert.match(hover.contents.value, /ModuleItem/);
    const actions = await c.request<{ title: string; edit: unknown }[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 8, character: 47 }, end: { line: 8, character: 47 } },
      context: { diagnostics: [] },
    });
    assert.ok(
      actions.some((a) => a.title === "Change to 'sort'"),
      JSON.stringify(actions.map((a) => a.title)),
    );
    const symbols = await c.request<{ name: string }[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.deepEqual(
      symbols.map((s) => s.name),
      [
        '@course',
        'POST /api/v1/courses/{{course}}/modules/7/items',
        'GET /api/v1/courses/{{course}}/files?sort=size&srot=x',
      ],
    );
    const edits = await c.request<unknown[]>('textDocument/formatting', {
      textDocument: { uri },
      options: { tabSize: 2, insertSpaces: true },
    });
    assert.deepEqual(edits, []);
    // A request for an unknown document or a broken position gives an empty answer, not an error.
    assert.equal(
      await c.request('textDocument/hover', {
        textDocument: { uri: 'untitled:none' },
        position: { line: 0, character: 0 },
      }),
      null,
    );
  });
});

test('protocol: the diagnostics published at open, from one pass over the text, equal those of the kept tree', async () => {
  // Every example and conformance file in one document: variables set again, request names
  // used before they are defined, every code, quick-fix data and tags.
  const dirs = [
    join(ROOT, 'examples'),
    ...['invalid', 'valid'].map((d) => join(ROOT, '..', 'shared', 'conformance', d)),
  ];
  const text = dirs
    .flatMap((dir) =>
      readdirSync(dir)
        .filter((f) => f.endsWith('.lpreq'))
        .sort()
        .map((f) => readFileSync(join(dir, f), 'utf8')),
    )
    .join('\n###\n')
    // A lone \r is a line break to the editor (and to TextDocument), though not to the parser.
    .concat('\n### lone CR\nPOST /api/v1/courses/1/modules/2/items\n\n# note\rmore\nmodule_item[type] = Asignment\n');
  await withServer(async (c) => {
    const uri = 'untitled:all.lpreq';
    const opened = c.diagnostics(uri, 1, 20000);
    c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text } });
    const atOpen = ((await opened) as unknown as Published).diagnostics;
    assert.ok(atOpen.length > 50, `only ${atOpen.length} diagnostics`);
    // The same text again, as a new version: checked from the parsed tree, block by block.
    const again = c.diagnostics(uri, 2, 20000);
    c.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text }] });
    const fromTree = ((await again) as unknown as Published).diagnostics;
    const key = (d: unknown) => JSON.stringify(d);
    assert.deepEqual(atOpen.map(key).sort(), fromTree.map(key).sort());
  });
});

test('protocol: environments come from the env files, the selection and their changes', async () => {
  const dir = tempDir('lsp');
  try {
    writeFileSync(
      join(dir, 'http-client.env.json'),
      JSON.stringify({
        dev: { base_url: 'http://127.0.0.1:4010' },
        prod: { base_url: 'https://lms.example.edu', only_prod: '1' },
      }),
    );
    writeFileSync(join(dir, 'http-client.private.env.json'), JSON.stringify({ dev: { token: 'very-secret-token' } }));
    const uri = pathToFileURL(join(dir, 'a.lpreq')).href;
    const text = 'GET {{base_url}}/api/v1/courses/{{only_prod}}/modules\nAuthorization: Bearer {{token}}\n';
    await withServer(async (c) => {
      const first = c.diagnostics(uri, 1);
      c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text } });
      assert.deepEqual(
        ((await first) as unknown as Published).diagnostics.map((d) => d.code),
        ['unresolved-variable'],
      );
      const hover = await c.request<{ contents: { value: string } }>('textDocument/hover', {
        textDocument: { uri },
        position: { line: 1, character: 26 },
      });
      assert.match(hover.contents.value, /\(secret\)/);
      assert.ok(!hover.contents.value.includes('very-secret-token'));
      const selected = c.diagnostics(uri);
      c.notify('lpreq/selectEnvironment', { name: 'prod' });
      assert.deepEqual(
        ((await selected) as unknown as Published).diagnostics.map((d) => d.code),
        ['unresolved-variable'],
      );
      // Go to definition of an environment variable: its key in the env file, for the chosen environment.
      const defs = await c.request<{ uri: string; range: { start: { line: number; character: number } } }[]>(
        'textDocument/definition',
        {
          textDocument: { uri },
          position: { line: 0, character: 8 },
        },
      );
      assert.deepEqual(
        defs.map((d) => [d.uri, d.range.start]),
        [[pathToFileURL(join(dir, 'http-client.env.json')).href, { line: 0, character: 53 }]],
      );
      writeFileSync(
        join(dir, 'http-client.env.json'),
        JSON.stringify({ dev: { base_url: 'x', only_prod: '2' }, prod: { base_url: 'y', only_prod: '3', token: 't' } }),
      );
      const changed = c.diagnostics(uri);
      c.notify('workspace/didChangeWatchedFiles', {
        changes: [{ uri: pathToFileURL(join(dir, 'http-client.env.json')).href, type: 2 }],
      });
      assert.deepEqual(((await changed) as unknown as Published).diagnostics, []);
    }, 'dev');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('protocol: a request variable needs an earlier request of that name, as the blocks move', async () => {
  const uri = 'file:///order.lpreq';
  const a = '### a\n# @name a\nGET /api/v1/courses/1/modules\n\n';
  const b = '### b\n# @name b\nGET /api/v1/courses/1/modules\n\n';
  const use = '### uses b\nGET /api/v1/courses/1/modules/{{b.response.body.$.id}}\n\n';
  const lines = (published: unknown) => (published as Published).diagnostics.map((d) => [d.code, d.range.start.line]);
  await withServer(async (c) => {
    const opened = c.diagnostics(uri, 1);
    c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text: a + use + b } });
    assert.deepEqual(lines(await opened), [['unresolved-variable', 5]]);
    // b moves above the request that uses it (a's and b's order changes too): defined.
    const moved = c.diagnostics(uri, 2);
    c.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: b + use + a }] });
    assert.deepEqual(lines(await moved), []);
    // a and b swap places around it: the per-block cache must not keep the answer of before.
    const swapped = c.diagnostics(uri, 3);
    c.notify('textDocument/didChange', { textDocument: { uri, version: 3 }, contentChanges: [{ text: a + use + b }] });
    assert.deepEqual(lines(await swapped), [['unresolved-variable', 5]]);
  });
});

test('protocol: an untitled document (not saved yet) is checked and completed too', async () => {
  const uri = 'untitled:Untitled-1';
  await withServer(async (c) => {
    const published = c.diagnostics(uri, 1);
    c.notify('textDocument/didOpen', {
      textDocument: { uri, languageId: 'lpreq', version: 1, text: 'GET /api/v1/courses/42/filez\n' },
    });
    assert.deepEqual(
      (await published).diagnostics.map((d) => d.code),
      ['unknown-endpoint'],
    );
    const completion = await c.request<{ items: { label: string }[] }>('textDocument/completion', {
      textDocument: { uri },
      position: { line: 0, character: 24 },
    });
    assert.ok(completion.items.length > 0);
  });
});

test('protocol: an assertion line is completed, hovered, checked and fixed by the real server', async () => {
  const uri = 'untitled:assertions.lpreq';
  const text = 'GET /api/v1/courses/42/modules/7\n?? body $.nmae exists\n?? body $.';
  await withServer(async (c) => {
    const published = c.diagnostics(uri, 1);
    c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text } });
    const diagnostics = ((await published) as unknown as Published).diagnostics;
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character, d.range.end.character]),
      [
        ['unknown-field', 1, 10, 14],
        ['invalid-assertion', 2, 9, 10],
      ],
    );
    // After `?? body $.`: Module's fields, each with its type.
    const completion = await c.request<{
      items: { label: string; detail?: string; textEdit?: { newText: string; range: unknown } }[];
    }>('textDocument/completion', {
      textDocument: { uri },
      position: { line: 2, character: 10 },
    });
    const state = completion.items.find((i) => i.label === 'workflow_state');
    assert.ok(state, JSON.stringify(completion.items.map((i) => i.label)));
    assert.equal(state.detail, 'string');
    assert.deepEqual(state.textEdit, {
      newText: 'workflow_state',
      range: { start: { line: 2, character: 10 }, end: { line: 2, character: 10 } },
    });
    const hover = await c.request<{ contents: { value: string } }>('textDocument/hover', {
      textDocument: { uri },
      position: { line: 1, character: 4 },
    });
    assert.match(hover.contents.value, /assertion field/);
    const actions = await c.request<{ title: string }[]>('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line: 1, character: 11 }, end: { line: 1, character: 11 } },
      context: { diagnostics: [] },
    });
    assert.ok(
      actions.some((a) => a.title === "Change to 'name'"),
      JSON.stringify(actions.map((a) => a.title)),
    );
  });
});

test('protocol: a broken environment file is shown to the user, not only logged', async () => {
  const dir = tempDir('lsp');
  try {
    writeFileSync(join(dir, 'http-client.env.json'), '{ "dev": { "base_url": ');
    writeFileSync(join(dir, 'http-client.private.env.json'), JSON.stringify({ dev: { course: '7' } }));
    const uri = pathToFileURL(join(dir, 'a.lpreq')).href;
    await withServer(async (c) => {
      const shown = c.waitFor((m) => m.method === 'window/showMessage');
      const published = c.diagnostics(uri, 1);
      c.notify('textDocument/didOpen', {
        textDocument: {
          uri,
          languageId: 'lpreq',
          version: 1,
          text: 'GET {{base_url}}/api/v1/courses/{{course}}/modules\n',
        },
      });
      const message = (await shown) as unknown as { params: { type: number; message: string } };
      assert.equal(message.params.type, 2);
      assert.match(message.params.message, /http-client\.env\.json: not valid JSON/);
      // The private file still counts: only the broken file's base_url is unresolved.
      const diagnostics = ((await published) as unknown as Published).diagnostics;
      assert.deepEqual(
        diagnostics.map((d) => [d.code, d.range.start.character]),
        [['unresolved-variable', 4]],
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('protocol: a broken or binary document does not stop the server', async () => {
  await withServer(async (c) => {
    const uri = 'untitled:bin.lpreq';
    let junk = '';
    for (let i = 0; i < 200000; i++) junk += String.fromCharCode((i * 7919) % 65536);
    const first = c.diagnostics(uri, 1, 20000);
    c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text: junk } });
    await first;
    for (const character of [0, 5, 100, 5000]) {
      await c.request('textDocument/completion', { textDocument: { uri }, position: { line: 0, character } });
      await c.request('textDocument/hover', { textDocument: { uri }, position: { line: 3, character } });
    }
    const symbols = await c.request<unknown[]>('textDocument/documentSymbol', { textDocument: { uri } });
    assert.ok(Array.isArray(symbols));
    // A change without text is refused whole; the next good one applies to the document as it was.
    c.notify('textDocument/didChange', { textDocument: { uri, version: 2 }, contentChanges: [{ text: 12345 }] });
    const fixed = c.diagnostics(uri, 3);
    c.notify('textDocument/didChange', {
      textDocument: { uri, version: 3 },
      contentChanges: [
        {
          range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
          text: 'GET /api/v1/courses/1/modulez\n###\n',
        },
      ],
    });
    assert.deepEqual(
      ((await fixed) as unknown as Published).diagnostics.filter((d) => d.range.start.line === 0).map((d) => d.code),
      ['unknown-endpoint'],
    );
  });
});

test('protocol: semantic tokens, full and by range, at the editor positions of a CRLF document', async () => {
  await withServer(async (c) => {
    const lines = [
      '@course = 42',
      '### Create an item',
      'POST /api/v1/courses/{{course}}/modules/7/items',
      '',
      'module_item[type] = Page',
      '',
      '### Files',
      'GET /api/v1/courses/1/files?sort=size',
    ];
    const text = lines.join('\r\n');
    const uri = 'untitled:tokens.lpreq';
    const opened = c.diagnostics(uri, 1);
    c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text } });
    await opened;
    const init = c.initializeResult as {
      capabilities: { semanticTokensProvider?: { legend: { tokenTypes: string[]; tokenModifiers: string[] } } };
    };
    const legend = init.capabilities.semanticTokensProvider?.legend;
    assert.ok(legend, 'semantic tokens are offered');
    const decode = (data: number[]) => {
      const out: string[] = [];
      let line = 0;
      let character = 0;
      for (let i = 0; i < data.length; i += 5) {
        line += data[i];
        character = data[i] === 0 ? character + data[i + 1] : data[i + 1];
        out.push(
          `${line}:${character} ${lines[line].slice(character, character + data[i + 2])} ${legend.tokenTypes[data[i + 3]]}`,
        );
      }
      return out;
    };
    const full = await c.request<{ data: number[] }>('textDocument/semanticTokens/full', { textDocument: { uri } });
    assert.deepEqual(decode(full.data), [
      '2:23 course variable',
      '2:40 7 parameter',
      '4:0 module_item[type] property',
      '4:20 Page enumMember',
      '7:20 1 parameter',
      '7:28 sort property',
      '7:33 size enumMember',
    ]);
    const range = await c.request<{ data: number[] }>('textDocument/semanticTokens/range', {
      textDocument: { uri },
      range: { start: { line: 7, character: 0 }, end: { line: 7, character: 5 } },
    });
    assert.deepEqual(decode(range.data), ['7:20 1 parameter', '7:28 sort property', '7:33 size enumMember']);

    // An edit, then a delta against the full answer: one splice that gives the new tokens.
    const previous = full as { resultId: string; data: number[] };
    assert.ok(previous.resultId);
    c.notify('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [
        { range: { start: { line: 4, character: 20 }, end: { line: 4, character: 24 } }, text: 'Pagee' },
      ],
    });
    const delta = await c.request<{
      resultId: string;
      edits: { start: number; deleteCount: number; data: number[] }[];
    }>('textDocument/semanticTokens/full/delta', { textDocument: { uri }, previousResultId: previous.resultId });
    assert.equal(delta.edits.length, 1);
    const spliced = [...previous.data];
    for (const e of delta.edits) spliced.splice(e.start, e.deleteCount, ...e.data);
    lines[4] = 'module_item[type] = Pagee';
    assert.deepEqual(decode(spliced), [
      '2:23 course variable',
      '2:40 7 parameter',
      '4:0 module_item[type] property',
      '7:20 1 parameter',
      '7:28 sort property',
      '7:33 size enumMember',
    ]);
    // A delta against an unknown result is a full answer.
    const unknown = await c.request<{ data?: number[] }>('textDocument/semanticTokens/full/delta', {
      textDocument: { uri },
      previousResultId: 'nope',
    });
    assert.deepEqual(decode(unknown.data ?? []), decode(spliced));
  });
});

test('protocol: semantic tokens follow the environment (the editor is told to ask again) and where a variable is defined', async () => {
  const dir = tempDir('lsp');
  const c = new LspClient();
  const timer = setTimeout(() => c.kill(), 30000);
  try {
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ dev: { course: '42' }, prod: { other: '1' } }));
    const uri = pathToFileURL(join(dir, 'a.lpreq')).href;
    const text = 'GET /api/v1/courses/1/modules\n###\nGET /api/v1/courses/{{course}}/files?sort=size\n';
    await c.initialize({ environment: 'dev' }, null, { semanticTokens: { refreshSupport: true } });
    const opened = c.diagnostics(uri, 1);
    c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text } });
    await opened;
    const legend = (
      c.initializeResult as {
        capabilities: { semanticTokensProvider: { legend: { tokenTypes: string[]; tokenModifiers: string[] } } };
      }
    ).capabilities.semanticTokensProvider.legend;
    const tokens = async () => {
      const { data } = await c.request<{ data: number[] }>('textDocument/semanticTokens/full', {
        textDocument: { uri },
      });
      const out: string[] = [];
      for (let i = 0; i < data.length; i += 5) {
        const modifiers = legend.tokenModifiers.filter((_, k) => data[i + 4] & (1 << k));
        out.push([legend.tokenTypes[data[i + 3]], ...modifiers].join('.'));
      }
      return out;
    };
    assert.deepEqual(await tokens(), ['parameter', 'variable.readonly', 'property', 'enumMember']);
    // Defined in the file too, in another request, with the same value: a variable of the file, no longer the environment's.
    const edited = c.diagnostics(uri, 2);
    c.notify('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [
        { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '@course = 42\n' },
      ],
    });
    await edited;
    assert.deepEqual(await tokens(), ['parameter', 'variable', 'property', 'enumMember']);
    // Another environment: the editor is asked to fetch the tokens again.
    const refresh = c.waitFor((m) => m.method === 'workspace/semanticTokens/refresh');
    c.notify('lpreq/selectEnvironment', { name: 'prod' });
    await refresh;
    await c.shutdown();
  } finally {
    clearTimeout(timer);
    c.kill();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('protocol: semantic tokens of a large document come in slices: a completion asked meanwhile is answered first, and an edit meanwhile gives ContentModified', async () => {
  const { generateDocument } = await import('../../bench/lsp-bench');
  const { text } = generateDocument(4000);
  await withServer(async (c) => {
    const uri = 'untitled:large.lpreq';
    const opened = c.diagnostics(uri, 1, 60000);
    c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text } });
    await opened;
    const order: string[] = [];
    const [tokens, completion] = c.together(
      [
        { method: 'textDocument/semanticTokens/full', params: { textDocument: { uri } }, request: true },
        {
          method: 'textDocument/completion',
          params: { textDocument: { uri }, position: { line: 0, character: 0 } },
          request: true,
        },
      ],
      60000,
    );
    await Promise.all([tokens.then(() => order.push('tokens')), completion.then(() => order.push('completion'))]);
    assert.deepEqual(order, ['completion', 'tokens']);
    assert.ok(((await tokens) as { data: number[] }).data.length > 0);
    // An edit while the tokens are gathered: the answer would be for a text that is gone.
    const edit = {
      method: 'textDocument/didChange',
      params: {
        textDocument: { uri, version: 2 },
        contentChanges: [
          { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: '# edited\n' },
        ],
      },
    };
    const [stale] = c.together(
      [{ method: 'textDocument/semanticTokens/full', params: { textDocument: { uri } }, request: true }, edit],
      60000,
    );
    await assert.rejects(stale, /the document changed/);
  });
});

test('protocol: highlights of a variable and of a named request, definitions marked as writes', async () => {
  await withServer(async (c) => {
    const uri = 'untitled:highlight.lpreq';
    const text =
      '@course = 42\n# @name list\nGET /api/v1/courses/{{course}}/modules\n###\nGET /api/v1/courses/{{course}}/modules/{{list.response.body.$.id}}\n';
    const opened = c.diagnostics(uri, 1);
    c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text } });
    await opened;
    type Highlight = { range: { start: { line: number; character: number } }; kind: number };
    const variable = await c.request<Highlight[]>('textDocument/documentHighlight', {
      textDocument: { uri },
      position: { line: 2, character: 24 },
    });
    assert.deepEqual(
      variable.map((h) => [h.range.start.line, h.range.start.character, h.kind]),
      [
        [0, 1, 3],
        [2, 22, 2],
        [4, 22, 2],
      ],
    );
    const request = await c.request<Highlight[]>('textDocument/documentHighlight', {
      textDocument: { uri },
      position: { line: 4, character: 44 },
    });
    assert.deepEqual(
      request.map((h) => [h.range.start.line, h.range.start.character, h.kind]),
      [
        [1, 8, 3],
        [4, 41, 2],
      ],
    );
    // Not on a variable or a request name: null, so that the editor highlights the word as text.
    assert.equal(
      await c.request('textDocument/documentHighlight', { textDocument: { uri }, position: { line: 2, character: 1 } }),
      null,
    );
  });
});

test('protocol: a change whose range is given end first is applied and re-parsed at the same offsets', async () => {
  await withServer(async (c) => {
    const uri = 'untitled:reversed.lpreq';
    const text = Array.from({ length: 6 }, (_, i) => `### r${i}\nGET /api/v1/courses/${i}/modules\n`).join('\n');
    const opened = c.diagnostics(uri, 1);
    c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text } });
    await opened;
    assert.equal((await c.request<unknown[]>('textDocument/documentSymbol', { textDocument: { uri } })).length, 6);
    // The blank line between the first two requests and the line break before it become `x`, given end first:
    // the second request's `###` no longer starts a line, and five requests are left.
    const changed = c.diagnostics(uri, 2);
    c.notify('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ range: { start: { line: 3, character: 0 }, end: { line: 2, character: 0 } }, text: 'x' }],
    });
    const published = (await changed) as unknown as Published;
    const after = text.replace('modules\n\n### r1', 'modules\nx### r1');
    const symbols = await c.request<{ name: string; range: { start: { line: number } } }[]>(
      'textDocument/documentSymbol',
      { textDocument: { uri } },
    );
    assert.deepEqual(
      symbols.map((s) => [s.name, s.range.start.line]),
      [0, 2, 3, 4, 5].map((i) => [`GET /api/v1/courses/${i}/modules`, i === 0 ? 0 : 3 * i - 1]),
    );
    const index = new LineIndex(after);
    const expected = getChecker()
      .diagnose(after)
      .map((d) => [d.code, index.at(d.start).line - 1, index.at(d.start).column - 1]);
    assert.deepEqual(
      published.diagnostics.map((d) => [d.code, d.range.start.line, d.range.start.character]),
      expected,
    );
  });
});

/** Edits of the protocol fuzz (`LPREQ_FUZZ_RUNS` sets it: test/fuzzRuns.ts). */
const PROTOCOL_FUZZ_RUNS = fuzzRuns(150);

/**
 * What the server must believe the text is: a change whose positions are integers from 0 is
 * applied as TextDocument reads it (a position past the end clamped, a range given end first
 * read start first); any other change is refused, with the rest of its notification.
 */
function modelOffset(text: string, position: { line: number; character: number }): number {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 && text.charCodeAt(i + 1) === 10) i++;
    if (c === 13 || c === 10) starts.push(i + 1);
  }
  if (position.line >= starts.length) return text.length;
  const next = position.line + 1 < starts.length ? starts[position.line + 1] : text.length;
  let at = Math.min(starts[position.line] + position.character, next);
  while (at > starts[position.line] && (text.charCodeAt(at - 1) === 10 || text.charCodeAt(at - 1) === 13)) at--;
  return at;
}

const isIndex = (n: unknown) => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
const isPosition = (p: unknown) =>
  typeof p === 'object' &&
  p !== null &&
  isIndex((p as { line?: unknown }).line) &&
  isIndex((p as { character?: unknown }).character);

test('protocol fuzz: malformed ranges and positions are refused, never applied; the server keeps the text it believes in, and its diagnostics equal a fresh check of it', async () => {
  const { TextDocument } = await import('vscode-languageserver-textdocument');
  const { createLanguageService } = await import('../../server/src/core/index');
  const { handlers } = await import('../../server/src/lsp/handlers');
  // The table's entries as data: building it reads nothing of the session until a request comes.
  const located = handlers({} as Parameters<typeof handlers>[0]).filter(
    (h) => h.takes === 'position' || h.takes === 'range',
  );
  assert.ok(located.length >= 9, located.map((h) => h.method).join(', '));
  const { bundledCatalog } = await import('../../server/src/catalogData');
  const service = createLanguageService(bundledCatalog());
  const { random } = await import('../../bench/generate');
  const r = random(20261124);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(r() * list.length)];
  const base = readFileSync(join(ROOT, 'examples', 'roles.lpreq'), 'utf8');
  // Pieces that add and remove blocks often: an edit that moves block starts is where a wrong reading of its range shows.
  const PIECES = [
    '',
    '',
    'x',
    '\n',
    '\r\n',
    '\r',
    '###',
    '\n###\n',
    '\n###\n',
    '\n### x\nGET /api/v1/courses/2/modulez\n',
    'module_item[type] = Page\n',
    '\n?? body $.name == x\n',
    "\n?? body $[0]['__proto__'].constructor exists\n",
    '?? ',
    '{{',
    '}}',
    'é',
    '😀',
    'constructor',
  ];
  /** Values that are not a line or a character: negative, fractional, huge past safe integers, strings, nothing. */
  const BAD: unknown[] = [-1, -0.5, 0.5, 1.5, 2 ** 53, 1e300, '3', 'NaN', '', null, true, {}, []];
  let text = base;
  let accepted = 1;
  const uri = 'untitled:fuzz.lpreq';
  const c = new LspClient();
  const timer = setTimeout(() => c.kill(), 120_000);
  try {
    await c.initialize({ debounceMs: 0 });
    type Full = {
      version?: number;
      diagnostics: { code: string; message: string; range: { start: unknown; end: unknown } }[];
    };
    const next = () =>
      c
        .waitFor((m) => m.method === 'textDocument/publishDiagnostics' && (m.params as { uri: string }).uri === uri)
        .then((m) => m.params as Full);
    const expectSame = async (published: Promise<Full>, step: string) => {
      const got = await published;
      assert.equal(got.version, accepted, `${step}: the version the server holds`);
      const model = TextDocument.create(uri, 'lpreq', accepted, text);
      const fresh = getChecker()
        .diagnose(text)
        .map((d) => [d.code, d.message, model.positionAt(d.start), model.positionAt(Math.max(d.start, d.end))]);
      const seen = got.diagnostics.map((d) => [d.code, d.message, d.range.start, d.range.end]);
      const key = (x: unknown) => JSON.stringify(x);
      assert.deepEqual(
        seen.map(key).sort(),
        fresh.map(key).sort(),
        `${step}: diagnostics of ${JSON.stringify(text.slice(0, 200))}...`,
      );
      // The blocks the server holds: the symbols of a fresh parse of the same text, at the same places.
      const symbols = await c.request<{ name: string; range: unknown }[]>('textDocument/documentSymbol', {
        textDocument: { uri },
      });
      const freshSymbols = service.symbols(service.parse(text)).map((s) => ({
        name: s.name,
        range: { start: model.positionAt(s.start), end: model.positionAt(s.end) },
      }));
      assert.deepEqual(
        symbols.map((s) => ({ name: s.name, range: s.range })),
        freshSymbols,
        `${step}: symbols`,
      );
    };
    const opened = next();
    c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text } });
    await expectSame(opened, 'open');
    let version = 1;
    for (let i = 0; i < PROTOCOL_FUZZ_RUNS; i++) {
      version++;
      const model = TextDocument.create(uri, 'lpreq', accepted, text);
      const position = (): { line: unknown; character: unknown } => {
        const p = model.positionAt(Math.floor(r() * (text.length + 1)));
        const kind = r();
        if (kind < 0.55) return p;
        if (kind < 0.65) return { line: model.lineCount + Math.floor(r() * 3), character: Math.floor(r() * 5) };
        if (kind < 0.7) return { line: p.line, character: 100_000 };
        if (kind < 0.75) return { line: 2 ** 31 - 1, character: 2 ** 31 - 1 };
        return r() < 0.5 ? { line: pick(BAD), character: p.character } : { line: p.line, character: pick(BAD) };
      };
      const change = (): Record<string, unknown> => {
        const kind = r();
        if (kind < 0.03) return { text: r() < 0.5 ? base : pick(PIECES) };
        if (kind < 0.06)
          return { range: pick([null, 'x', {}, { start: { line: 0, character: 0 } }]), text: pick(PIECES) };
        if (kind < 0.35) {
          // A range given end first, a few lines long (one across a block start is where a wrong reading shows).
          const a = Math.floor(r() * (text.length + 1));
          return {
            range: { start: model.positionAt(a), end: model.positionAt(Math.max(0, a - Math.floor(r() * 120))) },
            text: pick(PIECES),
          };
        }
        return { range: { start: position(), end: position() }, text: pick(PIECES) };
      };
      const changes = r() < 0.2 ? [change(), change()] : [change()];
      const malformed = changes.some(
        (ch) =>
          'range' in ch &&
          (typeof ch.range !== 'object' ||
            ch.range === null ||
            !isPosition((ch.range as { start?: unknown }).start) ||
            !isPosition((ch.range as { end?: unknown }).end)),
      );
      const published = next();
      c.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: changes });
      if (!malformed) {
        for (const ch of changes) {
          if (!('range' in ch)) {
            text = ch.text as string;
            continue;
          }
          const range = ch.range as {
            start: { line: number; character: number };
            end: { line: number; character: number };
          };
          const a = modelOffset(text, range.start);
          const b = modelOffset(text, range.end);
          text = text.slice(0, Math.min(a, b)) + (ch.text as string) + text.slice(Math.max(a, b));
        }
        accepted = version;
      }
      const step = `edit ${i}: ${JSON.stringify(changes)}`;
      await expectSame(published, step);
      // Every request of the server's table that names a position or a range gets its empty answer for a malformed one, and changes nothing.
      if (r() < 0.3) {
        const bad = { line: pick(BAD), character: 0 };
        const params = {
          textDocument: { uri },
          position: bad,
          positions: [{ line: 0, character: 0 }, bad],
          range: { start: { line: 0, character: 0 }, end: bad },
          context: { diagnostics: [], includeDeclaration: true },
          newName: 'renamed',
        };
        const answers = await Promise.all(located.map((h) => c.request(h.method, params)));
        assert.deepEqual(
          answers,
          located.map((h) => h.empty),
          `${step}: answers of ${located.map((h) => h.method).join(', ')} to ${JSON.stringify(bad)}`,
        );
      }
      // The text stays bounded, and has blocks to edit.
      if (text.length > 6_000 || text.length < 1_000) {
        version++;
        const reset = next();
        c.notify('textDocument/didChange', { textDocument: { uri, version }, contentChanges: [{ text: base }] });
        text = base;
        accepted = version;
        await expectSame(reset, 'reset');
      }
    }
    // Each refusal is a log line; the user is told once that the editor's text may differ.
    const said = (method: string) =>
      c.notifications.filter((m) => m.method === method).map((m) => (m.params as { message: string }).message);
    assert.ok(said('window/logMessage').some((m) => /change: refused a didChange/.test(m)));
    assert.ok(said('window/logMessage').some((m) => /hover: refused: a position must be/.test(m)));
    assert.equal(said('window/showMessage').filter((m) => /cannot be applied/.test(m)).length, 1);
    await c.shutdown();
    assert.equal(c.process.exitCode, 0, c.stderr);
  } finally {
    clearTimeout(timer);
    c.kill();
  }
});

/** A server initialized with `params` as they are (workspace folders, client info), for what initialize decides. */
async function withInitialized(params: Record<string, unknown>, fn: (c: LspClient) => Promise<void>) {
  const c = new LspClient();
  const timer = setTimeout(() => c.kill(), 30000);
  try {
    c.initializeResult = await c.request('initialize', {
      processId: process.pid,
      rootUri: null,
      capabilities: {},
      ...params,
    });
    c.notify('initialized', {});
    await fn(c);
    await c.shutdown();
    assert.equal(c.process.exitCode, 0, c.stderr);
  } finally {
    clearTimeout(timer);
    c.kill();
  }
}

test('protocol: environment files are looked for up to the workspace folder that holds the document, in every folder and in those added later', async () => {
  const parent = tempDir('lsp');
  try {
    mkdirSync(join(parent, 'first'));
    mkdirSync(join(parent, 'second'));
    writeFileSync(join(parent, 'http-client.env.json'), JSON.stringify({ dev: { course: '42' } }));
    const folder = (name: string) => ({ uri: pathToFileURL(join(parent, name)).href, name });
    const uri = pathToFileURL(join(parent, 'second', 'a.lpreq')).href;
    const codes = (published: unknown) => (published as Published).diagnostics.map((d) => d.code);
    await withInitialized(
      {
        workspaceFolders: [folder('first'), folder('second')],
        capabilities: { workspace: { workspaceFolders: true } },
      },
      async (c) => {
        // The second folder is the document's root: the file above it is not its environment.
        const opened = c.diagnostics(uri, 1);
        c.notify('textDocument/didOpen', {
          textDocument: { uri, languageId: 'lpreq', version: 1, text: 'GET /api/v1/courses/{{course}}/modules\n' },
        });
        assert.deepEqual(codes(await opened), ['unresolved-variable']);
        // The folder above both becomes the workspace folder instead of the second: its file counts now.
        const rechecked = c.diagnostics(uri, 1);
        c.notify('workspace/didChangeWorkspaceFolders', {
          event: { added: [{ uri: pathToFileURL(parent).href, name: 'parent' }], removed: [folder('second')] },
        });
        assert.deepEqual(codes(await rechecked), []);
      },
    );
  } finally {
    rmSync(parent, { recursive: true, force: true });
  }
});

test('protocol: a completion reopens the list only in an editor that names its command (triggerSuggestCommand), whatever the editor is called', async () => {
  const uri = 'untitled:suggest.lpreq';
  const segment = async (c: LspClient) => {
    c.notify('textDocument/didOpen', {
      textDocument: { uri, languageId: 'lpreq', version: 1, text: 'GET /api/v1/cou\n' },
    });
    const list = await c.request<{ items: { label: string; command?: { command: string } }[] }>(
      'textDocument/completion',
      {
        textDocument: { uri },
        position: { line: 0, character: 15 },
      },
    );
    const item = list.items.find((i) => i.label === 'courses/');
    assert.ok(item, list.items.map((i) => i.label).join(', '));
    return item.command?.command;
  };
  await withInitialized({ clientInfo: { name: 'Visual Studio Code' } }, async (c) =>
    assert.equal(await segment(c), undefined),
  );
  await withInitialized(
    {
      clientInfo: { name: 'Neovim' },
      initializationOptions: { triggerSuggestCommand: 'editor.action.triggerSuggest' },
    },
    async (c) => assert.equal(await segment(c), 'editor.action.triggerSuggest'),
  );
});

test('protocol: the server says the version of package.json', async () => {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  await withInitialized({}, async (c) =>
    assert.deepEqual((c.initializeResult as { serverInfo: unknown }).serverInfo, { name: 'lpreq', version }),
  );
});

test('protocol: "Add parameter" is a snippet edit where the client takes them (the cursor waits at the value), plain text elsewhere', async () => {
  type Action = {
    title: string;
    edit: {
      changes?: Record<string, { newText: string }[]>;
      documentChanges?: { textDocument: { version: number }; edits: { snippet?: { kind: string; value: string } }[] }[];
    };
  };
  for (const snippets of [true, false]) {
    const c = new LspClient();
    const timer = setTimeout(() => c.kill(), 30000);
    try {
      await c.initialize(
        {},
        null,
        snippets ? { workspaceEdit: { documentChanges: true, snippetEditSupport: true } } : {},
      );
      const uri = 'untitled:add.lpreq';
      const published = c.diagnostics(uri, 3);
      c.notify('textDocument/didOpen', {
        textDocument: { uri, languageId: 'lpreq', version: 3, text: 'POST /api/v1/courses/1/modules/2/items\n' },
      });
      await published;
      const actions = await c.request<Action[]>('textDocument/codeAction', {
        textDocument: { uri },
        range: { start: { line: 0, character: 5 }, end: { line: 0, character: 5 } },
        context: { diagnostics: [] },
      });
      const add = actions.find((a) => a.title === 'Add module_item[type]');
      assert.ok(add, JSON.stringify(actions.map((a) => a.title)));
      if (snippets) {
        const change = add.edit.documentChanges?.[0];
        assert.equal(change?.textDocument.version, 3);
        assert.equal(change?.edits[0].snippet?.kind, 'snippet');
        assert.match(change?.edits[0].snippet?.value ?? '', /module_item\[type\] = \$0/);
      } else {
        assert.equal(add.edit.documentChanges, undefined);
        assert.match(add.edit.changes?.[uri][0].newText ?? '', /module_item\[type\] = \n?$/);
      }
      await c.shutdown();
    } finally {
      clearTimeout(timer);
      c.kill();
    }
  }
});
