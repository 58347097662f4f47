/**
 * Snapshots through `lpreq test` (issue 32, part 2), in a project with environments dev and
 * staging: the mock's data sent twice, with new ids and timestamps in between, matches its
 * snapshots; each kind of difference at its JSONPath, read back from every reporter with the
 * format's own parser; --update-snapshots rewrites; --ci writes none; the files never hold
 * the token or a secret; a request named ../../x keeps its snapshot in __snapshots__, and a
 * __snapshots__ that is a link is not written through.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Parser as TapParser } from 'tap-parser';
import { run } from '../../server/src/cli/testCommand';
import { startMock, type RunningMock } from '../../server/src/mock/index';
import { tempDir } from '../helpers';
import { captureIo } from '../io';
import { startServer, type TestServer } from '../sender/server';

const TOKEN = 'snapshot-token-0123456789abcdef';

async function lpreqTest(argv: string[], cwd: string, env: NodeJS.ProcessEnv = { LPREQ_TOKEN: TOKEN }) {
  const out = captureIo({ cwd, env });
  const code = await run(argv, out.io);
  return { code, stdout: out.stdout, stderr: out.stderr };
}

/** A project with environments dev and staging (no local), dev's base_url `devUrl`, and its request files. */
function project(devUrl: string, files: Record<string, string>, privateEnv?: Record<string, string>): string {
  const dir = tempDir('snapshots');
  writeFileSync(
    join(dir, 'http-client.env.json'),
    JSON.stringify({ dev: { base_url: devUrl, course: '42' }, staging: { base_url: 'https://staging.example.edu' } }),
  );
  if (privateEnv) writeFileSync(join(dir, 'http-client.private.env.json'), JSON.stringify({ dev: privateEnv }));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), text);
  }
  return dir;
}

function setEnvUrl(dir: string, url: string): void {
  const env = JSON.parse(readFileSync(join(dir, 'http-client.env.json'), 'utf8')) as Record<
    string,
    Record<string, string>
  >;
  env.dev.base_url = url;
  writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify(env));
}

/** Every file under `dir`, relative, sorted. */
function filesUnder(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as import('node:fs').Dirent[])
    .filter((d) => d.isFile() || d.isSymbolicLink())
    .map((d) => join(d.parentPath, d.name).slice(dir.length + 1))
    .sort();
}

interface JsonReport {
  files: {
    file: string;
    requests: {
      name: string;
      line: number;
      passed: boolean;
      assertions: { line: number; text: string; passed: boolean; actual: string | null }[];
    }[];
  }[];
  passed: number;
  failed: number;
}

/** The snapshot entries of a json report, as `name: text`. */
function snapshotEntries(report: JsonReport): string[] {
  return report.files.flatMap((f) =>
    f.requests.flatMap((r) =>
      r.assertions.filter((a) => a.text.startsWith('@snapshot')).map((a) => `${r.name}: ${a.text}`),
    ),
  );
}

