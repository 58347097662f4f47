import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers';
import { fuzzRuns } from '../fuzzRuns';
import { snippetToPlain } from '../../server/src/lsp/toProto';
import { expandSnippet, serviceDocument, getService } from './helpers';
import { completionsAt, testCompletion } from './service';

const NOW = new Date('2026-03-01T10:00:00Z');
const ENV = {
  environments: { dev: { base_url: 'http://127.0.0.1:4010', token: 'abc', course_id: '42' } },
  selected: 'dev',
  privateNames: { dev: new Set(['token']) },
};

function itemsAt(marked: string) {
  return completionsAt(marked, ENV, { now: NOW });
}

/**
 * Completing `input` with the item labelled `label` gives `expected`, whose `|` is where the
 * cursor ends (snippet placeholders keep their defaults; the cursor at the first tab stop).
 */
function check(input: string, label: string, expected: string) {
  return testCompletion(input, label, expected, ENV, { now: NOW });
}

const ITEMS = 'POST /api/v1/courses/42/modules/7/items\n\n';

const cases: [string, string, string][] = [
  // Methods at the start of a request line.
  ['G|', 'GET', 'GET |'],
  ['### x\nPO|\n', 'POST', '### x\nPOST |\n'],
  // Paths: whole templates with placeholders, segment by segment, literal forms.
  // A placeholder the environment defines (course_id) is filled with its variable; another keeps its name, as a tab stop.
  ['GET |', '/api/v1/courses/{course_id}/modules', 'GET /api/v1/courses/{{course_id}}/modules|'],
  ['GET |', '/api/v1/courses/{course_id}/modules/{id}', 'GET /api/v1/courses/{{course_id}}/modules/|{id}'],
  ['GET |', '/api/v1/users/{user_id}/files/quota', 'GET /api/v1/users/|{user_id}/files/quota'],
  [
    '@user_id = self\nGET |',
    '/api/v1/users/{user_id}/files/quota',
    '@user_id = self\nGET /api/v1/users/{{user_id}}/files/quota|',
  ],
  ['GET /api/v1/cou|', 'courses/', 'GET /api/v1/courses/|'],
  ['GET /api/v1/courses/42/mo|', 'modules/', 'GET /api/v1/courses/42/modules/|'],
  ['GET /api/v1/courses/42/mo|', 'modules/{module_id}/items', 'GET /api/v1/courses/42/modules/|{module_id}/items'],
  ['GET {{base_url}}/api/v1/courses/42/|', 'files/quota', 'GET {{base_url}}/api/v1/courses/42/files/quota|'],
  ['GET /api/v1/users/|', 'self', 'GET /api/v1/users/self|'],
  ['GET /api/v1/courses/|', 'sis_course_id:', 'GET /api/v1/courses/sis_course_id:|'],
  ['GET /api/v1/courses/|', '{{course_id}}', 'GET /api/v1/courses/{{course_id}}|'],
  // On the blank line that ends the headers, a parameter goes below it: the blank line stays.
  [
    'POST /api/v1/courses/42/modules\nAccept: application/json\n|',
    'module[name]',
    'POST /api/v1/courses/42/modules\nAccept: application/json\n\nmodule[name] = |',
  ],
  [
    'POST /api/v1/courses/42/modules\n|\nmodule[position] = 1\n',
    'module[name]',
    'POST /api/v1/courses/42/modules\n\nmodule[name] = |\nmodule[position] = 1\n',
  ],
  // Parameter names: full names, bracket levels, patterns with their values as choices.
  [`${ITEMS}mod|`, 'module_item[type]', `${ITEMS}module_item[type] = |`],
  [`${ITEMS}module_item[|`, 'module_item[type]', `${ITEMS}module_item[type] = |`],
  [`${ITEMS}module_item[|]`, 'module_item[title]', `${ITEMS}module_item[title] = |`],
  [`${ITEMS}module_item[|`, 'module_item[completion_requirement][', `${ITEMS}module_item[completion_requirement][|`],
  [
    `${ITEMS}module_item[completion_requirement][|`,
    'module_item[completion_requirement][type]',
    `${ITEMS}module_item[completion_requirement][type] = |`,
  ],
  [
    'PUT /api/v1/accounts/1/roles/3\n\nperm|',
    'permissions[{X}][enabled]',
    'PUT /api/v1/accounts/1/roles/3\n\npermissions[|become_user][enabled] = ',
  ],
  [
    'PUT /api/v1/accounts/1/roles/3\n\npermissions[|',
    'permissions[manage_courses][',
    'PUT /api/v1/accounts/1/roles/3\n\npermissions[manage_courses][|',
  ],
  ['GET /api/v1/courses/1/files?so|', 'sort', 'GET /api/v1/courses/1/files?sort=|'],
  ['GET /api/v1/courses/1/files?sort=size&or|', 'order', 'GET /api/v1/courses/1/files?sort=size&order=|'],
  ['GET /api/v1/courses/1/files\n  &or|', 'order', 'GET /api/v1/courses/1/files\n  &order=|'],
  // Values: enums, booleans, dates, context codes.
  [`${ITEMS}module_item[type] = |`, 'Assignment', `${ITEMS}module_item[type] = Assignment|`],
  [`${ITEMS}module_item[type] = Assig|`, 'Assignment', `${ITEMS}module_item[type] = Assignment|`],
  [`${ITEMS}module_item[new_tab] = |`, 'true', `${ITEMS}module_item[new_tab] = true|`],
  ['GET /api/v1/courses/1/files?sort=|', 'size', 'GET /api/v1/courses/1/files?sort=size|'],
  // Variables, named requests and system variables.
  ['@host = x\nGET {{|', 'host', '@host = x\nGET {{host}}|'],
  ['GET {{ba|}}/api/v1/courses', 'base_url', 'GET {{base_url}}|/api/v1/courses'],
  [
    '# @name make\nPOST /api/v1/courses/1/modules\n\n###\nGET /api/v1/courses/1/modules/{{|',
    'make.response.body.$.',
    '# @name make\nPOST /api/v1/courses/1/modules\n\n###\nGET /api/v1/courses/1/modules/{{make.response.body.$.|}}',
  ],
  ['GET /x?a={{$g|', '$guid', 'GET /x?a={{$guid}}|'],
  // A request's own prompt variables, and names a JetBrains script sets.
  [
    '# @prompt course_id The course\nGET /api/v1/courses/{{cou|',
    'course_id',
    '# @prompt course_id The course\nGET /api/v1/courses/{{course_id}}|',
  ],
  [
    'GET /api/v1/courses\n\n> {% client.global.set("picked", response.body[0].id); %}\n###\nGET /api/v1/courses/{{pi|',
    'picked',
    'GET /api/v1/courses\n\n> {% client.global.set("picked", response.body[0].id); %}\n###\nGET /api/v1/courses/{{picked}}|',
  ],
  // Request metadata above the request line.
  ['# @na|\nGET /api/v1/courses', '@name', '# @name |request\nGET /api/v1/courses'],
  ['// @|\nGET /api/v1/courses', '@no-redirect', '// @no-redirect|\nGET /api/v1/courses'],
  ['# @pro|mpt\nGET /api/v1/courses', '@prompt', '# @prompt |variable What to ask\nGET /api/v1/courses'],
  ['# @snap|\nGET /api/v1/courses', '@snapshot', '# @snapshot|\nGET /api/v1/courses'],
  // A # @snapshot line: its options, then the paths of the documented response.
  ['# @snapshot |\nGET /api/v1/courses/1/modules', 'ignore=', '# @snapshot ignore=$|\nGET /api/v1/courses/1/modules'],
  [
    '# @snapshot ignore=$|\nGET /api/v1/courses/1/modules',
    '[*]',
    '# @snapshot ignore=$[*]|\nGET /api/v1/courses/1/modules',
  ],
  [
    '# @snapshot ignore=$[*].items_count,$[*].up|\nGET /api/v1/courses/1/modules',
    'unlock_at',
    '# @snapshot ignore=$[*].items_count,$[*].unlock_at|\nGET /api/v1/courses/1/modules',
  ],
  [
    '# @snapshot exact=$.i|\nGET /api/v1/courses/1/modules/2',
    'id',
    '# @snapshot exact=$.id|\nGET /api/v1/courses/1/modules/2',
  ],
  // Headers and their values.
  ['GET /api/v1/courses/1/files\nAcc|', 'Accept', 'GET /api/v1/courses/1/files\nAccept: |'],
  [
    'GET /api/v1/courses/1/files\nAuthorization: |',
    'Bearer {{token}}',
    'GET /api/v1/courses/1/files\nAuthorization: Bearer {{token}}|',
  ],
  [
    'GET /api/v1/courses/1/files\nContent-Type: |',
    'application/json',
    'GET /api/v1/courses/1/files\nContent-Type: application/json|',
  ],
];

