/** Settings that take a size: bytes or a number with a unit, and a clear word for a value that is neither. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseByteSize } from '../../server/src/core/index';
import { DEFAULT_SETTINGS, readSettings, settingProblems } from '../../client/src/model/settings';

const sizes: [unknown, number | null][] = [
  [2048, 2048],
  ['2048', 2048],
  ['10MB', 10_000_000],
  ['10 mb', 10_000_000],
  ['512 KB', 512_000],
  ['512KiB', 524_288],
  ['50 MiB', 52_428_800],
  ['1.5 GiB', 1_610_612_736],
  [' 3 B ', 3],
  ['10 MBs', null],
  ['ten MB', null],
  ['1.5', null],
  ['-1', null],
  [-1, null],
  [1.5, null],
  [true, null],
  ['', null],
];

for (const [value, bytes] of sizes) {
  test(`size ${JSON.stringify(value)} reads as ${bytes ?? 'a problem'}`, () => {
    const read = parseByteSize(value);
    if (bytes === null) {
      assert.ok('problem' in read, JSON.stringify(read));
      // The message says what is accepted: the units.
      assert.match(read.problem, /KB|whole number|too large/);
    } else assert.deepEqual(read, { bytes });
  });
}

test('lpreq.maxBodySize takes 10MB-style values; a bad or too small one keeps the default and is reported', () => {
  const get = (v: unknown) => (key: string) => (key === 'maxBodySize' ? v : undefined);
  assert.equal(readSettings(get('10MB')).maxBodySize, 10_000_000);
  assert.equal(readSettings(get(4096)).maxBodySize, 4096);
  assert.equal(readSettings(get('50 MiB')).maxBodySize, DEFAULT_SETTINGS.maxBodySize);
  assert.deepEqual(settingProblems(get('10MB')), []);
  assert.deepEqual(settingProblems(get(undefined)), []);
  for (const bad of ['10 MBs', 100, '1 B']) {
    assert.equal(readSettings(get(bad)).maxBodySize, DEFAULT_SETTINGS.maxBodySize, String(bad));
    const problems = settingProblems(get(bad));
    assert.equal(problems.length, 1, String(bad));
    assert.match(problems[0], /^lpreq\.maxBodySize/);
  }
});
