/**
 * Consistency checks over a loaded catalog that zod cannot express: rules name documented
 * parameters, returned and referenced resources exist. Used by the tests and by authors.
 */
import type { Catalog } from './catalog';
import { splitParamName } from './parameterText';
import { own } from '../own';
import { lintRule } from '../rules';
import type { Visibility, Who } from './schema';

/** Every condition inside a visibility condition, itself included. */
export function whoAtoms(who: Who): Who[] {
  if ('anyOf' in who) return [who, ...who.anyOf.flatMap(whoAtoms)];
  if ('allOf' in who) return [who, ...who.allOf.flatMap(whoAtoms)];
  if ('not' in who) return [who, ...whoAtoms(who.not)];
  return [who];
}

/**
 * A visibility statement's problems: a permission document A does not name; for an endpoint's
 * statement, a parameter it does not document or a path placeholder none of its paths has.
 */
function lintVisibility(
  catalog: Catalog,
  v: Visibility,
  where: string,
  endpoint?: { hasParam(name: string): boolean; hasPlaceholder(name: string): boolean; paramsNotShown: boolean },
): string[] {
  const problems: string[] = [];
  for (const atom of [...whoAtoms(v.when), ...(v.if ? whoAtoms(v.if) : [])]) {
    if ('permission' in atom && catalog.permissions && !catalog.permissions.names.has(atom.permission))
      problems.push(`${where}: permission ${atom.permission} is not one of document A, Roles`);
    if (!endpoint) continue;
    const placeholder =
      'self' in atom ? atom.self : 'observerOf' in atom ? atom.observerOf : 'role' in atom ? atom.of : undefined;
    if (placeholder !== undefined && !endpoint.hasPlaceholder(placeholder))
      problems.push(`${where}: no path of the endpoint has the placeholder ${placeholder}`);
    if ('param' in atom && !endpoint.paramsNotShown && !endpoint.hasParam(atom.param))
      problems.push(`${where}: ${atom.param} is not a parameter of the endpoint`);
  }
  return problems;
}

/** The applicable types of roles.create's permissions (patternAppliesTo) agree with the letters of document A's table. */
function lintPermissionTable(catalog: Catalog): string[] {
  const permissions = catalog.permissions;
  if (!permissions) return [];
  const problems: string[] = [];
  for (const e of catalog.endpoints)
    for (const rule of e.rules) {
      if (rule.kind !== 'patternAppliesTo' || rule.dependsOn !== 'base_role_type') continue;
      for (const name of permissions.names) {
        const listed = own(rule.table, name);
        if (!listed) {
          problems.push(`${e.id}: permission ${name} of document A's table is not in the patternAppliesTo table`);
          continue;
        }
        const expected = ['AccountMembership', ...(permissions.byRole.get(name)?.keys() ?? [])].sort();
        if (JSON.stringify([...listed].sort()) !== JSON.stringify(expected))
          problems.push(
            `${e.id}: permission ${name} applies to ${listed.join(', ')}, the letters say ${expected.join(', ')}`,
          );
      }
    }
  return problems;
}

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
    if (e.returnsBy) {
      // The request's choice is among the union's alternatives, and covers them all.
      const chosen = [...e.returnsBy.cases.map((c) => c.returns), e.returnsBy.otherwise].sort();
      const union = (e.returns ?? '')
        .split('|')
        .map((t) => t.trim())
        .sort();
      if (JSON.stringify([...new Set(chosen)]) !== JSON.stringify(union))
        problems.push(`${e.id}: returnsBy chooses ${chosen.join(', ')}, returns is ${e.returns ?? 'null'}`);
      for (const c of e.returnsBy.cases)
        if (!hasParam(c.when.param)) problems.push(`${e.id}: returnsBy names ${c.when.param}, not a parameter`);
    }
    const placeholders = new Set(
      e.paths.flatMap((p) => p.segments.flatMap((seg) => (seg.kind === 'placeholder' ? [seg.name] : []))),
    );
    const scope = {
      hasParam,
      hasPlaceholder: (n: string) => placeholders.has(n),
      paramsNotShown: e.paramsNotShown === true,
    };
    for (const v of [...(e.visibility?.access ?? []), ...(e.visibility?.rows ? [e.visibility.rows] : [])])
      problems.push(...lintVisibility(catalog, v, `${e.id} visibility`, scope));
  }
  problems.push(...lintPermissionTable(catalog));
  for (const r of catalog.resources.values()) {
    for (const f of r.fields)
      if (f.visibility)
        problems.push(...lintVisibility(catalog, f.visibility, `resource ${r.name}.${f.name} visibility`));
    for (const f of r.fields)
      for (const t of typeNames(f.type))
        if (!knownType(t)) problems.push(`resource ${r.name}.${f.name}: unknown type ${t}`);
    if (r.valueType)
      for (const t of typeNames(r.valueType))
        if (!knownType(t)) problems.push(`resource ${r.name}: unknown value type ${t}`);
  }
  return problems;
}
