/** The mock's state machines, walked over real HTTP on 127.0.0.1. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { errorsOf, links, withMock } from './mockClient';
import { sharedChecker } from '../helpers';

type Obj = Record<string, unknown>;

test('modules: create, add items, publish, list, delete', () =>
  withMock(async (call) => {
    const created = await call('POST', '/api/v1/courses/42/modules', {
      form: { 'module[name]': 'Week 9: Genetics', 'module[prerequisite_module_ids][]': ['5', '6'] },
    });
    assert.equal(created.status, 200);
    const module = created.body as Obj;
    assert.equal(module.name, 'Week 9: Genetics');
    assert.equal(module.published, false);
    assert.deepEqual(module.prerequisite_module_ids, [5, 6]);
    assert.equal(module.position, 7);
    const id = module.id as number;

    const item = await call('POST', `/api/v1/courses/42/modules/${id}/items`, {
      form: {
        'module_item[type]': 'Assignment',
        'module_item[content_id]': '305',
        'module_item[completion_requirement][type]': 'must_submit',
      },
    });
    assert.equal(item.status, 200);
    assert.equal((item.body as Obj).title, 'Lab report 3: Osmosis');
    // No `completed` for the teacher's own view (document A, CompletionRequirement: "present only for a student caller or when student_id is given").
    assert.deepEqual((item.body as Obj).completion_requirement, { type: 'must_submit' });

    const missing = await call('POST', `/api/v1/courses/42/modules/${id}/items`, {
      form: { 'module_item[type]': 'Discussion', 'module_item[title]': 'x' },
    });
    assert.equal(missing.status, 400);
    assert.equal(errorsOf(missing)[0].code, 'missing-required');
    assert.equal(errorsOf(missing)[0].parameter, 'module_item[content_id]');

    const published = await call('PUT', `/api/v1/courses/42/modules/${id}`, { form: { 'module[published]': 'true' } });
    assert.equal((published.body as Obj).published, true);

    const shown = await call('GET', `/api/v1/courses/42/modules/${id}?include[]=items`);
    assert.equal((shown.body as Obj).items_count, 1);
    assert.equal(((shown.body as Obj).items as Obj[])[0].type, 'Assignment');

    const deleted = await call('DELETE', `/api/v1/courses/42/modules/${id}`);
    assert.equal((deleted.body as Obj).workflow_state, 'deleted');
    assert.equal((await call('GET', `/api/v1/courses/42/modules/${id}`)).status, 404);
  }));

test('unknown paths are 404, undocumented methods 405 with Allow', () =>
  withMock(async (call) => {
    assert.equal((await call('GET', '/api/v1/courses/42/modulez')).status, 404);
    assert.equal((await call('GET', '/nothing/here')).status, 404);
    const r = await call('DELETE', '/api/v1/courses/42/modules/7/items/31');
    assert.equal(r.status, 405);
    assert.equal(r.headers.get('allow'), 'GET, PUT, HEAD');
    assert.equal(errorsOf(r)[0].code, 'method-not-allowed');
  }));

test('folders: conflicting parents, create by path, resolve, root, delete needs force', () =>
  withMock(async (call) => {
    const both = await call('POST', '/api/v1/courses/42/folders', {
      form: { name: 'x', parent_folder_id: '301', parent_folder_path: 'handouts' },
    });
    assert.equal(both.status, 400);
    assert.deepEqual(
      errorsOf(both).map((e) => [e.code, e.parameter]),
      [['conflicting-parameters', 'parent_folder_path']],
    );

    const made = await call('POST', '/api/v1/courses/42/folders', {
      form: { name: 'slides', parent_folder_path: 'lectures/week 2' },
    });
    assert.equal(made.status, 200);
    assert.equal((made.body as Obj).full_name, 'course files/lectures/week 2/slides');

    const chain = await call('GET', '/api/v1/courses/42/folders/by_path/lectures/week%202/slides');
    assert.deepEqual(
      (chain.body as Obj[]).map((f) => f.name),
      ['course files', 'lectures', 'week 2', 'slides'],
    );
    assert.equal((await call('GET', '/api/v1/courses/42/folders/by_path')).status, 200);
    assert.equal((await call('GET', '/api/v1/courses/42/folders/by_path/no/such/folder')).status, 404);

    const root = await call('GET', '/api/v1/courses/42/folders/root');
    assert.equal((root.body as Obj).id, 300);

    const notEmpty = await call('DELETE', '/api/v1/folders/301');
    assert.equal(notEmpty.status, 409);
    assert.equal(errorsOf(notEmpty)[0].parameter, 'force');
    assert.equal((await call('DELETE', '/api/v1/folders/301?force=true')).status, 200);
    assert.equal((await call('GET', '/api/v1/folders/303')).status, 404);
    assert.equal((await call('GET', '/api/v1/files/4411')).status, 404);
  }));

test('files: rename, move and copy collide without on_duplicate', () =>
  withMock(async (call) => {
    const rename = await call('PUT', '/api/v1/files/4413', { form: { name: 'lab-safety.pdf' } });
    assert.equal(rename.status, 409);
    assert.equal(errorsOf(rename)[0].code, 'duplicate-name');
    const renamed = await call('PUT', '/api/v1/files/4413', {
      form: { name: 'lab-safety.pdf', on_duplicate: 'rename' },
    });
    assert.equal((renamed.body as Obj).display_name, 'lab-safety-1.pdf');

    const copy = await call('POST', '/api/v1/folders/301/copy_file', { form: { source_file_id: '4411' } });
    assert.equal(copy.status, 409);
    const copied = await call('POST', '/api/v1/folders/302/copy_file', { form: { source_file_id: '4411' } });
    assert.equal(copied.status, 200);
    assert.equal((copied.body as Obj).folder_id, 302);

    const move = await call('PUT', '/api/v1/files/4411', { form: { parent_folder_id: '302' } });
    assert.equal(move.status, 409);
    const moved = await call('PUT', '/api/v1/files/4411', {
      form: { parent_folder_id: '302', on_duplicate: 'overwrite' },
    });
    assert.equal(moved.status, 200);
    assert.equal((await call('GET', `/api/v1/files/${String((copied.body as Obj).id)}`)).status, 404);
  }));

test('quiz submissions: start, complete with the validation token, update only when complete', () =>
  withMock(async (call) => {
    const base = '/api/v1/courses/42/quizzes/9/submissions';
    const code = { access_code: 'osmosis42' }; // the seeded quiz 9 has an access code
    const started = await call('POST', base, { form: code });
    assert.equal(started.status, 200);
    const sub = ((started.body as Obj).quiz_submissions as Obj[])[0];
    assert.equal(sub.workflow_state, 'untaken');
    assert.equal(typeof sub.validation_token, 'string');
    assert.equal((await call('POST', base, { form: code })).status, 409);

    const update = { quiz_submissions: [{ attempt: sub.attempt, fudge_points: 1 }] };
    assert.equal((await call('PUT', `${base}/${String(sub.id)}`, { json: update })).status, 400);

    const badToken = await call('POST', `${base}/${String(sub.id)}/complete`, {
      form: { ...code, attempt: String(sub.attempt), validation_token: 'wrong' },
    });
    assert.equal(badToken.status, 403);
    const wrongAttempt = await call('POST', `${base}/${String(sub.id)}/complete`, {
      form: { ...code, attempt: '7', validation_token: String(sub.validation_token) },
    });
    assert.equal(wrongAttempt.status, 400);
    const done = await call('POST', `${base}/${String(sub.id)}/complete`, {
      form: { ...code, attempt: String(sub.attempt), validation_token: String(sub.validation_token) },
    });
    assert.equal(done.status, 200);
    assert.equal(((done.body as Obj).quiz_submissions as Obj[])[0].workflow_state, 'complete');
    assert.equal(
      (
        await call('POST', `${base}/${String(sub.id)}/complete`, {
          form: { ...code, attempt: String(sub.attempt), validation_token: String(sub.validation_token) },
        })
      ).status,
      400,
    );

    const updated = await call('PUT', `${base}/${String(sub.id)}`, { json: update });
    assert.equal(updated.status, 200);
    assert.equal(((updated.body as Obj).quiz_submissions as Obj[])[0].fudge_points, 1);
    const form = await call('PUT', `${base}/${String(sub.id)}`, { form: { attempt: '1' } });
    assert.equal(form.status, 400);
    assert.equal(errorsOf(form)[0].code, 'json-body-expected');
    // A second attempt can start once the first is complete.
    assert.equal((await call('POST', base, { form: code })).status, 200);
  }));

test('quiz submissions: a wrong or missing access code is 403 at start and at complete; a preview does not count as an attempt', () =>
  withMock(async (call) => {
    const base = '/api/v1/courses/42/quizzes/9/submissions';
    for (const form of [{}, { access_code: 'wrong' }] as Record<string, string>[]) {
      const r = await call('POST', base, { form });
      assert.equal(r.status, 403);
      assert.equal(errorsOf(r)[0].code, 'invalid-access-code');
    }
    const started = await call('POST', base, { form: { access_code: 'osmosis42' } });
    assert.equal(started.status, 200);
    const sub = ((started.body as Obj).quiz_submissions as Obj[])[0];
    // A teacher's preview "does not count toward the course record": no 409 beside the session.
    assert.equal((await call('POST', base, { form: { access_code: 'osmosis42', preview: 'true' } })).status, 200);
    const complete = { attempt: String(sub.attempt), validation_token: String(sub.validation_token) };
    for (const form of [complete, { ...complete, access_code: 'wrong' }]) {
      const r = await call('POST', `${base}/${String(sub.id)}/complete`, { form });
      assert.equal(r.status, 403);
      assert.equal(errorsOf(r)[0].code, 'invalid-access-code');
    }
    assert.equal(
      (await call('POST', `${base}/${String(sub.id)}/complete`, { form: { ...complete, access_code: 'osmosis42' } }))
        .status,
      200,
    );
    // Quiz 55 has no access code: none is asked for.
    assert.equal((await call('POST', '/api/v1/courses/42/quizzes/55/submissions')).status, 200);
  }));

test('quiz questions and grading periods delete with 204', () =>
  withMock(async (call) => {
    const q = await call('DELETE', '/api/v1/courses/42/quizzes/9/questions/101');
    assert.equal(q.status, 204);
    assert.equal((await call('GET', '/api/v1/courses/42/quizzes/9/questions/101')).status, 404);
    assert.equal((await call('DELETE', '/api/v1/courses/42/grading_periods/6')).status, 204);
    const list = await call('GET', '/api/v1/courses/42/grading_periods');
    assert.deepEqual(
      ((list.body as Obj).grading_periods as Obj[]).map((p) => p.id),
      [5],
    );
  }));

test('appointment groups: pending to active on publish, never back', () =>
  withMock(async (call) => {
    const created = await call('POST', '/api/v1/appointment_groups', {
      form: [
        ['appointment_group[context_codes][]', 'course_42'],
        ['appointment_group[title]', 'Thesis meetings'],
        ['appointment_group[new_appointments][0][]', '2026-10-01T10:00:00Z'],
        ['appointment_group[new_appointments][0][]', '2026-10-01T10:30:00Z'],
      ],
    });
    assert.equal(created.status, 200);
    const group = created.body as Obj;
    assert.equal(group.workflow_state, 'pending');
    assert.equal((group.new_appointments as unknown[]).length, 1);
    const published = await call('PUT', `/api/v1/appointment_groups/${String(group.id)}`, {
      form: { 'appointment_group[context_codes][]': 'course_42', 'appointment_group[publish]': 'true' },
    });
    assert.equal((published.body as Obj).workflow_state, 'active');
    const back = await call('PUT', `/api/v1/appointment_groups/${String(group.id)}`, {
      form: { 'appointment_group[context_codes][]': 'course_42', 'appointment_group[publish]': 'false' },
    });
    assert.equal(back.status, 400);
    assert.equal(
      ((await call('GET', `/api/v1/appointment_groups/${String(group.id)}`)).body as Obj).workflow_state,
      'active',
    );
  }));

test('roles: built-in roles stay, custom roles deactivate and activate', () =>
  withMock(async (call) => {
    const builtIn = await call('DELETE', '/api/v1/accounts/1/roles/2', { form: { role_id: '2' } });
    assert.equal(builtIn.status, 400);
    assert.equal(((await call('GET', '/api/v1/accounts/1/roles/2')).body as Obj).workflow_state, 'built_in');
    const off = await call('DELETE', '/api/v1/accounts/1/roles/10?role_id=10');
    assert.equal((off.body as Obj).workflow_state, 'inactive');
    const on = await call('POST', '/api/v1/accounts/1/roles/10/activate', { form: { role_id: '10' } });
    assert.equal((on.body as Obj).workflow_state, 'active');
  }));

test('pagination: per_page, page and Link headers over several pages', () =>
  withMock(async (call) => {
    for (let i = 0; i < 23; i++) await call('POST', '/api/v1/planner_notes', { form: { title: `note ${i}` } });
    const first = await call('GET', '/api/v1/planner_notes');
    assert.equal((first.body as unknown[]).length, 10);
    const l1 = links(first);
    assert.ok(l1.next && l1.first && l1.last && !l1.prev);
    assert.match(l1.last, /page=3/);
    const second = await call('GET', l1.next);
    assert.equal((second.body as unknown[]).length, 10);
    assert.ok(links(second).prev);
    const third = await call('GET', links(second).next);
    assert.equal((third.body as unknown[]).length, 5);
    assert.equal(links(third).next, undefined);
    const big = await call('GET', '/api/v1/planner_notes?per_page=500');
    assert.equal((big.body as unknown[]).length, 25);
    assert.match(links(big).last, /per_page=100/);
  }));

test('webhook subscriptions page with EndKey and StartKey', () =>
  withMock(async (call) => {
    for (let i = 0; i < 4; i++) {
      const r = await call('POST', '/api/lti/subscriptions', {
        form: {
          'submission[ContextId]': '42',
          'subscription[ContextType]': 'course',
          'subscription[EventTypes][]': 'GRADE_CHANGE',
          'subscription[Format]': 'live-event',
          'subscription[TransportMetadata][Url]': `https://hooks.example.com/${i}`,
          'subscription[TransportType]': 'https',
        },
      });
      assert.equal(r.status, 200);
    }
    // Pages hold 100 (per_page is not a parameter of this list); the seed has 103 subscriptions, 4 were added above.
    const seen: string[] = [];
    const sizes: number[] = [];
    let startKey: string | undefined;
    for (let page = 0; page < 10; page++) {
      const r = await call('GET', '/api/lti/subscriptions', startKey ? { headers: { StartKey: startKey } } : {});
      assert.equal(r.status, 200);
      sizes.push((r.body as Obj[]).length);
      seen.push(...(r.body as Obj[]).map((s) => String(s.id)));
      const end = r.headers.get('endkey');
      if (!end) break;
      assert.deepEqual(Object.keys(JSON.parse(end) as Obj).sort(), ['DeveloperKey', 'Id']);
      startKey = end;
    }
    assert.deepEqual(sizes, [100, 7]);
    assert.equal(new Set(seen).size, 107);
    assert.equal((await call('GET', '/api/lti/subscriptions', { headers: { StartKey: 'nonsense' } })).status, 400);
  }));

test('auth: 401 without a token or with another one; scopes give 403', async () => {
  await withMock(
    async (call) => {
      const none = await call('GET', '/api/v1/courses', { token: null });
      assert.equal(none.status, 401);
      assert.equal(errorsOf(none)[0].code, 'unauthenticated');
      assert.equal((await call('GET', '/api/v1/courses', { token: 'other' })).status, 401);
      assert.equal((await call('GET', '/api/v1/courses', { token: 'secret' })).status, 200);
    },
    { token: 'secret' },
  );
  await withMock(
    async (call) => {
      assert.equal((await call('GET', '/api/v1/courses/42/modules')).status, 200);
      const denied = await call('POST', '/api/v1/courses/42/modules', { form: { 'module[name]': 'x' } });
      assert.equal(denied.status, 403);
      assert.equal(errorsOf(denied)[0].code, 'insufficient-scope');
      assert.equal((await call('GET', '/api/v1/courses')).status, 403);
    },
    { scopes: ['url:GET|/api/v1/courses/{course_id}/modules'] },
  );
});

test('SIS ids, self and the root folder in paths', () =>
  withMock(async (call) => {
    const modules = await call('GET', '/api/v1/courses/sis_course_id:BIO-101/modules');
    assert.equal((modules.body as unknown[]).length, 6);
    const encoded = await call('GET', '/api/v1/courses/sis_course_id%3ABIO-101/modules?per_page=2');
    assert.equal((encoded.body as unknown[]).length, 2);
    // Read by her observer: another user's list needs being their observer or an administrator.
    const courses = await call('GET', '/api/v1/users/sis_user_id:S1001/courses', { token: 'mock-only-observer-token' });
    assert.deepEqual(
      (courses.body as Obj[]).map((c) => c.id),
      [42],
    );
    const mine = await call('GET', '/api/v1/users/self/courses');
    assert.deepEqual((mine.body as Obj[]).map((c) => c.id).sort(), [42, 43]);
    const section = await call('GET', '/api/v1/sections/sis_section_id:BIO-101-A/assignments/7/submissions');
    assert.deepEqual((section.body as Obj[]).map((s) => s.user_id).sort(), [1001, 1002]);
    assert.equal((await call('GET', '/api/v1/courses/sis_course_id:NOPE/modules')).status, 404);
    const badForm = await call('GET', '/api/v1/accounts/sis_user_id:x/roles');
    assert.equal(badForm.status, 400);
    assert.equal(errorsOf(badForm)[0].code, 'invalid-format');
    assert.equal(((await call('GET', '/api/v1/users/self/folders/root')).body as Obj).id, 310);
  }));

test('bad input: invalid JSON, unknown content types, large bodies, malformed HTTP', () =>
  withMock(async (call, mock) => {
    const invalid = await call('POST', '/api/v1/courses/42/modules', {
      body: '{"module":',
      contentType: 'application/json',
    });
    assert.equal(invalid.status, 400);
    assert.equal(errorsOf(invalid)[0].code, 'invalid-json');
    const asJson = await call('POST', '/api/v1/courses/42/modules', {
      json: { module: { name: 'From JSON', position: 2 } },
    });
    assert.equal(asJson.status, 200);
    assert.equal((asJson.body as Obj).name, 'From JSON');
    assert.equal(
      (await call('POST', '/api/v1/courses/42/modules', { body: '<xml/>', contentType: 'application/xml' })).status,
      415,
    );
    const large = await call('POST', '/api/v1/courses/42/modules', {
      body: 'a'.repeat(10 * 1024 * 1024 + 10),
      contentType: 'application/x-www-form-urlencoded',
    });
    assert.equal(large.status, 413);
    const rawAnswer = await new Promise<string>((resolve) => {
      const socket = connect(mock.port, '127.0.0.1', () => socket.write('GARBAGE \x00\x01 NOT HTTP\r\n\r\n'));
      let text = '';
      socket.on('data', (d) => (text += d.toString()));
      socket.on('close', () => resolve(text));
      socket.on('error', () => resolve(text));
    });
    assert.match(rawAnswer, /^HTTP\/1\.1 400/);
    assert.equal((await call('GET', '/api/v1/courses')).status, 200);
  }));

test('planner notes: start_date and end_date are instants (offsets, the basic form); a date alone as end_date takes its whole day', () =>
  withMock(async (call) => {
    const titles = async (query: string) =>
      ((await call('GET', `/api/v1/planner_notes?${query}`)).body as Obj[]).map((n) => n.title);
    // Seeded: 'Order microscope slides' on 2026-09-08T12:00:00Z, 'Grade lab report 1' on 2026-09-13T17:00:00Z.
    assert.deepEqual(await titles('start_date=2026-09-13T18:00:00%2B02:00'), ['Grade lab report 1']);
    assert.deepEqual(await titles('start_date=2026-09-13T20:00:00%2B02:00'), []);
    assert.deepEqual(await titles('end_date=20260908T1300%2B0200'), []);
    assert.deepEqual(await titles('end_date=20260908T1400%2B0200'), ['Order microscope slides']);
    assert.deepEqual(await titles('start_date=2026-09-08&end_date=2026-09-08'), ['Order microscope slides']);
  }));

test('a 404 names the missing id once', () =>
  withMock(async (call) => {
    const paths = [
      '/api/v1/courses/999/modules',
      '/api/v1/folders/999',
      '/api/v1/users/999/courses',
      '/api/v1/accounts/999/roles',
      '/api/v1/groups/999/files',
      '/api/v1/sections/999/assignments/7/submissions',
      '/api/v1/courses/sis_course_id:NOPE999/modules',
    ];
    const seen: string[] = [];
    for (const path of paths) {
      const r = await call('GET', path);
      const message = errorsOf(r)[0]?.message ?? '';
      seen.push(`${path} ${r.status} ${errorsOf(r)[0]?.code} ids:${message.split('999').length - 1}`);
    }
    const note = await call('POST', '/api/v1/planner_notes', {
      form: { title: 'x', todo_date: '2026-09-20', course_id: '999' },
    });
    seen.push(`planner note ${note.status} ids:${(errorsOf(note)[0]?.message ?? '').split('999').length - 1}`);
    assert.deepEqual(seen, [...paths.map((p) => `${p} 404 not-found ids:1`), 'planner note 404 ids:1']);
  }));

test('modules: state only for a student view; a module placed at an occupied position moves the others', () =>
  withMock(async (call) => {
    const teacherView = (await call('GET', '/api/v1/courses/42/modules/7')).body as Obj;
    assert.equal('state' in teacherView, false);
    assert.equal('completed_at' in teacherView, false);
    const studentView = (await call('GET', '/api/v1/courses/42/modules/7?student_id=1001')).body as Obj;
    assert.equal(typeof studentView.state, 'string');

    const positions = async () =>
      Object.fromEntries(
        ((await call('GET', '/api/v1/courses/42/modules?per_page=100')).body as Obj[]).map((m) => [m.id, m.position]),
      );
    const created = await call('POST', '/api/v1/courses/42/modules', {
      form: { 'module[name]': 'Inserted', 'module[position]': '3' },
    });
    const id = (created.body as Obj).id as number;
    assert.equal((created.body as Obj).position, 3);
    assert.deepEqual(await positions(), { 5: 1, 6: 2, [id]: 3, 7: 4, 8: 5, 9: 6, 12: 7 });
    await call('PUT', '/api/v1/courses/42/modules/5', { form: { 'module[position]': '4' } });
    assert.deepEqual(await positions(), { 6: 1, [id]: 2, 7: 3, 5: 4, 8: 5, 9: 6, 12: 7 });
  }));

test('submissions: a URL without a scheme is taken as http', () =>
  withMock(
    async (call) => {
      const submitted = await call('POST', '/api/v1/courses/42/assignments/7/submissions', {
        token: 'student',
        form: { 'submission[submission_type]': 'online_url', 'submission[url]': 'example.com/lab1' },
      });
      assert.equal(submitted.status, 201);
      assert.equal((submitted.body as Obj).url, 'http://example.com/lab1');
      const withPort = await call('POST', '/api/v1/courses/42/assignments/7/submissions', {
        token: 'student',
        form: { 'submission[submission_type]': 'online_url', 'submission[url]': 'localhost:8080/x' },
      });
      assert.equal((withPort.body as Obj).url, 'http://localhost:8080/x');
      const ftp = await call('POST', '/api/v1/courses/42/assignments/7/submissions', {
        token: 'student',
        form: { 'submission[submission_type]': 'online_url', 'submission[url]': 'ftp://example.com/x' },
      });
      assert.equal(ftp.status, 400);
    },
    // The token is a student's: document B, a submission's "caller must be a student in the course or section".
    { userTokens: [{ userId: 1001, token: 'student' }] },
  ));

/** A request in another shape than documented, as the mock gets it and as a .lpreq body: the mock answers what `lpreq check` reports. */
const SHAPE_CASES: { what: string; form?: [string, string][]; json?: unknown; lpreqBody: string }[] = [
  { what: 'an array where a string is documented', form: [['module[name][]', 'x']], lpreqBody: 'module[name][] = x' },
  {
    what: 'a JSON array where a string is documented',
    json: { module: { name: ['a', 'b'] } },
    lpreqBody: 'Content-Type: application/json\n\n{"module":{"name":["a","b"]}}',
  },
  {
    what: 'a JSON object where a string is documented',
    json: { module: { name: { a: 1 } } },
    lpreqBody: 'Content-Type: application/json\n\n{"module":{"name":{"a":1}}}',
  },
  {
    what: 'the array beside the documented string',
    form: [
      ['module[name][]', 'x'],
      ['module[name]', 'y'],
    ],
    lpreqBody: 'module[name][] = x\nmodule[name] = y',
  },
];

