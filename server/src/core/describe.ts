/**
 * Markdown descriptions of catalog entries, in the docs' own words, shared by completion
 * and hover so that both say the same thing.
 */
import type { CatalogParameter, Endpoint, EndpointPath } from './catalog/catalog';
import type { Rule } from './catalog/schema';
import { own } from './own';

/**
 * Escapes text for Markdown (the docs' words can contain `*`, `_`, `[`, `|`). The docs' own
 * code spans (`sis_course_id:<id>`) stay code spans; a lone backtick is escaped.
 */
export function md(text: string): string {
  return text
    .split(/(`[^`\n]+`)/)
    .map((part, i) => (i % 2 === 1 ? part : part.replace(/([\\`*_[\]<>|#])/g, '\\$1')))
    .join('');
}

export function code(text: string): string {
  const fence = text.includes('`') ? '``' : '`';
  return `${fence}${text}${fence}`;
}

export function describeEndpoint(endpoint: Endpoint, path?: EndpointPath): string {
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
  lines.push('', `Token scope: ${code(p.scope)}`, '', `Source: document ${endpoint.source.doc}, ${md(endpoint.source.section)}`);
  return lines.join('\n');
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

function ruleNote(rule: Rule, name: string): { text: string; requires: boolean } | undefined {
  switch (rule.kind) {
    case 'required':
      return rule.param === name ? { text: `Required: ${md(rule.text)}`, requires: true } : undefined;
    case 'oneOf':
      return rule.params.includes(name)
        ? { text: `One of ${rule.params.map(code).join(', ')} is required: ${md(rule.text)}`, requires: true }
        : undefined;
    case 'valueRequires':
      return rule.requires.param === name ? { text: `Required with ${code(rule.param)}${rule.value ? ` = ${code(rule.value)}` : ''}: ${md(rule.text)}`, requires: true } : undefined;
    case 'conflicts':
      return rule.params.includes(name)
        ? { text: `Not together with ${rule.params.filter((p) => p !== name).map(code).join(', ')}: ${md(rule.text)}`, requires: false }
        : undefined;
    case 'ignored':
      return rule.params.includes(name) ? { text: `Ignored: ${md(rule.text)}`, requires: false } : undefined;
    case 'appliesTo':
      return rule.param === name ? { text: `Applies: ${md(rule.text)}`, requires: false } : undefined;
    case 'patternAppliesTo':
      return rule.pattern === name ? { text: `Applies: ${md(rule.text)}`, requires: false } : undefined;
    case 'conflictingValues':
      return rule.all.some((c) => c.param === name) ? { text: `Not with ${md(rule.text)}`, requires: false } : undefined;
    case 'valueKinds':
      return rule.param === name ? { text: `One kind of value: ${md(rule.text)}`, requires: false } : undefined;
  }
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
      lines.push('', `${code(`{${name}}`)}: ${md(p.description)}${p.values ? ` (${p.values.map(code).join(', ')})` : ''}`);
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