const MODULE = 'GET /api/v1/courses/42/modules/7\n';
const MODULES = 'GET /api/v1/courses/42/modules\n';

/** Assertion lines (LPREQ-FORMAT section 6): fields, header names, operators, path segments from the documented resource, EXPECTED. */
const assertionCases: [string, string, string][] = [
  // The field after `?? ` (or right after `??`), then an operator.
  [`${MODULE}?? |`, 'status', `${MODULE}?? status |`],
  [`${MODULE}??|`, 'body', `${MODULE}?? body |`],
  [`${MODULE}?? dur|`, 'duration', `${MODULE}?? duration |`],
  [`${MODULE}?? sta|tus == 200`, 'status', `${MODULE}?? status | == 200`],
  [`${MODULE}?? status |`, '==', `${MODULE}?? status == |`],
  [`${MODULE}?? duration |`, '<', `${MODULE}?? duration < |`],
  [`${MODULE}?? status == |`, '200', `${MODULE}?? status == 200|`],
  // Header names after `header `, then the operators of a text.
  [`${MODULE}?? header |`, 'content-type', `${MODULE}?? header content-type |`],
  [`${MODULES}?? header li|`, 'link', `${MODULES}?? header link |`],
  [`${MODULE}?? header content-type |`, 'includes', `${MODULE}?? header content-type includes |`],
  // JSONPath segments from the documented resource: Module's fields, a list's elements, nested resources.
  [`${MODULE}?? body $.|`, 'workflow_state', `${MODULE}?? body $.workflow_state|`],
  [`${MODULE}?? body $.na|`, 'name', `${MODULE}?? body $.name|`],
  [`${MODULE}?? body $.na|me == x`, 'position', `${MODULE}?? body $.position| == x`],
  [`${MODULE}?? body $|`, '.items_count', `${MODULE}?? body $.items_count|`],
  [`${MODULE}?? body |`, '.name', `${MODULE}?? body $.name|`],
  [`${MODULE}?? body $['|`, "['published']", `${MODULE}?? body $['published']|`],
  [`${MODULES}?? body $|`, '[*]', `${MODULES}?? body $[*]|`],
  [`${MODULES}?? body $.|`, '[0]', `${MODULES}?? body $[0]|`],
  [`${MODULES}?? body $[|`, '[*]', `${MODULES}?? body $[*]|`],
  [`${MODULES}?? body $[*].|`, 'items', `${MODULES}?? body $[*].items|`],
  [
    `${MODULES}?? body $[*].items[0].|`,
    'completion_requirement',
    `${MODULES}?? body $[*].items[0].completion_requirement|`,
  ],
  [
    `${MODULES}?? body $[0].items[0].completion_requirement.|`,
    'min_score',
    `${MODULES}?? body $[0].items[0].completion_requirement.min_score|`,
  ],
  // A map: any key, its values' fields; a wrapper resource.
  [
    'GET /api/v1/accounts/1/roles/3\n?? body $.permissions.manage_courses.|',
    'enabled',
    'GET /api/v1/accounts/1/roles/3\n?? body $.permissions.manage_courses.enabled|',
  ],
  [
    'GET /api/v1/courses/1/quizzes/2/submissions\n?? body $.|',
    'quiz_submissions',
    'GET /api/v1/courses/1/quizzes/2/submissions\n?? body $.quiz_submissions|',
  ],
  // Operators after a path; EXPECTED: enum values, booleans, null where the docs allow it.
  [`${MODULE}?? body $.position |`, '>=', `${MODULE}?? body $.position >= |`],
  [`${MODULE}?? body $.workflow_state |`, '!=', `${MODULE}?? body $.workflow_state != |`],
  [`${MODULE}?? body $.workflow_state == |`, 'deleted', `${MODULE}?? body $.workflow_state == deleted|`],
  [`${MODULE}?? body $.workflow_state == ac|`, 'active', `${MODULE}?? body $.workflow_state == active|`],
  [`${MODULE}?? body $.published == |`, 'false', `${MODULE}?? body $.published == false|`],
  [`${MODULE}?? body $.publish_final_grade != |`, 'null', `${MODULE}?? body $.publish_final_grade != null|`],
  [
    `${MODULES}?? body $[*].items[*].type == |`,
    'ExternalTool',
    `${MODULES}?? body $[*].items[*].type == ExternalTool|`,
  ],
  // Variables in EXPECTED.
  [
    '@state = active\nGET /api/v1/courses/42/modules/7\n?? body $.workflow_state == {{st|',
    'state',
    '@state = active\nGET /api/v1/courses/42/modules/7\n?? body $.workflow_state == {{state}}|',
  ],
  // An assertion inside a JSON body is an assertion, not JSON.
  [
    'PUT /api/v1/courses/1/quizzes/2/submissions/3\n\n{"quiz_submissions": [\n?? body $.quiz_submissions[0].|\n]}',
    'attempt',
    'PUT /api/v1/courses/1/quizzes/2/submissions/3\n\n{"quiz_submissions": [\n?? body $.quiz_submissions[0].attempt|\n]}',
  ],
];

