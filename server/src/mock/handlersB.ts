/** Document B: courses, submissions, quiz submissions and questions, gradebook history, custom columns, grading periods, peer reviews. */
import { randomBytes } from 'node:crypto';
import { inTimeRange, toBool, toInt, toNumber } from './params';
import type { MockState, Row } from './state';
import { setOwn } from '../core/own';
import {
  account,
  badRequest,
  byPosition,
  course,
  courseOrSection,
  HttpError,
  includes,
  list,
  listParam,
  must,
  nextPosition,
  notFound,
  one,
  pathId,
  pick,
  raw,
  user,
  type Handler,
  type MockContext,
} from './context';

// ---------------------------------------------------------------- courses

export function courseView(ctx: MockContext, c: Row, forUser?: number): Row {
  const enrollments = ctx.state.rows('enrollments', (e) => e.course_id === c.id);
  const acct = ctx.state.get('accounts', c.account_id as number);
  const view: Row = {
    ...c,
    uuid: c.uuid ?? `course-${String(c.id)}-uuid`,
    root_account_id: acct?.root_account_id ?? acct?.id ?? c.account_id,
    grading_standard_id: c.grading_standard_id ?? 0,
    locale: c.locale ?? 'en',
    enrollments: enrollments.filter((e) => e.user_id === (forUser ?? ctx.state.selfUserId)).map((e) => ({ type: String(e.type).replace('Enrollment', '').toLowerCase(), role: e.type, role_id: 0, user_id: e.user_id, enrollment_state: 'active' })),
    total_students: enrollments.filter((e) => e.type === 'StudentEnrollment').length,
    calendar: { ics: `${ctx.baseUrl}/feeds/calendars/course_${String(c.id)}.ics` },
    license: c.license ?? 'private',
    course_format: c.course_format ?? 'on_campus',
    storage_quota_mb: 500,
    storage_quota_used_mb: 0,
    blueprint_restrictions: {},
    blueprint_restrictions_by_object_type: {},
  };
  if (includes(ctx, 'term')) view.term = ctx.state.get('terms', c.enrollment_term_id as number) ?? { id: 0, name: 'Default Term', start_at: null, end_at: null };
  if (includes(ctx, 'syllabus_body')) view.syllabus_body = c.syllabus_body ?? '';
  if (includes(ctx, 'total_students')) view.total_students = view.total_students as number;
  if (includes(ctx, 'sections')) view.sections = ctx.state.rows('sections', (s) => s.course_id === c.id).map((s) => pick(s, ['id', 'name']));
  return view;
}

function coursesOf(ctx: MockContext, userId: number): Row[] {
  const ids = new Set(ctx.state.rows('enrollments', (e) => e.user_id === userId).map((e) => e.course_id));
  const states = listParam(ctx, 'state');
  return ctx.state.rows('courses', (c) => ids.has(c.id) && (states.length ? states.includes(String(c.workflow_state)) : c.workflow_state !== 'deleted'));
}

// ---------------------------------------------------------------- submissions

function assignmentOf(ctx: MockContext, c: Row): Row {
  const a = ctx.state.get('assignments', pathId(ctx, 'assignment_id'));
  if (!a || a.course_id !== c.id) notFound(`assignment ${ctx.bindings.get('assignment_id') ?? ''} in course ${String(c.id)}`);
  return a;
}

function studentIds(state: MockState, c: Row, sectionRow?: Row): number[] {
  return state.rows('enrollments', (e) => e.course_id === c.id && e.type === 'StudentEnrollment' && (!sectionRow || e.section_id === sectionRow.id)).map((e) => e.user_id as number);
}

function submissionView(ctx: MockContext, s: Row): Row {
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
  return ctx.state.find('submissions', (s) => s.assignment_id === a.id && s.user_id === userId) ?? { course_id: c.id, assignment_id: a.id, user_id: userId, attempt: 0, workflow_state: 'unsubmitted' };
}

