/**
 * Typed responses: a response body against the resource the catalog names for the
 * endpoint (`Module`, `Module[]`, `QuizSubmissionList`, `Submission[]|StudentSubmissionGroup[]`).
 *
 * The check builds zod schemas from the catalog's resources, once per catalog. A response
 * is never rejected: every difference is an issue, information for the person reading it.
 * A field the docs list but the body lacks is normal (the API sends partial objects), so
 * absence is never an issue; a value of another type, a field the docs do not describe and
 * a value outside a closed enum are.
 */
import * as z from 'zod';
import { type Catalog, type Resource, type Field, isDate, isDateTime, own, setOwn } from '../core/index';

export type ResponseIssueCode = 'type-mismatch' | 'undocumented-field' | 'unknown-enum-value';

export interface ResponseIssue {
  /** A JSON path into the body: `$`, `$[0].items_count`, `$.grading_periods[1].title`. */
  path: string;
  code: ResponseIssueCode;
  message: string;
}

export interface TypedResult {
  /** The documented type of the body (`Module[]`), or null when the docs name none. */
  resource: string | null;
  issues: ResponseIssue[];
}

/** Marks our own checks, so the mapping from zod issues back to ours needs no guessing. */
interface LeafParams {
  lpreq: ResponseIssueCode;
  /** The documented type or the enum values, for the message. */
  expected: string;
}

const PRIMITIVES: Record<string, (v: unknown) => boolean> = {
  integer: (v) => typeof v === 'number' && Number.isInteger(v),
  number: (v) => typeof v === 'number' && Number.isFinite(v),
  string: (v) => typeof v === 'string',
  boolean: (v) => typeof v === 'boolean',
  DateTime: (v) => typeof v === 'string' && isDateTime(v),
  Date: (v) => typeof v === 'string' && isDate(v),
  object: (v) => typeof v === 'object' && v !== null && !Array.isArray(v),
  false: (v) => v === false,
  any: () => true,
};

/** Splits `A|B[]` into its alternatives. */
function alternatives(type: string): string[] {
  return type
    .split('|')
    .map((t) => t.trim())
    .filter((t) => t.length > 0);
}

/** A value of a primitive type, with its documented values when the enum is closed. */
function leaf(type: string, fits: (v: unknown) => boolean, enumValues: string[] | undefined): z.ZodType {
  const allowed = enumValues && enumValues.length > 0 ? new Set(enumValues) : undefined;
  return z.unknown().superRefine((v, ctx) => {
    if (!fits(v)) {
      ctx.addIssue({ code: 'custom', params: { lpreq: 'type-mismatch', expected: type } satisfies LeafParams });
    } else if (allowed && !allowed.has(String(v))) {
      ctx.addIssue({
        code: 'custom',
        params: { lpreq: 'unknown-enum-value', expected: [...allowed].join(', ') } satisfies LeafParams,
      });
    }
  });
}

class SchemaBuilder {
  private readonly byType = new Map<string, z.ZodType>();
  private readonly byResource = new Map<string, z.ZodType>();

  constructor(private readonly catalog: Catalog) {}

  /** The schema of a type string, without field-level nullability or enums. */
  type(type: string): z.ZodType {
    let schema = this.byType.get(type);
    if (!schema) {
      schema = this.build(type, undefined);
      this.byType.set(type, schema);
    }
    return schema;
  }

  private build(type: string, enumValues: Field['enum'] | undefined): z.ZodType {
    const alts = alternatives(type);
    if (alts.length === 0) return z.unknown();
    if (alts.length === 1) return this.single(alts[0], enumValues);
    const members = alts.map((a) => this.single(a, enumValues));
    return z.union(members as [z.ZodType, z.ZodType, ...z.ZodType[]]);
  }

  private single(type: string, enumValues: Field['enum'] | undefined): z.ZodType {
    if (type.endsWith('[]')) {
      const element = type.slice(0, -2);
      const inner = enumValues ? this.single(element, enumValues) : this.type(element);
      return z.array(inner, { error: () => type });
    }
    const primitive = own(PRIMITIVES, type);
    if (primitive) return leaf(type, primitive, enumValues);
    return z.lazy(() => this.resource(type));
  }

  /** A named resource, an external resource (any object) or an unknown name (anything). */
  private resource(name: string): z.ZodType {
    let schema = this.byResource.get(name);
    if (schema) return schema;
    const resource = this.catalog.resources.get(name);
    if (resource) {
      schema = this.object(resource);
    } else if (this.catalog.externalResources.has(name)) {
      schema = leaf(name, PRIMITIVES.object, undefined);
    } else {
      schema = z.unknown();
    }
    this.byResource.set(name, schema);
    return schema;
  }

  private object(resource: Resource): z.ZodType {
    const shape: Record<string, z.ZodType> = {};
    for (const field of resource.fields) {
      let schema = field.enum && !field.enumOpen ? this.build(field.type, field.enum) : this.type(field.type);
      if (field.nullable) schema = schema.nullable();
      setOwn(shape, field.name, schema.optional());
    }
    // The error option names the resource in type and unrecognized-key issues.
    const options = { error: () => resource.name };
    if (resource.valueType) return z.object(shape, options).catchall(this.type(resource.valueType));
    if (resource.openKeys) return z.looseObject(shape, options);
    return z.strictObject(shape, options);
  }
}

