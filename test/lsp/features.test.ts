import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getChecker } from './helpers';
import {
  atCursor,
  codeActionTitles,
  getService,
  serviceDocument,
  testCodeAction,
  testDefinition,
  testFolding,
  testFormat,
  testHover,
  testRename,
  testSymbols,
} from './service';

const ENV = {
  environments: {
    dev: { base_url: 'http://127.0.0.1:4010', token: 'tok-123', client_key: 'shh-private', course: '42' },
  },
  selected: 'dev',
  privateNames: { dev: new Set(['client_key']) },
  sharedFile: '/w/http-client.env.json',
  privateFile: '/w/http-client.private.env.json',
};

const hovers: [string, RegExp | null][] = [
  [
    'GET /api/v1/cou|rses/1/modules',
    /\*\*GET\*\* `\/api\/v1\/courses\/\{course_id\}\/modules`[\s\S]*paginated[\s\S]*Token scope: `url:GET\|\/api\/v1\/courses\/\{course_id\}\/modules`/,
  ],
  [
    'POST /api/v1/courses/1/modules/2/items\n\nmodule_item[ty|pe] = Page',
    /module\\_item\\\[type\\\][\s\S]*\*\*Required\*\*[\s\S]*`ExternalTool`/,
  ],
  [
    'POST /api/v1/courses/1/modules/2/items\n\nmodule_item[content_id|] = 1',
    /Required: .*Required except for ExternalUrl, Page, SubHeader/,
  ],
  [
    'POST /api/v1/courses/1/modules/2/items\n\nmodule_item[completion_requirement][type] = must_sub|mit',
    /applies to Assignment and Quiz/,
  ],
  ['GET {{base_u|rl}}/api/v1/courses', /http:\/\/127\.0\.0\.1:4010[\s\S]*Environment `dev`/],
  ['@c = 7\nGET /api/v1/courses/{{|c}}/modules', /= `7`[\s\S]*line 1/],
  ['@c = 7\n@gree|ting = hello {{c}}\nGET /api/v1/courses/{{greeting}}/modules', /greeting/],
  ['GET /api/v1/courses/{{$gu|id}}', /system variable/],
  ['GET /api/v1/courses\nAuthorization: Bearer {{tok|en}}', /\(secret\)/],
  ['GET /api/v1/courses?x={{client_|key}}', /\(secret\)/],
  ['# a comm|ent\nGET /x', null],
  // A prompt of the request wins over the environment's value, on a use and on its own line.
  [
    '# @prompt course Which course?\nGET /api/v1/courses/{{cou|rse}}/modules',
    /prompt variable \(line 1\)[\s\S]*Which course\?/,
  ],
  ['# @prompt cou|rse Which course?\nGET /api/v1/courses/{{course}}/modules', /prompt variable/],
  [
    'GET /api/v1/courses\n\n> {% client.global.set("picked", 1); %}\n###\nGET /api/v1/courses/{{pic|ked}}',
    /set by a script[\s\S]*does not run scripts/,
  ],
  // The metadata keys lpreq acts on say what they do.
  ['# @no-red|irect\nGET /api/v1/courses/1/modules', /request metadata[\s\S]*not followed/],
  ['# @no|te Deletes it\nDELETE /api/v1/courses/1/modules/2', /Asks before the request is sent/],
  ['# @time|out 2 m\nGET /api/v1/courses', /request metadata[\s\S]*replaces the timeout setting/],
  ['# @snap|shot ignore=$.name\nGET /api/v1/courses/1/modules/2', /request metadata[\s\S]*__snapshots__/],
  // A path line of JetBrains' client is part of the path: the endpoint, and its query's parameters.
  [
    'GET /api/v1/courses/1\n    /mod|ules\n    ?include[]=items',
    /\*\*GET\*\* `\/api\/v1\/courses\/\{course_id\}\/modules`/,
  ],
  ['GET /api/v1/courses/1\n    /modules?inc|lude[]=items', /include\\\[\\\]/],
  // Assertion lines: a path segment is the documented field (type, note, values), an operator says what it does.
  [
    'GET /api/v1/courses/1/modules/2\n?? body $.workflow_st|ate == active',
    /\*\*workflow\\_state\*\* · `string` · field of `Module`[\s\S]*Values:\n- `active`\n- `deleted`/,
  ],
  [
    'GET /api/v1/courses/1/modules\n?? body $[*].items[0].compl|etion_requirement.type exists',
    /completion\\_requirement\*\* · `CompletionRequirement` · field of `ModuleItem`/,
  ],
  [
    'GET /api/v1/courses/1/modules\n?? body $[*].it|ems[0].title exists',
    /`ModuleItem\[\] or null`[\s\S]*present only sometimes/,
  ],
  ['GET /api/v1/courses/1/modules\n?? body $[*].items[|0].title exists', /An element of the list `ModuleItem\[\]`/],
  [
    'GET /api/v1/accounts/1/roles/3\n?? body $.permissions.manage_courses.ena|bled == true',
    /\*\*enabled\*\* · `boolean` · field of `RolePermissions`/,
  ],
  [
    'GET /api/v1/accounts/1/roles/3\n?? body $.permissions.manage_co|urses.enabled == true',
    /`RolePermissions` · a value of the map `RolePermissionMap`/,
  ],
  [
    'GET /api/v1/courses/1/modules/2\n?? body |$.name exists',
    /The response of `GET \/api\/v1\/courses\/\{course_id\}\/modules\/\{id\}`: `Module`/,
  ],
  ['GET /api/v1/courses/1/modules/2\n?? body $.publish_final_grade == nu|ll', null],
  [
    'GET /api/v1/appointment_groups/3\n?? body $.workflow_state == pen|ding',
    /`pending` · value of \*\*workflow\\_state\*\*[\s\S]*unpublished and invisible/,
  ],
  ['GET /api/v1/courses/1/external_tools/5\n?? body $.course_navigation.anyth|ing exists', /does not show/],
  ['GET /api/v1/courses/1/modules/2\n?? body $.nm|ae exists', null],
  ['GET /api/v1/courses/1/modules/2\n?? sta|tus == 200', /`status` · assertion field/],
  ['GET /api/v1/courses/1/modules/2\n?? status >|= 200', /Greater than or equal/],
  ['GET /api/v1/courses/1/modules/2\n?? header content-ty|pe includes json', /`content-type` · response header/],
  ['@state = active\nGET /api/v1/courses/1/modules/2\n?? body $.workflow_state == {{st|ate}}', /= `active`/],
];

