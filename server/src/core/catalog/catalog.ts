/**
 * The loaded catalog: the JSON parts checked by zod, then indexed for fast lookups.
 * Pure: it is given the parsed JSON, it never reads files.
 */
import type * as z from 'zod';
import { dict, setOwn } from '../own';
import type * as CatalogSchemas from './schema';
import type { EndpointData, Parameter, Placeholder, ResourceData, Rule, Source } from './schema';
import { splitParamName } from './parameterText';
import { indexPermissions, type Permissions } from './permissions';

let schemas: typeof CatalogSchemas | undefined;

/**
 * The zod schemas of the catalog, built on first use, so that a language server answers
 * `initialize` before zod exists (the bundler turns this require into a lazy initialiser).
 */
function catalogSchemas(): typeof CatalogSchemas {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  schemas ??= require('./schema') as typeof CatalogSchemas;
  return schemas;
}

export type Method = EndpointData['method'];

/** One segment of a path template. */
export type TemplateSegment = { kind: 'literal'; text: string } | { kind: 'placeholder'; name: string; rest: boolean };

/** One documented path of one operation. */
export interface EndpointPath {
  template: string;
  segments: TemplateSegment[];
  deprecated: boolean;
  /** Literal forms this path's placeholders accept beyond the catalog's and the endpoint's. */
  placeholderForms: Record<string, string[]> | undefined;
  /** The token scope string, `url:GET|/api/v1/courses/{course_id}/modules` (scopeOf). */
  scope: string;
}

/** A parameter name split into bracket segments, with pattern segments marked. */
export interface ParamName {
  /** `module_item`, `completion_requirement`, `type` for `module_item[completion_requirement][type]`; `` for `[]`. */
  segments: string[];
  /** Index of segments that are patterns (`{X}`), with the pattern name. */
  patternAt: Map<number, string>;
}

export interface CatalogParameter extends Parameter {
  parsedName: ParamName;
  /** Sent more than once is normal: the name contains `[]`. */
  isArray: boolean;
  isPattern: boolean;
}

export interface Endpoint extends Omit<EndpointData, 'paths' | 'params'> {
  paths: EndpointPath[];
  params: CatalogParameter[];
  /** Exact (non-pattern) parameters by name. */
  paramByName: Map<string, CatalogParameter>;
  patternParams: CatalogParameter[];
  /** The parameters marked Required (checked on every request). */
  requiredParams: CatalogParameter[];
  rules: Rule[];
  body: 'form' | 'json';
}

export interface Resource extends ResourceData {
  fieldByName: Map<string, ResourceData['fields'][number]>;
}

export interface Catalog {
  endpoints: Endpoint[];
  placeholders: Record<string, Placeholder>;
  resources: Map<string, Resource>;
  externalResources: Map<string, Source>;
  endpointById: Map<string, Endpoint>;
  /** Document A, Roles: the permission names and their defaults by role, when the catalog gives them. */
  permissions: Permissions | undefined;
}

export class CatalogError extends Error {}

function parseParamName(name: string): ParamName {
  const segments = splitParamName(name);
  if (!segments) throw new CatalogError(`parameter name is not bracket notation: ${name}`);
  const patternAt = new Map<number, string>();
  segments.forEach((segment, index) => {
    const m = /^\{(\w+)\}$/.exec(segment);
    if (m) patternAt.set(index, m[1]);
  });
  return { segments, patternAt };
}

function parseTemplate(template: string): TemplateSegment[] {
  return template
    .split('/')
    .filter((s) => s.length > 0)
    .map((text): TemplateSegment => {
      const m = /^\{(\*?)(\w+)\}$/.exec(text);
      return m ? { kind: 'placeholder', name: m[2], rest: m[1] === '*' } : { kind: 'literal', text };
    });
}

/**
 * The token scope of one documented path: `url:<METHOD>|<path pattern>` (document A,
 * conventions 8 and Authentication 2), the path pattern written as the docs write paths:
 * from `/api/v1`, placeholders as `{name}` (convention 1). The rest of a path, `{*full_path}`
 * here, is written `{full_path}` there.
 */
function scopeOf(method: string, segments: readonly TemplateSegment[]): string {
  const pattern = segments.map((s) => (s.kind === 'literal' ? s.text : `{${s.name}}`)).join('/');
  return `url:${method}|/${pattern}`;
}

function formatZodError(file: string, error: z.ZodError): string {
  const first = error.issues.slice(0, 5).map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
  return `catalog file ${file} does not match the catalog schema:\n${first.join('\n')}`;
}

