/**
 * The catalog as plain facts for an agent: an endpoint (`describe_endpoint`, the resource
 * `lpreq://endpoints/{method}/{path}`) and a resource (`describe_resource`,
 * `lpreq://resources/{name}`), in the docs' words. Each is read from the catalog, as hover
 * and completion read it; nothing here says what the docs do not.
 */
import {
  closest,
  EndpointMatcher,
  pagingOf,
  parameterRules,
  targetPath,
  typeLabel,
  type Catalog,
  type Endpoint,
  type Resource,
} from '../core/index';
import { ToolInputError } from './errors';

export interface ParameterFacts {
  name: string;
  type: string;
  required: boolean;
  /** Required in some requests, by a rule of the endpoint (its words are in `rules`). */
  conditionallyRequired?: boolean;
  enum?: string[];
  enumOpen?: boolean;
  /** The docs' words for each value, where they give them. */
  enumDescriptions?: Record<string, string>;
  default?: string;
  description?: string;
  deprecated?: boolean | string;
  /** What the rules of the endpoint say of this parameter, in the docs' words. */
  rules?: string[];
}

export interface EndpointFacts {
  id: string;
  method: string;
  /** The path asked about, as the docs write it. */
  path: string;
  /** Every documented path of the operation (course, account, group, user forms). */
  paths: { path: string; deprecated?: boolean }[];
  summary: string;
  /** The docs' document and section heading. */
  section: { document: string; heading: string };
  /** The token scope string of the path. */
  scope: string;
  body: 'form' | 'json';
  parameters: ParameterFacts[];
  /** Parameters the docs do not list (a listing cut off): others are not reported unknown. */
  parametersNotShown?: boolean;
  /** The JSON body's shape (a subset of JSON Schema), for an endpoint that takes one. */
  jsonBody?: unknown;
  returns: { resource: string; fields: string[] } | null;
  successStatus: number;
  errors?: { status: number; condition: string }[];
  /** How a list pages: `link` (Link headers), `start-key` (the StartKey header), absent when it does not. */
  paging?: 'link' | 'start-key';
  beta?: boolean;
  deprecated?: boolean;
  notes?: string[];
}

export interface ResourceFacts {
  name: string;
  description: string;
  section: { document: string; heading: string };
  fields: {
    name: string;
    type: string;
    nullable?: boolean;
    optional?: boolean;
    enum?: string[];
    enumOpen?: boolean;
    note?: string;
    deprecated?: boolean;
  }[];
  /** Keys not listed are normal (a map such as `permissions`). */
  openKeys?: boolean;
  /** The type of every value of a map-like object. */
  valueType?: string;
  /** The operations that return it (alone, in a list or wrapped). */
  returnedBy: { method: string; path: string; id: string; as: string }[];
}

/** `/api/v1/courses/{x}/modules` and `/api/v1/courses/{course_id}/modules` are one template. */
const templateKey = (path: string) => path.replace(/\{\*?[^{}]*\}/g, '{}');

