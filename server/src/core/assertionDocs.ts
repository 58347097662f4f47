/**
 * What the parts of an assertion line mean (LPREQ-FORMAT section 6), in words for completion
 * and hover: the fields, the operators, the response headers worth asserting on, and a place
 * in the response as the docs describe it.
 */
import type { AssertionOperator } from './assertion';
import type { Catalog } from './catalog/catalog';
import type { PlaceType } from './catalog/resources';
import { code, md } from './markdown';
import { own } from './own';

export interface AssertionFieldDoc {
  name: 'status' | 'duration' | 'header' | 'body';
  /** Markdown. */
  doc: string;
}

export const ASSERTION_FIELDS: readonly AssertionFieldDoc[] = [
  { name: 'status', doc: 'The status code of the response, a number: `?? status == 200`, `?? status < 300`.' },
  {
    name: 'body',
    doc: 'The body: without a path the whole body as text (`?? body includes Week`); with a JSONPath a value of the JSON body (`?? body $.name == Week 5`, `?? body $[*].id exists`).',
  },
  {
    name: 'header',
    doc: 'A header of the response, by its name (case-insensitive), as text: `?? header content-type includes json`.',
  },
  { name: 'duration', doc: 'How long the response took, in milliseconds: `?? duration < 2000`.' },
];

const OPERATOR_DOCS = new Map<AssertionOperator, string>([
  [
    '==',
    'Equal: a number by value, `true`/`false`, `null`, or a text as written (a quoted EXPECTED is the text inside the quotes).',
  ],
  ['!=', 'Not equal: a number by value, `true`/`false`, `null`, or a text as written.'],
  ['<', 'Less than: numbers by value, DateTime and Date values in time order.'],
  ['<=', 'Less than or equal: numbers by value, DateTime and Date values in time order.'],
  ['>', 'Greater than: numbers by value, DateTime and Date values in time order.'],
  ['>=', 'Greater than or equal: numbers by value, DateTime and Date values in time order.'],
  [
    'includes',
    'Contains EXPECTED: a text as a part of it, a list as one of its elements. On a documented enum field, EXPECTED is one of its values.',
  ],
  [
    'contains',
    'Another name for `includes`: contains EXPECTED, a text as a part of it, a list as one of its elements.',
  ],
  ['startsWith', 'The text begins with EXPECTED.'],
  ['endsWith', 'The text ends with EXPECTED.'],
  ['matches', 'The text matches EXPECTED, a JavaScript regular expression: `/pattern/flags`, or the pattern alone.'],
  ['exists', 'The path selects at least one value.'],
  ['!exists', 'The path selects no value.'],
  ['isNumber', 'The value is a JSON number.'],
  ['isString', 'The value is a JSON string.'],
  ['isBoolean', 'The value is `true` or `false`.'],
  ['isArray', 'The value is a JSON array.'],
  ['isNull', 'The value is `null`.'],
]);

/** What an operator does, in Markdown; a path that selects several values holds when every selected value does. */
export function operatorDoc(op: AssertionOperator): string {
  const doc = OPERATOR_DOCS.get(op) ?? '';
  const several =
    op === 'exists' || op === '!exists'
      ? ''
      : '\n\nA path that selects several values (`$[*].name`) holds when at least one is selected and every one satisfies it.';
  return `${code(op)} · assertion operator\n\n${doc}${several}`;
}

/** Response headers worth asserting on; `paginated` marks Link, which paginated lists send. */
export const RESPONSE_HEADERS: readonly { name: string; doc: string; paginated?: true }[] = [
  { name: 'content-type', doc: 'The media type of the body: the API answers `application/json`.' },
  {
    name: 'link',
    doc: 'The URLs of the next, previous, first and last pages of a paginated list (`rel="next"`).',
    paginated: true,
  },
  { name: 'location', doc: 'Where a created or moved resource is, or where a redirect points.' },
  { name: 'content-length', doc: 'The size of the body in bytes.' },
  { name: 'etag', doc: 'A version tag of the resource, for conditional requests.' },
];

/** The documented type of a place: `integer`, `string or null`, `Submission[] | StudentSubmissionGroup[]`. */
export function placeTypeLabel(types: readonly PlaceType[]): string {
  const label = [...new Set(types.map((t) => t.type))].join(' | ');
  return types.some((t) => t.nullable) ? `${label} or null` : label;
}

/** A place in a response as the docs describe it: each documented field it is, or the type it holds. */
export function describePlace(catalog: Catalog, types: readonly PlaceType[]): string {
  const parts: string[] = [];
  const seen = new Set<string>();
  for (const t of types) {
    const key = t.field && t.owner ? `${t.owner.name}.${t.field.name}` : t.type;
    if (seen.has(key)) continue;
    seen.add(key);
    const field = t.field;
    if (field && t.owner) {
      const head = [`**${md(field.name)}**`, code(placeTypeLabel(types.filter((x) => x.field === field)))];
      head.push(`field of ${code(t.owner.name)}`);
      if (field.optional) head.push('present only sometimes');
      if (field.deprecated) head.push('**deprecated**');
      const lines = [head.join(' · ')];
      if (field.note) lines.push('', md(field.note));
      const declared = field.type.split('|').map((x) => x.trim());
      const element = !declared.includes(t.type) && declared.includes(`${t.type}[]`);
      if (element) lines.push('', `An element of the list ${code(field.type)}.`);
      if (field.enum && field.enum.length > 0) {
        lines.push('', `Values${field.enumOpen ? ' (others may exist)' : ''}:`);
        for (const v of field.enum) {
          const d = own(field.enumDescriptions, v);
          lines.push(`- ${code(v)}${d ? `: ${md(d)}` : ''}`);
        }
      }
      const resource = catalog.resources.get(t.type.replace(/\[\]$/, ''));
      if (resource) lines.push('', `${code(resource.name)}: ${md(resource.description)}`);
      lines.push('', `Source: document ${t.owner.source.doc}, ${md(t.owner.source.section)}`);
      parts.push(lines.join('\n'));
    } else {
      const resource = catalog.resources.get(t.type.replace(/\[\]$/, ''));
      const lines = [code(t.type) + (t.owner ? ` · a value of the map ${code(t.owner.name)}` : '')];
      if (resource) lines.push('', md(resource.description));
      parts.push(lines.join('\n'));
    }
  }
  return parts.join('\n\n---\n\n');
}

/** One documented value of an enum field, with the docs' words for it. */
export function describeFieldValue(t: PlaceType, value: string): string | undefined {
  const field = t.field;
  if (!field?.enum?.includes(value)) return undefined;
  const d = own(field.enumDescriptions, value);
  const lines = [`${code(value)} · value of **${md(field.name)}**${t.owner ? ` (${code(t.owner.name)})` : ''}`];
  if (d) lines.push('', md(d));
  return lines.join('\n');
}
