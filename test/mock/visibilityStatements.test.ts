/**
 * Every visibility and permission statement of the catalog (issue 30), walked over HTTP with a
 * user who may and one who may not. The cases are keyed by the statement they walk; a
 * statement added to the catalog without a case here fails the first test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bundledCatalog } from '../../server/src/catalogData';
import { type Answer, type CallOptions, withMock } from './mockClient';
import { DANIEL, LENA, MIRA, PRIYA, SAMUEL, TOMAS, USERS } from './seedUsers';

type Obj = Record<string, unknown>;

interface Case {
  method?: string;
  path: string;
  options?: CallOptions;
  /** The token of a user the statement lets through; undefined is the seed's own (Elena, a teacher). */
  may: string | undefined;
  mayNot: string | undefined;
  /** The request of the one who may not, where the statement is about the request rather than the user. */
  mayNotPath?: string;
  /** Whether an answer is what the user who may gets (a field there, a row listed, 2xx). */
  allowed(answer: Answer): boolean;
}

const TEACHER = undefined;
const has = (path: (body: unknown) => unknown, key: string) => (a: Answer) =>
  a.status === 200 && Object.hasOwn((path(a.body) ?? {}) as Obj, key);
const byId = (id: unknown) => (body: unknown) => (body as Obj[]).find((x) => x.id === id);
const status =
  (...ok: number[]) =>
  (a: Answer) =>
    ok.includes(a.status);
const ids = (a: Answer) => (a.status === 200 ? (a.body as Obj[]).map((x) => x.id) : []);
const userIds = (rows: Obj[]) => [...new Set(rows.map((r) => r.user_id))];

const CASES: Record<string, Case> = {
  // Document A, Module and CompletionRequirement: "present only for a student caller or when student_id is given".
  'Module.state': {
    path: '/api/v1/courses/42/modules/5',
    may: PRIYA,
    mayNot: TEACHER,
    allowed: has((b) => b, 'state'),
  },
  'Module.completed_at': {
    path: '/api/v1/courses/42/modules/5',
    may: PRIYA,
    mayNot: TEACHER,
    allowed: has((b) => b, 'completed_at'),
  },
  'CompletionRequirement.completed': {
    path: '/api/v1/courses/42/modules/5/items/21',
    may: PRIYA,
    mayNot: TEACHER,
    allowed: has((b) => (b as Obj).completion_requirement, 'completed'),
  },
  // "present only if the caller may view unpublished modules" (items likewise).
  'Module.published': {
    path: '/api/v1/courses/42/modules/5',
    may: TEACHER,
    mayNot: PRIYA,
    allowed: has((b) => b, 'published'),
  },
  'ModuleItem.published': {
    path: '/api/v1/courses/42/modules/5/items/21',
    may: TEACHER,
    mayNot: DANIEL,
    allowed: has((b) => b, 'published'),
  },
  // Document B, Course.
  'Course.sis_course_id': {
    path: '/api/v1/courses',
    may: TEACHER,
    mayNot: PRIYA,
    allowed: has(byId(42), 'sis_course_id'),
  },
  'Course.integration_id': {
    path: '/api/v1/courses',
    may: TEACHER,
    mayNot: PRIYA,
    allowed: has(byId(42), 'integration_id'),
  },
  'Course.sis_import_id': {
    path: '/api/v1/users/1001/courses',
    may: MIRA,
    mayNot: DANIEL,
    allowed: has(byId(42), 'sis_import_id'),
  },
  'Course.needs_grading_count': {
    path: '/api/v1/courses?include[]=needs_grading_count',
    may: TEACHER,
    mayNot: PRIYA,
    allowed: has(byId(42), 'needs_grading_count'),
  },
  // Document C: permissions[] "contexts only; mapping of requested permission to boolean": asked for, or not.
  'RecipientSearchResult.permissions': {
    path: '/api/v1/search/recipients?type=context&permissions[]=send_messages',
    mayNotPath: '/api/v1/search/recipients?type=context',
    may: PRIYA,
    mayNot: PRIYA,
    allowed: has(byId('course_42'), 'permissions'),
  },
  // Document A, Files and folders.
  'files.upload access': {
    method: 'POST',
    path: '/api/v1/folders/301/files',
    options: { form: { name: 'notes.txt' } },
    may: TEACHER,
    mayNot: PRIYA,
    allowed: status(200),
  },
  'files.delete access': {
    method: 'DELETE',
    path: '/api/v1/files/4413?replace=true',
    may: MIRA,
    mayNot: TEACHER,
    allowed: status(200),
  },
  // Document A, AppointmentGroup: "pending means unpublished and invisible to participants".
  'appointment_groups.list rows': {
    path: '/api/v1/appointment_groups?scope=manageable',
    may: TEACHER,
    mayNot: PRIYA,
    allowed: (a) => ids(a).includes(81),
  },
  'appointment_groups.show rows': {
    path: '/api/v1/appointment_groups/81',
    may: TEACHER,
    mayNot: PRIYA,
    allowed: status(200),
  },
  // Document B, Courses: state[] "default is available for students and observers": Tomas is a student of the unpublished HIST-210.
  'courses.list rows': { path: '/api/v1/courses', may: SAMUEL, mayNot: TOMAS, allowed: (a) => ids(a).includes(44) },
  'courses.list_for_user access': {
    path: '/api/v1/users/1001/courses',
    may: DANIEL,
    mayNot: LENA,
    allowed: status(200),
  },
  'courses.list_for_user rows': {
    path: '/api/v1/users/self/courses',
    may: SAMUEL,
    mayNot: TOMAS,
    allowed: (a) => ids(a).includes(44),
  },
  // Document B, Assignment submissions.
  'submissions.create access': {
    method: 'POST',
    path: '/api/v1/courses/42/assignments/7/submissions',
    options: { form: { 'submission[submission_type]': 'online_url', 'submission[url]': 'https://example.com/r' } },
    may: PRIYA,
    mayNot: TEACHER,
    allowed: status(201),
  },
  'submissions.list_for_students rows': {
    path: '/api/v1/courses/42/students/submissions?student_ids[]=all',
    may: TEACHER,
    mayNot: PRIYA,
    allowed: (a) => a.status === 200 && userIds(a.body as Obj[]).length > 1,
  },
  'submissions.upload_file access': {
    method: 'POST',
    path: '/api/v1/courses/42/assignments/7/submissions/self/files',
    options: { form: { name: 'report.pdf' } },
    may: PRIYA,
    mayNot: TEACHER,
    allowed: status(200),
  },
  'submissions.update access': {
    method: 'PUT',
    path: '/api/v1/courses/42/assignments/7/submissions/1002',
    options: { form: { 'submission[posted_grade]': '17' } },
    may: TEACHER,
    mayNot: PRIYA,
    allowed: status(200),
  },
  // Document B, Quiz submissions.
  'quiz_submissions.list rows': {
    path: '/api/v1/courses/42/quizzes/9/submissions',
    may: TEACHER,
    mayNot: PRIYA,
    allowed: (a) => a.status === 200 && userIds((a.body as Obj).quiz_submissions as Obj[]).length > 1,
  },
  'quiz_submissions.create access': {
    method: 'POST',
    path: '/api/v1/courses/42/quizzes/55/submissions',
    options: { form: { preview: 'true' } },
    may: TEACHER,
    mayNot: PRIYA,
    allowed: status(200),
  },
  'quiz_submissions.update access': {
    method: 'PUT',
    path: '/api/v1/courses/42/quizzes/9/submissions/3',
    options: { json: { quiz_submissions: [{ attempt: 1, fudge_points: 1 }] } },
    may: TEACHER,
    mayNot: LENA,
    allowed: status(200),
  },
};

