/** Modules (document A): lookups and views of a course's modules and their items, and the module endpoints. */
import { byPosition, course, type HandlersOf, includes, list, type MockContext, nextPosition, notFound, one, pathId } from '../context';
import { documentedFields } from '../documented';
import { toInt } from '../params';
import type { Row } from '../state';

export function moduleOf(ctx: MockContext, idName = 'id'): Row {
  const c = course(ctx);
  const m = ctx.state.get('modules', pathId(ctx, idName));
  if (!m || m.course_id !== c.id) notFound(`module ${ctx.bindings.get(idName) ?? ''} in course ${String(c.id)}`);
  return m;
}

export function itemView(ctx: MockContext, item: Row, contentDetails: boolean): Row {
  const base = `${ctx.baseUrl}/api/v1/courses/${String(item.course_id)}`;
  const view: Row = {
    ...item,
    html_url: `${base.replace('/api/v1', '')}/modules/items/${String(item.id)}`,
    url: `${base}/modules/${String(item.module_id)}/items/${String(item.id)}`,
  };
  if (item.completion_requirement === undefined) view.completion_requirement = { type: 'must_view' };
  if (contentDetails) {
    const assignment = item.type === 'Assignment' ? ctx.state.get('assignments', item.content_id as number) : undefined;
    view.content_details = {
      points_possible: assignment?.points_possible ?? 0,
      due_at: assignment?.due_at,
      unlock_at: item.unlock_at,
      lock_at: item.lock_at,
      locked_for_user: false,
      lock_explanation: '',
      lock_info: { asset_string: `${String(item.type).toLowerCase()}_${String(item.content_id ?? item.id)}` },
    };
  }
  return view;
}

export function itemsOf(ctx: MockContext, module: Row): Row[] {
  return ctx.state.rows('module_items', (i) => i.module_id === module.id).sort(byPosition);
}

function moduleView(ctx: MockContext, module: Row): Row {
  const items = itemsOf(ctx, module);
  const view: Row = {
    ...module,
    items_count: items.length,
    items_url: `${ctx.baseUrl}/api/v1/courses/${String(module.course_id)}/modules/${String(module.id)}/items`,
    prerequisite_module_ids: module.prerequisite_module_ids ?? [],
    workflow_state: module.workflow_state ?? 'active',
  };
  // Doc A, Module: state and completed_at are present only for a student caller or when student_id is given.
  const studentCaller =
    ctx.state.find('enrollments', (e) => e.course_id === module.course_id && e.user_id === ctx.state.selfUserId && e.type === 'StudentEnrollment') !==
    undefined;
  if (studentCaller || ctx.params.has('student_id')) {
    view.state = 'unlocked';
    view.completed_at = null;
  } else {
    delete view.state;
    delete view.completed_at;
  }
  if (includes(ctx, 'items')) {
    const term = ctx.params.get('search_term')?.toLowerCase();
    view.items = items
      .filter(
        (i) =>
          !term ||
          String(i.title ?? '')
            .toLowerCase()
            .includes(term),
      )
      .map((i) => itemView(ctx, i, includes(ctx, 'content_details')));
  }
  return view;
}

function writeModule(ctx: MockContext, target: Row) {
  Object.assign(target, documentedFields(ctx, { under: 'module' }));
}

/**
 * Puts a module at its (new) 1-based position among the course's other modules, which
 * move up or down by one so that positions stay unique; `from` is where it was (one past
 * the last for a new module). A position past the end is the end.
 */
function moveModule(others: Row[], module: Row, from: number) {
  const last = nextPosition(others);
  const to = Math.min(Math.max(toInt(module.position) ?? from, 1), last);
  module.position = to;
  for (const o of others) {
    const p = toInt(o.position) ?? 0;
    if (to < from && p >= to && p < from) o.position = p + 1;
    else if (to > from && p > from && p <= to) o.position = p - 1;
  }
}

export const moduleHandlers = {
  'modules.list': (ctx) => {
    const c = course(ctx);
    const term = ctx.params.get('search_term')?.toLowerCase();
    const modules = ctx.state.rows('modules', (m) => m.course_id === c.id).sort(byPosition);
    return list(
      modules
        .filter(
          (m) =>
            !term ||
            String(m.name).toLowerCase().includes(term) ||
            (includes(ctx, 'items') &&
              itemsOf(ctx, m).some((i) =>
                String(i.title ?? '')
                  .toLowerCase()
                  .includes(term),
              )),
        )
        .map((m) => moduleView(ctx, m)),
    );
  },
  'modules.show': (ctx) => one(moduleView(ctx, moduleOf(ctx))),
  'modules.create': (ctx) => {
    const c = course(ctx);
    const others = ctx.state.rows('modules', (x) => x.course_id === c.id);
    const last = nextPosition(others);
    const m: Row = {
      course_id: c.id,
      workflow_state: 'active',
      published: false,
      require_sequential_progress: false,
      prerequisite_module_ids: [],
      position: last,
    };
    writeModule(ctx, m);
    moveModule(others, m, last);
    return one(moduleView(ctx, ctx.state.insert('modules', m)));
  },
  'modules.update': (ctx) => {
    const m = moduleOf(ctx);
    const from = toInt(m.position) ?? 1;
    writeModule(ctx, m);
    moveModule(
      ctx.state.rows('modules', (x) => x.course_id === m.course_id && x.id !== m.id),
      m,
      from,
    );
    if (m.published !== undefined) for (const item of itemsOf(ctx, m)) if (m.published === true && item.published === undefined) item.published = true;
    return one(moduleView(ctx, m));
  },
  'modules.delete': (ctx) => {
    const m = moduleOf(ctx);
    const view = moduleView(ctx, m);
    for (const item of itemsOf(ctx, m)) ctx.state.remove('module_items', item.id as number);
    ctx.state.remove('modules', m.id as number);
    return one({ ...view, workflow_state: 'deleted', items_count: 0 });
  },
  'modules.relock': (ctx) => one(moduleView(ctx, moduleOf(ctx))),
} satisfies HandlersOf<'modules'>;
