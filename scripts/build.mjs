// Bundles the command line, the language server and the VS Code client with esbuild.
import { build } from 'esbuild';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { writeNotices } from './notices.mjs';

// The catalog is embedded as text and parsed with JSON.parse on first use: cheaper than
// compiling it as a JavaScript object literal every time a bundle loads.
const catalogAsText = {
  name: 'catalog-as-text',
  setup(b) {
    b.onLoad({ filter: /[\\/]schemas[\\/][^\\/]+\.json$/ }, async (args) => ({ contents: await readFile(args.path, 'utf8'), loader: 'text' }));
  },
};

// jsonc-parser's UMD build requires its parts at run time, which a bundle cannot follow:
// bundle its ES module build instead.
const jsoncAsEsm = {
  name: 'jsonc-parser-esm',
  setup(b) {
    b.onResolve({ filter: /^jsonc-parser$/ }, (args) => b.resolve('jsonc-parser/lib/esm/main.js', { kind: args.kind, resolveDir: args.resolveDir }));
  },
};

// vscode-languageserver loads child_process (to find globally installed modules) and
// vscode-jsonrpc loads crypto (to name IPC pipes) as they load. A server on stdio uses
// neither, and loading them costs every start about 10 ms: the bundles load them on first use.
const LAZY_BUILTIN = 'function __lazyBuiltin(name) { let m; return new Proxy({}, { get(_, key) { m ??= require(name); return m[key]; } }); }';
const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(b) {
    b.onLoad({ filter: /[\\/]node_modules[\\/](vscode-languageserver[\\/]lib[\\/]node[\\/]files|vscode-jsonrpc[\\/]lib[\\/]node[\\/]main)\.js$/ }, async (args) => {
      const source = await readFile(args.path, 'utf8');
      const contents = source.replace(/require\("(child_process|crypto)"\)/g, (_, name) => `__lazyBuiltin(${JSON.stringify(name)})`);
      return { contents: contents === source ? source : `${LAZY_BUILTIN}\n${contents}`, loader: 'js' };
    });
  },
};

const common = {
  plugins: [catalogAsText, jsoncAsEsm, lazyBuiltins],
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
  { in: 'server/src/cli/exportCommand.ts', out: 'dist/export.js' },
  { in: 'server/src/lsp/lspCommand.ts', out: 'dist/lsp.js' },
  { in: 'server/src/lsp/serverMain.ts', out: 'dist/server.js' },
  { in: 'server/src/cli/demo.ts', out: 'dist/demo.js' },
  // The side-effect-free library entry (parse and check one text), as the benchmarks load it.
  { in: 'server/src/library.ts', out: 'dist/library.js' },
];

const results = await Promise.all(
  entries
    .filter((e) => existsSync(e.in))
    .map((e) => build({ ...common, entryPoints: [e.in], outfile: e.out, minifyWhitespace: true, minifySyntax: true })),
);
if (existsSync('client/src/extension.ts')) {
  results.push(await build({ ...common, entryPoints: ['client/src/extension.ts'], outfile: 'dist/client.js', external: ['vscode'] }));
}
await writeNotices(results.map((r) => r.metafile), 'dist/THIRD-PARTY-NOTICES.txt');

// The V8 code cache of the command line and the language server (bin/loadBundle.js reads it).
if (!process.argv.includes('--no-code-cache')) await import('./codeCache.mjs');
