'use strict';
// Runs one bundle the way bin/lpreq.js does, and writes its V8 code cache when the process
// exits (scripts/codeCache.mjs drives it at build time). Usage: codeCacheRun.cjs BUNDLE ARGS...
const { loadBundle } = require('../bin/loadBundle');

const [bundle, ...args] = process.argv.slice(2);
process.argv = [process.argv[0], bundle, ...args];
const exported = loadBundle(bundle, { writeCache: true });
if (typeof exported.run === 'function') {
  const io = {
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
    readStdin: () => require('node:fs').readFileSync(0, 'utf8'),
    isTTY: false,
    env: process.env,
    cwd: process.cwd(),
  };
  exported.run(args, io).then((code) => {
    process.exitCode = code;
  });
}
