/**
 * The catalog as an OpenAPI 3.1 document (`lpreq export openapi`), so that tools that read
 * OpenAPI (Postman, Insomnia, Bruno, Prism, Schemathesis) use the same truth as the checker.
 *
 * Pure: one function of the loaded catalog, no I/O. Every operation, parameter and schema
 * comes from the catalog's data by the same rules; nothing here names an endpoint. What
 * OpenAPI cannot say (conditional requirements, conflicts, parameters ignored unless another
 * has a value, value kinds) is kept as the catalog's own rules under `x-lpreq-rules`.
 */
import { placeholderForms } from '../matcher';
import { own, setOwn } from '../own';
import type { Catalog, CatalogParameter, Endpoint, EndpointPath, Resource } from './catalog';
import type { JsonShape, Source } from './schema';

/** A JSON Schema (2020-12, the dialect of OpenAPI 3.1) or an OpenAPI object, as plain JSON. */
export type JsonObject = { [key: string]: JsonValue };
export type JsonValue = string | number | boolean | null | JsonValue[] | JsonObject;

export interface OpenApiOptions {
  /** `info.version`: the version of lpreq that wrote the document. */
  version: string;
  /** The default of the `base_url` server variable. */
  baseUrl?: string;
}

/** The document's own extensions: what each carries, for the reader of the generated file. */
const EXTENSIONS = {
  'x-lpreq-endpoint': 'the catalog id of the operation (one catalog endpoint can have several documented paths)',
  'x-lpreq-source': 'the document (A, B or C) and section the entry comes from',
  'x-lpreq-scope': 'the token scope string of the operation',
  'x-lpreq-rules': "the catalog's rules OpenAPI cannot express, as data (see schemas/CATALOG.md, Rules)",
  'x-lpreq-forms':
    'the forms a path placeholder accepts: id (digits), a SIS prefix (sis_course_id:<id>), name (any segment), date, or a literal',
  'x-lpreq-rest': 'the placeholder takes the rest of the path, slashes included',
  'x-lpreq-placeholder':
    'the name the docs give this path placeholder, where two operations of one path name it differently',
  'x-lpreq-format': 'the catalog format of a parameter value (context_code, id_or_context_code, url, http_url)',
  'x-lpreq-enum-open': 'the docs say other values exist: the listed values are examples, not a closed set',
  'x-lpreq-successor': 'the parameter that replaces a deprecated one',
  'x-lpreq-paginated': 'a paginated list: one page per request, the others through the Link header',
  'x-lpreq-beta': 'the docs call the operation beta',
  'x-lpreq-params-not-shown': 'the docs do not show all of the parameters: others are not mistakes',
  'x-enumDescriptions': "the docs' words for each enum value (read by Redoc)",
} as const;

const FORM = 'application/x-www-form-urlencoded';
const JSON_MEDIA = 'application/json';
/** Methods whose parameters travel in the query (the others send a form body). */
const QUERY_METHODS = new Set(['GET', 'DELETE', 'HEAD', 'OPTIONS']);

