/** External tools (document A): the tools of a course, account or group context. */
import { type ContextType, type HandlersOf, list, type MockContext, notFound, one, pathContext } from '../context';
import { documentedFields } from '../documented';
import { toInt } from '../params';
import type { MockState, Row } from '../state';

function contextOf(ctx: MockContext): { type: ContextType; id: number } {
  const context = pathContext(ctx);
  if (!context) notFound('context');
  return context;
}

function toolsIn(state: MockState, type: ContextType, id: unknown): Row[] {
  return state.rows('external_tools', (t) => t.context_type === type && t.context_id === id);
}

/** The account a context belongs to: a course's, a group's course's, or the account itself. */
function accountOf(state: MockState, context: { type: ContextType; id: number }): unknown {
  if (context.type === 'Account') return context.id;
  if (context.type === 'Course') return state.get('courses', context.id)?.account_id;
  if (context.type === 'Group') {
    const group = state.get('groups', context.id);
    return group?.course_id === undefined
      ? group?.account_id
      : state.get('courses', group.course_id as number)?.account_id;
  }
  return undefined;
}

/** The accounts above a context, nearest first (a cycle in a user's seed ends the walk). */
function accountsAbove(state: MockState, context: { type: ContextType; id: number }): unknown[] {
  const chain: unknown[] = [];
  let id =
    context.type === 'Account' ? state.get('accounts', context.id)?.parent_account_id : accountOf(state, context);
  while (id !== undefined && id !== null && !chain.includes(id)) {
    chain.push(id);
    id = state.get('accounts', id as number)?.parent_account_id;
  }
  return chain;
}

function tool(ctx: MockContext, id: unknown): Row {
  const context = contextOf(ctx);
  const found = toolsIn(ctx.state, context.type, context.id).find((t) => t.id === toInt(id));
  if (!found) notFound(`external tool ${String(id)}`);
  return found;
}

export const externalToolHandlers = {
  'external_tools.list': (ctx) => {
    const context = contextOf(ctx);
    const term = ctx.params.get('search_term')?.toLowerCase();
    // Document A, list: include_parents, "also tools installed in accounts above"; selectable, "only selectable tools".
    const parents = ctx.params.bool('include_parents')
      ? accountsAbove(ctx.state, context).flatMap((id) => toolsIn(ctx.state, 'Account', id))
      : [];
    const selectable = ctx.params.bool('selectable');
    return list(
      [...toolsIn(ctx.state, context.type, context.id), ...parents].filter(
        (t) =>
          (!term || String(t.name).toLowerCase().includes(term)) && (selectable !== true || t.not_selectable !== true),
      ),
    );
  },
  'external_tools.sessionless_launch': (ctx) => {
    const context = contextOf(ctx);
    const rows = toolsIn(ctx.state, context.type, context.id);
    const id = ctx.params.get('id');
    const t =
      id !== undefined
        ? rows.find((r) => String(r.id) === id)
        : ctx.params.get('url')
          ? rows.find((r) => r.url === ctx.params.get('url'))
          : rows[0];
    if (!t) notFound(`external tool ${id ?? ''}`.trim());
    return one({
      id: t.id,
      name: t.name,
      url: `${ctx.baseUrl}/api/v1/external_tools/${String(t.id)}/sessionless_launch?verifier=${String(t.id)}-mock`,
    });
  },
  'external_tools.show': (ctx) => one(tool(ctx, ctx.bindings.get('external_tool_id'))),
  'external_tools.create': (ctx) => {
    const context = contextOf(ctx);
    // What was sent, and the defaults the docs give (not_selectable false, a placement's
    // windowTarget _self); the shared secret is no field, so it is not kept.
    const row: Row = {
      ...documentedFields(ctx, { defaults: true }),
      context_type: context.type,
      context_id: context.id,
      created_at: ctx.state.now(),
      updated_at: ctx.state.now(),
    };
    return one(ctx.state.insert('external_tools', row));
  },
} satisfies HandlersOf<'external_tools'>;
