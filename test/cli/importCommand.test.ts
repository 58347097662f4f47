/**
 * `lpreq import` as a command: its usage and refusals (exit 2, one clear line), standard
 * input, --out and the environment file it adds to, the report agreeing with `lpreq check`,
 * and a credential's value scrubbed wherever else the source repeats it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { lstatSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cmdArguments, looksLikeCmd } from '../../server/src/import/cmdLine';
import { runCli, tempDir } from '../helpers';
import { runImport } from './importHelpers';

const CURL = `curl 'https://lms.example.edu/api/v1/courses/42/modules?per_page=5' -H 'Authorization: Bearer S3CRET-cmd-test-token'`;

test('--help prints the usage and the formats', async () => {
  const r = await runImport(['--help']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^usage: lpreq import \[--from curl\|har\|postman\|http\] \[--out FILE\]/);
  for (const word of ['curl', 'har', 'postman', 'http', '--with-responses', '--force'])
    assert.ok(r.stdout.includes(word));
});

test('lpreq names import among its commands, and its --help gives its usage', async () => {
  const r = await runCli(['--help']);
  assert.match(r.stdout, /^ {2}import {2,}/m);
  const help = await runImport(['--help']);
  assert.match(help.stdout, /^usage: lpreq import \[--from curl\|har\|postman\|http\]/);
});

for (const [args, stdin, message] of [
  [[], '', /what to import is missing/],
  [['-'], 'hello there', /cannot tell what standard input is: give --from curl\|har\|postman\|http/],
  [['--from', 'har', '-'], CURL, /not a HAR file/],
  [['--from', 'postman', '-'], '{"info": {}}', /not a Postman collection/],
  [['--from', 'xml', '-'], CURL, /--from must be one of curl, har, postman, http, not 'xml'/],
  [['-', '-'], CURL, /standard input \(-\) can be read once/],
  [['--from', 'curl', '-'], 'curl', /no URL|not a curl command|no curl command/],
  [['does-not-exist.har'], '', /cannot read does-not-exist\.har/],
] as [string[], string, RegExp][]) {
  test(`lpreq import ${args.join(' ')} is refused with exit 2: ${message.source}`, async () => {
    const r = await runImport(args, { stdin, cwd: tempDir('import-cmd') });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, message);
    assert.equal(r.stderr.trim().split('\n')[0].startsWith('lpreq import: '), true, r.stderr);
    assert.ok(!r.stderr.includes('internal error'), r.stderr);
  });
}

test('standard input is read, the file goes to standard output and the report to standard error', async () => {
  const r = await runImport(['-'], { stdin: CURL });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^GET \{\{base_url\}\}\/api\/v1\/courses\/\{\{course_id\}\}\/modules$/m);
  assert.match(r.stderr, /documented: modules\.list \(GET \/api\/v1\/courses\/\{course_id\}\/modules\)/);
  assert.match(r.stderr, /environment entries the file needs/);
  assert.ok(!r.stdout.includes('S3CRET') && !r.stderr.includes('S3CRET'));
});

test('--out refuses to replace a file without --force', async () => {
  const dir = tempDir('import-out');
  writeFileSync(join(dir, 'mine.lpreq'), 'GET /api/v1/courses\n');
  const r = await runImport(['--out', 'mine.lpreq', '-'], { stdin: CURL, cwd: dir });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /mine\.lpreq exists: give --force/);
  assert.equal(readFileSync(join(dir, 'mine.lpreq'), 'utf8'), 'GET /api/v1/courses\n');
  const forced = await runImport(['--out', 'mine.lpreq', '--force', '-'], { stdin: CURL, cwd: dir });
  assert.equal(forced.code, 0, forced.stderr);
  assert.match(readFileSync(join(dir, 'mine.lpreq'), 'utf8'), /modules/);
});

test('environment entries go into the http-client.env.json lpreq reads for the file: nothing of the user is changed', async () => {
  const repo = tempDir('import-env');
  mkdirSync(join(repo, '.git'));
  mkdirSync(join(repo, 'requests'));
  const envText = `{
  // our environments
  "dev": { "base_url": "http://127.0.0.1:4010", "courseId": "7" },
  "staging": { "base_url": "https://staging.lms.example.edu" }
}
`;
  writeFileSync(join(repo, 'http-client.env.json'), envText);
  const postman = JSON.stringify({
    info: { name: 'x', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    variable: [
      { key: 'courseId', value: '42' },
      { key: 'term', value: 'fall' },
    ],
    item: [
      { name: 'List', request: { method: 'GET', url: 'https://lms.example.edu/api/v1/courses/{{courseId}}/modules' } },
    ],
  });
  const r = await runImport(['--out', join('requests', 'modules.lpreq'), '-'], { stdin: postman, cwd: repo });
  assert.equal(r.code, 0, r.stderr);
  const after = readFileSync(join(repo, 'http-client.env.json'), 'utf8');
  // Comments and values stay; base_url is not added to $shared, every environment has its own.
  assert.ok(after.includes('// our environments'));
  assert.ok(after.includes('"courseId": "7"'));
  assert.ok(!/\$shared[\s\S]*base_url/.test(after), after);
  const parsed = JSON.parse(after.replace(/\/\/.*\n/, '\n')) as Record<string, Record<string, string>>;
  assert.deepEqual(parsed.$shared, { courseId: '42', term: 'fall' });
  assert.match(r.stderr, /added to .*http-client\.env\.json: \$shared\.courseId, \$shared\.term/);
});

test('the report gives the diagnostics lpreq check gives the written file', async () => {
  const dir = tempDir('import-check');
  const r = await runImport(
    ['--out', 'x.lpreq', join(import.meta.dirname, '..', 'fixtures', 'import', 'curl', 'mistakes.curl')],
    {
      cwd: dir,
    },
  );
  assert.equal(r.code, 0, r.stderr);
  const check = await runCli(['check', '--format', 'json', join(dir, 'x.lpreq')], { cwd: dir });
  const diagnostics = JSON.parse(check.stdout) as { line: number; column: number; severity: string; code: string }[];
  assert.ok(diagnostics.length >= 3);
  for (const d of diagnostics)
    assert.ok(r.stderr.includes(`${d.line}:${d.column} ${d.severity} ${d.code}:`), `${d.code} at ${d.line}`);
});

test("a credential's value is scrubbed where else the source repeats it", async () => {
  const r = await runImport(['-'], {
    stdin: `curl 'https://lms.example.edu/api/v1/courses/42/modules' -H 'Authorization: Bearer S3CRET-repeated-1234' --data-urlencode 'module[name]=S3CRET-repeated-1234'`,
  });
  assert.equal(r.code, 0, r.stderr);
  assert.ok(!r.stdout.includes('S3CRET-repeated-1234'));
  assert.match(r.stdout, /^module\[name\] = \*\*\*$/m);
});

test("cmd.exe's quoting: Chromium's carets and Firefox's doubled quotes read as cmd.exe and the C runtime read them", () => {
  assert.ok(looksLikeCmd('curl ^"https://x/^" ^\n  -H ^"a: b^"'));
  assert.ok(!looksLikeCmd("curl 'https://x/' -H 'a: ^b'"));
  assert.deepEqual(cmdArguments('curl ^"https://x/a?b=1^&c=^%^5B^" ^\r\n  -H ^"x: ^\\^"q^\\^"^"'), [
    'curl',
    'https://x/a?b=1&c=%5B',
    '-H',
    'x: "q"',
  ]);
  assert.deepEqual(cmdArguments('curl "https://x/" ^\n --data-raw "{""a"":""50"%"""}"'), [
    'curl',
    'https://x/',
    '--data-raw',
    '{"a":"50%"}',
  ]);
  // A line break inside a value: a caret and two line breaks.
  assert.deepEqual(cmdArguments('curl ^"line one^\n\nline two^"'), ['curl', 'line one\nline two']);
  assert.deepEqual(cmdArguments('curl a\\\\b "c\\\\"'), ['curl', 'a\\\\b', 'c\\']);
});

test("an id whose placeholder the folder's environments name stays their variable: no file variable overrides dev's value", async () => {
  const repo = tempDir('import-envvars');
  mkdirSync(join(repo, '.git'));
  writeFileSync(
    join(repo, 'http-client.env.json'),
    JSON.stringify({
      dev: { base_url: 'http://127.0.0.1:4010', course_id: '42' },
      staging: { base_url: 'https://staging.lms.example.edu', course_id: '4242' },
    }),
  );
  const r = await runImport(['--out', 'modules.lpreq', '-'], {
    stdin: "curl 'https://staging.lms.example.edu/api/v1/courses/4242/modules/77/items'",
    cwd: repo,
  });
  assert.equal(r.code, 0, r.stderr);
  const text = readFileSync(join(repo, 'modules.lpreq'), 'utf8');
  assert.match(text, /^GET \{\{base_url\}\}\/api\/v1\/courses\/\{\{course_id\}\}\/modules\/\{\{module_id\}\}\/items$/m);
  assert.ok(!text.includes('@course_id'), text);
  assert.match(text, /^@module_id = 77$/m);
  assert.match(r.stderr, /\{\{course_id\}\} is your environments' own/);
});

test('an http-client.env.json that is a link out of the repository is never written through (issue 26: the one confined writer)', async () => {
  const outside = tempDir('import-outside');
  const target = join(outside, 'precious.json');
  writeFileSync(target, '{ "mine": { "x": "1" } }\n');
  const repo = tempDir('import-link');
  mkdirSync(join(repo, '.git'));
  symlinkSync(target, join(repo, 'http-client.env.json'));
  const postman = JSON.stringify({
    info: { name: 'x', schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json' },
    variable: [{ key: 'term', value: 'fall' }],
    item: [{ name: 'List', request: { method: 'GET', url: 'https://lms.example.edu/api/v1/courses' } }],
  });
  const r = await runImport(['--out', 'courses.lpreq', '-'], { stdin: postman, cwd: repo });
  assert.equal(readFileSync(target, 'utf8'), '{ "mine": { "x": "1" } }\n');
  assert.ok(lstatSync(join(repo, 'http-client.env.json')).isSymbolicLink());
  assert.match(r.stderr, /outside the workspace/);
});
