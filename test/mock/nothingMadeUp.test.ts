/**
 * Nothing in a response is made up (issue 22): a field the data does not give is null where
 * the docs allow null and absent otherwise, never a value of its type picked by the mock (a
 * score of 0, the mock's clock as a date, the first value of an enum).
 *
 * - The materializer, over every resource of the catalog and rows that give any subset of
 *   its fields: each field is what the row gives, or null (documented nullable), or absent.
 * - Every GET endpoint over HTTP, against the bundled seed and against a sparse one (each row
 *   cut down to the keys the seed requires and its ids): every value of a documented field
 *   is one the data set holds under that name, or a documented default, unless the field is
 *   one a handler computes from other data (DERIVED, each with what it is computed from);
 *   and so for a student, an observer and an administrator too, whose answers the catalog's
 *   visibility statements shape (issue 30).
 * - The visibility data itself: every statement is the docs' words, in the section it cites,
 *   and names only permissions of document A's table, which is the docs' table letter for letter.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED } from '../helpers';
import { DANIEL, MIRA, PRIYA, USERS } from './seedUsers';
import fc from 'fast-check';
import { bundledCatalog } from '../../server/src/catalogData';
import { whoAtoms, type Catalog, type Field } from '../../server/src/core/index';
import { Materializer } from '../../server/src/mock/materialize';
import { SeedSchema, type SeedData } from '../../server/src/mock/seed';
import seedJson from '../../server/src/mock/seed.json';
import { fuzzRuns } from '../fuzzRuns';
import { CREATES, getRequests } from './requests';
import { withMock } from './mockClient';

type Obj = Record<string, unknown>;

const PRIMITIVE = new Set(['integer', 'number', 'string', 'boolean', 'DateTime', 'Date']);

/** A value of a primitive type, for the rows of the materializer's property. */
function valueOf(type: string): fc.Arbitrary<unknown> {
  switch (type) {
    case 'integer':
      return fc.integer({ min: -5, max: 5000 });
    case 'number':
      return fc.double({ min: -100, max: 100, noNaN: true });
    case 'boolean':
      return fc.boolean();
    case 'DateTime':
      return fc.constantFrom('2026-09-05T10:00:00Z', '2026-12-01T08:30:00-06:00');
    case 'Date':
      return fc.constantFrom('2026-09-05', '2027-01-31');
    default:
      return fc.string({ maxLength: 8 });
  }
}

test('the materializer gives what a row holds, null for a documented nullable field it lacks, and nothing else', () => {
  const catalog = bundledCatalog();
  const materializer = new Materializer(catalog);
  const resources = [...catalog.resources.values()].filter((r) => r.fields.length > 0);
  const primitive = (f: Field) => PRIMITIVE.has(f.type);
  fc.assert(
    fc.property(
      fc.constantFrom(...resources.map((r) => r.name)).chain((name) =>
        fc.tuple(
          fc.constant(name),
          fc.record(
            Object.fromEntries(
              (catalog.resources.get(name)?.fields ?? []).filter(primitive).map((f) => [f.name, valueOf(f.type)]),
            ),
            {
              requiredKeys: [],
            },
          ),
        ),
      ),
      ([name, row]) => {
        const resource = catalog.resources.get(name);
        assert.ok(resource);
        const out = materializer.value(name, row) as Obj;
        for (const f of resource.fields) {
          const given = Object.hasOwn(row, f.name);
          if (given && primitive(f)) {
            assert.ok(Object.hasOwn(out, f.name), `${name}.${f.name} given but left out`);
          } else if (!given) {
            if (f.nullable && !f.optional) assert.equal(out[f.name], null, `${name}.${f.name}`);
            else
              assert.equal(
                Object.hasOwn(out, f.name),
                false,
                `${name}.${f.name} made up as ${JSON.stringify(out[f.name])}`,
              );
          }
        }
      },
    ),
    { numRuns: fuzzRuns(2000) },
  );
});

/**
 * Fields a handler computes from other data, with what they are computed from. A field here
 * is not held to the data set's values; a field that is not here and has a value the data
 * set does not hold under its name is made up. So are the mock's links to its own resources
 * (a value on its origin, such as html_url or items_url), which are made of ids.
 */
