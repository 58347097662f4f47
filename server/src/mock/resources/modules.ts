/**
 * Modules (document A): lookups and views of a course's modules and their items, the module
 * endpoints, and a student's progress through them, derived from the documented rules
 * (`Progress`).
 */
import {
  byPosition,
  course,
  enrollmentTypes,
  type HandlersOf,
  includes,
  list,
  type MockContext,
  notFound,
  one,
  pathId,
  placeAt,
  renumber,
  userByRef,
} from '../context';
import { documentedFields, isObject } from '../documented';
import { toInt, toNumber } from '../params';
import type { Row } from '../state';

/** How a request sees a course's modules: as staff (unpublished ones too), and whose progress. */
export interface ModuleViewer {
  /**
   * The caller may view unpublished modules and items (document A, Module and ModuleItem: the
   * statement of their `published` field, which the catalog reads as the manage_content permission).
   */
  staff: boolean;
  /** The student of `student_id`, or a student caller: state, completed_at and `completed` are theirs. */
  progress?: Progress;
  contentDetails: boolean;
}

export function viewerOf(ctx: MockContext, courseRow: Row): ModuleViewer {
  return {
    staff: ctx.who.may('manage_content', { courses: [courseRow.id as number] }),
    progress: progressOf(ctx, courseRow),
    contentDetails: includes(ctx, 'content_details'),
  };
}

/**
 * Document A, Module: state and completed_at are "present only for a student caller or when
 * student_id is given" (and `completed` of a CompletionRequirement likewise).
 */
function progressOf(ctx: MockContext, courseRow: Row): Progress | undefined {
  const given = ctx.params.get('student_id');
  if (given !== undefined) {
    const student = userByRef(ctx, given);
    if (!student) notFound(`user ${given}`);
    return new Progress(ctx, student.id as number);
  }
  return enrollmentTypes(ctx, courseRow.id).includes('StudentEnrollment') ? new Progress(ctx, ctx.callerId) : undefined;
}

export function moduleOf(ctx: MockContext, idName = 'id', viewer?: ModuleViewer): Row {
  const c = course(ctx);
  const m = ctx.state.get('modules', pathId(ctx, idName));
  const staff = viewer?.staff ?? ctx.who.may('manage_content', { courses: [c.id as number] });
  const visible = m !== undefined && m.course_id === c.id && (staff || m.published === true);
  if (!visible) notFound(`module ${ctx.bindings.get(idName) ?? ''} in course ${String(c.id)}`);
  return m;
}

/** The items of a module in order (from the state's index by module). */
export function itemsOf(ctx: MockContext, module: Row): Row[] {
  return ctx.state.rowsWith('module_items', 'module_id', module.id).sort(byPosition);
}

/** The items a viewer sees: a caller who may not view unpublished items does not see them. */
function visibleItems(ctx: MockContext, module: Row, viewer: ModuleViewer): Row[] {
  const items = itemsOf(ctx, module);
  return viewer.staff ? items : items.filter((i) => i.published === true);
}

/** The API URL of the object an item links to (document A, ModuleItem `url`), for the types that link to one. */
function linkedObjectUrl(ctx: MockContext, item: Row): string | undefined {
  const base = `${ctx.baseUrl}/api/v1/courses/${String(item.course_id)}`;
  const id = String(item.content_id);
  switch (item.type) {
    case 'Assignment':
      return `${base}/assignments/${id}`;
    case 'Quiz':
      return `${base}/quizzes/${id}`;
    case 'File':
      return `${base}/files/${id}`;
    case 'Discussion':
      return `${base}/discussion_topics/${id}`;
    case 'Page':
      return typeof item.page_url === 'string' ? `${base}/pages/${item.page_url}` : undefined;
    case 'ExternalTool':
      return `${base}/external_tools/sessionless_launch?launch_type=module_item&module_item_id=${String(item.id)}`;
    default:
      return undefined;
  }
}

/** The stored object an item links to, when the mock holds it (an assignment, a quiz). */
function contentOf(ctx: MockContext, item: Row): Row | undefined {
  const id = toInt(item.content_id);
  if (id === undefined) return undefined;
  return item.type === 'Assignment'
    ? ctx.state.get('assignments', id)
    : item.type === 'Quiz'
      ? ctx.state.get('quizzes', id)
      : undefined;
}

