/**
 * `lpreq test` (LPREQ-FORMAT section 7), in-process, against a test server on 127.0.0.1 and
 * against `--mock`: every reporter's output read back by a real parser (JUnit XML by
 * fast-xml-parser, TAP by tap-parser, json by JSON.parse against the exact shape, github by
 * the workflow-command grammar), exit codes, the rules of `lpreq send` (protected
 * environments, prompts), the token kept out of every report, and .lpreqtestignore.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Parser as TapParser } from 'tap-parser';
import { run } from '../../server/src/cli/testCommand';
import { tempDir } from '../helpers';
import { captureIo } from '../io';
import { json, startServer, type TestServer } from '../sender/server';

const TOKEN = 'cli-test-token-0123456789';
let api: TestServer;
let workspace = '';

async function lpreqTest(argv: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; isTTY?: boolean } = {}) {
  const out = captureIo({
    cwd: options.cwd ?? workspace,
    env: options.env ?? { LPREQ_TOKEN: TOKEN },
    isTTY: options.isTTY,
  });
  const code = await run(argv, out.io);
  return { code, stdout: out.stdout, stderr: out.stderr };
}

const MODULES = `### Create a module
# @name createModule
POST {{base_url}}/api/v1/courses/42/modules

module[name] = Week 5
module[position] = 2

?? status == 200
?? body $.name == Week 5
?? body $.position == 3
?? header x-echo includes Bearer

### Read it back
GET /api/v1/courses/42/modules/{{createModule.response.body.$.id}}
?? body $.id == {{createModule.response.body.$.id}}

### Not sent: the checker refuses it
POST /api/v1/courses/42/modules

module[position] = first
`;
// The title holds control characters (a terminal title sequence): every reporter writes them as escapes.
const LISTS = `### List \u001b]0;pwned\u0007
GET /api/v1/courses/42/modules
?? body $ isArray
?? body $[0].name == "Intro \\u001b[31m"
`;

before(async () => {
  let id = 700;
  api = await startServer((req, res) => {
    const url = new URL(req.url, api.origin);
    if (url.pathname === '/api/v1/courses/42/modules' && req.method === 'POST') {
      const form = new URLSearchParams(req.body);
      return json(
        res,
        200,
        {
          id: id++,
          name: form.get('module[name]'),
          position: 2,
          workflow_state: 'active',
          token: req.headers.authorization,
        },
        { 'x-echo': String(req.headers.authorization) },
      );
    }
    if (url.pathname === '/api/v1/courses/42/modules')
      return json(res, 200, [{ id: 1, name: 'Intro \u001b[31m', workflow_state: 'active' }]);
    const one = /^\/api\/v1\/courses\/42\/modules\/(\d+)$/.exec(url.pathname);
    if (one) return json(res, 200, { id: Number(one[1]), name: 'Week 5', workflow_state: 'active' });
    return json(res, 404, { errors: [{ message: 'no such thing' }] });
  });
  workspace = tempDir('lpreq-test');
  writeFileSync(join(workspace, 'http-client.env.json'), JSON.stringify({ local: { base_url: api.origin } }));
  mkdirSync(join(workspace, 'requests'));
  writeFileSync(join(workspace, 'requests', 'modules.lpreq'), MODULES);
  writeFileSync(join(workspace, 'requests', 'lists.lpreq'), LISTS);
});
after(() => api.close());

/** A control character that a terminal acts on (a line feed and a tab lay text out). */
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/;

/** Whether every object in a value has exactly the keys section 7 gives it. */
function assertShape(value: unknown): void {
  const top = value as Record<string, unknown>;
  assert.deepEqual(Object.keys(top).sort(), ['failed', 'files', 'passed']);
  for (const f of top.files as Record<string, unknown>[]) {
    assert.deepEqual(Object.keys(f).sort(), ['file', 'requests']);
    for (const r of f.requests as Record<string, unknown>[]) {
      assert.deepEqual(Object.keys(r).sort(), [
        'assertions',
        'durationMs',
        'line',
        'name',
        'passed',
        'skipped',
        'status',
      ]);
      assert.equal(typeof r.name, 'string');
      assert.equal(typeof r.line, 'number');
      assert.ok(r.status === null || typeof r.status === 'number');
      assert.equal(typeof r.durationMs, 'number');
      for (const a of r.assertions as Record<string, unknown>[]) {
        assert.deepEqual(Object.keys(a).sort(), ['actual', 'line', 'passed', 'text']);
        assert.ok(a.actual === null || typeof a.actual === 'string');
      }
    }
  }
}

