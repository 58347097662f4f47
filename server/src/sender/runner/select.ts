/**
 * The values a JSONPath of an assertion selects in a parsed JSON body (LPREQ-FORMAT section 6):
 * `.name` and `['name']` step into an object's own member, `[N]` into an array's item, `[*]`
 * into every item of an array or every member of an object. A step that does not apply to a
 * value drops it, so `$[*].workflow_state` selects only the items that have the field, and
 * `$.constructor` on `{}` selects nothing. Pure.
 */
import { hasOwn, own, type JsonPathSegment } from '../../core/index';

/** One value a path selected, and where it stands (`['items', 0, 'id']`). */
export interface SelectedValue {
  path: (string | number)[];
  value: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** The values `segments` select from `root`, in document order. */
export function selectValues(root: unknown, segments: readonly JsonPathSegment[]): SelectedValue[] {
  let current: SelectedValue[] = [{ path: [], value: root }];
  for (const segment of segments) {
    if (current.length === 0) break;
    const next: SelectedValue[] = [];
    for (const { path, value } of current) {
      switch (segment.kind) {
        case 'root':
          next.push({ path, value });
          break;
        case 'name':
          // An array's `length` is an own property too, but no JSON member.
          if (isObject(value) && hasOwn(value, segment.name))
            next.push({ path: [...path, segment.name], value: own(value, segment.name) });
          break;
        case 'index':
          if (Array.isArray(value) && segment.index < value.length)
            next.push({ path: [...path, segment.index], value: value[segment.index] as unknown });
          break;
        case 'wildcard':
          if (Array.isArray(value)) value.forEach((item: unknown, i) => next.push({ path: [...path, i], value: item }));
          else if (isObject(value))
            for (const key of Object.keys(value)) next.push({ path: [...path, key], value: own(value, key) });
          break;
      }
    }
    current = next;
  }
  return current;
}

/** Whether a path can select several values (it has a `[*]`). */
export function selectsSeveral(segments: readonly JsonPathSegment[]): boolean {
  return segments.some((s) => s.kind === 'wildcard');
}
