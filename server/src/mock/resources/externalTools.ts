/** External tools (document A): the tools of a course, account or group context. */
import { type ContextType, type HandlersOf, list, type MockContext, notFound, one, pathContext } from '../context';
import { documentedFields } from '../documented';
import { toInt } from '../params';
import type { Row } from '../state';

function toolsOf(ctx: MockContext): { rows: Row[]; context: { type: ContextType; id: number } } {
  const context = pathContext(ctx);
  if (!context) notFound('context');
  return { rows: ctx.state.rows('external_tools', (t) => t.context_type === context.type && t.context_id === context.id), context };
}

function tool(ctx: MockContext, id: unknown): Row {
  const { rows } = toolsOf(ctx);
  const found = rows.find((t) => t.id === toInt(id));
  if (!found) notFound(`external tool ${String(id)}`);
  return found;
}

export const externalToolHandlers = {
  'external_tools.list': (ctx) => {
    const term = ctx.params.get('search_term')?.toLowerCase();
    return list(toolsOf(ctx).rows.filter((t) => !term || String(t.name).toLowerCase().includes(term)));
  },
  'external_tools.sessionless_launch': (ctx) => {
    const { rows } = toolsOf(ctx);
    const id = ctx.params.get('id');
    const t = id !== undefined ? rows.find((r) => String(r.id) === id) : ctx.params.get('url') ? rows.find((r) => r.url === ctx.params.get('url')) : rows[0];
    if (!t) notFound(`external tool ${id ?? ''}`.trim());
    return one({ id: t.id, name: t.name, url: `${ctx.baseUrl}/api/v1/external_tools/${String(t.id)}/sessionless_launch?verifier=${String(t.id)}-mock` });
  },
  'external_tools.show': (ctx) => one(tool(ctx, ctx.bindings.get('external_tool_id'))),
  'external_tools.create': (ctx) => {
    const { context } = toolsOf(ctx);
    // The documented fields and placements; the shared secret is no field, so it is not kept.
    const row: Row = { ...documentedFields(ctx), context_type: context.type, context_id: context.id, created_at: ctx.state.now(), updated_at: ctx.state.now() };
    if (!row.domain && typeof row.url === 'string') row.domain = /^https?:\/\/([^/]+)/.exec(row.url)?.[1];
    return one(ctx.state.insert('external_tools', row));
  },
} satisfies HandlersOf<'external_tools'>;
