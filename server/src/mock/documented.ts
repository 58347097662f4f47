/**
 * Parameters applied as the catalog documents them: what an endpoint documents under one name
 * (`module[...]`, or the top-level names) becomes the fields of a stored row, each value coerced
 * by the type of the resource field it fills, or by the parameter's own type for a resource the
 * docs name without fields. A parameter added to the docs with its field reaches the mock
 * without a change to its code; a handler writes by hand only what carries behaviour.
 */
import type { CatalogParameter, Resource } from '../core';
import { findParameter } from '../core';
import { own, setOwn } from '../core';
import { badRequest, type MockContext } from './context';
import { toBool, toInt, toNumber } from './params';
import type { Row } from './state';

export interface DocumentedFieldsOptions {
  /** The first name of the parameters: `module` for `module[name]`; none for top-level names. */
  under?: string;
  /** For parameters of an array of objects (`grading_periods[][weight]`): the element read. */
  element?: number;
  /** The resource the row is one of; by default the one the endpoint returns. */
  resource?: string;
  /** Fields the handler writes itself, because they carry behaviour (a move, a rename checked for clashes). */
  except?: readonly string[];
  /** The row as stored: a documented object sent in part is merged over what it holds. */
  current?: Row;
  /** A new row: a plain parameter not sent takes the default the docs give it (`base_role_type`). */
  defaults?: boolean;
}

/** Deeper than this a value is not followed (the JSON depth limit of the server is the real bound). */
const MAX_DEPTH = 16;

/**
 * The fields a request sets, by the endpoint's documented parameters: for each parameter under
 * `under` whose next name is a field of the resource (any name, for a resource without fields),
 * the value sent, coerced by the field's type. A value that does not fit its type is left out
 * (the checker has answered 400 for it already), and so is a parameter that is no field (such
 * as `on_duplicate`); an empty value or `null` of a parameter documented nullable is null. A
 * deprecated parameter that names its successor fills the successor's field when it is not sent.
 */
export function documentedFields(ctx: MockContext, options: DocumentedFieldsOptions = {}): Row {
  const { under, element } = options;
  const depth = under === undefined ? 0 : element === undefined ? 1 : 2;
  const byKey = new Map<string, CatalogParameter[]>();
  for (const p of ctx.endpoint.params) {
    const segments = p.parsedName.segments;
    if (segments.length <= depth || p.parsedName.patternAt.has(depth)) continue;
    if (under !== undefined && (segments[0] !== under || (element !== undefined && segments[1] !== ''))) continue;
    const key = segments[depth];
    byKey.set(key, [...(byKey.get(key) ?? []), p]);
  }
  const source = sourceOf(ctx, under, element);
  const resourceName = options.resource ?? ctx.endpoint.returns?.replace(/\[\]$/, '');
  const resource = resourceName === undefined ? undefined : ctx.catalog.resources.get(resourceName);
  const out: Row = {};
  const aliases: [key: string, successor: string][] = [];
  for (const [key, params] of byKey) {
    if (options.except?.includes(key)) continue;
    const successor = successorKey(params, depth);
    if (successor !== undefined) {
      aliases.push([key, successor]);
      continue;
    }
    const sent = own(source, key);
    const value = options.defaults ? withDefaults(sent, params, depth) : sent;
    if (value === undefined) continue;
    const coerced = coerceKey(ctx, resource, key, params, value, own(options.current ?? {}, key), depth);
    if (coerced !== undefined) setOwn(out, key, coerced);
  }
  for (const [key, successor] of aliases) {
    const params = byKey.get(successor);
    const value = own(source, key);
    if (
      params === undefined ||
      value === undefined ||
      own(source, successor) !== undefined ||
      options.except?.includes(successor)
    )
      continue;
    const coerced = coerceKey(ctx, resource, successor, params, value, own(options.current ?? {}, successor), depth);
    if (coerced !== undefined) setOwn(out, successor, coerced);
  }
  return out;
}

/**
 * The value sent for a parameter with documented values, or 400 when it is none of them: the
 * values are those the endpoint lists for the name (a pattern name such as
 * `notification_preferences[{X}][frequency]` is found by the name sent in its place).
 */
