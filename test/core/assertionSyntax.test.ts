import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  canonicalOperator,
  expectedRegExp,
  isAssertionLine,
  parseAssertion,
  type JsonPathSegment,
} from '../../server/src/core/index';

interface Valid {
  line: string;
  field: string;
  header?: string;
  path?: (string | number)[][];
  operator: string;
  expected?: string;
  quoted?: boolean;
}
interface Invalid {
  line: string;
  span: [number, number];
}
const cases = JSON.parse(readFileSync(join(__dirname, '../fixtures/assertions/syntax.json'), 'utf8')) as {
  valid: Valid[];
  invalid: Invalid[];
};

function segmentOf(s: JsonPathSegment): (string | number)[] {
  return s.kind === 'name' ? ['name', s.name] : s.kind === 'index' ? ['index', s.index] : [s.kind];
}

test('assertion lines read as the contract writes them (fixtures/assertions/syntax.json)', () => {
  for (const c of cases.valid) {
    const base = 100;
    const read = parseAssertion(c.line, base);
    assert.ok(read.assertion, `${c.line}: ${read.problem?.message}`);
    const a = read.assertion;
    assert.equal(a.field.kind, c.field, c.line);
    if (a.field.kind === 'header') {
      assert.equal(a.field.name, c.header, c.line);
      assert.equal(c.line.slice(a.field.nameSpan.start - base, a.field.nameSpan.end - base), c.header);
    }
    if (a.field.kind === 'body') assert.deepEqual(a.field.path?.segments.map(segmentOf), c.path, c.line);
    assert.equal(a.operator, c.operator, c.line);
    assert.equal(c.line.slice(a.operatorSpan.start - base, a.operatorSpan.end - base), c.operator);
    assert.equal(a.expected?.text, c.expected, c.line);
    assert.equal(a.expected?.quoted ?? false, c.quoted ?? false, c.line);
    if (a.expected) assert.equal(c.line.slice(a.expected.start - base, a.expected.end - base), a.expected.raw);
    assert.equal(c.line.slice(a.start - base, a.end - base), c.line.trim());
    assert.ok(isAssertionLine(c.line));
  }
});

test('lines that cannot be read are problems at the part at fault', () => {
  for (const c of cases.invalid) {
    const read = parseAssertion(c.line, 7);
    assert.ok(read.problem, `${c.line} should not read`);
    assert.deepEqual([read.problem.start - 7, read.problem.end - 7], c.span, c.line);
  }
});

test('parseAssertion never throws, and its spans stay inside the line', () => {
  const piece = fc.constantFrom(
    '??',
    ' ',
    'status',
    'body',
    'header',
    '$',
    '.',
    '[',
    ']',
    '*',
    "'",
    '"',
    '0',
    '==',
    'matches',
    '(',
    '/',
    'exists',
    'x',
    '{{',
    '}}',
    '\t',
    '__proto__',
  );
  fc.assert(
    fc.property(fc.array(piece, { maxLength: 14 }), fc.string({ maxLength: 6 }), (parts, tail) => {
      const line = `??${parts.join('')}${tail}`;
      const read = parseAssertion(line, 0);
      const span = read.assertion ?? read.problem;
      assert.ok(span.start >= 0 && span.start <= span.end && span.end <= line.length + 1, line);
    }),
    { numRuns: Number(process.env.LPREQ_FUZZ_RUNS ?? 2000) },
  );
});

test('EXPECTED of matches is /pattern/flags or a bare pattern; contains is includes', () => {
  assert.equal(expectedRegExp('/^week \\d+$/i')?.test('Week 5'), true);
  assert.equal(expectedRegExp('^Week')?.test('Week 5'), true);
  assert.equal(expectedRegExp('/(unclosed/'), undefined);
  assert.equal(canonicalOperator('contains'), 'includes');
  assert.equal(canonicalOperator('=='), '==');
});
