/** Quiz submissions (document B): the attempts of a quiz, a state machine from untaken to complete. */
import { badRequest, type HandlersOf, HttpError, list, type MockContext, notFound, one, pathId } from '../context';
import { toInt, toNumber } from '../params';
import type { MockState, Row } from '../state';
import { setOwn } from '../../core';
import { randomBytes } from 'node:crypto';
import { quizOf } from './quizzes';

function quizSubmissionOf(ctx: MockContext): { course: Row; quiz: Row; submission: Row } {
  const { course: c, quiz } = quizOf(ctx);
  const submission = ctx.state.get('quiz_submissions', pathId(ctx));
  if (!submission || submission.quiz_id !== quiz.id)
    notFound(`quiz submission ${ctx.bindings.get('id') ?? ''} of quiz ${String(quiz.id)}`);
  return { course: c, quiz, submission };
}

/**
 * An attempt as stored, with what follows from it: whether it is overdue (document B,
 * QuizSubmission: end_at "is when it becomes overdue"). What an attempt does not hold yet (a
 * score, finished_at while it is in progress) is left out, not made up.
 */
function quizSubmissionView(ctx: MockContext, s: Row, withToken: boolean): Row {
  const view: Row = { ...s };
  if (typeof s.end_at === 'string')
    view.overdue_and_needs_submission =
      s.workflow_state === 'untaken' && Date.parse(s.end_at) < Date.parse(ctx.state.now());
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
  const rows = state.rows(
    'quiz_submissions',
    (r) => r.quiz_id === quizId && r.user_id === userId && (r.preview === true) === preview,
  );
  for (const s of rows) if (!latest || (s.attempt as number) > (latest.attempt as number)) latest = s;
  return latest;
}