function ref(name: string): JsonObject {
  return { $ref: `#/components/schemas/${name}` };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

function sourceOf(source: Source): JsonObject {
  return { doc: source.doc, section: source.section };
}

/** A deep copy of catalog data as JSON (rules, notes): the document never shares objects with the catalog. */
function copy(value: unknown): JsonValue {
  return JSON.parse(JSON.stringify(value)) as JsonValue;
}

// ---------------------------------------------------------------------------------------
// Types of resource fields and of returned bodies: `Module`, `integer[]`, `object|false`.

/** A Map, so that a resource named like an Object method (`toString`) is never taken for a primitive. */
const PRIMITIVE_FIELD_TYPES = new Map<string, () => JsonObject>([
  ['integer', () => ({ type: 'integer' })],
  ['number', () => ({ type: 'number' })],
  ['string', () => ({ type: 'string' })],
  ['boolean', () => ({ type: 'boolean' })],
  // Response timestamps are ISO 8601 and may carry a UTC offset (convention 3).
  ['DateTime', () => ({ type: 'string', format: 'date-time' })],
  ['Date', () => ({ type: 'string', format: 'date' })],
  ['object', () => ({ type: 'object' })],
  ['false', () => ({ type: 'boolean', const: false })],
  ['any', () => ({})],
]);

/** An enum of documented values on a leaf of its type; integers and numbers as numbers. */
function withEnum(schema: JsonObject, values: string[] | undefined, open: boolean | undefined): JsonObject {
  if (!values || values.length === 0) return schema;
  const numeric = schema.type === 'integer' || schema.type === 'number';
  const typed = values.map((v) => (numeric && Number.isFinite(Number(v)) ? Number(v) : v));
  if (schema.type !== 'string' && !numeric) return schema;
  return open ? { ...schema, examples: typed, 'x-lpreq-enum-open': true } : { ...schema, enum: typed };
}

class SchemaNames {
  constructor(private readonly catalog: Catalog) {}

  /** The schema of a catalog type string; `enumValues` apply to its string (or number) leaves. */
  type(type: string, enumValues?: string[], enumOpen?: boolean): JsonObject {
    const alternatives = type
      .split('|')
      .map((t) => t.trim())
      .filter((t) => t.length > 0);
    if (alternatives.length === 0) return {};
    const members = alternatives.map((t) => this.single(t, enumValues, enumOpen));
    return members.length === 1 ? members[0] : { anyOf: members };
  }

  private single(type: string, enumValues: string[] | undefined, enumOpen: boolean | undefined): JsonObject {
    if (type.endsWith('[]')) return { type: 'array', items: this.single(type.slice(0, -2), enumValues, enumOpen) };
    const primitive = PRIMITIVE_FIELD_TYPES.get(type);
    if (primitive) return withEnum(primitive(), enumValues, enumOpen);
    if (this.catalog.resources.has(type) || this.catalog.externalResources.has(type)) return ref(type);
    // A name the catalog does not define (its lint reports it): anything.
    return {};
  }
}

/** Adds null to a schema: a type array where the schema has one type, `anyOf` otherwise. */
function nullable(schema: JsonObject): JsonObject {
  if (Object.keys(schema).length === 0) return schema;
  if (typeof schema.type === 'string' && schema.$ref === undefined && schema.anyOf === undefined) {
    const out: JsonObject = { ...schema, type: [schema.type, 'null'] };
    if (Array.isArray(schema.enum)) out.enum = [...schema.enum, null];
    if (schema.const !== undefined) {
      delete out.const;
      out.enum = [schema.const, null];
    }
    return out;
  }
  if (Array.isArray(schema.anyOf)) return { ...schema, anyOf: [...schema.anyOf, { type: 'null' }] };
  return { anyOf: [schema, { type: 'null' }] };
}

function resourceSchema(resource: Resource, names: SchemaNames): JsonObject {
  const properties: JsonObject = {};
  for (const field of resource.fields) {
    let schema = names.type(field.type, field.enum, field.enumOpen);
    if (field.nullable) schema = nullable(schema);
    const property: JsonObject = { ...schema };
    if (field.note) property.description = field.note;
    if (field.deprecated) property.deprecated = true;
    if (field.enumDescriptions) property['x-enumDescriptions'] = copy(field.enumDescriptions);
    setOwn(properties, field.name, property);
  }
  // What the typed check of responses holds, the schema says: a field the docs list may be
  // absent (the API sends partial objects, and `optional` fields are only sometimes there),
  // a field they do not list is a difference, except in maps (permissions, event data).
  const schema: JsonObject = { type: 'object', description: resource.description, properties };
  if (resource.valueType) schema.additionalProperties = names.type(resource.valueType);
  else if (!resource.openKeys) schema.additionalProperties = false;
  schema['x-lpreq-source'] = sourceOf(resource.source);
  return schema;
}

function externalSchema(name: string, source: Source): JsonObject {
  return {
    type: 'object',
    description: `${name}: an object the docs reference without describing its fields.`,
    'x-lpreq-source': sourceOf(source),
  };
}

// ---------------------------------------------------------------------------------------
// Parameters: one value of a documented type and format, then arrays, patterns, bodies.

function defaultValue(p: CatalogParameter): JsonValue | undefined {
  if (p.default === undefined) return undefined;
  if (p.type === 'boolean') {
    if (p.default === 'true' || p.default === '1') return true;
    if (p.default === 'false' || p.default === '0') return false;
  }
  if ((p.type === 'integer' || p.type === 'number') && Number.isFinite(Number(p.default))) return Number(p.default);
  return p.default;
}

const CONTEXT_ID = '(?:\\d+|self|sis_[a-z_]+:.+)';

function contextCodePattern(types: string[] | undefined): string {
  const prefix = types && types.length > 0 ? `(?:${types.map(escapeRegExp).join('|')})` : '[a-z]+(?:_[a-z]+)*';
  return `${prefix}_${CONTEXT_ID}`;
}

/** The schema of one value of a parameter (an element, for arrays). */
function valueSchema(p: CatalogParameter): JsonObject {
  let schema: JsonObject;
  switch (p.type) {
    case 'integer':
      schema = p.sisForms?.length
        ? {
            anyOf: [
              { type: 'integer' },
              { type: 'string', pattern: `^(?:${p.sisForms.map(escapeRegExp).join('|')}):.+$` },
            ],
          }
        : { type: 'integer' };
      break;
    case 'number':
      schema = { type: 'number' };
      break;
    case 'boolean':
      schema = { type: 'boolean' };
      break;
    case 'DateTime':
      // ISO 8601, and a date alone is ISO 8601 too (the catalog's DateTime).
      schema = { type: 'string', anyOf: [{ format: 'date-time' }, { format: 'date' }] };
      break;
    case 'Date':
      schema = { type: 'string', format: 'date' };
      break;
    case 'string':
      schema = { type: 'string' };
      break;
    case 'any':
      schema = {};
      break;
  }
  schema = withEnum(schema, p.enum, p.enumOpen);
  if (p.enumDescriptions) schema['x-enumDescriptions'] = copy(p.enumDescriptions);
  if (p.format) {
    schema['x-lpreq-format'] = p.format;
    if (p.format === 'context_code') schema.pattern = `^${contextCodePattern(p.contextTypes)}$`;
    if (p.format === 'id_or_context_code') schema.pattern = `^(?:\\d+|${contextCodePattern(p.contextTypes)})$`;
    if (p.format === 'url') schema.pattern = '^[A-Za-z][A-Za-z0-9+.-]*://\\S+$';
  }
  const fallback = defaultValue(p);
  if (fallback !== undefined) schema.default = fallback;
  // "null or empty removes ...": an empty value is meaningful, whatever the type.
  if (p.nullable) schema = { anyOf: [schema, { type: 'string', maxLength: 0 }] };
  return schema;
}

/** The schema of a parameter as sent: an array when its name repeats (`include[]`). */
function parameterSchema(p: CatalogParameter): JsonObject {
  const value = valueSchema(p);
  return p.isArray ? { type: 'array', items: value } : value;
}

/** Pieces of text as one paragraph: each ends as a sentence, empty ones are left out. */
function sentences(parts: string[]): string {
  return parts
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => (/[.!?:)]$/.test(part) ? part : `${part}.`))
    .join(' ');
}

