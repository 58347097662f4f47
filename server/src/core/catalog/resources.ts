/**
 * A place in a response body, as the documentation describes it: the JSONPath of an
 * assertion walked through the catalog's resources (`catalog.resources`, its `fieldByName`
 * index), from the type an endpoint returns (`Module`, `Module[]`, `QuizSubmissionList`,
 * `Submission[]|StudentSubmissionGroup[]`). The checker, completion, hover and semantic
 * tokens read assertions through this one walk.
 *
 * A place is a list of alternatives (a type written `A|B` is two). Where the docs do not show
 * what a value holds (`any`, `object`, an external resource such as `User`, the keys of a
 * resource marked `openKeys`), the walk stops: nothing there is known, so nothing is reported.
 */
import type { JsonPathSegment } from '../assertion';
import type { Catalog, Resource } from './catalog';
import type { Field } from './schema';
import { closest } from '../suggest';

/** One alternative of what a place holds. */
export interface PlaceType {
  /** One type, never an alternation: `integer`, `ModuleItem[]`, `Module`, `false`. */
  readonly type: string;
  /** The documented field this place is (or, for an element of a list, whose elements it is): its enum and note. */
  readonly field?: Field;
  /** The resource that documents `field`, or the map whose value this is. */
  readonly owner?: Resource;
  /** The docs say "or null" of the value here. */
  readonly nullable: boolean;
}

/** The types a JSON value of a response can be read as by a comparison. */
export const SCALAR_TYPES: ReadonlySet<string> = new Set([
  'integer',
  'number',
  'string',
  'boolean',
  'DateTime',
  'Date',
  'false',
]);

/** What one step of a path reaches. */
export type Step =
  /** Documented: the alternatives it holds. */
  | { kind: 'documented'; types: readonly PlaceType[] }
  /** The docs do not show what is there: the walk stops. */
  | { kind: 'not-shown' }
  /**
   * The step names nothing the docs describe: `at` is the index of its segment, `on` the type
   * it was taken from, `near` the closest documented name, `list` that a name was taken from a
   * list (whose elements have fields).
   */
  | { kind: 'unknown'; at: number; near?: string; list: boolean; on: string };

/** The alternatives of a type string (`A|B[]`), each as a place type. */
export function placeOf(type: string, field?: Field, owner?: Resource, nullable = false): PlaceType[] {
  const out: PlaceType[] = [];
  for (const part of type.split('|')) {
    const t = part.trim();
    if (t.length > 0) out.push({ type: t, field, owner, nullable });
  }
  return out;
}

/**
 * What the walk knows of one type, worked out once per catalog: whether the docs hide its
 * inside, whether it is a list, and for a resource the step to each of its fields by name and
 * a map's values. A step by a name is then two lookups, whatever the resource.
 */
interface TypeInfo {
  notShown: boolean;
  list: boolean;
  resource?: Resource;
  fields?: Map<string, Documented>;
  value?: Documented;
}

interface WalkCache {
  /** `catalog.resources`, read once (the catalog loads it behind a getter). */
  resources: Map<string, Resource>;
  types: Map<string, TypeInfo>;
  roots: Map<string, Step>;
  /** The elements of a list, by the place that is the list (they keep its field's enum). */
  elements: WeakMap<PlaceType, Documented>;
}

type Documented = Step & { kind: 'documented' };

const caches = new WeakMap<Catalog, WalkCache>();

function cacheOf(catalog: Catalog): WalkCache {
  let cache = caches.get(catalog);
  if (!cache) {
    cache = { resources: catalog.resources, types: new Map(), roots: new Map(), elements: new WeakMap() };
    caches.set(catalog, cache);
  }
  return cache;
}

function typeInfo(cache: WalkCache, type: string): TypeInfo {
  let info = cache.types.get(type);
  if (info) return info;
  const list = type.endsWith('[]');
  const resource = list ? undefined : cache.resources.get(type);
  // `any`, `object` and a name the docs give no fields for (an external resource such as User) hide their inside.
  info = {
    notShown: type === 'any' || type === 'object' || (!list && !SCALAR_TYPES.has(type) && resource === undefined),
    list,
  };
  if (resource) {
    info.resource = resource;
    info.fields = new Map(
      resource.fields.map((f) => [
        f.name,
        { kind: 'documented', types: placeOf(f.type, f, resource, f.nullable === true) },
      ]),
    );
    if (resource.valueType !== undefined)
      info.value = { kind: 'documented', types: placeOf(resource.valueType, undefined, resource) };
  }
  cache.types.set(type, info);
  return info;
}