test('hover: with no environment chosen, a variable shows its value in each environment (secrets hidden)', () => {
  const env = {
    environments: { dev: { base_url: 'http://a', key: 'k1' }, prod: { base_url: 'https://b', key: 'k2' } },
    privateNames: { prod: new Set(['key']) },
  };
  testHover('GET {{base_u|rl}}/x?k={{key}}', /`dev`: `http:\/\/a`[\s\S]*`prod`: `https:\/\/b`/, env);
  const k = testHover('GET /x?k={{k|ey}}', /key/, env);
  assert.ok(!(k ?? '').includes('k2'), k);
});

for (const [input, expected] of hovers) {
  test(`hover: ${JSON.stringify(input)}`, () => {
    const contents = testHover(input, expected, ENV) ?? '';
    assert.ok(!contents.includes('tok-123') && !contents.includes('shh-private'), 'a secret is shown');
  });
}

/** Applies the action titled `title` at the cursor and compares the text. */
const fix = (marked: string, title: RegExp, expected: string): void => {
  testCodeAction(marked, title, expected, ENV);
};

const fixes: [string, RegExp, string][] = [
  [
    'POST /api/v1/courses/1/modules/2/items|\n\nmodule_item[title] = x\n',
    /^Add module_item\[type\]/,
    'POST /api/v1/courses/1/modules/2/items\n\nmodule_item[title] = x\nmodule_item[type] = \n',
  ],
  [
    'POST /api/v1/courses/1/modules/2/it|ems\n',
    /^Add module_item\[type\]/,
    'POST /api/v1/courses/1/modules/2/items\n\nmodule_item[type] = \n',
  ],
  [
    'POST /api/v1/courses/1/modules/2/it|ems\r\nAccept: application/json\r\n',
    /^Add module_item\[type\]/,
    'POST /api/v1/courses/1/modules/2/items\r\nAccept: application/json\r\n\r\nmodule_item[type] = \r\n',
  ],
  [
    'POST /api/v1/courses/1/modules/2/items\n\nmodule_item[type] = Asign|ment\n',
    /Change to 'Assignment'/,
    'POST /api/v1/courses/1/modules/2/items\n\nmodule_item[type] = Assignment\n',
  ],
  ['GET /api/v1/courses/1/files\n\nsrot| = size\n', /Change to 'sort'/, 'GET /api/v1/courses/1/files\n\nsort = size\n'],
  ['GET /api/v1/courses/1/files?order=ds|c\n', /Change to 'desc'/, 'GET /api/v1/courses/1/files?order=desc\n'],
  [
    'GET {{base_url}}/api/v1/courses/1/files/qou|ta?x=1\n',
    /Change to 'quota'/,
    'GET {{base_url}}/api/v1/courses/1/files/quota?x=1\n',
  ],
  [
    'POST /api/v1/accounts/1/roles\n\nlabel = x\npermissions[manage_files][enab|d] = 1\n',
    /Change to 'permissions\[manage_files\]\[enabled\]'/,
    'POST /api/v1/accounts/1/roles\n\nlabel = x\npermissions[manage_files][enabled] = 1\n',
  ],
  // No close match in a short list of values: each documented value is offered.
  [
    'POST /api/v1/planner_notes\n\ntitle = x\nlinked_object_type = pa|ge\nlinked_object_id = 1\n',
    /Change to 'wiki_page'/,
    'POST /api/v1/planner_notes\n\ntitle = x\nlinked_object_type = wiki_page\nlinked_object_id = 1\n',
  ],
  // The successor is already there: the deprecated name is removed, not renamed into a duplicate.
  [
    'POST /api/v1/accounts/1/roles\n\nlabel = Grader\nro|le = Grader\n',
    /Remove the deprecated parameter/,
    'POST /api/v1/accounts/1/roles\n\nlabel = Grader\n',
  ],
  [
    'POST /api/v1/folders/1/folders\n\nname = a\nparent_folder_id = 1\nparent_folder_path| = x\n',
    /Remove parent_folder_path/,
    'POST /api/v1/folders/1/folders\n\nname = a\nparent_folder_id = 1\n',
  ],
  [
    'POST /api/v1/folders/1/folders\n\nname = a\nparent_folder_id = 1\nparent_folder_path| = x\n',
    /Remove parent_folder_id/,
    'POST /api/v1/folders/1/folders\n\nname = a\nparent_folder_path = x\n',
  ],
  [
    'GET /api/v1/courses/{cour|se_id}/modules\n',
    /define @course_id/,
    '@course_id = \nGET /api/v1/courses/{{course_id}}/modules\n',
  ],
  [
    '@course_id = 4\nGET /api/v1/courses/{cour|se_id}/modules\n',
    /Use \{\{course_id\}\}/,
    '@course_id = 4\nGET /api/v1/courses/{{course_id}}/modules\n',
  ],
  // A name in use elsewhere (here a {{course_id}} of another request) is not taken over.
  [
    'GET /api/v1/courses/12|34/modules\n###\nGET /api/v1/courses/1234/files\n###\nGET /api/v1/courses/{{course_id}}/files\n',
    /Extract '1234'/,
    '@course_id_2 = 1234\nGET /api/v1/courses/{{course_id_2}}/modules\n###\nGET /api/v1/courses/{{course_id_2}}/files\n###\nGET /api/v1/courses/{{course_id}}/files\n',
  ],
  // Assertions: the closest documented field, the closest enum value (quotes kept), each value of a short enum.
  [
    'GET /api/v1/courses/1/modules/2\n?? body $.nm|ae exists\n',
    /Change to 'name'/,
    'GET /api/v1/courses/1/modules/2\n?? body $.name exists\n',
  ],
  [
    "GET /api/v1/courses/1/modules/2\n?? body $['nm|ae'] exists\n",
    /Change to 'name'/,
    "GET /api/v1/courses/1/modules/2\n?? body $['name'] exists\n",
  ],
  [
    'GET /api/v1/courses/1/modules\n?? body $[*].items[0].completion_requirement.tpye| exists\n',
    /Change to 'type'/,
    'GET /api/v1/courses/1/modules\n?? body $[*].items[0].completion_requirement.type exists\n',
  ],
  [
    'GET /api/v1/courses/1/modules/2\n?? body $.workflow_state == act|ve\n',
    /Change to 'active'/,
    'GET /api/v1/courses/1/modules/2\n?? body $.workflow_state == active\n',
  ],
  [
    'GET /api/v1/courses/1/modules/2\n?? body $.workflow_state != "delet|d"\n',
    /Change to '"deleted"'/,
    'GET /api/v1/courses/1/modules/2\n?? body $.workflow_state != "deleted"\n',
  ],
  [
    'GET /api/v1/courses/1/modules/2\n?? body $.workflow_state == zz|zzz\n',
    /Change to 'deleted'/,
    'GET /api/v1/courses/1/modules/2\n?? body $.workflow_state == deleted\n',
  ],
  [
    'PUT /api/v1/courses/1/quizzes/2/submissions/3\n\n{"quiz_submissions": [\n?? body $.quiz_submissions[0].atempt| exists\n{"attempt": 1}]}\n',
    /Change to 'attempt'/,
    'PUT /api/v1/courses/1/quizzes/2/submissions/3\n\n{"quiz_submissions": [\n?? body $.quiz_submissions[0].attempt exists\n{"attempt": 1}]}\n',
  ],
  [
    'GET /api/v1/courses/12|34/modules\n###\nGET /api/v1/courses/1234/files\n',
    /Extract '1234'/,
    '@course_id = 1234\nGET /api/v1/courses/{{course_id}}/modules\n###\nGET /api/v1/courses/{{course_id}}/files\n',
  ],
];

