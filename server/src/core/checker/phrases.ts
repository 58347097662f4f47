/**
 * The words diagnostics share. A message is one sentence a person reads at a glance (at most
 * 120 characters): what is wrong and the fix; the endpoint, the documentation's words and the
 * documented row go to the diagnostic's `related`.
 */

const MAX_MESSAGE = 120;

/** A value from the user's text, quoted: a long one is cut (the range shows it whole). */
export function quote(value: string, max = 40): string {
  return `'${value.length > max ? `${value.slice(0, max - 1)}…` : value}'`;
}

/** The first phrasing that fits in a message, else the shortest. */
export function fit(...phrasings: string[]): string {
  for (const p of phrasings) if (p.length <= MAX_MESSAGE) return p;
  return phrasings.reduce((a, b) => (b.length < a.length ? b : a));
}

/** Values as a list to choose from: `a, b or c`. */
export function choices(values: readonly string[], or = 'or'): string {
  return values.length <= 1
    ? (values[0] ?? '')
    : `${values.slice(0, -1).join(', ')} ${or} ${values[values.length - 1]}`;
}

/**
 * A parameter's name as it reads beside another of the same object: `type` beside
 * `module_item[page_url]` (both in `module_item[...]`); the whole name otherwise.
 */
export function beside(name: string, other: string): string {
  const open = name.lastIndexOf('[');
  if (open <= 0 || !name.endsWith(']')) return name;
  const prefix = name.slice(0, open + 1);
  return other.startsWith(prefix) && other.indexOf('[', prefix.length) === -1 ? name.slice(open + 1, -1) : name;
}

/** The related line that names the endpoint a request matched. */
export function endpointFact(label: string): string {
  return `Endpoint: ${label}`;
}

/** The related line with the documentation's own words. */
export function documented(text: string | undefined): string | undefined {
  return text === undefined || text === '' ? undefined : `Documentation: ${text}`;
}

/** A description without what it says in parentheses at its end: `a Date (yyyy-mm-dd)` is `a Date`. */
export function brief(text: string): string {
  return text.replace(/,? not [a-z]+:$/, '').replace(/\s*\([^()]*\)\s*$/, '');
}
