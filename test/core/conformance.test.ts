/**
 * Every case of ../shared/conformance runs here: a case passes when the multiset of
 * (code, line) over error and warning diagnostics of `lpreq check --format json FILE`
 * equals its expect.json exactly; valid files give no error and no warning.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, SHARED } from '../helpers';

const dir = join(SHARED, 'conformance');
type Found = { code: string; line: number; severity: string };
const key = (d: { code: string; line: number }) => `${d.code}@${d.line}`;

for (const name of readdirSync(join(dir, 'invalid'))
  .filter((n) => n.endsWith('.lpreq'))
  .sort()) {
  test(`conformance invalid/${name}`, async () => {
    const file = join(dir, 'invalid', name);
    const expected = JSON.parse(readFileSync(file.replace(/\.lpreq$/, '.expect.json'), 'utf8')) as { expect: Found[] };
    const { code, stdout } = await runCli(['check', '--format', 'json', file]);
    const found = (JSON.parse(stdout) as Found[]).filter((d) => d.severity === 'error' || d.severity === 'warning');
    assert.deepEqual(found.map(key).sort(), expected.expect.map(key).sort());
    assert.equal(code, expected.expect.some((e) => e.severity === 'error') ? 1 : 0);
  });
}

for (const name of existsSync(join(dir, 'valid'))
  ? readdirSync(join(dir, 'valid'))
      .filter((n) => n.endsWith('.lpreq'))
      .sort()
  : []) {
  test(`conformance valid/${name}`, async () => {
    const { code, stdout } = await runCli(['check', '--format', 'json', join(dir, 'valid', name)]);
    const found = (JSON.parse(stdout) as Found[]).filter((d) => d.severity === 'error' || d.severity === 'warning');
    assert.deepEqual(found, []);
    assert.equal(code, 0);
  });
}