describe('lpreq test against a server on 127.0.0.1', () => {
  test('json: the exact shape of section 7, files in path order, requests in file order', async () => {
    const r = await lpreqTest(['--reporter', 'json', 'requests/']);
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout) as {
      files: {
        file: string;
        requests: {
          name: string;
          line: number;
          status: number | null;
          passed: boolean;
          skipped: boolean;
          assertions: { line: number; passed: boolean; actual: string | null }[];
        }[];
      }[];
      passed: number;
      failed: number;
    };
    assertShape(out);
    assert.deepEqual(
      out.files.map((f) => f.file),
      [join('requests', 'lists.lpreq'), join('requests', 'modules.lpreq')],
    );
    const [create, readBack, refused] = out.files[1].requests;
    assert.deepEqual([create.name, create.line, create.status, create.passed], ['Create a module', 3, 200, false]);
    assert.deepEqual(
      create.assertions.map((a) => [a.line, a.passed]),
      [
        [8, true],
        [9, true],
        [10, false],
        [11, true],
      ],
    );
    assert.equal(create.assertions[2].actual, '2');
    assert.equal(readBack.passed, true);
    assert.deepEqual([refused.status, refused.passed, refused.skipped], [null, false, false]);
    assert.deepEqual([out.passed, out.failed], [1, 3]);
    // Why a request failed without an assertion failing, which the json has no place for, is on standard error.
    assert.match(
      r.stderr,
      /modules\.lpreq:18: Not sent: the checker refuses it: not sent: the checker reports 2 errors/,
    );
    assert.ok(!r.stdout.includes(TOKEN) && !r.stderr.includes(TOKEN), 'the echoed token is in no report');
  });

  test('junit: one testsuite per file, one testcase per request (name, classname, time), a failure line per failed assertion', async () => {
    const r = await lpreqTest(['--reporter', 'junit', 'requests/']);
    assert.equal(r.code, 1);
    assert.equal(XMLValidator.validate(r.stdout), true);
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => ['testsuite', 'testcase'].includes(name),
    }).parse(r.stdout) as {
      testsuites: {
        tests: string;
        failures: string;
        testsuite: {
          name: string;
          tests: string;
          failures: string;
          errors: string;
          skipped: string;
          testcase: {
            name: string;
            classname: string;
            time: string;
            failure?: { '#text': string; message: string } | string;
            skipped?: unknown;
          }[];
        }[];
      };
    };
    const suites = parsed.testsuites.testsuite;
    assert.deepEqual(
      suites.map((s) => [s.name, s.tests, s.failures]),
      [
        [join('requests', 'lists.lpreq'), '1', '1'],
        [join('requests', 'modules.lpreq'), '3', '2'],
      ],
    );
    const cases = suites[1].testcase;
    assert.deepEqual(
      cases.map((c) => [c.name, c.classname]),
      [
        ['Create a module', join('requests', 'modules.lpreq')],
        ['Read it back', join('requests', 'modules.lpreq')],
        ['Not sent: the checker refuses it', join('requests', 'modules.lpreq')],
      ],
    );
    for (const c of cases) assert.match(c.time, /^\d+\.\d{3}$/);
    const failure = cases[0].failure as { '#text': string };
    const lines = failure['#text'].split('\n');
    assert.equal(lines.length, 1, 'one line per failed assertion');
    assert.ok(lines[0].includes('?? body $.position == 3') && lines[0].includes('2'), lines[0]);
    assert.equal(cases[1].failure, undefined);
    assert.ok(cases[2].failure, 'a request that was not sent fails');
    // Control characters are written as escapes, never as themselves (XML 1.0 cannot hold them).
    assert.equal(suites[0].testcase[0].name, 'List \\x1b]0;pwned\\x07');
    assert.ok(!CONTROL.test(r.stdout));
    assert.ok(!r.stdout.includes(TOKEN));
  });

  test('junit and tap: requests after the first failure are skipped with --bail', async () => {
    const junit = await lpreqTest(['--reporter', 'junit', '--bail', 'requests/']);
    assert.equal(junit.code, 1);
    const parsed = new XMLParser({
      ignoreAttributes: false,
      attributeNamePrefix: '',
      isArray: (name) => ['testsuite', 'testcase'].includes(name),
    }).parse(junit.stdout) as {
      testsuites: {
        skipped: string;
        testsuite: { skipped: string; testcase: { name: string; skipped?: { message: string } }[] }[];
      };
    };
    assert.equal(parsed.testsuites.skipped, '3');
    assert.ok(parsed.testsuites.testsuite[1].testcase.every((c) => c.skipped !== undefined));

    const tap = await lpreqTest(['--reporter', 'tap', '--bail', 'requests/']);
    const points = await parseTap(tap.stdout);
    assert.deepEqual(
      points.children.map((c) => c.map((p) => `${p.ok ? 'ok' : 'not ok'}${p.skip ? ' skip' : ''}`)),
      [['not ok'], ['ok skip', 'ok skip', 'ok skip']],
    );
  });

  test('tap: TAP version 14, a subtest per file, a test point per request, YAML diagnostics that parse', async () => {
    const r = await lpreqTest(['--reporter', 'tap', 'requests/']);
    assert.equal(r.code, 1);
    assert.ok(!CONTROL.test(r.stdout));
    const points = await parseTap(r.stdout);
    assert.equal(points.version, 14);
    assert.equal(points.result.ok, false);
    const plan = points.result.plan as { start: number; end: number };
    assert.deepEqual([plan.start, plan.end], [1, 2]);
    assert.deepEqual(
      points.top.map((p) => [p.name, p.ok]),
      [
        [join('requests', 'lists.lpreq'), false],
        [join('requests', 'modules.lpreq'), false],
      ],
    );
    assert.deepEqual(
      points.children[1].map((p) => [p.name, p.ok]),
      [
        ['Create a module', false],
        ['Read it back', true],
        ['Not sent: the checker refuses it', false],
      ],
    );
    const diag = points.children[1][0].diag as { failures: string[]; line: number };
    assert.equal(diag.line, 3);
    assert.equal(diag.failures.length, 1);
    assert.match(diag.failures[0], /\?\? body \$\.position == 3/);
    assert.ok(!r.stdout.includes(TOKEN));
  });

  test('github: workflow commands at the failing assertion lines, escaped as GitHub reads them', async () => {
    const r = await lpreqTest(['--reporter', 'github', 'requests/']);
    assert.equal(r.code, 1);
    const command =
      /^::(error|warning|notice)( (?:file|line|col|endLine|endColumn|title)=[^,:\r\n]*(?:,(?:file|line|col|endLine|endColumn|title)=[^,:\r\n]*)*)?::[^\r\n]*$/;
    const lines = r.stdout.trimEnd().split('\n');
    for (const line of lines) assert.match(line, command);
    const at = lines.map((l) => {
      const m = /file=([^,]*),line=(\d+)/.exec(l);
      return `${m?.[1]}:${m?.[2]}`;
    });
    // The failed assertions, and the checker's errors of the request that was not sent.
    assert.deepEqual(at, [
      `${join('requests', 'lists.lpreq')}:4`,
      `${join('requests', 'modules.lpreq')}:10`,
      `${join('requests', 'modules.lpreq')}:18`,
      `${join('requests', 'modules.lpreq')}:20`,
    ]);
    assert.ok(
      lines[0].includes('title=lpreq test%3A List \\x1b]0;pwned\\x07'),
      'a colon in a property is escaped, control characters too',
    );
    assert.ok(!r.stdout.includes(TOKEN));
  });

  test('text: progress per file, each failure with its assertion, expected and actual; colour only on a terminal without NO_COLOR', async () => {
    const plain = await lpreqTest(['requests/']);
    assert.equal(plain.code, 1);
    assert.ok(!plain.stdout.includes('\u001b['), 'no colour when not a terminal');
    assert.match(plain.stdout, /requests[/\\]lists\.lpreq\n {2}FAIL {2}List \\x1b\]0;pwned\\x07/);
    assert.match(plain.stdout, /line 10 {2}\?\? body \$\.position == 3\n {10}expected: 3\n {10}actual: {3}2/);
    assert.ok(!CONTROL.test(plain.stdout), 'no control character is written as itself');
    assert.match(plain.stdout, /4 requests in 2 files: 1 passed, 3 failed/);
    const tty = await lpreqTest(['requests/'], { isTTY: true });
    assert.ok(tty.stdout.includes('\u001b[31mFAIL\u001b[0m'));
    const noColor = await lpreqTest(['requests/'], { isTTY: true, env: { LPREQ_TOKEN: TOKEN, NO_COLOR: '1' } });
    assert.ok(!noColor.stdout.includes('\u001b['));
    for (const r of [plain, tty, noColor]) assert.ok(!r.stdout.includes(TOKEN));
  });

  test('--grep runs only the matching requests, and their dependencies first', async () => {
    const r = await lpreqTest(['--reporter', 'json', '--grep', 'read it', 'requests/']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const out = JSON.parse(r.stdout) as { files: { requests: { name: string }[] }[]; passed: number };
    assert.deepEqual(
      out.files.map((f) => f.requests.map((q) => q.name)),
      [['Read it back']],
    );
    const none = await lpreqTest(['--grep', 'nothing like this', 'requests/']);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no request to run matches --grep/);
  });
});

