/**
 * The shape of the API catalog in schemas/*.json, as zod schemas.
 *
 * The catalog is data, not code: every endpoint, parameter, rule and resource of the
 * API documentation (../shared/api-docs, documents A, B and C) is an entry here, and one
 * checker interprets the rules. Every entry cites the document and section it came from.
 */
import * as z from 'zod';
import { dictFrom } from '../own';
import { ruleSchema, type Rule } from '../rules';

// zod's default compiles a checking function per object schema with `new Function` on first
// use: code V8's code cache cannot keep, compiled again in every process. Interpreted, the
// schemas start checking the catalog sooner, and no generated code is evaluated.
z.config({ jitless: true });

/**
 * A table keyed by names (enum values, pattern segments, rule values, JSON keys, placeholders):
 * built with no prototype, so that a name a request gives (`constructor`, `toString`) finds
 * only what the docs list. Lookups go through own() all the same (eslint-rules/own-lookup.mjs).
 */
function dictOf<T extends z.ZodType>(value: T) {
  return z.record(z.string(), value).transform((record) => dictFrom(record));
}

/** A document of the API documentation and the heading (section) an entry came from. */
const SourceSchema = z.strictObject({
  doc: z.enum(['A', 'B', 'C']),
  section: z.string().min(1),
});

/**
 * The roles a visibility condition names: the enrollment types of document A and its
 * administrator (Roles: "Recognized roles: TeacherEnrollment, StudentEnrollment, TaEnrollment,
 * ObserverEnrollment, DesignerEnrollment, AccountAdmin").
 */
const ROLE_TYPES = [
  'StudentEnrollment',
  'TeacherEnrollment',
  'TaEnrollment',
  'DesignerEnrollment',
  'ObserverEnrollment',
  'AccountAdmin',
] as const;
export type RoleType = (typeof ROLE_TYPES)[number];

/**
 * Who may see or do something (issue 30): a condition on the caller, the request and the row
 * it concerns, read by one interpreter (the mock's `server/src/mock/visibility.ts`).
 * - `permission`: the caller holds it where the row is (a course: its roles' permissions, by
 *   document A's defaults; an administrator holds every one).
 * - `role`: the caller (or the user a path placeholder `of` names) has one of these roles there.
 * - `include`, `param`, `paramGroup`: the request asks `include[]=X`, sends X (with a value of
 *   `in`), sends any `X[...]`.
 * - `own`, `observed`: the row's user field is the caller, or a student the caller observes.
 * - `self`, `observerOf`: the user a path placeholder names is the caller, or observed by the caller.
 * - `field`: the row's own value is one of `in`.
 */
export type Who =
  | { permission: string }
  | { role: RoleType[]; of?: string }
  | { include: string }
  | { param: string; in?: string[] }
  | { paramGroup: string }
  | { own: string }
  | { observed: string }
  | { self: string }
  | { observerOf: string }
  | { field: string; in: string[] }
  | { anyOf: Who[] }
  | { allOf: Who[] }
  | { not: Who };
const WhoSchema: z.ZodType<Who> = z.lazy(() =>
  z.union([
    z.strictObject({ permission: z.string().min(1) }),
    z.strictObject({ role: z.array(z.enum(ROLE_TYPES)).min(1), of: z.string().optional() }),
    z.strictObject({ include: z.string().min(1) }),
    z.strictObject({ param: z.string().min(1), in: z.array(z.string()).min(1).optional() }),
    z.strictObject({ paramGroup: z.string().min(1) }),
    z.strictObject({ own: z.string().min(1) }),
    z.strictObject({ observed: z.string().min(1) }),
    z.strictObject({ self: z.string().min(1) }),
    z.strictObject({ observerOf: z.string().min(1) }),
    z.strictObject({ field: z.string().min(1), in: z.array(z.string()).min(1) }),
    z.strictObject({ anyOf: z.array(WhoSchema).min(2) }),
    z.strictObject({ allOf: z.array(WhoSchema).min(2) }),
    z.strictObject({ not: WhoSchema }),
  ]),
);

/**
 * A visibility or permission statement of the docs: what holds (`when`) for a field to be
 * present, for a row to be seen, or for an operation to be allowed; `if` limits a statement to
 * requests it concerns ("if any submission ... argument is given"). `text` is the docs' words,
 * `source` where they are.
 */
