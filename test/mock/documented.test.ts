/**
 * The mock applies what the catalog documents: a parameter and a resource field added to the
 * docs reach a stored row and the responses without a change to the mock's code, and values
 * are coerced by the documented type of the field they fill.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { loadCatalog, type Catalog } from '../../server/src/core/index';
import { readCatalogFiles } from '../../server/src/node/catalogFiles';
import { bundledCatalog } from '../../server/src/catalogData';
import { HttpError, type MockContext } from '../../server/src/mock/context';
import { documentedFields, enumValue } from '../../server/src/mock/documented';
import { Viewer } from '../../server/src/mock/visibility';
import { Params } from '../../server/src/mock/params';
import type { Pair } from '../../server/src/http';
import { defaultSeed } from '../../server/src/mock/seed';
import { MockState } from '../../server/src/mock/state';
import { errorsOf, withMock } from './mockClient';
import { ROOT } from '../helpers';

type Obj = Record<string, unknown>;
interface EndpointJson {
  id: string;
  params: { name: string; type: string; description: string }[];
}
interface ResourcesJson {
  resources: { name: string; fields: { name: string; type: string; optional?: boolean }[] }[];
}

/**
 * The catalog of today with fields the docs might add tomorrow: on modules, an integer, a
 * string list and a boolean; on a module item's completion requirement, a number.
 */
function catalogWithNewFields(): Catalog {
  const files = readCatalogFiles(join(ROOT, 'schemas'));
  const endpointFiles = structuredClone(files.endpointFiles) as Record<string, { endpoints: EndpointJson[] }>;
  const resourceFile = structuredClone(files.resourceFile) as ResourcesJson;
  const endpoint = (id: string) => endpointFiles['A.endpoints.json'].endpoints.find((e) => e.id === id) as EndpointJson;
  const resource = (name: string) =>
    resourceFile.resources.find((r) => r.name === name) as ResourcesJson['resources'][number];
  for (const id of ['modules.create', 'modules.update']) {
    endpoint(id).params.push(
      { name: 'module[estimated_minutes]', type: 'integer', description: 'integer' },
      { name: 'module[tags][]', type: 'string', description: 'string' },
      { name: 'module[optional]', type: 'boolean', description: 'boolean' },
    );
  }
  resource('Module').fields.push(
    { name: 'estimated_minutes', type: 'integer' },
    { name: 'tags', type: 'string[]' },
    { name: 'optional', type: 'boolean' },
  );
  endpoint('module_items.create').params.push({
    name: 'module_item[completion_requirement][min_percent]',
    type: 'number',
    description: 'number',
  });
  resource('CompletionRequirement').fields.push({ name: 'min_percent', type: 'number', optional: true });
  return loadCatalog({ endpointFiles, resourceFile });
}

test('a parameter and a field newly documented reach the mock without a change to its code', () =>
  withMock(
    async (call) => {
      const created = await call('POST', '/api/v1/courses/42/modules', {
        form: {
          'module[name]': 'Week 11',
          'module[estimated_minutes]': '45',
          'module[tags][]': ['lab', 'graded'],
          'module[optional]': 'true',
        },
      });
      assert.equal(created.status, 200);
      const module = created.body as Obj;
      assert.equal(module.estimated_minutes, 45);
      assert.deepEqual(module.tags, ['lab', 'graded']);
      assert.equal(module.optional, true);

      const updated = await call('PUT', `/api/v1/courses/42/modules/${String(module.id)}`, {
        form: { 'module[estimated_minutes]': '50', 'module[optional]': '0' },
      });
      assert.equal((updated.body as Obj).estimated_minutes, 50);
      assert.equal((updated.body as Obj).optional, false);
      const shown = (await call('GET', `/api/v1/courses/42/modules/${String(module.id)}`)).body as Obj;
      assert.deepEqual([shown.estimated_minutes, shown.tags, shown.optional], [50, ['lab', 'graded'], false]);

      const item = await call('POST', `/api/v1/courses/42/modules/${String(module.id)}/items`, {
        form: {
          'module_item[type]': 'Assignment',
          'module_item[content_id]': '305',
          'module_item[completion_requirement][type]': 'min_score',
          'module_item[completion_requirement][min_score]': '7',
          'module_item[completion_requirement][min_percent]': '62.5',
        },
      });
      assert.equal(item.status, 200);
      // No `completed`: the teacher's own view has no student's progress (document A, CompletionRequirement).
      assert.deepEqual((item.body as Obj).completion_requirement, {
        type: 'min_score',
        min_score: 7,
        min_percent: 62.5,
      });
    },
    { catalog: catalogWithNewFields() },
  ));