describe('lpreq test --mock', () => {
  test('bare paths and {{base_url}} go to the mock, with its own token, without an environment file', async () => {
    const dir = tempDir('lpreq-test-mock');
    writeFileSync(
      join(dir, 'modules.lpreq'),
      '### Bare path\nGET /api/v1/courses/42/modules\n?? status == 200\n?? body $[0].id exists\n\n### Base URL\nGET {{base_url}}/api/v1/courses/42/modules/7\n?? body $.id == 7\n',
    );
    // LPREQ_TOKEN is not the mock's token: were it sent instead, the mock would answer 401.
    const r = await lpreqTest(['--mock', '--reporter', 'json', '.'], { cwd: dir });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual((JSON.parse(r.stdout) as { passed: number }).passed, 2);
  });

  test('nothing leaves the machine: a request to another origin is not sent', async () => {
    const dir = tempDir('lpreq-test-mock-elsewhere');
    writeFileSync(join(dir, 'elsewhere.lpreq'), `GET ${api.origin}/api/v1/courses/42/modules\n`);
    const before = api.received.length;
    const r = await lpreqTest(['--mock', 'elsewhere.lpreq'], { cwd: dir });
    assert.equal(r.code, 1);
    assert.match(r.stdout, /--mock sends only to the built-in mock/);
    assert.equal(api.received.length, before);
  });
});

