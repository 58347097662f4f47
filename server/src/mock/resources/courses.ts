/** Courses (document B). */
import { type HandlersOf, includes, list, listParam, type MockContext, pick, user } from '../context';
import { toInt } from '../params';
import type { Row } from '../state';
import { contextFolders } from './fileTree';

/**
 * A course as stored, with what follows from the rest of the data: its root account, its
 * students, the caller's (or `forUser`'s) enrollments, the storage its files use, its
 * calendar feed. A field no data gives (locale, license, a grading standard) is left out.
 */
export function courseView(ctx: MockContext, c: Row, forUser?: number): Row {
  const enrollments = ctx.state.rows('enrollments', (e) => e.course_id === c.id);
  const acct = ctx.state.get('accounts', c.account_id as number);
  const folderIds = new Set(contextFolders(ctx.state, 'Course', c.id as number).map((f) => f.id));
  const sizes = ctx.state.rows('files', (f) => folderIds.has(f.folder_id)).map((f) => toInt(f.size));
  const view: Row = {
    ...c,
    root_account_id: acct ? (acct.root_account_id ?? acct.id) : undefined,
    enrollments: enrollments
      .filter((e) => e.user_id === (forUser ?? ctx.callerId))
      .map((e) => ({
        ...pick(e, ['enrollment_state', 'role_id']),
        type: String(e.type).replace('Enrollment', '').toLowerCase(),
        role: e.type,
        user_id: e.user_id,
      })),
    total_students: enrollments.filter((e) => e.type === 'StudentEnrollment').length,
    calendar: { ics: `${ctx.baseUrl}/feeds/calendars/course_${String(c.id)}.ics` },
    storage_quota_used_mb: sizes.every((n) => n !== undefined)
      ? Math.round(sizes.reduce<number>((s, n) => s + (n ?? 0), 0) / (1024 * 1024))
      : undefined,
  };
  if (includes(ctx, 'term')) view.term = ctx.state.get('terms', c.enrollment_term_id as number);
  if (!includes(ctx, 'syllabus_body')) delete view.syllabus_body;
  if (includes(ctx, 'sections'))
    view.sections = ctx.state.rows('sections', (s) => s.course_id === c.id).map((s) => pick(s, ['id', 'name']));
  return view;
}

function coursesOf(ctx: MockContext, userId: number): Row[] {
  const ids = new Set(ctx.state.rows('enrollments', (e) => e.user_id === userId).map((e) => e.course_id));
  const states = listParam(ctx, 'state');
  return ctx.state.rows(
    'courses',
    (c) =>
      ids.has(c.id) && (states.length ? states.includes(String(c.workflow_state)) : c.workflow_state !== 'deleted'),
  );
}

export const courseHandlers = {
  'courses.list': (ctx) => list(coursesOf(ctx, ctx.callerId).map((c) => courseView(ctx, c))),
  'courses.list_for_user': (ctx) => {
    const u = user(ctx);
    return list(coursesOf(ctx, u.id as number).map((c) => courseView(ctx, c, u.id as number)));
  },
} satisfies HandlersOf<'courses'>;
