/**
 * Consistency checks over a loaded catalog that zod cannot express: rules name documented
 * parameters, returned and referenced resources exist. Used by the tests and by authors.
 */
import type { Catalog } from './catalog';
import { splitParamName } from './parameterText';
import { own } from '../own';
import { lintRule } from '../rules';

const BASE_TYPES = new Set([
  'integer',
  'number',
  'string',
  'boolean',
  'DateTime',
  'Date',
  'object',
  'any',
  'false',
  'null',
]);

/** Every type name used in a field or return type expression (`Module[]|null` gives Module, null). */
function typeNames(expr: string): string[] {
  return expr.split('|').map((alt) => alt.trim().replace(/(\[\])+$/, ''));
}

export function lintCatalog(catalog: Catalog): string[] {
  const problems: string[] = [];
  const knownType = (name: string) =>
    BASE_TYPES.has(name) || catalog.resources.has(name) || catalog.externalResources.has(name);
  for (const e of catalog.endpoints) {
    const hasParam = (name: string) => {
      if (e.paramByName.has(name)) return true;
      // A rule may name a path placeholder: the value the path gives it (`{id}` on roles update).
      if (e.paths.some((p) => p.segments.some((seg) => seg.kind === 'placeholder' && seg.name === name))) return true;
      const segs = splitParamName(name);
      if (!segs) return false;
      return (
        e.patternParams.some(
          (p) =>
            p.parsedName.segments.length === segs.length &&
            p.parsedName.segments.every((s, i) => p.parsedName.patternAt.has(i) || s === segs[i] || s === name),
        ) || e.patternParams.some((p) => p.name === name)
      );
    };
    for (const rule of e.rules) for (const problem of lintRule(rule, hasParam)) problems.push(`${e.id}: ${problem}`);
    for (const p of e.params) {
      for (const [, pattern] of p.parsedName.patternAt) {
        if (!own(p.patterns, pattern))
          problems.push(`${e.id}: ${p.name} has pattern {${pattern}} without a patterns entry`);
      }
      if (p.enum && p.default !== undefined && !p.enum.includes(p.default) && !p.enumOpen && p.type === 'string') {
        problems.push(`${e.id}: ${p.name} default ${p.default} is not among its enum values`);
      }
    }
    if (e.returns)
      for (const t of typeNames(e.returns)) if (!knownType(t)) problems.push(`${e.id}: returns unknown resource ${t}`);
    if (e.body === 'json' && !e.jsonBody) problems.push(`${e.id}: body json without jsonBody shape`);
  }
  for (const r of catalog.resources.values()) {
    for (const f of r.fields)
      for (const t of typeNames(f.type))
        if (!knownType(t)) problems.push(`resource ${r.name}.${f.name}: unknown type ${t}`);
    if (r.valueType)
      for (const t of typeNames(r.valueType))
        if (!knownType(t)) problems.push(`resource ${r.name}: unknown value type ${t}`);
  }
  return problems;
}
