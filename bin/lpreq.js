#!/usr/bin/env node
'use strict';
// The command line, bundled by `npm run build` (run by `npm ci` through the prepare script).
try {
  require('../dist/lpreq.js');
} catch (e) {
  if (e && e.code === 'MODULE_NOT_FOUND' && String(e.message).includes('dist/lpreq.js')) {
    process.stderr.write('lpreq: not built yet: run `npm run build` in the lpreq folder\n');
    process.exit(2);
  }
  throw e;
}
