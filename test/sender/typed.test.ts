/** Typed responses: bodies against the documented resources (checkResponse, describeAt). */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { bundledCatalog } from '../../server/src/catalogData';
import { EndpointMatcher, targetPath } from '../../server/src/core/index';
import { checkResponse, describeAt, parseJsonPath } from '../../server/src/sender/typed';
import { endpointFacts } from '../../server/src/sender/prepare';
import { SHARED } from '../helpers';

const catalog = bundledCatalog();

/** One case: a body against a documented type, and the issues expected as `path code`. */
function check(returns: string | null, body: unknown, expected: string[]) {
  const result = checkResponse(catalog, returns, body);
  assert.deepEqual(
    result.issues.map((i) => `${i.path} ${i.code}`).sort(),
    [...expected].sort(),
    JSON.stringify(result.issues, null, 1),
  );
  for (const i of result.issues) assert.ok(i.message.length > 0);
  return result;
}

const module = {
  id: 1,
  workflow_state: 'active',
  position: 1,
  name: 'Week 1',
  unlock_at: '2026-09-14T08:00:00+02:00',
  require_sequential_progress: false,
  prerequisite_module_ids: [],
  items_count: 2,
  items_url: 'https://lms/api/v1/courses/1/modules/1/items',
  items: null,
  state: 'locked',
  completed_at: null,
  publish_final_grade: null,
  published: true,
};

const cases: [string, string | null, unknown, string[]][] = [
  ['a full Module from the docs fields', 'Module', module, []],
  ['a partial Module is normal', 'Module', { id: 1, name: 'x' }, []],
  [
    'Module[] with a string count',
    'Module[]',
    [module, { ...module, items_count: '2' }],
    ['$[1].items_count type-mismatch'],
  ],
  ['an undocumented field', 'Module', { id: 1, colour: 'red' }, ['$.colour undocumented-field']],
  ['a value outside the enum', 'Module', { workflow_state: 'archived' }, ['$.workflow_state unknown-enum-value']],
  ['null where the docs do not allow it', 'Module', { name: null }, ['$.name type-mismatch']],
  ['null where the docs say "or null"', 'Module', { completed_at: null, items: null }, []],
  ['a malformed timestamp', 'Module', { unlock_at: '2026-13-01T00:00:00Z' }, ['$.unlock_at type-mismatch']],
  [
    'timestamps with offsets and fractions',
    'Module',
    { unlock_at: '2026-09-14T08:00:00.123-06:00', completed_at: '2026-09-14T08:00:00Z' },
    [],
  ],
  ['a float where an integer is documented', 'Module', { position: 1.5 }, ['$.position type-mismatch']],
  [
    'nested items',
    'Module',
    { items: [{ id: 1, type: 'Video', completion_requirement: { type: 'must_view', extra: 1 } }] },
    ['$.items[0].type unknown-enum-value', '$.items[0].completion_requirement.extra undocumented-field'],
  ],
  ['an array where an object is documented', 'Module', [module], ['$ type-mismatch']],
  ['an object where an array is documented', 'Module[]', module, ['$ type-mismatch']],
  [
    'a wrapper resource',
    'QuizSubmissionList',
    { quiz_submissions: [{ id: 1, workflow_state: 'complete' }, { id: 'x' }] },
    ['$.quiz_submissions[1].id type-mismatch'],
  ],
  [
    'grading periods wrapper',
    'GradingPeriodList',
    { grading_periods: [{ id: 1, title: 'Q1', start_date: '2026-01-01T00:00:00Z' }] },
    [],
  ],
  [
    'a map with a value type',
    'Role',
    { label: 'TA', permissions: { manage_files: { enabled: true, locked: false }, read_sis: { enabled: 'yes' } } },
    ['$.permissions.read_sis.enabled type-mismatch'],
  ],
  ['external resources as they come', 'User[]', [{ id: 1, anything: true }, { id: 2 }], []],
  ['an external resource must be an object', 'Group[]', [1], ['$[0] type-mismatch']],
  [
    'grouped submissions pick the group form',
    'Submission[]|StudentSubmissionGroup[]',
    [{ user_id: 1, submissions: [{ assignment_id: 2, score: 3 }] }],
    [],
  ],
  [
    'plain submissions pick the Submission form',
    'Submission[]|StudentSubmissionGroup[]',
    [{ assignment_id: 2, user_id: 1, score: 3 }],
    [],
  ],
  ['no documented resource', null, { anything: 1 }, []],
  ['an unknown type name is accepted', 'NoSuchThing', { a: 1 }, []],
  ['a string body where JSON was documented', 'Module', 'oops', ['$ type-mismatch']],
  ['odd keys are quoted in paths', 'Module', { 'odd key': 1 }, ['$["odd key"] undocumented-field']],
];

for (const [title, returns, body, expected] of cases) {
  test(`checkResponse: ${title}`, () => {
    const result = check(returns, body, expected);
    assert.equal(result.resource, returns);
  });
}

