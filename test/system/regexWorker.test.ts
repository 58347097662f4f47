/**
 * Issue 26, item 7: the worker that decides `matches` leaves no process running. The built
 * command line (`lpreq test`, its bundle's worker script) and a program that evaluates
 * through the runner's entry each meet a pattern that runs out of its budget (the worker
 * terminated and another started) and ordinary ones, then end: each process exits by itself,
 * with the worker it kept idle. A process kept alive would be killed after 60 s and fail.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT, tempDir } from '../helpers';
import { json, startServer, type TestServer } from '../sender/server';

let api: TestServer;
const VALUE = `${'a'.repeat(64)}!`;

/** A process to its end: its exit code (null when it had to be killed) and what it wrote. */
function run(args: string[], cwd: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, args, { cwd, env: { PATH: process.env.PATH ?? '', NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

before(async () => {
  api = await startServer((_req, res) => json(res, 200, { id: 1, name: VALUE, workflow_state: 'active' }));
});
after(() => api.close());

test(
  'lpreq test with a pattern that runs out of its budget reports it and exits by itself',
  { timeout: 90_000 },
  async () => {
    assert.ok(existsSync(join(ROOT, 'dist', 'test.js')), 'dist/ is built by npm test before the tests run');
    const dir = tempDir('regex-worker');
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { base_url: api.origin } }));
    writeFileSync(
      join(dir, 'hostile.lpreq'),
      [
        '### Backtracks',
        'GET /api/v1/courses/1/modules/1',
        '?? body $.name matches ^(a|aa)+(?=b)',
        '',
        '### Decided by the linear engine, where V8 backtracks without end',
        'GET /api/v1/courses/1/modules/1',
        '?? body $.name matches ^(a|aa)+$',
        '',
        '### An ordinary pattern',
        'GET /api/v1/courses/1/modules/1',
        '?? body $.workflow_state matches /^ACTIVE$/i',
        '',
      ].join('\n'),
    );
    const out = await run([join(ROOT, 'bin', 'lpreq.js'), 'test', 'hostile.lpreq', '--env', 'local'], dir);
    assert.equal(out.code, 1, `${out.stdout}\n${out.stderr}`);
    assert.equal(out.stdout.match(/ran out of its time budget \(1000 ms\)/g)?.length, 1, out.stdout);
    assert.match(out.stdout, /1 passed, 2 failed/);
  },
);

test('a program that evaluates through the runner exits by itself, the worker idle', { timeout: 90_000 }, async () => {
  const dir = tempDir('regex-worker-program');
  const program = join(dir, 'evaluate.mts');
  writeFileSync(
    program,
    [
      `import { evaluateWithinBudget } from ${JSON.stringify(join(ROOT, 'server/src/sender/runner/regexBudget.ts'))};`,
      `import { parseAssertion } from ${JSON.stringify(join(ROOT, 'server/src/core/assertion.ts'))};`,
      `const body = { name: ${JSON.stringify(VALUE)} };`,
      "const response = { status: 200, durationMs: 1, headers: {}, body, bodyText: JSON.stringify(body), bodyKind: 'json' as const };",
      'const messages: string[] = [];',
      "for (const line of ['?? body $.name matches ^(a|aa)+(?=b)', '?? body $.name matches ^(a|aa)+!$', '?? body $.name matches ^a'])",
      '  messages.push((await evaluateWithinBudget(parseAssertion(line).assertion!, response, undefined, { regexBudgetMs: 200 })).message);',
      'console.log(JSON.stringify(messages));',
    ].join('\n'),
  );
  const out = await run(['--import', 'tsx', program], ROOT);
  assert.equal(out.code, 0, out.stderr);
  const messages = JSON.parse(out.stdout) as string[];
  assert.match(messages[0], /ran out of its time budget \(200 ms\)/);
  assert.doesNotMatch(messages[1], /budget/);
  assert.doesNotMatch(messages[2], /budget/);
});
