/**
 * The build's patch of vendored code (scripts/lazyBuiltins.mjs): it makes the builtins of the
 * installed packages lazy, and it fails, naming the file, when an upgrade changed that code.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers';

type Patch = {
  LAZY_BUILTINS: Map<string, string[]>;
  LAZY_BUILTINS_FILTER: RegExp;
  lazyBuiltinsKey(path: string): string | undefined;
  patchLazyBuiltins(source: string, path: string): string;
};
const load = async () => (await import(join(ROOT, 'scripts', 'lazyBuiltins.mjs'))) as Patch;

test('the installed vscode-languageserver and vscode-jsonrpc are patched: each builtin is required on first use, not as the file loads', async () => {
  const { LAZY_BUILTINS, LAZY_BUILTINS_FILTER, patchLazyBuiltins } = await load();
  for (const [file, builtins] of LAZY_BUILTINS) {
    const path = join(ROOT, 'node_modules', ...file.split('/'));
    assert.match(path, LAZY_BUILTINS_FILTER);
    const patched = patchLazyBuiltins(readFileSync(path, 'utf8'), path);
    for (const name of builtins) {
      assert.ok(!patched.includes(`require(${JSON.stringify(name)})`), `${file}: require("${name}") is left`);
      assert.ok(patched.includes(`__lazyBuiltin(${JSON.stringify(name)})`), `${file}: ${name} is not lazy`);
    }
    // The rest of the file is what it was.
    assert.ok(
      patched.includes('require("path")') || patched.includes('require("fs")'),
      `${file}: other requires are kept`,
    );
  }
});

test('the patch fails, naming the file and the builtin, when the vendored code no longer has what it rewrites', async () => {
  const { patchLazyBuiltins } = await load();
  const path = join(ROOT, 'node_modules', 'vscode-jsonrpc', 'lib', 'node', 'main.js');
  assert.throws(
    () => patchLazyBuiltins('const crypto_1 = require("node:crypto");\n', path),
    (e: Error) => e.message.includes(path) && e.message.includes('require("crypto")'),
  );
  assert.throws(() => patchLazyBuiltins('require("crypto")', join(ROOT, 'node_modules', 'other', 'main.js')), /other/);
});

test('a nested copy of a package (vscode-languageclient has its own vscode-jsonrpc) is the same file to the patch', async () => {
  const { lazyBuiltinsKey, LAZY_BUILTINS_FILTER } = await load();
  const nested = join(
    ROOT,
    'node_modules',
    'vscode-languageclient',
    'node_modules',
    'vscode-jsonrpc',
    'lib',
    'node',
    'main.js',
  );
  assert.match(nested, LAZY_BUILTINS_FILTER);
  assert.equal(lazyBuiltinsKey(nested), 'vscode-jsonrpc/lib/node/main.js');
  assert.equal(
    lazyBuiltinsKey('C:\\p\\node_modules\\vscode-languageserver\\lib\\node\\files.js'),
    'vscode-languageserver/lib/node/files.js',
  );
});
