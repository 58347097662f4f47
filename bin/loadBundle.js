'use strict';
/*
 * Loads a bundle of dist/ as `require` would, but with the V8 code cache that
 * `npm run build` wrote beside it (dist/NAME.cache, see scripts/codeCache.mjs): the
 * functions a typical run needs come compiled from the cache instead of being parsed and
 * compiled again at every start, which is most of what a short `lpreq check` costs.
 *
 * Each build ends every bundle with a random build id (`//# lpreqBuild=...`, see
 * scripts/codeCache.mjs) and starts its cache with the same id. A cache of another build,
 * or one V8 rejects (another Node version, other flags), is ignored: the bundle is then
 * compiled from source as usual, never run with foreign code. (Comparing ids, not hashing
 * the bundle, keeps crypto and a pass over a megabyte out of every start.)
 */
const { readFileSync, writeFileSync } = require('node:fs');
const { dirname } = require('node:path');
const vm = require('node:vm');
const Module = require('node:module');

const BUILD_MARK = '//# lpreqBuild=';
/** The cache's header: the build id, as ASCII, padded to this length. */
const ID_BYTES = 64;

function cachePathOf(bundle) {
  return bundle.replace(/\.js$/, '') + '.cache';
}

/** The build id at the end of a bundle, or undefined for a bundle without one. */
function buildIdOf(source) {
  const at = source.lastIndexOf(BUILD_MARK, source.length);
  if (at === -1 || source.length - at > 200) return undefined;
  const id = source.slice(at + BUILD_MARK.length).trim();
  return /^[0-9a-f]{16,64}$/.test(id) ? id : undefined;
}

function headerOf(id) {
  return Buffer.from(id.padEnd(ID_BYTES, ' '), 'latin1');
}

/**
 * Compiles and runs a bundle. `options.writeCache` makes the process write a fresh cache
 * when it exits, holding every function compiled by then (the build uses it).
 * `options.report` is told what became of the cache: 'used', 'absent', 'stale' (made from
 * another build of the bundle), 'rejected' (by V8) or 'writing'.
 */
function loadBundle(bundle, options = {}) {
  const source = readFileSync(bundle, 'utf8');
  const id = buildIdOf(source);
  let cachedData;
  let status = 'writing';
  if (!options.writeCache) {
    try {
      const file = id === undefined ? undefined : readFileSync(cachePathOf(bundle));
      if (file === undefined) status = 'absent';
      else if (file.length > ID_BYTES && file.subarray(0, ID_BYTES).equals(headerOf(id)))
        cachedData = file.subarray(ID_BYTES);
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
    if (id === undefined) throw new Error(`${bundle} has no build id: a cache could not be told from another build's`);
    process.on('exit', () => {
      writeFileSync(cachePathOf(bundle), Buffer.concat([headerOf(id), script.createCachedData()]));
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

/** Standard output went away (`lpreq check | head`): what is left to print is dropped. */
let stdoutClosed = false;

/**
 * What a bundle's `run(argv, io)` is given: this process's streams, environment and folder.
 * A reader that stops reading (EPIPE) ends the output quietly, as for any command line
 * tool, instead of an unhandled stream error; the exit status stays the command's.
 */
function processIo() {
  if (process.stdout.listenerCount('error') === 0) {
    process.stdout.on('error', (e) => {
      stdoutClosed = true;
      if (!e || e.code !== 'EPIPE') {
        process.stderr.write(`lpreq: cannot write to standard output: ${e && e.message ? e.message : String(e)}\n`);
        process.exitCode = 2;
      }
    });
  }
  return {
    stdout: (s) => {
      if (!stdoutClosed) process.stdout.write(s);
    },
    stderr: (s) => process.stderr.write(s),
    // A stream, not readFileSync(0): reading isTTY below makes a pipe non-blocking, and a pipe
    // whose writer is slow then fails with EAGAIN. The reader stops at its size limit.
    readStdin: () => process.stdin,
    isTTY: process.stdout.isTTY === true,
    env: process.env,
    cwd: process.cwd(),
    ask: process.stdin.isTTY ? ask : undefined,
  };
}

/**
 * Asks a question at the terminal, on standard error (standard output stays the command's).
 * A secret answer (a password prompt) is not echoed. Ctrl-C or Ctrl-D cancels: undefined.
 */
function ask(question, secret) {
  return new Promise((resolve) => {
    const readline = require('node:readline');
    const { Writable } = require('node:stream');
    let muted = false;
    const output = new Writable({
      write(chunk, _encoding, done) {
        if (!muted) process.stderr.write(chunk);
        done();
      },
    });
    const rl = readline.createInterface({ input: process.stdin, output, terminal: true });
    let answered = false;
    rl.on('SIGINT', () => rl.close());
    rl.on('close', () => {
      if (answered) return;
      process.stderr.write('\n');
      resolve(undefined);
    });
    rl.question(question, (answer) => {
      answered = true;
      if (secret) process.stderr.write('\n');
      rl.close();
      resolve(answer);
    });
    muted = secret;
  });
}

module.exports = { loadBundle, processIo, cachePathOf, buildIdOf, BUILD_MARK };
