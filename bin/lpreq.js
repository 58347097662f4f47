#!/usr/bin/env node
'use strict';
// The command line, bundled by `npm run build` (run by `npm ci` through the prepare script).
// Commands with a bundle of their own (send, test, mock, proxy, lsp, export, import, env) load only that bundle, so a language
// server or a mock starts without first loading the checker's command line. Bundles load
// with the code cache the build wrote (bin/loadBundle.js); LPREQ_CODE_CACHE=0 turns it off.
const { join } = require('node:path');
const { existsSync } = require('node:fs');
const { loadBundle, processIo } = require('./loadBundle');

const separate = {
  send: 'send.js',
  mock: 'mock.js',
  proxy: 'proxy.js',
  lsp: 'lsp.js',
  test: 'test.js',
  export: 'export.js',
  import: 'import.js',
  env: 'env.js',
};
const command = process.argv[2];
const bundle = join(__dirname, '..', 'dist', separate[command] || 'lpreq.js');
const load = process.env.LPREQ_CODE_CACHE === '0' ? require : loadBundle;
if (!existsSync(bundle)) {
  process.stderr.write('lpreq: not built yet: run `npm run build` in the lpreq folder\n');
  process.exit(2);
}
// Every bundle exports run(argv, io); the checker's command line reads the command itself.
Promise.resolve()
  .then(() => load(bundle).run(process.argv.slice(separate[command] ? 3 : 2), processIo()))
  .then(
    (code) => {
      process.exitCode = code;
    },
    (e) => {
      process.stderr.write(`lpreq: internal error: ${e && e.message ? e.message : String(e)}\n`);
      process.exitCode = 2;
    },
  );