function describeParameter(p: CatalogParameter): string {
  if (typeof p.deprecated !== 'object') return p.description;
  return sentences([p.description, `Deprecated: use ${p.deprecated.successor}.`]);
}

/** Annotations shared by a query parameter object and a form body property. */
function annotate(target: JsonObject, p: CatalogParameter): JsonObject {
  if (p.deprecated) target.deprecated = true;
  if (typeof p.deprecated === 'object') target['x-lpreq-successor'] = p.deprecated.successor;
  return target;
}

/** `permissions[{X}][enabled]` as a regular expression over the names it stands for. */
function patternRegExp(p: CatalogParameter): string {
  const [head, ...rest] = p.parsedName.segments;
  let out = `^${escapeRegExp(head)}`;
  rest.forEach((segment, i) => {
    const pattern = p.parsedName.patternAt.get(i + 1);
    if (pattern === undefined) {
      out += `\\[${escapeRegExp(segment)}\\]`;
      return;
    }
    const spec = own(p.patterns, pattern);
    // An index is written `[0]` or, as convention 2 writes arrays, `[]`.
    const inner = spec?.values?.length
      ? `(?:${spec.values.map(escapeRegExp).join('|')})`
      : spec?.index
        ? '\\d*'
        : '[^\\[\\]]+';
    out += `\\[${inner}\\]`;
  });
  return `${out}$`;
}

