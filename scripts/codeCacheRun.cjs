'use strict';
// Runs one bundle the way bin/lpreq.js does, and writes its V8 code cache when the process
// exits (scripts/codeCache.mjs drives it at build time). Usage: codeCacheRun.cjs BUNDLE ARGS...
const { loadBundle, processIo } = require('../bin/loadBundle');

const [bundle, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], bundle, ...args];
const exported = loadBundle(bundle, { writeCache: true });
if (typeof exported.run === 'function') {
  exported.run(args, processIo()).then((code) => {
    process.exitCode = code;
  });
}