/**
 * Checks the catalog parts and builds the index. Throws CatalogError with a readable
 * message when the data is malformed: a broken catalog is a build defect, not user input.
 * `resourceFile` is the parsed resources.json, or a function that gives it: resources are
 * checked and indexed when first asked for (`catalog.resources`), and a broken resource
 * file throws there.
 */
export function loadCatalog(parts: { endpointFiles: Record<string, unknown>; resourceFile: unknown }): Catalog {
  const endpoints: Endpoint[] = [];
  const placeholders = dict<Placeholder>();
  const endpointById = new Map<string, Endpoint>();
  const files = Object.entries(parts.endpointFiles).map(([file, json]) => {
    const parsed = catalogSchemas().EndpointFileSchema.safeParse(json);
    if (!parsed.success) throw new CatalogError(formatZodError(file, parsed.error));
    return { file, data: parsed.data };
  });
  const paginationParameters = files.flatMap((f) => f.data.paginationParameters ?? []);
  const permissionTable = files.find((f) => f.data.permissions)?.data.permissions;
  for (const { file, data: fileData } of files) {
    for (const [name, placeholder] of Object.entries(fileData.placeholders ?? {}))
      setOwn(placeholders, name, placeholder);
    for (const data of fileData.endpoints) {
      if (endpointById.has(data.id)) throw new CatalogError(`duplicate endpoint id ${data.id} in ${file}`);
      const extra = data.paginated
        ? paginationParameters.filter((p) => !data.params.some((q) => q.name === p.name))
        : [];
      const endpoint = buildEndpoint(extra.length ? { ...data, params: [...data.params, ...extra] } : data);
      endpoints.push(endpoint);
      endpointById.set(endpoint.id, endpoint);
    }
  }
  // Resources serve typed responses and the mock, not checking: they are checked by zod and
  // indexed on first use, so `lpreq check` and the language server start without them.
  let loaded: { resources: Map<string, Resource>; externalResources: Map<string, Source> } | undefined;
  const loadResources = () =>
    (loaded ??= indexResources(
      typeof parts.resourceFile === 'function' ? (parts.resourceFile as () => unknown)() : parts.resourceFile,
    ));
  return {
    endpoints,
    placeholders,
    endpointById,
    permissions: permissionTable && indexPermissions(permissionTable),
    get resources() {
      return loadResources().resources;
    },
    get externalResources() {
      return loadResources().externalResources;
    },
  };
}

function indexResources(file: unknown): { resources: Map<string, Resource>; externalResources: Map<string, Source> } {
  const parsed = catalogSchemas().ResourceFileSchema.safeParse(file);
  if (!parsed.success) throw new CatalogError(formatZodError('resources.json', parsed.error));
  const resources = new Map<string, Resource>();
  for (const r of parsed.data.resources) {
    if (resources.has(r.name)) throw new CatalogError(`duplicate resource ${r.name}`);
    resources.set(r.name, { ...r, fieldByName: new Map(r.fields.map((f) => [f.name, f])) });
  }
  return { resources, externalResources: new Map(parsed.data.externalResources.map((r) => [r.name, r.source])) };
}

function buildEndpoint(data: EndpointData): Endpoint {
  const params: CatalogParameter[] = data.params.map((p) => {
    const parsedName = parseParamName(p.name);
    return {
      ...p,
      parsedName,
      isArray: parsedName.segments.slice(1).includes(''),
      isPattern: parsedName.patternAt.size > 0,
    };
  });
  const paramByName = new Map<string, CatalogParameter>();
  for (const p of params) {
    if (p.isPattern) continue;
    if (paramByName.has(p.name)) throw new CatalogError(`${data.id}: parameter ${p.name} listed twice`);
    paramByName.set(p.name, p);
  }
  const paths = data.paths.map((entry): EndpointPath => {
    const template = typeof entry === 'string' ? entry : entry.path;
    const segments = parseTemplate(template);
    return {
      template,
      segments,
      deprecated: typeof entry === 'string' ? false : entry.deprecated === true,
      placeholderForms: typeof entry === 'string' ? undefined : entry.placeholderForms,
      scope: scopeOf(data.method, segments),
    };
  });
  return {
    ...data,
    paths,
    params,
    paramByName,
    patternParams: params.filter((p) => p.isPattern),
    requiredParams: params.filter((p) => p.required),
    rules: data.rules ?? [],
    body: data.body ?? 'form',
  };
}