function patternDescription(p: CatalogParameter): string {
  const segments = Object.entries(p.patterns ?? {}).map(([name, spec]) => `{${name}}: ${spec.description}`);
  return sentences([`${p.name}: ${p.description}`, ...segments]);
}

// ---------------------------------------------------------------------------------------
// Paths: placeholders as path parameters with the forms they accept.

function formsSchema(forms: Set<string>): JsonObject {
  if (forms.has('name')) return { type: 'string' };
  if (forms.size === 1 && forms.has('id')) return { type: 'integer', minimum: 0 };
  if (forms.size === 1 && forms.has('date')) return { type: 'string', format: 'date' };
  const alternatives = [...forms].map((form) => {
    if (form === 'id') return '\\d+';
    if (form === 'date') return '\\d{4}-\\d{2}-\\d{2}';
    if (form.startsWith('sis_')) return `${escapeRegExp(form)}:.+`;
    return escapeRegExp(form);
  });
  return { type: 'string', pattern: `^(?:${alternatives.join('|')})$` };
}

function describeForms(forms: Set<string>): string {
  const words = [...forms].map((form) => {
    if (form === 'id') return 'an id';
    if (form === 'name') return 'a name';
    if (form === 'date') return 'a date (yyyy-mm-dd)';
    if (form.startsWith('sis_')) return `${form}:<id>`;
    return `\`${form}\``;
  });
  return `Accepts ${words.join(', ')}.`;
}

/** The OpenAPI path of a template: `{*full_path}` is written `{full_path}`. */
function openApiPath(template: string, rename: Map<string, string>): string {
  return template.replace(/\{\*?(\w+)\}/g, (_, name: string) => `{${rename.get(name) ?? name}}`);
}

/** Templates that differ only in their placeholders' names are one OpenAPI path: the first one seen names them. */
function pathShape(template: string): string {
  return template.replace(/\{\*?\w+\}/g, '{}');
}

// ---------------------------------------------------------------------------------------
// Responses and bodies.

function jsonShapeSchema(shape: JsonShape): JsonObject {
  let schema: JsonObject = shape.type === 'any' ? {} : { type: shape.type };
  if (shape.description) schema.description = shape.description;
  if (shape.properties)
    schema.properties = Object.fromEntries(Object.entries(shape.properties).map(([k, v]) => [k, jsonShapeSchema(v)]));
  if (shape.additionalProperties) schema.additionalProperties = jsonShapeSchema(shape.additionalProperties);
  if (shape.required?.length) schema.required = [...shape.required];
  if (shape.items) schema.items = jsonShapeSchema(shape.items);
  if (shape.minItems !== undefined) schema.minItems = shape.minItems;
  if (shape.maxItems !== undefined) schema.maxItems = shape.maxItems;
  if (shape.minimum !== undefined) schema.minimum = shape.minimum;
  if (shape.nullable) schema = nullable(schema);
  return schema;
}