/** The path of a URL or a path: no origin, no query, no fragment. */
function pathOf(text: string): string {
  let path = text.trim();
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(path);
  if (scheme) path = path.slice(scheme[0].length) || '/';
  path = path.replace(/^\{\{[^{}]*\}\}/, '');
  const cut = path.search(/[?#]/);
  return cut === -1 ? path : path.slice(0, cut);
}

/**
 * The documented endpoint of a method and a path: a template as the docs write it (any
 * placeholder names), or a path with values (`/api/v1/courses/42/modules`). A ToolInputError
 * names the argument and the nearest documented paths otherwise.
 */
export function findEndpoint(
  catalog: Catalog,
  matcher: EndpointMatcher,
  methodText: string,
  pathText: string,
): { endpoint: Endpoint; template: string } {
  const method = methodText.trim().toUpperCase();
  const path = pathOf(pathText);
  if (!path.startsWith('/')) throw new ToolInputError('path', `'${pathText}' is not a path: give it from /api/...`);
  const key = templateKey(path);
  const sameTemplate = catalog.endpoints.flatMap((e) =>
    e.paths.filter((p) => templateKey(p.template) === key).map((p) => ({ endpoint: e, template: p.template })),
  );
  const exact = sameTemplate.find((x) => x.endpoint.method === method);
  if (exact) return exact;
  const target = targetPath(path, () => undefined);
  const match = target && !key.includes('{}') ? matcher.match(target, method) : undefined;
  if (match?.kind === 'matched') return { endpoint: match.endpoint, template: match.path.template };
  const allowed = sameTemplate.length > 0 ? sameTemplate.map((x) => x.endpoint.method) : undefined;
  if (allowed ?? match?.kind === 'method-not-allowed') {
    const methods = allowed ?? (match?.kind === 'method-not-allowed' ? match.allowed : []);
    throw new ToolInputError('method', `${path} is documented for ${[...new Set(methods)].join(', ')}, not ${method}`);
  }
  const templates = catalog.endpoints.flatMap((e) => e.paths.map((p) => p.template));
  const near = (match?.kind === 'unknown-endpoint' ? match.near : undefined) ?? closest(path, templates);
  throw new ToolInputError(
    'path',
    `no documented endpoint has the path ${path}${near ? `; did you mean ${near}?` : ''} (search_endpoints finds one by its words)`,
  );
}

/** A rule's sentence as hover writes it (Markdown) in plain words: no code spans, no escapes. */
function plainText(markdown: string): string {
  return markdown.replace(/`/g, '').replace(/\\([\\`*_{}[\]()#+\-.!|<>~])/g, '$1');
}

/** The returned type's resource name: `Module` of `Module[]`. */
const resourceName = (returns: string) => returns.replace(/\[\]$/, '');

export function endpointFacts(catalog: Catalog, endpoint: Endpoint, template: string): EndpointFacts {
  const path = endpoint.paths.find((p) => p.template === template) ?? endpoint.paths[0];
  const parameters = endpoint.params.map((p): ParameterFacts => {
    const { conditionallyRequired, notes } = parameterRules(endpoint, p.name);
    return {
      name: p.name,
      type: typeLabel(p),
      required: p.required === true,
      ...(conditionallyRequired ? { conditionallyRequired } : {}),
      ...(p.enum ? { enum: p.enum } : {}),
      ...(p.enumOpen ? { enumOpen: true } : {}),
      ...(p.enumDescriptions && Object.keys(p.enumDescriptions).length > 0
        ? { enumDescriptions: { ...p.enumDescriptions } }
        : {}),
      ...(p.default !== undefined ? { default: p.default } : {}),
      ...(p.description ? { description: p.description } : {}),
      ...(p.deprecated
        ? { deprecated: typeof p.deprecated === 'object' ? `use ${p.deprecated.successor}` : true }
        : {}),
      ...(notes.length > 0 ? { rules: notes.map(plainText) } : {}),
    };
  });
  const resource = endpoint.returns ? catalog.resources.get(resourceName(endpoint.returns)) : undefined;
  const paging = pagingOf(endpoint);
  return {
    id: endpoint.id,
    method: endpoint.method,
    path: path.template,
    paths: endpoint.paths.map((p) => ({ path: p.template, ...(p.deprecated ? { deprecated: true } : {}) })),
    summary: endpoint.purpose,
    section: { document: endpoint.source.doc, heading: endpoint.source.section },
    scope: path.scope,
    body: endpoint.body,
    parameters,
    ...(endpoint.paramsNotShown ? { parametersNotShown: true } : {}),
    ...(endpoint.jsonBody ? { jsonBody: endpoint.jsonBody } : {}),
    returns: endpoint.returns
      ? {
          resource: endpoint.returns,
          fields: resource ? resource.fields.map((f) => `${f.name}: ${f.type}${f.nullable ? ' | null' : ''}`) : [],
        }
      : null,
    successStatus: endpoint.successStatus ?? 200,
    ...(endpoint.errors && endpoint.errors.length > 0 ? { errors: endpoint.errors } : {}),
    ...(paging ? { paging } : {}),
    ...(endpoint.beta ? { beta: true } : {}),
    ...(endpoint.deprecated || path.deprecated ? { deprecated: true } : {}),
    ...(endpoint.notes && endpoint.notes.length > 0 ? { notes: endpoint.notes } : {}),
  };
}

/** The resource a name gives, in any case (`moduleitem` is ModuleItem); a ToolInputError names the nearest. */
export function findResource(catalog: Catalog, nameText: string): Resource {
  const name = resourceName(nameText.trim());
  const exact = catalog.resources.get(name);
  if (exact) return exact;
  const names = [...catalog.resources.keys()];
  const folded = names.find((n) => n.toLowerCase() === name.toLowerCase());
  if (folded) return catalog.resources.get(folded)!;
  const near = closest(name, names);
  throw new ToolInputError(
    'name',
    `no documented resource is called '${nameText}'${near ? `; did you mean ${near}?` : ''}`,
  );
}

export function resourceFacts(catalog: Catalog, resource: Resource): ResourceFacts {
  const returnedBy = catalog.endpoints
    .filter((e) => e.returns !== null && returnsResource(catalog, e.returns, resource.name))
    .map((e) => ({ method: e.method, path: e.paths[0].template, id: e.id, as: e.returns ?? '' }));
  return {
    name: resource.name,
    description: resource.description,
    section: { document: resource.source.doc, heading: resource.source.section },
    fields: resource.fields.map((f) => ({
      name: f.name,
      type: f.type,
      ...(f.nullable ? { nullable: true } : {}),
      ...(f.optional ? { optional: true } : {}),
      ...(f.enum ? { enum: f.enum } : {}),
      ...(f.enumOpen ? { enumOpen: true } : {}),
      ...(f.note ? { note: f.note } : {}),
      ...(f.deprecated ? { deprecated: true } : {}),
    })),
    ...(resource.openKeys ? { openKeys: true } : {}),
    ...(resource.valueType ? { valueType: resource.valueType } : {}),
    returnedBy,
  };
}

/** Whether `returns` (`Module[]`, `A|B[]`, a wrapper whose field holds it) gives `name`. */
function returnsResource(catalog: Catalog, returns: string, name: string): boolean {
  for (const alternative of returns.split('|')) {
    const base = resourceName(alternative.trim());
    if (base === name) return true;
    // A wrapper (GradingPeriodList: { grading_periods: GradingPeriod[] }).
    const wrapper = catalog.resources.get(base);
    if (wrapper?.fields.some((f) => f.type.split('|').some((t) => resourceName(t.trim()) === name))) return true;
  }
  return false;
}

/** A short text of an endpoint's facts, for an agent that reads text. */
export function endpointText(f: EndpointFacts): string {
  const lines = [`${f.method} ${f.path} (${f.id}): ${f.summary}`];
  const required = f.parameters.filter((p) => p.required).map((p) => p.name);
  const conditional = f.parameters.filter((p) => p.conditionallyRequired).map((p) => p.name);
  if (required.length > 0) lines.push(`required: ${required.join(', ')}`);
  if (conditional.length > 0) lines.push(`required under conditions: ${conditional.join(', ')}`);
  lines.push(`${f.parameters.length} parameters, ${f.body === 'json' ? 'a JSON body' : 'form parameters'}`);
  lines.push(`returns: ${f.returns ? f.returns.resource : 'not documented'} (status ${f.successStatus})`);
  if (f.paging) lines.push(`pages by ${f.paging === 'link' ? 'Link headers' : 'the StartKey header'}`);
  lines.push(`scope: ${f.scope}`);
  lines.push(`docs: document ${f.section.document}, ${f.section.heading}`);
  return lines.join('\n');
}

export function resourceText(f: ResourceFacts): string {
  return [
    `${f.name}: ${f.description}`,
    `fields: ${f.fields.map((x) => `${x.name} (${x.type}${x.nullable ? ', nullable' : ''})`).join(', ')}`,
    f.returnedBy.length > 0
      ? `returned by: ${f.returnedBy.map((r) => `${r.method} ${r.path}`).join(', ')}`
      : 'returned by no documented endpoint directly',
  ].join('\n');
}