for (const [input, title, expected] of fixes) {
  test(`code action: ${title} on ${JSON.stringify(input)}`, () => fix(input, title, expected));
}

test('code action: extract a host once, an id where it recurs under the same placeholder or parameter name', () => {
  // ENV's base_url is another host: the name is taken.
  fix(
    'GET https://lms.exa|mple.edu/api/v1/courses/1/modules\n',
    /Extract 'https:\/\/lms\.example\.edu' into @base_url_2$/,
    '@base_url_2 = https://lms.example.edu\nGET {{base_url_2}}/api/v1/courses/1/modules\n',
  );
  // A variable that holds the value already is used.
  fix(
    'GET http://127.0.0.1:4|010/api/v1/courses/1/modules\n',
    /Use \{\{base_url\}\} for 'http:\/\/127\.0\.0\.1:4010'$/,
    'GET {{base_url}}/api/v1/courses/1/modules\n',
  );
  fix(
    'GET /api/v1/courses/4|2/modules\n###\nGET /api/v1/courses/42/files\n',
    /Use \{\{course\}\} for '42' \(2 occurrences\)/,
    'GET /api/v1/courses/{{course}}/modules\n###\nGET /api/v1/courses/{{course}}/files\n',
  );
  // The same 43 as a module id is another value: it stays.
  fix(
    'GET /api/v1/courses/4|3/modules\n###\nGET /api/v1/courses/43/modules/43\n',
    /Extract '43' into @course_id \(2 occurrences\)/,
    '@course_id = 43\nGET /api/v1/courses/{{course_id}}/modules\n###\nGET /api/v1/courses/{{course_id}}/modules/43\n',
  );
  fix(
    'POST /api/v1/courses/1/modules/2/items\n\nmodule_item[type] = Assignment\nmodule_item[content_id] = 12|3\n###\nPOST /api/v1/courses/1/modules/3/items\n\nmodule_item[type] = Assignment\nmodule_item[content_id] = 123\n',
    /Extract '123' into @content_id \(2 occurrences\)/,
    '@content_id = 123\nPOST /api/v1/courses/1/modules/2/items\n\nmodule_item[type] = Assignment\nmodule_item[content_id] = {{content_id}}\n###\nPOST /api/v1/courses/1/modules/3/items\n\nmodule_item[type] = Assignment\nmodule_item[content_id] = {{content_id}}\n',
  );
});

