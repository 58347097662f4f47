/**
 * The linear engine of `matches` (linearRegex.ts) held to V8's verdicts: for every pattern it
 * reads, `linearTest` answers as `RegExp.prototype.test` does on every text, under every flag;
 * what it does not read whole (backreferences, lookaround, `\p{...}`, `i` with `u`, escapes
 * whose meaning Annex B bends) it refuses, and V8 matches alone. Patterns are drawn from
 * pieces that differ between engines: line terminators, `\s` beyond ASCII, surrogates with and
 * without `u`, case beyond ASCII (ſ, the Kelvin sign), braces and brackets as characters.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { compileLinear, linearTest } from '../../server/src/sender/runner/linearRegex';
import { fuzzRuns } from '../fuzzRuns';
import { SET_ATOMS, SET_FLAGS } from './linearRegexSets';

// prettier-ignore
const ATOMS = [
  'a', 'b', 'A', 'k', 's', '.', '\\s', '\\S', '\\w', '\\W', '\\d', '\\D', '[a-c]', '[^a]', '[^\\s]', '[\\w-]', '[]',
  '[^]', '\\n', '\\u2028', '\\u{1F600}', '\\uD83D', '\\ud83d\\ude00', '\\x41', '\\cJ', '\\0', '\\b', '\\B', '^', '$',
  '(?:a|b)', '(a|aa)', '(?<n>a)', '\\-', '{', '}', ']', '\\/', '\\.', '[a-]', '[\\b]', '\\t', '_', 'x{2}', 'a{,2}',
  '\u00e9', '\u{1F600}', '\\1', '(?=a)', '(?<!a)', '\\p{L}', '\\k<n>', '\\z', '[\\d-z]',
];
const QUANTIFIERS = ['', '', '', '*', '+', '?', '{2}', '{0,2}', '{1,}', '*?', '{2,3}?'];
const FLAGS = ['', '', 'i', 'm', 's', 'u', 'y', 'g', 'iu', 'im', 'su', 'mu', 'is', 'v', 'iy'];
// prettier-ignore
const PIECES = [
  '', 'a', 'A', 'b', 'ab', 'aab', 'k', 'K', '\u212a', 's', '\u017f', '\u00e9', '\u00c9', ' ', '\u00a0', '\ufeff',
  '\n', '\r', '\u2028', '\u2029', '\u{1F600}', '\ud83d', '\ude00', '_', '0', '9', '-', '{', '}', ']', 'x{,2}',
  '\u0008', 'xx', 'a b', '/',
];

const piece = fc.tuple(fc.constantFrom(...ATOMS), fc.constantFrom(...QUANTIFIERS), fc.integer({ min: 0, max: 9 }));
const pattern = fc
  .array(fc.tuple(piece, fc.option(piece, { nil: undefined })), { minLength: 1, maxLength: 5 })
  .map((terms) =>
    terms
      .map(([[atom, q, bar], alt]) => {
        const term = alt ? `(${atom}|${alt[0]})${q}` : `${atom}${q}`;
        return bar === 0 ? `${term}|` : term;
      })
      .join(''),
  );
const text = fc.array(fc.constantFrom(...PIECES), { maxLength: 6 }).map((p) => p.join(''));

test('the linear engine answers as V8 does for every pattern it reads, on every text', () => {
  let read = 0;
  let refused = 0;
  fc.assert(
    fc.property(
      pattern,
      fc.constantFrom(...FLAGS),
      fc.array(text, { minLength: 8, maxLength: 8 }),
      (source, flags, texts) => {
        let regex: RegExp;
        try {
          regex = new RegExp(source, flags);
        } catch {
          return;
        }
        const program = compileLinear(regex);
        if (!program) {
          refused++;
          return;
        }
        read++;
        for (const t of [...texts, ...PIECES]) {
          regex.lastIndex = 0;
          assert.equal(linearTest(program, t), regex.test(t), `/${source}/${flags} on ${JSON.stringify(t)}`);
        }
      },
    ),
    { numRuns: fuzzRuns(3000), seed: 26 },
  );
  // Neither side is empty: the engine reads most patterns, and refuses some.
  assert.ok(read > refused / 2 && refused > 0, `read ${read}, refused ${refused}`);
});

/** The characters where engines' sets differ most; every one of the plane is test/system/linearRegexPlane.test.ts. */
// prettier-ignore
const CHARACTERS = [
  ...Array.from({ length: 0x180 }, (_, c) => c),
  0x1680, 0x180e, 0x2000, 0x200a, 0x200b, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff, 0x212a, 0x212b, 0x1e9e,
  0x0130, 0x0131, 0x03c2, 0x03c3, 0x03a3, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffe, 0xffff,
];

test('the sets that differ between engines, on the characters where they differ', () => {
  for (const flags of SET_FLAGS)
    for (const atom of SET_ATOMS) {
      const regex = new RegExp(`^(?:${atom})$`, flags);
      const program = compileLinear(regex);
      assert.ok(program, `/${regex.source}/${flags} is read`);
      for (const c of CHARACTERS) {
        const t = String.fromCharCode(c);
        assert.equal(linearTest(program, t), regex.test(t), `/${regex.source}/${flags} on U+${c.toString(16)}`);
      }
    }
});

test('what the engine leaves to V8', () => {
  for (const [source, flags] of [
    ['(a)\\1', ''],
    ['(?<n>a)\\k<n>', ''],
    ['a(?=b)', ''],
    ['(?<!a)b', ''],
    ['\\p{L}', 'u'],
    ['[\\p{L}--[a-z]]', 'v'],
    ['a', 'iu'],
    ['\u00e9', 'i'],
    ['\\8', ''],
    ['\\01', ''],
    ['\\z', ''],
    ['\\c1', ''],
    ['[\\d-z]', ''],
    ['a{10001}', ''],
    ['(a{100}){200}', ''],
    [`${'('.repeat(150)}a${')'.repeat(150)}`, ''],
  ])
    assert.equal(compileLinear(new RegExp(source, flags)), undefined, `/${source}/${flags}`);
});

test('in time proportional to the text: patterns catastrophic for V8 on 20,000 characters', () => {
  const long = `${'a'.repeat(20_000)}!`;
  for (const source of ['^(a|aa)+$', '^(a+)+$', '^(a*)*b$', '(a|b|ab)*c', '^(\\w+\\s?)*$', '(.*a){20}$']) {
    const program = compileLinear(new RegExp(source));
    assert.ok(program, source);
    assert.equal(linearTest(program, long), false, source);
    assert.equal(linearTest(program, 'a'.repeat(20_000)), !source.endsWith('c') && !source.endsWith('b$'), source);
  }
});