export function itemView(ctx: MockContext, item: Row, viewer: ModuleViewer): Row {
  const view: Row = {
    ...item,
    html_url: `${ctx.baseUrl}/courses/${String(item.course_id)}/modules/items/${String(item.id)}`,
    url: linkedObjectUrl(ctx, item),
  };
  const requirement = isObject(item.completion_requirement) ? item.completion_requirement : undefined;
  if (requirement) {
    // `completed` is the viewer's student's, never a stored value (document A, CompletionRequirement).
    const { completed: _stored, ...documented } = requirement;
    view.completion_requirement = viewer.progress
      ? { ...documented, completed: viewer.progress.requirement(item)?.met ?? false }
      : documented;
  }
  if (viewer.contentDetails) {
    const content = contentOf(ctx, item);
    // Lock information is the viewer's: a student's follows their progress; staff are never locked out.
    const lock = viewer.progress?.itemLock(item);
    view.content_details = {
      points_possible: content?.points_possible,
      due_at: content?.due_at,
      unlock_at: content?.unlock_at,
      lock_at: content?.lock_at,
      locked_for_user: lock !== undefined,
      ...(lock
        ? {
            lock_explanation: lock.explanation,
            lock_info: {
              asset_string: `${String(item.type).toLowerCase()}_${String(item.content_id ?? item.id)}`,
              unlock_at: lock.unlockAt,
              context_module: lock.module,
            },
          }
        : {}),
    };
  }
  return view;
}

function moduleView(ctx: MockContext, module: Row, viewer: ModuleViewer, items?: Row[]): Row {
  const view: Row = {
    ...module,
    items_count: viewer.staff
      ? ctx.state.countWith('module_items', 'module_id', module.id)
      : visibleItems(ctx, module, viewer).length,
    items_url: `${ctx.baseUrl}/api/v1/courses/${String(module.course_id)}/modules/${String(module.id)}/items`,
    // A module the data gives no prerequisites has none, and a stored module is active (a deleted one is gone).
    prerequisite_module_ids: module.prerequisite_module_ids ?? [],
    workflow_state: module.workflow_state ?? 'active',
  };
  if (viewer.progress) {
    const progress = viewer.progress.module(module);
    view.state = progress.state;
    view.completed_at = progress.completedAt ?? null;
  }
  if (items) view.items = items.map((i) => itemView(ctx, i, viewer));
  return view;
}

/** Document A, create module: "prerequisites must have a lower position or they are ignored". */
function keepEarlierPrerequisites(ctx: MockContext, module: Row) {
  if (!Array.isArray(module.prerequisite_module_ids)) return;
  const position = toInt(module.position) ?? 0;
  module.prerequisite_module_ids = module.prerequisite_module_ids.filter((id) => {
    const other = ctx.state.get('modules', id as number);
    return (
      other !== undefined &&
      other.course_id === module.course_id &&
      other.id !== module.id &&
      (toInt(other.position) ?? 0) < position
    );
  });
}

function modulesOfCourse(ctx: MockContext, courseId: unknown, except?: unknown): Row[] {
  return ctx.state.rows('modules', (m) => m.course_id === courseId && m.id !== except);
}

