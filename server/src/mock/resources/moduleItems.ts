/** Module items (document A): the items of a module. */
import {
  course,
  type HandlersOf,
  list,
  type MockContext,
  nextPosition,
  notFound,
  one,
  pathId,
  placeAt,
} from '../context';
import { documentedFields, isObject } from '../documented';
import { toInt } from '../params';
import type { MockState, Row } from '../state';
import { own } from '../../core';
import { moduleOf, itemView, itemsOf, viewerOf } from './modules';

function itemTitle(state: MockState, type: string, contentId: number | undefined, fallback: unknown): string {
  if (typeof fallback === 'string' && fallback) return fallback;
  const source =
    type === 'Assignment'
      ? state.get('assignments', contentId ?? 0)?.name
      : type === 'Quiz'
        ? state.get('quizzes', contentId ?? 0)?.title
        : type === 'File'
          ? state.get('files', contentId ?? 0)?.display_name
          : type === 'ExternalTool'
            ? state.get('external_tools', contentId ?? 0)?.name
            : undefined;
  return typeof source === 'string' ? source : `${type} ${contentId ?? ''}`.trim();
}

const REQUIREMENT_TYPE = 'module_item[completion_requirement][type]';

/**
 * Whether a completion requirement type applies to an item type, by the `appliesTo` rule the
 * catalog gives module item create (document A: "must_view applies to all types; ...;
 * inapplicable types are ignored").
 */
function requirementApplies(ctx: MockContext, requirement: string, itemType: string): boolean {
  const rules = ctx.catalog.endpointById.get('module_items.create')?.rules ?? [];
  for (const rule of rules) {
    if (rule.kind !== 'appliesTo' || rule.param !== REQUIREMENT_TYPE) continue;
    const allowed = own(rule.table, requirement);
    if (allowed && !allowed.includes('*') && !allowed.includes(itemType)) return false;
  }
  return true;
}

/** The documented fields of the item, but its position (placed by the caller) and a requirement that does not apply to its type. */
function writeItem(ctx: MockContext, target: Row) {
  const fields = documentedFields(ctx, { under: 'module_item', except: ['position'], current: target });
  const requirement = fields.completion_requirement;
  if (isObject(requirement) && !requirementApplies(ctx, String(requirement.type), String(fields.type ?? target.type)))
    delete fields.completion_requirement;
  Object.assign(target, fields);
}

function itemOf(ctx: MockContext, module: Row): Row {
  const item = ctx.state.get('module_items', pathId(ctx));
  if (!item || item.module_id !== module.id)
    notFound(`module item ${ctx.bindings.get('id') ?? ''} in module ${String(module.id)}`);
  return item;
}

export const moduleItemHandlers = {
  'module_items.list': (ctx) => {
    const viewer = viewerOf(ctx, course(ctx));
    const m = moduleOf(ctx, 'module_id', viewer);
    const term = ctx.params.get('search_term')?.toLowerCase();
    return list(
      itemsOf(ctx, m)
        .filter(
          (i) =>
            (viewer.staff || i.published === true) &&
            (term === undefined ||
              String(i.title ?? '')
                .toLowerCase()
                .includes(term)),
        )
        .map((i) => itemView(ctx, i, viewer)),
    );
  },
  'module_items.show': (ctx) => {
    const viewer = viewerOf(ctx, course(ctx));
    const item = itemOf(ctx, moduleOf(ctx, 'module_id', viewer));
    if (!viewer.staff && item.published !== true) notFound(`module item ${String(item.id)}`);
    return one(itemView(ctx, item, viewer));
  },
  'module_items.create': (ctx) => {
    const m = moduleOf(ctx, 'module_id');
    const item: Row = { module_id: m.id, course_id: m.course_id, indent: 0, published: false };
    writeItem(ctx, item);
    item.title = itemTitle(ctx.state, String(item.type), item.content_id as number | undefined, item.title);
    // Appending (no position, the usual case) reads the module's items once, without sorting them.
    const siblings = ctx.state.rowsWith('module_items', 'module_id', m.id);
    const position = toInt(ctx.params.get('module_item[position]'));
    if (position === undefined) item.position = nextPosition(siblings);
    else placeAt(siblings, item, position);
    return one(itemView(ctx, ctx.state.insert('module_items', item), { staff: true, contentDetails: false }));
  },
  'module_items.update': (ctx) => {
    const m = moduleOf(ctx, 'module_id');
    const item = itemOf(ctx, m);
    writeItem(ctx, item);
    const position = toInt(ctx.params.get('module_item[position]'));
    if (position !== undefined)
      placeAt(
        ctx.state.rowsWith('module_items', 'module_id', m.id).filter((i) => i.id !== item.id),
        item,
        position,
      );
    return one(itemView(ctx, item, { staff: true, contentDetails: false }));
  },
} satisfies HandlersOf<'module_items'>;
