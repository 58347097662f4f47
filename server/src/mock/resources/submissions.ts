/** Submissions (document B): submitting, grading and listing the submissions of an assignment. */
import {
  badRequest,
  courseOrSection,
  enrollmentTypes,
  type HandlersOf,
  includes,
  list,
  listParam,
  type MockContext,
  nextPosition,
  notFound,
  one,
  pathId,
  raw,
  user,
  userByRef,
} from '../context';
import { toInt, toNumber, inTimeRange } from '../params';
import { returnsFor } from '../../core';
import type { MockState, Row } from '../state';
import { firstStep, offerUpload } from '../upload';
import { rootFolder } from './fileTree';

/**
 * Document B, list for students, enrollment_state: "active, concluded; omitted includes all
 * non-deleted enrollments"; state_based_on_date "default true; false uses the enrollment
 * workflow_state". An enrollment is concluded when its state is `completed`, or, by date, when
 * its course (or term) has ended; undefined for a user with no enrollment there.
 */
function enrollmentStateOf(
  ctx: MockContext,
  c: Row,
  userId: number,
  sec: Row | undefined,
  byDate: boolean,
): 'active' | 'concluded' | undefined {
  const enrollments = ctx.state.rows(
    'enrollments',
    (e) =>
      e.course_id === c.id &&
      e.user_id === userId &&
      e.type === 'StudentEnrollment' &&
      (!sec || e.section_id === sec.id) &&
      e.enrollment_state !== 'deleted',
  );
  if (enrollments.length === 0) return undefined;
  const term = ctx.state.get('terms', c.enrollment_term_id as number);
  const end = typeof c.end_at === 'string' ? c.end_at : typeof term?.end_at === 'string' ? term.end_at : undefined;
  const ended = byDate && end !== undefined && Date.parse(end) < Date.parse(ctx.state.now());
  return enrollments.some((e) => e.enrollment_state !== 'completed') && !ended ? 'active' : 'concluded';
}

/**
 * Document B, list for students, grading_period_id ("needs grading periods on the account"):
 * the assignments of the course whose due date falls in the period (the real LMS counts an
 * assignment without a due date in the last period); undefined without the parameter, 404 for
 * a period that is neither the course's nor its account's.
 */
function gradingPeriodOf(ctx: MockContext, c: Row): Set<unknown> | undefined {
  const id = ctx.params.int('grading_period_id');
  if (id === undefined) return undefined;
  const ofCourse = (p: Row) => p.course_id === c.id || (p.course_id === undefined && p.account_id === c.account_id);
  const periods = ctx.state.rows('grading_periods', ofCourse);
  const period = periods.find((p) => p.id === id);
  if (!period) notFound(`grading period ${id} of course ${String(c.id)}`);
  const last = [...periods].sort((x, y) => String(y.end_date).localeCompare(String(x.end_date)))[0];
  return new Set(
    ctx.state
      .rows('assignments', (a) =>
        a.course_id !== c.id
          ? false
          : typeof a.due_at === 'string'
            ? inTimeRange(a.due_at, String(period.start_date), String(period.end_date))
            : period === last,
      )
      .map((a) => a.id),
  );
}

/** The user's folder of files submitted in a course: `Submissions/<course name>` under their root, both marked for_submissions. */
function submissionsFolder(ctx: MockContext, userId: number, c: Row): Row {
  const root = rootFolder(ctx.state, 'User', userId);
  const child = (parent: Row, name: string): Row =>
    ctx.state.find('folders', (f) => f.parent_folder_id === parent.id && f.name === name) ??
    ctx.state.insert('folders', {
      context_type: 'User',
      context_id: userId,
      name,
      parent_folder_id: parent.id,
      position: nextPosition(ctx.state.rows('folders', (f) => f.parent_folder_id === parent.id)),
      for_submissions: true,
      created_at: ctx.state.now(),
      updated_at: ctx.state.now(),
    });
  return child(child(root, 'Submissions'), String(c.name));
}

export function assignmentOf(ctx: MockContext, c: Row): Row {
  const a = ctx.state.get('assignments', pathId(ctx, 'assignment_id'));
  if (!a || a.course_id !== c.id)
    notFound(`assignment ${ctx.bindings.get('assignment_id') ?? ''} in course ${String(c.id)}`);
  return a;
}