test('checkResponse: a value of the wrong type is a type-mismatch at its path, whose message names the value', () => {
  const issues = checkResponse(catalog, 'Module', { items_count: '2' }).issues;
  assert.deepEqual(
    issues.map((i) => [i.code, i.path]),
    [['type-mismatch', '$.items_count']],
  );
  assert.ok(issues[0].message.includes('"2"'), issues[0].message);
});

test('checkResponse never throws on strange bodies, and says what is wrong with each', () => {
  let deep: unknown = 1;
  for (let i = 0; i < 5000; i++) deep = { items: [deep] };
  const OBJECTS = ['Module', 'Role', 'CourseEventCompoundDocument'];
  const ARRAYS = ['Module[]', 'Submission[]|StudentSubmissionGroup[]'];
  const issues = (returns: string, body: unknown) =>
    checkResponse(catalog, returns, body).issues.map((i) => `${i.path} ${i.code}`);
  for (const body of [undefined, null, 0, '', [], {}, [[[]]], { __proto__: { x: 1 } }, deep, Symbol.for('x')]) {
    for (const returns of [...OBJECTS, ...ARRAYS]) assert.doesNotThrow(() => checkResponse(catalog, returns, body));
    // Anything is what `any` and a type string of no type say.
    for (const returns of ['any', '|']) assert.deepEqual(issues(returns, body), [], `${returns}: ${String(body)}`);
  }
  for (const returns of [...OBJECTS, ...ARRAYS]) {
    for (const scalar of [undefined, null, 0, '', Symbol.for('x')])
      assert.deepEqual(issues(returns, scalar), ['$ type-mismatch'], `${returns}: ${String(scalar)}`);
  }
  for (const returns of OBJECTS) {
    assert.deepEqual(issues(returns, []), ['$ type-mismatch'], returns);
    assert.deepEqual(issues(returns, {}), [], returns);
  }
  for (const returns of ARRAYS) {
    assert.deepEqual(issues(returns, {}), ['$ type-mismatch'], returns);
    assert.deepEqual(issues(returns, []), [], returns);
    assert.deepEqual(issues(returns, [[[]]]), ['$[0] type-mismatch'], returns);
    assert.deepEqual(issues(returns, deep), ['$ type-mismatch'], returns);
  }
  // Deeply nested: the first key the resource does not document, however deep the rest goes.
  assert.deepEqual(issues('Module', deep), ['$.items[0].items undocumented-field']);
  assert.deepEqual(issues('Role', deep), ['$.items undocumented-field']);
});

test('the schemas are built once per catalog', () => {
  // A catalog that counts how often its resources are read: only building a schema reads them.
  const counted = (reads: { n: number }) =>
    Object.create(catalog, {
      resources: { get: () => (reads.n++, catalog.resources) },
      externalResources: { get: () => (reads.n++, catalog.externalResources) },
    }) as typeof catalog;
  const reads = { n: 0 };
  const one = counted(reads);
  assert.deepEqual(checkResponse(one, 'Module[]', [module, module]).issues, []);
  const built = reads.n;
  assert.ok(built > 0);
  for (let i = 0; i < 200; i++) checkResponse(one, 'Module[]', [module, { ...module, items_count: 'x' }]);
  assert.equal(reads.n, built, 'checking again builds nothing');
  // Another catalog gets schemas of its own.
  const otherReads = { n: 0 };
  checkResponse(counted(otherReads), 'Module[]', [module]);
  assert.equal(otherReads.n, built);
});

test('the real-world exchanges: never a throw, and only the real differences', () => {
  const exchanges = JSON.parse(readFileSync(join(SHARED, 'real-world', 'canvasapi-exchanges.json'), 'utf8')) as {
    id: string;
    method: string;
    path: string;
    body: unknown;
  }[];
  const expected = JSON.parse(readFileSync(join(import.meta.dirname, 'real-world-issues.json'), 'utf8')) as Record<
    string,
    string[]
  >;
  const matcher = new EndpointMatcher(catalog);
  const actual: Record<string, string[]> = {};
  const named: Record<string, string | null> = {};
  for (const e of exchanges) {
    const path = targetPath(e.path, () => undefined);
    assert.ok(path);
    const match = matcher.match(path, e.method);
    // The fixtures do not record their queries; the two grouped bodies were answers to grouped=true (real-world/README.md).
    const query = e.id.endsWith('#list_multiple_submissions_grouped') ? '?grouped=true' : '';
    const { returns } = endpointFacts(match.kind === 'matched' ? match.endpoint : undefined, {
      url: `https://lms.example.edu${e.path}${query}`,
    });
    const result = checkResponse(catalog, returns, e.body);
    named[e.id] = result.resource;
    if (result.issues.length > 0) actual[e.id] = result.issues.map((i) => `${i.path} ${i.code}`);
  }
  // Named by what the request chose, and by what the docs say the audit log returns (issue 30).
  assert.equal(named['course.json#list_multiple_submissions'], 'Submission[]');
  assert.equal(named['course.json#list_multiple_submissions_grouped'], 'StudentSubmissionGroup[]');
  assert.equal(named['section.json#list_multiple_submissions_grouped'], 'StudentSubmissionGroup[]');
  assert.equal(named['course.json#query_audit_by_course'], 'CourseEventCompoundDocument');
  assert.equal(exchanges.length, 145);
  // The pinned differences were read against documents A, B and C one by one: `id` on
  // Role and Submission (not documented), `versions: null`, string ids in rollup links,
  // grader assignments as objects, a "9999-99-99T59:59:59Z" timestamp, bodies of another shape.
  assert.deepEqual(actual, expected);
  // Partial objects and timestamps with offsets are not differences.
  assert.ok(Object.keys(actual).length < 40);
});

