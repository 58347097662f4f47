/** Submissions (document B): submitting, grading and listing the submissions of an assignment. */
import { badRequest, courseOrSection, type HandlersOf, includes, list, listParam, type MockContext, notFound, one, pathId, raw, user } from '../context';
import { toInt, toNumber, inTimeRange } from '../params';
import type { MockState, Row } from '../state';

export function assignmentOf(ctx: MockContext, c: Row): Row {
  const a = ctx.state.get('assignments', pathId(ctx, 'assignment_id'));
  if (!a || a.course_id !== c.id) notFound(`assignment ${ctx.bindings.get('assignment_id') ?? ''} in course ${String(c.id)}`);
  return a;
}

function studentIds(state: MockState, c: Row, sectionRow?: Row): number[] {
  return state
    .rows('enrollments', (e) => e.course_id === c.id && e.type === 'StudentEnrollment' && (!sectionRow || e.section_id === sectionRow.id))
    .map((e) => e.user_id as number);
}

export function submissionView(ctx: MockContext, s: Row): Row {
  const view: Row = {
    ...s,
    grade_matches_current_submission: true,
    html_url: `${ctx.baseUrl}/courses/${String(s.course_id)}/assignments/${String(s.assignment_id)}/submissions/${String(s.user_id)}`,
    preview_url: `${ctx.baseUrl}/courses/${String(s.course_id)}/assignments/${String(s.assignment_id)}/submissions/${String(s.user_id)}?preview=1`,
    late: false,
    assignment_visible: true,
    excused: s.excused ?? false,
    missing: false,
    late_policy_status: null,
    points_deducted: 0,
    seconds_late: 0,
    url: s.url ?? null,
    grader_id: s.grader_id ?? null,
    workflow_state: s.workflow_state ?? 'unsubmitted',
  };
  if (includes(ctx, 'user')) view.user = ctx.state.get('users', s.user_id as number);
  if (includes(ctx, 'assignment')) view.assignment = ctx.state.get('assignments', s.assignment_id as number);
  if (includes(ctx, 'submission_comments')) view.submission_comments = (s.comments as Row[] | undefined) ?? [];
  return view;
}

function submissionFor(ctx: MockContext, c: Row, a: Row, userId: number): Row {
  return (
    ctx.state.find('submissions', (s) => s.assignment_id === a.id && s.user_id === userId) ?? {
      course_id: c.id,
      assignment_id: a.id,
      user_id: userId,
      attempt: 0,
      workflow_state: 'unsubmitted',
    }
  );
}

function commentFrom(ctx: MockContext): Row | undefined {
  const text = ctx.params.get('comment[text_comment]');
  if (!text) return undefined;
  const author = ctx.state.get('users', ctx.state.selfUserId);
  return {
    id: Date.now() % 1e9,
    author_id: ctx.state.selfUserId,
    author_name: author?.name ?? '',
    author: author ?? {},
    comment: text,
    created_at: ctx.state.now(),
    edited_at: ctx.state.now(),
    media_comment: null,
  };
}

/** Doc B, submit: http is assumed if submission[url] has no scheme (the checker refuses schemes other than http and https). */
function submittedUrl(url: string): string {
  // A colon followed by a digit is a port (`example.com:8080`), not the end of a scheme.
  return /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(url) ? url : `http://${url}`;
}

