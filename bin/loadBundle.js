'use strict';
/*
 * Loads a bundle of dist/ as `require` would, but with the V8 code cache that
 * `npm run build` wrote beside it (dist/NAME.cache, see scripts/codeCache.mjs): the
 * functions a typical run needs come compiled from the cache instead of being parsed and
 * compiled again at every start, which is most of what a short `lpreq check` costs.
 *
 * The cache starts with the SHA-1 of the bundle it was made from. A cache of another
 * build, or one V8 rejects (another Node version, other flags), is ignored: the bundle is
 * then compiled from source as usual, never run with foreign code.
 */
const { readFileSync, writeFileSync } = require('node:fs');
const { dirname } = require('node:path');
const { createHash } = require('node:crypto');
const vm = require('node:vm');
const Module = require('node:module');

const DIGEST_BYTES = 20;

function cachePathOf(bundle) {
  return bundle.replace(/\.js$/, '') + '.cache';
}

function digestOf(source) {
  return createHash('sha1').update(source).digest();
}

/**
 * Compiles and runs a bundle. `options.writeCache` makes the process write a fresh cache
 * when it exits, holding every function compiled by then (the build uses it).
 * `options.report` is told what became of the cache: 'used', 'absent', 'stale' (made from
 * another build of the bundle), 'rejected' (by V8) or 'writing'.
 */
function loadBundle(bundle, options = {}) {
  const source = readFileSync(bundle, 'utf8');
  const digest = digestOf(source);
  let cachedData;
  let status = 'writing';
  if (!options.writeCache) {
    try {
      const file = readFileSync(cachePathOf(bundle));
      if (file.length > DIGEST_BYTES && file.subarray(0, DIGEST_BYTES).equals(digest)) cachedData = file.subarray(DIGEST_BYTES);
      else status = 'stale';
    } catch {
      // No cache (not built yet, or removed): compile from source.
      status = 'absent';
    }
  }
  const script = new vm.Script(Module.wrap(source), { filename: bundle, cachedData });
  if (cachedData) status = script.cachedDataRejected ? 'rejected' : 'used';
  if (options.report) options.report(status);
  if (options.writeCache) {
    process.on('exit', () => {
      writeFileSync(cachePathOf(bundle), Buffer.concat([digest, script.createCachedData()]));
    });
  }
  const mod = new Module(bundle, module);
  mod.filename = bundle;
  mod.paths = Module._nodeModulePaths(dirname(bundle));
  const wrapper = script.runInThisContext();
  wrapper.call(mod.exports, mod.exports, Module.createRequire(bundle), mod, bundle, dirname(bundle));
  mod.loaded = true;
  return mod.exports;
}

module.exports = { loadBundle, cachePathOf };
