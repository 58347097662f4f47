/**
 * The npm package as a user gets it: `npm pack` in the clone, then, in an empty project far
 * from the clone and ../shared, `npm install --save-dev ./lpreq-<version>.tgz` (offline: the
 * package has no dependencies to fetch) and the commands through `npx`. The tarball is
 * packed from the dist/ that `npm test` has just built (LPREQ_PACK_BUILT=1: packing does
 * not rebuild dist/ under the other tests' feet; the prepack script still takes `prepare` out
 * of the packed package.json, scripts/packManifest.mjs).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { join, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, tempDir } from '../helpers';
import { LspClient } from '../lsp/rpc';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { name: string; version: string };
const tarball = `${pkg.name}-${pkg.version}.tgz`;

/**
 * What the tarball holds: the command line and its bundles, the language server, the
 * licenses. A new bundle that a command loads goes into package.json's "files" and here.
 */
const SHIPPED = [
  'package.json',
  'README.md',
  'LICENSE',
  'CHANGELOG.md',
  'bin/lpreq.js',
  'bin/loadBundle.js',
  'dist/lpreq.js',
  'dist/send.js',
  'dist/mock.js',
  'dist/proxy.js',
  'dist/export.js',
  'dist/import.js',
  'dist/tree-sitter.wasm',
  'dist/tree-sitter-bash.wasm',
  'dist/test.js',
  'dist/env.js',
  'dist/lsp.js',
  'dist/THIRD-PARTY-NOTICES.txt',
];
/** The V8 code cache, absent when the build ran with --no-code-cache. */
const SHIPPED_IF_BUILT = ['dist/lpreq.cache', 'dist/lsp.cache'];

let work = '';
let project = '';
let packed: { files: { path: string }[]; size: number; unpackedSize: number; entryCount: number } | undefined;
/** What `npm install` of the tarball printed. */
let installOutput = '';

/** npm without the settings of the `npm test` that runs this file, nor the user's: its own cache, offline. */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k)) env[k] = v;
  return {
    ...env,
    npm_config_cache: join(work, 'npm-cache'),
    npm_config_userconfig: join(work, 'npmrc'),
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    npm_config_offline: 'true',
  };
}

function run(command: string, args: string[], options: SpawnSyncOptions & { timeout: number }) {
  const r = spawnSync(command, args, { encoding: 'utf8', env: npmEnv(), ...options });
  if (r.error) throw new Error(`${command} ${args.join(' ')}: ${r.error.message}`);
  return { status: r.status, stdout: String(r.stdout), stderr: String(r.stderr) };
}

/** `npx lpreq ...` in the project: the installed lpreq (offline: npx cannot fetch one instead). */
function npxLpreq(args: string[], input?: string) {
  return run('npx', ['lpreq', ...args], { cwd: project, input, timeout: 60_000 });
}

