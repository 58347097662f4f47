/** `lpreq proxy` as a command: bad arguments exit with 2 and a message saying why, before anything listens. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { run } from '../../server/src/cli/proxyCommand';
import { tempDir } from '../helpers';
import { captureIo } from '../io';

async function proxy(argv: string[]) {
  const out = captureIo({ cwd: tempDir('proxy') });
  return { code: await run(argv, out.io), stderr: out.stderr, stdout: out.stdout };
}

const BAD: [string, string[], RegExp][] = [
  ['no --target', [], /--target is required/],
  ['a target that is no URL', ['--target', 'lms.example.edu'], /must be an http or https URL/],
  ['a target of another scheme', ['--target', 'ftp://lms.example.edu'], /http or https URL, not ftp:/],
  [
    'a target with a password in it',
    ['--target', 'https://me:hunter2-secret@lms.example.edu'],
    /must not hold a user name or password/,
  ],
  ['a target with a query', ['--target', 'https://lms.example.edu/?a=1'], /must not have a query/],
  ['a port that is none', ['--target', 'http://127.0.0.1:4010', '--port', '70000'], /--port must be a port number/],
  ['an unknown option', ['--target', 'http://127.0.0.1:4010', '--stric'], /unknown option --stric/],
  ['a stray argument', ['--target', 'http://127.0.0.1:4010', 'extra'], /unexpected argument 'extra'/],
  [
    'a report in a folder that does not exist',
    ['--target', 'http://127.0.0.1:4010', '--report', join('no', 'such', 'folder', 'r.jsonl')],
    /cannot write the report/,
  ],
  [
    'a scopes file that does not exist',
    ['--target', 'http://127.0.0.1:4010', '--scopes', 'missing-scopes.json'],
    /the scopes file missing-scopes\.json: /,
  ],
  [
    '--target twice',
    ['--target', 'http://127.0.0.1:4010', '--target', 'http://127.0.0.1:4011'],
    /given more than once/,
  ],
];

for (const [what, argv, message] of BAD) {
  test(`${what}: exit 2 and a message that says why`, async () => {
    const r = await proxy(argv);
    assert.equal(r.code, 2);
    assert.match(r.stderr, message);
    assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
    assert.equal(r.stderr.includes('hunter2-secret'), false, 'a password given in the URL is not repeated');
  });
}

test('--help prints the usage and exits with 0', async () => {
  const r = await proxy(['--help']);
  assert.equal(r.code, 0);
  assert.match(r.stdout, /^usage: lpreq proxy --target URL/);
});
