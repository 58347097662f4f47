/**
 * The TextMate grammar (syntaxes/lpreq.tmLanguage.json) as VS Code runs it: vscode-textmate
 * with the Oniguruma engine, tokenizing lines and checking the scopes of their parts. A JSON
 * grammar stand-in with nested objects and arrays (the scopes VS Code's JSON grammar opens)
 * shows that the injection reaches an assertion line inside a JSON body.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import * as oniguruma from 'vscode-oniguruma';
import { INITIAL, parseRawGrammar, Registry, type IGrammar, type IRawGrammar } from 'vscode-textmate';
import { ROOT } from '../helpers';

const JSON_STAND_IN = {
  scopeName: 'source.json',
  patterns: [{ include: '#value' }],
  repository: {
    value: {
      patterns: [
        { include: '#object' },
        { include: '#array' },
        { match: '"[^"]*"', name: 'string.quoted.double.json' },
        { match: '-?\\d+', name: 'constant.numeric.json' },
      ],
    },
    object: { begin: '\\{', end: '\\}', name: 'meta.structure.dictionary.json', patterns: [{ include: '#value' }] },
    array: { begin: '\\[', end: '\\]', name: 'meta.structure.array.json', patterns: [{ include: '#value' }] },
  },
};

let grammar: Promise<IGrammar> | undefined;

function lpreqGrammar(): Promise<IGrammar> {
  grammar ??= (async () => {
    const wasm = readFileSync(join(createRequire(import.meta.filename).resolve('vscode-oniguruma'), '..', 'onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    const registry = new Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (s) => new oniguruma.OnigScanner(s),
        createOnigString: (s) => new oniguruma.OnigString(s),
      }),
      loadGrammar: (scope) => {
        if (scope === 'source.lpreq') {
          const path = join(ROOT, 'syntaxes', 'lpreq.tmLanguage.json');
          return Promise.resolve(parseRawGrammar(readFileSync(path, 'utf8'), path));
        }
        if (scope === 'source.json') return Promise.resolve(JSON_STAND_IN as unknown as IRawGrammar);
        return Promise.resolve(null);
      },
    });
    const loaded = await registry.loadGrammar('source.lpreq');
    assert.ok(loaded, 'the grammar loads');
    return loaded;
  })();
  return grammar;
}

/** Each non-blank piece of each line as `text: scope scope ...` (the scopes below source.lpreq). */
async function tokens(text: string): Promise<string[][]> {
  const g = await lpreqGrammar();
  let stack = INITIAL;
  const out: string[][] = [];
  for (const line of text.split('\n')) {
    const r = g.tokenizeLine(line, stack);
    stack = r.ruleStack;
    out.push(
      r.tokens
        .map((t) => ({ text: line.slice(t.startIndex, t.endIndex), scopes: t.scopes.slice(1) }))
        .filter((t) => t.text.trim() !== '')
        .map((t) => `${t.text.trim()}: ${t.scopes.join(' ')}`),
    );
  }
  return out;
}

/** The scopes of the piece `text` on line `line` (the first piece whose text it is). */
function scopesOf(lines: string[][], line: number, text: string): string {
  const found = lines[line].find((t) => t.startsWith(`${text}: `));
  assert.ok(found, `no piece '${text}' on line ${line}: ${JSON.stringify(lines[line])}`);
  return found.slice(text.length + 2);
}