describe("the mock's data, twice", () => {
  const MOCK_FILE = `### Create a module
# @name createModule
# @snapshot
POST {{base_url}}/api/v1/courses/{{course}}/modules

module[name] = Week 5
module[position] = 2

### Read it back
# @snapshot
GET {{base_url}}/api/v1/courses/{{course}}/modules/{{createModule.response.body.$.id}}

### The course's modules, the new one among them
# @snapshot
GET {{base_url}}/api/v1/courses/{{course}}/modules

### A tool: created_at and updated_at are stamped by the server
# @name tool
# @snapshot
POST {{base_url}}/api/v1/courses/{{course}}/external_tools

name = Quizlet
privacy_level = public
consumer_key = key
shared_secret = {{tool_secret}}
url = https://quizlet.example.com/lti
`;
  let first: RunningMock;
  let second: RunningMock;
  let dir = '';

  before(async () => {
    first = await startMock({ port: 0, token: TOKEN });
    const seed = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../server/src/mock/seed.json'), 'utf8'),
    ) as Record<string, unknown>;
    // Three days later, and another module made first: new timestamps and new ids.
    second = await startMock({ port: 0, token: TOKEN, seed: { ...seed, now: '2026-09-16T11:22:33Z' } as never });
    const made = await fetch(`${second.url}/api/v1/courses/43/modules`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'module[name]=Elsewhere',
    });
    assert.equal(made.status, 200);
    dir = project(first.url, { 'requests/modules.lpreq': MOCK_FILE }, { tool_secret: 'tool-shared-secret-98765' });
  });
  after(async () => {
    await first.close();
    await second.close();
  });

  test('the first run writes each snapshot, the second against other ids and timestamps matches them', async () => {
    const one = await lpreqTest(['--env', 'dev', '--reporter', 'json', 'requests'], dir);
    assert.equal(one.code, 0, one.stderr + one.stdout);
    assert.deepEqual(snapshotEntries(JSON.parse(one.stdout) as JsonReport), [
      'Create a module: @snapshot written',
      'Read it back: @snapshot written',
      "The course's modules, the new one among them: @snapshot written",
      'A tool: created_at and updated_at are stamped by the server: @snapshot written',
    ]);
    assert.deepEqual(filesUnder(join(dir, 'requests')), [
      '__snapshots__/modules.lpreq/Read-it-back.json',
      '__snapshots__/modules.lpreq/The-course-s-modules-the-new-one-among-them.json',
      '__snapshots__/modules.lpreq/createModule.json',
      '__snapshots__/modules.lpreq/tool.json',
      'modules.lpreq',
    ]);
    const created = JSON.parse(
      readFileSync(join(dir, 'requests/__snapshots__/modules.lpreq/createModule.json'), 'utf8'),
    ) as { body: { id: number; items_url: string } };
    const tool = JSON.parse(readFileSync(join(dir, 'requests/__snapshots__/modules.lpreq/tool.json'), 'utf8')) as {
      body: { created_at: string };
    };

    setEnvUrl(dir, second.url);
    const two = await lpreqTest(['--env', 'dev', '--reporter', 'json', 'requests'], dir);
    assert.equal(two.code, 0, two.stderr + two.stdout);
    assert.deepEqual(snapshotEntries(JSON.parse(two.stdout) as JsonReport), [
      'Create a module: @snapshot matched',
      'Read it back: @snapshot matched',
      "The course's modules, the new one among them: @snapshot matched",
      'A tool: created_at and updated_at are stamped by the server: @snapshot matched',
    ]);
    // The second run's data was not the first's: the matches are the comparison's doing.
    const listed = (await (
      await fetch(`${second.url}/api/v1/courses/42/modules`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as { id: number; name: string }[];
    const again = listed.find((m) => m.name === 'Week 5');
    assert.ok(again && again.id !== created.body.id, `ids ${again?.id} and ${created.body.id}`);
    const tools = (await (
      await fetch(`${second.url}/api/v1/courses/42/external_tools`, { headers: { authorization: `Bearer ${TOKEN}` } })
    ).json()) as { name: string; created_at: string }[];
    assert.notEqual(tools.find((t) => t.name === 'Quizlet')?.created_at, tool.body.created_at);
    assert.ok(!created.body.items_url.startsWith(second.url));

    // Nothing lpreq wrote holds the token or the environment's secret.
    for (const file of filesUnder(join(dir, 'requests'))) {
      const text = readFileSync(join(dir, 'requests', file), 'utf8');
      assert.ok(!text.includes(TOKEN), file);
      assert.ok(!text.includes('tool-shared-secret-98765'), file);
    }
  });
});

describe('differences, by kind and reporter', () => {
  // What the server answers: changed between runs by the tests.
  let body: unknown;
  let status = 200;
  let api: TestServer;
  const FILE = `### One module
# @snapshot ignore=$.items_count
GET {{base_url}}/api/v1/courses/{{course}}/modules/7
`;
  const module = {
    id: 7,
    workflow_state: 'active',
    position: 1,
    name: 'Week 1',
    unlock_at: '2026-09-14T08:00:00Z',
    items_count: 2,
    items_url: 'https://lms.example.edu/api/v1/courses/42/modules/7/items',
  };

  before(async () => {
    api = await startServer((_req, res) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)),
    );
  });
  after(() => api.close());

  /** A project whose snapshot was taken of `module`, then the server answering `changed`. */
  async function differing(changed: unknown): Promise<string> {
    const dir = project(api.origin, { 'm.lpreq': FILE });
    body = module;
    status = 200;
    const first = await lpreqTest(['--env', 'dev', 'm.lpreq'], dir);
    assert.equal(first.code, 0, first.stdout + first.stderr);
    body = changed;
    return dir;
  }

  const cases: [string, unknown, string[]][] = [
    ['a renamed module', { ...module, name: 'Week 2' }, ['value-changed $.name']],
    [
      'a renamed field',
      (({ name, ...rest }) => ({ ...rest, title: name }))(module),
      ['undocumented-field $.title', 'removed $.name'],
    ],
    ['a removed field', (({ position: _p, ...rest }) => rest)(module), ['removed $.position']],
    ['an undocumented field', { ...module, x_rank: 4 }, ['undocumented-field $.x_rank']],
    ['a type change', { ...module, position: '1' }, ['type-changed $.position']],
    ['a new enum value', { ...module, workflow_state: 'archived' }, ['unknown-enum-value $.workflow_state']],
    [
      'new ids, timestamps, URLs and an ignored count',
      { ...module, id: 99, unlock_at: '2027-01-01T00:00:00+01:00', items_url: 'http://x.example/i', items_count: 5 },
      [],
    ],
  ];
  for (const [what, changed, expected] of cases) {
    test(`${what}: exactly ${expected.length === 0 ? 'no difference' : expected.join(', ')}`, async () => {
      const dir = await differing(changed);
      const r = await lpreqTest(['--env', 'dev', '--reporter', 'json', 'm.lpreq'], dir);
      assert.equal(r.code, expected.length === 0 ? 0 : 1, r.stderr);
      const report = JSON.parse(r.stdout) as JsonReport;
      const failed = report.files[0].requests[0].assertions.filter((a) => !a.passed);
      assert.deepEqual(
        failed.map((a) => a.text),
        expected.map((e) => `@snapshot ${e}`),
      );
      for (const a of failed) assert.equal(a.line, 2);
    });
  }

  test('text, junit, tap and github name each difference by its JSONPath', async () => {
    const changed = { ...module, name: 'Week 2', x_rank: 4, workflow_state: 'archived' };
    const dir = await differing(changed);
    const paths = ['$.name', '$.x_rank', '$.workflow_state'];

    const text = await lpreqTest(['--env', 'dev', 'm.lpreq'], dir);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /FAIL {2}One module/);
    assert.match(
      text.stdout,
      /differs from its snapshot m\.lpreq\/__snapshots__|differs from its snapshot __snapshots__/,
    );
    for (const p of paths) assert.ok(text.stdout.includes(`          ${p}  `), `${p} in\n${text.stdout}`);
    assert.match(text.stdout, /snapshots: 1 failed/);

    const junit = await lpreqTest(['--env', 'dev', '--reporter', 'junit', 'm.lpreq'], dir);
    assert.equal(XMLValidator.validate(junit.stdout), true);
    const xml = new XMLParser({ ignoreAttributes: false }).parse(junit.stdout) as {
      testsuites: { testsuite: { testcase: { failure: { '#text': string; '@_type': string } } } };
    };
    const failure = xml.testsuites.testsuite.testcase.failure;
    assert.equal(failure['@_type'], 'snapshot');
    for (const p of paths) assert.ok(failure['#text'].includes(`@snapshot ${p}: `), failure['#text']);

    const tap = await lpreqTest(['--env', 'dev', '--reporter', 'tap', 'm.lpreq'], dir);
    const failures: string[] = [];
    const parser = new TapParser();
    parser.on('child', (child: TapParser) =>
      child.on('assert', (a: { ok: boolean; diag?: { failures?: string[] } }) => {
        if (!a.ok) failures.push(...(a.diag?.failures ?? []));
      }),
    );
    const done = new Promise((resolve) => parser.on('complete', resolve));
    parser.end(tap.stdout);
    await done;
    for (const p of paths)
      assert.ok(
        failures.some((f) => f.includes(`@snapshot ${p}: `)),
        failures.join('\n'),
      );

    const github = await lpreqTest(['--env', 'dev', '--reporter', 'github', 'm.lpreq'], dir);
    const commands = github.stdout.trim().split('\n');
    assert.equal(commands.length, 1, github.stdout);
    const m = /^::error file=([^,]*),line=(\d+),title=([^:]*)::(.*)$/.exec(commands[0]);
    assert.ok(m, commands[0]);
    assert.equal(m[1], 'm.lpreq');
    assert.equal(m[2], '2');
    const message = decodeURIComponent(m[4]);
    for (const p of paths)
      assert.ok(
        message.split('\n').some((line) => line.startsWith(`${p}: `)),
        message,
      );
  });

  test('--update-snapshots rewrites the snapshot, and the next run matches it', async () => {
    const dir = await differing({ ...module, name: 'Week 2' });
    const file = join(dir, '__snapshots__/m.lpreq/One-module.json');
    const old = readFileSync(file, 'utf8');
    const updated = await lpreqTest(['--env', 'dev', '--update-snapshots', 'm.lpreq'], dir);
    assert.equal(updated.code, 0, updated.stdout);
    assert.match(updated.stdout, /snapshot updated: __snapshots__\/m\.lpreq\/One-module\.json \(1 difference\)/);
    assert.notEqual(readFileSync(file, 'utf8'), old);
    assert.equal((JSON.parse(readFileSync(file, 'utf8')) as { body: { name: string } }).body.name, 'Week 2');
    const again = await lpreqTest(['--env', 'dev', 'm.lpreq'], dir);
    assert.equal(again.code, 0);
    assert.match(again.stdout, /snapshots: 1 matched/);
    // Without a difference, an update writes nothing.
    const same = readFileSync(file, 'utf8');
    body = { ...module, name: 'Week 2', id: 12 };
    await lpreqTest(['--env', 'dev', '--update-snapshots', 'm.lpreq'], dir);
    assert.equal(readFileSync(file, 'utf8'), same);
  });

  test('the status is compared, and a failing request writes no snapshot', async () => {
    const dir = await differing(module);
    status = 404;
    const r = await lpreqTest(['--env', 'dev', '--reporter', 'json', 'm.lpreq'], dir);
    assert.equal(r.code, 1);
    const texts = (JSON.parse(r.stdout) as JsonReport).files[0].requests[0].assertions.map((a) => a.text);
    assert.deepEqual(texts, ['@snapshot value-changed status']);

    const fresh = project(api.origin, { 'm.lpreq': FILE });
    const none = await lpreqTest(['--env', 'dev', 'm.lpreq'], fresh);
    assert.equal(none.code, 1);
    assert.match(none.stdout, /no snapshot written: the request did not pass/);
    assert.ok(!existsSync(join(fresh, '__snapshots__/m.lpreq/One-module.json')));
  });

  test('--ci writes no snapshot: a missing one fails; --snapshot gives every request one', async () => {
    body = module;
    status = 200;
    const dir = project(api.origin, { 'm.lpreq': 'GET {{base_url}}/api/v1/courses/{{course}}/modules/7\n' });
    const ci = await lpreqTest(['--env', 'dev', '--snapshot', '--ci', 'm.lpreq'], dir);
    assert.equal(ci.code, 1);
    assert.match(ci.stdout, /no snapshot at __snapshots__\/m\.lpreq\/line-1\.json, and --ci writes none/);
    assert.ok(!existsSync(join(dir, '__snapshots__')));
    const plain = await lpreqTest(['--env', 'dev', 'm.lpreq'], dir);
    assert.equal(plain.code, 0);
    assert.ok(!existsSync(join(dir, '__snapshots__')), 'no snapshot unless asked for');
    const all = await lpreqTest(['--env', 'dev', '--snapshot', 'm.lpreq'], dir);
    assert.equal(all.code, 0);
    assert.ok(existsSync(join(dir, '__snapshots__/m.lpreq/line-1.json')));
    const both = await lpreqTest(['--env', 'dev', '--ci', '--update-snapshots', 'm.lpreq'], dir);
    assert.equal(both.code, 2);
  });
});