const DERIVED: Record<string, string> = {
  'AppointmentGroup.appointments_count': 'its slots',
  'AppointmentGroup.participant_count': "its slots' reservations",
  'AppointmentGroup.requiring_action': "the caller's enrollments and reservations, and the group's minimum",
  'ContentDetails.locked_for_user': "the module's state for the student, and sequential progress",
  'ContentDetails.lock_explanation': "why the item's module or sequential progress locks it for the student",
  'CompletionRequirement.completed': "the student's submissions, quiz attempts and requirements_met rows",
  'Module.state': "the student's progress: unlock_at, prerequisites and the requirements met",
  'Module.completed_at': "when the student met the module's last requirement",
  'Course.root_account_id': "the course's account",
  'Course.total_students': "the course's student enrollments",
  'Course.storage_quota_used_mb': "the sizes of the course's files",
  'CourseEventLink.course': "the event's course",
  'CourseEventLink.user': "the event's user",
  'Day.date': 'the grading dates of the submissions',
  'File.mime_class': "the file's content type",
  'File.hidden_for_user': 'hidden, and whether the caller is a learner of the course',
  'File.locked_for_user': 'locked, and whether the caller is a learner of the course',
  'Folder.hidden_for_user': 'hidden, and whether the caller is a learner of the course',
  'Folder.locked_for_user': 'locked, and whether the caller is a learner of the course',
  'FileQuota.quota': "the context's storage_quota_mb",
  'FileQuota.quota_used': "the sizes of the context's files",
  'Folder.files_count': "the folder's files",
  'Folder.folders_count': "the folder's folders",
  'Folder.full_name': 'the names of the folders above it',
  'Grader.assignments': 'the assignments of the submissions the grader graded',
  'GradingPeriod.is_closed': 'close_date and the clock',
  'Module.items_count': "the module's items",
  'OutcomeAlignment.id': "the results' alignment ids",
  'OutcomeRollupLinks.user': "the results' users",
  'OutcomeRollupLinks.section': "the users' enrollments",
  'OutcomeRollupScore.count': "the results' scores",
  'PeerReview.asset_type': 'the asset of every peer review is a submission (asset_id)',
  'PlannerItem.plannable_id': 'the id of the note or assignment',
  'PlannerItem.plannable_type': 'what the item is',
  'PlannerItem.visible_in_planner': 'no planner override hides it',
  'PlannerItemSubmissions.excused': "the caller's submission",
  'PlannerItemSubmissions.graded': "the caller's submission",
  'PlannerItemSubmissions.late': "the caller's submission and the due date",
  'PlannerItemSubmissions.missing': "the caller's submission and the due date",
  'PlannerItemSubmissions.needs_grading': "the caller's submission",
  'PlannerItemSubmissions.with_feedback': "the caller's submission's comments",
  'QuizSubmission.overdue_and_needs_submission': 'end_at, the state and the clock',
  'QuizSubmissionTime.time_left': 'end_at and the clock',
  'RecipientSearchResult.type': 'what the result is',
  'Role.role': 'the deprecated alias of label',
  'RecipientSearchResult.types': 'what the result is',
  'SubmissionHistory.submission_id': "the submission's id",
  ...Object.fromEntries(
    ['Submission', 'SubmissionVersion'].flatMap((r) => [
      [`${r}.assignment_visible`, "the student's enrollment"],
      [`${r}.grade_matches_current_submission`, 'graded_at and submitted_at'],
      [`${r}.late`, 'submitted_at and the due date'],
      [`${r}.seconds_late`, 'submitted_at and the due date'],
      [`${r}.missing`, 'submitted_at, the due date and the clock'],
      [`${r}.workflow_state`, 'the grade and submitted_at, when the data has no state'],
    ]),
  ),
  'SubmissionVersion.current_grade': "the submission's grade",
  'SubmissionVersion.new_grade': "the submission's grade",
  'SubmissionVersion.current_graded_at': "the submission's graded_at",
  'SubmissionVersion.new_graded_at': "the submission's graded_at",
};