function elementStep(cache: WalkCache, list: PlaceType): Documented {
  let reached = cache.elements.get(list);
  if (!reached) {
    reached = { kind: 'documented', types: placeOf(list.type.slice(0, -2), list.field, list.owner) };
    cache.elements.set(list, reached);
  }
  return reached;
}

/** The root of a response whose endpoint returns `returns` (null: the docs do not show the response). */
function rootStep(cache: WalkCache, returns: string | null): Step {
  if (returns === null) return NOT_SHOWN;
  let root = cache.roots.get(returns);
  if (!root) {
    const types = placeOf(returns);
    root =
      types.length === 0 || types.some((t) => typeInfo(cache, t.type).notShown)
        ? NOT_SHOWN
        : { kind: 'documented', types };
    cache.roots.set(returns, root);
  }
  return root;
}

const NOT_SHOWN: Step = { kind: 'not-shown' };

/** What two alternatives reach together (a cached step is never changed). */
function join(a: Documented | undefined, b: Documented): Documented {
  return a === undefined ? b : { kind: 'documented', types: a.types.concat(b.types) };
}

/** One step from `types` by one segment of a path. */
function step(cache: WalkCache, types: readonly PlaceType[], segment: JsonPathSegment, at: number): Step {
  // Most steps reach one field of one resource: its cached step is the answer, and nothing is made.
  let reached: Documented | undefined;
  let list = false;
  let object = false;
  for (let i = 0; i < types.length; i++) {
    const here = types[i];
    const info = typeInfo(cache, here.type);
    if (info.notShown) return NOT_SHOWN;
    if (info.list) {
      list = true;
      // An element of a list keeps the field that documents the list (its enum is the elements'), not its nullability.
      if (segment.kind === 'index' || segment.kind === 'wildcard') reached = join(reached, elementStep(cache, here));
      continue;
    }
    const fields = info.fields;
    if (fields === undefined) continue;
    object = true;
    if (segment.kind === 'name') {
      const field = fields.get(segment.name);
      if (field !== undefined) reached = join(reached, field);
      else if (info.value !== undefined) reached = join(reached, info.value);
      else if (info.resource?.openKeys) return NOT_SHOWN;
    } else if (segment.kind === 'wildcard') {
      // Every value of an object: its documented fields, and a map's values.
      if (info.resource?.openKeys && info.value === undefined) return NOT_SHOWN;
      for (const field of fields.values()) reached = join(reached, field);
      if (info.value !== undefined) reached = join(reached, info.value);
    }
  }
  if (reached !== undefined) return reached;
  const on = [...new Set(types.map((t) => t.type))].join('|');
  if (segment.kind !== 'name') return { kind: 'unknown', at, list: false, on };
  // The names the objects here document, for the closest one.
  const names = new Set<string>();
  for (const here of types) for (const name of typeInfo(cache, here.type).fields?.keys() ?? []) names.add(name);
  return {
    kind: 'unknown',
    at,
    near: names.size > 0 ? closest(segment.name, names) : undefined,
    list: list && !object,
    on,
  };
}

/**
 * What a path reaches from the response's root: the last step it could take (an `unknown` or
 * `not-shown` one stops the walk). `steps`, when given, receives each step taken, in order.
 */
export function walkPath(
  catalog: Catalog,
  returns: string | null,
  segments: readonly JsonPathSegment[],
  steps?: Step[],
): Step {
  const cache = cacheOf(catalog);
  let current = rootStep(cache, returns);
  for (let i = 0; i < segments.length && current.kind === 'documented'; i++) {
    current = step(cache, current.types, segments[i], i);
    steps?.push(current);
  }
  return current;
}

/** The documented fields of the objects among `types` (for completion), each with its resource, without repeats. */
export function fieldsOf(catalog: Catalog, types: readonly PlaceType[]): { field: Field; owner: Resource }[] {
  const out: { field: Field; owner: Resource }[] = [];
  const seen = new Set<string>();
  for (const here of types) {
    const resource = catalog.resources.get(here.type);
    if (!resource) continue;
    for (const field of resource.fields) {
      if (seen.has(field.name)) continue;
      seen.add(field.name);
      out.push({ field, owner: resource });
    }
  }
  return out;
}
