/**
 * `lpreq scopes`: the scopes of examples/ against a list written by hand from the docs
 * (exampleScopes.ts), and in a repository of someone else's (environments dev and staging):
 * SIS ids, variables, a deprecated path, requests outside the API, the comparison with an
 * environment's `$scopes`, exit codes and help.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { bundledCatalog } from '../../server/src/catalogData';
import { documentedScopes } from '../../server/src/core/index';
import { UsageError } from '../../server/src/cli/args';
import { readScopesOption } from '../../server/src/cli/scopeList';
import { ROOT, runCli, tempDir } from '../helpers';
import { EXAMPLE_SCOPES, EXAMPLE_UNKNOWN } from './exampleScopes';

const EXAMPLES = join(ROOT, 'examples');

/** The text report read back: each scope with its requests (`file:line`, notes dropped), and the requests of unknown scope. */
function readReport(text: string): { scopes: Map<string, string[]>; unknown: string[]; outside: string[] } {
  const scopes = new Map<string, string[]>();
  const unknown: string[] = [];
  const outside: string[] = [];
  let section: 'scopes' | 'unknown' | 'outside' | 'other' = 'scopes';
  let current: string[] | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('requests that match no documented endpoint')) section = 'unknown';
    else if (line.startsWith('requests outside the API')) section = 'outside';
    else if (line.startsWith('compared with') || /^\d+ scopes? for/.test(line)) section = 'other';
    else if (section === 'scopes' && line.startsWith('url:')) scopes.set(line, (current = []));
    else if (line.startsWith('  ')) {
      const where = line.trim().split(/\s+/)[0];
      if (section === 'scopes') current?.push(where);
      else if (section === 'unknown') unknown.push(where);
      else if (section === 'outside') outside.push(where);
    }
  }
  return { scopes, unknown, outside };
}

test('examples/: the JSON list is the hand-written one, sorted, each scope once', async () => {
  const { code, stdout, stderr } = await runCli(['scopes', '--format', 'json', 'examples'], { cwd: ROOT });
  const expected = [...new Set(EXAMPLE_SCOPES.map(([, scope]) => scope))].sort();
  assert.deepEqual(JSON.parse(stdout), expected);
  // Two requests of mistakes.lpreq match no documented endpoint: the list may lack their scopes.
  assert.equal(code, 1);
  for (const where of EXAMPLE_UNKNOWN) assert.match(stderr, new RegExp(`examples/${where}: .*its scope is unknown`));
  const documented = documentedScopes(bundledCatalog());
  for (const scope of expected) assert.ok(documented.has(scope), `${scope} is a documented scope`);
});

test('examples/: the text report gives each scope the requests that need it, and the unknown ones apart', async () => {
  const { code, stdout } = await runCli(['scopes'], { cwd: EXAMPLES });
  assert.equal(code, 1);
  const report = readReport(stdout);
  const expected = new Map<string, string[]>();
  for (const [where, scope] of EXAMPLE_SCOPES) expected.set(scope, [...(expected.get(scope) ?? []), where]);
  assert.deepEqual(
    [...report.scopes].map(([scope, list]) => [scope, [...list].sort()]),
    [...expected].sort(([a], [b]) => (a < b ? -1 : 1)).map(([scope, list]) => [scope, [...list].sort()]),
  );
  assert.deepEqual(report.unknown, EXAMPLE_UNKNOWN);
  assert.deepEqual(report.outside, []);
  // The deprecated path is marked, with the preferred path's own scope.
  assert.match(
    stdout,
    /mistakes\.lpreq:117 {2}\(a deprecated path: \/api\/v1\/search\/recipients needs url:GET\|\/api\/v1\/search\/recipients\)/,
  );
  assert.match(stdout, /\n\d+ scopes for 200 requests in 18 files; 2 requests of unknown scope\n$/);
});

/** A repository that is not ours: environments dev and staging, a token each, requests that chain, a folder below. */
function someoneElsesRepo(envFile: unknown): string {
  const dir = tempDir('scopes-repo');
  writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify(envFile, null, 2));
  writeFileSync(
    join(dir, 'http-client.private.env.json'),
    JSON.stringify({ dev: { token: 'dev-token-1234567890' }, staging: { token: 'staging-token-1234567890' } }),
  );
  writeFileSync(
    join(dir, 'sync.lpreq'),
    [
      '@api = {{base_url}}/api/v1',
      '@course_path = courses/{{course}}',
      '',
      '### the course by its SIS id',
      '# @name modules',
      'GET {{base_url}}/api/v1/courses/sis_course_id:{{sis_course}}/modules',
      'Authorization: Bearer {{token}}',
      '',
      '### the first module, chained',
      'GET {{api}}/courses/{{course}}/modules/{{modules.response.body.$[0].id}}/items',
      '',
      '### a variable standing for two segments',
      'GET {{api}}/{{course_path}}/modules',
      '',
      '### a user by SIS id',
      'GET /api/v1/users/sis_user_id:S1001/courses',
      '',
      '### outside the API',
      'GET {{base_url}}/health',
      '',
    ].join('\n'),
  );
  mkdirSync(join(dir, 'grading'));
  writeFileSync(
    join(dir, 'grading', 'grade.lpreq'),
    [
      '### grade',
      'PUT /api/v1/courses/{{course}}/assignments/7/submissions/sis_user_id:S1001',
      '',
      'submission[posted_grade] = A',
      '',
      '### the deprecated search path',
      'GET /api/v1/conversations/find_recipients?search=smith',
      '',
    ].join('\n'),
  );
  return dir;
}