for (const [input, label, expected] of assertionCases) {
  test(`completion on an assertion line: ${JSON.stringify(input.slice(input.indexOf('\n') + 1))} -> ${label}`, () => {
    check(input, label, expected);
  });
}

test('completion on an assertion line: fields carry their types as detail and their documentation', () => {
  const items = itemsAt(`${MODULE}?? body $.|`).items;
  const detail = (label: string) => items.find((i) => i.label === label)?.detail;
  assert.equal(detail('position'), 'integer');
  assert.equal(detail('items'), 'ModuleItem[] or null');
  assert.equal(detail('completed_at'), 'DateTime or null');
  assert.match(items.find((i) => i.label === 'items')?.documentation ?? '', /not considered too large/);
  assert.deepEqual(
    itemsAt(`${MODULES}?? body $[*].|`)
      .items.map((i) => i.label)
      .slice(0, 3),
    ['id', 'workflow_state', 'position'],
  );
  // A list has no fields: `$.` offers its elements.
  assert.deepEqual(
    itemsAt(`${MODULES}?? body $.|`).items.map((i) => i.label),
    ['[*]', '[0]'],
  );
  // Enum values with the docs' words for each.
  const state = itemsAt('GET /api/v1/appointment_groups/3\n?? body $.workflow_state == |').items.find(
    (i) => i.label === 'pending',
  );
  assert.match(state?.documentation ?? '', /unpublished and invisible to participants/);
  // The documented statuses of the endpoint, errors with their conditions.
  const statuses = itemsAt('GET /api/v1/courses/42/folders/by_path/a/b\n?? status == |').items;
  assert.deepEqual(
    statuses.map((i) => i.label),
    ['200', '404'],
  );
  assert.match(statuses[1].documentation ?? '', /Not Found/);
});