function studentIds(state: MockState, c: Row, sectionRow?: Row): number[] {
  return state
    .rows(
      'enrollments',
      (e) => e.course_id === c.id && e.type === 'StudentEnrollment' && (!sectionRow || e.section_id === sectionRow.id),
    )
    .map((e) => e.user_id as number);
}

const secondsBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 1000);

/**
 * A submission as the docs describe it, from the stored row: what the row holds, and what
 * follows from it and the assignment (document B, Submission). What neither gives (a late
 * policy's points_deducted, an excuse never given) is left out, not made up.
 */
export function submissionView(ctx: MockContext, s: Row): Row {
  const a = ctx.state.get('assignments', s.assignment_id as number);
  const submittedAt = typeof s.submitted_at === 'string' ? s.submitted_at : undefined;
  const gradedAt = typeof s.graded_at === 'string' ? s.graded_at : undefined;
  const dueAt = typeof a?.due_at === 'string' ? a.due_at : undefined;
  const path = `courses/${String(s.course_id)}/assignments/${String(s.assignment_id)}/submissions/${String(s.user_id)}`;
  const view: Row = {
    ...s,
    html_url: `${ctx.baseUrl}/${path}`,
    preview_url: `${ctx.baseUrl}/${path}?preview=1`,
    workflow_state: s.workflow_state ?? (s.grade !== undefined ? 'graded' : submittedAt ? 'submitted' : 'unsubmitted'),
    // "false if the student resubmitted since grading".
    grade_matches_current_submission: !(gradedAt && submittedAt && submittedAt > gradedAt),
  };
  // "made after the applicable due date": known when both dates are.
  if (submittedAt && dueAt) {
    view.late = Date.parse(submittedAt) > Date.parse(dueAt);
    view.seconds_late = Math.max(0, secondsBetween(dueAt, submittedAt));
  }
  // Missing: nothing turned in by a due date that has passed (no due date, never missing).
  view.missing = !submittedAt && dueAt !== undefined && Date.parse(dueAt) < Date.parse(ctx.state.now());
  // Every student of the course is assigned every assignment: the mock has no assignment overrides.
  if (enrollmentTypes(ctx, s.course_id, s.user_id).includes('StudentEnrollment')) view.assignment_visible = true;
  if (includes(ctx, 'user')) view.user = ctx.state.get('users', s.user_id as number);
  if (includes(ctx, 'assignment')) view.assignment = a;
  if (includes(ctx, 'submission_comments')) view.submission_comments = (s.comments as Row[] | undefined) ?? [];
  return view;
}

function submissionFor(ctx: MockContext, c: Row, a: Row, userId: number): Row {
  return (
    ctx.state.find('submissions', (s) => s.assignment_id === a.id && s.user_id === userId) ?? {
      course_id: c.id,
      assignment_id: a.id,
      user_id: userId,
      workflow_state: 'unsubmitted',
    }
  );
}

function commentFrom(ctx: MockContext): Row | undefined {
  const text = ctx.params.get('comment[text_comment]');
  if (!text) return undefined;
  const author = ctx.state.get('users', ctx.callerId);
  return {
    id: Date.now() % 1e9,
    author_id: ctx.callerId,
    author_name: author?.name,
    author,
    comment: text,
    created_at: ctx.state.now(),
    media_comment: null,
  };
}

/**
 * Document B, grade or comment: submission[posted_grade] "sets score and grade; accepted forms
 * are points such as a decimal number where values above points_possible are allowed, a
 * percentage ending in a percent sign where 100% equals points_possible and larger values are
 * allowed, or a letter grade". The grade is kept as posted (the assignment's grading scheme is
 * not shown); a letter gives no score, since no scheme says what it is worth, and neither does
 * a percentage of an assignment without points_possible. An empty value removes the grade.
 */
function postedGrade(posted: string, pointsPossible: number | undefined): { grade?: string; score?: number } {
  const text = posted.trim();
  if (text === '') return {};
  const percent = /^([+-]?(?:\d+(?:\.\d*)?|\.\d+))\s*%$/.exec(text);
  if (percent)
    return {
      grade: text,
      score: pointsPossible === undefined ? undefined : (Number(percent[1]) * pointsPossible) / 100,
    };
  const points = toNumber(text);
  return { grade: text, score: points };
}