function commentFrom(ctx: MockContext): Row | undefined {
  const text = ctx.params.get('comment[text_comment]');
  if (!text) return undefined;
  const author = ctx.state.get('users', ctx.state.selfUserId);
  return { id: Date.now() % 1e9, author_id: ctx.state.selfUserId, author_name: author?.name ?? '', author: author ?? {}, comment: text, created_at: ctx.state.now(), edited_at: ctx.state.now(), media_comment: null };
}

// ---------------------------------------------------------------- quizzes

function quizOf(ctx: MockContext): { course: Row; quiz: Row } {
  const c = course(ctx);
  const quiz = ctx.state.get('quizzes', pathId(ctx, 'quiz_id'));
  if (!quiz || quiz.course_id !== c.id) notFound(`quiz ${ctx.bindings.get('quiz_id') ?? ''} in course ${String(c.id)}`);
  return { course: c, quiz };
}

function quizSubmissionOf(ctx: MockContext): { course: Row; quiz: Row; submission: Row } {
  const { course: c, quiz } = quizOf(ctx);
  const submission = ctx.state.get('quiz_submissions', pathId(ctx));
  if (!submission || submission.quiz_id !== quiz.id) notFound(`quiz submission ${ctx.bindings.get('id') ?? ''} of quiz ${String(quiz.id)}`);
  return { course: c, quiz, submission };
}

function quizSubmissionView(s: Row, withToken: boolean): Row {
  const view: Row = { extra_attempts: 0, extra_time: 0, manually_unlocked: false, time_spent: 0, fudge_points: 0, has_seen_results: false, overdue_and_needs_submission: false, score_before_regrade: s.score ?? 0, kept_score: s.kept_score ?? s.score ?? 0, ...s };
  if (!withToken) delete view.validation_token;
  return view;
}

/**
 * The latest attempt of one user at one quiz (the row that holds it). A teacher's preview
 * "does not count toward the course record" (document B), so previews and real attempts
 * are counted apart.
 */
function latestAttempt(state: MockState, quizId: unknown, userId: unknown, preview = false): Row | undefined {
  let latest: Row | undefined;
  const rows = state.rows('quiz_submissions', (r) => r.quiz_id === quizId && r.user_id === userId && (r._preview === true) === preview);
  for (const s of rows) if (!latest || (s.attempt as number) > (latest.attempt as number)) latest = s;
  return latest;
}

function questionsOf(state: MockState, quizId: unknown): Row[] {
  return state.rows('quiz_questions', (q) => q.quiz_id === quizId).sort(byPosition);
}

function writeQuestion(ctx: MockContext, q: Row) {
  const g = ctx.params.group('question');
  Object.assign(q, pick(g, ['question_name', 'question_text', 'question_type', 'correct_comments', 'incorrect_comments', 'neutral_comments', 'text_after_answers']));
  if (g.position !== undefined) q.position = toInt(g.position);
  if (g.points_possible !== undefined) q.points_possible = toNumber(g.points_possible);
  if (g.quiz_group_id !== undefined) q._quiz_group_id = toInt(g.quiz_group_id);
  const answers = g.answers;
  if (answers && typeof answers === 'object') {
    const entries = Array.isArray(answers) ? answers : Object.entries(answers as Row).sort(([a], [b]) => (toInt(a) ?? 0) - (toInt(b) ?? 0)).map(([, v]) => v);
    q.answers = entries.filter((a): a is Row => a !== null && typeof a === 'object').map((a, i) => ({ id: toInt(a.id) ?? i + 1, answer_text: '', answer_weight: 0, answer_comments: '', ...a }));
  }
}

// ---------------------------------------------------------------- gradebook history

interface GradeEvent {
  submission: Row;
  date: string;
  graderId: number;
}

function gradeEvents(ctx: MockContext, c: Row): GradeEvent[] {
  return ctx.state
    .rows('submissions', (s) => s.course_id === c.id && typeof s.graded_at === 'string' && s.grader_id !== undefined && s.grader_id !== null)
    .map((s) => ({ submission: s, date: String(s.graded_at).slice(0, 10), graderId: s.grader_id as number }));
}