const NEEDED = [
  'url:GET|/api/v1/conversations/find_recipients',
  'url:GET|/api/v1/courses/{course_id}/modules',
  'url:GET|/api/v1/courses/{course_id}/modules/{module_id}/items',
  'url:GET|/api/v1/users/{user_id}/courses',
  'url:PUT|/api/v1/courses/{course_id}/assignments/{assignment_id}/submissions/{user_id}',
];

const ENVIRONMENTS = {
  dev: { base_url: 'http://127.0.0.1:4010', course: '42', sis_course: 'BIO-101' },
  staging: { base_url: 'https://staging.lms.example.edu/lms', course: '58213', sis_course: 'BIO-101-S' },
};

test('a repository of dev and staging: SIS ids, variables, a base_url with a path, folders below, the current folder by default', async () => {
  const dir = someoneElsesRepo(ENVIRONMENTS);
  for (const argv of [
    ['scopes', '--format', 'json'],
    ['scopes', '--format', 'json', '--env', 'staging', '.'],
  ]) {
    const { code, stdout, stderr } = await runCli(argv, { cwd: dir });
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(stdout), NEEDED);
    assert.equal(
      stderr,
      argv.includes('--env')
        ? 'lpreq: the environment staging declares no $scopes (http-client.env.json): nothing to compare the list with\n'
        : '',
    );
  }
  const { code, stdout } = await runCli(['scopes', 'sync.lpreq', 'grading'], { cwd: dir });
  assert.equal(code, 0);
  const report = readReport(stdout);
  assert.deepEqual(report.scopes.get('url:GET|/api/v1/courses/{course_id}/modules'), ['sync.lpreq:6', 'sync.lpreq:13']);
  assert.deepEqual(report.outside, ['sync.lpreq:19']);
  assert.match(stdout, /grading\/grade\.lpreq:7 {2}\(a deprecated path: /);
  // No token and no value of a variable is printed.
  assert.ok(!/token-1234567890|58213|BIO-101/.test(stdout), stdout);
});

test("--env compares the list with the environment's $scopes: missing, not needed, not documented (exit 1 while one is missing)", async () => {
  const dir = someoneElsesRepo({
    ...ENVIRONMENTS,
    dev: {
      ...ENVIRONMENTS.dev,
      $scopes: [
        // The form with colons grants what the braced one does.
        'url:GET|/api/v1/courses/:course_id/modules',
        'url:GET|/api/v1/courses/{course_id}/modules/{module_id}/items',
        'url:GET|/api/v1/coursez',
        'url:PUT|/api/v1/courses/{course_id}/assignments/{assignment_id}/submissions/{user_id}',
        'url:GET|/api/v1/conversations/find_recipients',
        'url:DELETE|/api/v1/courses/{course_id}/modules/{id}',
      ],
    },
    staging: { ...ENVIRONMENTS.staging, $scopes: 'staging-scopes.json' },
  });
  writeFileSync(join(dir, 'staging-scopes.json'), JSON.stringify(NEEDED));
  const dev = await runCli(['scopes', '--env', 'dev'], { cwd: dir });
  assert.equal(dev.code, 1);
  const compared = dev.stdout.slice(dev.stdout.indexOf('compared with'));
  assert.equal(
    compared.split('\n\n')[0],
    [
      'compared with the $scopes of dev in http-client.env.json:',
      '  missing: url:GET|/api/v1/users/{user_id}/courses',
      '  not needed: url:DELETE|/api/v1/courses/{course_id}/modules/{id}',
      '  not a documented scope: url:GET|/api/v1/coursez (did you mean url:GET|/api/v1/courses?)',
    ].join('\n'),
  );
  // JSON: the list alone on standard output, the comparison on standard error.
  const json = await runCli(['scopes', '--env', 'dev', '--format', 'json'], { cwd: dir });
  assert.equal(json.code, 1);
  assert.deepEqual(JSON.parse(json.stdout), NEEDED);
  assert.match(json.stderr, /missing: url:GET\|\/api\/v1\/users\/\{user_id\}\/courses/);
  // staging's file is the list the requests need: exit 0.
  const staging = await runCli(['scopes', '--env', 'staging'], { cwd: dir });
  assert.equal(staging.code, 0, staging.stdout + staging.stderr);
  assert.match(staging.stdout, /compared with the \$scopes of staging in staging-scopes\.json:\n {2}the same scopes/);
});

