/** Custom gradebook columns and their data (document B). */
import {
  badRequest,
  byPosition,
  course,
  type HandlersOf,
  list,
  listParam,
  type MockContext,
  nextPosition,
  notFound,
  one,
  pathId,
  raw,
  user,
} from '../context';
import { documentedFields } from '../documented';
import { toInt } from '../params';
import type { Row } from '../state';

function columnOf(ctx: MockContext): Row {
  const c = course(ctx);
  const col = ctx.state.get('custom_columns', pathId(ctx));
  if (!col || col.course_id !== c.id)
    notFound(`custom column ${ctx.bindings.get('id') ?? ''} in course ${String(c.id)}`);
  return col;
}

function writeColumn(ctx: MockContext, col: Row) {
  Object.assign(col, documentedFields(ctx, { under: 'column' }));
}

export const gradebookColumnHandlers = {
  'custom_gradebook_columns.list': (ctx) => {
    const c = course(ctx);
    const hidden = ctx.params.bool('include_hidden') === true;
    return list(
      ctx.state
        .rows('custom_columns', (col) => col.course_id === c.id && (hidden || col.hidden !== true))
        .sort(byPosition),
    );
  },
  'custom_gradebook_columns.create': (ctx) => {
    const c = course(ctx);
    const col: Row = {
      course_id: c.id,
      position: nextPosition(ctx.state.rows('custom_columns', (x) => x.course_id === c.id)),
    };
    writeColumn(ctx, col);
    return one(ctx.state.insert('custom_columns', col));
  },
  'custom_gradebook_columns.update': (ctx) => {
    const col = columnOf(ctx);
    writeColumn(ctx, col);
    return one(col);
  },
  'custom_gradebook_columns.delete': (ctx) => {
    const col = columnOf(ctx);
    for (const d of ctx.state.rows('column_data', (x) => x.column_id === col.id))
      ctx.state.remove('column_data', d.id as number);
    ctx.state.remove('custom_columns', col.id as number);
    return one(col);
  },
  'custom_gradebook_columns.reorder': (ctx) => {
    const c = course(ctx);
    const order = listParam(ctx, 'order').map((x) => toInt(x));
    const columns = ctx.state.rows('custom_columns', (x) => x.course_id === c.id);
    for (const id of order)
      if (!columns.some((col) => col.id === id))
        badRequest(
          `order[]: column ${String(id)} is not a custom column of course ${String(c.id)}`,
          'not-found',
          'order[]',
        );
    order.forEach((id, i) => {
      const col = columns.find((x) => x.id === id);
      if (col) col.position = i + 1;
    });
    return raw(200, { reorder: true, order });
  },
  'custom_gradebook_column_data.list': (ctx) => {
    const col = columnOf(ctx);
    return list(ctx.state.rows('column_data', (d) => d.column_id === col.id && String(d.content) !== ''));
  },
  'custom_gradebook_column_data.update': (ctx) => {
    const col = columnOf(ctx);
    const u = user(ctx);
    const content = ctx.params.get('column_data[content]') ?? '';
    const existing = ctx.state.find('column_data', (d) => d.column_id === col.id && d.user_id === u.id);
    if (content === '') {
      if (existing) ctx.state.remove('column_data', existing.id as number);
      return one({ content: '', user_id: u.id });
    }
    if (existing) existing.content = content;
    return one(existing ?? ctx.state.insert('column_data', { column_id: col.id, user_id: u.id, content }));
  },
} satisfies HandlersOf<'custom_gradebook_columns' | 'custom_gradebook_column_data'>;