/** Every statement of the catalog, by the key its case has. */
function statements(): string[] {
  const catalog = bundledCatalog();
  const out: string[] = [];
  for (const r of catalog.resources.values())
    for (const f of r.fields) if (f.visibility) out.push(`${r.name}.${f.name}`);
  for (const e of catalog.endpoints) {
    if (e.visibility?.access) out.push(`${e.id} access`);
    if (e.visibility?.rows) out.push(`${e.id} rows`);
  }
  return out.sort();
}

test('every visibility statement of the catalog has a case here', () => {
  assert.deepEqual(Object.keys(CASES).sort(), statements());
});

for (const [statement, c] of Object.entries(CASES)) {
  test(`${statement}: a user who may gets it, one who may not does not`, () =>
    withMock(async (call) => {
      const send = (token: string | undefined, path = c.path) => call(c.method ?? 'GET', path, { ...c.options, token });
      // The refused request first: a refusal changes nothing, so the one that may then finds the same data.
      const refused = await send(c.mayNot, c.mayNotPath);
      assert.equal(c.allowed(refused), false, `may not: ${refused.status} ${JSON.stringify(refused.body)}`);
      assert.ok(refused.status < 500, JSON.stringify(refused.body));
      if (refused.status === 403) assert.ok(/document [ABC]/.test(JSON.stringify(refused.body)), 'names the statement');
      const allowed = await send(c.may);
      assert.equal(c.allowed(allowed), true, `may: ${allowed.status} ${JSON.stringify(allowed.body)}`);
    }, USERS));
}

test('a student may read her own and an observed student, and nobody else, in the list for students', () =>
  withMock(async (call) => {
    const who = async (token: string) =>
      userIds(
        (await call('GET', '/api/v1/courses/42/students/submissions?student_ids[]=1001&student_ids[]=1002', { token }))
          .body as Obj[],
      );
    assert.deepEqual(await who(PRIYA), [1001]);
    assert.deepEqual(await who(DANIEL), [1001], 'observers see associated students');
    assert.deepEqual(await who(LENA), []);
  }, USERS));

test('a refusal of a teacher submitting says who and why', () =>
  withMock(async (call) => {
    const r = await call('POST', '/api/v1/courses/42/assignments/7/submissions', {
      form: { 'submission[submission_type]': 'online_text_entry', 'submission[body]': 'x' },
    });
    assert.equal(r.status, 403);
    const error = (r.body as { errors: Obj[] }).errors[0];
    assert.equal(error.code, 'not-a-student');
    assert.match(String(error.message), /caller must be a student in the course or section/);
  }));
