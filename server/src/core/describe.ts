/**
 * Markdown descriptions of catalog entries, in the docs' own words, shared by completion
 * and hover so that both say the same thing.
 */
import type { CatalogParameter, Endpoint, EndpointPath } from './catalog/catalog';
import type { GrantedScopes } from './checker';
import { code, md } from './markdown';
import { own } from './own';
import { ruleNote } from './rules';

export { code, md } from './markdown';

/** An endpoint in the docs' words; with `granted` (hover, an environment's `$scopes`), whether its token may call it. */
export function describeEndpoint(endpoint: Endpoint, path?: EndpointPath, granted?: GrantedScopes): string {
  const p = path ?? endpoint.paths[0];
  const lines: string[] = [`**${endpoint.method}** ${code(p.template)}`, '', md(endpoint.purpose)];
  const facts: string[] = [];
  facts.push(endpoint.returns ? `Returns ${code(endpoint.returns)}` : 'Response not documented');
  if (endpoint.successStatus) facts.push(`status ${endpoint.successStatus}`);
  if (endpoint.paginated) facts.push('paginated');
  if (endpoint.beta) facts.push('**beta**');
  if (endpoint.deprecated || p.deprecated) facts.push('**deprecated**');
  if (endpoint.body === 'json') facts.push('JSON body');
  lines.push('', facts.join(' · '));
  if (p.deprecated) {
    const preferred = endpoint.paths.find((x) => !x.deprecated);
    if (preferred) lines.push('', `Use ${code(preferred.template)} instead.`);
  }
  const required = endpoint.params.filter((x) => x.required).map((x) => code(x.name));
  if (required.length > 0) lines.push('', `Required: ${required.join(', ')}`);
  lines.push(
    '',
    `Token scope: ${code(p.scope)}${granted ? grantNote(granted, p.scope) : ''}`,
    '',
    `Source: document ${endpoint.source.doc}, ${md(endpoint.source.section)}`,
  );
  return lines.join('\n');
}

function grantNote(granted: GrantedScopes, scope: string): string {
  const has = granted.scopes.has(scope);
  if (granted.environments.length === 1)
    return has
      ? ` (in the $scopes of ${granted.environments[0]})`
      : ` (**not** in the $scopes of ${granted.environments[0]})`;
  return has ? " (in an environment's $scopes)" : " (**in no environment's $scopes**)";
}

/** Rules that concern a parameter, as sentences in the docs' words. */
export function parameterRules(endpoint: Endpoint, name: string): { conditionallyRequired: boolean; notes: string[] } {
  const notes: string[] = [];
  let conditionallyRequired = false;
  for (const rule of endpoint.rules) {
    const note = ruleNote(rule, name);
    if (!note) continue;
    if (note.requires) conditionallyRequired = true;
    notes.push(note.text);
  }
  return { conditionallyRequired, notes };
}

export function typeLabel(param: CatalogParameter): string {
  const t = param.isArray ? `${param.type}[]` : param.type;
  return param.format ? `${t} (${param.format.replace(/_/g, ' ')})` : t;
}

export function describeParameter(endpoint: Endpoint, param: CatalogParameter): string {
  const { notes } = parameterRules(endpoint, param.name);
  const head = [`**${md(param.name)}**`, code(typeLabel(param))];
  if (param.required) head.push('**Required**');
  if (param.deprecated) head.push('**deprecated**');
  const lines = [head.join(' · ')];
  if (param.description) lines.push('', md(param.description));
  if (typeof param.deprecated === 'object') lines.push('', `Deprecated: use ${code(param.deprecated.successor)}.`);
  if (param.enum) {
    lines.push('', `Values${param.enumOpen ? ' (others may exist)' : ''}:`);
    for (const v of param.enum) {
      const d = own(param.enumDescriptions, v);
      lines.push(`- ${code(v)}${d ? `: ${md(d)}` : ''}${param.default === v ? ' (default)' : ''}`);
    }
  }
  if (param.default !== undefined && !param.enum) lines.push('', `Default: ${code(param.default)}`);
  if (param.contextTypes) lines.push('', `Context types: ${param.contextTypes.map(code).join(', ')}`);
  if (param.sisForms) lines.push('', `Also accepts ${param.sisForms.map((f) => code(`${f}:...`)).join(', ')}`);
  if (param.patterns) {
    for (const [name, p] of Object.entries(param.patterns)) {
      lines.push(
        '',
        `${code(`{${name}}`)}: ${md(p.description)}${p.values ? ` (${p.values.map(code).join(', ')})` : ''}`,
      );
    }
  }
  for (const n of notes) lines.push('', n);
  return lines.join('\n');
}

export function describeEnumValue(param: CatalogParameter, value: string): string {
  const d = own(param.enumDescriptions, value);
  const lines = [`${code(value)} · value of **${md(param.name)}**`];
  if (d) lines.push('', md(d));
  if (param.default === value) lines.push('', 'The default.');
  return lines.join('\n');
}