test('completion on an assertion line: the operators fit the field', () => {
  const labels = (marked: string) => itemsAt(marked).items.map((i) => i.label);
  assert.ok(!labels(`${MODULE}?? body $.name |`).includes('<'), 'no order on a text');
  assert.ok(labels(`${MODULE}?? body $.unlock_at |`).includes('<'), 'an order on a DateTime');
  assert.ok(!labels(`${MODULE}?? header content-type |`).includes('>='), 'no order on a header');
  assert.ok(!labels(`${MODULE}?? body |`).includes('<'), 'no order on the body as text');
  assert.deepEqual(labels(`${MODULE}?? status |`), ['==', '!=', '<', '<=', '>', '>=']);
});

test('completion on an assertion line: nothing the docs do not show, nothing for an undocumented endpoint, no parameters or headers', () => {
  const labels = (marked: string) => itemsAt(marked).items.map((i) => i.label);
  assert.deepEqual(labels('GET /api/v1/courses/42/external_tools/5\n?? body $.custom_fields.|'), []);
  assert.deepEqual(labels('GET /api/v1/appointment_groups/3/users\n?? body $[0].|'), []);
  assert.deepEqual(labels('GET /api/v1/courses/42/modulez\n?? body $.|'), []);
  // On a line of the parameter block or the headers, an assertion line is still an assertion.
  const inBody = labels('POST /api/v1/courses/42/modules\n\nmodule[name] = x\n?? |');
  assert.deepEqual(inBody, ['status', 'body', 'header', 'duration']);
  const inHeaders = labels('GET /api/v1/courses/42/modules\nAccept: application/json\n?? header |');
  assert.ok(inHeaders.includes('content-type') && !inHeaders.includes('Accept'), inHeaders.join(', '));
});

