/** Outcome results and rollups (document C). */
import { course, type HandlersOf, includes, list, listParam } from '../context';
import { toInt } from '../params';
import type { Row } from '../state';
import { courseView } from './courses';

export const outcomeHandlers = {
  'outcome_results.list': (ctx) => {
    const c = course(ctx);
    const users = listParam(ctx, 'user_ids').map((x) => toInt(x.replace(/^sis_user_id:/, '')));
    const outcomes = listParam(ctx, 'outcome_ids').map((x) => toInt(x));
    const rows = ctx.state.rows(
      'outcome_results',
      (r) =>
        r.course_id === c.id &&
        (users.length === 0 || users.includes(r.user_id as number)) &&
        (outcomes.length === 0 || outcomes.includes(r.outcome_id as number)),
    );
    const results = rows.map((r) => ({ ...r, links: { user: String(r.user_id), learning_outcome: String(r.outcome_id), alignment: r.alignment_id } }));
    const extra: Row = {};
    if (includes(ctx, 'users') || includes(ctx, 'outcomes') || includes(ctx, 'alignments')) {
      const linked: Row = {};
      if (includes(ctx, 'users')) linked.users = [...new Set(rows.map((r) => r.user_id))].map((id) => ctx.state.get('users', id as number)).filter(Boolean);
      if (includes(ctx, 'outcomes')) linked.outcomes = [...new Set(rows.map((r) => r.outcome_id))].map((id) => ({ id, title: `Outcome ${String(id)}` }));
      if (includes(ctx, 'alignments'))
        linked.alignments = [...new Set(rows.map((r) => String(r.alignment_id)))].map((id) => ({ id, name: id, html_url: null }));
      extra.linked = linked;
    }
    return list(results, 'outcome_results', extra);
  },
  'outcome_rollups.list': (ctx) => {
    const c = course(ctx);
    const rows = ctx.state.rows('outcome_results', (r) => r.course_id === c.id);
    const byUser = new Map<number, Row[]>();
    for (const r of rows) byUser.set(r.user_id as number, [...(byUser.get(r.user_id as number) ?? []), r]);
    const rollups = [...byUser].map(([userId, rs]) => {
      const byOutcome = new Map<number, number[]>();
      for (const r of rs) byOutcome.set(r.outcome_id as number, [...(byOutcome.get(r.outcome_id as number) ?? []), Number(r.score ?? 0)]);
      return {
        name: ctx.state.get('users', userId)?.name ?? `user ${userId}`,
        links: { user: userId, course: c.id },
        scores: [...byOutcome].map(([outcome, scores]) => ({
          score: scores.reduce((s, v) => s + v, 0) / scores.length,
          count: scores.length,
          links: { outcome: String(outcome) },
        })),
      };
    });
    const linked: Row = {};
    if (includes(ctx, 'users')) linked.users = [...byUser.keys()].map((id) => ctx.state.get('users', id)).filter(Boolean);
    if (includes(ctx, 'courses')) linked.courses = [courseView(ctx, c)];
    return list(rollups, 'rollups', { linked });
  },
} satisfies HandlersOf<'outcome_results' | 'outcome_rollups'>;