/** Every value the data set holds under each name, at any depth, as text (a DateTime also as its date). */
function heldValues(seed: unknown, out = new Map<string, Set<string>>(), name?: string): Map<string, Set<string>> {
  if (Array.isArray(seed)) for (const v of seed) heldValues(v, out, name);
  else if (seed !== null && typeof seed === 'object') for (const [k, v] of Object.entries(seed)) heldValues(v, out, k);
  else if (name !== undefined && seed !== null && seed !== undefined) {
    const set = out.get(name) ?? new Set<string>();
    set.add(String(seed));
    if (typeof seed === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(seed)) set.add(seed.slice(0, 10));
    out.set(name, set);
  }
  return out;
}

/** The defaults the docs give, by the last name of the parameter (`not_selectable`, `windowTarget`). */
function documentedDefaults(catalog: Catalog): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const e of catalog.endpoints)
    for (const p of e.params) {
      if (p.default === undefined) continue;
      const name = p.parsedName.segments[p.parsedName.segments.length - 1];
      out.set(name, (out.get(name) ?? new Set()).add(String(p.default)));
    }
  return out;
}

/** Each primitive value of a documented field in a body, walked by its documented type. */
function visitFields(
  catalog: Catalog,
  type: string,
  value: unknown,
  visit: (resource: string, field: string, value: unknown) => void,
  depth = 0,
): void {
  if (depth > 12 || value === null || value === undefined) return;
  const alternatives = type.split('|').map((t) => t.trim());
  if (alternatives.length > 1) {
    const fitting = alternatives.find((t) =>
      t.endsWith('[]')
        ? Array.isArray(value)
        : catalog.resources.has(t)
          ? typeof value === 'object' && !Array.isArray(value)
          : false,
    );
    if (fitting) visitFields(catalog, fitting, value, visit, depth);
    return;
  }
  if (type.endsWith('[]')) {
    if (Array.isArray(value)) for (const v of value) visitFields(catalog, type.slice(0, -2), v, visit, depth + 1);
    return;
  }
  const resource = catalog.resources.get(type);
  if (!resource || typeof value !== 'object' || Array.isArray(value)) return;
  const row = value as Obj;
  for (const f of resource.fields) {
    if (!Object.hasOwn(row, f.name)) continue;
    const v = row[f.name];
    const base = f.type.replace(/\[\]$/, '');
    if (PRIMITIVE.has(base)) {
      for (const x of Array.isArray(v) ? v : [v]) if (x !== null) visit(resource.name, f.name, x);
    } else visitFields(catalog, f.type, v, visit, depth + 1);
  }
  if (resource.valueType)
    for (const [k, v] of Object.entries(row))
      if (!resource.fieldByName.has(k)) visitFields(catalog, resource.valueType, v, visit, depth + 1);
}

/** The bundled seed with each row cut down to its ids and the keys the seed requires. */
function sparseSeed(): SeedData {
  const seed = structuredClone(seedJson) as Record<string, unknown>;
  const shape = SeedSchema.shape as Record<string, { safeParse(v: unknown): { success: boolean } }>;
  for (const [table, rows] of Object.entries(seed)) {
    if (!Array.isArray(rows)) continue;
    seed[table] = rows.map((row: Obj) => {
      const kept: Obj = { ...row };
      for (const key of Object.keys(row)) {
        if (key === 'id' || /_ids?$/.test(key)) continue;
        const without = { ...kept };
        delete without[key];
        if (shape[table].safeParse([without]).success) delete kept[key];
      }
      return kept;
    });
  }
  return seed as SeedData;
}

/**
 * What a create sets because of what the request leaves unsaid, with why: the docs give no
 * parameter to say otherwise on create, or not sending one means the feature is off.
 */
