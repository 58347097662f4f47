/**
 * The V8 code cache of the bundles (bin/loadBundle.js, scripts/codeCache.mjs): used when it
 * belongs to the bundle, ignored when it is stale, foreign or damaged, and never a reason
 * for a bundle to behave differently.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, tempDir } from '../helpers';

const { loadBundle, cachePathOf, buildIdOf, BUILD_MARK } = createRequire(import.meta.filename)(
  join(ROOT, 'bin', 'loadBundle.js'),
) as {
  loadBundle: (
    bundle: string,
    options?: { writeCache?: boolean; report?: (status: string) => void },
  ) => Record<string, unknown>;
  cachePathOf: (bundle: string) => string;
  buildIdOf: (source: string) => string | undefined;
  BUILD_MARK: string;
};

const tmp = tempDir('cache');

/** A bundle as the build leaves it: its code, then a fresh build id. */
function bundleIn(name: string, source: string): string {
  const file = join(tmp, `${name}.js`);
  writeFileSync(file, `${source}\n${BUILD_MARK}${randomBytes(16).toString('hex')}\n`);
  return file;
}

function writeCacheOf(bundle: string) {
  const run = spawnSync(process.execPath, [
    '-e',
    `require(${JSON.stringify(join(ROOT, 'bin', 'loadBundle.js'))}).loadBundle(${JSON.stringify(bundle)}, { writeCache: true })`,
  ]);
  assert.equal(run.status, 0, run.stderr.toString());
}

function load(bundle: string): { exports: Record<string, unknown>; status: string } {
  let status = '';
  const exports = loadBundle(bundle, { report: (s) => (status = s) });
  return { exports, status };
}

test('the build writes a cache for the command line and the language server, stamped with their build id', () => {
  for (const name of ['lpreq', 'lsp']) {
    const bundle = join(ROOT, 'dist', `${name}.js`);
    const id = buildIdOf(readFileSync(bundle, 'utf8'));
    assert.match(id ?? '', /^[0-9a-f]{32}$/);
    const cache = readFileSync(cachePathOf(bundle));
    assert.ok(cache.length > 100_000, `${name}: the cache holds the compiled functions of a real run`);
    assert.equal(cache.subarray(0, 64).toString('latin1').trim(), id);
  }
});

test('a cache written by a run is used by the next load', () => {
  const bundle = bundleIn('written', 'exports.twice = (x) => 2 * x; exports.dir = __dirname; exports.twice(21);');
  writeCacheOf(bundle);
  const { exports, status } = load(bundle);
  assert.equal(status, 'used');
  assert.equal((exports.twice as (x: number) => number)(4), 8);
  assert.equal(exports.dir, tmp);
});

test('no cache, a stale cache and a damaged cache: the bundle compiles from source and works the same', () => {
  const bundle = bundleIn('plain', 'exports.answer = 42;');
  assert.deepEqual(load(bundle), { exports: { answer: 42 }, status: 'absent' });
  // A cache made from another build of the bundle, of the same length: another build id.
  const other = bundleIn('other', 'exports.answer = 43;');
  writeCacheOf(other);
  copyFileSync(cachePathOf(other), cachePathOf(bundle));
  assert.deepEqual(load(bundle), { exports: { answer: 42 }, status: 'stale' });
  // The right build id over bytes V8 does not accept (a new source: V8 keeps compiled scripts in memory).
  const damaged = bundleIn('damaged', 'exports.answer = 44;');
  const id = buildIdOf(readFileSync(damaged, 'utf8')) ?? '';
  writeFileSync(
    cachePathOf(damaged),
    Buffer.concat([Buffer.from(id.padEnd(64, ' '), 'latin1'), Buffer.from('not a code cache at all, just bytes')]),
  );
  assert.deepEqual(load(damaged), { exports: { answer: 44 }, status: 'rejected' });
  // A bundle without a build id (built with --no-code-cache) never takes a cache.
  const unstamped = join(tmp, 'unstamped.js');
  writeFileSync(unstamped, 'exports.answer = 45;');
  copyFileSync(cachePathOf(other), cachePathOf(unstamped));
  assert.deepEqual(load(unstamped), { exports: { answer: 45 }, status: 'absent' });
});

test('the command line gives the same answer with and without the cache', () => {
  const file = join(ROOT, 'examples', 'mistakes.lpreq');
  const run = (env: NodeJS.ProcessEnv) =>
    spawnSync(process.execPath, [join(ROOT, 'bin', 'lpreq.js'), 'check', '--format', 'json', file], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });
  const cached = run({});
  const plain = run({ LPREQ_CODE_CACHE: '0' });
  assert.equal(cached.status, 1);
  assert.equal(cached.stdout, plain.stdout);
  assert.ok(JSON.parse(cached.stdout).length > 0);
});
