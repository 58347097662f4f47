/** JSON bodies read around their {{variables}}: every offset kept, only the variable's own value unknown. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsonBodyParameters, maskVariables, VARIABLE_MARK } from '../../../server/src/core/jsonParams';

const M = VARIABLE_MARK;

test('a variable is masked inside a string by marks, elsewhere by a string of marks, the length kept', () => {
  const cases: [string, string][] = [
    ['{"a": "x{{v}}y"}', `{"a": "x${M.repeat(5)}y"}`],
    ['{"a": {{n}}}', `{"a": "${M.repeat(3)}"}`],
    ['{"{{k}}": 1}', `{"${M.repeat(5)}": 1}`],
    // An escaped quote does not end the string.
    ['{"a": "\\"{{v}}"}', `{"a": "\\"${M.repeat(5)}"}`],
    // Not variables: braces inside, an unclosed one, none at all.
    ['{{"a": 1}}', '{{"a": 1}}'],
    ['{"a": "{{open"}', '{"a": "{{open"}'],
    ['{"a": 1}', '{"a": 1}'],
  ];
  for (const [text, masked] of cases) {
    assert.equal(maskVariables(text), masked, text);
    assert.equal(maskVariables(text).length, text.length);
  }
});

test('the parameters of a JSON body keep a variable as written, so that its value is not checked', () => {
  const text = '{"column": {"title": "{{t}}", "position": {{p}}, "hidden": true}}';
  const { params, error } = jsonBodyParameters({ text, start: 10, end: 10 + text.length });
  assert.equal(error, undefined);
  assert.deepEqual(
    params.map((p) => [p.decodedName, p.decodedValue, text.slice(p.value.start - 10, p.value.end - 10)]),
    [
      ['column[title]', '{{t}}', '{{t}}'],
      ['column[position]', '{{p}}', '{{p}}'],
      ['column[hidden]', 'true', 'true'],
    ],
  );
});
