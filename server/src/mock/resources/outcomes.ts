/** Outcome results and rollups (document C, "Outcome results"). */
import {
  badRequest,
  course,
  type HandlersOf,
  includes,
  list,
  listParam,
  type MockContext,
  userByRef,
} from '../context';
import { toInt, toNumber } from '../params';
import type { Row } from '../state';
import { courseView } from './courses';

/**
 * The users and outcomes a request names, each checked as document C says: user_ids[] is
 * "error if a user is not a student in the context" (SIS ids with the `sis_user_id:` prefix
 * allowed), outcome_ids[] "error if an outcome is not linked to the context". The status
 * and body of that error are not shown: the mock answers 400 naming the parameter, as for
 * any other value it refuses.
 */
function selection(ctx: MockContext, c: Row): { users?: Set<number>; outcomes?: Set<number> } {
  const students = new Set(
    ctx.state.rows('enrollments', (e) => e.course_id === c.id && e.type === 'StudentEnrollment').map((e) => e.user_id),
  );
  const linked = new Set(ctx.state.rows('outcome_links', (l) => l.course_id === c.id).map((l) => l.outcome_id));
  const userRefs = listParam(ctx, 'user_ids');
  const outcomeRefs = listParam(ctx, 'outcome_ids');
  const users = userRefs.map((ref) => {
    const found = userByRef(ctx, ref);
    if (!found || !students.has(found.id))
      badRequest(`user ${ref} is not a student in course ${String(c.id)}`, 'not-a-student', 'user_ids[]');
    return found.id as number;
  });
  const outcomes = outcomeRefs.map((ref) => {
    const id = toInt(ref);
    if (id === undefined || !linked.has(id))
      badRequest(`outcome ${ref} is not linked to course ${String(c.id)}`, 'outcome-not-linked', 'outcome_ids[]');
    return id;
  });
  return {
    users: userRefs.length ? new Set(users) : undefined,
    outcomes: outcomeRefs.length ? new Set(outcomes) : undefined,
  };
}

function resultsOf(ctx: MockContext, c: Row): Row[] {
  const { users, outcomes } = selection(ctx, c);
  return ctx.state.rows(
    'outcome_results',
    (r) =>
      r.course_id === c.id &&
      (!users || users.has(r.user_id as number)) &&
      (!outcomes || outcomes.has(r.outcome_id as number)),
  );
}

const distinct = (values: unknown[]) => [...new Set(values)];

/** An alignment of a result (`assignment_7`), named after the assignment it is, when the mock holds it. */
function alignmentOf(ctx: MockContext, id: string): Row {
  const assignment = /^assignment_(\d+)$/.exec(id);
  const a = assignment ? ctx.state.get('assignments', assignment[1]) : undefined;
  return {
    id,
    name: a?.name,
    html_url: a ? `${ctx.baseUrl}/courses/${String(a.course_id)}/assignments/${String(a.id)}` : null,
  };
}

/** The objects of `linked` that the results refer to, for each include[] the mock holds data for. */
function linkedOf(ctx: MockContext, rows: Row[], kinds: readonly string[]): Row {
  const linked: Row = {};
  if (kinds.includes('users') && includes(ctx, 'users'))
    linked.users = distinct(rows.map((r) => r.user_id))
      .map((id) => ctx.state.get('users', id as number))
      .filter(Boolean);
  if (kinds.includes('outcomes') && includes(ctx, 'outcomes'))
    linked.outcomes = distinct(rows.map((r) => r.outcome_id))
      .map((id) => ctx.state.get('outcomes', id as number))
      .filter(Boolean);
  if (kinds.includes('alignments') && includes(ctx, 'alignments'))
    linked.alignments = distinct(rows.map((r) => r.alignment_id))
      .filter((id) => id !== undefined)
      .map((id) => alignmentOf(ctx, String(id)));
  return linked;
}

/** Each outcome's scores averaged, with how many there were, in outcome order. */
function scoresByOutcome(rows: Row[]): Row[] {
  const byOutcome = new Map<number, number[]>();
  for (const r of rows) {
    const score = toNumber(r.score);
    const scores = byOutcome.get(r.outcome_id as number) ?? [];
    if (score !== undefined) scores.push(score);
    byOutcome.set(r.outcome_id as number, scores);
  }
  return [...byOutcome]
    .sort(([a], [b]) => a - b)
    .map(([outcome, scores]) => ({
      // "score (number or null when no scores)"
      score: scores.length ? scores.reduce((s, v) => s + v, 0) / scores.length : null,
      count: scores.length,
      links: { outcome: String(outcome) },
    }));
}

export const outcomeHandlers = {
  'outcome_results.list': (ctx) => {
    const c = course(ctx);
    const rows = resultsOf(ctx, c);
    const results = rows.map((r) => ({
      ...r,
      links: { user: String(r.user_id), learning_outcome: String(r.outcome_id), alignment: r.alignment_id },
    }));
    const linked = linkedOf(ctx, rows, ['users', 'outcomes', 'alignments']);
    return list(results, 'outcome_results', Object.keys(linked).length > 0 ? { linked } : {});
  },
  'outcome_rollups.list': (ctx) => {
    const c = course(ctx);
    const rows = resultsOf(ctx, c);
    // aggregate=course: "combine all users into one course rollup with the average score per
    // outcome"; its links name the course, a user's rollup names the user and the section
    // (OutcomeRollupLinks). `linked` has users "only when aggregate is not set", courses
    // "only when aggregate is course".
    if (ctx.params.get('aggregate') === 'course') {
      const perUser = distinct(rows.map((r) => r.user_id)).flatMap((u) =>
        scoresByOutcome(rows.filter((r) => r.user_id === u)),
      );
      const byOutcome = new Map<string, { scores: number[]; count: number }>();
      for (const s of perUser) {
        const key = (s.links as Row).outcome as string;
        const entry = byOutcome.get(key) ?? { scores: [], count: 0 };
        if (typeof s.score === 'number') entry.scores.push(s.score);
        entry.count += s.count as number;
        byOutcome.set(key, entry);
      }
      const scores = [...byOutcome]
        .sort(([a], [b]) => Number(a) - Number(b))
        .map(([outcome, { scores: values, count }]) => ({
          score: values.length ? values.reduce((s, v) => s + v, 0) / values.length : null,
          count,
          links: { outcome },
        }));
      const linked = linkedOf(ctx, rows, ['outcomes']);
      if (includes(ctx, 'courses')) linked.courses = [courseView(ctx, c)];
      return list([{ name: c.name, links: { course: c.id }, scores }], 'rollups', { linked });
    }
    const rollups = distinct(rows.map((r) => r.user_id)).map((userId) => {
      const section = ctx.state.find(
        'enrollments',
        (e) => e.course_id === c.id && e.user_id === userId && e.type === 'StudentEnrollment',
      )?.section_id;
      return {
        name: ctx.state.get('users', userId as number)?.name,
        links: { user: userId, ...(section !== undefined ? { section } : {}) },
        scores: scoresByOutcome(rows.filter((r) => r.user_id === userId)),
      };
    });
    return list(rollups, 'rollups', { linked: linkedOf(ctx, rows, ['users', 'outcomes']) });
  },
} satisfies HandlersOf<'outcome_results' | 'outcome_rollups'>;