const builders = new WeakMap<Catalog, SchemaBuilder>();

function builderFor(catalog: Catalog): SchemaBuilder {
  let builder = builders.get(catalog);
  if (!builder) {
    builder = new SchemaBuilder(catalog);
    builders.set(catalog, builder);
  }
  return builder;
}

/** `$`, `$[0]`, `$.name`, `$["odd key"]`. */
export function formatJsonPath(path: readonly PropertyKey[]): string {
  let out = '$';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else if (typeof seg === 'string' && /^[A-Za-z_$][\w$]*$/.test(seg)) out += `.${seg}`;
    else out += `[${JSON.stringify(String(seg))}]`;
  }
  return out;
}

function valueAt(body: unknown, path: readonly PropertyKey[]): unknown {
  let v = body;
  for (const seg of path) {
    if (v === null || typeof v !== 'object') return undefined;
    if (typeof seg === 'number') v = Array.isArray(v) ? (v[seg] as unknown) : undefined;
    else v = typeof seg === 'string' ? own(v as Record<string, unknown>, seg) : undefined;
  }
  return v;
}

/**
 * A short description of a value for messages: `string "12"`, `null`, `an array`. A long
 * string is cut, after `scrub` (the caller's secrets as `***`): a cut made first could end
 * inside a secret, and no scrubber afterwards knows the start of one.
 */
export function describeValue(v: unknown, scrub: (text: string) => string = (t) => t): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') {
    const text = scrub(v);
    const shown = text.length > 40 ? `${text.slice(0, 37)}...` : text;
    return `string ${JSON.stringify(shown)}`;
  }
  if (typeof v === 'number') return Number.isInteger(v) ? `integer ${v}` : `number ${v}`;
  return `${typeof v} ${String(v)}`;
}

type ZodIssue = z.core.$ZodIssue;

function mapIssues(
  issues: readonly ZodIssue[],
  prefix: readonly PropertyKey[],
  body: unknown,
  out: ResponseIssue[],
  scrub: (text: string) => string,
) {
  for (const issue of issues) {
    const path = [...prefix, ...issue.path];
    const value = valueAt(body, path);
    switch (issue.code) {
      case 'unrecognized_keys':
        for (const key of issue.keys) {
          out.push({
            path: formatJsonPath([...path, key]),
            code: 'undocumented-field',
            message: `${key} is not a documented field of ${issue.message}`,
          });
        }
        break;
      case 'invalid_union': {
        // Report the alternative that fits best; when none fits even roughly, one mismatch.
        const arms = issue.errors.map((errs) => {
          const mapped: ResponseIssue[] = [];
          mapIssues(errs, path, body, mapped, scrub);
          return mapped;
        });
        const here = formatJsonPath(path);
        const fits = arms.filter((arm) => !arm.some((i) => i.code === 'type-mismatch' && i.path === here));
        if (fits.length === 0) {
          const expected = arms.flatMap((arm) =>
            arm.filter((i) => i.path === here).map((i) => i.message.split(', got ')[0]),
          );
          out.push({
            path: here,
            code: 'type-mismatch',
            message: `${[...new Set(expected)].join(' or ')}, got ${describeValue(value, scrub)}`,
          });
        } else {
          // Differences close to the top weigh more than deep ones: a grouped submission
          // with undocumented fields deep inside is still a group, not a Submission.
          fits.sort(compareArms);
          out.push(...fits[0]);
        }
        break;
      }
      case 'custom': {
        const params = issue.params as Partial<LeafParams> | undefined;
        if (params?.lpreq === 'unknown-enum-value') {
          out.push({
            path: formatJsonPath(path),
            code: 'unknown-enum-value',
            message: `${describeValue(value, scrub)} is not one of the documented values (${params.expected})`,
          });
        } else {
          out.push({
            path: formatJsonPath(path),
            code: 'type-mismatch',
            message: `documented as ${params?.expected ?? 'another type'}, got ${describeValue(value, scrub)}`,
          });
        }
        break;
      }
      case 'invalid_type':
        out.push({
          path: formatJsonPath(path),
          code: 'type-mismatch',
          message: `documented as ${issue.message}, got ${describeValue(value, scrub)}`,
        });
        break;
      default:
        out.push({ path: formatJsonPath(path), code: 'type-mismatch', message: issue.message });
    }
  }
}

/** Orders alternatives: the one whose shallowest difference is deepest first, then fewer differences. */
function compareArms(a: ResponseIssue[], b: ResponseIssue[]): number {
  const depths = (arm: ResponseIssue[]) => arm.map((i) => parseJsonPath(i.path)?.length ?? 0).sort((x, y) => x - y);
  const da = depths(a);
  const db = depths(b);
  for (let k = 0; k < Math.min(da.length, db.length); k++) if (da[k] !== db[k]) return db[k] - da[k];
  return da.length - db.length;
}

