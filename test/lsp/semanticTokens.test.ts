/** Semantic tokens: what the catalog and the variables say of a block, as data. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getService, serviceDocument } from './helpers';
import { semanticTokensOf } from './service';

const ENV = { environments: { dev: { base_url: 'http://127.0.0.1:4010', course: '42' } }, selected: 'dev' };

/** Each token of the document as `text type[.modifier...]`, in order. */
function tokensOf(text: string): string[] {
  return semanticTokensOf(text, ENV).map(([t, type, modifiers]) => `${t} ${[type, ...modifiers].join('.')}`);
}

const cases: [string, string[]][] = [
  // Path values that fill placeholders; the literal segments and the base are the grammar's.
  [
    'GET {{base_url}}/api/v1/courses/880/modules/12/items',
    ['base_url variable.readonly', '880 parameter', '12 parameter'],
  ],
  ['GET /api/v1/users/self/files/quota', ['self parameter']],
  ['GET /api/v1/courses/{{course}}/modules', ['course variable.readonly']],
  // Parameter names and values: an enum value, a boolean, an integer, free text.
  [
    'POST /api/v1/courses/1/modules/2/items\n\nmodule_item[type] = Page\nmodule_item[new_tab] = true\nmodule_item[position] = 3\nmodule_item[title] = Week 1',
    [
      '1 parameter',
      '2 parameter',
      'module_item[type] property',
      'Page enumMember',
      'module_item[new_tab] property',
      'true keyword',
      'module_item[position] property',
      '3 number',
      'module_item[title] property',
    ],
  ],
  // Query parameters too; an unknown name or a value outside the enum is left to the diagnostic.
  [
    'GET /api/v1/courses/1/files?sort=size&nope=1&order=sideways',
    ['1 parameter', 'sort property', 'size enumMember', 'order property'],
  ],
  // A deprecated parameter.
  [
    'POST /api/v1/accounts/1/roles\n\nrole = Assistant\nlabel = Assistant',
    ['1 parameter', 'role property.deprecated', 'label property'],
  ],
  // Variables by where they come from: the file, the environment, the system, a prompt, a named request.
  [
    '@id = 7\n# @name made\nPOST /api/v1/courses/{{id}}/modules\n\nmodule[name] = {{$guid}}\n###\n# @prompt item\nGET /api/v1/courses/1/modules/{{made.response.body.$.id}}/items/{{item}}',
    [
      'id variable',
      'module[name] property',
      '$guid variable.defaultLibrary',
      '1 parameter',
      'made function',
      'item parameter',
    ],
  ],
  // Nothing for a path that matches no endpoint, nor for comments and metadata.
  ['# {{course}} in a comment\nGET /api/v1/nowhere/1', []],
  // `{{%name}}`: the name, without the percent sign.
  [
    'GET /api/v1/courses/1/files?search_term={{%course}}',
    ['1 parameter', 'search_term property', 'course variable.readonly'],
  ],
  // Assertion lines: the field, the documented fields a path names, the operator, a value the field takes.
  [
    'GET /api/v1/courses/1/modules\n?? status == 200\n?? body $[*].items[0].completion_requirement.type == must_submit\n?? body $[0].position >= 1\n?? body $[0].publish_final_grade != null\n?? body $[0].published == true\n?? duration < 2000',
    [
      '1 parameter',
      'status keyword',
      '== operator',
      '200 number',
      'body keyword',
      'items property',
      'completion_requirement property',
      'type property',
      '== operator',
      'must_submit enumMember',
      'body keyword',
      'position property',
      '>= operator',
      '1 number',
      'body keyword',
      'publish_final_grade property',
      '!= operator',
      'null keyword',
      'body keyword',
      'published property',
      '== operator',
      'true keyword',
      'duration keyword',
      '< operator',
      '2000 number',
    ],
  ],
  // A map's keys are the user's; an undocumented field, a value outside the enum and a line that cannot be read are left to the diagnostics.
  [
    'GET /api/v1/accounts/1/roles/2\n?? body $.permissions.manage_courses.enabled == maybe\n?? body $.workflow_state == actve\n?? body $.nmae exists\n?? body $.role exists\n?? state == 1',
    [
      '1 parameter',
      '2 parameter',
      'body keyword',
      'permissions property',
      'enabled property',
      '== operator',
      'body keyword',
      'workflow_state property',
      '== operator',
      'body keyword',
      'exists operator',
      'body keyword',
      'role property.deprecated',
      'exists operator',
    ],
  ],
  // A variable in EXPECTED is a variable; a request that matches no documented endpoint gets the field and operator only.
  ['GET /api/v1/nowhere\n?? body $.x == {{course}}', ['body keyword', '== operator', 'course variable.readonly']],
];

for (const [text, expected] of cases) {
  test(`semantic tokens: ${JSON.stringify(text.slice(0, 60))}`, () => {
    assert.deepEqual(tokensOf(text), expected);
  });
}

test('semantic tokens never span lines and never overlap, on every example request file', async () => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const dir = join(import.meta.dirname, '..', '..', 'examples');
  let tokens = 0;
  for (const name of readdirSync(dir).filter((n) => n.endsWith('.lpreq'))) {
    const text = readFileSync(join(dir, name), 'utf8');
    const service = getService();
    const doc = serviceDocument(text, ENV);
    const names = service.fileVariableNames(doc.parsed);
    for (const { block } of doc.parsed.blocks) {
      let previousEnd = -1;
      for (const t of service.semanticTokens(doc, block, names)) {
        assert.ok(t.end > t.start, name);
        assert.ok(t.start >= previousEnd, `${name}: overlapping tokens at ${t.start}`);
        assert.ok(!block.text.slice(t.start, t.end).includes('\n'), name);
        previousEnd = t.end;
        tokens++;
      }
    }
  }
  // The examples hold hundreds: a loop over nothing would pass without checking anything.
  assert.ok(tokens > 100, `${tokens} tokens`);
});