function responsesOf(endpoint: Endpoint, names: SchemaNames): JsonObject {
  const status = endpoint.successStatus ?? 200;
  const success: JsonObject = {
    description: endpoint.returns
      ? `Returns ${endpoint.returns}.`
      : status === 204
        ? 'No Content.'
        : 'Success; the docs do not show the response body.',
  };
  if (endpoint.returns && status !== 204) success.content = { [JSON_MEDIA]: { schema: names.type(endpoint.returns) } };
  if (endpoint.paginated) {
    success.headers = {
      Link: {
        description: 'Links to the other pages of the list (rel="next", "prev", "first", "last").',
        schema: { type: 'string' },
      },
    };
  }
  const responses: JsonObject = { [String(status)]: success };
  const errors = new Map<number, string[]>();
  for (const e of endpoint.errors ?? []) errors.set(e.status, [...(errors.get(e.status) ?? []), e.condition]);
  for (const [code, conditions] of [...errors].sort((a, b) => a[0] - b[0])) {
    setOwn(responses, String(code), { description: conditions.join('; ') });
  }
  return responses;
}

/** The summary: the docs' words for the operation, up to the end of its first sentence. */
function summaryOf(purpose: string): string {
  const end = purpose.search(/\.\s/);
  const sentence = end === -1 ? purpose : purpose.slice(0, end);
  return sentence.replace(/\.$/, '');
}

function descriptionOf(endpoint: Endpoint): string {
  const lines = [endpoint.purpose];
  if (endpoint.paginated) lines.push('', 'Paginated: one page per request (convention 7).');
  if (endpoint.beta) lines.push('', 'Beta: may change incompatibly.');
  if (endpoint.paramsNotShown) lines.push('', 'The docs do not show all of the parameters of this operation.');
  if (endpoint.notes?.length) lines.push('', ...endpoint.notes.map((n) => `- ${n}`));
  lines.push('', `Document ${endpoint.source.doc}, section "${endpoint.source.section}".`);
  return lines.join('\n');
}

interface OperationContext {
  endpoint: Endpoint;
  path: EndpointPath;
  /** Placeholder names of this template to the names of the OpenAPI path it is written under. */
  rename: Map<string, string>;
  operationId: string;
}

