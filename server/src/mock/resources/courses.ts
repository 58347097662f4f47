/** Courses (document B). */
import { type HandlersOf, includes, list, listParam, type MockContext, pick, user } from '../context';
import type { Row } from '../state';

export function courseView(ctx: MockContext, c: Row, forUser?: number): Row {
  const enrollments = ctx.state.rows('enrollments', (e) => e.course_id === c.id);
  const acct = ctx.state.get('accounts', c.account_id as number);
  const view: Row = {
    ...c,
    uuid: c.uuid ?? `course-${String(c.id)}-uuid`,
    root_account_id: acct?.root_account_id ?? acct?.id ?? c.account_id,
    grading_standard_id: c.grading_standard_id ?? 0,
    locale: c.locale ?? 'en',
    enrollments: enrollments
      .filter((e) => e.user_id === (forUser ?? ctx.callerId))
      .map((e) => ({ type: String(e.type).replace('Enrollment', '').toLowerCase(), role: e.type, role_id: 0, user_id: e.user_id, enrollment_state: 'active' })),
    total_students: enrollments.filter((e) => e.type === 'StudentEnrollment').length,
    calendar: { ics: `${ctx.baseUrl}/feeds/calendars/course_${String(c.id)}.ics` },
    license: c.license ?? 'private',
    course_format: c.course_format ?? 'on_campus',
    storage_quota_mb: 500,
    storage_quota_used_mb: 0,
    blueprint_restrictions: {},
    blueprint_restrictions_by_object_type: {},
  };
  if (includes(ctx, 'term'))
    view.term = ctx.state.get('terms', c.enrollment_term_id as number) ?? { id: 0, name: 'Default Term', start_at: null, end_at: null };
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

export const courseHandlers = {
  'courses.list': (ctx) => list(coursesOf(ctx, ctx.callerId).map((c) => courseView(ctx, c))),
  'courses.list_for_user': (ctx) => {
    const u = user(ctx);
    return list(coursesOf(ctx, u.id as number).map((c) => courseView(ctx, c, u.id as number)));
  },
} satisfies HandlersOf<'courses'>;
