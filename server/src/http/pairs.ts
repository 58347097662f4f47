/** Request parameters as sent: the flat `name=value` pairs of a query string and a form body, or a JSON body spelled the same way. */

export type Pair = [name: string, value: string];

/** A JSON body as bracket pairs, so the checker sees it as it sees form parameters. */
export function flatten(value: unknown, prefix = '', out: Pair[] = [], limit = Infinity): Pair[] {
  // Past `limit` pairs it stops: a body that large is refused, and need not be spelled out first.
  if (out.length > limit) return out;
  if (Array.isArray(value)) {
    for (const item of value) if (flatten(item, `${prefix}[]`, out, limit).length > limit) break;
  } else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      if (flatten(v, prefix ? `${prefix}[${k}]` : k, out, limit).length > limit) break;
  } else if (prefix) {
    out.push([prefix, value === null || value === undefined ? '' : String(value)]);
  }
  return out;
}
