/** Module items (document A): the items of a module. */
import { badRequest, type HandlersOf, includes, list, type MockContext, nextPosition, notFound, one, pathId } from '../context';
import { documentedFields, isObject } from '../documented';
import { toInt } from '../params';
import type { MockState, Row } from '../state';
import { moduleOf, itemView, itemsOf } from './modules';

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

/** The documented fields of the item; `module_id` moves an item, which the update checks first. */
function writeItem(ctx: MockContext, target: Row) {
  const fields = documentedFields(ctx, { under: 'module_item', except: ['module_id'], current: target });
  // A requirement set again is not met yet.
  if (isObject(fields.completion_requirement)) fields.completion_requirement = { ...fields.completion_requirement, completed: false };
  Object.assign(target, fields);
}

export const moduleItemHandlers = {
  'module_items.list': (ctx) => {
    const m = moduleOf(ctx, 'module_id');
    const term = ctx.params.get('search_term')?.toLowerCase();
    return list(
      itemsOf(ctx, m)
        .filter(
          (i) =>
            !term ||
            String(i.title ?? '')
              .toLowerCase()
              .includes(term),
        )
        .map((i) => itemView(ctx, i, includes(ctx, 'content_details'))),
    );
  },
  'module_items.show': (ctx) => {
    const m = moduleOf(ctx, 'module_id');
    const item = ctx.state.get('module_items', pathId(ctx));
    if (!item || item.module_id !== m.id) notFound(`module item ${ctx.bindings.get('id') ?? ''} in module ${String(m.id)}`);
    return one(itemView(ctx, item, includes(ctx, 'content_details')));
  },
  'module_items.create': (ctx) => {
    const m = moduleOf(ctx, 'module_id');
    const siblings = itemsOf(ctx, m);
    const item: Row = { module_id: m.id, course_id: m.course_id, indent: 0, published: false, position: nextPosition(siblings) };
    writeItem(ctx, item);
    item.title = itemTitle(ctx.state, String(item.type), item.content_id as number | undefined, item.title);
    return one(itemView(ctx, ctx.state.insert('module_items', item), false));
  },
  'module_items.update': (ctx) => {
    const m = moduleOf(ctx, 'module_id');
    const item = ctx.state.get('module_items', pathId(ctx));
    if (!item || item.module_id !== m.id) notFound(`module item ${ctx.bindings.get('id') ?? ''} in module ${String(m.id)}`);
    const target = toInt(ctx.params.group('module_item').module_id);
    writeItem(ctx, item);
    if (target !== undefined && target !== m.id) {
      const dest = ctx.state.get('modules', target);
      if (!dest || dest.course_id !== m.course_id)
        badRequest(`module_item[module_id]: module ${target} is not in this course`, 'not-found', 'module_item[module_id]');
      item.module_id = target;
    }
    return one(itemView(ctx, item, false));
  },
} satisfies HandlersOf<'module_items'>;
