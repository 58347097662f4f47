/** `lpreq mock` as a command: bad seed and scope files are usage errors (exit 2). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isLoopback, run } from '../../server/src/cli/mockCommand';
import { ROOT, tempDir } from '../helpers';
import { captureIo } from '../io';

async function mock(argv: string[]) {
  const out = captureIo({ cwd: tempDir('mock') });
  writeFileSync(join(out.io.cwd, 'seed.json'), JSON.stringify({ institution: 'x', accounts: [] }));
  writeFileSync(join(out.io.cwd, 'broken.json'), '{');
  writeFileSync(join(out.io.cwd, 'scopes.json'), JSON.stringify([42]));
  return { code: await run(argv, out.io), stderr: out.stderr };
}

test('bad seed, scopes and port arguments exit with 2 and say why', async () => {
  const seed = await mock(['--seed', 'seed.json']);
  assert.equal(seed.code, 2);
  assert.match(seed.stderr, /not a valid mock data set[\s\S]*self_user_id/);
  assert.equal((await mock(['--seed', 'broken.json'])).code, 2);
  assert.equal((await mock(['--seed', 'missing.json'])).code, 2);
  const scopes = await mock(['--scopes', 'scopes.json']);
  assert.equal(scopes.code, 2);
  assert.match(scopes.stderr, /scopes\.json: item 1 \(42\) is not a scope/);
  assert.equal((await mock(['--port', 'x'])).code, 2);
});

test('a --user-token that is not USER_ID=TOKEN, names no user of the seed or gives a token twice exits with 2, without printing the token', async () => {
  for (const argv of [
    ['--user-token', '1001'],
    ['--user-token', 'priya=secret-token-1'],
    ['--user-token', '99999=secret-token-1'],
    ['--user-token', '1001=secret-token-1', '--user-token', '1002=secret-token-1'],
    ['--user-token', '1001=secret-token-1', '--token', 'secret-token-1'],
  ]) {
    const { code, stderr } = await mock([...argv, '--port', '0']);
    assert.equal(code, 2, argv.join(' '));
    assert.match(stderr, /token/);
    assert.equal(stderr.includes('secret-token-1'), false, stderr);
  }
});

/** A bundled-seed copy with one typed field spoiled, and the field the message must name. */
const BAD_SEED_FIELDS: [string, (seed: Record<string, Record<string, unknown>[]>) => void, string][] = [
  ['a date that is not one', (s) => (s.modules[0].unlock_at = 'not a date'), 'modules.0.unlock_at'],
  ['a DateTime without a time zone', (s) => (s.assignments[0].due_at = '2026-09-11 23:59'), 'assignments.0.due_at'],
  ['a fractional position', (s) => (s.modules[1].position = 1.5), 'modules.1.position'],
  [
    'an id that ties rows together, as a string',
    (s) => (s.module_items[0].module_id = '7'),
    'module_items.0.module_id',
  ],
  [
    'an undocumented quiz submission state',
    (s) => (s.quiz_submissions[0].workflow_state = 'done'),
    'quiz_submissions.0.workflow_state',
  ],
  ['an undocumented module item type', (s) => (s.module_items[0].type = 'Video'), 'module_items.0.type'],
  [
    'an undocumented privacy level',
    (s) => (s.external_tools[0].privacy_level = 'private'),
    'external_tools.0.privacy_level',
  ],
  ['a score that is not a number', (s) => (s.submissions[0].score = '18'), 'submissions.0.score'],
];

for (const [what, spoil, field] of BAD_SEED_FIELDS) {
  test(`a seed with ${what} exits with 2, naming the file and the field`, { timeout: 10_000 }, async () => {
    const seed = JSON.parse(readFileSync(join(ROOT, 'server', 'src', 'mock', 'seed.json'), 'utf8')) as Record<
      string,
      Record<string, unknown>[]
    >;
    spoil(seed);
    const out = captureIo({ cwd: tempDir('mock') });
    writeFileSync(join(out.io.cwd, 'my-data.json'), JSON.stringify(seed));
    assert.equal(await run(['--seed', 'my-data.json', '--port', '0'], out.io), 2);
    assert.ok(out.stderr.includes('my-data.json'), out.stderr);
    assert.ok(out.stderr.includes(field), out.stderr);
  });
}

/** Hosts and whether only this machine reaches them (no warning) or others may (a warning). */
const HOSTS: [string, boolean][] = [
  ['127.0.0.1', true],
  ['127.8.9.10', true],
  ['localhost', true],
  ['::1', true],
  ['0:0:0:0:0:0:0:1', true],
  ['::ffff:127.0.0.1', true],
  ['0.0.0.0', false],
  ['::', false],
  ['192.168.1.20', false],
  ['10.0.0.1', false],
  ['128.0.0.1', false],
  ['::ffff:10.0.0.1', false],
  ['lab-server.example.edu', false],
];

test('loopback hosts are told from hosts other machines reach', () => {
  assert.deepEqual(
    HOSTS.map(([host]) => [host, isLoopback(host)]),
    HOSTS,
  );
});

/**
 * The command warns on stderr for a host other machines reach. The non-loopback hosts here are
 * documentation addresses (RFC 5737) this machine does not have, so nothing is exposed: the
 * warning comes before listening, then the bind fails with 2.
 */
for (const [host, args, warns] of [
  ['127.0.0.1', [], false],
  ['localhost', [], false],
  ['192.0.2.1', [], true],
  ['198.51.100.7', ['--token', 's3cret-token'], true],
] as [string, string[], boolean][]) {
  test(
    `lpreq mock --host ${host}${args.length ? ' --token ...' : ''} ${warns ? 'warns that other machines reach it' : 'says nothing of other machines'}`,
    { timeout: 10_000 },
    async () => {
      const out = captureIo({ cwd: tempDir('mock') });
      let done = false;
      const running = run(['--host', host, '--port', '0', ...args], out.io).finally(() => (done = true));
      // A mock that started runs until SIGTERM: send it once it says so.
      while (!done && !out.stdout.includes('stop with Ctrl-C')) await new Promise((r) => setTimeout(r, 10));
      if (!done) process.emit('SIGTERM');
      await running;
      const warnings = out.stderr.split('\n').filter((line) => line.includes('warning'));
      assert.equal(warnings.length, warns ? 1 : 0, out.stderr);
      if (warns) assert.ok(warnings[0].includes(host), out.stderr);
    },
  );
}