export const quizSubmissionHandlers = {
  'quiz_submissions.list': (ctx) => {
    const { quiz } = quizOf(ctx);
    // A preview "does not count toward the course record": it is no one's submission here.
    let rows = ctx.state.rows('quiz_submissions', (s) => s.quiz_id === quiz.id && s.preview !== true);
    // A submit-only caller gets their own (the endpoint's rows statement); of those, "if the caller has
    // an in-progress submission only that one is returned, else all completed ones including earlier attempts".
    if (ctx.who.narrowsRows(ctx.endpoint)) {
      rows = rows.filter((s) => s.user_id === ctx.callerId);
      const inProgress = rows.filter((s) => s.workflow_state === 'untaken');
      if (inProgress.length > 0) rows = inProgress;
    }
    return list(
      rows.map((s) => quizSubmissionView(ctx, s, false)),
      'quiz_submissions',
    );
  },
  'quiz_submissions.current': (ctx) => {
    const { quiz } = quizOf(ctx);
    // A teacher who only previewed the quiz has that preview as their submission.
    const s = latestAttempt(ctx.state, quiz.id, ctx.callerId) ?? latestAttempt(ctx.state, quiz.id, ctx.callerId, true);
    if (!s) notFound(`a submission of quiz ${String(quiz.id)} by the current user`);
    return one({ quiz_submissions: [quizSubmissionView(ctx, s, s.workflow_state === 'untaken')] });
  },
  'quiz_submissions.show': (ctx) =>
    one({ quiz_submissions: [quizSubmissionView(ctx, quizSubmissionOf(ctx).submission, false)] }),
  'quiz_submissions.create': (ctx) => {
    const { course: c, quiz } = quizOf(ctx);
    if (quiz.locked === true) badRequest(`quiz ${String(quiz.id)} is locked`, 'quiz-locked');
    if (typeof quiz.access_code === 'string' && ctx.params.get('access_code') !== quiz.access_code)
      throw new HttpError(403, 'invalid access code', 'invalid-access-code', 'access_code');
    const preview = ctx.params.bool('preview') ?? false;
    const latest = latestAttempt(ctx.state, quiz.id, ctx.callerId, preview);
    if (latest && latest.workflow_state === 'untaken') {
      throw new HttpError(
        409,
        `a quiz submission already exists for this user and quiz (submission ${String(latest.id)}, attempt ${String(latest.attempt)}, in progress)`,
        'submission-exists',
      );
    }
    const allowed = toInt(quiz.allowed_attempts) ?? -1;
    if (!preview && latest && allowed > 0 && (latest.attempt as number) >= allowed) {
      throw new HttpError(
        409,
        `a quiz submission already exists for this user and quiz and no attempts are left (${allowed} allowed)`,
        'submission-exists',
      );
    }
    const started = ctx.state.now();
    const minutes = toInt(quiz.time_limit);
    const row: Row = {
      quiz_id: quiz.id,
      course_id: c.id,
      user_id: ctx.callerId,
      // The user's assignment submission of the quiz, when an earlier attempt names it (the mock holds none of its own).
      submission_id: latest?.submission_id,
      attempt: ((latest?.attempt as number | undefined) ?? 0) + 1,
      workflow_state: 'untaken',
      started_at: started,
      // Overdue at the end of the time limit; a quiz without one sets no end.
      end_at: minutes
        ? new Date(Date.parse(started) + minutes * 60000).toISOString().replace(/\.\d{3}Z$/, 'Z')
        : undefined,
      validation_token: randomBytes(16).toString('hex'),
      preview,
    };
    const stored = ctx.state.insert('quiz_submissions', row);
    return one({ quiz_submissions: [quizSubmissionView(ctx, stored, true)] });
  },
  'quiz_submissions.update': (ctx) => {
    // Only a teacher gets here (the endpoint's access statement; document B, Errors: 403 "caller is not a teacher in the course").
    const { submission } = quizSubmissionOf(ctx);
    const body = ctx.json as { quiz_submissions?: Row[] } | undefined;
    const entry = body?.quiz_submissions?.[0];
    if (!entry || toInt(entry.attempt) === undefined)
      badRequest('attempt missing or invalid', 'invalid-attempt', 'attempt');
    const attempt = toInt(entry.attempt);
    if (attempt !== submission.attempt)
      badRequest(
        `attempt ${String(attempt)} is not the attempt of quiz submission ${String(submission.id)} (${String(submission.attempt)})`,
        'invalid-attempt',
        'attempt',
      );
    if (submission.workflow_state !== 'complete' && submission.workflow_state !== 'pending_review') {
      badRequest(
        `attempt ${String(attempt)} is not yet complete; only completed attempts can be updated`,
        'attempt-not-complete',
        'attempt',
      );
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
          if (n === undefined || n < 0)
            badRequest(`questions.${qid}.score must be an unsigned decimal`, 'invalid-type', 'questions');
          setOwn(scores, qid, n);
        }
      }
      submission._question_scores = scores;
      const manual = Object.values(scores).reduce<number>((s, v) => s + (v as number), 0);
      if (Object.keys(scores).length) submission.score = manual + (toNumber(submission.fudge_points) ?? 0);
    }
    submission.kept_score = submission.score;
    return one({ quiz_submissions: [quizSubmissionView(ctx, submission, false)] });
  },
  'quiz_submissions.complete': (ctx) => {
    const { quiz, submission } = quizSubmissionOf(ctx);
    const attempt = ctx.params.int('attempt');
    if (submission.workflow_state === 'complete' || submission.workflow_state === 'pending_review') {
      badRequest(`quiz submission ${String(submission.id)} is already complete`, 'already-complete');
    }
    const latest = latestAttempt(ctx.state, quiz.id, submission.user_id, submission.preview === true);
    if (attempt === undefined) badRequest('attempt missing', 'missing-required', 'attempt');
    if (attempt !== submission.attempt || latest?.id !== submission.id)
      badRequest(
        `attempt ${attempt} is not the latest attempt (${String(latest?.attempt ?? submission.attempt)})`,
        'not-latest-attempt',
        'attempt',
      );
    if (typeof quiz.access_code === 'string' && ctx.params.get('access_code') !== quiz.access_code)
      throw new HttpError(403, 'invalid access code', 'invalid-access-code', 'access_code');
    if (ctx.params.get('validation_token') !== submission.validation_token)
      throw new HttpError(403, 'invalid validation token', 'invalid-validation-token', 'validation_token');
    // "the submission is graded": the documented API answers no question, so an attempt turned
    // in earns no points; the kept score is the best of the user's attempts (document B: "latest
    // or highest", the quiz's choice between them is not shown).
    const finished = ctx.state.now();
    const earlier = ctx.state.rows(
      'quiz_submissions',
      (q) =>
        q.quiz_id === quiz.id &&
        q.user_id === submission.user_id &&
        (q.preview === true) === (submission.preview === true),
    );
    const kept = Math.max(0, ...earlier.map((q) => toNumber(q.kept_score ?? q.score) ?? 0));
    Object.assign(submission, {
      workflow_state: 'complete',
      finished_at: finished,
      score: 0,
      kept_score: kept,
      time_spent: Math.max(0, Math.round((Date.parse(finished) - Date.parse(String(submission.started_at))) / 1000)),
    });
    return one({ quiz_submissions: [quizSubmissionView(ctx, submission, false)] });
  },
  'quiz_submissions.time': (ctx) => {
    const { submission } = quizSubmissionOf(ctx);
    // An attempt without an end (no time limit) has no time left to tell.
    if (typeof submission.end_at !== 'string') return one({});
    const left =
      submission.workflow_state === 'untaken'
        ? Math.max(0, Math.round((Date.parse(submission.end_at) - Date.parse(ctx.state.now())) / 1000))
        : 0;
    return one({ end_at: submission.end_at, time_left: left });
  },
} satisfies HandlersOf<'quiz_submissions'>;
