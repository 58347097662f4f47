/** The patterns of `.lpreqtestignore` (docs/testing.md), as a table: pattern, path from its folder, left out or not. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ignores, parseIgnore } from '../../server/src/node/testIgnore';

const CASES: [string, string, boolean][] = [
  // A name without `/` matches a file or a folder of that name at any depth.
  ['mistakes.lpreq', 'mistakes.lpreq', true],
  ['mistakes.lpreq', 'sub/mistakes.lpreq', true],
  ['mistakes.lpreq', 'other.lpreq', false],
  ['manual', 'manual/by-hand.lpreq', true],
  ['manual', 'a/manual/b/c.lpreq', true],
  // A trailing `/` matches folders only.
  ['manual/', 'manual/by-hand.lpreq', true],
  ['manual.lpreq/', 'manual.lpreq', false],
  // `*` and `?` stay within a name; `**` crosses folders.
  ['*.draft.lpreq', 'x/y.draft.lpreq', true],
  ['drafts/*.lpreq', 'drafts/a.lpreq', true],
  ['drafts/*.lpreq', 'drafts/deep/a.lpreq', false],
  ['drafts/**/*.lpreq', 'drafts/deep/a.lpreq', true],
  ['drafts/**/*.lpreq', 'drafts/a.lpreq', true],
  ['v?.lpreq', 'v1.lpreq', true],
  ['v?.lpreq', 'v10.lpreq', false],
  // A `/` before the end anchors to the ignore file's folder.
  ['/top.lpreq', 'top.lpreq', true],
  ['/top.lpreq', 'sub/top.lpreq', false],
  ['sub/top.lpreq', 'sub/top.lpreq', true],
  ['sub/top.lpreq', 'x/sub/top.lpreq', false],
  // Characters of regular expressions are only themselves.
  ['a+b.lpreq', 'a+b.lpreq', true],
  ['a+b.lpreq', 'aab.lpreq', false],
  ['(x).lpreq', '(x).lpreq', true],
];

test('each pattern leaves out the paths the table says, and only those', () => {
  const wrong = CASES.filter(([pattern, path, out]) => ignores(parseIgnore(pattern).patterns, path) !== out).map(
    ([p, path, out]) => `${p} ${path}: ${out ? 'left out' : 'kept'} expected`,
  );
  assert.deepEqual(wrong, []);
});

test('comments and blank lines are no patterns; a negation is named as not supported, not read', () => {
  const parsed = parseIgnore('# a comment\n\n   \n!keep.lpreq\nskip.lpreq\r\n');
  assert.equal(parsed.patterns.length, 1);
  assert.ok(ignores(parsed.patterns, 'skip.lpreq'));
  assert.ok(!ignores(parsed.patterns, 'keep.lpreq'));
  assert.deepEqual(
    parsed.problems.map((p) => p.split(':')[0]),
    ['line 4'],
  );
});
