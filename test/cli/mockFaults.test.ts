/** `--faults FILE` on the command line (issue 30): a bad rules file exits 2 naming its line; `lpreq test --mock --faults` runs with the rules. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Io } from '../../server/src/cli/check';
import { run as mockCommand } from '../../server/src/cli/mockCommand';
import { run as testCommand } from '../../server/src/cli/testCommand';
import { tempDir } from '../helpers';

/** A command run in this process, with what it printed. */
async function runIn(command: typeof mockCommand, argv: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    readStdin: () => '',
    isTTY: false,
    env: {},
    cwd,
  };
  return { code: await command(argv, io), stdout, stderr };
}

test('lpreq mock --faults with a bad rules file: exit 2 with the file and the line', async () => {
  const dir = tempDir('faults');
  writeFileSync(
    join(dir, 'faults.txt'),
    '# two rules\nGET /api/v1/** status=503 rate=0.5\nPOST /api/v1/** stauts=500 count=1\n',
  );
  const r = await runIn(mockCommand, ['--port', '0', '--faults', 'faults.txt'], dir);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /the faults file faults\.txt, line 3: unknown word 'stauts=500' \(did you mean status=\?\)/);
  const missing = await runIn(mockCommand, ['--port', '0', '--faults', 'nowhere.txt'], dir);
  assert.equal(missing.code, 2);
  assert.match(missing.stderr, /the faults file nowhere\.txt/);
  const help = await runIn(mockCommand, ['--help'], dir);
  assert.match(help.stdout, /--faults FILE/);
});

test('lpreq test --mock --faults: the run meets the faults of the file; --faults without --mock is a usage error', async () => {
  const dir = tempDir('faults-test');
  writeFileSync(
    join(dir, 'modules.lpreq'),
    [
      '### The modules, while the service is down',
      'GET /api/v1/courses/42/modules',
      '',
      '?? status == 503',
      '',
      '### The modules again, once it is back',
      'GET /api/v1/courses/42/modules',
      '',
      '?? status == 200',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'faults.txt'),
    'GET /api/v1/courses/*/modules status=503 count=1\nGET /api/v1/nothing reset rate=1\n',
  );
  const r = await runIn(testCommand, ['--mock', '--faults', 'faults.txt', 'modules.lpreq'], dir);
  assert.equal(r.code, 0, r.stdout + r.stderr);
  assert.match(r.stderr, /faults\.txt, line 2 \(GET \/api\/v1\/nothing\) matched no request/);
  const bad = await runIn(testCommand, ['--mock', '--faults', 'missing.txt', 'modules.lpreq'], dir);
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /the faults file missing\.txt/);
  const without = await runIn(testCommand, ['--faults', 'faults.txt', 'modules.lpreq'], dir);
  assert.equal(without.code, 2);
  assert.match(without.stderr, /--faults goes with --mock/);
});
