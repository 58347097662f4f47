/**
 * The lint rule that makes the layers of ARCHITECTURE.md a check (issue 21): each line of its
 * fixture is linted as a file of the layer it names, and reported exactly when the fixture says.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { ROOT } from '../helpers';

test('the layering rule reports imports across layers that skip an entry file, and what the core may not import', async () => {
  const { default: rule } = (await import(join(ROOT, 'eslint-rules', 'layering.mjs'))) as { default: unknown };
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { layers: { rules: { layering: rule } } } as never,
        rules: { 'layers/layering': ['error', { exempt: ['server/src/mock/'] }] },
      },
    ],
  });
  const cases = readFileSync(join(ROOT, 'test', 'fixtures', 'lint', 'layering.txt'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => line.split(' | '));
  assert.ok(cases.length >= 40);
  for (const [file, code, expected] of cases) {
    const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
    assert.deepEqual(
      result.messages.filter((m) => m.fatal).map((m) => m.message),
      [],
      `${file}: ${code}`,
    );
    const reported = result.messages.filter((m) => m.ruleId === 'layers/layering').length;
    assert.equal(reported, expected === 'reported' ? 1 : 0, `${file}: ${code} should be ${expected}`);
  }
});