describe('what the files may hold, and where they go', () => {
  let api: TestServer;
  before(async () => {
    // The server echoes what it was sent: the token, a secret of the private environment file.
    api = await startServer((req, res) =>
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: 1, name: String(req.headers.authorization), description: req.url })),
    );
  });
  after(() => api.close());

  test('a response that echoes the token and a secret is kept with *** in their place, and still matches', async () => {
    const secret = 'private-api-secret-55555';
    const dir = project(
      api.origin,
      { 'echo.lpreq': '### Echo\n# @snapshot\nGET {{base_url}}/api/v1/courses/{{course}}/modules/7?key={{key}}\n' },
      { key: secret },
    );
    const one = await lpreqTest(['--env', 'dev', 'echo.lpreq'], dir);
    assert.equal(one.code, 0, one.stdout + one.stderr);
    const text = readFileSync(join(dir, '__snapshots__/echo.lpreq/Echo.json'), 'utf8');
    assert.ok(!text.includes(TOKEN) && !text.includes(secret), text);
    assert.match(text, /"name": "Bearer \*\*\*"/);
    const two = await lpreqTest(['--env', 'dev', 'echo.lpreq'], dir);
    assert.equal(two.code, 0, two.stdout);
    assert.match(two.stdout, /snapshots: 1 matched/);
  });

  test('a request named ../../x keeps its snapshot in __snapshots__/<file>/', async () => {
    const dir = project(api.origin, {
      'deep/r.lpreq':
        '# @name ../../x\n# @snapshot\nGET {{base_url}}/api/v1/courses/1/modules/7\n\n###\n# @name ..\\\\..\\\\y\n# @snapshot\nGET {{base_url}}/api/v1/courses/1/modules/8\n',
    });
    const r = await lpreqTest(['--env', 'dev', 'deep'], dir);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(filesUnder(dir), [
      'deep/__snapshots__/r.lpreq/x.json',
      'deep/__snapshots__/r.lpreq/y.json',
      'deep/r.lpreq',
      'http-client.env.json',
    ]);
  });

  test('a __snapshots__ that is a link out of the folder is neither written through nor read', async () => {
    const outside = tempDir('snapshots-outside');
    const dir = project(api.origin, {
      'r.lpreq': '### Linked\n# @snapshot\nGET {{base_url}}/api/v1/courses/1/modules/7\n',
    });
    symlinkSync(outside, join(dir, '__snapshots__'));
    const r = await lpreqTest(['--env', 'dev', 'r.lpreq'], dir);
    assert.equal(r.code, 1);
    assert.match(r.stdout, /the snapshot could not be written: .*symbolic link/);
    assert.deepEqual(readdirSync(outside), []);

    // A snapshot planted outside, reached by a link: not read (and not compared, which would show its values).
    mkdirSync(join(outside, 'r.lpreq'));
    writeFileSync(
      join(outside, 'r.lpreq', 'Linked.json'),
      '{"lpreq": "snapshot", "version": 1, "status": 200, "body": {"stolen": true}}',
    );
    const read = await lpreqTest(['--env', 'dev', 'r.lpreq'], dir);
    assert.equal(read.code, 1);
    assert.match(read.stdout, /cannot be read: it is outside the workspace/);
    assert.ok(!read.stdout.includes('stolen'));
  });
});