describe('lpreq test: what lpreq send asks before sending', () => {
  test('a protected environment: without a terminal, changes are not sent unless --yes', async () => {
    const dir = tempDir('lpreq-test-protected');
    writeFileSync(
      join(dir, 'http-client.env.json'),
      JSON.stringify({ prod: { base_url: api.origin, $protected: true } }),
    );
    writeFileSync(join(dir, 'create.lpreq'), 'POST /api/v1/courses/42/modules\n\nmodule[name] = Week 9\n');
    const before = api.received.length;
    const refused = await lpreqTest(['--env', 'prod', 'create.lpreq'], { cwd: dir });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /prod is a protected environment.*--yes/);
    assert.equal(api.received.length, before);
    const confirmed = await lpreqTest(['--env', 'prod', '--yes', 'create.lpreq'], { cwd: dir });
    assert.equal(confirmed.code, 0, confirmed.stdout + confirmed.stderr);
    assert.equal(api.received.length, before + 1);
  });

  test('# @prompt: refused without a terminal, answered by --prompt NAME=VALUE', async () => {
    const dir = tempDir('lpreq-test-prompt');
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { base_url: api.origin } }));
    writeFileSync(
      join(dir, 'prompt.lpreq'),
      '# @prompt week Which week?\nPOST /api/v1/courses/42/modules\n\nmodule[name] = {{week}}\n\n?? body $.name == {{week}}\n',
    );
    const refused = await lpreqTest(['prompt.lpreq'], { cwd: dir });
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /--prompt week=VALUE/);
    const answered = await lpreqTest(['--prompt', 'week=Week 12', 'prompt.lpreq'], { cwd: dir });
    assert.equal(answered.code, 0, answered.stdout + answered.stderr);
  });
});