export const moduleHandlers = {
  'modules.list': (ctx) => {
    const c = course(ctx);
    const viewer = viewerOf(ctx, c);
    // Document A, list modules: search_term is a "partial name of modules and, when items are
    // included, module items": a module whose name matches comes with all its items, another
    // one only with the items whose title matches, and not at all when none does.
    const term = ctx.params.get('search_term')?.toLowerCase();
    const matches = (text: unknown) =>
      term === undefined ||
      String(text ?? '')
        .toLowerCase()
        .includes(term);
    const views: Row[] = [];
    for (const m of modulesOfCourse(ctx, c.id).sort(byPosition)) {
      if (!viewer.staff && m.published !== true) continue;
      const nameMatches = matches(m.name);
      if (!includes(ctx, 'items')) {
        if (nameMatches) views.push(moduleView(ctx, m, viewer));
        continue;
      }
      const items = visibleItems(ctx, m, viewer);
      const shown = nameMatches ? items : items.filter((i) => matches(i.title));
      if (nameMatches || shown.length > 0) views.push(moduleView(ctx, m, viewer, shown));
    }
    return list(views);
  },
  'modules.show': (ctx) => {
    const viewer = viewerOf(ctx, course(ctx));
    const m = moduleOf(ctx, 'id', viewer);
    return one(moduleView(ctx, m, viewer, includes(ctx, 'items') ? visibleItems(ctx, m, viewer) : undefined));
  },
  'modules.create': (ctx) => {
    const c = course(ctx);
    const others = modulesOfCourse(ctx, c.id);
    const m: Row = {
      course_id: c.id,
      workflow_state: 'active',
      published: false,
      require_sequential_progress: false,
      prerequisite_module_ids: [],
    };
    Object.assign(m, documentedFields(ctx, { under: 'module', except: ['position'] }));
    placeAt(others, m, toInt(ctx.params.get('module[position]')) ?? others.length + 1);
    const stored = ctx.state.insert('modules', m);
    keepEarlierPrerequisites(ctx, stored);
    return one(moduleView(ctx, stored, viewerOf(ctx, c)));
  },
  'modules.update': (ctx) => {
    const m = moduleOf(ctx);
    Object.assign(m, documentedFields(ctx, { under: 'module', except: ['position'] }));
    const position = toInt(ctx.params.get('module[position]'));
    if (position !== undefined) placeAt(modulesOfCourse(ctx, m.course_id, m.id), m, position);
    keepEarlierPrerequisites(ctx, m);
    if (m.published === true)
      for (const item of itemsOf(ctx, m)) if (item.published === undefined) item.published = true;
    return one(moduleView(ctx, m, viewerOf(ctx, course(ctx))));
  },
  'modules.delete': (ctx) => {
    const m = moduleOf(ctx);
    const view = moduleView(ctx, m, viewerOf(ctx, course(ctx)));
    for (const item of itemsOf(ctx, m)) ctx.state.remove('module_items', item.id as number);
    ctx.state.remove('modules', m.id as number);
    // The others close the gap (positions stay 1 to n) and no longer wait for the module.
    const others = modulesOfCourse(ctx, m.course_id);
    renumber(others);
    for (const o of others)
      if (Array.isArray(o.prerequisite_module_ids))
        o.prerequisite_module_ids = o.prerequisite_module_ids.filter((id) => id !== m.id);
    return one({ ...view, workflow_state: 'deleted', items_count: 0 });
  },
  'modules.relock': (ctx) => one(moduleView(ctx, moduleOf(ctx), viewerOf(ctx, course(ctx)))),
} satisfies HandlersOf<'modules'>;

type ModuleState = 'locked' | 'unlocked' | 'started' | 'completed';

/**
 * One student's progress through a course's modules, from what the mock holds: submissions
 * and quiz attempts meet must_submit and min_score, and the seed's `requirements_met` rows
 * record the requirements the API does not show being met (a page viewed, a discussion
 * contributed to). Document A, Module:
 * - a module whose unlock_at is still to come is locked, and so is one whose prerequisites
 *   ("modules to complete first", only those with a lower position count) are not completed;
 * - otherwise it is completed when every completion requirement of its items is met (a module
 *   with none has nothing left to do), started when some are, unlocked when none is;
 * - in a module with require_sequential_progress ("items must be unlocked in order"), an item
 *   stays locked until the requirements of the items before it are met.
 */
export class Progress {
  private readonly modules = new Map<unknown, { state: ModuleState; completedAt?: string }>();

  constructor(
    private readonly ctx: MockContext,
    readonly studentId: number,
  ) {}

