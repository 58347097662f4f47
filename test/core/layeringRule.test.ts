/**
 * The lint rule that makes the layers of ARCHITECTURE.md a check (issues 21 and 28): each line
 * of its fixture is linted as a file of the layer it names, and reported exactly when the
 * fixture says; and every pair of layers, both ways, as the matrix of layers.txt says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { ROOT } from '../helpers';

async function linter(): Promise<ESLint> {
  const { default: rule } = (await import(join(ROOT, 'eslint-rules', 'layering.mjs'))) as { default: unknown };
  return new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { layers: { rules: { layering: rule } } } as never,
        rules: { 'layers/layering': 'error' },
      },
    ],
  });
}

/** What the rule reports on one line of code in `file`: its message ids. */
async function reports(eslint: ESLint, file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  assert.deepEqual(
    result.messages.filter((m) => m.fatal).map((m) => m.message),
    [],
    `${file}: ${code}`,
  );
  return result.messages.filter((m) => m.ruleId === 'layers/layering').map((m) => m.messageId ?? '');
}

const fixture = (name: string) =>
  readFileSync(join(ROOT, 'test', 'fixtures', 'lint', name), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'));

test('the layering rule reports imports across layers that skip an entry file, and what the core may not import', async () => {
  const eslint = await linter();
  const cases = fixture('layering.txt').map((line) => line.split(' | '));
  assert.ok(cases.length >= 70);
  for (const [file, code, expected] of cases) {
    const reported = await reports(eslint, file, code);
    assert.equal(reported.length, expected === 'reported' ? 1 : 0, `${file}: ${code} should be ${expected}`);
  }
});

/** The matrix of layers.txt: each layer's file and entry, and whether a row may import a column. */
function matrix() {
  const lines = fixture('layers.txt');
  const layers = new Map<string, { file: string; entry: string }>();
  for (const line of lines.filter((l) => l.startsWith('layer '))) {
    const [, name, file, entry] = line.split(/\s+/);
    layers.set(name, { file, entry });
  }
  const [header, ...rows] = lines.filter((l) => !l.startsWith('layer '));
  const columns = header.trim().split(/\s+/);
  const cells = new Map<string, Map<string, string>>();
  for (const row of rows) {
    const [name, ...marks] = row.trim().split(/\s+/);
    assert.equal(marks.length, columns.length, `the row of ${name} has a mark for every column`);
    cells.set(name, new Map(columns.map((c, i) => [c, marks[i]])));
  }
  return { layers, columns, cells };
}

test('the matrix of layers names every layer once as a row and as a column, and goes one way down', () => {
  const { layers, columns, cells } = matrix();
  assert.deepEqual(columns, [...layers.keys()]);
  assert.deepEqual([...cells.keys()], [...layers.keys()]);
  for (const [a, row] of cells) {
    for (const [b, mark] of row) {
      assert.ok(['+', '.', '='].includes(mark), `${a} -> ${b}: ${mark}`);
      assert.equal(mark === '=', a === b, `${a} -> ${b}: '=' is the diagonal, and only it`);
      if (mark === '+') assert.equal(cells.get(b)?.get(a), '.', `${a} and ${b} may not import each other both ways`);
    }
  }
  // No cycle through several layers either: every layer can be taken away once those it imports are.
  const left = new Set(columns);
  while (left.size > 0) {
    const bottom = [...left].find((a) => [...left].every((b) => b === a || cells.get(a)?.get(b) !== '+'));
    assert.ok(bottom, `a cycle among ${[...left].join(', ')}`);
    left.delete(bottom);
  }
});

test('the layering rule decides every pair of layers, both ways, as the matrix says (type imports included)', async () => {
  const eslint = await linter();
  const { layers, cells } = matrix();
  let checked = 0;
  for (const [from, row] of cells) {
    // One file of the row's layer with an import of each column's entry, a line each.
    const file = layers.get(from)!.file;
    const imports = [...row].map(([to, mark]) => {
      let source = relative(dirname(file), layers.get(to)!.entry).split('\\').join('/').replace(/\.ts$/, '');
      if (!source.startsWith('.')) source = `./${source}`;
      return { to, mark, code: `import type { X } from '${source}';` };
    });
    const [result] = await eslint.lintText(imports.map((i) => i.code).join('\n'), { filePath: join(ROOT, file) });
    assert.deepEqual(
      result.messages.filter((m) => m.fatal).map((m) => m.message),
      [],
    );
    imports.forEach(({ to, mark, code }, i) => {
      const reported = result.messages.filter((m) => m.ruleId === 'layers/layering' && m.line === i + 1);
      if (mark === '.') {
        assert.equal(reported.length, 1, `${from} -> ${to}: ${code} in ${file} should be reported`);
        assert.ok(['direction', 'coreOutside', 'webview'].includes(reported[0].messageId ?? ''), `${from} -> ${to}`);
      } else {
        assert.deepEqual(reported, [], `${from} -> ${to}: ${code} in ${file} should be allowed`);
      }
      checked++;
    });
  }
  assert.equal(checked, layers.size * layers.size);
});
