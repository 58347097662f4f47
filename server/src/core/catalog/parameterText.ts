/**
 * A parameter's name and values as text, below the catalog's types: the rule kinds read
 * them, and the catalog's schema is built from the rule kinds, so nothing here imports the
 * catalog. A bracket name split into its segments, and whether a value is outside the
 * documented set.
 */
import { editDistance } from '../suggest';

/** Splits `a[b][][c]` into `a`, `b`, ``, `c`. Returns null for names that are not bracket notation. */
export function splitParamName(name: string): string[] | null {
  const open = name.indexOf('[');
  if (open === -1) return [name];
  const segments = [name.slice(0, open)];
  let i = open;
  while (i < name.length) {
    if (name[i] !== '[') return null;
    const close = name.indexOf(']', i);
    if (close === -1) return null;
    segments.push(name.slice(i + 1, close));
    i = close + 1;
  }
  return segments;
}

/** What a documented parameter says of its values (a CatalogParameter is one). */
export interface DocumentedValues {
  enum?: readonly string[];
  enumOpen?: boolean;
  nullable?: boolean;
}

/** A value outside a parameter's closed set of documented values (a {{variable}}, or null where allowed, is not). */
export function outsideEnum(param: DocumentedValues, value: string): boolean {
  if (!param.enum || param.enum.includes(value) || value.includes('{{')) return false;
  // An open set (launch_type: placement names beyond those listed) takes other values, but not a near miss of a listed one (`assesment`).
  if (param.enumOpen) return isNearMiss(value, param.enum);
  return !(param.nullable && (value === '' || value === 'null'));
}

/** A value within two edits of a documented one (case aside): a misspelling, even where other values are allowed. */
export function isNearMiss(value: string, values: readonly string[]): boolean {
  const lower = value.toLowerCase();
  return values.some((v) => editDistance(lower, v.toLowerCase(), 2) <= 2);
}
