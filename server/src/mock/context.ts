/**
 * What a handler is given (the matched endpoint, the path's values, the parameters, the
 * state) and what it returns. Lookups that fail throw HttpError, which the server turns
 * into a JSON error body; a handler never writes to the socket itself.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Catalog, Endpoint } from '../core';
import type { EndpointId } from './endpointIds';
import { toInt, type Params } from './params';
import type { TableName } from './seed';
import type { MockState, Row } from './state';
import type { Viewer } from './visibility';
import { own, setOwn } from '../core';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
    readonly parameter?: string,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
  }
}

export type Outcome =
  /** One value, built as the endpoint's documented type (or `as`). */
  | { kind: 'one'; value: unknown; status?: number; as?: string }
  /** A list: paginated when the endpoint is, and wrapped as `{ [wrap]: page, ...extra }` for wrapper types. */
  | { kind: 'list'; items: unknown[]; wrap?: string; extra?: Row; as?: string; view?: (item: unknown) => unknown }
  /** A body sent as it is (operations whose response the docs do not show). */
  | { kind: 'raw'; status: number; body?: unknown; headers?: Record<string, string> };

export type ContextType = 'Course' | 'User' | 'Group' | 'Account';

export interface MockContext {
  state: MockState;
  /** The catalog the mock serves: the resource fields that documented parameters fill. */
  catalog: Catalog;
  endpoint: Endpoint;
  template: string;
  bindings: Map<string, string>;
  params: Params;
  /** The parsed JSON body, for the endpoints that take one. */
  json: unknown;
  headers: IncomingHttpHeaders;
  /** `http://127.0.0.1:4010`, for the URLs inside resources. */
  baseUrl: string;
  /** The user the request's token stands for (`self`): the seed's `self_user_id`, or the user of a user token. */
  callerId: number;
  /** What the caller may see and do, by the catalog's visibility statements (issue 30). */
  who: Viewer;
}

export type Handler = (ctx: MockContext) => Outcome;

/**
 * The handlers of one resource area: one for each endpoint whose id starts with one of
 * `Area` (`'files' | 'usage_rights'`), and no other. A table checked against it with
 * `satisfies` does not compile when it misses an endpoint of the catalog or has one the
 * catalog does not document.
 */
export type HandlersOf<Area extends string> = {
  [Id in EndpointId as Id extends `${Area}.${string}` ? Id : never]: Handler;
};

export const one = (value: unknown, status?: number): Outcome => ({ kind: 'one', value, status });
export const list = (items: unknown[], wrap?: string, extra?: Row): Outcome => ({ kind: 'list', items, wrap, extra });
export const raw = (status: number, body?: unknown): Outcome => ({ kind: 'raw', status, body });

export function notFound(what: string): never {
  throw new HttpError(404, `${what} does not exist`, 'not-found');
}

export function badRequest(message: string, code = 'invalid-request', parameter?: string): never {
  throw new HttpError(400, message, code, parameter);
}

/** The integer value of a path placeholder, or 404 (an id that is not a number names nothing). */
export function pathId(ctx: MockContext, name = 'id'): number {
  const text = ctx.bindings.get(name);
  const id = toInt(text);
  if (id === undefined) notFound(`${name} ${text ?? ''}`.trim());
  return id;
}

/** The row of `table` with this id, or 404 "`what` `shown`" (`shown`, the id as written, defaults to the id). */
export function must(
  ctx: MockContext,
  table: TableName,
  id: string | number | undefined,
  what: string,
  shown: string | number | undefined = id,
): Row {
  const row = id === undefined ? undefined : ctx.state.get(table, id);
  if (!row) notFound(`${what} ${shown ?? ''}`.trim());
  return row;
}

/** Resolves an id written in a path: an id, `self`, or a documented SIS form. */
function resolveRef(ctx: MockContext, table: TableName, text: string | undefined, sisKey: string, what: string): Row {
  if (text === undefined) notFound(what);
  if (text === 'self' && table === 'users') return must(ctx, 'users', ctx.callerId, 'user');
  const sis = new RegExp(`^${sisKey}:(.+)$`).exec(text);
  if (sis) {
    const row = ctx.state.find(table, (r) => own(r, sisKey) === sis[1]);
    if (!row) notFound(`${what} ${text}`);
    return row;
  }
  return must(ctx, table, toInt(text), what, text);
}

/**
 * A user named by a parameter value: an id or, where the docs allow it, `sis_user_id:<id>`
 * (document A, Conventions 5). Undefined when no user has it.
 */
