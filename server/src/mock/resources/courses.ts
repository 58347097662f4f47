/** Courses (document B). */
import { byPosition, type HandlersOf, includes, list, listParam, type MockContext, pick, user } from '../context';
import { isObject } from '../documented';
import { toInt } from '../params';
import type { Row } from '../state';
import { contextFolders } from './fileTree';
import { itemsOf, Progress } from './modules';

/** Enrollments that count a student: B, Course, total_students "active and invited students". */
const COUNTED = new Set([undefined, 'active', 'invited']);

/**
 * Document B, include[]=course_progress: the user's progress through the course's modules,
 * or "error message if the course is not module based or the user is not a student in it".
 * Module based is having published modules with completion requirements (as the real LMS
 * says in its message); the counts are of the requirements of published items; the next
 * requirement is "null when the user finished or the current module does not require
 * sequential progress", the current module being the first the user has not completed.
 */
function courseProgress(ctx: MockContext, c: Row, userId: number): Row {
  const modules = ctx.state
    .rows('modules', (m) => m.course_id === c.id && m.workflow_state !== 'deleted' && m.published === true)
    .sort(byPosition);
  const requirements = (m: Row) =>
    itemsOf(ctx, m).filter((i) => i.published === true && isObject(i.completion_requirement));
  const student = ctx.who.rolesOf(userId, c.id as number).has('StudentEnrollment');
  if (!student || !modules.some((m) => requirements(m).length > 0))
    return {
      error: {
        message: `no progress available: course ${String(c.id)} is not module based (modules with completion requirements) or user ${userId} is not a student in it`,
      },
    };
  const progress = new Progress(ctx, userId);
  let count = 0;
  const metAt: (string | undefined)[] = [];
  for (const m of modules)
    for (const item of requirements(m)) {
      count++;
      const r = progress.requirement(item);
      if (r?.met) metAt.push(r.at);
    }
  const current = modules.find((m) => progress.module(m).state !== 'completed');
  const next =
    current?.require_sequential_progress === true
      ? requirements(current).find((i) => progress.requirement(i)?.met !== true)
      : undefined;
  const times = metAt.filter((t) => t !== undefined).sort();
  return {
    requirement_count: count,
    requirement_completed_count: metAt.length,
    next_requirement_url: next ? `${ctx.baseUrl}/courses/${String(c.id)}/modules/items/${String(next.id)}` : null,
    completed_at: metAt.length === count && times.length === count ? times[times.length - 1] : null,
  };
}

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
    total_students: enrollments.filter(
      (e) => e.type === 'StudentEnrollment' && COUNTED.has(e.enrollment_state as string),
    ).length,
    calendar: { ics: `${ctx.baseUrl}/feeds/calendars/course_${String(c.id)}.ics` },
    storage_quota_used_mb: sizes.every((n) => n !== undefined)
      ? Math.round(sizes.reduce<number>((s, n) => s + (n ?? 0), 0) / (1024 * 1024))
      : undefined,
  };
  if (includes(ctx, 'term')) view.term = ctx.state.get('terms', c.enrollment_term_id as number);
  if (includes(ctx, 'course_progress')) view.course_progress = courseProgress(ctx, c, forUser ?? ctx.callerId);
  // Submitted and not graded yet; who may see the count is the field's statement.
  if (includes(ctx, 'needs_grading_count'))
    view.needs_grading_count = ctx.state.rows(
      'submissions',
      (s) => s.course_id === c.id && (s.workflow_state === 'submitted' || s.workflow_state === 'pending_review'),
    ).length;
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
