/**
 * Request parameters as the handlers read them: the flat `name=value` pairs of the query
 * string and form body (or a JSON body flattened to the same bracket names), and a nested
 * view of them (`module[name]` -> `{ module: { name } }`, `a[]` -> arrays).
 */
import { splitParamName } from '../core';
import { dateTimeMillis, isDate } from '../core';
import { hasOwn, own, setOwn } from '../core';
import type { Pair } from '../http';

export class Params {
  readonly nested: Record<string, unknown>;

  constructor(readonly pairs: Pair[]) {
    this.nested = nest(pairs);
  }

  /** The last value of a name, as sent. */
  get(name: string): string | undefined {
    for (let i = this.pairs.length - 1; i >= 0; i--) if (this.pairs[i][0] === name) return this.pairs[i][1];
    return undefined;
  }

  all(name: string): string[] {
    return this.pairs.filter(([n]) => n === name).map(([, v]) => v);
  }

  has(name: string): boolean {
    return this.pairs.some(([n]) => n === name);
  }

  int(name: string): number | undefined {
    return toInt(this.get(name));
  }

  bool(name: string): boolean | undefined {
    return toBool(this.get(name));
  }

  /** The object under a top-level key: `group('module')` is `{ name, position, ... }`. */
  group(key: string): Record<string, unknown> {
    const v = own(this.nested, key);
    return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
  }
}

export function toInt(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^[+-]?\d+$/.test(v.trim())) return Number.parseInt(v, 10);
  return undefined;
}

export function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v);
  return undefined;
}

export function toBool(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === '1' || v === 1) return true;
  if (v === 'false' || v === '0' || v === 0) return false;
  return undefined;
}

const DAY_MS = 86_400_000;

/**
 * Whether a stored timestamp lies on or after `start` and on or before `end`, as instants
 * (so offsets and ISO 8601's basic form count); a date alone as `end` takes in its whole
 * day. Values that are not ISO 8601 compare as text.
 */
export function inTimeRange(value: unknown, start?: string, end?: string): boolean {
  const v = typeof value === 'string' ? value : '';
  const at = dateTimeMillis(v);
  if (start) {
    const from = dateTimeMillis(start);
    if (at === undefined || from === undefined ? v < start : at < from) return false;
  }
  if (end) {
    const to = dateTimeMillis(end);
    if (at === undefined || to === undefined ? v.slice(0, end.length) > end : at > (isDate(end) ? to + DAY_MS - 1 : to))
      return false;
  }
  return true;
}

/**
 * Rails-style nesting of bracket names; a repeated key in `a[][x]` starts a new element. A
 * name such as `constructor` or `__proto__` is a key like any other (own properties only).
 */
function nest(pairs: Pair[]): Record<string, unknown> {
  const root: Record<string, unknown> = {};
  for (const [name, value] of pairs) {
    const segments = splitParamName(name) ?? [name];
    let node: Record<string, unknown> | unknown[] = root;
    for (let i = 0; i < segments.length; i++) {
      const seg = segments[i];
      const last = i === segments.length - 1;
      if (Array.isArray(node)) {
        if (seg !== '') break;
        if (last) {
          node.push(value);
          break;
        }
        // `a[][x]`: continue in the last element unless it already has x.
        const nextKey = segments[i + 1];
        let tail = node[node.length - 1] as Record<string, unknown> | undefined;
        if (!tail || typeof tail !== 'object' || (i + 1 === segments.length - 1 && hasOwn(tail, nextKey))) {
          tail = {};
          node.push(tail);
        }
        node = tail;
        continue;
      }
      if (last) {
        setOwn(node, seg, value);
        break;
      }
      const wantArray = segments[i + 1] === '';
      let child = own(node, seg);
      if (wantArray ? !Array.isArray(child) : child === null || typeof child !== 'object' || Array.isArray(child)) {
        child = wantArray ? [] : {};
        setOwn(node, seg, child);
      }
      node = child as Record<string, unknown> | unknown[];
    }
  }
  return root;
}