test('a request whose scope cannot be known (a whole URL from a response, a misspelt path) is listed apart: exit 1', async () => {
  const dir = tempDir('scopes-unknown');
  writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ dev: { base_url: 'https://lms.example.edu' } }));
  writeFileSync(
    join(dir, 'pages.lpreq'),
    '### first\n# @name first\nGET /api/v1/courses\n\n### next page\nGET {{first.response.headers.Link}}\n\n### typo\nGET /api/v1/coursez\n\n### sign in\nPOST {{base_url}}/login/oauth2/token?client_secret=s3cr3t-value\n',
  );
  const { code, stdout, stderr } = await runCli(['scopes', '--format', 'json'], { cwd: dir });
  assert.equal(code, 1);
  assert.deepEqual(JSON.parse(stdout), ['url:GET|/api/v1/courses']);
  assert.match(stderr, /pages\.lpreq:6: the target is not a path until it is sent/);
  assert.match(stderr, /pages\.lpreq:9: no documented endpoint matches \/api\/v1\/coursez/);
  // As text: the requests outside the API apart, without their query (a value there may be a secret).
  const text = await runCli(['scopes'], { cwd: dir });
  assert.equal(text.code, 1);
  assert.deepEqual(readReport(text.stdout).outside, ['pages.lpreq:12']);
  assert.match(text.stdout, /pages\.lpreq:12 {2}POST \{\{base_url\}\}\/login\/oauth2\/token\n/);
  assert.ok(!text.stdout.includes('s3cr3t'), text.stdout);
});

test('bad arguments exit with 2; --help names every option and gives an example', async () => {
  const dir = someoneElsesRepo(ENVIRONMENTS);
  for (const argv of [
    ['scopes', '--format', 'xml'],
    ['scopes', 'missing-folder'],
    ['scopes', '--env', 'prod'],
    ['scopes', '--frmat', 'json'],
  ]) {
    const { code, stderr, stdout } = await runCli(argv, { cwd: dir });
    assert.equal(code, 2, argv.join(' '));
    assert.equal(stdout, '');
    assert.match(stderr, /^lpreq: .+\n$/);
  }
  const help = await runCli(['scopes', '--help'], { cwd: dir });
  assert.equal(help.code, 0);
  assert.match(help.stdout, /^usage: lpreq scopes \[--env NAME\] \[--format text\|json\] \[PATH\.\.\.\]/);
  assert.match(help.stdout, /examples:\n {2}lpreq scopes\n {2}lpreq scopes --format json requests\/ > scopes\.json\n/);
  assert.match((await runCli(['--help'])).stdout, /^ {2}scopes {2,}/m);
});

test('--scopes FILE of the mock and the proxy: a list that is not one is a usage error; a :name placeholder read as {name}; a scope of no documented endpoint a warning that names the documented one it means', () => {
  const dir = tempDir('scopes-option');
  const catalog = bundledCatalog();
  writeFileSync(
    join(dir, 'canvas.json'),
    JSON.stringify(['url:GET|/api/v1/courses/:course_id/modules', 'url:GET|/api/v1/coursez']),
  );
  const warnings: string[] = [];
  assert.deepEqual(
    readScopesOption('canvas.json', dir, catalog, (m) => warnings.push(m)),
    // A placeholder written :name reads as the docs write it.
    ['url:GET|/api/v1/courses/{course_id}/modules', 'url:GET|/api/v1/coursez'],
  );
  assert.deepEqual(warnings, [
    'the scopes file canvas.json: url:GET|/api/v1/coursez is not the scope of a documented endpoint; it grants nothing here (did you mean url:GET|/api/v1/courses?)',
  ]);
  writeFileSync(join(dir, 'object.json'), JSON.stringify({ scopes: [] }));
  writeFileSync(join(dir, 'words.json'), JSON.stringify(['read courses']));
  for (const [file, message] of [
    ['object.json', /the scopes file object\.json: expected a JSON array of scope strings/],
    ['words.json', /the scopes file words\.json: item 1 \('read courses'\) is not a scope/],
    ['none.json', /the scopes file none\.json: /],
  ] as const)
    assert.throws(
      () => readScopesOption(file, dir, catalog, () => undefined),
      (e: unknown) => e instanceof UsageError && message.test(e.message),
    );
});