  /** Whether the item's completion requirement is met, and when; undefined for an item without one. */
  requirement(item: Row): { met: boolean; at?: string } | undefined {
    const req = isObject(item.completion_requirement) ? item.completion_requirement : undefined;
    if (!req) return undefined;
    const { state } = this.ctx;
    const recorded = state.find(
      'requirements_met',
      (r) => r.user_id === this.studentId && r.module_item_id === item.id,
    );
    if (recorded) return { met: true, at: stringOrUndefined(recorded.completed_at) };
    const contentId = toInt(item.content_id);
    const minScore = toNumber(req.min_score);
    if (item.type === 'Assignment' && (req.type === 'must_submit' || req.type === 'min_score')) {
      const s = state.find('submissions', (x) => x.assignment_id === contentId && x.user_id === this.studentId);
      const submitted = s !== undefined && typeof s.submitted_at === 'string';
      if (req.type === 'must_submit') return { met: submitted, at: submitted ? String(s.submitted_at) : undefined };
      const score = toNumber(s?.score);
      const met = score !== undefined && minScore !== undefined && score >= minScore;
      return { met, at: met ? stringOrUndefined(s?.graded_at) : undefined };
    }
    if (item.type === 'Quiz' && (req.type === 'must_submit' || req.type === 'min_score')) {
      const attempts = state.rows(
        'quiz_submissions',
        (q) =>
          q.quiz_id === contentId &&
          q.user_id === this.studentId &&
          q.preview !== true &&
          (q.workflow_state === 'complete' || q.workflow_state === 'pending_review'),
      );
      const meeting = attempts.filter(
        (q) => req.type === 'must_submit' || (toNumber(q.kept_score ?? q.score) ?? -Infinity) >= (minScore ?? Infinity),
      );
      const first = meeting.map((q) => stringOrUndefined(q.finished_at)).sort()[0];
      return { met: meeting.length > 0, at: first };
    }
    return { met: false };
  }

  module(m: Row): { state: ModuleState; completedAt?: string } {
    let known = this.modules.get(m.id);
    if (!known) {
      // Set first, so that a cycle in a user's seed ends here as locked.
      this.modules.set(m.id, { state: 'locked' });
      known = this.evaluate(m);
      this.modules.set(m.id, known);
    }
    return known;
  }

  private evaluate(m: Row): { state: ModuleState; completedAt?: string } {
    const { state } = this.ctx;
    const unlockAt = stringOrUndefined(m.unlock_at);
    if (unlockAt !== undefined && Date.parse(unlockAt) > Date.parse(state.now())) return { state: 'locked' };
    const position = toInt(m.position) ?? 0;
    for (const id of Array.isArray(m.prerequisite_module_ids) ? m.prerequisite_module_ids : []) {
      const before = state.get('modules', id as number);
      if (!before || before.course_id !== m.course_id || (toInt(before.position) ?? 0) >= position) continue;
      if (this.module(before).state !== 'completed') return { state: 'locked' };
    }
    const results = itemsOf(this.ctx, m)
      .map((i) => this.requirement(i))
      .filter((r) => r !== undefined);
    const met = results.filter((r) => r.met);
    if (met.length === results.length) {
      const times = met.map((r) => r.at).filter((t) => t !== undefined);
      return {
        state: 'completed',
        completedAt: times.length === met.length && times.length > 0 ? times.sort()[times.length - 1] : undefined,
      };
    }
    return { state: met.length > 0 ? 'started' : 'unlocked' };
  }

  /** Why an item is locked for the student, or undefined when it is not. */
  itemLock(item: Row): { explanation: string; unlockAt?: string; module: Row } | undefined {
    const m = this.ctx.state.get('modules', item.module_id as number);
    if (!m) return undefined;
    const module = { id: m.id, name: m.name };
    if (this.module(m).state === 'locked') {
      const unlockAt = stringOrUndefined(m.unlock_at);
      return { explanation: `This item is part of the module "${String(m.name)}", which is locked.`, unlockAt, module };
    }
    if (m.require_sequential_progress !== true) return undefined;
    for (const before of itemsOf(this.ctx, m)) {
      if (before.id === item.id) return undefined;
      if (this.requirement(before)?.met === false)
        return {
          explanation: `This item is locked until "${String(before.title)}" is completed (the module requires sequential progress).`,
          module,
        };
    }
    return undefined;
  }
}

function stringOrUndefined(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
