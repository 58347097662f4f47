/** `lpreq check`: formats, exit codes and plain errors for bad input (LPREQ-FORMAT section 5). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, SHARED, tempDir } from '../helpers';

const invalid = join(SHARED, 'conformance', 'invalid');
const tmp = tempDir('cli');

test('json: one array, 1-based positions, file as given', async () => {
  const file = join(invalid, '145-folder-create-parent-id-and-path.lpreq');
  const { code, stdout } = await runCli(['check', '--format', 'json', file]);
  assert.equal(code, 1);
  const [d, ...rest] = JSON.parse(stdout);
  assert.deepEqual(rest, []);
  // The contract's fields in its order; `detail` (the endpoint, the documentation's words) after them, where there is one.
  assert.deepEqual(Object.keys(d), [
    'file',
    'line',
    'column',
    'endLine',
    'endColumn',
    'severity',
    'code',
    'message',
    'detail',
  ]);
  assert.match(d.detail, /POST \/api\/v1\/courses\/\{course_id\}\/folders/);
  assert.doesNotMatch(d.message, /\/api\/v1/);
  assert.equal(d.file, file);
  assert.equal(d.line, 8);
  assert.equal(d.column, 1);
  assert.equal(d.code, 'conflicting-parameters');
});

test('a folder is checked recursively and file names are joined with the folder as given', async () => {
  mkdirSync(join(tmp, 'tree', 'sub'), { recursive: true });
  writeFileSync(join(tmp, 'tree', 'sub', 'a.lpreq'), 'GET /api/v1/courses/1/modulez\n');
  writeFileSync(join(tmp, 'tree', 'ignored.http'), 'GET /api/v1/nothing\n');
  const { code, stdout } = await runCli(['check', '--format', 'json', 'tree'], { cwd: tmp });
  assert.equal(code, 1);
  assert.deepEqual(
    JSON.parse(stdout).map((d: { file: string; code: string }) => [d.file, d.code]),
    [[join('tree', 'sub', 'a.lpreq'), 'unknown-endpoint']],
  );
  // Named again inside a folder given too: checked once, under the name it first came with.
  const twice = await runCli(['check', '--format', 'json', join('tree', 'sub', 'a.lpreq'), 'tree'], { cwd: tmp });
  assert.deepEqual(
    JSON.parse(twice.stdout).map((d: { file: string }) => d.file),
    [join('tree', 'sub', 'a.lpreq')],
  );
});

test('exit 0 with warnings only, and text output names file:line:col, severity and code', async () => {
  const { code, stdout } = await runCli(['check', join(invalid, '117-module-create-name-typo.lpreq')]);
  assert.equal(code, 0);
  assert.match(
    stdout,
    /117-module-create-name-typo\.lpreq:7:1: warning unknown-parameter: module\[nmae\] .*did you mean module\[name\]\?/,
  );
  assert.match(stdout, /1 file checked: 0 errors, 1 warning/);
});

test('standard input with -', async () => {
  const { code, stdout } = await runCli(['check', '--format', 'json', '-'], { stdin: 'GETT /api/v1/courses\n' });
  assert.equal(code, 1);
  assert.equal(JSON.parse(stdout)[0].code, 'syntax');
});

test('a byte order mark is not a column: line 1 counts from after it, as editors show it', async () => {
  const { stdout } = await runCli(['check', '--format', 'json', '-'], {
    stdin: '\ufeffGET /api/v1/courses/{{x}}/modules\n',
  });
  const [d] = JSON.parse(stdout);
  assert.deepEqual([d.code, d.line, d.column, d.endColumn], ['unresolved-variable', 1, 21, 26]);
});

test('sarif: SARIF 2.1.0 with one rule per code and results pointing at rules', async () => {
  const { stdout } = await runCli([
    'check',
    '--format',
    'sarif',
    join(invalid, '139-appointment-group-create-bare-context-code-visibility-hidden.lpreq'),
  ]);
  const sarif = JSON.parse(stdout);
  assert.equal(sarif.version, '2.1.0');
  const run = sarif.runs[0];
  const ids = run.tool.driver.rules.map((r: { id: string }) => r.id);
  assert.ok(ids.includes('invalid-enum') && ids.includes('missing-required'));
  for (const r of run.tool.driver.rules) assert.ok(r.help.text.length > 10);
  assert.equal(run.results.length, 2);
  for (const r of run.results) {
    assert.equal(ids[r.ruleIndex], r.ruleId);
    assert.equal(r.level, 'error');
    assert.ok(r.locations[0].physicalLocation.region.startLine > 0);
  }
});

test('sarif: locations are URIs, with spaces, # and % in names percent-encoded, that resolve to the file', async () => {
  const dir = join(tmp, 'sp ace');
  mkdirSync(dir, { recursive: true });
  const name = 'a b#1%.lpreq';
  writeFileSync(join(dir, name), 'GET /api/v1/courses/1/modulez\n');
  const { stdout } = await runCli(['check', '--format', 'sarif', 'sp ace'], { cwd: tmp });
  const run = JSON.parse(stdout).runs[0];
  const base = run.originalUriBaseIds['%SRCROOT%'].uri;
  const uri = run.results[0].locations[0].physicalLocation.artifactLocation.uri;
  assert.equal(uri, 'sp%20ace/a%20b%231%25.lpreq');
  const { fileURLToPath } = await import('node:url');
  assert.equal(fileURLToPath(new URL(uri, base)), join(dir, name));
});

test('github: workflow command annotations with escaped properties', async () => {
  const { stdout } = await runCli([
    'check',
    '--format',
    'github',
    join(invalid, '322-find-recipients-deprecated.lpreq'),
  ]);
  assert.match(
    stdout.trim(),
    /^::warning file=.*322-find-recipients-deprecated\.lpreq,line=4,col=\d+,endLine=4,endColumn=\d+,title=lpreq deprecated::.+$/,
  );
});

const usage: [string, string[], RegExp][] = [
  ['a missing path', ['check', 'no/such/file.lpreq'], /no such file or folder/],
  ['a bad flag', ['check', '--formt', 'json', '.'], /unknown option --formt/],
  ['a bad format', ['check', '--format', 'xml', '.'], /--format must be one of text, json, sarif, github/],
  ['a flag without its value', ['check', '--env'], /--env needs a value/],
  [
    'an unknown environment',
    ['check', '--env', 'nope', join(SHARED, 'conformance', 'valid')],
    /no environment named 'nope'/,
  ],
  ['an unknown command', ['chek'], /unknown command 'chek'/],
];
for (const [what, argv, message] of usage) {
  test(`exit 2 and a one-line message for ${what}`, async () => {
    const { code, stderr, stdout } = await runCli(argv, { cwd: tmp });
    assert.equal(code, 2);
    assert.match(stderr, message);
    assert.doesNotMatch(stderr + stdout, /\n\s+at /, 'no stack trace');
  });
}

test('a binary file, an empty file and a folder without .lpreq files get sensible answers', async () => {
  writeFileSync(join(tmp, 'binary.lpreq'), Buffer.from([0x47, 0x45, 0x54, 0x00, 0xff, 0x00]));
  writeFileSync(join(tmp, 'empty.lpreq'), '');
  mkdirSync(join(tmp, 'nothing'), { recursive: true });
  const binary = await runCli(['check', 'binary.lpreq'], { cwd: tmp });
  assert.equal(binary.code, 2);
  assert.match(binary.stdout, /^binary\.lpreq:1:1: error unreadable-file: a binary file/);
  const empty = await runCli(['check', 'empty.lpreq'], { cwd: tmp });
  assert.equal(empty.code, 0);
  // A folder with no request file is a wrong path in CI, not a green run.
  const none = await runCli(['check', 'nothing'], { cwd: tmp });
  assert.equal(none.code, 2);
  assert.match(none.stderr, /^lpreq: nothing: no \.lpreq file in this folder or below it\n$/);
});

test('a 10 MB file is checked', async () => {
  const block = '### List modules\nGET /api/v1/courses/42/modules?include[]=items\n\nsearch_term = week\n\n';
  writeFileSync(join(tmp, 'big.lpreq'), block.repeat(Math.ceil((10 * 1024 * 1024) / block.length)));
  const { code, stdout } = await runCli(['check', '--format', 'json', 'big.lpreq'], { cwd: tmp });
  assert.equal(code, 0);
  assert.equal(stdout.trim(), '[]');
});

test('an environment file that cannot be read is named on stderr; the files are still checked, without its variables', async () => {
  const dir = join(tmp, 'env-folder');
  mkdirSync(join(dir, 'http-client.env.json'), { recursive: true });
  writeFileSync(join(dir, 'a.lpreq'), 'GET /api/v1/courses/1/modules\n');
  const { code, stdout, stderr } = await runCli(['check', '--format', 'json', join(dir, 'a.lpreq')]);
  assert.equal(code, 0);
  assert.deepEqual(JSON.parse(stdout), []);
  assert.match(stderr, /http-client\.env\.json: a folder, not a file/);
  assert.doesNotMatch(stderr, /internal error/);
});

test('a malformed environment file: told once for a folder of files, the other file still counts, --env names it', async () => {
  const dir = join(tmp, 'env-broken');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'http-client.env.json'), '{ "local": { "base_url": "http://127.0.0.1:4010", } }');
  writeFileSync(join(dir, 'http-client.private.env.json'), JSON.stringify({ local: { course: '7' } }));
  writeFileSync(join(dir, 'a.lpreq'), 'GET {{base_url}}/api/v1/courses/{{course}}/modules\n');
  writeFileSync(join(dir, 'b.lpreq'), 'GET /api/v1/courses/1/modules\n');
  const { code, stdout, stderr } = await runCli(['check', '--format', 'json', dir]);
  assert.equal(code, 1);
  const found = JSON.parse(stdout) as { file: string; code: string; column: number }[];
  // base_url stood only in the broken file; course comes from the private file, which still counts.
  assert.deepEqual(
    found.map((d) => [d.file.endsWith('a.lpreq'), d.code, d.column]),
    [[true, 'unresolved-variable', 5]],
  );
  assert.equal(stderr.match(/http-client\.env\.json: not valid JSON at line 1, column 51/g)?.length, 1);
  const named = await runCli(['check', '--env', 'prod', dir]);
  assert.equal(named.code, 2);
  assert.match(named.stderr, /no environment named 'prod'[^]*http-client\.env\.json: not valid JSON/);
});

test('environments and variables named like Object.prototype members are names like any other; --env of one not defined is refused (issue 17)', async () => {
  const dir = join(tmp, 'env-prototype-names');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'http-client.env.json'),
    '{"__proto__": {"base_url": "http://127.0.0.1:4010", "course": "1"}, "constructor": {"base_url": "http://127.0.0.1:4010", "toString": "2", "__proto__": "3"}}',
  );
  writeFileSync(
    join(dir, 'a.lpreq'),
    'GET {{base_url}}/api/v1/courses/{{toString}}/modules?search_term={{__proto__}}\n',
  );
  const codes = async (env: string) => {
    const { code, stdout, stderr } = await runCli(['check', '--format', 'json', '--env', env, join(dir, 'a.lpreq')]);
    return {
      code,
      found:
        code === 2
          ? stderr
          : (JSON.parse(stdout) as { code: string; column: number }[]).map((d) => `${d.code}@${d.column}`),
    };
  };
  // The environment `constructor` defines base_url, toString and __proto__: nothing is unresolved.
  assert.deepEqual(await codes('constructor'), { code: 0, found: [] });
  // `__proto__` is an environment of the file too; it has no toString or __proto__ variable.
  assert.deepEqual(await codes('__proto__'), { code: 1, found: ['unresolved-variable@33', 'unresolved-variable@66'] });
  for (const name of ['toString', 'valueOf', 'hasOwnProperty', '__defineGetter__']) {
    const { code, found } = await codes(name);
    assert.equal(code, 2, name);
    assert.match(String(found), new RegExp(`no environment named '${name}'`));
  }
});
