/**
 * `type_response`: a response checked against the resource its endpoint documents, with the
 * sender's typed check (`checkResponse`, what `lpreq send` and the editor's response view
 * report): undocumented fields, wrong types, values outside an enum.
 */
import type { Catalog, EndpointMatcher } from '../core/index';
import { checkResponse, type ResponseIssue } from '../sender/index';
import { findEndpoint } from './catalogFacts';
import { ToolInputError } from './errors';

export interface TypeAnswer {
  endpoint: string;
  /** The documented type of a success body (`Module[]`), or null when the docs name none. */
  resource: string | null;
  status: number;
  /** The status the docs give for success. */
  successStatus: number;
  /** Whether the body was checked against the resource (an error status's body is not). */
  checked: boolean;
  issues: ResponseIssue[];
  /** What the docs say of this status, when it is not the success status. */
  note?: string;
}

/** At most this many issues in one answer. */
const MAX_ISSUES = 200;

export function typeResponse(
  catalog: Catalog,
  matcher: EndpointMatcher,
  args: { method: string; path: string; status: number; body: unknown },
): TypeAnswer & { omitted?: number } {
  const { endpoint } = findEndpoint(catalog, matcher, args.method, args.path);
  const successStatus = endpoint.successStatus ?? 200;
  const body = bodyOf(args.body);
  const base = { endpoint: endpoint.id, resource: endpoint.returns, status: args.status, successStatus };
  if (args.status < 200 || args.status > 299) {
    const documented = (endpoint.errors ?? []).filter((e) => e.status === args.status);
    return {
      ...base,
      checked: false,
      issues: [],
      note:
        documented.length > 0
          ? `the docs give ${args.status} when: ${documented.map((e) => e.condition).join('; ')}`
          : `the docs give no ${args.status} for this endpoint; only a success body is typed`,
    };
  }
  const typed = checkResponse(catalog, endpoint.returns, body);
  return {
    ...base,
    checked: endpoint.returns !== null,
    issues: typed.issues.slice(0, MAX_ISSUES),
    ...(typed.issues.length > MAX_ISSUES ? { omitted: typed.issues.length - MAX_ISSUES } : {}),
    ...(args.status !== successStatus ? { note: `the docs give ${successStatus} for success` } : {}),
    ...(endpoint.returns === null ? { note: 'the docs do not show what this endpoint returns' } : {}),
  };
}

/** A body given as JSON, or as the text of a JSON document (what an agent read from a response). */
function bodyOf(body: unknown): unknown {
  if (typeof body !== 'string') return body;
  const text = body.trim();
  if (!text.startsWith('{') && !text.startsWith('[')) return body;
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new ToolInputError(
      'body',
      `the text is not JSON (${(e as Error).message}); give the parsed body or its exact text`,
    );
  }
}

export function typeAnswerText(a: TypeAnswer): string {
  const head = `${a.endpoint} ${a.status}: ${a.resource ?? 'no documented resource'}`;
  if (!a.checked) return `${head}; not typed${a.note ? ` (${a.note})` : ''}`;
  if (a.issues.length === 0) return `${head}; the body matches the documented resource`;
  return [
    `${head}; ${a.issues.length} issue${a.issues.length === 1 ? '' : 's'}`,
    ...a.issues.slice(0, 20).map((i) => `${i.path} ${i.code}: ${i.message}`),
  ].join('\n');
}
