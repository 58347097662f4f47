/** `lpreq check examples/`: the examples check clean, but for the two files that show mistakes on purpose (sending them: test/system/examples.test.ts). */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { runCli, ROOT } from '../helpers';

test('the examples check clean, but for the two files that show mistakes on purpose', async () => {
  const { code, stdout } = await runCli(['check', '--format', 'json', join(ROOT, 'examples')]);
  const flagged = new Set((JSON.parse(stdout) as { file: string }[]).map((d) => d.file.split(/[\\/]/).pop()));
  assert.deepEqual([...flagged].sort(), ['failing-assertions.lpreq', 'mistakes.lpreq']);
  assert.equal(code, 1);
});