for (const [input, label, expected] of cases) {
  test(`completion: ${JSON.stringify(input)} -> ${label}`, () => {
    check(input, label, expected);
  });
}

test('completion: a prompt variable is offered in its own request only, first, with what it asks', () => {
  const own = itemsAt('# @prompt course_id Which course?\nGET /api/v1/courses/{{|').items;
  const sorted = [...own].sort((a, b) => (a.sortText < b.sortText ? -1 : 1));
  assert.equal(sorted[0].label, 'course_id');
  assert.equal(sorted[0].detail, 'prompt variable');
  assert.match(sorted[0].documentation ?? '', /Which course\?/);
  assert.equal(own.filter((i) => i.label === 'course_id').length, 1, 'the environment course_id is not offered twice');
  const other = itemsAt('# @prompt answer\nGET /api/v1/courses/1\n###\nGET /api/v1/courses/{{|').items;
  assert.ok(!other.some((i) => i.label === 'answer'));
});

test('completion: dates insert a template of the right type', () => {
  // A Date parameter (grading_periods[][start_date]) takes a calendar date, a DateTime one an instant.
  for (const [marked, template] of [
    ['PUT /api/v1/courses/1/grading_periods/5\n\ngrading_periods[][start_date] = |', /^\d{4}-\d{2}-\d{2}$/],
    ['PUT /api/v1/courses/1/modules/2\n\nmodule[unlock_at] = |', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/],
  ] as const) {
    const { items } = itemsAt(marked);
    const date = items.find((i) => i.kind === 'value');
    assert.ok(date, `no value offered at ${JSON.stringify(marked)}; got ${items.map((i) => i.label).join(', ')}`);
    assert.match(expandSnippet(date.insertText), template);
  }
});

test('completion: required parameters sort first and are marked; conditional ones say why', () => {
  const { items } = itemsAt(`${ITEMS}|`);
  const sorted = [...items].sort((a, b) => (a.sortText < b.sortText ? -1 : 1));
  assert.equal(sorted[0].label, 'module_item[type]');
  assert.match(sorted[0].detail ?? '', /Required/);
  const content = items.find((i) => i.label === 'module_item[content_id]');
  assert.match(content?.documentation ?? '', /Required except for ExternalUrl, Page, SubHeader/);
  assert.match(content?.detail ?? '', /conditionally required/);
});

test('completion: names already present are left out, arrays are not', () => {
  const present = itemsAt(`${ITEMS}module_item[type] = Page\n|`).items.map((i) => i.label);
  assert.ok(!present.includes('module_item[type]'));
  const arrays = itemsAt('GET /api/v1/courses/1/modules\n\ninclude[] = items\n|').items.map((i) => i.label);
  assert.ok(arrays.includes('include[]'), arrays.join(', '));
});

test('completion: enum values carry their documentation', () => {
  const item = check(
    'POST /api/v1/courses/42/modules/7/items\n\nmodule_item[completion_requirement][type] = |',
    'must_submit',
    'POST /api/v1/courses/42/modules/7/items\n\nmodule_item[completion_requirement][type] = must_submit',
  );
  assert.match(item.documentation ?? '', /Assignment and Quiz/);
});

test('completion: a private or token variable never shows its value', () => {
  const item = itemsAt('GET {{|').items.find((i) => i.label === 'token');
  assert.ok(item);
  assert.ok(!(item.documentation ?? '').includes('abc'));
  assert.match(item.documentation ?? '', /\(secret\)/);
});

test('completion: nothing inside comments, separators and JSON bodies', () => {
  assert.deepEqual(itemsAt('### ti|tle\nGET /x').items, []);
  assert.deepEqual(itemsAt('# a comm|ent\nGET /x').items, []);
  // A path line of JetBrains' client is not a header line.
  assert.deepEqual(itemsAt('GET /api/v1/courses/1\n    /mod|').items, []);
});