/**
 * Checks a response body against the documented type `returns` (an endpoint's `returns`).
 * Never throws: an unknown type name or a malformed body yields issues, not an exception.
 * `scrub` is applied to a value before a message shows it cut (send.ts gives the scrubber of
 * the flow's secrets).
 */
export function checkResponse(
  catalog: Catalog,
  returns: string | null,
  body: unknown,
  scrub?: (text: string) => string,
): TypedResult {
  if (returns === null || returns.trim().length === 0) return { resource: null, issues: [] };
  try {
    const result = builderFor(catalog).type(returns).safeParse(body);
    const issues: ResponseIssue[] = [];
    if (!result.success) mapIssues(result.error.issues, [], body, issues, scrub ?? ((t) => t));
    return { resource: returns, issues: dedupe(issues) };
  } catch (e) {
    // Deeply nested input can exhaust the stack; say so instead of failing.
    return {
      resource: returns,
      issues: [{ path: '$', code: 'type-mismatch', message: `the body could not be checked: ${(e as Error).message}` }],
    };
  }
}

function dedupe(issues: ResponseIssue[]): ResponseIssue[] {
  const seen = new Set<string>();
  return issues.filter((i) => {
    const key = `${i.path}\u0000${i.code}\u0000${i.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** What the docs say about the value at a JSON path, for the response tree view. */
export interface DocumentedType {
  /** The documented type: `integer`, `DateTime`, `ModuleItem[]`, `string|integer`. */
  type: string;
  /** The docs' note on the field. */
  note?: string;
  nullable?: boolean;
  /** Present only sometimes (needs an include, only for some callers). */
  optional?: boolean;
  deprecated?: boolean;
  enum?: string[];
  enumDescriptions?: Record<string, string>;
  /** The resource the field belongs to (`Module` for `$[0].items_count`). */
  resource?: string;
  /** The resource's description, when the path points at a whole resource. */
  description?: string;
}

/** Parses `$`, `$[0].items[2].title`, `$.a.b`, `$["odd key"]`, `$['k']` into segments; undefined when malformed. */
export function parseJsonPath(path: string): (string | number)[] | undefined {
  const text = path.trim();
  if (!text.startsWith('$')) return undefined;
  const out: (string | number)[] = [];
  let i = 1;
  while (i < text.length) {
    if (text[i] === '.') {
      const m = /^[^.[\]]+/.exec(text.slice(i + 1));
      if (!m) return undefined;
      out.push(m[0]);
      i += 1 + m[0].length;
    } else if (text[i] === '[') {
      const close = text.indexOf(']', i);
      if (close === -1) return undefined;
      const inner = text.slice(i + 1, close).trim();
      if (/^\d+$/.test(inner)) out.push(Number(inner));
      else if (/^"(?:[^"\\]|\\.)*"$/.test(inner)) {
        try {
          out.push(JSON.parse(inner) as string);
        } catch {
          return undefined;
        }
      } else if (/^'[^']*'$/.test(inner)) out.push(inner.slice(1, -1));
      else return undefined;
      i = close + 1;
    } else return undefined;
  }
  return out;
}

/**
 * The documented type and field documentation at a JSON path of a response whose
 * documented type is `returns`; undefined when the docs say nothing about that place.
 */
export function describeAt(catalog: Catalog, returns: string | null, path: string): DocumentedType | undefined {
  if (returns === null) return undefined;
  const segments = parseJsonPath(path);
  if (!segments) return undefined;
  return describeSegments(catalog, { type: returns }, segments, 0);
}

function describeSegments(
  catalog: Catalog,
  current: DocumentedType,
  segments: (string | number)[],
  depth: number,
): DocumentedType | undefined {
  if (segments.length === 0) {
    const resource = catalog.resources.get(current.type);
    return resource && !current.description ? { ...current, description: resource.description } : current;
  }
  if (depth > 64) return undefined;
  const [seg, ...rest] = segments;
  for (const alt of alternatives(current.type)) {
    let next: DocumentedType | undefined;
    if (typeof seg === 'number') {
      if (alt.endsWith('[]')) next = { type: alt.slice(0, -2) };
      else {
        const resource = catalog.resources.get(alt);
        // A map whose values are arrays (`any[]`): an index into one of its values.
        if (!resource && alt === 'any') next = { type: 'any' };
      }
    } else {
      const resource = catalog.resources.get(alt);
      if (resource) {
        const field = resource.fieldByName.get(seg);
        if (field) next = fieldType(field, resource.name);
        else if (resource.valueType) next = { type: resource.valueType, resource: resource.name };
      } else if (alt === 'any' || alt === 'object') next = { type: 'any' };
    }
    if (next) {
      const found = describeSegments(catalog, next, rest, depth + 1);
      if (found) return found;
    }
  }
  return undefined;
}

function fieldType(field: Field, resource: string): DocumentedType {
  const out: DocumentedType = { type: field.type, resource };
  if (field.note) out.note = field.note;
  if (field.nullable) out.nullable = true;
  if (field.optional) out.optional = true;
  if (field.deprecated) out.deprecated = true;
  if (field.enum) out.enum = field.enum;
  if (field.enumDescriptions) out.enumDescriptions = field.enumDescriptions;
  return out;
}
