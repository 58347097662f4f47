/**
 * Assertions against responses, as data (fixtures/assertions/evaluation.json): every operator
 * of LPREQ-FORMAT section 6 against every JSON type a field can hold (and nothing selected),
 * selections of several values and of none, integers beyond 2^53, dates by their documented
 * type, headers, the whole body; and no case shows a secret of its response.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { bundledCatalog } from '../../server/src/catalogData';
import { canonicalOperator, parseAssertion, type Assertion } from '../../server/src/core/index';
import { exactIntegers } from '../../server/src/sender/exactNumbers';
import { evaluateAssertion, type ResponseFacts } from '../../server/src/sender/runner/evaluate';
import { evaluateWithinBudget, stopRegexWorker } from '../../server/src/sender/runner/regexBudget';
import { documentedTypes } from '../../server/src/sender/runner/runner';
import { selectValues } from '../../server/src/sender/runner/select';

interface FixtureResponse {
  resource: string | null;
  status: number | null;
  durationMs: number;
  headers: Record<string, string>;
  bodyText: string;
  /** Given only for a binary body (a file download): otherwise it follows from the text. */
  bodyKind?: 'binary';
  secrets?: string[];
}
interface Case {
  r: string;
  a: string;
  passed: boolean;
  /** JSON text, or null for nothing selected; absent: not compared. */
  actual?: string | null;
  /** EXPECTED as resolved from its variables. */
  expected?: string;
}
const fixture = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', 'fixtures', 'assertions', 'evaluation.json'), 'utf8'),
) as {
  responses: Record<string, FixtureResponse>;
  cases: Case[];
};

function facts(r: FixtureResponse): ResponseFacts {
  if (r.bodyKind === 'binary')
    return {
      status: r.status,
      durationMs: r.durationMs,
      headers: r.headers,
      body: null,
      bodyText: '',
      bodyKind: 'binary',
    };
  if (r.bodyText.length === 0)
    return {
      status: r.status,
      durationMs: r.durationMs,
      headers: r.headers,
      body: null,
      bodyText: '',
      bodyKind: 'empty',
    };
  try {
    const body = JSON.parse(r.bodyText) as unknown;
    return {
      status: r.status,
      durationMs: r.durationMs,
      headers: r.headers,
      body,
      bodyText: r.bodyText,
      bodyKind: 'json',
      exactNumbers: exactIntegers(r.bodyText),
    };
  } catch {
    return {
      status: r.status,
      durationMs: r.durationMs,
      headers: r.headers,
      body: r.bodyText,
      bodyText: r.bodyText,
      bodyKind: 'text',
    };
  }
}

function read(line: string): Assertion {
  const parsed = parseAssertion(line);
  assert.ok(parsed.assertion, `${line}: ${parsed.problem?.message}`);
  return parsed.assertion;
}

const catalog = bundledCatalog();

after(() => stopRegexWorker());

/** As the runner evaluates: `matches` decided off this thread first. */
function evaluate(c: Case) {
  const r = fixture.responses[c.r];
  assert.ok(r, `no response ${c.r}`);
  const a = read(c.a);
  return evaluateWithinBudget(a, facts(r), c.expected ?? a.expected?.text, {
    documentedType: documentedTypes(catalog, r.resource),
    secrets: r.secrets,
  });
}

test('each assertion of the table holds or not as the table says, and shows the actual value it says', async () => {
  const wrong: string[] = [];
  for (const c of fixture.cases) {
    const out = await evaluate(c);
    if (out.passed !== c.passed)
      wrong.push(
        `${c.r}: ${c.a}: ${out.passed ? 'holds' : 'does not hold'} (${out.message}), the table says ${c.passed ? 'holds' : 'does not'}`,
      );
    if (c.actual !== undefined && out.actual !== c.actual)
      wrong.push(`${c.r}: ${c.a}: actual ${String(out.actual)}, the table says ${String(c.actual)}`);
    assert.ok(out.message.length > 0, `${c.a}: a message`);
  }
  assert.deepEqual(wrong, []);
});

/** The JSON type of what a field selects first, as the table covers it. */
function typeOf(c: Case): string {
  const r = fixture.responses[c.r];
  const a = read(c.a);
  const f = facts(r);
  if (r.status === null) return 'no response';
  let value: unknown;
  if (a.field.kind === 'status') value = r.status;
  else if (a.field.kind === 'duration') value = r.durationMs;
  else if (a.field.kind === 'header')
    value = Object.entries(r.headers).find(([k]) => k === (a.field as { name: string }).name.toLowerCase())?.[1];
  else if (!a.field.path) value = f.bodyKind === 'empty' ? undefined : f.bodyText;
  else if (f.bodyKind !== 'json') value = undefined;
  else value = selectValues(f.body, a.field.path.segments)[0]?.value;
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

test('the table covers every operator against every JSON type and against nothing selected', () => {
  const operators = [
    '==',
    '!=',
    '<',
    '<=',
    '>',
    '>=',
    'includes',
    'startsWith',
    'endsWith',
    'matches',
    'exists',
    '!exists',
    'isNumber',
    'isString',
    'isBoolean',
    'isArray',
    'isNull',
  ];
  const types = ['number', 'string', 'boolean', 'null', 'array', 'object', 'nothing'];
  const covered = new Set<string>();
  for (const c of fixture.cases) covered.add(`${canonicalOperator(read(c.a).operator)} ${typeOf(c)}`);
  const missing = operators.flatMap((op) => types.map((t) => `${op} ${t}`)).filter((k) => !covered.has(k));
  assert.deepEqual(missing, []);
  // `contains` is `includes`, and both are in the table under their own names.
  assert.ok(fixture.cases.some((c) => read(c.a).operator === 'contains'));
  // Selections of several values, and paths that select nothing, are in it both ways.
  const several = fixture.cases.filter((c) => c.a.includes('[*]') || c.a.includes('.*'));
  assert.ok(several.some((c) => c.passed) && several.some((c) => !c.passed));
});

test('no result shows a secret of its response, in any of the ways the server wrote it', async () => {
  for (const c of fixture.cases) {
    const r = fixture.responses[c.r];
    for (const secret of r.secrets ?? []) {
      const out = await evaluate(c);
      assert.ok(!(out.actual ?? '').includes(secret), `${c.a}: actual ${String(out.actual)}`);
      assert.ok(!out.message.includes(secret), `${c.a}: message ${out.message}`);
      assert.ok(
        !(out.actual ?? '').includes(secret.slice(0, 8)),
        `${c.a}: the start of the secret in ${String(out.actual)}`,
      );
    }
  }
});

test('a long value is cut short in what a result shows, never the cut of a secret', () => {
  const secret = 'tok-0123456789abcdefghijklmnopqrstuvwxyz';
  for (let cut = 150; cut < 260; cut += 3) {
    const body = JSON.stringify({ note: `${'x'.repeat(cut)}${secret}${'y'.repeat(400)}` });
    const out = evaluateAssertion(
      read('?? body $.note startsWith x'),
      { status: 200, durationMs: 1, headers: {}, body: JSON.parse(body) as unknown, bodyText: body, bodyKind: 'json' },
      'x',
      { secrets: [secret] },
    );
    assert.equal(out.passed, true);
    assert.ok(out.actual !== null && out.actual.length <= 203, out.actual ?? '');
    assert.ok(out.actual.endsWith('...'));
    for (let n = 4; n <= secret.length; n++)
      assert.ok(!out.actual.includes(secret.slice(0, n)), `cut at ${cut}: ${out.actual}`);
  }
});
