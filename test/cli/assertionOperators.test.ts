/**
 * An assertion's failure states its operator (issue 27, item 4): `?? duration < 1` fails with
 * "24 is not < 1", not "24 != 1" or "expected: 1", in the editor's test message and in every
 * reporter of `lpreq test`, each read back by the format's own parser (JUnit XML by
 * fast-xml-parser, TAP by tap-parser, json by JSON.parse, github by the workflow-command
 * grammar). The json object keeps section 7's exact shape: its assertion's `text` and
 * `actual` say it.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { XMLParser } from 'fast-xml-parser';
import { Parser as TapParser } from 'tap-parser';
import type { Io } from '../../server/src/cli/check';
import { run } from '../../server/src/cli/testCommand';
import { assertionOutcome } from '../../client/src/model/testResults';
import type { RequestResult } from '../../server/src/sender/index';
import { tempDir } from '../helpers';
import { json, startServer, type TestServer } from '../sender/server';

/** The server answers after this long: `?? duration < 1` cannot hold. */
const DELAY_MS = 30;

const FILE = `### Slow list
GET {{base_url}}/api/v1/courses/42/modules
?? duration < 1
?? body $[0].name startsWith Week
?? body $[0].position >= 5
?? status != 200
?? body $[0].name == Intro
`;

/** What each failing line's message states, in order (the lines that hold are left out). */
const EXPECTED = [
  /^duration: \d+ is not < 1$/,
  /^\$\[0\]\.position: 2 is not >= 5$/,
  /^status: 200 is not != 200$/,
  /^\$\[0\]\.name: "Week 2" is not == Intro$/,
];

let api: TestServer;
let dir = '';
before(async () => {
  api = await startServer(
    (_req, res) =>
      new Promise<void>((resolve) =>
        setTimeout(() => {
          json(res, 200, [{ id: 1, name: 'Week 2', position: 2 }]);
          resolve();
        }, DELAY_MS),
      ),
  );
  dir = tempDir('operators');
  writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ dev: { base_url: api.origin } }));
  writeFileSync(join(dir, 'slow.lpreq'), FILE);
});
after(() => api.close());

async function lpreqTest(reporter: string): Promise<string> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    readStdin: () => '',
    isTTY: false,
    env: {},
    cwd: dir,
  };
  const code = await run(['--env', 'dev', '--reporter', reporter, 'slow.lpreq'], io);
  assert.equal(code, 1, stderr);
  return stdout;
}

/** Each expected statement found, in order, among `texts`. */
function statesEach(texts: string[], where: string): void {
  const found = EXPECTED.map((e) => texts.findIndex((t) => e.test(t)));
  assert.ok(
    found.every((i, k) => i >= 0 && (k === 0 || i > found[k - 1])),
    `${where} does not state each operator:\n${texts.join('\n')}`,
  );
}

/** The statement inside a failure line: `line 3: ?? duration < 1  (actual: 31: duration: 31 is not < 1)`. */
const statement = (line: string) => /\(actual: [^:]*: (.*)\)$/.exec(line)?.[1] ?? line;

test('text: each failure says its value, its operator and what was expected', async () => {
  const out = await lpreqTest('text');
  const messages = [...out.matchAll(/\((.*)\)$/gm)].map((m) => m[1]);
  statesEach(messages, 'the text report');
  assert.ok(!/expected: 1\n/.test(out) || /is not < 1/.test(out));
});

test('junit: the failure of the testcase holds each statement (read by fast-xml-parser)', async () => {
  const xml = await lpreqTest('junit');
  const parsed = new XMLParser({ ignoreAttributes: false }).parse(xml) as {
    testsuites: { testsuite: { testcase: { failure: { '#text': string } } } };
  };
  const text = parsed.testsuites.testsuite.testcase.failure['#text'];
  statesEach(text.split('\n').map(statement), 'the JUnit failure');
});

test('tap: the failures of the test point hold each statement (read by tap-parser)', async () => {
  const tap = await lpreqTest('tap');
  const failures = await new Promise<string[]>((resolve) => {
    let out: string[] = [];
    const parser = new TapParser(() => resolve(out));
    parser.on('child', (child: TapParser) =>
      child.on('assert', (p: { diag?: { failures?: string[] } }) => (out = p.diag?.failures ?? out)),
    );
    parser.end(tap);
  });
  statesEach(failures.map(statement), 'the TAP diagnostics');
});

test('github: an annotation at each failing line states it (the workflow-command grammar)', async () => {
  const out = await lpreqTest('github');
  const unescape = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%25/g, '%');
  const commands = out
    .trimEnd()
    .split('\n')
    .map((l) => /^::error ([^:]*)::(.*)$/.exec(l))
    .map((m) => {
      assert.ok(m, 'a workflow command');
      return { line: Number(/(?:^|,)line=(\d+)/.exec(m[1])?.[1]), message: unescape(m[2]) };
    });
  assert.deepEqual(
    commands.map((c) => c.line),
    [3, 5, 6, 7],
  );
  statesEach(
    commands.map((c) => /\((.*)\)$/.exec(c.message)?.[1] ?? c.message),
    'the annotations',
  );
});

test("json: section 7's shape; each failed assertion's text states its operator and actual its value", async () => {
  const out = JSON.parse(await lpreqTest('json')) as {
    files: { requests: { assertions: { line: number; text: string; passed: boolean; actual: string | null }[] }[] }[];
  };
  const assertions = out.files[0].requests[0].assertions;
  for (const a of assertions) assert.deepEqual(Object.keys(a).sort(), ['actual', 'line', 'passed', 'text']);
  const failed = assertions.filter((a) => !a.passed);
  assert.deepEqual(
    failed.map((a) => a.text.split(' ').slice(-2, -1)[0]),
    ['<', '>=', '!=', '=='],
  );
  assert.ok(Number(failed[0].actual) >= DELAY_MS - 5);
});

test('the editor: a failure states its operator; only == is shown as a diff of expected and actual', () => {
  const request = { sent: true, status: 200, skipped: false } as RequestResult;
  const base = { line: 3, passed: false, start: 0, end: 0, actual: '31' };
  const lt = assertionOutcome(request, {
    ...base,
    text: '?? duration < 1',
    operator: '<',
    expected: '1',
    message: 'duration: 31 is not < 1',
  });
  assert.equal(lt.messages[0].text, '?? duration < 1: duration: 31 is not < 1');
  assert.equal(lt.messages[0].expected, undefined, 'no diff: it would read "31 != 1"');
  const eq = assertionOutcome(request, {
    ...base,
    actual: '"Week 2"',
    text: '?? body $[0].name == Intro',
    operator: '==',
    expected: 'Intro',
    message: '$[0].name: "Week 2" is not == Intro',
  });
  assert.deepEqual([eq.messages[0].expected, eq.messages[0].actual], ['Intro', '"Week 2"']);
});