function graders(ctx: MockContext, events: GradeEvent[]): Row[] {
  const byGrader = new Map<number, Set<number>>();
  for (const e of events) {
    const set = byGrader.get(e.graderId) ?? new Set<number>();
    set.add(e.submission.assignment_id as number);
    byGrader.set(e.graderId, set);
  }
  return [...byGrader].map(([id, assignments]) => ({ id, name: ctx.state.get('users', id)?.name ?? `user ${id}`, assignments: [...assignments] }));
}

function versionOf(ctx: MockContext, s: Row): Row {
  const a = ctx.state.get('assignments', s.assignment_id as number);
  const u = ctx.state.get('users', s.user_id as number);
  const grader = ctx.state.get('users', s.grader_id as number);
  return {
    ...submissionView(ctx, s),
    assignment_name: a?.name ?? null,
    user_name: u?.name ?? null,
    current_grade: s.grade ?? '',
    current_graded_at: s.graded_at,
    current_grader: grader?.name ?? null,
    grader: grader?.name ?? null,
    new_grade: s.grade ?? '',
    new_graded_at: s.graded_at,
    new_grader: grader?.name ?? null,
    previous_grade: '',
    previous_graded_at: s.submitted_at ?? s.graded_at,
    previous_grader: null,
  };
}

// ---------------------------------------------------------------- custom columns, grading periods, peer reviews

function columnOf(ctx: MockContext): Row {
  const c = course(ctx);
  const col = ctx.state.get('custom_columns', pathId(ctx));
  if (!col || col.course_id !== c.id) notFound(`custom column ${ctx.bindings.get('id') ?? ''} in course ${String(c.id)}`);
  return col;
}

function writeColumn(ctx: MockContext, col: Row) {
  const g = ctx.params.group('column');
  if (g.title !== undefined) col.title = g.title;
  if (g.position !== undefined) col.position = toInt(g.position) ?? col.position;
  for (const k of ['hidden', 'teacher_notes', 'read_only'] as const) if (g[k] !== undefined) col[k] = toBool(g[k]) ?? false;
}

function gradingPeriodOf(ctx: MockContext): Row {
  const p = ctx.state.get('grading_periods', pathId(ctx));
  const owner = ctx.bindings.has('account_id') ? { key: 'account_id' as const, id: account(ctx).id } : { key: 'course_id' as const, id: course(ctx).id };
  if (!p || p[owner.key] !== owner.id) notFound(`grading period ${ctx.bindings.get('id') ?? ''}`);
  return p;
}

function periodView(ctx: MockContext, p: Row): Row {
  return { ...p, is_closed: typeof p.close_date === 'string' && String(p.close_date) < ctx.state.now() };
}

function peerReviewView(ctx: MockContext, r: Row): Row {
  const view: Row = { ...r, asset_type: 'Submission' };
  if (includes(ctx, 'user')) {
    view.user = ctx.state.get('users', r.user_id as number) ?? {};
    view.assessor = ctx.state.get('users', r.assessor_id as number) ?? {};
  }
  if (includes(ctx, 'submission_comments')) view.submission_comments = [];
  return view;
}

function submissionOfPath(ctx: MockContext, c: Row, a: Row): Row {
  const id = pathId(ctx, 'submission_id');
  const s = ctx.state.find('submissions', (x) => x.assignment_id === a.id && (x.id === id || x.user_id === id));
  if (!s || s.course_id !== c.id) notFound(`submission ${id} of assignment ${String(a.id)}`);
  return s;
}

// ---------------------------------------------------------------- the handlers

/** Doc B, submit: http is assumed if submission[url] has no scheme (the checker refuses schemes other than http and https). */
function submittedUrl(url: string): string {
  // A colon followed by a digit is a port (`example.com:8080`), not the end of a scheme.
  return /^[a-z][a-z0-9+.-]*:(?!\d)/i.test(url) ? url : `http://${url}`;
}