const VisibilitySchema = z.strictObject({
  when: WhoSchema,
  if: WhoSchema.optional(),
  text: z.string().min(1),
  source: SourceSchema,
});

/**
 * Document A, Roles: the permission names, and for those of course-level roles the enrollment
 * types they apply to, as the docs write them (`read_sis`: `sTa`, a lower-case letter off by
 * default, a missing letter never).
 */
const PermissionTableSchema = z.strictObject({
  source: SourceSchema,
  text: z.string().min(1),
  /** What each letter stands for. */
  letters: dictOf(z.enum(ROLE_TYPES)),
  /** Account-level permission names. */
  account: z.array(z.string().min(1)),
  /** Permission names of both account-level and course-level roles, with their letters. */
  course: dictOf(z.string().regex(/^[A-Za-z]*$/)),
});

/**
 * Parameter value types. Array-ness comes from the name (`include[]`, `grading_periods[][x]`),
 * so `type` is the type of each value sent.
 * - DateTime: ISO 8601 (a date alone is ISO 8601 too); Date: yyyy-mm-dd and a real calendar date.
 * - any: no value check (for example a serialized hash).
 */
const ParamTypeSchema = z.enum(['string', 'integer', 'number', 'boolean', 'DateTime', 'Date', 'any']);

/**
 * Value formats beyond the type.
 * - context_code: `<type>_<id>`; `contextTypes` limits the types (course, group, user, course_section, account, group_category).
 * - id_or_context_code: a bare id or a context code.
 * - url: an absolute URL (http or https when `schemes` says so).
 */
const FormatSchema = z.enum(['context_code', 'id_or_context_code', 'url', 'http_url']);

const ParameterSchema = z.strictObject({
  /**
   * Bracket notation as sent on the wire: `module_item[content_id]`, `include[]`,
   * `grading_periods[][end_date]`. A segment written `{X}` is a pattern segment
   * (`custom_fields[{field_name}]`, `permissions[{X}][enabled]`), described in `patterns`.
   */
  name: z.string().min(1),
  type: ParamTypeSchema,
  /** Required unconditionally. Conditional requirements are rules. */
  required: z.boolean().optional(),
  /** Documented values. Values outside are `invalid-enum` unless `enumOpen`. */
  enum: z.array(z.string()).optional(),
  /** The docs' words for enum values, by value. */
  enumDescriptions: dictOf(z.string()).optional(),
  /** The docs say other values exist (for example "or a placement name"): no invalid-enum. */
  enumOpen: z.boolean().optional(),
  default: z.string().optional(),
  /** The docs' own words about the parameter. */
  description: z.string(),
  /** Deprecated; `successor` names the parameter that replaces it. */
  deprecated: z.union([z.boolean(), z.strictObject({ successor: z.string() })]).optional(),
  format: FormatSchema.optional(),
  contextTypes: z.array(z.string()).optional(),
  /** SIS prefixes accepted in place of an integer id (`sis_user_id`). */
  sisForms: z.array(z.string()).optional(),
  /** An empty value or `null` is documented as meaningful ("null or empty removes ..."). */
  nullable: z.boolean().optional(),
  /** The path placeholder that carries this value (roles: `role_id` is the `{id}` of the path). */
  inPath: z.string().optional(),
  /** Pattern segments of `name`: what each `{X}` stands for. */
  patterns: dictOf(
    z.strictObject({
      description: z.string(),
      /** Documented values of the segment; absent means any name (or index). */
      values: z.array(z.string()).optional(),
      /** The segment is an array index: `[0]`, or `[]` as convention 2 writes arrays (`question[answers][][answer_text]`). */
      index: z.boolean().optional(),
    }),
  ).optional(),
});

/**
 * A condition on another parameter of the same request.
 * `present`: the parameter is sent (with any value). `in`/`notIn`: its value is (not) one of these.
 * A condition on an absent parameter is false for `in`, `notIn` and `present: true`.
 */
const ConditionSchema = z.strictObject({
  param: z.string(),
  present: z.boolean().optional(),
  in: z.array(z.string()).optional(),
  notIn: z.array(z.string()).optional(),
});

/**
 * Rules, each interpreted by the one checker: a kind is a module of `core/rules/` (its
 * schema, lint, how it applies and how hover describes it), listed in `core/rules/index.ts`.
 */
