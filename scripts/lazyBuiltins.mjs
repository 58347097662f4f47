// vscode-languageserver loads child_process (to find globally installed modules) and
// vscode-jsonrpc loads crypto (to name IPC pipes) as they load. A server on stdio uses
// neither, and loading them costs every start about 10 ms: the bundles load them on first use.
// The patch rewrites vendored code, so it fails the build when that code no longer has what
// it rewrites: an upgrade that moved the require would otherwise undo the saving silently.

/** The vendored files patched, by their path under node_modules, and the builtins each loads lazily. */
export const LAZY_BUILTINS = new Map([
  ['vscode-languageserver/lib/node/files.js', ['child_process']],
  ['vscode-jsonrpc/lib/node/main.js', ['crypto']],
]);

/** Matches a path of one of the files above, in any node_modules folder (nested ones too). */
export const LAZY_BUILTINS_FILTER =
  /[\\/]node_modules[\\/](vscode-languageserver[\\/]lib[\\/]node[\\/]files|vscode-jsonrpc[\\/]lib[\\/]node[\\/]main)\.js$/;

const LAZY_BUILTIN =
  'function __lazyBuiltin(name) { let m; return new Proxy({}, { get(_, key) { m ??= require(name); return m[key]; } }); }';

/** The key of LAZY_BUILTINS that `path` is, or undefined. */
export function lazyBuiltinsKey(path) {
  const normal = path.replaceAll('\\', '/');
  for (const key of LAZY_BUILTINS.keys()) if (normal.endsWith(`/node_modules/${key}`)) return key;
  return undefined;
}

/**
 * `source` of the vendored file `path` with each `require("<builtin>")` it is expected to hold
 * replaced by a proxy that requires it on first use. Throws, naming the file and the builtin,
 * when one of them is not there.
 */
export function patchLazyBuiltins(source, path) {
  const key = lazyBuiltinsKey(path);
  if (key === undefined)
    throw new Error(
      `lazy builtins: ${path} is not one of the files this patch knows (${[...LAZY_BUILTINS.keys()].join(', ')})`,
    );
  let contents = source;
  for (const name of LAZY_BUILTINS.get(key)) {
    const call = `require(${JSON.stringify(name)})`;
    if (!contents.includes(call)) {
      throw new Error(
        `lazy builtins: ${path} no longer contains ${call}, which the build makes lazy (an upgrade of ${key.split('/')[0]} changed it). ` +
          'Update the patch in scripts/lazyBuiltins.mjs to the new code, or remove it.',
      );
    }
    contents = contents.replaceAll(call, `__lazyBuiltin(${JSON.stringify(name)})`);
  }
  return `${LAZY_BUILTIN}\n${contents}`;
}
