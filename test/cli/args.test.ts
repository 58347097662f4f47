/** The shared argument parser of the commands: unknown flags, missing values and flags given twice are usage errors. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseArgs, UsageError, type FlagSpec } from '../../server/src/cli/args';
import { run as runMock } from '../../server/src/cli/mockCommand';
import { run as runSend } from '../../server/src/cli/sendCommand';
import { runCheck } from '../../server/src/cli/check';
import { captureIo } from '../io';

const spec: Record<string, FlagSpec> = {
  line: { value: true },
  env: { value: true },
  prompt: { value: true, repeat: true },
  yes: {},
};

/** argv -> the flag a usage error names, or the values parsed. */
const cases: [string[], string | Record<string, unknown>][] = [
  [['--line', '5', '--line', '13'], '--line'],
  [['--env', 'a', '--env=b'], '--env'],
  [['--line', '5', '--env', 'a'], { line: '5', env: 'a' }],
  [['--prompt', 'a=1', '--prompt', 'b=2'], { prompt: ['a=1', 'b=2'] }],
  [['--yes', '--yes'], { yes: true }],
  [['--nope'], '--nope'],
];

test('a flag that takes one value, given twice, is a usage error naming it; repeatable flags stay repeatable', () => {
  for (const [argv, expected] of cases) {
    if (typeof expected === 'string') {
      assert.throws(
        () => parseArgs(argv, spec),
        (e: unknown) => e instanceof UsageError && e.message.includes(expected),
        argv.join(' '),
      );
    } else {
      const parsed = parseArgs(argv, spec);
      const got: Record<string, unknown> = {};
      for (const [k, v] of parsed.flags) got[k] = parsed.lists.get(k) ?? v;
      assert.deepEqual(got, expected, argv.join(' '));
    }
  }
});

test('lpreq send, check and mock: a repeated one-value flag exits 2 and names the flag', async () => {
  const send = captureIo({ cwd: process.cwd() });
  assert.equal(await runSend(['x.lpreq', '--line', '5', '--line', '13'], send.io), 2);
  assert.match(send.stderr, /--line/);
  const check = captureIo({ cwd: process.cwd() });
  await assert.rejects(
    runCheck(['x.lpreq', '--env', 'a', '--env', 'b'], check.io, () => assert.fail('no checker')),
    (e: unknown) => e instanceof Error && /--env/.test(e.message),
  );
  const mock = captureIo({ cwd: process.cwd() });
  assert.equal(await runMock(['--port', '0', '--port', '1'], mock.io), 2);
  assert.match(mock.stderr, /--port/);
});

test('an option named like an Object.prototype member is an unknown option (issue 17)', () => {
  for (const name of Object.getOwnPropertyNames(Object.prototype)) {
    assert.throws(
      () => parseArgs([`--${name}`, 'x'], spec),
      (e: unknown) => e instanceof UsageError && e.message === `unknown option --${name}`,
      name,
    );
  }
});