/**
 * Document B, submit: submission[file_ids][] are "previously uploaded files of the submitter or
 * the group; needs online_upload". A file of another user's, a course's or no one's is refused
 * (400, naming the parameter), and so is an online_upload without files (the real LMS says a
 * file must be attached). The mock holds no group memberships, so a group's files are refused too.
 */
function submittedFiles(ctx: MockContext): number[] {
  const name = 'submission[file_ids][]';
  const given = ctx.params.all(name);
  if (given.length === 0)
    badRequest(
      'an online_upload submission needs submission[file_ids][]: the ids of files uploaded through the submission file upload',
      'missing-required',
      name,
    );
  return given.map((text) => {
    const file = ctx.state.get('files', toInt(text) ?? -1);
    const folder = file && ctx.state.get('folders', file.folder_id as number);
    if (!folder || folder.context_type !== 'User' || folder.context_id !== ctx.callerId)
      badRequest(`file ${text} is not one user ${ctx.callerId} uploaded`, 'not-the-submitters-file', name);
    return file.id as number;
  });
}

/** Doc B, submit: http is assumed if submission[url] has no scheme (the checker refuses schemes other than http and https). */
function submittedUrl(url: string): string {
  // A colon followed by a digit is a port (`example.com:8080`), not the end of a scheme.
  return /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(url) ? url : `http://${url}`;
}