test('grammar: an assertion line has its ??, field, path segments, operator and EXPECTED coloured', async () => {
  const lines = await tokens(
    [
      'GET /api/v1/courses/1/modules',
      '?? status == 200',
      '?? header content-type includes json',
      '?? body $[*].items[0][\'title\'] == "Week 5"',
      '?? body $.published == true',
      '?? duration < 2000',
      '?? body $.id == {{made.response.body.$.id}}',
      '?? body $.name exists',
    ].join('\n'),
  );
  assert.match(scopesOf(lines, 1, '??'), /meta\.assertion\.lpreq keyword\.control\.assertion\.lpreq/);
  assert.match(scopesOf(lines, 1, 'status'), /keyword\.other\.assertion-field\.lpreq/);
  assert.match(scopesOf(lines, 1, '=='), /keyword\.operator\.comparison\.lpreq/);
  assert.match(scopesOf(lines, 1, '200'), /string\.unquoted\.expected\.lpreq constant\.numeric\.lpreq/);
  assert.match(scopesOf(lines, 2, 'content-type'), /support\.type\.header-name\.lpreq/);
  assert.match(scopesOf(lines, 2, 'includes'), /keyword\.operator\.comparison\.lpreq/);
  assert.match(scopesOf(lines, 3, '$'), /meta\.jsonpath\.lpreq variable\.language\.jsonpath-root\.lpreq/);
  assert.match(scopesOf(lines, 3, '[*]'), /keyword\.operator\.wildcard\.lpreq/);
  assert.match(scopesOf(lines, 3, 'items'), /variable\.other\.property\.lpreq/);
  assert.match(scopesOf(lines, 3, '0'), /constant\.numeric\.index\.lpreq/);
  assert.match(scopesOf(lines, 3, "'title'"), /string\.quoted\.jsonpath-key\.lpreq/);
  assert.match(scopesOf(lines, 3, '"Week 5"'), /string\.quoted\.double\.lpreq/);
  assert.match(scopesOf(lines, 4, 'true'), /constant\.language\.lpreq/);
  assert.match(scopesOf(lines, 5, '<'), /keyword\.operator\.comparison\.lpreq/);
  assert.match(scopesOf(lines, 6, 'made.response.body.$.id'), /variable\.other\.template\.lpreq/);
  assert.match(scopesOf(lines, 7, 'exists'), /keyword\.operator\.comparison\.lpreq/);
});

test('grammar: a ?? line is never a query continuation or a parameter, whatever follows it', async () => {
  const lines = await tokens(
    [
      'GET /api/v1/courses/1/files',
      '?? status == 200',
      '??x=1',
      '?? body $.name = x',
      '  ?sort=size',
      '&order=desc',
      '',
      'a = 1',
      '?? body $ isArray',
    ].join('\n'),
  );
  for (const line of [1, 2, 3, 8]) {
    for (const piece of lines[line]) {
      assert.doesNotMatch(piece, /query|parameter/, `line ${line}: ${piece}`);
      assert.match(piece, /meta\.assertion\.lpreq/, `line ${line}: ${piece}`);
    }
  }
  // The lines around them keep their colours.
  assert.match(scopesOf(lines, 4, '?'), /punctuation\.separator\.query\.lpreq/);
  assert.match(scopesOf(lines, 7, 'a'), /variable\.parameter\.name\.lpreq/);
});

test('grammar: an assertion line inside a JSON body, however deep, is an assertion', async () => {
  const lines = await tokens(
    [
      'PUT /api/v1/courses/1/quizzes/2/submissions/3',
      '',
      '{',
      '  "quiz_submissions": [',
      '?? body $.quiz_submissions[0].attempt == 1',
      '    {"attempt": 1}',
      '  ]',
      '}',
    ].join('\n'),
  );
  assert.match(scopesOf(lines, 3, '"quiz_submissions"'), /meta\.embedded\.block\.json/);
  assert.match(
    scopesOf(lines, 4, '??'),
    /meta\.structure\.array\.json meta\.assertion\.lpreq keyword\.control\.assertion\.lpreq/,
  );
  assert.match(scopesOf(lines, 4, 'attempt'), /variable\.other\.property\.lpreq/);
  assert.doesNotMatch(scopesOf(lines, 4, '1'), /constant\.numeric\.json/);
  // The JSON after it is JSON still.
  assert.match(scopesOf(lines, 5, '1'), /constant\.numeric\.json/);
});