export function enumValue(ctx: MockContext, name: string): string {
  const values = findParameter(ctx.endpoint, name)?.enum ?? [];
  const value = ctx.params.get(name) ?? '';
  if (!values.includes(value)) badRequest(`${name} must be one of ${values.join(', ')}`, 'invalid-enum', name);
  return value;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function sourceOf(ctx: MockContext, under: string | undefined, element: number | undefined): Record<string, unknown> {
  if (under === undefined) return ctx.params.nested;
  const group = own(ctx.params.nested, under);
  const picked = element === undefined ? group : Array.isArray(group) ? group[element] : undefined;
  return isObject(picked) ? picked : {};
}

/**
 * A value with the defaults the docs give for what was not sent: a plain parameter's own
 * (`base_role_type`), or, in an object that was sent, its keys' (`course_navigation[windowTarget]`,
 * "_self default"). An object that was not sent stays unsent: its defaults are not a configuration.
 */
function withDefaults(sent: unknown, params: CatalogParameter[], depth: number): unknown {
  if (sent === undefined) return plainParameter(params, depth)?.default;
  if (!isObject(sent)) return sent;
  const out: Record<string, unknown> = { ...sent };
  for (const p of params) {
    const segments = p.parsedName.segments;
    if (p.default === undefined || segments.length !== depth + 2 || p.parsedName.patternAt.has(depth + 1)) continue;
    if (own(out, segments[depth + 1]) === undefined) setOwn(out, segments[depth + 1], p.default);
  }
  return out;
}

/** The one parameter of a key that is a plain value (`label`, `module[name]`), not an object or an array. */
function plainParameter(params: CatalogParameter[], depth: number): CatalogParameter | undefined {
  return params.length === 1 && params[0].parsedName.segments.length === depth + 1 ? params[0] : undefined;
}

/** The key a deprecated parameter stands in for, when it is one plain name whose successor is documented beside it. */
function successorKey(params: CatalogParameter[], depth: number): string | undefined {
  if (params.length !== 1) return undefined;
  const [p] = params;
  if (typeof p.deprecated !== 'object' || p.parsedName.segments.length !== depth + 1) return undefined;
  const successor = p.deprecated.successor.split(/[[\]]+/).filter((s) => s.length > 0);
  return successor.length === depth + 1 ? successor[depth] : undefined;
}

function coerceKey(
  ctx: MockContext,
  resource: Resource | undefined,
  key: string,
  params: CatalogParameter[],
  value: unknown,
  current: unknown,
  depth: number,
): unknown {
  // Where the docs let an empty value or null clear a field, it does.
  if (plainParameter(params, depth)?.nullable && (value === '' || value === 'null')) return null;
  if (resource === undefined || resource.fields.length === 0) return byParameters(params, value, depth + 1);
  const field = resource.fieldByName.get(key);
  return field === undefined ? undefined : byType(ctx, field.type, value, current, 0);
}

/** A value sent coerced by the type of the field it fills (`integer`, `Module[]`, `string|integer`, a resource name). */
function byType(ctx: MockContext, type: string, value: unknown, current: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH) return undefined;
  if (type.includes('|')) {
    for (const alternative of type.split('|')) {
      const coerced = byType(ctx, alternative.trim(), value, current, depth);
      if (coerced !== undefined) return coerced;
    }
    return undefined;
  }
  if (type.endsWith('[]')) {
    const items = Array.isArray(value) ? value : isObject(value) ? byIndex(value) : undefined;
    return items
      ?.map((item) => byType(ctx, type.slice(0, -2), item, undefined, depth + 1))
      .filter((item) => item !== undefined);
  }
  switch (type) {
    case 'integer':
      return toInt(value);
    case 'number':
      return toNumber(value);
    case 'boolean':
      return toBool(value);
    case 'string':
      // A JSON body's `true` or `5` for a field the docs type as a string ("enabled (string in responses, e.g. true)").
      return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? String(value)
        : undefined;
    case 'DateTime':
    case 'Date':
      return typeof value === 'string' ? value : undefined;
    case 'false':
      return undefined;
    case 'any':
    case 'object':
      return value;
  }
  const resource = ctx.catalog.resources.get(type);
  if (resource === undefined) return value;
  if (!isObject(value)) return undefined;
  return objectOf(ctx, resource, value, current, depth);
}

/** An object of a documented resource, merged over the one stored: its fields coerced, other keys kept where the docs leave keys open. */
function objectOf(
  ctx: MockContext,
  resource: Resource,
  value: Record<string, unknown>,
  current: unknown,
  depth: number,
): Row {
  const out: Row = isObject(current) ? { ...current } : {};
  for (const [key, v] of Object.entries(value)) {
    const field = resource.fieldByName.get(key);
    const type = field?.type ?? resource.valueType;
    if (type !== undefined) {
      const coerced = byType(ctx, type, v, own(out, key), depth + 1);
      if (coerced !== undefined) setOwn(out, key, coerced);
    } else if (resource.openKeys) setOwn(out, key, v);
  }
  return out;
}

/** An array sent as an object of indexes (`answers[0][...]`, `answers[1][...]`), in the order of its indexes. */
function byIndex(value: Record<string, unknown>): unknown[] {
  return Object.entries(value)
    .sort(([a], [b]) => (toInt(a) ?? 0) - (toInt(b) ?? 0))
    .map(([, v]) => v);
}

/** For a resource the docs name without fields: the value shaped by the parameters' own names and types. */
function byParameters(params: CatalogParameter[], value: unknown, depth: number): unknown {
  if (depth > MAX_DEPTH) return undefined;
  const leaf = params.find((p) => p.parsedName.segments.length === depth);
  if (leaf) return byParameterType(leaf.type, value);
  const deeper = params.filter((p) => p.parsedName.segments.length > depth);
  if (deeper.length === 0) return undefined;
  if (deeper.every((p) => p.parsedName.segments[depth] === '')) {
    return Array.isArray(value)
      ? value.map((item) => byParameters(deeper, item, depth + 1)).filter((item) => item !== undefined)
      : undefined;
  }
  if (!isObject(value)) return undefined;
  const out: Row = {};
  for (const [key, v] of Object.entries(value)) {
    const matching = deeper.filter((p) => p.parsedName.segments[depth] === key || p.parsedName.patternAt.has(depth));
    const coerced = matching.length > 0 ? byParameters(matching, v, depth + 1) : undefined;
    if (coerced !== undefined) setOwn(out, key, coerced);
  }
  return out;
}

function byParameterType(type: CatalogParameter['type'], value: unknown): unknown {
  switch (type) {
    case 'integer':
      return toInt(value);
    case 'number':
      return toNumber(value);
    case 'boolean':
      return toBool(value);
    case 'any':
      return value;
    default:
      return typeof value === 'string' ? value : undefined;
  }
}
