/** Value types and formats (LPREQ-FORMAT section 3), as data. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { typeProblem, formatProblem, parseDuration, type ParamType } from '../../server/src/core/index';

const cases: [ParamType, string, boolean][] = [
  ['integer', '42', true],
  ['integer', '-3', true],
  ['integer', '4.2', false],
  ['integer', 'seven', false],
  ['number', '4.25', true],
  ['number', '-1e3', true],
  ['number', 'heavy', false],
  ['number', '1,5', false],
  ['boolean', 'true', true],
  ['boolean', 'false', true],
  ['boolean', '1', true],
  ['boolean', '0', true],
  ['boolean', 'yes', false],
  ['boolean', 'True', false],
  ['Date', '2026-02-28', true],
  ['Date', '2024-02-29', true],
  ['Date', '2026-02-30', false],
  ['Date', '2026-02-29', false],
  ['Date', '2026-13-01', false],
  ['Date', '2026-1-5', false],
  ['Date', '2026-01-05T00:00:00Z', false],
  ['DateTime', '2026-09-14T08:00:00Z', true],
  ['DateTime', '2026-09-14T08:00:00+02:00', true],
  ['DateTime', '2026-09-14T08:00:00.123Z', true],
  ['DateTime', '2026-09-14', true],
  ['DateTime', '2026-09-14T08:00', true],
  ['DateTime', '20260914T080000Z', true],
  ['DateTime', '20260914T0800+0200', true],
  ['DateTime', '20260914', false],
  ['DateTime', '20260931T080000Z', false],
  ['DateTime', 'yesterday', false],
  ['DateTime', '2026-09-31T08:00:00Z', false],
  ['DateTime', '2026-09-14T25:00:00Z', false],
  ['string', 'anything', true],
];

for (const [type, value, ok] of cases) {
  test(`${type} ${JSON.stringify(value)} is ${ok ? 'valid' : 'invalid'}`, () => {
    assert.equal(typeProblem(type, value) === null, ok);
  });
}

test('SIS forms stand in for integer ids where documented', () => {
  assert.equal(typeProblem('integer', 'sis_user_id:A17', ['sis_user_id']), null);
  assert.notEqual(typeProblem('integer', 'sis_user_id:A17'), null);
});

const formats: [string, string, string[] | undefined, boolean][] = [
  ['context_code', 'course_42', undefined, true],
  ['context_code', 'course_section_5', ['course_section', 'group_category'], true],
  ['context_code', 'group_category_3', ['course_section', 'group_category'], true],
  ['context_code', '42', undefined, false],
  ['context_code', 'group_4', ['course'], false],
  ['context_code', 'course_', undefined, false],
  ['id_or_context_code', '17', ['course', 'group'], true],
  ['id_or_context_code', 'group_17', ['course', 'group'], true],
  ['id_or_context_code', 'user_17', ['course', 'group'], false],
  ['url', 'https://example.com/x', undefined, true],
  ['url', 'example.com', undefined, false],
];
for (const [format, value, types, ok] of formats) {
  test(`${format} ${value} (${types?.join('|') ?? 'any'}) is ${ok ? 'valid' : 'invalid'}`, () => {
    assert.equal(formatProblem(format, value, types) === null, ok);
  });
}

test("durations of JetBrains' # @timeout and # @connection-timeout: seconds by default, or ms, s, m", () => {
  const cases: [string, number | undefined][] = [
    ['90', 90_000],
    ['500 ms', 500],
    ['500ms', 500],
    ['1.5 s', 1500],
    ['2 m', 120_000],
    [' 10 S ', 10_000],
    ['1440 m', 86_400_000],
    ['', undefined],
    ['soon', undefined],
    ['0', undefined],
    ['-5', undefined],
    ['5 h', undefined],
    ['1441 m', undefined],
    ['5 m 2', undefined],
  ];
  for (const [written, ms] of cases) assert.equal(parseDuration(written), ms, written);
});