export const submissionHandlers = {
  'submissions.create': (ctx) => {
    const { course: c } = courseOrSection(ctx);
    const a = assignmentOf(ctx, c);
    const type = ctx.params.get('submission[submission_type]') ?? '';
    const allowed = (a.submission_types as string[] | undefined) ?? [];
    if (allowed.length && !allowed.includes(type))
      badRequest(
        `submission_type ${type} is not among the assignment's allowed types (${allowed.join(', ')})`,
        'invalid-submission-type',
        'submission[submission_type]',
      );
    const userId = toInt(ctx.params.get('submission[user_id]')) ?? ctx.state.selfUserId;
    const g = ctx.params.group('submission');
    let s = ctx.state.find('submissions', (x) => x.assignment_id === a.id && x.user_id === userId);
    const fields: Row = {
      submission_type: type,
      submitted_at: ctx.state.now(),
      workflow_state: 'submitted',
      body: type === 'online_text_entry' ? g.body : undefined,
      url: (type === 'online_url' || type === 'basic_lti_launch') && typeof g.url === 'string' ? submittedUrl(g.url) : undefined,
    };
    if (s) Object.assign(s, fields, { attempt: (toInt(s.attempt) ?? 0) + 1 });
    else s = ctx.state.insert('submissions', { course_id: c.id, assignment_id: a.id, user_id: userId, attempt: 1, ...fields });
    const comment = commentFrom(ctx);
    if (comment) s.comments = [...((s.comments as Row[] | undefined) ?? []), comment];
    return { kind: 'one', value: submissionView(ctx, s), status: 201, as: 'Submission' };
  },
  'submissions.list': (ctx) => {
    const { course: c, section: sec } = courseOrSection(ctx);
    const a = assignmentOf(ctx, c);
    const ids = new Set(studentIds(ctx.state, c, sec));
    return list(ctx.state.rows('submissions', (s) => s.assignment_id === a.id && ids.has(s.user_id as number)).map((s) => submissionView(ctx, s)));
  },
  'submissions.list_for_students': (ctx) => {
    const { course: c, section: sec } = courseOrSection(ctx);
    const students = studentIds(ctx.state, c, sec);
    const wanted = listParam(ctx, 'student_ids');
    const userIds = wanted.includes('all') ? students : wanted.length ? wanted.map((w) => toInt(w.replace(/^sis_user_id:/, '')) ?? -1) : [ctx.state.selfUserId];
    const assignmentIds = listParam(ctx, 'assignment_ids').map((x) => toInt(x));
    const since = ctx.params.get('submitted_since');
    const state = ctx.params.get('workflow_state');
    const rows = ctx.state.rows(
      'submissions',
      (s) =>
        s.course_id === c.id &&
        userIds.includes(s.user_id as number) &&
        (assignmentIds.length === 0 || assignmentIds.includes(s.assignment_id as number)) &&
        (!since || inTimeRange(s.submitted_at ?? '', since)) &&
        (!state || s.workflow_state === state),
    );
    if (ctx.params.bool('grouped')) {
      return {
        kind: 'list',
        as: 'StudentSubmissionGroup',
        items: userIds.map((u) => ({ user_id: u, submissions: rows.filter((s) => s.user_id === u).map((s) => submissionView(ctx, s)) })),
      };
    }
    return { kind: 'list', as: 'Submission', items: rows.map((s) => submissionView(ctx, s)) };
  },
  'submissions.show': (ctx) => {
    const { course: c } = courseOrSection(ctx);
    const a = assignmentOf(ctx, c);
    const u = user(ctx);
    if (!ctx.state.find('enrollments', (e) => e.course_id === c.id && e.user_id === u.id)) notFound(`user ${String(u.id)} in course ${String(c.id)}`);
    return one(submissionView(ctx, submissionFor(ctx, c, a, u.id as number)));
  },
  'submissions.upload_file': (ctx) => {
    const { course: c } = courseOrSection(ctx);
    const a = assignmentOf(ctx, c);
    const u = user(ctx);
    return raw(200, {
      upload_url: `${ctx.baseUrl}/files_api/submissions/${String(a.id)}/${String(u.id)}`,
      upload_params: { name: ctx.params.get('name') ?? null },
    });
  },
  'submissions.update': (ctx) => {
    const { course: c } = courseOrSection(ctx);
    const a = assignmentOf(ctx, c);
    const u = user(ctx);
    let s = ctx.state.find('submissions', (x) => x.assignment_id === a.id && x.user_id === u.id);
    if (!s) s = ctx.state.insert('submissions', { course_id: c.id, assignment_id: a.id, user_id: u.id, attempt: 0, workflow_state: 'unsubmitted' });
    const grade = ctx.params.get('submission[posted_grade]');
    if (grade !== undefined)
      Object.assign(s, {
        grade,
        score: toNumber(grade.replace(/%$/, '')) ?? s.score,
        workflow_state: 'graded',
        grader_id: ctx.state.selfUserId,
        graded_at: ctx.state.now(),
      });
    const excuse = ctx.params.bool('submission[excuse]');
    if (excuse !== undefined) s.excused = excuse;
    const comment = commentFrom(ctx);
    if (comment) s.comments = [...((s.comments as Row[] | undefined) ?? []), comment];
    return { kind: 'one', value: submissionView(ctx, s), as: 'Submission' };
  },
} satisfies HandlersOf<'submissions'>;