test('code action: no extraction of a path segment such as v1, a name or an enum value', () => {
  const titles = (marked: string) => codeActionTitles(marked, ENV);
  const twice = (line: string) => `${line}\n###\n${line.replace('|', '')}\n`;
  for (const marked of [
    twice('GET /api/v|1/courses/42/modules'),
    twice('GET /api/v1/cour|ses/42/modules'),
    twice('GET /api/v1/courses/42/modules?sort=si|ze'),
    'POST /api/v1/courses/1/modules\n\nmodule[name] = Wee|k 1\n###\nPOST /api/v1/courses/1/modules\n\nmodule[name] = Week 1\n',
    'POST /api/v1/courses/1/modules/2/items\n\nmodule_item[type] = Assign|ment\n###\nPOST /api/v1/courses/1/modules/2/items\n\nmodule_item[type] = Assignment\n',
  ]) {
    assert.deepEqual(
      titles(marked).filter((t) => t.startsWith('Extract') || t.startsWith('Use {{')),
      [],
      marked,
    );
  }
});

test('code action: a deprecated parameter is replaced by its successor', () => {
  const catalog = getChecker().catalog;
  const endpoint = catalog.endpoints.find((e) => e.params.some((p) => typeof p.deprecated === 'object'));
  assert.ok(endpoint);
  const param = endpoint.params.find((p) => typeof p.deprecated === 'object');
  assert.ok(param && typeof param.deprecated === 'object');
  const path = endpoint.paths[0].template.replace(/\{\*?\w+\}/g, '1');
  fix(
    `${endpoint.method} ${path}\n\n${param.name}| = x\n`,
    new RegExp(`Replace with '${param.deprecated.successor.replace(/[[\]]/g, '\\$&')}'`),
    `${endpoint.method} ${path}\n\n${param.deprecated.successor} = x\n`,
  );
});