const RuleSchema = ruleSchema({
  z: {
    strictObject: z.strictObject,
    literal: z.literal,
    string: z.string,
    number: z.number,
    boolean: z.boolean,
    array: z.array,
    discriminatedUnion: z.discriminatedUnion,
  },
  condition: ConditionSchema,
  table: dictOf,
  text: z.string(),
});

/**
 * A small JSON shape language for endpoints that take a JSON body (a subset of JSON Schema).
 */
export type JsonShape = {
  type: 'object' | 'array' | 'string' | 'integer' | 'number' | 'boolean' | 'any';
  nullable?: boolean;
  description?: string;
  properties?: Record<string, JsonShape>;
  /** Keys of an object whose names are not fixed (question ids): the shape of each value. */
  additionalProperties?: JsonShape;
  required?: string[];
  items?: JsonShape;
  minItems?: number;
  maxItems?: number;
  /** The least number a number may be (`score`: an unsigned decimal). */
  minimum?: number;
};
const JsonShapeSchema: z.ZodType<JsonShape> = z.lazy(() =>
  z.strictObject({
    type: z.enum(['object', 'array', 'string', 'integer', 'number', 'boolean', 'any']),
    nullable: z.boolean().optional(),
    description: z.string().optional(),
    properties: dictOf(JsonShapeSchema).optional(),
    additionalProperties: JsonShapeSchema.optional(),
    required: z.array(z.string()).optional(),
    items: JsonShapeSchema.optional(),
    minItems: z.number().optional(),
    maxItems: z.number().optional(),
    minimum: z.number().optional(),
  }),
);

/**
 * A path template, or one with its own flags: the deprecated `find_recipients` path, or
 * literal forms that only this path's placeholders accept (`root` for a folder id on the
 * context paths, the SIS form of the context a by_path folder path names).
 */
const PathSchema = z.union([
  z.string().startsWith('/api/'),
  z.strictObject({
    path: z.string().startsWith('/api/'),
    deprecated: z.boolean().optional(),
    placeholderForms: dictOf(z.array(z.string())).optional(),
    note: z.string().optional(),
  }),
]);

