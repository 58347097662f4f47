/**
 * Issue 26, items 10 and 11: every reporter of `lpreq test` escapes or replaces what its
 * format forbids (U+FFFE, U+FFFF and lone surrogates in JUnit XML; a description's line
 * break in TAP), read back by the format's own parser; and no line of `lpreq check` or
 * `lpreq test` text output starts with `::` from data (a file name, a title, a message), which
 * GitHub's runner would read as a workflow command.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { Parser as TapParser } from 'tap-parser';
import type { Io } from '../../server/src/cli/check';
import { run as runTest } from '../../server/src/cli/testCommand';
import { runCli, tempDir } from '../helpers';
import { startServer, type TestServer } from '../sender/server';

let api: TestServer;
let workspace = '';
const HOSTILE_FILE = '::warning title=x::owned.lpreq';

before(async () => {
  api = await startServer((_req, res) => {
    // A name with every character XML 1.0 forbids, and a workflow command after a line break.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('[{"id":1,"name":"a\\ufffe b\\uffff c\\ud800 d\\udc00 e\\n::error::injected","workflow_state":"active"}]');
  });
  workspace = tempDir('reporters');
  writeFileSync(join(workspace, 'http-client.env.json'), JSON.stringify({ local: { base_url: api.origin } }));
  mkdirSync(join(workspace, 'r'));
  writeFileSync(
    join(workspace, 'r', HOSTILE_FILE),
    `### ::error title=t::title \ufffe\uffff
GET /api/v1/courses/42/modules
?? body $[0].name == x
### ::notice::second
GET /api/v1/courses/42/modules
?? body $[0].name matches ^::
`,
  );
});
after(() => api.close());

async function lpreqTest(reporter: string, path = 'r', cwd = workspace) {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    readStdin: () => '',
    isTTY: false,
    env: { LPREQ_TOKEN: 'reporter-token-0123456789' },
    cwd,
  };
  const code = await runTest(['--reporter', reporter, path], io);
  return { code, stdout, stderr };
}

/** Characters outside XML 1.0's Char production. */
const NOT_XML_CHAR =
  // eslint-disable-next-line no-control-regex -- control characters are what this finds
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function noCommandLines(text: string, what: string): void {
  for (const line of text.split('\n')) assert.doesNotMatch(line, /^\s*::/, `${what}: ${JSON.stringify(line)}`);
}

test('junit: U+FFFE, U+FFFF and lone surrogates from a title or a value are escaped; strict XML parsers read it', async () => {
  const r = await lpreqTest('junit');
  assert.equal(r.code, 1);
  assert.doesNotMatch(r.stdout, NOT_XML_CHAR);
  assert.equal(XMLValidator.validate(r.stdout), true);
  const parsed = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(r.stdout);
  const cases = [parsed.testsuites.testsuite.testcase].flat() as { name: string; failure?: unknown }[];
  assert.equal(cases.length, 2);
  assert.match(cases[0].name, /title \\uFFFE\\uFFFF/);
  assert.match(JSON.stringify(cases[0].failure), /a\\\\uFFFE b\\\\uFFFF c\\\\ud800 d\\\\udc00/i);
});

test('tap: every point is read back by tap-parser, the YAML blocks too', async () => {
  const r = await lpreqTest('tap');
  const points: { ok: boolean; name: string }[] = [];
  const failures: unknown[] = [];
  await new Promise<void>((resolve) => {
    const parser = new TapParser(() => resolve());
    parser.on('child', (child: TapParser) => {
      child.on('assert', (p: { ok: boolean; name: string; diag?: { failures?: unknown } }) => {
        points.push(p);
        failures.push(p.diag?.failures);
      });
    });
    parser.end(r.stdout);
  });
  assert.deepEqual(
    points.map((p) => p.ok),
    [false, false],
  );
  assert.ok(
    failures.every((f) => Array.isArray(f) && f.length === 1),
    JSON.stringify(failures),
  );
  noCommandLines(r.stdout, 'tap');
});

test('text and json: no line starts with :: ; github: only its own commands, one a failure', async () => {
  const text = await lpreqTest('text');
  noCommandLines(text.stdout, 'text');
  assert.match(text.stdout, /^r\/::warning title=x::owned\.lpreq$/m);
  // Named as it is, the file's name starts the line that introduces its requests.
  const named = await lpreqTest('text', HOSTILE_FILE, join(workspace, 'r'));
  noCommandLines(named.stdout, 'text');
  assert.match(named.stdout, /^\\x3a:warning title=x::owned\.lpreq$/m);
  noCommandLines(text.stderr, 'stderr');
  const json = await lpreqTest('json');
  noCommandLines(json.stdout, 'json');
  assert.equal(JSON.parse(json.stdout).failed, 2);
  const github = await lpreqTest('github');
  const lines = github.stdout.trimEnd().split('\n');
  assert.equal(lines.length, 2, github.stdout);
  for (const line of lines)
    assert.match(line, /^::error file=r\/%3A%3Awarning title=x%3A%3Aowned\.lpreq,line=\d+,title=/);
});

test('lpreq check: a file named ::warning ... starts no line with ::, in text output', async () => {
  const r = await runCli(['check', 'r'], { cwd: workspace });
  noCommandLines(r.stdout, 'check');
  noCommandLines(r.stderr, 'check stderr');
  const dir = tempDir('check-names');
  writeFileSync(join(dir, '::error::x.lpreq'), 'GETT /x\n');
  const bad = await runCli(['check', '.'], { cwd: dir });
  assert.equal(bad.code, 1);
  noCommandLines(bad.stdout, 'check');
  assert.match(bad.stdout, /^\\x3a:error::x\.lpreq:1:1: error /m);
});