export const handlersB: Record<string, Handler> = {
  'courses.list': (ctx) => list(coursesOf(ctx, ctx.state.selfUserId).map((c) => courseView(ctx, c))),
  'courses.list_for_user': (ctx) => {
    const u = user(ctx);
    return list(coursesOf(ctx, u.id as number).map((c) => courseView(ctx, c, u.id as number)));
  },

  'submissions.create': (ctx) => {
    const { course: c } = courseOrSection(ctx);
    const a = assignmentOf(ctx, c);
    const type = ctx.params.get('submission[submission_type]') ?? '';
    const allowed = (a.submission_types as string[] | undefined) ?? [];
    if (allowed.length && !allowed.includes(type)) badRequest(`submission_type ${type} is not among the assignment's allowed types (${allowed.join(', ')})`, 'invalid-submission-type', 'submission[submission_type]');
    const userId = toInt(ctx.params.get('submission[user_id]')) ?? ctx.state.selfUserId;
    const g = ctx.params.group('submission');
    let s = ctx.state.find('submissions', (x) => x.assignment_id === a.id && x.user_id === userId);
    const fields: Row = { submission_type: type, submitted_at: ctx.state.now(), workflow_state: 'submitted', body: type === 'online_text_entry' ? g.body : undefined, url: (type === 'online_url' || type === 'basic_lti_launch') && typeof g.url === 'string' ? submittedUrl(g.url) : undefined };
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
    const rows = ctx.state.rows('submissions', (s) => s.course_id === c.id && userIds.includes(s.user_id as number) && (assignmentIds.length === 0 || assignmentIds.includes(s.assignment_id as number)) && (!since || inTimeRange(s.submitted_at ?? '', since)) && (!state || s.workflow_state === state));
    if (ctx.params.bool('grouped')) {
      return { kind: 'list', as: 'StudentSubmissionGroup', items: userIds.map((u) => ({ user_id: u, submissions: rows.filter((s) => s.user_id === u).map((s) => submissionView(ctx, s)) })) };
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
    return raw(200, { upload_url: `${ctx.baseUrl}/files_api/submissions/${String(a.id)}/${String(u.id)}`, upload_params: { name: ctx.params.get('name') ?? null } });
  },
  'submissions.update': (ctx) => {
    const { course: c } = courseOrSection(ctx);
    const a = assignmentOf(ctx, c);
    const u = user(ctx);
    let s = ctx.state.find('submissions', (x) => x.assignment_id === a.id && x.user_id === u.id);
    if (!s) s = ctx.state.insert('submissions', { course_id: c.id, assignment_id: a.id, user_id: u.id, attempt: 0, workflow_state: 'unsubmitted' });
    const grade = ctx.params.get('submission[posted_grade]');
    if (grade !== undefined) Object.assign(s, { grade, score: toNumber(grade.replace(/%$/, '')) ?? s.score, workflow_state: 'graded', grader_id: ctx.state.selfUserId, graded_at: ctx.state.now() });
    const excuse = ctx.params.bool('submission[excuse]');
    if (excuse !== undefined) s.excused = excuse;
    const comment = commentFrom(ctx);
    if (comment) s.comments = [...((s.comments as Row[] | undefined) ?? []), comment];
    return { kind: 'one', value: submissionView(ctx, s), as: 'Submission' };
  },

  'quiz_submissions.list': (ctx) => {
    const { quiz } = quizOf(ctx);
    return list(ctx.state.rows('quiz_submissions', (s) => s.quiz_id === quiz.id).map((s) => quizSubmissionView(s, false)), 'quiz_submissions');
  },
  'quiz_submissions.current': (ctx) => {
    const { quiz } = quizOf(ctx);
    const s = latestAttempt(ctx.state, quiz.id, ctx.state.selfUserId);
    if (!s) notFound(`a submission of quiz ${String(quiz.id)} by the current user`);
    return one({ quiz_submissions: [quizSubmissionView(s, s.workflow_state === 'untaken')] });
  },
  'quiz_submissions.show': (ctx) => one({ quiz_submissions: [quizSubmissionView(quizSubmissionOf(ctx).submission, false)] }),
  'quiz_submissions.create': (ctx) => {
    const { course: c, quiz } = quizOf(ctx);
    if (quiz.locked === true) badRequest(`quiz ${String(quiz.id)} is locked`, 'quiz-locked');
    if (typeof quiz.access_code === 'string' && ctx.params.get('access_code') !== quiz.access_code) throw new HttpError(403, 'invalid access code', 'invalid-access-code', 'access_code');
    const preview = ctx.params.bool('preview') ?? false;
    const latest = latestAttempt(ctx.state, quiz.id, ctx.state.selfUserId, preview);
    if (latest && latest.workflow_state === 'untaken') {
      throw new HttpError(409, `a quiz submission already exists for this user and quiz (submission ${String(latest.id)}, attempt ${String(latest.attempt)}, in progress)`, 'submission-exists');
    }
    const allowed = toInt(quiz.allowed_attempts) ?? -1;
    if (!preview && latest && allowed > 0 && (latest.attempt as number) >= allowed) {
      throw new HttpError(409, `a quiz submission already exists for this user and quiz and no attempts are left (${allowed} allowed)`, 'submission-exists');
    }
    const started = ctx.state.now();
    const minutes = toInt(quiz.time_limit);
    const row: Row = {
      quiz_id: quiz.id,
      course_id: c.id,
      user_id: ctx.state.selfUserId,
      submission_id: latest?.submission_id ?? 600000 + (quiz.id as number),
      attempt: ((latest?.attempt as number | undefined) ?? 0) + 1,
      workflow_state: 'untaken',
      started_at: started,
      finished_at: null,
      end_at: minutes ? new Date(Date.parse(started) + minutes * 60000).toISOString().replace(/\.\d{3}Z$/, 'Z') : started,
      validation_token: randomBytes(16).toString('hex'),
      _preview: preview,
    };
    const stored = ctx.state.insert('quiz_submissions', row);
    return one({ quiz_submissions: [quizSubmissionView(stored, true)] });
  },
  'quiz_submissions.update': (ctx) => {
    const { submission } = quizSubmissionOf(ctx);
    const body = ctx.json as { quiz_submissions?: Row[] } | undefined;
    const entry = body?.quiz_submissions?.[0];
    if (!entry || toInt(entry.attempt) === undefined) badRequest('attempt missing or invalid', 'invalid-attempt', 'attempt');
    const attempt = toInt(entry.attempt);
    if (attempt !== submission.attempt) badRequest(`attempt ${String(attempt)} is not the attempt of quiz submission ${String(submission.id)} (${String(submission.attempt)})`, 'invalid-attempt', 'attempt');
    if (submission.workflow_state !== 'complete' && submission.workflow_state !== 'pending_review') {
      badRequest(`attempt ${String(attempt)} is not yet complete; only completed attempts can be updated`, 'attempt-not-complete', 'attempt');
    }
    const fudge = entry.fudge_points;
    if (fudge !== null && fudge !== undefined) {
      const f = toNumber(fudge);
      if (f === undefined) badRequest('fudge_points must be a signed decimal', 'invalid-type', 'fudge_points');
      submission.score = (toNumber(submission.score) ?? 0) - (toNumber(submission.fudge_points) ?? 0) + f;
      submission.fudge_points = f;
    }
    const questions = entry.questions;
    if (questions && typeof questions === 'object') {
      const scores = { ...((submission._question_scores as Row | undefined) ?? {}) };
      for (const [qid, q] of Object.entries(questions as Row)) {
        if (!q || typeof q !== 'object') continue;
        const score = (q as Row).score;
        if (score !== null && score !== undefined) {
          const n = toNumber(score);
          if (n === undefined || n < 0) badRequest(`questions.${qid}.score must be an unsigned decimal`, 'invalid-type', 'questions');
          setOwn(scores, qid, n);
        }
      }
      submission._question_scores = scores;
      const manual = Object.values(scores).reduce<number>((s, v) => s + (v as number), 0);
      if (Object.keys(scores).length) submission.score = manual + (toNumber(submission.fudge_points) ?? 0);
    }
    submission.kept_score = submission.score;
    return one({ quiz_submissions: [quizSubmissionView(submission, false)] });
  },
  'quiz_submissions.complete': (ctx) => {
    const { quiz, submission } = quizSubmissionOf(ctx);
    const attempt = ctx.params.int('attempt');
    if (submission.workflow_state === 'complete' || submission.workflow_state === 'pending_review') {
      badRequest(`quiz submission ${String(submission.id)} is already complete`, 'already-complete');
    }
    const latest = latestAttempt(ctx.state, quiz.id, submission.user_id, submission._preview === true);
    if (attempt === undefined) badRequest('attempt missing', 'missing-required', 'attempt');
    if (attempt !== submission.attempt || latest?.id !== submission.id) badRequest(`attempt ${attempt} is not the latest attempt (${String(latest?.attempt ?? submission.attempt)})`, 'not-latest-attempt', 'attempt');
    if (typeof quiz.access_code === 'string' && ctx.params.get('access_code') !== quiz.access_code) throw new HttpError(403, 'invalid access code', 'invalid-access-code', 'access_code');
    if (ctx.params.get('validation_token') !== submission.validation_token) throw new HttpError(403, 'invalid validation token', 'invalid-validation-token', 'validation_token');
    const points = questionsOf(ctx.state, quiz.id).reduce((s, q) => s + (toNumber(q.points_possible) ?? 0), 0);
    const finished = ctx.state.now();
    Object.assign(submission, {
      workflow_state: 'complete',
      finished_at: finished,
      score: points,
      kept_score: points,
      time_spent: Math.max(0, Math.round((Date.parse(finished) - Date.parse(String(submission.started_at))) / 1000)),
    });
    return one({ quiz_submissions: [quizSubmissionView(submission, false)] });
  },
  'quiz_submissions.time': (ctx) => {
    const { submission } = quizSubmissionOf(ctx);
    const left = submission.workflow_state === 'untaken' ? Math.max(0, Math.round((Date.parse(String(submission.end_at)) - Date.parse(ctx.state.now())) / 1000)) : 0;
    return one({ end_at: submission.end_at, time_left: left });
  },

  'quiz_questions.list': (ctx) => list(questionsOf(ctx.state, quizOf(ctx).quiz.id)),
  'quiz_questions.show': (ctx) => {
    const { quiz } = quizOf(ctx);
    const q = ctx.state.get('quiz_questions', pathId(ctx));
    if (!q || q.quiz_id !== quiz.id) notFound(`question ${ctx.bindings.get('id') ?? ''} of quiz ${String(quiz.id)}`);
    return one(q);
  },
  'quiz_questions.create': (ctx) => {
    const { course: c, quiz } = quizOf(ctx);
    const q: Row = { quiz_id: quiz.id, course_id: c.id, position: nextPosition(questionsOf(ctx.state, quiz.id)), question_name: 'Question', question_type: 'text_only_question', question_text: '', points_possible: 0, answers: [] };
    writeQuestion(ctx, q);
    return one(ctx.state.insert('quiz_questions', q));
  },
  'quiz_questions.update': (ctx) => {
    const { quiz } = quizOf(ctx);
    const q = ctx.state.get('quiz_questions', pathId(ctx));
    if (!q || q.quiz_id !== quiz.id) notFound(`question ${ctx.bindings.get('id') ?? ''} of quiz ${String(quiz.id)}`);
    writeQuestion(ctx, q);
    return one(q);
  },
  'quiz_questions.delete': (ctx) => {
    const { quiz } = quizOf(ctx);
    const q = ctx.state.get('quiz_questions', pathId(ctx));
    if (!q || q.quiz_id !== quiz.id) notFound(`question ${ctx.bindings.get('id') ?? ''} of quiz ${String(quiz.id)}`);
    ctx.state.remove('quiz_questions', q.id as number);
    return raw(204);
  },

  'gradebook_history.days': (ctx) => {
    const events = gradeEvents(ctx, course(ctx));
    const dates = [...new Set(events.map((e) => e.date))].sort().reverse();
    return list(dates.map((date) => ({ date, graders: graders(ctx, events.filter((e) => e.date === date)) })));
  },
  'gradebook_history.day': (ctx) => {
    const date = ctx.bindings.get('date') ?? '';
    return list(graders(ctx, gradeEvents(ctx, course(ctx)).filter((e) => e.date === date)));
  },
  'gradebook_history.submissions': (ctx) => {
    const date = ctx.bindings.get('date') ?? '';
    const grader = pathId(ctx, 'grader_id');
    const assignment = pathId(ctx, 'assignment_id');
    const events = gradeEvents(ctx, course(ctx)).filter((e) => e.date === date && e.graderId === grader && e.submission.assignment_id === assignment);
    return list(events.map((e) => ({ submission_id: e.submission.id, versions: [versionOf(ctx, e.submission)] })));
  },
  'gradebook_history.feed': (ctx) => {
    const assignment = ctx.params.int('assignment_id');
    const userId = ctx.params.int('user_id');
    const events = gradeEvents(ctx, course(ctx))
      .filter((e) => (assignment === undefined || e.submission.assignment_id === assignment) && (userId === undefined || e.submission.user_id === userId))
      .sort((a, b) => (String(a.submission.graded_at) < String(b.submission.graded_at) ? -1 : 1));
    if (ctx.params.bool('ascending') !== true) events.reverse();
    return list(events.map((e) => {
      const v = versionOf(ctx, e.submission);
      delete v.new_grade;
      delete v.previous_grade;
      return v;
    }));
  },

  'custom_gradebook_columns.list': (ctx) => {
    const c = course(ctx);
    const hidden = ctx.params.bool('include_hidden') === true;
    return list(ctx.state.rows('custom_columns', (col) => col.course_id === c.id && (hidden || col.hidden !== true)).sort(byPosition));
  },
  'custom_gradebook_columns.create': (ctx) => {
    const c = course(ctx);
    const col: Row = { course_id: c.id, hidden: false, teacher_notes: false, read_only: false, position: nextPosition(ctx.state.rows('custom_columns', (x) => x.course_id === c.id)) };
    writeColumn(ctx, col);
    return one(ctx.state.insert('custom_columns', col));
  },
  'custom_gradebook_columns.update': (ctx) => {
    const col = columnOf(ctx);
    writeColumn(ctx, col);
    return one(col);
  },
  'custom_gradebook_columns.delete': (ctx) => {
    const col = columnOf(ctx);
    for (const d of ctx.state.rows('column_data', (x) => x.column_id === col.id)) ctx.state.remove('column_data', d.id as number);
    ctx.state.remove('custom_columns', col.id as number);
    return one(col);
  },
  'custom_gradebook_columns.reorder': (ctx) => {
    const c = course(ctx);
    const order = listParam(ctx, 'order').map((x) => toInt(x));
    const columns = ctx.state.rows('custom_columns', (x) => x.course_id === c.id);
    for (const id of order) if (!columns.some((col) => col.id === id)) badRequest(`order[]: column ${String(id)} is not a custom column of course ${String(c.id)}`, 'not-found', 'order[]');
    order.forEach((id, i) => {
      const col = columns.find((x) => x.id === id);
      if (col) col.position = i + 1;
    });
    return raw(200, { reorder: true, order });
  },
  'custom_gradebook_column_data.list': (ctx) => {
    const col = columnOf(ctx);
    return list(ctx.state.rows('column_data', (d) => d.column_id === col.id && String(d.content) !== ''));
  },
  'custom_gradebook_column_data.update': (ctx) => {
    const col = columnOf(ctx);
    const u = user(ctx);
    const content = ctx.params.get('column_data[content]') ?? '';
    const existing = ctx.state.find('column_data', (d) => d.column_id === col.id && d.user_id === u.id);
    if (content === '') {
      if (existing) ctx.state.remove('column_data', existing.id as number);
      return one({ content: '', user_id: u.id });
    }
    if (existing) existing.content = content;
    return one(existing ?? ctx.state.insert('column_data', { column_id: col.id, user_id: u.id, content }));
  },

  'grading_periods.list': (ctx) => {
    const owner = ctx.bindings.has('account_id') ? { key: 'account_id' as const, id: account(ctx).id } : { key: 'course_id' as const, id: course(ctx).id };
    const rows = ctx.state.rows('grading_periods', (p) => p[owner.key] === owner.id).sort((a, b) => (String(a.start_date) < String(b.start_date) ? -1 : 1));
    return list(rows.map((p) => periodView(ctx, p)), 'grading_periods');
  },
  'grading_periods.show': (ctx) => one({ grading_periods: [periodView(ctx, gradingPeriodOf(ctx))] }),
  'grading_periods.update': (ctx) => {
    const p = gradingPeriodOf(ctx);
    const sent = ctx.params.nested.grading_periods;
    const entry = (Array.isArray(sent) ? sent[0] : undefined) as Row | undefined;
    if (entry) {
      for (const k of ['start_date', 'end_date', 'close_date', 'title'] as const) if (entry[k] !== undefined) p[k] = entry[k];
      if (entry.weight !== undefined) p.weight = toNumber(entry.weight);
      if (String(p.end_date) < String(p.start_date)) badRequest('grading_periods[][end_date] is before the start date', 'invalid-dates', 'grading_periods[][end_date]');
    }
    return one({ grading_periods: [periodView(ctx, p)] });
  },
  'grading_periods.delete': (ctx) => {
    const p = gradingPeriodOf(ctx);
    ctx.state.remove('grading_periods', p.id as number);
    return raw(204);
  },

  'peer_reviews.list': (ctx) => {
    const { course: c } = courseOrSection(ctx);
    const a = assignmentOf(ctx, c);
    const asset = ctx.bindings.has('submission_id') ? submissionOfPath(ctx, c, a).id : undefined;
    return list(ctx.state.rows('peer_reviews', (r) => r.assignment_id === a.id && (asset === undefined || r.asset_id === asset)).map((r) => peerReviewView(ctx, r)));
  },
  'peer_reviews.create': (ctx) => {
    const { course: c } = courseOrSection(ctx);
    const a = assignmentOf(ctx, c);
    const s = submissionOfPath(ctx, c, a);
    const reviewer = must(ctx, 'users', ctx.params.int('user_id'), 'user');
    if (!ctx.state.find('enrollments', (e) => e.course_id === c.id && e.user_id === reviewer.id)) badRequest(`user ${String(reviewer.id)} is not in course ${String(c.id)}`, 'not-enrolled', 'user_id');
    const existing = ctx.state.find('peer_reviews', (r) => r.asset_id === s.id && r.assessor_id === reviewer.id);
    return one(peerReviewView(ctx, existing ?? ctx.state.insert('peer_reviews', { course_id: c.id, assignment_id: a.id, asset_id: s.id, user_id: s.user_id, assessor_id: reviewer.id, workflow_state: 'assigned' })));
  },
  'peer_reviews.delete': (ctx) => {
    const { course: c } = courseOrSection(ctx);
    const a = assignmentOf(ctx, c);
    const s = submissionOfPath(ctx, c, a);
    const reviewer = ctx.params.int('user_id');
    const r = ctx.state.find('peer_reviews', (x) => x.asset_id === s.id && x.assessor_id === reviewer);
    if (!r) notFound(`a peer review of submission ${String(s.id)} by user ${String(reviewer)}`);
    ctx.state.remove('peer_reviews', r.id as number);
    return one(peerReviewView(ctx, r));
  },
};