function operationOf(catalog: Catalog, names: SchemaNames, ctx: OperationContext): JsonObject {
  const { endpoint, path, rename } = ctx;
  const placeholders = path.segments.flatMap((s) => (s.kind === 'placeholder' ? [s] : []));
  const placeholderNames = new Set(placeholders.map((s) => s.name));
  // A parameter the path carries (named like a placeholder, or `inPath`) is that path parameter.
  const carriedBy = (p: CatalogParameter): string | undefined =>
    p.inPath !== undefined && placeholderNames.has(p.inPath)
      ? p.inPath
      : placeholderNames.has(p.name)
        ? p.name
        : undefined;

  const parameters: JsonValue[] = placeholders.map((s) => {
    const forms = placeholderForms(catalog, endpoint, path, s.name);
    const carried = endpoint.params.filter((p) => carriedBy(p) === s.name);
    const words = [
      own(catalog.placeholders, s.name)?.description ?? s.name,
      ...carried.map((p) => `${p.name}: ${p.description}`),
      s.rest ? 'Takes the rest of the path, slashes included.' : '',
      describeForms(forms),
    ];
    const parameter: JsonObject = {
      name: rename.get(s.name) ?? s.name,
      in: 'path',
      required: true,
      description: sentences(words),
      schema: formsSchema(forms),
      'x-lpreq-forms': [...forms],
    };
    if (s.rest) parameter['x-lpreq-rest'] = true;
    if (rename.has(s.name)) parameter['x-lpreq-placeholder'] = s.name;
    return parameter;
  });
  for (const header of endpoint.headers ?? []) {
    parameters.push({ name: header.name, in: 'header', description: header.description, schema: { type: 'string' } });
  }

  const sent = endpoint.params.filter((p) => carriedBy(p) === undefined);
  let requestBody: JsonObject | undefined;
  if (endpoint.body === 'json') {
    // The JSON body is the whole request: form parameters are not read (json-body-expected).
    if (endpoint.jsonBody)
      requestBody = { required: true, content: { [JSON_MEDIA]: { schema: jsonShapeSchema(endpoint.jsonBody) } } };
  } else if (QUERY_METHODS.has(endpoint.method)) {
    for (const p of sent) {
      if (p.isPattern) continue;
      const parameter: JsonObject = {
        name: p.name,
        in: 'query',
        description: describeParameter(p),
        schema: parameterSchema(p),
      };
      if (p.required) parameter.required = true;
      if (p.isArray) Object.assign(parameter, { style: 'form', explode: true });
      parameters.push(annotate(parameter, p));
    }
  } else if (sent.length > 0 || endpoint.paramsNotShown) {
    const properties: JsonObject = {};
    const patternProperties: JsonObject = {};
    const encoding: JsonObject = {};
    const required: string[] = [];
    for (const p of sent) {
      const schema = annotate({ ...parameterSchema(p), description: describeParameter(p) }, p);
      if (p.isPattern) {
        setOwn(patternProperties, patternRegExp(p), { ...schema, description: patternDescription(p) });
        continue;
      }
      setOwn(properties, p.name, schema);
      if (p.required) required.push(p.name);
      // Each value of an array is its own field, `include[]=a&include[]=b`.
      if (p.isArray) setOwn(encoding, p.name, { style: 'form', explode: true });
    }
    const schema: JsonObject = { type: 'object', properties };
    if (Object.keys(patternProperties).length > 0) schema.patternProperties = patternProperties;
    if (required.length > 0) schema.required = required;
    const media: JsonObject = { schema };
    if (Object.keys(encoding).length > 0) media.encoding = encoding;
    requestBody = { content: { [FORM]: media } };
    if (required.length > 0) requestBody.required = true;
  }

  const operation: JsonObject = {
    operationId: ctx.operationId,
    summary: summaryOf(endpoint.purpose),
    description: descriptionOf(endpoint),
    tags: [endpoint.source.section],
  };
  if (endpoint.deprecated || path.deprecated) operation.deprecated = true;
  if (parameters.length > 0) operation.parameters = parameters;
  if (requestBody) operation.requestBody = requestBody;
  operation.responses = responsesOf(endpoint, names);
  operation['x-lpreq-endpoint'] = endpoint.id;
  operation['x-lpreq-source'] = sourceOf(endpoint.source);
  operation['x-lpreq-scope'] = path.scope;
  if (endpoint.paginated) operation['x-lpreq-paginated'] = true;
  if (endpoint.beta) operation['x-lpreq-beta'] = true;
  if (endpoint.paramsNotShown) operation['x-lpreq-params-not-shown'] = true;
  if (endpoint.rules.length > 0) operation['x-lpreq-rules'] = copy(endpoint.rules);
  return operation;
}

/** Operation ids: the catalog id for an endpoint's first path, the id and what sets a further path apart for the others. */
function operationIds(endpoint: Endpoint, taken: Set<string>): string[] {
  const literals = (p: EndpointPath) => p.segments.flatMap((s) => (s.kind === 'literal' ? [s.text] : []));
  const first = new Set(endpoint.paths.length > 0 ? literals(endpoint.paths[0]) : []);
  return endpoint.paths.map((path, i) => {
    let id = endpoint.id;
    if (i > 0) {
      const own = literals(path).filter((t) => !first.has(t));
      id = own.length > 0 ? `${endpoint.id}.${own.join('_')}` : `${endpoint.id}.${i + 1}`;
    }
    for (let n = 2; taken.has(id); n++) id = `${endpoint.id}.${i + 1}_${n}`;
    taken.add(id);
    return id;
  });
}

/**
 * The catalog as an OpenAPI 3.1 document. The same catalog gives the same document, key
 * order included, so the output can be committed and compared.
 */
