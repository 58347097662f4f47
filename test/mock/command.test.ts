/** `lpreq mock` as a command: bad seed and scope files are usage errors (exit 2). */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run } from '../../server/src/cli/mockCommand';
import type { Io } from '../../server/src/cli/check';
import { tempDir } from '../helpers';

async function mock(argv: string[]) {
  let stderr = '';
  const io: Io = { stdout: () => undefined, stderr: (s) => (stderr += s), readStdin: () => '', isTTY: false, env: {}, cwd: tempDir('mock') };
  writeFileSync(join(io.cwd, 'seed.json'), JSON.stringify({ institution: 'x', accounts: [] }));
  writeFileSync(join(io.cwd, 'broken.json'), '{');
  writeFileSync(join(io.cwd, 'scopes.json'), JSON.stringify([42]));
  return { code: await run(argv, io), stderr };
}

test('bad seed, scopes and port arguments exit with 2 and say why', async () => {
  const seed = await mock(['--seed', 'seed.json']);
  assert.equal(seed.code, 2);
  assert.match(seed.stderr, /not a valid mock data set[\s\S]*self_user_id/);
  assert.equal((await mock(['--seed', 'broken.json'])).code, 2);
  assert.equal((await mock(['--seed', 'missing.json'])).code, 2);
  assert.match((await mock(['--scopes', 'scopes.json'])).stderr, /JSON array of scope strings/);
  assert.equal((await mock(['--port', 'x'])).code, 2);
});
