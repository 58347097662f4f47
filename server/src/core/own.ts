/**
 * Lookups by a name that comes from outside the code: a parameter, a value, a variable, an
 * environment, a header, a JSON key. On a plain object `record['constructor']` finds
 * Object.prototype's function and `record['__proto__'] = value` replaces the prototype, so
 * such names are looked up as own properties only: through these helpers, or in a Map. The
 * lint rule `local/own-lookup` (eslint-rules/own-lookup.mjs) reports every computed lookup
 * on a string-keyed record that does not go through them.
 */

/** An empty record with no prototype: only what is put in it is ever found in it. */
export function dict<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

/** A record with no prototype holding the given entries (or another record's own enumerable properties). */
export function dictFrom<T>(entries: Iterable<readonly [string, T]> | Readonly<Record<string, T>>): Record<string, T> {
  const out = dict<T>();
  const list =
    Symbol.iterator in entries
      ? (entries as Iterable<readonly [string, T]>)
      : Object.entries(entries as Readonly<Record<string, T>>);
  for (const [key, value] of list) setOwn(out, key, value);
  return out;
}

/** The value of `record`'s own property `key`, or undefined (never one of Object.prototype's members). */
export function own<T>(record: Readonly<Record<string, T>> | undefined | null, key: string): T | undefined {
  // eslint-disable-next-line local/own-lookup -- the one place that reads a record by a given name, once it is known to be its own.
  return record !== undefined && record !== null && Object.hasOwn(record, key) ? record[key] : undefined;
}

/** Whether `record` has an own property `key` (what `key in record` means for data). */
export function hasOwn(record: object | undefined | null, key: string): boolean {
  return record !== undefined && record !== null && Object.hasOwn(record, key);
}

/**
 * Sets `record`'s own property `key`. Assigning `__proto__` would replace the prototype of a
 * plain object (or do nothing); it is defined as an ordinary property instead.
 */
export function setOwn<T>(record: Record<string, T>, key: string, value: NoInfer<T>): void {
  if (key === '__proto__')
    Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
  // eslint-disable-next-line local/own-lookup -- any other name assigned is an own data property.
  else record[key] = value;
}
