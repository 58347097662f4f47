/**
 * The lint rule that keeps lookups by user-given names own-property only (issue 17): it
 * reports exactly the lines of its fixture marked `reported`, so a change of TypeScript or of
 * the rule that made it blind would fail here, not pass silently in `npm run lint`.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { ROOT } from '../helpers';

test('the own-lookup rule reports computed lookups on string-keyed records, and nothing else', async () => {
  const fixture = join(ROOT, 'test', 'fixtures', 'lint', 'own-lookup.ts');
  const rulePath = join(ROOT, 'eslint-rules', 'own-lookup.mjs');
  const { default: rule } = (await import(rulePath)) as { default: unknown };
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser, parserOptions: { projectService: true, tsconfigRootDir: ROOT } },
        plugins: { local: { rules: { 'own-lookup': rule } } } as never,
        rules: { 'local/own-lookup': 'error' },
      },
    ],
  });
  const [result] = await eslint.lintFiles([fixture]);
  assert.deepEqual(
    result.messages.filter((m) => m.fatal).map((m) => m.message),
    [],
  );
  const expected = readFileSync(fixture, 'utf8')
    .split('\n')
    .flatMap((line, i) => (/\/\/ reported$/.test(line) ? [i + 1] : []));
  assert.ok(expected.length >= 7);
  assert.deepEqual([...new Set(result.messages.map((m) => m.line))], expected);
});