export const submissionHandlers = {
  'submissions.create': (ctx) => {
    // Only a student of the course or section gets here (the endpoint's access statement).
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
    const g = ctx.params.group('submission');
    const fileIds = type === 'online_upload' ? submittedFiles(ctx) : undefined;
    let s = ctx.state.find('submissions', (x) => x.assignment_id === a.id && x.user_id === ctx.callerId);
    const fields: Row = {
      submission_type: type,
      submitted_at: ctx.state.now(),
      workflow_state: 'submitted',
      body: type === 'online_text_entry' ? g.body : undefined,
      url:
        (type === 'online_url' || type === 'basic_lti_launch') && typeof g.url === 'string'
          ? submittedUrl(g.url)
          : undefined,
      // Kept, not shown: the docs' Submission has no field for the files.
      attachment_ids: fileIds,
    };
    if (s) Object.assign(s, fields, { attempt: (toInt(s.attempt) ?? 0) + 1 });
    else
      s = ctx.state.insert('submissions', {
        course_id: c.id,
        assignment_id: a.id,
        user_id: ctx.callerId,
        attempt: 1,
        ...fields,
      });
    const comment = commentFrom(ctx);
    if (comment) s.comments = [...((s.comments as Row[] | undefined) ?? []), comment];
    return { kind: 'one', value: submissionView(ctx, s), status: 201, as: 'Submission' };
  },
  'submissions.list': (ctx) => {
    const { course: c, section: sec } = courseOrSection(ctx);
    const a = assignmentOf(ctx, c);
    const ids = new Set(studentIds(ctx.state, c, sec));
    return list(
      ctx.state
        .rows('submissions', (s) => s.assignment_id === a.id && ids.has(s.user_id as number))
        .map((s) => submissionView(ctx, s)),
    );
  },
  'submissions.list_for_students': (ctx) => {
    const { course: c, section: sec } = courseOrSection(ctx);
    const students = studentIds(ctx.state, c, sec);
    // student_ids[]: "omitted means the caller"; `all` is every student in scope. Whose rows a
    // student or an observer sees is the endpoint's rows statement.
    const wanted = listParam(ctx, 'student_ids');
    let userIds = wanted.includes('all')
      ? students
      : wanted.length
        ? wanted.map((w) => userByRef(ctx, w)?.id).filter((id): id is number => typeof id === 'number')
        : [ctx.callerId];
    const enrollmentState = ctx.params.get('enrollment_state');
    if (enrollmentState !== undefined) {
      const byDate = ctx.params.bool('state_based_on_date') !== false;
      userIds = userIds.filter((u) => enrollmentStateOf(ctx, c, u, sec, byDate) === enrollmentState);
    }
    const period = gradingPeriodOf(ctx, c);
    const assignmentIds = listParam(ctx, 'assignment_ids').map((x) => toInt(x));
    const submittedSince = ctx.params.get('submitted_since');
    const gradedSince = ctx.params.get('graded_since');
    const state = ctx.params.get('workflow_state');
    const rows = ctx.state.rows(
      'submissions',
      (s) =>
        s.course_id === c.id &&
        userIds.includes(s.user_id as number) &&
        (assignmentIds.length === 0 || assignmentIds.includes(s.assignment_id as number)) &&
        (!period || period.has(s.assignment_id)) &&
        // "exclude unsubmitted or ungraded"
        (!submittedSince || (typeof s.submitted_at === 'string' && inTimeRange(s.submitted_at, submittedSince))) &&
        (!gradedSince || (typeof s.graded_at === 'string' && inTimeRange(s.graded_at, gradedSince))) &&
        (!state || submissionView(ctx, s).workflow_state === state),
    );
    // grouped: "when present, response is grouped by student": the catalog's returnsBy says which form.
    if (returnsFor(ctx.endpoint, ctx.params.pairs) === 'StudentSubmissionGroup[]') {
      return {
        kind: 'list',
        as: 'StudentSubmissionGroup',
        items: userIds.map((u) => ({
          user_id: u,
          submissions: rows.filter((s) => s.user_id === u).map((s) => submissionView(ctx, s)),
        })),
      };
    }
    // order: id (default) or graded_at; order_direction: ascending (default) or descending.
    const key =
      ctx.params.get('order') === 'graded_at' ? (s: Row) => String(s.graded_at ?? '') : (s: Row) => toInt(s.id) ?? 0;
    const direction = ctx.params.get('order_direction') === 'descending' ? -1 : 1;
    rows.sort((x, y) => (key(x) < key(y) ? -direction : key(x) > key(y) ? direction : 0));
    return { kind: 'list', as: 'Submission', items: rows.map((s) => submissionView(ctx, s)) };
  },
  'submissions.show': (ctx) => {
    const { course: c } = courseOrSection(ctx);
    const a = assignmentOf(ctx, c);
    const u = user(ctx);
    if (!ctx.state.find('enrollments', (e) => e.course_id === c.id && e.user_id === u.id))
      notFound(`user ${String(u.id)} in course ${String(c.id)}`);
    return one(submissionView(ctx, submissionFor(ctx, c, a, u.id as number)));
  },
  // The first step of a submission's upload (upload.ts has the last), for the student themself (its
  // access statement). The file goes to the student's submissions folder of the course, as the real
  // LMS puts it, and counts against no quota.
  'submissions.upload_file': (ctx) => {
    const { course: c } = courseOrSection(ctx);
    assignmentOf(ctx, c);
    const u = user(ctx);
    const folder = submissionsFolder(ctx, u.id as number, c);
    return raw(200, offerUpload(ctx, firstStep(ctx, folder.id as number)));
  },
  'submissions.update': (ctx) => {
    const { course: c } = courseOrSection(ctx);
    const a = assignmentOf(ctx, c);
    const u = user(ctx);
    // A grade comes only from a caller with the manage grades permission (the endpoint's access statement).
    const posted = ctx.params.get('submission[posted_grade]');
    let s = ctx.state.find('submissions', (x) => x.assignment_id === a.id && x.user_id === u.id);
    if (!s)
      s = ctx.state.insert('submissions', {
        course_id: c.id,
        assignment_id: a.id,
        user_id: u.id,
        workflow_state: 'unsubmitted',
      });
    if (posted !== undefined) {
      const { grade, score } = postedGrade(posted, toNumber(a.points_possible));
      for (const key of ['grade', 'score', 'graded_at', 'grader_id']) Reflect.deleteProperty(s, key);
      if (grade !== undefined)
        Object.assign(
          s,
          { grade, workflow_state: 'graded', grader_id: ctx.callerId, graded_at: ctx.state.now() },
          score === undefined ? {} : { score },
        );
      else s.workflow_state = typeof s.submitted_at === 'string' ? 'submitted' : 'unsubmitted';
    }
    const comment = commentFrom(ctx);
    if (comment) s.comments = [...((s.comments as Row[] | undefined) ?? []), comment];
    return { kind: 'one', value: submissionView(ctx, s), as: 'Submission' };
  },
} satisfies HandlersOf<'submissions'>;