const EndpointSchema = z.strictObject({
  /** Stable id, `area.operation` (`modules.create`, `files.list`). */
  id: z.string().regex(/^[a-z_]+(\.[a-z_]+)+$/),
  source: SourceSchema,
  method: z.enum(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']),
  /**
   * Every documented path of this operation (course/account/group/user/section variants).
   * Placeholders are `{name}`; `{*name}` takes the rest of the path (folders/by_path).
   */
  paths: z.array(PathSchema).min(1),
  /** Per-endpoint literal forms a placeholder accepts beyond the catalog-wide ones (`root` for a folder id). */
  placeholderForms: dictOf(z.array(z.string())).optional(),
  /** The docs' words for what the operation does. */
  purpose: z.string(),
  paginated: z.boolean().optional(),
  beta: z.boolean().optional(),
  deprecated: z.boolean().optional(),
  /** How parameters travel: form (query for GET/DELETE/HEAD) or a JSON body. */
  body: z.enum(['form', 'json']).optional(),
  /** The JSON body shape, for `body: json`. */
  jsonBody: JsonShapeSchema.optional(),
  /** Returned resource: `Module`, `Module[]`, a wrapper resource name, or null when not shown. */
  returns: z.string().nullable(),
  /**
   * For a `returns` that is a union: which alternative a request gets, by its parameters (the
   * first case whose condition holds, else `otherwise`), with the docs' words that say so.
   */
  returnsBy: z
    .strictObject({
      cases: z.array(z.strictObject({ when: ConditionSchema, returns: z.string().min(1) })).min(1),
      otherwise: z.string().min(1),
      text: z.string().min(1),
    })
    .optional(),
  /** Documented success status when it is not 200 (204 for deletes without content). */
  successStatus: z.number().int().optional(),
  /** Documented error statuses: status and condition, in the docs' words. */
  errors: z.array(z.strictObject({ status: z.number().int(), condition: z.string() })).optional(),
  params: z.array(ParameterSchema),
  /**
   * The docs do not show (all of) the parameters ("parameters ... not shown", a listing
   * "cut off"): parameters not listed are not reported as unknown.
   */
  paramsNotShown: z.boolean().optional(),
  /** Request headers the docs describe (the webhook list's StartKey). */
  headers: z.array(z.strictObject({ name: z.string(), description: z.string() })).optional(),
  rules: z.array(RuleSchema).optional(),
  notes: z.array(z.string()).optional(),
  /**
   * Who may call it and whose rows it answers (issue 30): `access` statements refuse a caller
   * (403); `rows` keeps only the rows the caller may see.
   */
  visibility: z
    .strictObject({ access: z.array(VisibilitySchema).min(1).optional(), rows: VisibilitySchema.optional() })
    .optional(),
});

/**
 * Resource field types: `integer`, `number`, `string`, `boolean`, `DateTime` (timestamps),
 * `Date`, `object`, `any`, `false`, a resource name, `X[]` for arrays; alternatives with `|`
 * (`string|integer`, `object|false`). Nullability is `nullable`.
 */
const FieldSchema = z.strictObject({
  name: z.string().min(1),
  type: z.string().min(1),
  nullable: z.boolean().optional(),
  /** Present only sometimes (optional, needs an include, only for some callers). */
  optional: z.boolean().optional(),
  enum: z.array(z.string()).optional(),
  /** The docs say other values may be added: unknown values are not flagged. */
  enumOpen: z.boolean().optional(),
  enumDescriptions: dictOf(z.string()).optional(),
  note: z.string().optional(),
  deprecated: z.boolean().optional(),
  /** Present only for some callers (issue 30): the statement of the docs that says for whom. */
  visibility: VisibilitySchema.optional(),
});

const ResourceSchema = z.strictObject({
  name: z.string().regex(/^[A-Za-z][A-Za-z0-9]*$/),
  source: SourceSchema,
  description: z.string(),
  /** The docs describe it in an endpoint's text (a wrapper, a small object), not among the resources. */
  inline: z.boolean().optional(),
  fields: z.array(FieldSchema),
  /** Keys not listed are normal (maps such as `permissions` or event data): not undocumented. */
  openKeys: z.boolean().optional(),
  /** For map-like objects: the type of every value (`RolePermissions`). */
  valueType: z.string().optional(),
});

/** Literal forms a path placeholder accepts everywhere it occurs (convention 5: SIS ids, `self`). */
const PlaceholderSchema = z.strictObject({
  description: z.string(),
  /** `id` (an integer), `self`, `root`, or a SIS prefix such as `sis_course_id`. */
  forms: z.array(z.string()).min(1),
});

/** One document's endpoints: schemas/A.endpoints.json, B..., C... */
export const EndpointFileSchema = z.strictObject({
  $schema: z.string().optional(),
  doc: SourceSchema.shape.doc,
  /** Catalog-wide placeholder forms (given once, in document A's file). */
  placeholders: dictOf(PlaceholderSchema).optional(),
  /**
   * Parameters every paginated list accepts (convention 7). The docs leave page size and
   * paging parameters "not shown"; these are the ones the service reads, so they are not
   * reported as unknown on paginated endpoints.
   */
  paginationParameters: z.array(ParameterSchema).optional(),
  /** The roles' permissions and their defaults (given once, in document A's file). */
  permissions: PermissionTableSchema.optional(),
  endpoints: z.array(EndpointSchema),
});

/** The resource objects of all three documents: schemas/resources.json. */
export const ResourceFileSchema = z.strictObject({
  $schema: z.string().optional(),
  resources: z.array(ResourceSchema),
  /** Objects the docs reference but do not define (User, CalendarEvent, ...): accepted as they come. */
  externalResources: z.array(z.strictObject({ name: z.string(), source: SourceSchema })),
});

export type Source = z.infer<typeof SourceSchema>;
export type ParamType = z.infer<typeof ParamTypeSchema>;
export type Parameter = z.infer<typeof ParameterSchema>;
export type { Rule };
export type Condition = z.infer<typeof ConditionSchema>;
export type EndpointData = z.infer<typeof EndpointSchema>;
export type Field = z.infer<typeof FieldSchema>;
export type ResourceData = z.infer<typeof ResourceSchema>;
export type Placeholder = z.infer<typeof PlaceholderSchema>;
export type Visibility = z.infer<typeof VisibilitySchema>;
export type PermissionTable = z.infer<typeof PermissionTableSchema>;