test('completion: {{ leaves out the variable its line defines, the request it stands in and the requests after it', () => {
  const defining = itemsAt('@other = 1\n@x = {{|').items.map((i) => i.label);
  assert.ok(defining.includes('other') && !defining.includes('x'), defining.join(', '));
  const inRequest = itemsAt(
    '# @name first\nGET /api/v1/courses/1/modules\n###\n# @name make\nPOST /api/v1/courses/1/modules/{{|\n###\n# @name later\nGET /api/v1/courses/1/modules\n',
  ).items.map((i) => i.label);
  const offered = (name: string) => inRequest.includes(`${name}.response.body.$.`);
  assert.ok(offered('first') && !offered('make') && !offered('later'), inRequest.join(', '));
});

test('completion: a conditional requirement whose condition holds ranks with the required ones', () => {
  const items = itemsAt('POST /api/v1/courses/42/modules/7/items\n\nmodule_item[type] = Page\n|').items.filter(
    (i) => i.kind === 'parameter',
  );
  const sorted = [...items]
    .sort((a, b) => (a.sortText < b.sortText ? -1 : a.sortText > b.sortText ? 1 : 0))
    .map((i) => i.label);
  assert.equal(sorted[0], 'module_item[page_url]');
  assert.match(items.find((i) => i.label === 'module_item[page_url]')?.detail ?? '', /★ .*Required here/);
  assert.doesNotMatch(items.find((i) => i.label === 'module_item[content_id]')?.detail ?? '', /★/);
});

test('completion inside JSON bodies: the documented shape, a form endpoint by its bracket names, and values', () => {
  const quiz = 'PUT /api/v1/courses/42/quizzes/9/submissions/3\n\n';
  check(`${quiz}|`, 'JSON body', `${quiz}{\n\t"quiz_submissions": [\n\t\t{\n\t\t\t"attempt": \n\t\t}\n\t]\n}`);
  check(`${quiz}{"quiz_submissions": [{"|`, 'attempt', `${quiz}{"quiz_submissions": [{"attempt": `);
  check(`${quiz}{"|`, 'quiz_submissions', `${quiz}{"quiz_submissions": []`);
  const modules = 'POST /api/v1/courses/42/modules\n\n';
  check(`${modules}{"|`, 'module', `${modules}{"module": {}`);
  check(`${modules}{"module": {"name": "x", "|`, 'position', `${modules}{"module": {"name": "x", "position": `);
  const present = itemsAt(`${modules}{"module": {"name": "x", "|`).items.map((i) => i.label);
  assert.ok(!present.includes('name'), present.join(', '));
  check(
    'POST /api/v1/courses/42/modules/7/items\n\n{"module_item": {"type": "|',
    '"Assignment"',
    'POST /api/v1/courses/42/modules/7/items\n\n{"module_item": {"type": "Assignment"',
  );
});

test('completion inside a JSON body: what the request misses as it stands comes first, marked Required here', () => {
  // The item is a Page: page_url is required (module_item[page_url] for type Page), content_id is not.
  const items = itemsAt('POST /api/v1/courses/42/modules/7/items\n\n{"module_item": {"type": "Page", "|').items;
  const sorted = [...items].sort((a, b) => (a.sortText < b.sortText ? -1 : 1));
  assert.equal(sorted[0].label, 'page_url');
  assert.match(sorted[0].detail ?? '', /Required here/);
  assert.doesNotMatch(items.find((i) => i.label === 'content_id')?.detail ?? '', /Required/);
  // The same with the quote and braces an editor closes as they are typed.
  const closed = itemsAt('POST /api/v1/courses/42/modules/7/items\n\n{"module_item": {"type": "Page", "|"}}').items;
  assert.equal([...closed].sort((a, b) => (a.sortText < b.sortText ? -1 : 1))[0].label, 'page_url');
  // The cursor back in a key that has a value: its siblings still count, whatever their order.
  for (const body of [
    '{"module_item": {"type": "Page", "ti|": "Week 1"}}',
    '{"module_item": {"ti|": "Week 1", "type": "Page"}}',
    '{"module_item": {"ti|": {"a": [1, "}"]}, "type": "Page"}}',
  ]) {
    const ranked = itemsAt(`POST /api/v1/courses/42/modules/7/items\n\n${body}`).items.sort((a, b) =>
      a.sortText < b.sortText ? -1 : 1,
    );
    assert.equal(ranked[0].label, 'page_url', body);
  }
  // One level up, the object that leads to it.
  const top = itemsAt('POST /api/v1/courses/42/modules/7/items\n\n{"|').items;
  assert.match(top.find((i) => i.label === 'module_item')?.detail ?? '', /Required/);
});