const DOC =
  '@c = 1\n### List\n# @name list\nGET /api/v1/courses/{{c}}/modules\n\n### Make\nPOST /api/v1/courses/{{c}}/modules?x={{list.response.body.$.id}}\n';

test('symbols: one per request with method, path, title and @name', () => {
  testSymbols(DOC, [
    ['@c', '1', '@c = 1'],
    ['GET /api/v1/courses/{{c}}/modules', 'List · @list', 'GET /api/v1/courses/{{c}}/modules'],
    [
      'POST /api/v1/courses/{{c}}/modules?x={{list.response.body.$.id}}',
      'Make',
      'POST /api/v1/courses/{{c}}/modules?x={{list.response.body.$.id}}',
    ],
  ]);
  testFolding(DOC, [
    'GET /api/v1/courses/{{c}}/modules',
    'POST /api/v1/courses/{{c}}/modules?x={{list.response.body.$.id}}',
  ]);
});

test('symbols: assertion lines belong to their request, whose range and fold take them in', () => {
  const text =
    '### List\nGET /api/v1/courses/1/modules\n?? status == 200\n?? body $[*].id exists\n\n### Make\nPOST /api/v1/courses/1/modules\n\nmodule[name] = x\n?? body $.name == x\n';
  testSymbols(text, [
    ['GET /api/v1/courses/1/modules', 'List', '?? body $[*].id exists'],
    ['POST /api/v1/courses/1/modules', 'Make', '?? body $.name == x'],
  ]);
  testFolding(text, ['?? body $[*].id exists', '?? body $.name == x']);
});

/** `text` with the cursor put `at` characters into the first `needle`. */
const markAt = (text: string, needle: string, at = 1) => {
  const i = text.indexOf(needle) + at;
  return text.slice(0, i) + '|' + text.slice(i);
};