test('describeAt: the documented type and note at a path', () => {
  assert.deepEqual(describeAt(catalog, 'Module[]', '$[0].items_count'), { type: 'integer', resource: 'Module' });
  const state = describeAt(catalog, 'Module[]', '$[3].state');
  assert.equal(state?.type, 'string');
  assert.ok(state?.enum?.includes('locked'));
  assert.ok(state?.optional);
  const items = describeAt(catalog, 'Module', '$.items[2].completion_requirement.type');
  assert.equal(items?.resource, 'CompletionRequirement');
  assert.equal(describeAt(catalog, 'QuizSubmissionList', '$.quiz_submissions[0].id')?.type, 'integer');
  assert.equal(describeAt(catalog, 'Role', '$.permissions.manage_files.enabled')?.type, 'boolean');
  assert.equal(describeAt(catalog, 'Module', '$')?.type, 'Module');
  assert.ok(describeAt(catalog, 'Module', '$')?.description);
  assert.equal(describeAt(catalog, 'Module', '$.nope'), undefined);
  assert.equal(describeAt(catalog, null, '$'), undefined);
  assert.equal(describeAt(catalog, 'Module', 'not a path'), undefined);
  assert.equal(
    describeAt(catalog, 'Submission[]|StudentSubmissionGroup[]', '$[0].submissions[0].score')?.type,
    'number',
  );
});

test('parseJsonPath', () => {
  assert.deepEqual(parseJsonPath('$'), []);
  assert.deepEqual(parseJsonPath('$.items[2].title'), ['items', 2, 'title']);
  assert.deepEqual(parseJsonPath('$["odd key"][0]'), ['odd key', 0]);
  assert.deepEqual(parseJsonPath("$['k'].a"), ['k', 'a']);
  assert.equal(parseJsonPath('items'), undefined);
  assert.equal(parseJsonPath('$[x]'), undefined);
});

test('keys and values named like Object.prototype members are checked as any other (issue 17)', () => {
  const catalog = bundledCatalog();
  // JSON.parse makes `__proto__` an own key, as a server's body has it.
  const body = JSON.parse(
    '{"id": 1, "name": "x", "constructor": 1, "__proto__": {"a": 1}, "toString": "y", "workflow_state": "valueOf", "items": [{"id": 2, "type": "constructor", "hasOwnProperty": 1}]}',
  ) as unknown;
  const { issues } = checkResponse(catalog, 'Module', body);
  assert.deepEqual(issues.map((i) => `${i.path} ${i.code}`).sort(), [
    '$.__proto__ undocumented-field',
    '$.constructor undocumented-field',
    '$.items[0].hasOwnProperty undocumented-field',
    '$.items[0].type unknown-enum-value',
    '$.toString undocumented-field',
    '$.workflow_state unknown-enum-value',
  ]);
  for (const name of Object.getOwnPropertyNames(Object.prototype)) {
    assert.equal(describeAt(catalog, 'Module', `$.${name}`), undefined, name);
    assert.equal(describeAt(catalog, 'Module[]', `$[0].items[0].${name}`), undefined, name);
  }
});

test('a union the request decides is named by the request: grouped (issue 30)', () => {
  const endpoint = catalog.endpointById.get('submissions.list_for_students');
  assert.ok(endpoint);
  const named = (url: string, form?: string) => endpointFacts(endpoint, { url, form }).returns;
  const base = 'https://lms.example.edu/api/v1/courses/42/students/submissions';
  assert.equal(named(base), 'Submission[]');
  assert.equal(named(`${base}?student_ids[]=all&grouped=true`), 'StudentSubmissionGroup[]');
  // "when present": the real LMS groups for any value it is given.
  assert.equal(named(`${base}?grouped=1`), 'StudentSubmissionGroup[]');
  assert.equal(named(base, 'grouped=true'), 'StudentSubmissionGroup[]');
  assert.equal(endpointFacts(endpoint).returns, 'Submission[]', 'nothing sent: the flat array');
  assert.equal(endpointFacts(catalog.endpointById.get('modules.list'), { url: base }).returns, 'Module[]');
});