test('completion: nothing inside scripts, redirections and body file lines; {{% keeps its %', () => {
  assert.deepEqual(itemsAt('GET /api/v1/courses/1/modules\n\n> {% client.global.set("a", 1); cl| %}\n').items, []);
  assert.deepEqual(itemsAt('POST /api/v1/courses/1/modules\n\n< ./bo|').items, []);
  assert.deepEqual(itemsAt('GET /api/v1/courses/1/modules\n\n>> ./out|').items, []);
  check(
    '@term = x\nGET /api/v1/courses/1/modules?search_term={{%te|',
    'term',
    '@term = x\nGET /api/v1/courses/1/modules?search_term={{%term}}',
  );
});

test('completion: snippets become plain text for a client without snippet support', () => {
  assert.equal(snippetToPlain('permissions[${1:X}][enabled] = ${2|true,false|}$0'), 'permissions[X][enabled] = true');
  assert.equal(snippetToPlain('a\\$b\\}c'), 'a$b}c');
});

test('completion: a header name typed before its colon keeps the colon, and the header being rewritten is offered', () => {
  check('GET /api/v1/courses\nAcc|: application/json\n', 'Accept', 'GET /api/v1/courses\nAccept: application/json\n');
  check(
    'GET /api/v1/courses\nCont|ent-Type: text/plain\n',
    'Content-Type',
    'GET /api/v1/courses\nContent-Type: text/plain\n',
  );
});

test("completion: nothing in the indentation before a line's content (an edit there would land after the cursor)", () => {
  for (const input of [
    'GET /api/v1/courses\n|  Accept: application/json\n',
    '|    GET /api/v1/courses\n',
    'GET /api/v1/courses\n| ?page=2\n',
  ]) {
    const { items } = itemsAt(input);
    assert.deepEqual(
      items.map((i) => i.label),
      [],
      input,
    );
  }
});

test('completion inside a written path: a whole path replaces the rest of it (not the query), a segment keeps the slash after it', () => {
  check(
    'GET /api/v1/cour|ses/42/files?sort=size\n',
    'courses/{course_id}/modules',
    'GET /api/v1/courses/{{course_id}}/modules?sort=size\n',
  );
  check('GET /api/v1/cour|x/42/files\n', 'courses/', 'GET /api/v1/courses/42/files\n');
  check(
    'GET |/api/v1/courses/42/files\n',
    '/api/v1/courses/{course_id}/modules',
    'GET /api/v1/courses/{{course_id}}/modules\n',
  );
});

test('completion: every item carries its documentation', () => {
  const inputs = [
    'G|',
    'GET /api/v1/|',
    'GET /api/v1/courses/42/|',
    'GET /api/v1/courses/|',
    '@course_id = 42\nGET /api/v1/courses/|',
    'GET /api/v1/courses/42/modules\nAccept: |',
    'GET /api/v1/courses/42/modules\nAc|',
    'POST /api/v1/courses/42/modules/7/items\n\nmodule_item[|',
    'POST /api/v1/courses/42/modules/7/items\n\nmodule_item[completion_requirement][|',
    'PUT /api/v1/courses/42/modules/5\n\nmodule[published] = |',
    'POST /api/v1/courses/42/modules/7/items\n\nmodule_item[type] = |',
    'GET /api/v1/courses/42/files?|',
    'GET /api/v1/courses/{{|',
    'PUT /api/v1/courses/42/quizzes/9/submissions/3\n\n{"quiz_submissions": [{"attempt": 1, "validation_token": "x", |}]}',
  ];
  for (const input of inputs) {
    const { items } = itemsAt(input);
    assert.ok(items.length > 0, `no items at ${JSON.stringify(input)}`);
    const bare = items.filter((i) => !i.documentation).map((i) => i.label);
    assert.deepEqual(bare, [], `items without documentation at ${JSON.stringify(input)}`);
  }
});

