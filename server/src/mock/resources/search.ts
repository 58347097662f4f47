/** Search (document C): recipients and public courses. */
import { enrollmentTypes, type HandlersOf, list, listParam, type MockContext } from '../context';
import { own, setOwn } from '../../core';
import { toInt } from '../params';
import type { Row } from '../state';
import { courseView } from './courses';

/** Document C, recipient search: common_courses, "map of course ids to enrollment types" the caller shares with the user. */
function commonCourses(ctx: MockContext, userId: unknown): Row {
  const out: Row = {};
  for (const e of ctx.state.rows('enrollments', (x) => x.user_id === userId)) {
    if (!enrollmentTypes(ctx, e.course_id).length) continue;
    const key = String(e.course_id);
    setOwn(out, key, [...((own(out, key) as string[] | undefined) ?? []), String(e.type)]);
  }
  return out;
}

function recipients(ctx: MockContext): Row[] {
  const terms = (ctx.params.get('search') ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  const matches = (name: unknown) => terms.every((t) => String(name).toLowerCase().includes(t));
  const type = ctx.params.get('type');
  const userId = ctx.params.int('user_id');
  const users = ctx.state.rows('users').map((u) => ({
    id: u.id,
    name: u.short_name ?? u.name,
    full_name: u.name,
    avatar_url: u.avatar_url,
    type: 'user',
    types: ['user'],
    common_courses: commonCourses(ctx, u.id),
  }));
  if (userId !== undefined) return users.filter((u) => u.id === userId).slice(0, 1);
  const contexts = [
    ...ctx.state.rows('courses').map((c) => ({
      id: `course_${String(c.id)}`,
      name: c.name,
      avatar_url: c.avatar_url,
      type: 'context',
      types: ['course'],
      user_count: ctx.state.rows('enrollments', (e) => e.course_id === c.id).length,
    })),
    ...ctx.state.rows('groups').map((g) => ({
      id: `group_${String(g.id)}`,
      name: g.name,
      avatar_url: g.avatar_url,
      type: 'context',
      types: ['group'],
      user_count: g.members_count,
    })),
  ];
  // permissions[]: "permissions to check for each matched context ... it does not filter contexts out".
  const asked = listParam(ctx, 'permissions');
  if (asked.length > 0)
    for (const c of contexts) {
      const [kind, id] = String(c.id).split('_');
      const scope =
        kind === 'course'
          ? ctx.who.scopeOf('Course', { id: Number(id) }, { courses: [] })
          : ctx.who.scopeOf(undefined, { context_type: 'Group', context_id: Number(id) }, { courses: [] });
      (c as Row).permissions = Object.fromEntries(asked.map((p) => [p, ctx.who.may(p, scope)]));
    }
  const context = ctx.params.get('context');
  let out: Row[] = type === 'user' ? users : type === 'context' ? contexts : [...contexts, ...users];
  if (context) {
    const m = /^course_(\d+)/.exec(context);
    const members = m
      ? new Set(ctx.state.rows('enrollments', (e) => e.course_id === toInt(m[1])).map((e) => e.user_id))
      : undefined;
    out = out.filter((r) => r.type === 'user' && (!members || members.has(r.id)));
  }
  const excluded = new Set(listParam(ctx, 'exclude'));
  return out.filter((r) => matches(r.name) && !excluded.has(String(r.id)));
}

export const searchHandlers = {
  'search.recipients': (ctx) => list(recipients(ctx)),
  'search.all_courses': (ctx) => {
    const terms = (ctx.params.get('search') ?? '').toLowerCase();
    const openOnly = ctx.params.bool('open_enrollment_only') === true;
    return list(
      ctx.state
        .rows(
          'courses',
          (c) =>
            c.is_public === true &&
            c.workflow_state !== 'deleted' &&
            (!terms || String(c.name).toLowerCase().includes(terms)) &&
            (!openOnly || c.open_enrollment === true),
        )
        .map((c) => courseView(ctx, c)),
    );
  },
} satisfies HandlersOf<'search'>;
