/**
 * Issue 26: the hostile repository (test/hostileRepo.ts) through the command line, in
 * process: `lpreq check`, `lpreq send` of every request that tries a way out and `lpreq test`
 * of the folder send nothing of the user's home and write nothing outside the clone; each
 * refusal is said, and nothing reaches the origin production names. In the slow tier: the
 * catastrophic assertion spends its whole budget (1 s), and the clone is made with mkfifo.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { hostileRepo, holdsHomeSecret, type HostileRepo } from '../hostileRepo';
import type { Io } from '../../server/src/cli/check';
import { run as runSend } from '../../server/src/cli/sendCommand';
import { run as runTest } from '../../server/src/cli/testCommand';
import { runCli as runMain } from '../helpers';
import { json, startServer, type TestServer } from '../sender/server';

const TOKEN = 'hostile-cli-token-0123456789';
let api: TestServer;
let other: TestServer;
let clone: HostileRepo;
let home: Map<string, string>;

before(async () => {
  api = await startServer((_req, res) =>
    json(res, 200, [{ id: 1, name: `${'a'.repeat(64)}!`, workflow_state: 'active' }]),
  );
  other = await startServer((_req, res) => json(res, 200, []));
  clone = hostileRepo(api.origin, other.origin);
  home = clone.snapshot();
});
after(async () => {
  await api.close();
  await other.close();
});

/** Nothing of the home was sent, printed or changed; nothing went to the other origin. */
function assertContained(outputs: string[], what: string): void {
  for (const r of api.received) {
    const leak = holdsHomeSecret(`${r.url} ${JSON.stringify(r.headers)} ${r.body}`);
    assert.equal(leak, undefined, `${what}: ${leak} reached the server`);
  }
  assert.equal(other.received.length, 0, `${what}: a request went to the origin production names`);
  for (const text of outputs) assert.equal(holdsHomeSecret(text), undefined, `${what}: printed ${text}`);
  assert.deepEqual(clone.snapshot(), home, `${what}: the home changed`);
}

const env = { LPREQ_TOKEN: TOKEN };

/** `lpreq check` through main; `send` and `test` through their commands (their bundles are the build's). */
async function runCli(argv: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  if (argv[0] === 'check') return runMain(argv, options);
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    readStdin: () => '',
    isTTY: false,
    env: options.env,
    cwd: options.cwd,
  };
  const code = await (argv[0] === 'send' ? runSend : runTest)(argv.slice(1), io);
  return { code, stdout, stderr };
}

test('lpreq check reads nothing through the links and writes nothing', async () => {
  const r = await runCli(['check', 'requests'], { cwd: clone.repo, env });
  assertContained([r.stdout, r.stderr], 'check');
});

test('lpreq send: each body file out of the workspace, a FIFO, /dev/zero and the linked .env are refused, and said', async () => {
  const expect: Record<keyof HostileRepo['lines'], RegExp | undefined> = {
    relative: /outside the workspace/,
    absolute: /outside the workspace/,
    link: /outside the workspace/,
    fifo: /pipe \(FIFO\)/,
    device: /outside the workspace/,
    dotenv: /\.env: it is outside the workspace/,
    regex: undefined,
  };
  for (const [name, line] of Object.entries(clone.lines)) {
    const sentBefore = api.received.length;
    const r = await runCli(['send', clone.requests, '--line', String(line), '--env', 'dev', '--format', 'json'], {
      cwd: clone.repo,
      env,
    });
    const pattern = expect[name as keyof HostileRepo['lines']];
    if (pattern) assert.match(`${r.stdout}\n${r.stderr}`, pattern, name);
    if (name !== 'dotenv' && name !== 'regex')
      assert.equal(api.received.length, sentBefore, `${name}: nothing is sent`);
    assertContained([r.stdout, r.stderr], `send ${name}`);
  }
  // The history was not kept through the link, and that was said.
  const last = await runCli(['send', clone.requests, '--line', String(clone.lines.regex), '--env', 'dev'], {
    cwd: clone.repo,
    env,
  });
  assert.match(last.stderr, /not kept in history: .*\.lpreq\/history is a symbolic link/);
  assertContained([last.stdout, last.stderr], 'send regex');
});

test('lpreq test of the folder: the catastrophic pattern fails within its budget, nothing leaves the clone', async () => {
  const r = await runCli(['test', '--env', 'dev', 'requests'], { cwd: clone.repo, env });
  assert.equal(r.code, 1);
  assert.match(
    r.stdout,
    /FAIL {2}regex[^\n]*\n[^\n]*matches \^\(a\|aa\)\+\(\?=b\)\n[^\n]*\n[^\n]*ran out of its time budget/,
  );
  assert.match(r.stderr, /\.lpreqtestignore: it is outside the workspace/);
  assertContained([r.stdout, r.stderr], 'test');
});

test('a private environment file linked to the home, and $tls files outside: refused before anything is sent', async () => {
  const linked = await runCli(['send', 'a.lpreq', '--env', 'dev'], { cwd: clone.linkedEnv, env });
  assert.equal(linked.code, 2);
  assert.match(linked.stderr, /http-client\.private\.env\.json: it is outside the workspace/);
  const tls = await runCli(['send', clone.requests, '--line', String(clone.lines.regex), '--env', 'tls'], {
    cwd: clone.repo,
    env,
  });
  assert.match(`${tls.stdout}${tls.stderr}`, /\$tls of 'tls': "ca" cannot be read from .*outside the workspace/);
  assertContained([linked.stdout, linked.stderr, tls.stdout, tls.stderr], 'linked environment');
});