describe('the npm package, installed in an empty project', { timeout: 300_000 }, () => {
  before(() => {
    assert.ok(existsSync(join(ROOT, 'dist', 'lpreq.js')), 'dist/ is built by npm test before the tests run');
    work = tempDir('package');
    writeFileSync(join(work, 'npmrc'), '');
    project = join(work, 'project');
    mkdirSync(join(project, 'requests'), { recursive: true });
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({ name: 'an-integration', version: '1.0.0', private: true }, null, 2),
    );

    const p = run('npm', ['pack', '--json', '--pack-destination', project], {
      cwd: ROOT,
      timeout: 120_000,
      env: { ...npmEnv(), LPREQ_PACK_BUILT: '1' },
    });
    assert.equal(p.status, 0, `npm pack: ${p.stderr}`);
    packed = (JSON.parse(p.stdout) as NonNullable<typeof packed>[])[0];

    const i = run('npm', ['install', '--save-dev', '--offline', '--no-audit', '--no-fund', `./${tarball}`], {
      cwd: project,
      timeout: 120_000,
    });
    assert.equal(i.status, 0, `npm install ./${tarball}: ${i.stdout}\n${i.stderr}`);
    installOutput = i.stdout + i.stderr;
  });

  after(() => {
    if (work) rmSync(work, { recursive: true, force: true });
  });

  test('the tarball holds the command line, the language server and the licenses, and nothing else', () => {
    assert.ok(packed);
    const files = packed.files.map((f) => f.path).sort();
    const unexpected = files.filter((f) => !SHIPPED.includes(f) && !SHIPPED_IF_BUILT.includes(f));
    assert.deepEqual(unexpected, [], 'files the package must not ship (package.json "files")');
    assert.deepEqual(
      SHIPPED.filter((f) => !files.includes(f)),
      [],
      'files the package must ship',
    );
  });

  test('installing the tarball prints no npm warning: its package.json has no prepare script; the clone keeps it', () => {
    assert.doesNotMatch(installOutput, /npm warn/i, installOutput);
    const manifest = JSON.parse(readFileSync(join(project, 'node_modules', pkg.name, 'package.json'), 'utf8')) as {
      scripts?: Record<string, string>;
    };
    assert.equal(manifest.scripts?.prepare, undefined);
    // The clone's package.json is as it was: prepare builds after npm ci and for a git install.
    const clone = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    assert.equal(clone.scripts.prepare, 'node scripts/build.mjs');
    assert.ok(!existsSync(join(ROOT, 'package.json.prepack')));
  });

  test('it is installed as a copy with no dependencies, the bin linked, the Node it needs declared', () => {
    const installed = join(project, 'node_modules', pkg.name);
    assert.ok(!lstatSync(installed).isSymbolicLink(), 'a copy, not a link back to the clone');
    assert.ok(realpathSync(installed).startsWith(realpathSync(project) + sep));
    const manifest = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    assert.equal(manifest.dependencies, undefined, 'the bundles hold their dependencies');
    assert.deepEqual(manifest.bin, { lpreq: 'bin/lpreq.js' });
    assert.match(String((manifest.engines as { node?: string }).node), /^>=20\./);
    assert.deepEqual(JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')).devDependencies, {
      [pkg.name]: `file:${tarball}`,
    });
    assert.deepEqual(
      readdirSync(join(project, 'node_modules')).sort(),
      ['.bin', '.package-lock.json', pkg.name].sort(),
      'nothing else was installed',
    );
  });

  test('npx lpreq --help and --version answer', () => {
    const help = npxLpreq(['--help']);
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /lpreq check/);
    assert.match(help.stdout, /lpreq lsp --stdio/);
    const version = npxLpreq(['--version']);
    assert.equal(version.status, 0, version.stderr);
    assert.equal(version.stdout.trim(), pkg.version, 'lpreq --version says the package version');
    // The proxy's own bundle is in the package: its usage comes from dist/proxy.js.
    const proxy = npxLpreq(['proxy', '--help']);
    assert.equal(proxy.status, 0, proxy.stderr);
    assert.match(proxy.stdout, /^usage: lpreq proxy --target URL/);
    // So is the OpenAPI export's (dist/export.js), which once was built but not packed.
    const openapi = npxLpreq(['export', 'openapi']);
    assert.equal(openapi.status, 0, openapi.stderr);
    assert.equal((JSON.parse(openapi.stdout) as { openapi: string }).openapi, '3.1.0');
    // The import's bundle reads a curl command with the shell grammar's WebAssembly, shipped beside it.
    const imported = npxLpreq(
      ['import', '-'],
      "curl 'https://lms.example.edu/api/v1/courses/42/modules' -H 'Authorization: Bearer S3CRET-package-token'",
    );
    assert.equal(imported.status, 0, imported.stderr);
    assert.match(imported.stdout, /^GET \{\{base_url\}\}\/api\/v1\/courses\/\{\{course_id\}\}\/modules$/m);
    assert.ok(!imported.stdout.includes('S3CRET') && !imported.stderr.includes('S3CRET'));
  });

  test('npx lpreq check finds the mistake in a request file: exit 1 and its code', () => {
    writeFileSync(
      join(project, 'requests', 'modules.lpreq'),
      [
        '### Add a quiz that needs a minimum score',
        'POST https://lms.example.edu/api/v1/courses/42/modules/7/items',
        '',
        'module_item[type] = Quiz',
        'module_item[content_id] = 55',
        'module_item[completion_requirement][type] = min_score',
        '',
      ].join('\n'),
    );
    const r = npxLpreq(['check', '--format', 'json', 'requests/']);
    assert.equal(r.status, 1, r.stderr);
    const found = (JSON.parse(r.stdout) as { code: string; line: number }[]).map((d) => `${d.line} ${d.code}`);
    assert.deepEqual(found, ['2 missing-required']);
    const clean = npxLpreq(['check', '-'], 'GET https://lms.example.edu/api/v1/courses/42/modules\n');
    assert.equal(clean.status, 0, clean.stdout + clean.stderr);
  });

  test('npx lpreq test --mock checks and sends the requests against the mock, and reports what held', () => {
    mkdirSync(join(project, 'api-tests'), { recursive: true });
    writeFileSync(
      join(project, 'api-tests', 'modules.lpreq'),
      [
        '### Create a module',
        '# @name createModule',
        'POST {{base_url}}/api/v1/courses/42/modules',
        '',
        'module[name] = Week 5',
        'module[position] = 2',
        '',
        '?? status == 200',
        '?? body $.name == Week 5',
        '?? body $.workflow_state == active',
        '',
        '### Read it back',
        'GET /api/v1/courses/42/modules/{{createModule.response.body.$.id}}',
        '?? body $.id == {{createModule.response.body.$.id}}',
        '',
      ].join('\n'),
    );
    const passed = npxLpreq(['test', '--mock', '--reporter', 'json', 'api-tests/']);
    assert.equal(passed.status, 0, passed.stdout + passed.stderr);
    const out = JSON.parse(passed.stdout) as { passed: number; failed: number };
    assert.deepEqual([out.passed, out.failed], [2, 0]);
    writeFileSync(
      join(project, 'api-tests', 'wrong.lpreq'),
      'GET /api/v1/courses/42/modules/7\n?? body $.name == Week 99\n',
    );
    const failed = npxLpreq(['test', '--mock', '--reporter', 'junit', 'api-tests/']);
    assert.equal(failed.status, 1, failed.stderr);
    assert.match(failed.stdout, /<testsuite name="api-tests\/wrong\.lpreq" tests="1" failures="1"/);
  });

  test('npx lpreq lsp --stdio: initialize, open a document, diagnostics, shutdown', { timeout: 60_000 }, async () => {
    const client = new LspClient(['lpreq', 'lsp', '--stdio'], project, {
      command: 'npx',
      env: npmEnv(),
      detached: true,
    });
    try {
      const init = (await client.initialize({}, pathToFileURL(project).href)) as { serverInfo?: { name?: string } };
      assert.equal(init.serverInfo?.name, 'lpreq');
      const uri = pathToFileURL(join(project, 'requests', 'files.lpreq')).href;
      const published = client.diagnostics(uri, 1, 30_000);
      client.notify('textDocument/didOpen', {
        textDocument: {
          uri,
          languageId: 'lpreq',
          version: 1,
          text: 'GET https://lms.example.edu/api/v1/courses/42/files?srot=size\n',
        },
      });
      const diagnostics = (await published).diagnostics.map((d) => `${d.range.start.line} ${d.code}`);
      assert.deepEqual(diagnostics, ['0 unknown-parameter']);
      await client.shutdown(10_000);
      assert.equal(client.process.exitCode, 0, client.stderr);
    } finally {
      client.kill();
    }
  });
});
