// eslint with type information: no floating promises, strict equality, zero warnings in CI.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import layering from './eslint-rules/layering.mjs';
import ownLookup from './eslint-rules/own-lookup.mjs';
import testEntry from './eslint-rules/test-entry.mjs';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'out/**',
      'node_modules/**',
      'bench/.data/**',
      'test/.tmp/**',
      '.vscode-test/**',
      'test/e2e/.code-server/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // node:test's test() returns a promise that the runner itself awaits.
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          allowForKnownSafeCalls: [
            {
              from: 'package',
              name: ['test', 'it', 'describe', 'suite', 'before', 'after', 'beforeEach', 'afterEach'],
              package: 'node:test',
            },
          ],
        },
      ],
      eqeqeq: ['error', 'always'],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The hosts and the core look up user-given names as own properties only (issue 17, finding 3).
    files: ['server/src/**/*.ts', 'client/src/**/*.ts', 'client/webview/**/*.ts'],
    plugins: { local: { rules: { 'own-lookup': ownLookup } } },
    rules: { 'local/own-lookup': 'error' },
  },
  {
    // One concern a function: a function that outgrows a screenful is split by what it does (issue 28).
    files: ['server/src/**/*.ts', 'client/**/*.ts'],
    rules: { 'max-lines-per-function': ['error', { max: 120, skipBlankLines: true, skipComments: true }] },
  },
  {
    // The layers of ARCHITECTURE.md: a pure core, and each layer reached through its entry file.
    files: ['server/src/**/*.ts', 'client/src/**/*.ts', 'client/webview/**/*.ts', 'bench/**/*.ts'],
    plugins: { layers: { rules: { layering } } },
    rules: { 'layers/layering': 'error' },
  },
  {
    // Tests go through the core's entry, as hosts do; test/core/<module>/ tests that module's own files (issue 28).
    files: ['test/**/*.ts'],
    ignores: ['test/fixtures/**'],
    plugins: { tests: { rules: { 'core-entry': testEntry } } },
    rules: { 'tests/core-entry': 'error' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: {
      globals: {
        process: 'readonly',
        require: 'readonly',
        console: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
