// Bundles the command line, the language server and the VS Code client with esbuild.
import { build } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { LAZY_BUILTINS, LAZY_BUILTINS_FILTER, lazyBuiltinsKey, patchLazyBuiltins } from './lazyBuiltins.mjs';
import { writeNotices } from './notices.mjs';

// The catalog is embedded as text and parsed with JSON.parse on first use: cheaper than
// compiling it as a JavaScript object literal every time a bundle loads.
const catalogAsText = {
  name: 'catalog-as-text',
  setup(b) {
    b.onLoad({ filter: /[\\/]schemas[\\/][^\\/]+\.json$/ }, async (args) => ({
      contents: await readFile(args.path, 'utf8'),
      loader: 'text',
    }));
  },
};

// jsonc-parser's UMD build requires its parts at run time, which a bundle cannot follow:
// bundle its ES module build instead.
const jsoncAsEsm = {
  name: 'jsonc-parser-esm',
  setup(b) {
    b.onResolve({ filter: /^jsonc-parser$/ }, (args) =>
      b.resolve('jsonc-parser/lib/esm/main.js', { kind: args.kind, resolveDir: args.resolveDir }),
    );
  },
};

// vscode-languageserver and vscode-jsonrpc load child_process and crypto on first use, not as
// they load (scripts/lazyBuiltins.mjs says why); the build fails if their code no longer fits.
const patchedFiles = new Set();
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    b.onLoad({ filter: LAZY_BUILTINS_FILTER }, async (args) => {
      const contents = patchLazyBuiltins(await readFile(args.path, 'utf8'), args.path);
      patchedFiles.add(lazyBuiltinsKey(args.path));
      return { contents, loader: 'js' };
    });
  },
};

// curlconverter reads a shell command with tree-sitter's native module, which a bundle cannot
// carry: its parser module is replaced by one on web-tree-sitter (server/src/import/treeSitter.ts),
// which runs the bash grammar's WebAssembly, copied into dist/ below.
const curlParserAsWasm = {
  name: 'curl-parser-wasm',
  setup(b) {
    b.onResolve({ filter: /^\.\/Parser\.js$/ }, (args) =>
      /[\\/]curlconverter[\\/]dist[\\/]src[\\/]shell$/.test(args.resolveDir)
        ? { path: resolve('server/src/import/treeSitter.ts') }
        : undefined,
    );
  },
};

// The import bundle reaches the sender only for its scrubber: undici, which the sender's
// exchange loads, is left out of it (640 KB) by telling esbuild that loading it does nothing.
const undiciUnused = {
  name: 'undici-unused',
  setup(b) {
    b.onResolve({ filter: /^undici$/ }, () => ({ path: resolve('node_modules/undici/index.js'), sideEffects: false }));
  },
};

const common = {
  plugins: [catalogAsText, jsoncAsEsm, lazyBuiltins, curlParserAsWasm],
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  logLevel: 'warning',
  legalComments: 'none',
  // Which packages each bundle holds: their licenses go to dist/THIRD-PARTY-NOTICES.txt.
  metafile: true,
};

const entries = [
  { in: 'server/src/cli/entry.ts', out: 'dist/lpreq.js' },
  { in: 'server/src/cli/sendCommand.ts', out: 'dist/send.js' },
  { in: 'server/src/cli/mockCommand.ts', out: 'dist/mock.js' },
  { in: 'server/src/cli/proxyCommand.ts', out: 'dist/proxy.js' },
  { in: 'server/src/cli/testCommand.ts', out: 'dist/test.js' },
  { in: 'server/src/cli/exportCommand.ts', out: 'dist/export.js' },
  { in: 'server/src/cli/importCommand.ts', out: 'dist/import.js', plugins: [undiciUnused] },
  { in: 'server/src/cli/envCommand.ts', out: 'dist/env.js' },
  { in: 'server/src/lsp/lspCommand.ts', out: 'dist/lsp.js' },
  { in: 'server/src/lsp/serverMain.ts', out: 'dist/server.js' },
  { in: 'server/src/cli/demo.ts', out: 'dist/demo.js' },
  // The side-effect-free library entry (parse and check one text), as the benchmarks load it.
  { in: 'server/src/library.ts', out: 'dist/library.js' },
];

const results = await Promise.all(
  entries
    .filter((e) => existsSync(e.in))
    .map((e) =>
      build({
        ...common,
        plugins: [...common.plugins, ...(e.plugins ?? [])],
        entryPoints: [e.in],
        outfile: e.out,
        minifyWhitespace: true,
        minifySyntax: true,
      }),
    ),
);
if (existsSync('client/src/extension.ts')) {
  results.push(
    await build({
      ...common,
      entryPoints: ['client/src/extension.ts'],
      outfile: 'dist/client.js',
      external: ['vscode'],
    }),
  );
}
// The response view's webview: a browser bundle of its own, and its stylesheet, in the only
// folder the webview may load from (dist/media, its localResourceRoots).
if (existsSync('client/webview/ui/main.ts')) {
  results.push(
    await build({
      entryPoints: ['client/webview/ui/main.ts'],
      outfile: 'dist/media/response.js',
      bundle: true,
      platform: 'browser',
      format: 'iife',
      target: 'chrome114',
      minify: true,
      sourcemap: false,
      legalComments: 'none',
      logLevel: 'warning',
      metafile: true,
    }),
  );
  mkdirSync('dist/media', { recursive: true });
  copyFileSync('client/webview/response.css', 'dist/media/response.css');
}
// A file the patch knows that no bundle loaded has moved: the patch would do nothing, silently.
const unpatched = [...LAZY_BUILTINS.keys()].filter((key) => !patchedFiles.has(key));
if (unpatched.length > 0) {
  console.error(
    `build: the lazy-builtins patch (scripts/lazyBuiltins.mjs) found no ${unpatched.join(' and no ')} in the bundles: the package changed; update the patch, or remove it.`,
  );
  process.exit(1);
}
// The WebAssembly `lpreq import` reads curl commands with (bin/lpreq.js's import bundle, and
// the extension's import commands, load it from dist/): web-tree-sitter's runtime, and the
// bash grammar curlconverter ships, compiled from tree-sitter-bash (its notice goes too).
copyFileSync('node_modules/web-tree-sitter/tree-sitter.wasm', 'dist/tree-sitter.wasm');
copyFileSync('node_modules/curlconverter/dist/tree-sitter-bash.wasm', 'dist/tree-sitter-bash.wasm');
await writeNotices(
  results.map((r) => r.metafile),
  'dist/THIRD-PARTY-NOTICES.txt',
  ['node_modules/tree-sitter-bash'],
);

// The V8 code cache of the command line and the language server (bin/loadBundle.js reads it).
if (!process.argv.includes('--no-code-cache')) await import('./codeCache.mjs');
