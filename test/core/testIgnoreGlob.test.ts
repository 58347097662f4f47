/**
 * `.lpreqtestignore` patterns are the repository's, matched without a backtracking regular
 * expression (issue 26: anything driven by data runs within a budget): `**a**a...b` on a long
 * path hung `lpreq test` and the Testing view's extension host. The matcher agrees with the
 * regular expression it replaced on short inputs, where that one ends.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { ignores, parseIgnore } from '../../server/src/node/testIgnore';
import { fuzzRuns } from '../fuzzRuns';

/** The regular expression lpreq used before, as the reference. */
function reference(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      if (glob[i + 2] === '/') {
        out += '(?:.*/)?';
        i += 2;
      } else {
        out += '.*';
        i += 1;
      }
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

test('a pattern that would backtrack without end as a regular expression is matched at once', () => {
  const patterns = parseIgnore(`**${'a**'.repeat(12)}b\n${'*a'.repeat(20)}b\n`).patterns;
  assert.equal(ignores(patterns, `${'a'.repeat(300)}/x.lpreq`), false);
  assert.equal(ignores(patterns, `x/${'a'.repeat(300)}b`), true);
});

test('the matcher agrees with the regular expression on short globs and paths', () => {
  const glob = fc.string({ unit: fc.constantFrom('a', 'b', '*', '?', '/', '.'), minLength: 1, maxLength: 8 });
  const path = fc.string({ unit: fc.constantFrom('a', 'b', '/', '.'), maxLength: 10 });
  fc.assert(
    fc.property(glob, path, (g, p) => {
      const body = g.replace(/^\/+/, '').replace(/\/+$/, '');
      fc.pre(body.length > 0 && !body.includes('//') && !/^[/]*$/.test(p) && !p.includes('//'));
      // Anchored (a `/` inside): the path from the folder, as `ignores` reads it, each folder on the way.
      const anchored = parseIgnore(`/${body}\n`).patterns;
      const parts = p.split('/');
      const expected = parts.some((_, n) => reference(body).test(parts.slice(0, n + 1).join('/')));
      assert.equal(ignores(anchored, p), expected, `${body} on ${p}`);
    }),
    { numRuns: fuzzRuns(500), seed: 26 },
  );
});
