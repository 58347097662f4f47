/**
 * Responses built from the catalog: `materialize(type, stored)` returns a value of a
 * documented type with every documented field of the resource, converting what the row
 * holds (form values arrive as strings) and filling what it lacks with a value of the
 * right type. Keys of a row that are not documented fields (course_id, validation data)
 * never leave the mock, except for objects the docs reference without fields.
 */
import type { Catalog } from '../core';
import type { Field } from '../core';
import { toBool, toInt, toNumber } from './params';
import { hasOwn, own, setOwn } from '../core';

const DATE_TIME = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export class Materializer {
  constructor(
    private readonly catalog: Catalog,
    private readonly now: () => string,
  ) {}

  /** A value of `type` (`Module`, `Module[]`, `string|integer`, `object|false`...). */
  value(type: string, stored: unknown, field?: Field, depth = 0): unknown {
    if (depth > 12) return null;
    const alternatives = type.split('|').map((t) => t.trim());
    if (alternatives.length > 1) {
      const fitting = alternatives.find((alt) => fits(alt, stored, this.catalog));
      return this.value(fitting ?? alternatives[0], stored, field, depth);
    }
    if (stored === null && field?.nullable) return null;
    if (type.endsWith('[]')) {
      const element = type.slice(0, -2);
      return Array.isArray(stored) ? stored.map((item) => this.value(element, item, undefined, depth + 1)) : [];
    }
    switch (type) {
      case 'integer':
        return toInt(stored) ?? (field?.nullable ? null : 0);
      case 'number':
        return toNumber(stored) ?? (field?.nullable ? null : 0);
      case 'boolean':
        return toBool(stored) ?? (field?.nullable ? null : false);
      case 'string': {
        if (typeof stored === 'string' || typeof stored === 'number') {
          const s = String(stored);
          if (field?.enum && !field.enumOpen && !field.enum.includes(s)) return field.enum[0];
          return s;
        }
        if (field?.nullable) return null;
        return field?.enum?.[0] ?? '';
      }
      case 'DateTime':
        if (typeof stored === 'string' && DATE_TIME.test(stored)) return stored;
        return field?.nullable ? null : this.now();
      case 'Date':
        if (typeof stored === 'string' && DATE.test(stored)) return stored;
        if (typeof stored === 'string' && DATE_TIME.test(stored)) return stored.slice(0, 10);
        return field?.nullable ? null : this.now().slice(0, 10);
      case 'false':
        return false;
      case 'any':
        return stored === undefined ? null : publicCopy(stored);
      case 'object':
        return stored !== null && typeof stored === 'object' && !Array.isArray(stored) ? publicCopy(stored) : field?.nullable ? null : {};
    }
    const resource = this.catalog.resources.get(type);
    if (resource) {
      const row = stored !== null && typeof stored === 'object' && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
      const out: Record<string, unknown> = {};
      for (const f of resource.fields) {
        const v = own(row, f.name);
        if (v === undefined && f.optional) continue;
        setOwn(out, f.name, v === undefined && f.nullable ? null : this.value(f.type, v, f, depth + 1));
      }
      if (resource.valueType) {
        for (const [k, v] of Object.entries(row)) {
          if (!resource.fieldByName.has(k) && !k.startsWith('_')) setOwn(out, k, this.value(resource.valueType, v, undefined, depth + 1));
        }
      } else if (resource.openKeys) {
        for (const [k, v] of Object.entries(row)) if (!hasOwn(out, k) && !k.startsWith('_')) setOwn(out, k, publicCopy(v));
      }
      return out;
    }
    // An object the docs name without fields (User, CalendarEvent...): as stored.
    return stored !== null && typeof stored === 'object' ? publicCopy(stored) : {};
  }
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
      return (catalog.resources.has(type) || type === 'object') && v !== null && typeof v === 'object' && !Array.isArray(v);
  }
}

/** A deep copy without the mock's own keys (those starting with `_`). */
function publicCopy(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(publicCopy);
  if (v !== null && typeof v === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) if (!k.startsWith('_')) setOwn(out, k, publicCopy(x));
    return out;
  }
  return v;
}
