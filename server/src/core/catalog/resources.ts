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
export const SCALAR_TYPES: ReadonlySet<string> = new Set(['integer', 'number', 'string', 'boolean', 'DateTime', 'Date', 'false']);

/** What one step of a path reaches. */
export type Step =
  /** Documented: the alternatives it holds. */
  | { kind: 'documented'; types: PlaceType[] }
  /** The docs do not show what is there: the walk stops. */
  | { kind: 'not-shown' }
  /** The step names nothing the docs describe. `near` is the closest documented name, `list` that it named a field of a list. */
  | { kind: 'unknown'; near?: string; list: boolean; index: boolean; on: string };

export interface PathWalk {
  /** What each segment reaches, in order, up to the first one that is not documented (that one included). */
  steps: Step[];
  /** What the whole path reaches: the last step, or the root for `$`. */
  end: Step;
}

/** The alternatives of a type string (`A|B[]`), each as a place type. */
export function placeOf(type: string, field?: Field, owner?: Resource, nullable = false): PlaceType[] {
  const out: PlaceType[] = [];
  for (const part of type.split('|')) {
    const t = part.trim();
    if (t.length > 0) out.push({ type: t, field, owner, nullable });
  }
  return out;
}

/** Whether a single type is one whose inside the docs do not show (`any`, `object`, a resource they name without fields). */
function isNotShown(catalog: Catalog, type: string): boolean {
  if (type === 'any' || type === 'object') return true;
  if (type.endsWith('[]') || SCALAR_TYPES.has(type)) return false;
  const resource = catalog.resources.get(type);
  return resource === undefined;
}

/** The root of a response whose endpoint returns `returns` (null: the docs do not show the response). */
function rootStep(catalog: Catalog, returns: string | null): Step {
  if (returns === null) return { kind: 'not-shown' };
  const types = placeOf(returns);
  if (types.length === 0 || types.some((t) => isNotShown(catalog, t.type))) return { kind: 'not-shown' };
  return { kind: 'documented', types };
}

/** One step from `types` by one segment of a path. */
function step(catalog: Catalog, types: readonly PlaceType[], segment: JsonPathSegment): Step {
  const reached: PlaceType[] = [];
  let list = false;
  let object = false;
  const names = new Set<string>();
  for (const here of types) {
    const t = here.type;
    if (isNotShown(catalog, t)) return { kind: 'not-shown' };
    if (t.endsWith('[]')) {
      list = true;
      // An element of a list keeps the field that documents the list (its enum is the elements'), not its nullability.
      if (segment.kind === 'index' || segment.kind === 'wildcard') reached.push(...placeOf(t.slice(0, -2), here.field, here.owner));
      continue;
    }
    const resource = catalog.resources.get(t);
    if (!resource) continue;
    object = true;
    if (segment.kind === 'name') {
      const field = resource.fieldByName.get(segment.name);
      if (field) reached.push(...placeOf(field.type, field, resource, field.nullable === true));
      else if (resource.valueType !== undefined) reached.push(...placeOf(resource.valueType, undefined, resource));
      else if (resource.openKeys) return { kind: 'not-shown' };
      else for (const f of resource.fields) names.add(f.name);
    } else if (segment.kind === 'wildcard') {
      // Every value of an object: its documented fields, and a map's values.
      if (resource.openKeys && resource.valueType === undefined) return { kind: 'not-shown' };
      for (const f of resource.fields) reached.push(...placeOf(f.type, f, resource, f.nullable === true));
      if (resource.valueType !== undefined) reached.push(...placeOf(resource.valueType, undefined, resource));
    }
  }
  if (reached.length > 0) return { kind: 'documented', types: reached };
  const on = [...new Set(types.map((t) => t.type))].join('|');
  if (segment.kind === 'name') return { kind: 'unknown', near: closestName(segment.name, names), list: list && !object, index: false, on };
  return { kind: 'unknown', list: false, index: true, on };
}

/** Walks a path's segments from the response's root. */
export function walkPath(catalog: Catalog, returns: string | null, segments: readonly JsonPathSegment[]): PathWalk {
  const steps: Step[] = [];
  let current = rootStep(catalog, returns);
  for (const segment of segments) {
    if (current.kind !== 'documented') break;
    current = step(catalog, current.types, segment);
    steps.push(current);
  }
  return { steps, end: current };
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

function closestName(name: string, names: Set<string>): string | undefined {
  return names.size > 0 ? closest(name, names) : undefined;
}