export function userByRef(ctx: MockContext, text: string): Row | undefined {
  const sis = /^sis_user_id:(.+)$/.exec(text);
  if (sis) return ctx.state.find('users', (r) => r.sis_user_id === sis[1]);
  const id = toInt(text);
  return id === undefined ? undefined : ctx.state.get('users', id);
}

/** The enrollment types (`StudentEnrollment`, `TeacherEnrollment`...) of a user in a course, or in one of its sections. */
export function enrollmentTypes(
  ctx: MockContext,
  courseId: unknown,
  userId: unknown = ctx.callerId,
  sectionId?: unknown,
): string[] {
  return ctx.state
    .rows(
      'enrollments',
      (e) =>
        e.course_id === courseId && e.user_id === userId && (sectionId === undefined || e.section_id === sectionId),
    )
    .map((e) => String(e.type));
}

export function course(ctx: MockContext, name = 'course_id'): Row {
  return resolveRef(ctx, 'courses', ctx.bindings.get(name), 'sis_course_id', 'course');
}

export function user(ctx: MockContext, name = 'user_id'): Row {
  return resolveRef(ctx, 'users', ctx.bindings.get(name), 'sis_user_id', 'user');
}

function section(ctx: MockContext, name = 'section_id'): Row {
  return resolveRef(ctx, 'sections', ctx.bindings.get(name), 'sis_section_id', 'section');
}

export function account(ctx: MockContext, name = 'account_id'): Row {
  return must(ctx, 'accounts', toInt(ctx.bindings.get(name)), 'account', ctx.bindings.get(name));
}

/** The course of a path that is under `/courses/{course_id}` or `/sections/{section_id}`. */
export function courseOrSection(ctx: MockContext): { course: Row; section?: Row } {
  if (ctx.bindings.has('section_id')) {
    const s = section(ctx);
    return { course: must(ctx, 'courses', s.course_id as number, 'course'), section: s };
  }
  return { course: course(ctx) };
}

/** The context a path names by its third segment (`/api/v1/courses/{x}/...`). */
export function pathContext(ctx: MockContext): { type: ContextType; id: number } | undefined {
  const m = /^\/api\/v1\/(courses|users|groups|accounts)\/\{(\w+)\}/.exec(ctx.template);
  if (!m) return undefined;
  const name = m[2];
  switch (m[1]) {
    case 'courses':
      return { type: 'Course', id: course(ctx, name).id as number };
    case 'users':
      return { type: 'User', id: user(ctx, name).id as number };
    case 'groups':
      return {
        type: 'Group',
        id: must(ctx, 'groups', toInt(ctx.bindings.get(name)), 'group', ctx.bindings.get(name)).id as number,
      };
    default:
      return { type: 'Account', id: account(ctx, name).id as number };
  }
}

/** Values of a parameter that may be sent as `name[]` or as `name`. */
export function listParam(ctx: MockContext, name: string): string[] {
  return [...ctx.params.all(`${name}[]`), ...ctx.params.all(name)];
}

export function includes(ctx: MockContext, what: string): boolean {
  return listParam(ctx, 'include').includes(what);
}

/** Fields of a nested parameter group, with strings kept as sent (materialize converts on output). */
export function pick(from: Record<string, unknown>, keys: readonly string[]): Row {
  const out: Row = {};
  for (const k of keys) {
    const value = own(from, k);
    if (value !== undefined) setOwn(out, k, value);
  }
  return out;
}

export function nextPosition(rows: Iterable<Row>): number {
  let last = 0;
  for (const r of rows) last = Math.max(last, toInt(r.position) ?? 0);
  return last + 1;
}

/**
 * Puts `row` at a 1-based position among its siblings (which do not include it) and numbers
 * them all 1 to n again, so that positions stay the docs' "1-based position": a position past
 * the end is the end, one before 1 is 1, and the others move to make room.
 */
export function placeAt(siblings: Row[], row: Row, position: number): void {
  const ordered = [...siblings].sort(byPosition);
  ordered.splice(Math.min(Math.max(position, 1), ordered.length + 1) - 1, 0, row);
  ordered.forEach((r, i) => (r.position = i + 1));
}

/** Numbers rows 1 to n in their order, after one of them was removed. */
export function renumber(rows: Row[]): void {
  [...rows].sort(byPosition).forEach((r, i) => (r.position = i + 1));
}

export function byPosition(a: Row, b: Row): number {
  return (toInt(a.position) ?? 0) - (toInt(b.position) ?? 0) || (toInt(a.id) ?? 0) - (toInt(b.id) ?? 0);
}