const definitionCases: [string, string[] | undefined][] = [
  ['@c = 1\nGET /api/v1/courses/{{|c}}/modules', ['c']],
  ['# @prompt course\nGET /api/v1/courses/{{cou|rse}}/modules', ['course']],
  ['# @name list\nGET /api/v1/courses\n###\nGET /api/v1/courses/{{li|st.response.body.$.id}}', ['list']],
  // An environment's variable: no place in the file (the server looks in the environment files).
  ['GET {{base_u|rl}}/api/v1/courses', []],
  ['GE|T /api/v1/courses', undefined],
];

for (const [input, expected] of definitionCases) {
  test(`definition: ${JSON.stringify(input)}`, () => testDefinition(input, expected));
}

test('navigation: definition, references and rename of a variable and a named request', () => {
  const service = getService();
  const { offset, doc } = atCursor(markAt(DOC, '{{c}}', 2));
  const found = service.definition(doc.parsed, offset);
  assert.deepEqual(found && { kind: found.symbol.kind, name: found.symbol.name, at: found.locations }, {
    kind: 'variable',
    name: 'c',
    at: [{ start: 1, end: 2 }],
  });
  assert.equal(service.references(doc.parsed, offset, true).length, 3);
  testRename(markAt(DOC, '{{c}}', 2), 'course', DOC.replace(/\{\{c\}\}/g, '{{course}}').replace('@c =', '@course ='));
  assert.equal(service.definition(doc.parsed, DOC.indexOf('list.response') + 1)?.symbol.kind, 'request');
  testRename(markAt(DOC, 'list.response'), 'all', DOC.replace('@name list', '@name all').replace('{{list.', '{{all.'));
  // Refused, with the reason: a bad name, a name already taken (here or in an environment), a variable this file does not define.
  const refused = new Error('refused');
  testRename(markAt(DOC, '{{c}}', 2), 'bad name', refused);
  testRename(markAt(DOC, '{{c}}', 2), 'base_url', refused, { environments: { dev: { base_url: 'x' } } });
  const two = '@c = 1\n@d = 2\nGET /api/v1/courses/{{c}}/modules/{{d}}\n{{env_only}}: x\n';
  testRename(markAt(two, 'c = 1', 0), 'd', refused);
  assert.equal(service.definition(serviceDocument(two).parsed, two.indexOf('env_only') + 1)?.symbol.name, 'env_only');
  testRename(markAt(two, 'env_only'), 'renamed', refused);
});

test('navigation: a prompt variable is defined by its # @prompt line, used in its own request only, and renamed there', () => {
  const service = getService();
  const text =
    '@course = 1\nGET /api/v1/courses/{{course}}\n###\n# @prompt course\nGET /api/v1/courses/{{course}}/modules?x={{%course}}\n';
  const { parsed } = serviceDocument(text);
  const second = text.indexOf('###');
  const useAt = text.indexOf('{{course}}/modules') + 3;
  const use = service.definition(parsed, useAt)!;
  assert.equal(use.symbol.promptBlock, second);
  const promptName = text.indexOf('@prompt course') + '@prompt '.length;
  assert.deepEqual(use.locations, [{ start: promptName, end: promptName + 'course'.length }]);
  const uses = service.references(parsed, useAt, false);
  assert.deepEqual(
    uses.map((l) => text.slice(l.start, l.end)),
    ['course', 'course'],
  );
  assert.ok(uses.every((l) => l.start > second));
  testRename(
    markAt(text, '{{course}}/modules', 3),
    'pick',
    '@course = 1\nGET /api/v1/courses/{{course}}\n###\n# @prompt pick\nGET /api/v1/courses/{{pick}}/modules?x={{%pick}}\n',
  );
  // The file variable's uses leave out the request that asks for its own value.
  assert.equal(service.definition(parsed, 2)?.symbol.promptBlock, undefined);
  assert.deepEqual(
    service.references(parsed, 2, true).map((l) => l.start < second),
    [true, true],
  );
  // On the # @prompt line itself, the same symbol.
  assert.equal(service.definition(parsed, promptName + 1)?.symbol.promptBlock, second);
  const refused = new Error('refused');
  // Renaming the file variable to a prompt's name would let the prompt capture it: refused.
  testRename('@a| = 1\nGET /x/{{a}}\n###\n# @prompt b\nGET /y/{{b}}\n', 'b', refused);
  // ... and a prompt renamed to a name its request already uses would take that use over.
  const taken = '@term = hello\n###\n# @prompt id\nGET /api/v1/courses/{{id}}/files?search_term={{term}}\n';
  testRename(markAt(taken, '{{id}}', 2), 'term', refused);
  // A use in the value of a variable defined where the name is prompted means the prompt there and the file
  // variable in later requests: found as a reference of the file variable, and no rename can keep both.
  const both = '@x = 1\n###\n# @prompt x\n@y = /api/v1/courses/{{x}}\nGET {{y}}/modules\n###\nGET {{y}}/files\n';
  assert.ok(
    service.references(serviceDocument(both).parsed, 1, false).some((l) => l.start === both.indexOf('{{x}}') + 2),
  );
  testRename(markAt(both, 'x = 1', 0), 'cid', refused);
  testRename(markAt(both, 'prompt x', 7), 'cid', refused);
});

