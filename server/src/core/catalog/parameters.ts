/**
 * Lookups of a sent parameter name among an endpoint's documented parameters: the parameter
 * it stands for, the names to suggest for one that is not documented, and the documented values.
 */
import type { CatalogParameter, Endpoint } from './catalog';
import { splitParamName } from './parameterText';
import { own } from '../own';

/** The documented parameter a sent name stands for (the checker's hot path: no allocation on an exact name). */
export function findParameter(endpoint: Endpoint, name: string): CatalogParameter | undefined {
  return endpoint.paramByName.get(name) ?? lookupParameter(endpoint, name)?.param;
}

/** Finds the documented parameter a sent name stands for: exact, indexed (`[0]` for `[]`) or a pattern. */
export function lookupParameter(
  endpoint: Endpoint,
  name: string,
): { param: CatalogParameter; segments: string[] } | undefined {
  const exact = endpoint.paramByName.get(name);
  if (exact) return { param: exact, segments: exact.parsedName.segments };
  const segments = splitParamName(name);
  if (!segments) return undefined;
  if (segments.length > 2 && segments.slice(1, -1).some((s) => /^\d+$/.test(s))) {
    const normalised =
      segments[0] +
      segments
        .slice(1)
        .map((s, i) => (i < segments.length - 2 && /^\d+$/.test(s) ? '[]' : `[${s}]`))
        .join('');
    const indexed = endpoint.paramByName.get(normalised);
    if (indexed) return { param: indexed, segments };
  }
  for (const p of endpoint.patternParams) {
    const ps = p.parsedName.segments;
    if (ps.length !== segments.length) continue;
    let ok = true;
    for (let i = 0; i < ps.length && ok; i++) {
      const pattern = p.parsedName.patternAt.get(i);
      // A pattern segment takes a name, not the docs' `{X}` left as it is.
      if (pattern !== undefined)
        ok = (segments[i].length > 0 && !LEFT_PATTERN.test(segments[i])) || own(p.patterns, pattern)?.index === true;
      else ok = ps[i] === segments[i];
    }
    if (ok) return { param: p, segments };
  }
  // Keys inside a parameter documented as a hash of any shape (`error[http_env][HTTP_USER_AGENT]`).
  for (let k = segments.length - 1; k >= 1; k--) {
    const prefix =
      segments[0] +
      segments
        .slice(1, k)
        .map((s) => `[${s}]`)
        .join('');
    const p = endpoint.paramByName.get(prefix);
    if (p) return p.type === 'any' ? { param: p, segments } : undefined;
  }
  return undefined;
}

/** A pattern segment written as the docs write it (`permissions[{X}][enabled]`): not filled in. */
export const LEFT_PATTERN = /^\{\w*\}$/;

/**
 * Names to suggest for an unknown `typed` name: the endpoint's names, a pattern filled with
 * what `typed` has in its pattern segments (`notification_preferences[new_announcement][frequency]`
 * for `...[new_announcement][frequncy]`), never with the docs' `{X}`.
 */
export function suggestionNames(endpoint: Endpoint, typed: string): string[] {
  const segments = splitParamName(typed);
  const names: string[] = [];
  for (const p of endpoint.params) {
    if (!p.isPattern) {
      names.push(p.name);
      continue;
    }
    const ps = p.parsedName.segments;
    if (!segments || segments.length !== ps.length) continue;
    const filled = ps.map((seg, i) => (p.parsedName.patternAt.has(i) ? segments[i] : seg));
    if (filled.some((seg, i) => p.parsedName.patternAt.has(i) && (seg === '' || LEFT_PATTERN.test(seg)))) continue;
    names.push(
      filled[0] +
        filled
          .slice(1)
          .map((seg) => `[${seg}]`)
          .join(''),
    );
  }
  return names;
}