export function catalogToOpenApi(catalog: Catalog, options: OpenApiOptions): JsonObject {
  const names = new SchemaNames(catalog);
  const paths: JsonObject = {};
  const canonical = new Map<string, string>();
  const takenIds = new Set<string>();
  const tags = new Map<string, Source[]>();

  for (const endpoint of catalog.endpoints) {
    const ids = operationIds(endpoint, takenIds);
    const sources = tags.get(endpoint.source.section) ?? [];
    if (!sources.some((s) => s.doc === endpoint.source.doc)) sources.push(endpoint.source);
    tags.set(endpoint.source.section, sources);
    endpoint.paths.forEach((path, i) => {
      const shape = pathShape(path.template);
      const first = canonical.get(shape) ?? path.template;
      canonical.set(shape, first);
      const ours = [...path.template.matchAll(/\{\*?(\w+)\}/g)].map((m) => m[1]);
      const theirs = [...first.matchAll(/\{\*?(\w+)\}/g)].map((m) => m[1]);
      const rename = new Map(
        ours.flatMap((name, k) => (theirs[k] !== name ? [[name, theirs[k]] as [string, string]] : [])),
      );
      const key = openApiPath(path.template, rename);
      if (!Object.hasOwn(paths, key)) setOwn(paths, key, {});
      const item = own(paths, key) as JsonObject;
      const method = endpoint.method.toLowerCase();
      // Two catalog endpoints on one method and path would be one OpenAPI operation: the first is kept.
      if (own(item, method) !== undefined) return;
      setOwn(item, method, operationOf(catalog, names, { endpoint, path, rename, operationId: ids[i] }));
    });
  }

  const schemas: JsonObject = {};
  for (const resource of [...catalog.resources.values()].sort((a, b) => a.name.localeCompare(b.name))) {
    setOwn(schemas, resource.name, resourceSchema(resource, names));
  }
  for (const [name, source] of [...catalog.externalResources].sort((a, b) => a[0].localeCompare(b[0]))) {
    if (!catalog.resources.has(name)) setOwn(schemas, name, externalSchema(name, source));
  }

  const tagList = [...tags].map(([name, sources]) => ({
    name,
    description: sources.map((s) => `Document ${s.doc}, section "${s.section}".`).join(' '),
  }));
  const tagGroups = ['A', 'B', 'C']
    .map((doc) => ({
      name: `Document ${doc}`,
      tags: [...tags].filter(([, sources]) => sources.some((s) => s.doc === doc)).map(([name]) => name),
    }))
    .filter((g) => g.tags.length > 0);

  return {
    openapi: '3.1.0',
    info: {
      title: 'Learning Platform API',
      version: options.version,
      description: [
        'The Learning Platform API as its documentation (documents A, B and C) describes it, exported by `lpreq export openapi` from the catalog lpreq checks requests with.',
        '',
        'Parameters are sent as form fields (a query for GET and DELETE), with the bracket names of the docs: `module_item[content_id]`, arrays as `include[]` once per value. A few endpoints take a JSON body. Rules OpenAPI cannot express (a parameter required when another has a value, parameters that conflict or are ignored) are listed on each operation as `x-lpreq-rules`; `lpreq check` and `lpreq mock` apply them.',
        '',
        'Extensions: ' +
          Object.entries(EXTENSIONS)
            .map(([k, v]) => `\`${k}\`: ${v}`)
            .join('; ') +
          '.',
      ].join('\n'),
    },
    servers: [
      {
        url: '{base_url}',
        description: 'The instance: {base_url} of the docs (convention 1); `lpreq mock` serves http://127.0.0.1:4010.',
        variables: {
          base_url: {
            default: options.baseUrl ?? 'http://127.0.0.1:4010',
            description: 'The base address of the instance, without a trailing slash.',
          },
        },
      },
    ],
    security: [{ bearerAuth: [] }],
    tags: tagList,
    'x-tagGroups': tagGroups,
    paths,
    components: {
      schemas,
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'The access token, sent as `Authorization: Bearer <token>`.',
        },
      },
    },
  };
}