for (const c of SHAPE_CASES) {
  test(`${c.what}: the mock answers the checker's codes, its warnings beside its errors`, () =>
    withMock(async (call) => {
      const text = `POST /api/v1/courses/42/modules\n${c.lpreqBody.startsWith('Content-Type') ? '' : '\n'}${c.lpreqBody}\n`;
      const diagnostics = sharedChecker().checkText(text).diagnostics;
      const codes = (severity: string) =>
        diagnostics
          .filter((d) => d.severity === severity)
          .map((d) => d.code)
          .sort();
      const r = await call('POST', '/api/v1/courses/42/modules', c.form ? { form: c.form } : { json: c.json });
      assert.equal(r.status, codes('error').length > 0 ? 400 : 200);
      if (r.status !== 400) return;
      const body = r.body as { errors: Obj[]; warnings?: Obj[] };
      assert.deepEqual(body.errors.map((e) => e.code).sort(), codes('error'));
      assert.deepEqual((body.warnings ?? []).map((w) => w.code).sort(), codes('warning'));
    }));
}

/** Form bodies in a declared charset: [Content-Type, body bytes, status, module name created]. */
const CHARSET_CASES: [string, Buffer, number, string?][] = [
  ['application/x-www-form-urlencoded; charset=ISO-8859-1', Buffer.from('module[name]=Caf%E9'), 200, 'Café'],
  ['application/x-www-form-urlencoded; charset=latin1', Buffer.from('module[name]=Caf%E9+cr%E8me'), 200, 'Café crème'],
  ['application/x-www-form-urlencoded; charset=windows-1252', Buffer.from('module[name]=%80+5'), 200, '€ 5'],
  [
    'application/x-www-form-urlencoded; charset="iso-8859-1"',
    Buffer.from([...Buffer.from('module[name]=Caf'), 0xe9]),
    200,
    'Café',
  ],
  ['application/x-www-form-urlencoded; charset=UTF-8', Buffer.from('module[name]=Caf%C3%A9'), 200, 'Café'],
  ['application/x-www-form-urlencoded', Buffer.from('module[name]=Caf%C3%A9'), 200, 'Café'],
  [
    'application/json; charset=ISO-8859-1',
    Buffer.from([...Buffer.from('{"module":{"name":"Caf'), 0xe9, ...Buffer.from('"}}')]),
    200,
    'Café',
  ],
  ['application/x-www-form-urlencoded; charset=klingon', Buffer.from('module[name]=x'), 415],
  ['application/x-www-form-urlencoded; charset=utf-16le', Buffer.from('module[name]=x', 'utf16le'), 415],
];

for (const [contentType, bytes, status, name] of CHARSET_CASES) {
  test(`a body declared as ${contentType} answers ${status}${name ? ` and is read as ${name}` : ''}`, () =>
    withMock(async (_call, mock) => {
      const r = await fetch(`${mock.url}/api/v1/courses/42/modules`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${mock.token}`, 'Content-Type': contentType },
        body: bytes,
      });
      const body = (await r.json()) as Obj & { errors?: Obj[] };
      assert.equal(r.status, status);
      if (name !== undefined) assert.equal(body.name, name);
      else assert.equal(body.errors?.[0].code, 'unsupported-charset');
    }));
}