test('a value that does not fit the new field is refused by the checker before the mock stores it', () =>
  withMock(
    async (call) => {
      const answer = await call('POST', '/api/v1/courses/42/modules', {
        form: { 'module[name]': 'Week 11', 'module[estimated_minutes]': 'soon' },
      });
      assert.equal(answer.status, 400);
      assert.deepEqual(
        errorsOf(answer).map((e) => [e.code, e.parameter]),
        [['invalid-type', 'module[estimated_minutes]']],
      );
    },
    { catalog: catalogWithNewFields() },
  ));

test('without the docs, the same parameter is only a warning and the response has no such field', () =>
  withMock(async (call) => {
    const created = await call('POST', '/api/v1/courses/42/modules', {
      form: { 'module[name]': 'Week 11', 'module[estimated_minutes]': '45' },
    });
    assert.equal(created.status, 200);
    assert.equal((created.body as Obj).estimated_minutes, undefined);
  }));

/** A handler's context for one endpoint of the bundled catalog and the pairs sent. */
function contextFor(id: string, pairs: Pair[]): MockContext {
  const catalog = bundledCatalog();
  const endpoint = catalog.endpointById.get(id);
  assert.ok(endpoint, id);
  const state = new MockState(defaultSeed());
  const request = {
    state,
    catalog,
    endpoint,
    template: endpoint.paths[0].template,
    bindings: new Map(),
    params: new Params(pairs),
    json: undefined,
    headers: {},
    baseUrl: 'http://127.0.0.1',
    callerId: state.selfUserId,
  };
  return { ...request, who: new Viewer(request) };
}

test('values are coerced by the type of the field they fill, not kept as sent', () => {
  const fields = documentedFields(
    contextFor('modules.update', [
      ['module[position]', '3'],
      ['module[published]', '1'],
      ['module[prerequisite_module_ids][]', '5'],
      ['module[prerequisite_module_ids][]', '6'],
      ['module[unlock_at]', '2026-10-01T08:00:00Z'],
    ]),
    { under: 'module' },
  );
  // prerequisite_module_ids is documented as a string parameter and an integer[] field: the field decides.
  assert.deepEqual(fields, {
    position: 3,
    published: true,
    prerequisite_module_ids: [5, 6],
    unlock_at: '2026-10-01T08:00:00Z',
  });
});

test('a documented parameter that is no field of the resource is left to the handler', () => {
  const fields = documentedFields(
    contextFor('files.update', [
      ['name', 'notes.txt'],
      ['on_duplicate', 'rename'],
      ['locked', 'true'],
      ['lock_at', '2026-10-01'],
    ]),
  );
  assert.deepEqual(fields, { lock_at: '2026-10-01', locked: true });
  const except = documentedFields(
    contextFor('folders.update', [
      ['name', 'x'],
      ['parent_folder_id', '302'],
    ]),
    { except: ['parent_folder_id'] },
  );
  assert.deepEqual(except, { name: 'x' });
});

test('a deprecated parameter fills its successor, and a create takes the documented defaults', () => {
  assert.deepEqual(documentedFields(contextFor('roles.create', [['role', 'Proctor']]), { defaults: true }), {
    label: 'Proctor',
    base_role_type: 'AccountMembership',
  });
  assert.deepEqual(
    documentedFields(
      contextFor('roles.create', [
        ['label', 'Grader'],
        ['role', 'Proctor'],
        ['base_role_type', 'TaEnrollment'],
      ]),
      { defaults: true },
    ),
    { label: 'Grader', base_role_type: 'TaEnrollment' },
  );
  assert.deepEqual(documentedFields(contextFor('roles.create', [['label', 'Grader']])), { label: 'Grader' });
});