const CREATED: Record<string, string> = {
  'Module.published': 'module[published] is an update parameter only: a new module is unpublished',
  'ModuleItem.published': 'module_item[published] is an update parameter only: a new item is unpublished',
  'Module.require_sequential_progress': 'not sent: the module does not require it',
  'ModuleItem.indent': 'not sent: the item is not indented (0-based indent level)',
  'AppointmentGroup.workflow_state': 'pending until published (appointment_group[publish])',
  'AppointmentGroup.participant_type': 'User, unless sub_context_codes names a group category',
  'PeerReview.workflow_state': 'a reviewer just assigned',
  'QuizSubmission.workflow_state':
    'untaken: an attempt in progress, not yet turned in (the state a create assigns is not shown; untaken is the documented one that fits)',
  'QuizSubmission.started_at': 'the clock when the session starts',
  'QuizSubmission.end_at': "the start and the quiz's time limit",
  'QuizSubmission.validation_token': 'the token the start gives, to be sent back to complete',
  'Module.position': "its place among the course's modules",
  'ModuleItem.position': "its place among the module's items",
  'CustomColumn.position': "its place among the course's columns",
  'QuizQuestion.position': "its place among the quiz's questions",
  'Folder.position': "its place among the folder's folders",
};

interface Sent {
  sent: Map<string, Set<string>>;
  pathIds: Set<string>;
  clock: string;
}

/** The check of bodies against the values a data set holds, documented defaults, and what a request sent. */
function checker(catalog: Catalog, seed: unknown, origin: string, created: Record<string, string> = {}) {
  const held = heldValues(seed);
  const defaults = documentedDefaults(catalog);
  const madeUp = new Map<string, string>();
  return {
    madeUp,
    check(id: string, returns: string, body: unknown, request?: Sent) {
      visitFields(catalog, returns, body, (resource, field, value) => {
        const key = `${resource}.${field}`;
        const text = String(value);
        if (
          Object.hasOwn(DERIVED, key) ||
          Object.hasOwn(created, key) ||
          held.get(field)?.has(text) ||
          defaults.get(field)?.has(text)
        )
          return;
        // The mock's links to its own resources are made of ids.
        if (typeof value === 'string' && value.startsWith(`${origin}/`)) return;
        if (request) {
          // A boolean parameter is sent as 1 or 0 as often as true or false.
          const spelled = value === true ? ['true', '1'] : value === false ? ['false', '0'] : [text];
          if (
            spelled.some((t) => request.sent.get(field)?.has(t)) ||
            (/(^|_)id$/.test(field) && request.pathIds.has(text))
          )
            return;
          // A new object: its id is the mock's to give, and it is made at the clock's time.
          if (field === 'id' && typeof value === 'number') return;
          if ((field === 'created_at' || field === 'updated_at') && text.startsWith(request.clock)) return;
        }
        if (!madeUp.has(key)) madeUp.set(key, `${key} = ${JSON.stringify(value)} (${id})`);
      });
    },
  };
}

for (const [name, seed] of [
  ['the bundled seed', seedJson as unknown as SeedData],
  ['a sparse seed', sparseSeed()],
] as const) {
  test(`every GET endpoint against ${name}: no value the data does not hold, unless computed from it`, () =>
    withMock(
      async (call, mock) => {
        const catalog = bundledCatalog();
        const { madeUp, check } = checker(catalog, seed, mock.url);
        let answered = 0;
        for (const { id, returns, url } of getRequests(catalog)) {
          const answer = await call('GET', url);
          if (answer.status !== 200 || !returns) continue;
          answered++;
          check(id, returns, answer.body);
        }
        assert.ok(answered > 60, `only ${answered} GET requests answered 200`);
        assert.deepEqual([...madeUp.values()].sort(), []);
      },
      { seed },
    ));

  test(`creates and updates against ${name}: no value the data or the request does not hold, unless computed from them`, () =>
    withMock(
      async (call, mock) => {
        const catalog = bundledCatalog();
        const { madeUp, check } = checker(catalog, seed, mock.url, CREATED);
        for (const [id, path, form] of CREATES) {
          const endpoint = catalog.endpointById.get(id);
          assert.ok(endpoint?.returns, id);
          const answer = await call(endpoint.method, path, { form });
          // What was sent counts as data: each value under the last name of its parameter
          // (`module_item[title]` is `title`), and the ids of the path under any name.
          const sent = heldValues(
            Object.fromEntries(Object.entries(form).map(([k, v]) => [/(\w+)\]?(\[\])?$/.exec(k)?.[1] ?? k, v])),
          );
          const pathIds = new Set(path.split('/').filter((segment) => /^\d+$/.test(segment)));
          assert.equal(answer.status, 200, `${id}: ${JSON.stringify(answer.body)}`);
          check(id, endpoint.returns, answer.body, { sent, pathIds, clock: mock.state.now().slice(0, 16) });
        }
        assert.deepEqual([...madeUp.values()].sort(), []);
      },
      { seed },
    ));
}