test('formatting: spaces around =, aligned header colons, ### lines; values unchanged', () => {
  testFormat(
    '###List  \nGET /api/v1/courses/1/files\nAccept:application/json\nContent-Type :  text/plain \n\nsort=size\n  order   =  desc  x\n@v=1\n',
    '### List\nGET /api/v1/courses/1/files\nAccept      : application/json\nContent-Type: text/plain\n\nsort = size\n  order = desc  x\n@v = 1\n',
  );
});

test('formatting: one space between the parts of an assertion line; EXPECTED, indentation and unreadable lines as written', () => {
  testFormat(
    'GET /api/v1/courses/1/modules/2\n??   body   $.name   ==   Week  5  \n  ??\tstatus ==200\n?? header  Link includes rel="next"\n?? body  $.id   exists\n?? status\n',
    'GET /api/v1/courses/1/modules/2\n?? body $.name == Week  5\n  ??\tstatus ==200\n?? header Link includes rel="next"\n?? body $.id exists\n?? status\n',
  );
});

test('code actions: no parameter-line fixes inside a JSON body (they would break it); replacing a key in place stays', () => {
  const text = 'POST /api/v1/courses/1/modules\n\n{"module": {"positon": 1}}\n';
  const titles = getService()
    .codeActions(serviceDocument(text, ENV), 0, text.length)
    .map((a) => a.title);
  assert.ok(!titles.some((t) => /^Add /.test(t) || /Remove the undocumented/.test(t)), titles.join(' | '));
  assert.ok(
    titles.some((t) => t.includes("'position'")),
    titles.join(' | '),
  );
});

test('a JSON body nested thousands of levels deep is reported, never thrown', () => {
  const deep = '['.repeat(20000) + ']'.repeat(20000);
  for (const text of [
    `POST /api/v1/courses/1/modules\n\n{"module": ${deep}}\n`,
    `PUT /api/v1/courses/1/quizzes/2/submissions/3\n\n{"quiz_submissions": ${deep}}\n`,
  ]) {
    const diagnostics = getChecker().checkDocument(serviceDocument(text, ENV).parsed, ENV);
    // One syntax error over the whole body (too deep to check), and nothing else.
    const body = { start: text.indexOf('{'), end: text.length - 1 };
    assert.deepEqual(
      diagnostics.map((d) => [d.code, d.start, d.end]),
      [['syntax', body.start, body.end]],
    );
  }
});

/** The quick fixes of the diagnostic under the cursor, in the order offered, with the diagnostic. */
function enumFixes(marked: string) {
  const { offset, doc } = atCursor(marked, ENV);
  const diagnostics = getChecker().checkDocument(doc.parsed, ENV);
  const d = diagnostics.find((x) => x.code === 'invalid-enum' && x.start <= offset && offset <= x.end);
  assert.ok(d, `no invalid-enum at ${JSON.stringify(marked)}`);
  const actions = getService()
    .codeActions(doc, offset, offset)
    .filter((a) => a.diagnostics.some((x) => x.code === d.code && x.start === d.start && x.end === d.end));
  return { d, actions };
}