test("completion: whole paths come by resource (the docs' section), each with its endpoint's purpose as detail", async () => {
  const { getChecker } = await import('./helpers');
  const catalog = getChecker().catalog;
  const { items } = itemsAt('GET |');
  const paths = items.filter((i) => i.kind === 'path').sort((a, b) => (a.sortText < b.sortText ? -1 : 1));
  assert.ok(paths.length > 50);
  const endpointOf = (label: string) =>
    catalog.endpoints.find((e) => e.paths.some((p) => p.template === label) && e.method === 'GET');
  const gets = paths.filter((p) => endpointOf(p.label) !== undefined && !p.deprecated);
  // Each resource's paths stand together: a section, once left, does not come back.
  const sections = gets.map((p) => endpointOf(p.label)!.source.section);
  const order = sections.filter((s, i) => i === 0 || sections[i - 1] !== s);
  assert.equal(new Set(order).size, order.length, order.join(' | '));
  for (const p of gets) assert.ok(p.detail?.includes(endpointOf(p.label)!.purpose), `${p.label}: ${p.detail}`);
});

test('completion: request templates where a request begins, never in a value, a title or after a path', () => {
  const templates = (marked: string) => itemsAt(marked).items.filter((i) => i.kind === 'template');
  for (const at of ['mod|', 'G|', '### x\nget|', '@a = 1\n\npo|']) assert.ok(templates(at).length > 0, at);
  for (const at of [
    `${ITEMS}module_item[type] = |`,
    `${ITEMS}module_item[type] = Assig|`,
    `${ITEMS}module_item[title] = week|`,
    'GET /api/v1/courses/1/files?sort=si|',
    '### List mod|',
    'GET /api/v1/cou|',
    'GET /api/v1/courses\nAccept: app|',
    `${ITEMS}mod|`,
    'GET /api/v1/courses/1/modules/2\n?? body $.workflow_state == act|',
  ]) {
    assert.deepEqual(
      templates(at).map((t) => t.label),
      [],
      at,
    );
  }
  const get = check(
    'get|',
    'Request (GET)',
    '### List modules\nGET {{base_url}}/api/v1/courses/{{course_id}}/modules\nAccept: application/json\n',
  );
  assert.equal(get.snippet, true);
});

/** What braces a line leaves open: `{{` never closed, and `}` beyond those a `{` opened, outside whole `{{...}}`. */
function strayBraces(line: string): { open: number; close: number } {
  const rest = line.replace(/\{\{[^{}]*\}\}/g, '');
  let depth = 0;
  let close = 0;
  for (const c of rest) {
    if (c === '{') depth++;
    else if (c === '}' && depth > 0) depth--;
    else if (c === '}') close++;
  }
  return { open: rest.split('{{').length - 1, close };
}

test('completion never leaves {{ or }} unbalanced: every item beside the braces of the example lines that hold variables', () => {
  const dir = join(ROOT, 'examples');
  // Every such line in `npm test`; a third of them in the quick tier (LPREQ_FUZZ_RUNS set low).
  const every = fuzzRuns(1000) >= 1000 ? 1 : 3;
  let applied = 0;
  let seen = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.lpreq'))) {
    const text = readFileSync(join(dir, file), 'utf8');
    const doc = serviceDocument(text, ENV);
    let lineStart = 0;
    for (const line of text.split('\n')) {
      if (line.includes('{{') && seen++ % every === 0) {
        const before = strayBraces(line);
        for (let col = 0; col <= line.length; col++) {
          // Right beside a brace, and at the ends of the line.
          if (col > 0 && col < line.length && !/[{}]/.test(line.slice(col - 1, col + 1))) continue;
          for (const item of getService().complete(doc, lineStart + col, { now: NOW })) {
            if (item.start < lineStart || item.end > lineStart + line.length) continue;
            const insert = item.snippet ? expandSnippet(item.insertText) : item.insertText;
            const changed =
              line.slice(0, item.start - lineStart) + insert.split('\n')[0] + line.slice(item.end - lineStart);
            const after = strayBraces(changed);
            applied++;
            const where = `${file}: '${item.label}' at ${JSON.stringify(`${line.slice(0, col)}|${line.slice(col)}`)}`;
            assert.ok(after.open <= before.open, `${where} leaves {{ open`);
            assert.ok(after.close <= before.close, `${where} adds a }`);
          }
        }
      }
      lineStart += line.length + 1;
    }
  }
  assert.ok(applied > 10000 / every, `${applied} items applied`);
});