test('an empty value clears a field only where the docs say the parameter is nullable', () => {
  const ctx = contextFor('appointment_groups.update', [
    ['appointment_group[participants_per_appointment]', ''],
    ['appointment_group[max_appointments_per_participant]', ''],
  ]);
  assert.deepEqual(documentedFields(ctx, { under: 'appointment_group' }), { participants_per_appointment: null });
});

test('objects sent in part are merged over the stored one, maps of documented values included', () => {
  const item = documentedFields(
    contextFor('module_items.update', [['module_item[completion_requirement][min_score]', '8']]),
    {
      under: 'module_item',
      current: { completion_requirement: { type: 'min_score', min_score: 5, completed: true } },
    },
  );
  assert.deepEqual(item, { completion_requirement: { type: 'min_score', min_score: 8, completed: true } });
  const role = documentedFields(contextFor('roles.update', [['permissions[manage_grades][enabled]', 'false']]), {
    current: { permissions: { manage_grades: { explicit: true, enabled: true }, read_roster: { enabled: true } } },
  });
  assert.deepEqual(role, {
    permissions: { manage_grades: { explicit: true, enabled: false }, read_roster: { enabled: true } },
  });
});

test('an array of objects, indexed or not, and one element of an array of objects', () => {
  const indexed = documentedFields(
    contextFor('quiz_questions.create', [
      ['question[answers][1][answer_text]', 'B'],
      ['question[answers][0][answer_text]', 'A'],
      ['question[answers][0][answer_weight]', '100'],
    ]),
    { under: 'question' },
  );
  assert.deepEqual(indexed, { answers: [{ answer_text: 'A', answer_weight: 100 }, { answer_text: 'B' }] });
  const listed = documentedFields(
    contextFor('quiz_questions.create', [
      ['question[answers][][answer_text]', 'A'],
      ['question[answers][][answer_text]', 'B'],
    ]),
    { under: 'question' },
  );
  assert.deepEqual(listed, { answers: [{ answer_text: 'A' }, { answer_text: 'B' }] });
  const period = documentedFields(
    contextFor('grading_periods.update', [
      ['grading_periods[][start_date]', '2026-08-24'],
      ['grading_periods[][weight]', '40'],
    ]),
    { under: 'grading_periods', element: 0, resource: 'GradingPeriod' },
  );
  assert.deepEqual(period, { start_date: '2026-08-24', weight: 40 });
});

test('for a resource the docs name without fields, the parameters give the shape and the types', () => {
  const ctx = contextFor('webhook_subscriptions.create', [
    ['subscription[ContextType]', 'course'],
    ['subscription[EventTypes][]', 'GRADE_CHANGE'],
    ['subscription[EventTypes][]', 'QUIZ_SUBMITTED'],
    ['subscription[TransportMetadata][Url]', 'https://hooks.example.com/x'],
  ]);
  assert.deepEqual(documentedFields(ctx, { under: 'subscription' }), {
    ContextType: 'course',
    EventTypes: ['GRADE_CHANGE', 'QUIZ_SUBMITTED'],
    TransportMetadata: { Url: 'https://hooks.example.com/x' },
  });
});

test('a name such as __proto__ or constructor is a key like any other', () => {
  const ctx = contextFor('roles.update', [
    ['permissions[__proto__][enabled]', 'true'],
    ['permissions[constructor][locked]', 'false'],
  ]);
  const fields = documentedFields(ctx);
  const permissions = fields.permissions as Obj;
  assert.deepEqual(Object.keys(permissions), ['__proto__', 'constructor']);
  assert.equal(({} as Obj).enabled, undefined);
});

test('a value outside the documented values of a parameter is a 400 naming it', () => {
  assert.equal(
    enumValue(
      contextFor('notification_preferences.update', [['notification_preferences[frequency]', 'daily']]),
      'notification_preferences[frequency]',
    ),
    'daily',
  );
  const name = 'notification_preferences[new_grade][frequency]';
  assert.equal(enumValue(contextFor('notification_preferences.update_multiple', [[name, 'never']]), name), 'never');
  assert.throws(
    () => enumValue(contextFor('notification_preferences.update_multiple', [[name, 'hourly']]), name),
    (e: unknown) => e instanceof HttpError && e.status === 400 && e.code === 'invalid-enum' && e.parameter === name,
  );
});
