/**
 * The tools' input and output schemas (zod, turned into JSON Schema by the SDK): what an
 * agent may send, within limits, and the shape of each `structuredContent`.
 */
import * as z from 'zod';

/** The longest text a tool takes (a request file's text, a response body's). */
const MAX_TEXT = 1_000_000;
const MAX_NAME = 1000;

const method = z.string().min(1).max(16).describe('HTTP method: GET, POST, PUT, DELETE, PATCH');
const path = z
  .string()
  .min(1)
  .max(MAX_NAME)
  .describe(
    'a path as the docs write it (/api/v1/courses/{course_id}/modules) or with values (/api/v1/courses/42/modules); a URL is read for its path',
  );

export const SEARCH_INPUT = {
  query: z
    .string()
    .min(1)
    .max(500)
    .describe('what the call should do, in plain words, or a part of a path ("files/quota")'),
  limit: z.number().int().min(1).max(50).optional().describe('how many endpoints to return (default 8)'),
};
export const SEARCH_OUTPUT = {
  endpoints: z.array(
    z.object({
      id: z.string(),
      method: z.string(),
      path: z.string(),
      summary: z.string(),
      returns: z.string().nullable(),
      score: z.number(),
    }),
  ),
};

export const DESCRIBE_ENDPOINT_INPUT = { method, path };
const parameter = z.object({
  name: z.string(),
  type: z.string(),
  required: z.boolean(),
  conditionallyRequired: z.boolean().optional(),
  enum: z.array(z.string()).optional(),
  enumOpen: z.boolean().optional(),
  enumDescriptions: z.record(z.string(), z.string()).optional(),
  default: z.string().optional(),
  description: z.string().optional(),
  deprecated: z.union([z.boolean(), z.string()]).optional(),
  rules: z.array(z.string()).optional(),
});
const section = z.object({ document: z.string(), heading: z.string() });
export const DESCRIBE_ENDPOINT_OUTPUT = {
  id: z.string(),
  method: z.string(),
  path: z.string(),
  paths: z.array(z.object({ path: z.string(), deprecated: z.boolean().optional() })),
  summary: z.string(),
  section,
  scope: z.string(),
  body: z.enum(['form', 'json']),
  parameters: z.array(parameter),
  parametersNotShown: z.boolean().optional(),
  jsonBody: z.unknown().optional(),
  returns: z.object({ resource: z.string(), fields: z.array(z.string()) }).nullable(),
  successStatus: z.number(),
  errors: z.array(z.object({ status: z.number(), condition: z.string() })).optional(),
  paging: z.enum(['link', 'start-key']).optional(),
  beta: z.boolean().optional(),
  deprecated: z.boolean().optional(),
  notes: z.array(z.string()).optional(),
};

export const DESCRIBE_RESOURCE_INPUT = {
  name: z.string().min(1).max(200).describe('a resource of the docs: Module, ModuleItem, File, QuizSubmission...'),
};
export const DESCRIBE_RESOURCE_OUTPUT = {
  name: z.string(),
  description: z.string(),
  section,
  fields: z.array(
    z.object({
      name: z.string(),
      type: z.string(),
      nullable: z.boolean().optional(),
      optional: z.boolean().optional(),
      enum: z.array(z.string()).optional(),
      enumOpen: z.boolean().optional(),
      note: z.string().optional(),
      deprecated: z.boolean().optional(),
    }),
  ),
  openKeys: z.boolean().optional(),
  valueType: z.string().optional(),
  returnedBy: z.array(z.object({ method: z.string(), path: z.string(), id: z.string(), as: z.string() })),
};

export const CHECK_REQUEST_INPUT = {
  text: z
    .string()
    .max(MAX_TEXT)
    .optional()
    .describe('a .lpreq request (or several, separated by ### lines); or give method and url instead'),
  method: method.optional(),
  url: z
    .string()
    .max(8192)
    .optional()
    .describe(
      'the URL or path the code calls, with its query string if any ({{base_url}}/api/v1/... or https://host/api/v1/...)',
    ),
  // Read by check.ts, own names only: a record schema would drop a parameter named `__proto__` unseen.
  params: z
    .unknown()
    .optional()
    .meta({
      type: 'object',
      description:
        'form or query parameters by name, in bracket notation (module_item[type]): a string, number or boolean, or an array of them (sent repeated)',
      additionalProperties: {
        anyOf: [
          { type: ['string', 'number', 'boolean'] },
          { type: 'array', items: { type: ['string', 'number', 'boolean'] } },
        ],
      },
    }),
  json: z.unknown().optional().describe('a JSON body, for an endpoint that takes one'),
  environment: z
    .string()
    .max(MAX_NAME)
    .optional()
    .describe("the workspace's environment whose variables the check uses"),
};
const edit = z.object({
  start: z.number(),
  end: z.number(),
  line: z.number(),
  column: z.number(),
  endLine: z.number(),
  endColumn: z.number(),
  newText: z.string(),
});
export const CHECK_OUTPUT = {
  file: z.string().optional(),
  text: z.string().optional(),
  errors: z.number(),
  warnings: z.number(),
  diagnostics: z.array(
    z.object({
      code: z.string(),
      severity: z.enum(['error', 'warning', 'info', 'hint']),
      line: z.number(),
      column: z.number(),
      endLine: z.number(),
      endColumn: z.number(),
      message: z.string(),
      detail: z.string().optional(),
      fix: z.object({ title: z.string(), edits: z.array(edit) }).optional(),
    }),
  ),
  omitted: z.number().optional(),
  endpoints: z.array(z.string().nullable()),
};

export const CHECK_FILE_INPUT = {
  path: z.string().min(1).max(4096).describe('a .lpreq file inside the workspace, relative to its root'),
  environment: z.string().max(MAX_NAME).optional().describe('the environment whose variables the check uses'),
};

export const TYPE_RESPONSE_INPUT = {
  method,
  path,
  status: z.number().int().min(100).max(599).describe('the HTTP status of the response'),
  body: z.unknown().describe('the response body: parsed JSON, or its text'),
};
export const TYPE_RESPONSE_OUTPUT = {
  endpoint: z.string(),
  resource: z.string().nullable(),
  status: z.number(),
  successStatus: z.number(),
  checked: z.boolean(),
  issues: z.array(
    z.object({
      path: z.string(),
      code: z.enum(['type-mismatch', 'undocumented-field', 'unknown-enum-value']),
      message: z.string(),
    }),
  ),
  omitted: z.number().optional(),
  note: z.string().optional(),
};