const enumCases: [string, string, string[]][] = [
  // A near miss, a value far from all, and an assertion's value: the closest is first, preferred, and named.
  ['GET /api/v1/courses/1/files?order=ds|c\n', 'desc', ['asc']],
  ['POST /api/v1/planner_notes\n\ntitle = x\nlinked_object_type = pa|ge\nlinked_object_id = 1\n', 'wiki_page', []],
  ['GET /api/v1/courses/1/modules/2\n?? body $.workflow_state == zz|zzz\n', 'active', ['deleted']],
  ['GET /api/v1/courses/1/modules/2\n?? body $.workflow_state == "delet|d"\n', '"deleted"', ['"active"']],
];

for (const [input, first, others] of enumCases) {
  test(`invalid-enum: the closest value '${first}' is offered first, preferred, and the diagnostic's replacement, on ${JSON.stringify(input)}`, () => {
    const { d, actions } = enumFixes(input);
    assert.ok(actions.length > 0);
    assert.equal(actions[0].edits[0].newText, first);
    assert.equal(actions[0].isPreferred, true);
    assert.ok(
      actions.slice(1).every((a) => a.isPreferred !== true),
      'only one fix is preferred',
    );
    assert.equal(d.data?.replacement, first);
    for (const o of others)
      assert.ok(
        actions.some((a) => a.edits[0].newText === o),
        `'${o}' is offered too`,
      );
  });
}

test('unresolved-variable names the environments that define a name the chosen one lacks', () => {
  const env = {
    environments: {
      local: { base_url: 'http://a', course: '1' },
      staging: { base_url: 'http://b' },
      production: { base_url: 'https://c', course: '3' },
    },
    selected: 'staging',
  };
  const text =
    'GET {{base_url}}/api/v1/courses/{{course}}/modules\n###\nGET {{base_url}}/api/v1/courses/{{nowhere}}/modules\n';
  for (const diagnostics of [
    getChecker().checkDocument(serviceDocument(text, env).parsed, env),
    getChecker().diagnose(text, env),
  ]) {
    const found = diagnostics
      .filter((d) => d.code === 'unresolved-variable')
      .map((d) => ({ name: text.slice(d.start, d.end), message: d.message }));
    assert.deepEqual(
      found.map((f) => f.name),
      ['{{course}}', '{{nowhere}}'],
    );
    assert.match(found[0].message, /'staging'.*\blocal, production\b/);
    assert.doesNotMatch(found[0].message, /nowhere/);
    assert.doesNotMatch(found[1].message, /local|production/);
  }
});

test('"Add parameter" carries a snippet that leaves the cursor at the value; the plain text is the same without tab stops', () => {
  for (const [marked, title, snippet] of [
    ['POST /api/v1/courses/1/modules/2/it|ems\n', /^Add module_item\[type\]/, /^\n+module_item\[type\] = \$0\n?$/],
    [
      'POST /api/v1/appointment_groups|\n',
      /^Add all missing/,
      /^\n+appointment_group\[context_codes\]\[\] = \$\{1\}\nappointment_group\[title\] = \$\{2\}\n?$/,
    ],
  ] as const) {
    const { offset, doc } = atCursor(marked, ENV);
    const actions = getService().codeActions(doc, offset, offset);
    const action = actions.find((a) => title.test(a.title));
    assert.ok(action, `no ${title} in ${actions.map((a) => a.title).join(' | ')}`);
    const edit = action.edits[0];
    assert.ok(edit.snippet !== undefined, `${action.title} has a snippet`);
    assert.match(edit.snippet, snippet);
    // Every value is a tab stop, numbered in order when there are several.
    const names = edit.newText.split('\n').filter((l) => l.endsWith(' = ')).length;
    assert.equal((edit.snippet.match(/ = (\$0|\$\{\d+\})/g) ?? []).length, names);
    assert.equal(edit.snippet.replace(/\$0|\$\{\d+\}/g, ''), edit.newText);
  }
});
