/**
 * Issue 30: the eight places where the mock did what the docs say it does not, walked over
 * HTTP on 127.0.0.1, each named by the section it is held to. Every request carries the token
 * of one seeded user: the bundled seed's own token is Elena Vasquez's (7, a teacher).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type Call, errorsOf, withMock } from './mockClient';
import { DANIEL, LENA, MIRA, PRIYA, TOMAS, USERS } from './seedUsers';

type Obj = Record<string, unknown>;

const ok = async (call: Call, path: string, token?: string): Promise<unknown> => {
  const r = await call('GET', path, token ? { token } : {});
  assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
  return r.body;
};

const MB = 1024 * 1024;

test('A, Files and folders, quota: "an object with quota and quota_used" for a user and a group too (A, Limits: "a quota per course, group and user")', () =>
  withMock(async (call) => {
    const user = (await ok(call, '/api/v1/users/7/files/quota')) as Obj;
    // The account's default user quota; the user's one file (grading-notes.txt) is what is used.
    assert.equal(user.quota, 50 * MB);
    assert.equal(typeof user.quota_used, 'number');
    const group = (await ok(call, '/api/v1/groups/60/files/quota')) as Obj;
    assert.equal(group.quota, 50 * MB);
    assert.equal(typeof group.quota_used, 'number');
    const course = (await ok(call, '/api/v1/courses/42/files/quota')) as Obj;
    assert.equal(course.quota, 500 * MB, "a course's own storage_quota_mb");
  }));

test('B, Quiz submissions, list: "a submit-only user gets their own"; graders get every student\'s, and no preview', () =>
  withMock(async (call) => {
    const users = (body: unknown) =>
      ((body as Obj).quiz_submissions as Obj[]).map((s) => s.user_id).sort((a, b) => Number(a) - Number(b));
    assert.deepEqual(users(await ok(call, '/api/v1/courses/42/quizzes/9/submissions', PRIYA)), [1001]);
    // The teacher's own preview "does not count toward the course record".
    assert.deepEqual(users(await ok(call, '/api/v1/courses/42/quizzes/9/submissions')), [1001, 1002]);
    // "if the caller has an in-progress submission only that one is returned".
    const started = await call('POST', '/api/v1/courses/42/quizzes/9/submissions', {
      form: { access_code: 'osmosis42' },
      token: PRIYA,
    });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const mine = (await ok(call, '/api/v1/courses/42/quizzes/9/submissions', PRIYA)) as Obj;
    assert.deepEqual(
      (mine.quiz_submissions as Obj[]).map((s) => [s.user_id, s.attempt, s.workflow_state]),
      [[1001, 2, 'untaken']],
    );
  }, USERS));

test('B, Courses: "viewing another user\'s list requires being an observer of that user or an administrator" (A, Authentication 3)', () =>
  withMock(async (call) => {
    const another = await call('GET', '/api/v1/users/1001/courses', { token: LENA });
    assert.equal(another.status, 403, 'a student reading another student');
    assert.ok(errorsOf(another)[0].message.length > 0);
    assert.equal((await call('GET', '/api/v1/users/1001/courses')).status, 403, 'her teacher reading it');
    const ids = (body: unknown) => (body as Obj[]).map((c) => c.id);
    assert.deepEqual(ids(await ok(call, '/api/v1/users/1001/courses', DANIEL)), [42], 'her observer');
    assert.deepEqual(ids(await ok(call, '/api/v1/users/1001/courses', MIRA)), [42], 'an administrator');
    assert.deepEqual(ids(await ok(call, '/api/v1/users/1001/courses', PRIYA)), [42], 'her own, by id');
    assert.deepEqual(ids(await ok(call, '/api/v1/users/self/courses', PRIYA)), [42], 'her own, as self');
  }, USERS));

test('B, Course: course_progress "only with include[]=course_progress", an error message where the course is not module based or the user not a student in it', () =>
  withMock(async (call) => {
    const progressOf = async (token: string | undefined, id: number) => {
      const courses = (await ok(call, '/api/v1/courses?include[]=course_progress', token)) as Obj[];
      const c = courses.find((x) => x.id === id);
      assert.ok(c, `course ${id}`);
      return c.course_progress as Obj | undefined;
    };
    // Seven requirements in the published modules. Priya viewed the syllabus, passed quiz 1 and
    // submitted lab report 1; Week 1 (not sequential) is where she is, so no next requirement is named.
    assert.deepEqual(await progressOf(PRIYA, 42), {
      requirement_count: 7,
      requirement_completed_count: 3,
      next_requirement_url: null,
      completed_at: null,
    });
    // Lena finished Weeks 0 and 1 and submitted lab report 1: Week 2 requires sequential progress, and quiz 1 comes first.
    const lena = await progressOf(LENA, 42);
    assert.equal(lena?.requirement_completed_count, 3);
    assert.match(String(lena?.next_requirement_url), /\/courses\/42\/modules\/items\/31$/);
    // The teacher is no student of BIO-101; CHEM-110 has no completion requirements.
    assert.equal(typeof ((await progressOf(undefined, 42))?.error as Obj | undefined)?.message, 'string');
    assert.equal(typeof ((await progressOf(TOMAS, 43))?.error as Obj | undefined)?.message, 'string');
    const without = (await ok(call, '/api/v1/courses', PRIYA)) as Obj[];
    assert.equal('course_progress' in without[0], false, 'not without the include');
  }, USERS));

test('C, Recipient search result: "permissions[] (contexts only; mapping of requested permission to boolean)"', () =>
  withMock(async (call) => {
    const query = '/api/v1/search/recipients?permissions[]=send_messages_all&permissions[]=manage_grades';
    const course42 = (body: unknown) => (body as Obj[]).find((r) => r.id === 'course_42');
    const teacher = (await ok(call, `${query}&type=context`)) as Obj[];
    assert.deepEqual(course42(teacher)?.permissions, { send_messages_all: true, manage_grades: true });
    const student = (await ok(call, `${query}&type=context`, PRIYA)) as Obj[];
    assert.deepEqual(course42(student)?.permissions, { send_messages_all: false, manage_grades: false });
    const users = (await ok(call, `${query}&type=user`)) as Obj[];
    assert.ok(users.length > 0);
    for (const u of users) assert.equal('permissions' in u, false, 'users carry no permissions');
    const unasked = (await ok(call, '/api/v1/search/recipients?type=context')) as Obj[];
    assert.equal('permissions' in (course42(unasked) ?? {}), false, 'only when permissions[] is sent');
  }, USERS));

test('A, Files and folders, list: "only[] (array; names returns only file names; overrides include[])"', () =>
  withMock(async (call) => {
    const files = (await ok(
      call,
      '/api/v1/courses/42/files?only[]=names&include[]=user&include[]=usage_rights',
    )) as Obj[];
    assert.ok(files.length > 0);
    for (const f of files) {
      assert.equal(typeof f.display_name, 'string');
      const extra = Object.keys(f).filter((k) => !['id', 'uuid', 'folder_id', 'display_name', 'filename'].includes(k));
      assert.deepEqual(extra, [], `${String(f.display_name)} has only its names and ids`);
    }
  }));

test('B, Course: sis_course_id "only if the caller may view SIS information" (A, Roles: read_sis [sTa], off for students)', () =>
  withMock(async (call) => {
    const bio = (courses: unknown) => (courses as Obj[]).find((c) => c.id === 42) as Obj;
    const student = bio(await ok(call, '/api/v1/courses', PRIYA));
    assert.equal('sis_course_id' in student, false);
    assert.equal('integration_id' in student, false);
    assert.equal(bio(await ok(call, '/api/v1/courses')).sis_course_id, 'BIO-101', 'the teacher may (read_sis: T)');
    assert.equal(
      bio(await ok(call, '/api/v1/users/1001/courses', MIRA)).sis_course_id,
      'BIO-101',
      'an administrator may',
    );
    assert.equal(
      'sis_course_id' in bio(await ok(call, '/api/v1/users/1001/courses', DANIEL)),
      false,
      'an observer may not',
    );
  }, USERS));

test('B, Assignment submissions, list for students: enrollment_state and grading_period_id filter what is listed', () =>
  withMock(async (call) => {
    const ids = async (query: string) =>
      ((await ok(call, `/api/v1/courses/42/students/submissions?student_ids[]=all&${query}`)) as Obj[])
        .map((s) => [s.user_id, s.assignment_id])
        .sort((a, b) => Number(a[0]) - Number(b[0]) || Number(a[1]) - Number(b[1]));
    // Noah (1005) is a student of BIO-101 whose enrollment is concluded.
    assert.deepEqual(await ids('enrollment_state=concluded'), [[1005, 7]]);
    assert.deepEqual(await ids('enrollment_state=active'), [
      [1001, 7],
      [1001, 307],
      [1002, 7],
      [1003, 7],
    ]);
    // Fall second half (6) holds the due date of assignment 307 only.
    assert.deepEqual(await ids('grading_period_id=6'), [[1001, 307]]);
    assert.deepEqual(await ids('grading_period_id=5'), [
      [1001, 7],
      [1002, 7],
      [1003, 7],
      [1005, 7],
    ]);
  }));