describe('lpreq test: the files it runs and the arguments it takes', () => {
  test('.lpreqtestignore leaves files out of a folder walk; a file named on the command line always runs', async () => {
    const dir = tempDir('lpreq-test-ignore');
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { base_url: api.origin } }));
    mkdirSync(join(dir, 'manual'));
    writeFileSync(join(dir, 'good.lpreq'), 'GET /api/v1/courses/42/modules/1\n');
    writeFileSync(join(dir, 'broken.lpreq'), 'GET /api/v1/courses/42/modules/1\n?? status == 500\n');
    writeFileSync(join(dir, 'manual', 'by-hand.lpreq'), 'GET /api/v1/courses/42/nothing\n');
    writeFileSync(join(dir, '.lpreqtestignore'), '# kept for lpreq check\nbroken.lpreq\nmanual/\n');
    const walked = await lpreqTest(['--reporter', 'json', '.'], { cwd: dir });
    assert.equal(walked.code, 0, walked.stdout + walked.stderr);
    assert.deepEqual(
      (JSON.parse(walked.stdout) as { files: { file: string }[] }).files.map((f) => f.file),
      ['good.lpreq'],
    );
    assert.match(walked.stderr, /broken\.lpreq/);
    const named = await lpreqTest(['broken.lpreq'], { cwd: dir });
    assert.equal(named.code, 1);
  });

  test('bad arguments and files that cannot be read exit 2 with a clear message', async () => {
    const cases: [string[], RegExp][] = [
      [[], /no path given/],
      [['--reporter', 'xml', 'requests/'], /--reporter must be one of text, json, junit, tap, github/],
      [['--grep', ' ', 'requests/'], /--grep needs/],
      [['--timeout', 'soon', 'requests/'], /--timeout needs a positive whole number/],
      [['--env', 'nowhere', 'requests/'], /--env nowhere: no such environment; the environments are local/],
      [['--env', 'locl', 'requests/'], /--env locl: no such environment; did you mean local\?/],
      [['--mock', '--proxy', 'http://127.0.0.1:3128', 'requests/'], /--proxy and --mock/],
      [['missing/'], /missing\/: no such file or folder/],
      [['--bogus', 'requests/'], /unknown option --bogus/],
    ];
    for (const [argv, message] of cases) {
      const r = await lpreqTest(argv);
      assert.equal(r.code, 2, `${argv.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message, argv.join(' '));
      assert.equal(r.stdout, '', 'nothing on standard output');
    }
    const dir = tempDir('lpreq-test-binary');
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { base_url: api.origin } }));
    writeFileSync(join(dir, 'good.lpreq'), 'GET /api/v1/courses/42/modules/1\n');
    writeFileSync(join(dir, 'binary.lpreq'), Buffer.from([0x47, 0x45, 0x54, 0, 1, 2]));
    const r = await lpreqTest(['--reporter', 'junit', '.'], { cwd: dir });
    assert.equal(r.code, 2, 'a file left unread is worse than a failure');
    assert.match(r.stdout, /type="unreadable-file"/);
    assert.match(r.stderr, /1 file could not be read/);
  });
});

interface TapPoint {
  ok: boolean;
  name: string;
  skip: boolean | string;
  diag: unknown;
}

/** The test points of a TAP stream, as tap-parser reads them: the top level and each subtest's. */
function parseTap(
  text: string,
): Promise<{ version: number; top: TapPoint[]; children: TapPoint[][]; result: { ok: boolean; plan: unknown } }> {
  return new Promise((resolve) => {
    const top: TapPoint[] = [];
    const children: TapPoint[][] = [];
    let version = 0;
    const parser = new TapParser((result: { ok: boolean; plan: unknown }) =>
      resolve({ version, top, children, result }),
    );
    parser.on('version', (v: number) => (version = v));
    parser.on('assert', (p: TapPoint) => top.push(p));
    parser.on('child', (child: TapParser) => {
      const points: TapPoint[] = [];
      children.push(points);
      child.on('assert', (p: TapPoint) => points.push(p));
    });
    parser.end(text);
  });
}
