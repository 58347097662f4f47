/**
 * The Testing view and `lpreq test` give the same verdicts on the same files (issue 27): on
 * examples/ against the built-in mock, the Testing view's run as it makes it (its tests of each
 * file, the files in the order the editor finds them, its run plan: model/testResults.ts's
 * `runPlan`, through the send session and the runner) and `lpreq test --mock --reporter json
 * examples/` run the same requests in the same order and give the same verdict to each. Before,
 * the view ran only requests with assertions, and 'Rename and publish the new module' counted
 * 7 items where `lpreq test` counted 8 (the item added by a request without assertions).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers';
import { LineIndex, parseDocument } from '../../server/src/core';
import { TestIgnore } from '../../server/src/node';
import {
  memoryInProcess,
  runTests,
  SendSession,
  testsOf,
  type FileSetup,
  type TestSource,
} from '../../server/src/sender';
import { startMockRun } from '../../server/src/mockRun';
import { runPlan, testRequests } from '../../client/src/model/testResults';
import { testChecker } from '../sender/server';

const EXAMPLES = join(ROOT, 'examples');

/** Verdicts by file and request line, in the order they ran. */
type Verdicts = string[];

test('the Testing view and lpreq test give the same verdicts on examples/ against the mock', async () => {
  // lpreq test, as CI runs it.
  const cli = spawnSync(
    process.execPath,
    [join(ROOT, 'bin', 'lpreq.js'), 'test', '--mock', '--reporter', 'json', 'examples/'],
    { cwd: ROOT, encoding: 'utf8', timeout: 300_000, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } },
  );
  const report = JSON.parse(cli.stdout) as {
    files: { file: string; requests: { line: number; passed: boolean; assertions: { passed: boolean }[] }[] }[];
  };
  const fromCli: Verdicts = report.files.flatMap((f) =>
    f.requests.map((r) => `${f.file.replace(/^examples\//, '')}:${r.line} ${r.passed ? 'pass' : 'fail'}`),
  );

  // The Testing view: every file of the workspace folder the ignore file keeps, found in no
  // particular order (findFiles promises none: here the reverse of the walk), the whole
  // workspace run, as "Run Tests Against the Built-in Mock" does.
  const ignore = new TestIgnore();
  const found = readdirSync(EXAMPLES)
    .filter((f) => f.endsWith('.lpreq') && ignore.ignoring(join(EXAMPLES, f), EXAMPLES, EXAMPLES) === undefined)
    .reverse();
  const texts = new Map(found.map((f) => [f, readFileSync(join(EXAMPLES, f), 'utf8')]));
  const plan = runPlan(
    found.map((f) => ({ file: f, folder: 0, parts: [f] })),
    (f) => {
      const document = parseDocument(texts.get(f) ?? '');
      return testRequests(document, testsOf(document, new LineIndex(document.text)));
    },
  );
  const mock = await startMockRun('the run against the built-in mock');
  try {
    const session = new SendSession({ env: {}, chooseWith: 'the picker', memory: memoryInProcess() }, testChecker());
    const sources: TestSource[] = [];
    const setups: FileSetup[] = [];
    for (const p of plan) {
      const made = await session.testSource(join(EXAMPLES, p.file), {
        display: p.file,
        text: texts.get(p.file) ?? '',
        mock,
        ...(p.blocks ? { blocks: p.blocks } : {}),
      });
      sources.push(made.source);
      setups.push(made.setup);
    }
    let assertions = 0;
    let held = 0;
    const result = await runTests(sources, {
      ...session.runOptions(setups, mock),
      events: {
        requestFinished: (_file, r) => {
          assertions += r.assertions.length;
          held += r.assertions.filter((a) => a.passed).length;
        },
      },
    });
    const fromView: Verdicts = result.files.flatMap((f) =>
      f.requests.map((r) => `${f.file}:${r.line} ${r.passed ? 'pass' : 'fail'}`),
    );
    assert.deepEqual(fromView, fromCli);
    // And every one passes: the examples are written against the mock's seed.
    assert.equal(cli.status, 0, cli.stderr);
    assert.equal(held, assertions, `${held} of ${assertions} assertions held in the Testing view's run`);
    assert.ok(fromView.length > 150, `${fromView.length} requests`);
  } finally {
    await mock.close();
  }
});

test("the Testing view's plan: files in lpreq test's walk order, a whole file's every request, a test run alone only its own", () => {
  const requests = (f: string) => [
    { id: `${f} a`, label: 'a', blockIndex: 0, line: 0, endLine: 0, assertions: [] },
    { id: `${f} b`, label: 'b', blockIndex: 2, line: 3, endLine: 4, assertions: [] },
  ];
  const plan = runPlan(
    [
      { file: 'z.lpreq', folder: 0, parts: ['z.lpreq'] },
      { file: 'a/b.lpreq', folder: 0, parts: ['a', 'b.lpreq'], ids: new Set(['a/b.lpreq b']) },
      { file: 'a.lpreq', folder: 0, parts: ['a.lpreq'] },
      { file: 'other', folder: 1, parts: ['a.lpreq'] },
    ],
    requests,
  );
  assert.deepEqual(
    plan.map((p) => [p.file, p.requests.map((r) => r.label).join(''), p.blocks ? [...p.blocks] : 'all']),
    [
      // A folder's entries by name, as `lpreq test` walks it: `a` (a folder) before `a.lpreq`.
      ['a/b.lpreq', 'b', [2]],
      ['a.lpreq', 'ab', 'all'],
      ['z.lpreq', 'ab', 'all'],
      ['other', 'ab', 'all'],
    ],
  );
});
