/**
 * Responses built from the catalog: `value(type, stored)` returns a value of a documented
 * type with the documented fields of the resource that the stored row (or the handler's view
 * of it) gives, converted to their documented types (form values arrive as strings).
 *
 * Nothing is made up (issue 22): a field the row does not give, or gives as something that is
 * not a value of its type, is null where the docs allow null and is left out otherwise (the
 * API sends partial objects; a client reads an absent field as unknown, where an invented 0,
 * `false`, first enum value or the mock's clock would read as a fact). Keys of a row that
 * are not documented fields (course_id, validation data) never leave the mock, except for
 * objects the docs reference without fields.
 */
import type { Catalog, Who } from '../core';
import type { Field } from '../core';
import type { Scope } from './visibility';
import { toBool, toInt, toNumber } from './params';
import { hasOwn, own, setOwn } from '../core';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * Who is asking (issue 30): a field with a visibility statement is left out of a row when the
 * statement does not hold for the caller where the row is (the mock's `Viewer`).
 */
export interface FieldViewer {
  pathScope(): Scope;
  scopeOf(resource: string | undefined, row: unknown, fallback: Scope): Scope;
  holds(who: Who, scope: Scope, row?: Record<string, unknown>): boolean;
}

export class Materializer {
  /** Resources whose rows need to know where they are: a field with a statement, theirs or a nested resource's. */
  private readonly scoped = new Map<string, boolean>();

  constructor(private readonly catalog: Catalog) {}

  /** Whether a row of `type` (or a row inside it) has a field with a visibility statement. */
  private needsScope(type: string): boolean {
    let known = this.scoped.get(type);
    if (known === undefined) this.scoped.set(type, (known = this.hasStatements(type, new Set())));
    return known;
  }

  private hasStatements(type: string, seen: Set<string>): boolean {
    const resource = this.catalog.resources.get(type);
    if (!resource || seen.has(type)) return false;
    seen.add(type);
    const base = (t: string) => t.trim().replace(/(\[\])+$/, '');
    return resource.fields.some(
      (f) =>
        f.visibility !== undefined ||
        f.type.split('|').some((t) => this.hasStatements(base(t), seen)) ||
        (resource.valueType !== undefined && this.hasStatements(base(resource.valueType), seen)),
    );
  }

  /** A value of `type` (`Module`, `Module[]`, `string|integer`, `object|false`...) as `viewer` may see it; null when what is stored gives none. */
  value(type: string, stored: unknown, viewer?: FieldViewer): unknown {
    return this.build(type, stored, undefined, 0, viewer, viewer?.pathScope()) ?? null;
  }

  /** The value of `type` that `stored` holds, or undefined when it holds none. */
  private build(
    type: string,
    stored: unknown,
    field: Field | undefined,
    depth: number,
    viewer?: FieldViewer,
    scope?: Scope,
  ): unknown {
    if (depth > 12 || stored === undefined) return undefined;
    // Null is a value where the docs allow it, and of a field they leave untyped (`any`).
    if (stored === null) return field === undefined || field.nullable || type === 'any' ? null : undefined;
    const alternatives = type.split('|').map((t) => t.trim());
    if (alternatives.length > 1) {
      const fitting = alternatives.find((alt) => fits(alt, stored, this.catalog));
      return this.build(fitting ?? alternatives[0], stored, field, depth, viewer, scope);
    }
    if (type.endsWith('[]')) {
      if (!Array.isArray(stored)) return undefined;
      const element = type.slice(0, -2);
      return stored
        .map((item) => this.build(element, item, undefined, depth + 1, viewer, scope))
        .filter((item) => item !== undefined);
    }
    switch (type) {
      case 'integer':
        return toInt(stored);
      case 'number':
        return toNumber(stored);
      case 'boolean':
        return toBool(stored);
      case 'string':
        return typeof stored === 'string' || typeof stored === 'number' || typeof stored === 'boolean'
          ? String(stored)
          : undefined;
      case 'DateTime':
        return typeof stored === 'string' && DATE_TIME.test(stored) ? stored : undefined;
      case 'Date':
        if (typeof stored === 'string' && DATE.test(stored)) return stored;
        return typeof stored === 'string' && DATE_TIME.test(stored) ? stored.slice(0, 10) : undefined;
      case 'false':
        return stored === false ? false : undefined;
      case 'any':
        return publicCopy(stored);
      case 'object':
        return isObject(stored) ? publicCopy(stored) : undefined;
    }
    const resource = this.catalog.resources.get(type);
    if (resource) {
      if (!isObject(stored)) return undefined;
      const out: Record<string, unknown> = {};
      // Where the row is, for the statements of its fields and of the rows inside it.
      const here = viewer && scope && this.needsScope(type) ? viewer.scopeOf(type, stored, scope) : scope;
      for (const f of resource.fields) {
        const v = own(stored, f.name);
        // A field "present only" under a condition is absent when the row leaves it out.
        if (v === undefined && f.optional) continue;
        // ...and when the condition does not hold for the caller.
        if (f.visibility && viewer && here && !viewer.holds(f.visibility.when, here, stored)) continue;
        const built = this.build(f.type, v, f, depth + 1, viewer, here);
        if (built !== undefined) setOwn(out, f.name, built);
        else if (f.nullable) setOwn(out, f.name, null);
      }
      if (resource.valueType) {
        for (const [k, v] of Object.entries(stored)) {
          if (resource.fieldByName.has(k) || k.startsWith('_')) continue;
          const built = this.build(resource.valueType, v, undefined, depth + 1, viewer, here);
          if (built !== undefined) setOwn(out, k, built);
        }
      } else if (resource.openKeys) {
        for (const [k, v] of Object.entries(stored))
          if (!hasOwn(out, k) && !resource.fieldByName.has(k) && !k.startsWith('_')) setOwn(out, k, publicCopy(v));
      }
      return out;
    }
    // An object the docs name without fields (User, CalendarEvent...): as stored.
    return isObject(stored) || Array.isArray(stored) ? publicCopy(stored) : undefined;
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

function fits(type: string, v: unknown, catalog: Catalog): boolean {
  if (type.endsWith('[]')) return Array.isArray(v);
  switch (type) {
    case 'integer':
      return typeof v === 'number' && Number.isInteger(v);
    case 'number':
      return typeof v === 'number';
    case 'string':
    case 'DateTime':
    case 'Date':
      return typeof v === 'string';
    case 'boolean':
      return typeof v === 'boolean';
    case 'false':
      return v === false;
    case 'any':
      return true;
    default:
      return (catalog.resources.has(type) || type === 'object') && isObject(v);
  }
}

/** A deep copy without the mock's own keys (those starting with `_`). */
function publicCopy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(publicCopy);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>))
      if (!k.startsWith('_')) setOwn(out, k, publicCopy(x));
    return out;
  }
  return v;
}
