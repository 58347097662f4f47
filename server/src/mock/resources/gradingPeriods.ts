/** Grading periods (document B) of a course or an account. */
import {
  account,
  badRequest,
  course,
  type HandlersOf,
  list,
  type MockContext,
  notFound,
  one,
  pathId,
  raw,
} from '../context';
import { documentedFields } from '../documented';
import type { Row } from '../state';

function gradingPeriodOf(ctx: MockContext): Row {
  const p = ctx.state.get('grading_periods', pathId(ctx));
  const owner = ctx.bindings.has('account_id')
    ? { key: 'account_id' as const, id: account(ctx).id }
    : { key: 'course_id' as const, id: course(ctx).id };
  if (!p || p[owner.key] !== owner.id) notFound(`grading period ${ctx.bindings.get('id') ?? ''}`);
  return p;
}

function periodView(ctx: MockContext, p: Row): Row {
  // "true once close_date has passed": unknown without a close date.
  return {
    ...p,
    is_closed: typeof p.close_date === 'string' ? Date.parse(p.close_date) < Date.parse(ctx.state.now()) : undefined,
  };
}

export const gradingPeriodHandlers = {
  'grading_periods.list': (ctx) => {
    const owner = ctx.bindings.has('account_id')
      ? { key: 'account_id' as const, id: account(ctx).id }
      : { key: 'course_id' as const, id: course(ctx).id };
    const rows = ctx.state
      .rows('grading_periods', (p) => p[owner.key] === owner.id)
      .sort((a, b) => (String(a.start_date) < String(b.start_date) ? -1 : 1));
    return list(
      rows.map((p) => periodView(ctx, p)),
      'grading_periods',
    );
  },
  'grading_periods.show': (ctx) => one({ grading_periods: [periodView(ctx, gradingPeriodOf(ctx))] }),
  'grading_periods.update': (ctx) => {
    const p = gradingPeriodOf(ctx);
    // The docs send one period as the first element of grading_periods[] (start and end dates are required).
    Object.assign(p, documentedFields(ctx, { under: 'grading_periods', element: 0, resource: 'GradingPeriod' }));
    if (String(p.end_date) < String(p.start_date))
      badRequest(
        'grading_periods[][end_date] is before the start date',
        'invalid-dates',
        'grading_periods[][end_date]',
      );
    return one({ grading_periods: [periodView(ctx, p)] });
  },
  'grading_periods.delete': (ctx) => {
    const p = gradingPeriodOf(ctx);
    ctx.state.remove('grading_periods', p.id as number);
    return raw(204);
  },
} satisfies HandlersOf<'grading_periods'>;
