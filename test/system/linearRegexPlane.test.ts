/**
 * The linear engine of `matches` against V8 on every character of the Basic Multilingual
 * Plane, for the sets whose members differ between engines (`.`, `\s`, `\w`, case), under the
 * flags that change them. In the slow tier: about a million matches.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compileLinear, linearTest } from '../../server/src/sender/runner/linearRegex';
import { SET_ATOMS, SET_FLAGS } from '../sender/linearRegexSets';

test('every character of the Basic Multilingual Plane, against the sets that differ between engines', () => {
  for (const flags of SET_FLAGS)
    for (const atom of SET_ATOMS) {
      const regex = new RegExp(`^(?:${atom})$`, flags);
      const program = compileLinear(regex);
      assert.ok(program, `/${regex.source}/${flags} is read`);
      for (let c = 0; c < 0x10000; c++) {
        const t = String.fromCharCode(c);
        if (linearTest(program, t) !== regex.test(t))
          assert.fail(`/${regex.source}/${flags} on U+${c.toString(16).padStart(4, '0')}: V8 says ${regex.test(t)}`);
      }
    }
});
