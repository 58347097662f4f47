/** The course audit log (document C). */
import { course, type HandlersOf, list } from '../context';
import type { Row } from '../state';
import { courseView } from './courses';

export const courseAuditLogHandlers = {
  'course_audit_log.list': (ctx) => {
    const c = course(ctx);
    const start = ctx.params.get('start_time');
    const end = ctx.params.get('end_time');
    const events = ctx.state
      .rows(
        'course_events',
        (e) =>
          e.course_id === c.id && (!start || String(e.created_at) >= start) && (!end || String(e.created_at) <= end),
      )
      .sort((a, b) => (String(a.created_at) < String(b.created_at) ? 1 : -1))
      .map((e): Row => ({
        ...e,
        links: {
          course: e.course_id,
          user: e.user_id,
          ...(e.sis_batch_id !== undefined ? { sis_batch: e.sis_batch_id } : {}),
        },
      }));
    const userIds = [...new Set(events.map((e) => e.user_id))];
    return list(events, 'events', {
      linked: {
        courses: [courseView(ctx, c)],
        users: userIds.map((id) => ctx.state.get('users', id as number)).filter(Boolean),
        page_views: [],
      },
    });
  },
} satisfies HandlersOf<'course_audit_log'>;
