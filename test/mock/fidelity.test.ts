/**
 * What three published JavaScript clients found where the mock departed from the docs
 * (issue 22, item 1), each walked over HTTP on 127.0.0.1 and held to the section it quotes.
 * A student's requests carry a user token (`userTokens`): the bundled seed's own token is
 * Elena Vasquez's (user 7), a teacher.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type Call, errorsOf, withMock } from './mockClient';

type Obj = Record<string, unknown>;

const PRIYA = 'token-of-priya-1001'; // student in BIO-101 section A
const LENA = 'token-of-lena-1003'; // student in BIO-101 section B
const USERS = {
  userTokens: [
    { userId: 1001, token: PRIYA },
    { userId: 1003, token: LENA },
  ],
};

const body = async (call: Call, path: string, token?: string) => {
  const r = await call('GET', path, token ? { token } : {});
  assert.equal(r.status, 200, `${path}: ${JSON.stringify(r.body)}`);
  return r.body as Obj;
};

test('B, Assignment submissions, grade: posted_grade in points, as a percentage where 100% equals points_possible, or a letter', () =>
  withMock(async (call) => {
    // Assignment 7 is worth 20 points; 1002's submission is not graded yet.
    const grade = async (posted: string) => {
      const r = await call('PUT', '/api/v1/courses/42/assignments/7/submissions/1002', {
        form: { 'submission[posted_grade]': posted },
      });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body as Obj;
    };
    let s = await grade('90%');
    assert.deepEqual([s.score, s.grade, s.workflow_state, s.grader_id], [18, '90%', 'graded', 7]);
    s = await grade('105%'); // "larger values are allowed"
    assert.deepEqual([s.score, s.grade], [21, '105%']);
    s = await grade('18.5');
    assert.deepEqual([s.score, s.grade], [18.5, '18.5']);
    s = await grade('23'); // "values above points_possible are allowed"
    assert.deepEqual([s.score, s.grade], [23, '23']);
    // A letter grade is kept as the grade; the docs give no grading scheme to turn it into points, so no score is made up.
    s = await grade('B+');
    assert.equal(s.grade, 'B+');
    assert.equal('score' in s, false);
    assert.equal(typeof s.graded_at, 'string');
    assert.ok(
      String(s.graded_at) >= String(s.submitted_at),
      `graded ${String(s.graded_at)} before submitted ${String(s.submitted_at)}`,
    );
  }));

test('B, Assignment submissions, grade: "the caller needs the manage grades permission", a student grading is refused', () =>
  withMock(async (call) => {
    const r = await call('PUT', '/api/v1/courses/42/assignments/7/submissions/1002', {
      form: { 'submission[posted_grade]': '20' },
      token: PRIYA,
    });
    assert.equal(r.status, 403);
    assert.equal(errorsOf(r)[0].parameter, 'submission[posted_grade]');
    const after = await body(call, '/api/v1/courses/42/assignments/7/submissions/1002');
    assert.equal('score' in after, false);
  }, USERS));

test('B, Assignment submissions, submit: "caller must be a student in the course or section"', () =>
  withMock(async (call) => {
    const form = { 'submission[submission_type]': 'online_text_entry', 'submission[body]': '<p>Results</p>' };
    const teacher = await call('POST', '/api/v1/courses/42/assignments/7/submissions', { form });
    assert.equal(teacher.status, 403);
    assert.equal(errorsOf(teacher)[0].code, 'not-a-student');
    const student = await call('POST', '/api/v1/courses/42/assignments/7/submissions', { form, token: PRIYA });
    assert.equal(student.status, 201);
    assert.deepEqual([(student.body as Obj).user_id, (student.body as Obj).workflow_state], [1001, 'submitted']);
    // Through a section: a student of the course, but of another section, is refused there.
    const otherSection = await call('POST', '/api/v1/sections/420/assignments/7/submissions', { form, token: LENA });
    assert.equal(otherSection.status, 403);
    assert.equal(
      (await call('POST', '/api/v1/sections/421/assignments/7/submissions', { form, token: LENA })).status,
      201,
    );
  }, USERS));

test('C, Outcome results: one course rollup with aggregate=course; users linked only without it, courses only with it', () =>
  withMock(async (call) => {
    const perUser = await body(call, '/api/v1/courses/42/outcome_rollups?include[]=users');
    const rollups = perUser.rollups as Obj[];
    assert.equal(rollups.length, 2);
    // OutcomeRollupLinks: "user and section present otherwise".
    assert.deepEqual(
      rollups.map((r) => r.links),
      [
        { user: 1001, section: 420 },
        { user: 1003, section: 421 },
      ],
    );
    assert.deepEqual(Object.keys(perUser.linked as Obj), ['users']);

    const aggregate = await body(call, '/api/v1/courses/42/outcome_rollups?aggregate=course&include[]=courses');
    const [course] = aggregate.rollups as Obj[];
    assert.equal((aggregate.rollups as Obj[]).length, 1);
    assert.deepEqual(course.links, { course: 42 });
    assert.equal(course.name, 'Introduction to Cell Biology');
    // "the average score per outcome": outcome 400 scored 3 and 2, outcome 401 scored 4.
    assert.deepEqual(course.scores, [
      { score: 2.5, count: 2, links: { outcome: '400' } },
      { score: 4, count: 1, links: { outcome: '401' } },
    ]);
    assert.deepEqual(
      ((aggregate.linked as Obj).courses as Obj[]).map((c) => c.id),
      [42],
    );
    // include[]=users with aggregate and include[]=courses without it name nothing to link.
    assert.deepEqual(
      Object.keys(
        (await body(call, '/api/v1/courses/42/outcome_rollups?aggregate=course&include[]=users')).linked as Obj,
      ),
      [],
    );
    assert.deepEqual(
      Object.keys((await body(call, '/api/v1/courses/42/outcome_rollups?include[]=courses')).linked as Obj),
      [],
    );
  }));

test('C, Outcome results: a user who is not a student in the context, an outcome not linked to it, are errors; sis_user_id: finds the user', () =>
  withMock(async (call) => {
    const bySis = await body(call, '/api/v1/courses/42/outcome_results?user_ids[]=sis_user_id:S1001');
    assert.deepEqual(
      (bySis.outcome_results as Obj[]).map((r) => (r.links as Obj).user),
      ['1001', '1001'],
    );
    for (const [query, parameter] of [
      ['user_ids[]=7', 'user_ids[]'], // the teacher
      ['user_ids[]=1004', 'user_ids[]'], // a student of another course
      ['user_ids[]=sis_user_id:NOBODY', 'user_ids[]'],
      ['outcome_ids[]=402', 'outcome_ids[]'], // linked to CHEM-110 only
    ]) {
      for (const path of ['outcome_results', 'outcome_rollups']) {
        if (path === 'outcome_rollups' && query.includes('sis_user_id')) continue; // the rollups take integers only (the checker answers 400)
        const r = await call('GET', `/api/v1/courses/42/${path}?${query}`);
        assert.equal(r.status, 400, `${path}?${query}: ${r.status}`);
        assert.equal(errorsOf(r)[0].parameter, parameter);
      }
    }
    assert.equal(
      ((await body(call, '/api/v1/courses/42/outcome_results?outcome_ids[]=401')).outcome_results as Obj[]).length,
      1,
    );
  }));

test('A, External tools, list: include_parents adds the tools of the accounts above the context', () =>
  withMock(async (call) => {
    const ids = async (path: string) => ((await call('GET', path)).body as Obj[]).map((t) => t.id);
    assert.deepEqual(await ids('/api/v1/courses/42/external_tools'), [17]);
    assert.deepEqual(await ids('/api/v1/courses/42/external_tools?include_parents=true'), [17, 18]);
    assert.deepEqual(await ids('/api/v1/groups/60/external_tools?include_parents=true'), [19, 18]);
    assert.deepEqual(await ids('/api/v1/accounts/1/external_tools?include_parents=true'), [18]);
  }));

test('A, External tools, create: a placement holds what was sent and its documented defaults, nothing else', () =>
  withMock(async (call) => {
    const r = await call('POST', '/api/v1/courses/42/external_tools', {
      form: {
        name: 'Lab notebook',
        privacy_level: 'name_only',
        consumer_key: 'notebook',
        shared_secret: 's3cret',
        url: 'https://notebook.example.com/lti',
        'course_navigation[enabled]': 'true',
        'course_navigation[text]': 'Notebook',
      },
    });
    assert.equal(r.status, 200);
    const tool = r.body as Obj;
    // windowTarget: "_self default, in a frame"; visibility: "omit for everyone".
    assert.deepEqual(tool.course_navigation, { enabled: 'true', text: 'Notebook', windowTarget: '_self' });
    assert.equal(tool.account_navigation, null); // "null when the placement is not configured"
    assert.equal(tool.not_selectable, false); // "default false"
    for (const field of ['description', 'icon_url', 'selection_width', 'custom_fields'])
      assert.equal(field in tool, false, field);
  }));

test("A, CompletionRequirement: completed only for a student caller or with student_id, from the student's progress", () =>
  withMock(async (call) => {
    const requirements = async (path: string, token?: string) =>
      ((await body(call, path, token)).items as Obj[]).map((i) => [i.id, i.completion_requirement]);
    assert.deepEqual(await requirements('/api/v1/courses/42/modules/7?include[]=items'), [
      [31, { type: 'min_score', min_score: 7 }],
      [32, { type: 'must_view' }],
      [33, { type: 'must_submit' }],
      [34, { type: 'must_view' }],
      [35, { type: 'must_view' }],
    ]);
    // Priya scored 8 on quiz 9 (min_score 7) and submitted assignment 7.
    const priya = [
      [31, { type: 'min_score', min_score: 7, completed: true }],
      [32, { type: 'must_view', completed: false }],
      [33, { type: 'must_submit', completed: true }],
      [34, { type: 'must_view', completed: false }],
      [35, { type: 'must_view', completed: false }],
    ];
    assert.deepEqual(await requirements('/api/v1/courses/42/modules/7?include[]=items&student_id=1001'), priya);
    assert.deepEqual(await requirements('/api/v1/courses/42/modules/7?include[]=items', PRIYA), priya);
  }, USERS));

test('A, Module: state follows unlock_at, prerequisites and the completion requirements met', () =>
  withMock(async (call) => {
    const states = async (query: string, token?: string) =>
      Object.fromEntries(
        (
          (await call('GET', `/api/v1/courses/42/modules?per_page=50&${query}`, token ? { token } : {})).body as Obj[]
        ).map((m) => [m.id, m.state]),
      );
    // Priya viewed the syllabus (Week 0's one requirement), nothing of Week 1; Week 2 needs Week 1; Week 3 unlocks on 2026-09-14.
    assert.deepEqual(await states('student_id=1001'), {
      5: 'completed',
      6: 'unlocked',
      7: 'locked',
      8: 'locked',
      9: 'completed',
      12: 'completed',
    });
    // Lena completed Weeks 0 and 1 and submitted lab report 1, one of Week 2's five requirements.
    assert.deepEqual(await states('student_id=1003'), {
      5: 'completed',
      6: 'completed',
      7: 'started',
      8: 'locked',
      9: 'completed',
      12: 'completed',
    });
    assert.deepEqual(await states('student_id=sis_user_id:S1003'), await states('student_id=1003'));
    // A student's own view: only published modules, without `published`.
    const own = (await call('GET', '/api/v1/courses/42/modules', { token: LENA })).body as Obj[];
    assert.deepEqual(
      own.map((m) => [m.id, m.state, 'published' in m]),
      [
        [5, 'completed', false],
        [6, 'completed', false],
        [7, 'started', false],
      ],
    );
    assert.equal((await call('GET', '/api/v1/courses/42/modules/8', { token: LENA })).status, 404);
    // Completed: when the last requirement was met.
    const week1 = await body(call, '/api/v1/courses/42/modules/6?student_id=1003');
    assert.equal(week1.completed_at, '2026-08-31T08:45:00Z');
    assert.equal((await body(call, '/api/v1/courses/42/modules/6?student_id=1001')).completed_at, null);
    // Week 2 requires sequential progress: for Lena, item 32 waits for quiz 31 (min_score 7, not taken).
    const items = (await body(call, '/api/v1/courses/42/modules/7?include[]=items&include[]=content_details', LENA))
      .items as Obj[];
    assert.deepEqual(
      items.map((i) => [i.id, (i.content_details as Obj).locked_for_user]),
      [
        [31, false],
        [32, true],
        [33, true],
        [34, true],
        [35, true],
      ],
    );
  }, USERS));

test('A, Module: position is the "1-based position in the course": a deletion closes the gap, an insertion moves the others', () =>
  withMock(async (call) => {
    const positions = async () =>
      Object.fromEntries(
        ((await call('GET', '/api/v1/courses/42/modules?per_page=50')).body as Obj[]).map((m) => [m.id, m.position]),
      );
    assert.equal((await call('DELETE', '/api/v1/courses/42/modules/6')).status, 200);
    assert.deepEqual(await positions(), { 5: 1, 7: 2, 8: 3, 9: 4, 12: 5 });
    const added = (await call('POST', '/api/v1/courses/42/modules', { form: { 'module[name]': 'Week 5' } }))
      .body as Obj;
    assert.equal(added.position, 6);
    // Week 2 waited for the deleted Week 1: it no longer does.
    assert.deepEqual((await body(call, '/api/v1/courses/42/modules/7')).prerequisite_module_ids, []);
    // Items too: an item placed at 2 moves the others down, positions stay 1 to n.
    const item = await call('POST', '/api/v1/courses/42/modules/7/items', {
      form: { 'module_item[type]': 'SubHeader', 'module_item[title]': 'Before the lab', 'module_item[position]': '2' },
    });
    assert.equal((item.body as Obj).position, 2);
    const items = (await call('GET', '/api/v1/courses/42/modules/7/items?per_page=50')).body as Obj[];
    assert.deepEqual(
      items.map((i) => [i.id, i.position]),
      [
        [31, 1],
        [(item.body as Obj).id, 2],
        [32, 3],
        [33, 4],
        [34, 5],
        [35, 6],
      ],
    );
  }));

test('A, Modules, list: search_term matches module names and, with include[]=items, item titles', () =>
  withMock(async (call) => {
    const list = async (query: string) =>
      ((await call('GET', `/api/v1/courses/42/modules?per_page=50&${query}`)).body as Obj[]).map((m) => [
        m.id,
        m.items_count,
        (m.items as Obj[] | undefined)?.map((i) => i.id),
      ]);
    // "Week 2: Microscopy" matches by name: all five of its items come with it.
    assert.deepEqual(
      (await list('include[]=items&search_term=week')).find(([id]) => id === 7),
      [7, 5, [31, 32, 33, 34, 35]],
    );
    // "microscope" names no module, but an item of Week 2: the module comes with that item only.
    assert.deepEqual(await list('include[]=items&search_term=microscope'), [[7, 5, [32]]]);
    // Without items, only module names are searched.
    assert.deepEqual(await list('search_term=microscope'), []);
  }));

test('fields the seed does not hold are not made up: no score or graded_at for an ungraded submission, no finished_at for an attempt in progress', () =>
  withMock(async (call) => {
    const ungraded = await body(call, '/api/v1/courses/42/assignments/7/submissions/1002');
    for (const field of ['score', 'grade', 'graded_at']) assert.equal(field in ungraded, false, field);
    assert.equal(ungraded.grader_id, null); // "null if ungraded"

    const started = (await call('POST', '/api/v1/courses/42/quizzes/55/submissions')).body as Obj;
    const attempt = (started.quiz_submissions as Obj[])[0];
    assert.equal('finished_at' in attempt, false);
    assert.equal('score' in attempt, false);

    // Quiz 9 has no due date in the seed: the item's content details have none either.
    const quizItem = await body(call, '/api/v1/courses/42/modules/7/items/31?include[]=content_details');
    assert.equal('due_at' in (quizItem.content_details as Obj), false);

    // Note 121 is not tied to a course: its planner item has no course_id (and no context_type: "absent for notes without a course").
    const items = (await call('GET', '/api/v1/planner/items?per_page=50')).body as Obj[];
    const note = items.find((i) => i.plannable_id === '121');
    assert.ok(note);
    assert.equal('course_id' in note, false);
    assert.equal('context_type' in note, false);
  }));

test('C, Planner notes, create: the linked object "must be in the course named by course_id; if title is omitted the object\'s title is used"', () =>
  withMock(async (call) => {
    const linked = await call('POST', '/api/v1/planner_notes', {
      form: { todo_date: '2026-09-18', course_id: '42', linked_object_type: 'assignment', linked_object_id: '305' },
    });
    assert.equal(linked.status, 200);
    assert.equal((linked.body as Obj).title, 'Lab report 3: Osmosis');
    const elsewhere = await call('POST', '/api/v1/planner_notes', {
      form: { todo_date: '2026-09-18', course_id: '42', linked_object_type: 'assignment', linked_object_id: '306' }, // in CHEM-110
    });
    assert.equal(elsewhere.status, 400);
    assert.equal(errorsOf(elsewhere)[0].parameter, 'linked_object_id');
  }));