/** The text of every heading of a document titled `section`, up to the next heading of its level or above, white space collapsed. */
function sectionText(doc: string, section: string): string {
  const name = readdirSync(join(SHARED, 'api-docs')).find((n) => n.startsWith(`${doc}-`));
  assert.ok(name, `document ${doc}`);
  const lines = readFileSync(join(SHARED, 'api-docs', name), 'utf8').split('\n');
  const parts: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(#{2,4})\s+(.+?)\s*$/.exec(lines[i]);
    if (!m || m[2] !== section) continue;
    for (let j = i + 1; j < lines.length; j++) {
      const next = /^(#{2,4})\s/.exec(lines[j]);
      if (next && next[1].length <= m[1].length) break;
      parts.push(lines[j]);
    }
  }
  return parts.join(' ').replace(/\s+/g, ' ');
}

test("the visibility data is the docs' own: each statement's words in the section it cites, permissions of document A's table", () => {
  const catalog = bundledCatalog();
  const permissions = catalog.permissions;
  assert.ok(permissions, "document A's permission table is in the catalog");
  const statements = [
    ...[...catalog.resources.values()].flatMap((r) =>
      r.fields.flatMap((f) => (f.visibility ? [{ what: `${r.name}.${f.name}`, v: f.visibility }] : [])),
    ),
    ...catalog.endpoints.flatMap((e) => [
      ...(e.visibility?.access ?? []).map((v) => ({ what: `${e.id} access`, v })),
      ...(e.visibility?.rows ? [{ what: `${e.id} rows`, v: e.visibility.rows }] : []),
    ]),
  ];
  assert.ok(statements.length >= 20, `${statements.length} statements`);
  const notQuoted: string[] = [];
  const unknownPermissions: string[] = [];
  for (const { what, v } of statements) {
    const text = v.text.replace(/\s+/g, ' ');
    if (!sectionText(v.source.doc, v.source.section).includes(text))
      notQuoted.push(`${what}: "${v.text}" is not in ${v.source.doc}, ${v.source.section}`);
    for (const atom of [...whoAtoms(v.when), ...(v.if ? whoAtoms(v.if) : [])])
      if ('permission' in atom && !permissions.names.has(atom.permission))
        unknownPermissions.push(`${what}: ${atom.permission}`);
  }
  assert.deepEqual(notQuoted, []);
  assert.deepEqual(unknownPermissions, []);

  // The table, letter for letter: every name of the two lists of document A, Roles, and nothing else.
  const roles = sectionText('A', 'Roles');
  assert.ok(roles.includes(permissions.table.text), 'the letters explained as the docs explain them');
  const accountLine = /Account-level permission names: ([^.]+)\./.exec(roles)?.[1] ?? '';
  assert.deepEqual(
    [...permissions.account],
    accountLine.split(',').map((n) => n.trim()),
  );
  const courseList = roles.slice(roles.indexOf(permissions.table.text));
  const written = [...courseList.matchAll(/(\w+) \[(\w+)\]/g)].map((m) => [m[1], m[2]]);
  assert.deepEqual(Object.entries(permissions.table.course), written);
});

test('every GET endpoint as a student, an observer and an administrator: no value the data does not hold', () =>
  withMock(async (call, mock) => {
    const catalog = bundledCatalog();
    const { madeUp, check } = checker(catalog, seedJson, mock.url);
    let answered = 0;
    for (const token of [PRIYA, DANIEL, MIRA])
      for (const { id, returns, url } of getRequests(catalog)) {
        const answer = await call('GET', url, { token });
        if (answer.status !== 200 || !returns) continue;
        answered++;
        check(id, returns, answer.body);
      }
    assert.ok(answered > 150, `only ${answered} GET requests answered 200`);
    assert.deepEqual([...madeUp.values()].sort(), []);
  }, USERS));
