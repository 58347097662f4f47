/**
 * Token scopes (document A, convention 8 and Authentication 2): every documented path of every
 * operation has the scope `url:<METHOD>|<path pattern>` (`EndpointPath.scope`, one rule of the
 * catalog). Here: the scopes a file's requests need, and a list of scopes as a token's
 * settings, the mock's `--scopes` file and an environment's `$scopes` hold it.
 */
import type { Catalog, Endpoint, EndpointPath } from './catalog/catalog';
import type { Checker } from './checker/checker';
import { documentScope, type Environments } from './checker/scope';
import { requestTarget, type LpreqDocument } from './parser';
import { targetPath } from './matcher';
import { closest } from './suggest';

/** What a scope string looks like: `url:GET|/api/v1/courses/{course_id}/modules`. */
const SCOPE_SHAPE = /^url:(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\|\/\S*$/;

/** How a list of scopes is written, for messages. */
const SCOPE_LIST_EXAMPLE = '["url:GET|/api/v1/courses/{course_id}/modules"]';

/**
 * A list of scopes read from JSON: an array of scope strings (duplicates allowed, order kept).
 * Whether each is documented is another question (`undocumentedScopes`): a token's list may
 * name scopes of endpoints these docs do not describe.
 */
export function readScopeList(json: unknown): { scopes: string[] } | { problem: string } {
  if (!Array.isArray(json)) return { problem: `expected a JSON array of scope strings such as ${SCOPE_LIST_EXAMPLE}` };
  const scopes: string[] = [];
  for (let i = 0; i < json.length; i++) {
    const s: unknown = json[i];
    if (typeof s !== 'string' || !SCOPE_SHAPE.test(s)) {
      const shown = typeof s === 'string' ? `'${s.length > 80 ? `${s.slice(0, 80)}...` : s}'` : JSON.stringify(s);
      return {
        problem: `item ${i + 1} (${shown ?? String(s)}) is not a scope: a scope is url:<METHOD>|<path pattern>, such as url:GET|/api/v1/courses/{course_id}/modules`,
      };
    }
    scopes.push(bracedScope(s));
  }
  return { scopes };
}

/**
 * A scope with its placeholders written as the docs write them: `:course_id` and `*full_path`
 * (the form the mock read before, and that some keys' settings show) become `{course_id}` and
 * `{full_path}`, so that a list written either way grants the same operations.
 */
function bracedScope(scope: string): string {
  return scope.replace(/\/:(\w+)(?=\/|$)/g, '/{$1}').replace(/\/\*(\w+)$/, '/{$1}');
}

export interface DocumentedScope {
  endpoint: Endpoint;
  path: EndpointPath;
}

const indexes = new WeakMap<Catalog, ReadonlyMap<string, DocumentedScope>>();

/** Every documented scope, with the operation and path it is for. */
export function documentedScopes(catalog: Catalog): ReadonlyMap<string, DocumentedScope> {
  let index = indexes.get(catalog);
  if (!index) {
    const map = new Map<string, DocumentedScope>();
    for (const endpoint of catalog.endpoints)
      for (const path of endpoint.paths) if (!map.has(path.scope)) map.set(path.scope, { endpoint, path });
    indexes.set(catalog, map);
    index = map;
  }
  return index;
}

/**
 * The scopes of a list that no documented path has, each with the documented one it most
 * likely means: the same path with its placeholders written `{name}` (a list written with
 * `:name`, as other platforms write them), or the nearest by spelling.
 */
export function undocumentedScopes(
  catalog: Catalog,
  scopes: readonly string[],
): { scope: string; suggestion?: string }[] {
  const documented = documentedScopes(catalog);
  const out: { scope: string; suggestion?: string }[] = [];
  const seen = new Set<string>();
  for (const scope of scopes) {
    if (documented.has(scope) || seen.has(scope)) continue;
    seen.add(scope);
    const braced = bracedScope(scope);
    const suggestion = documented.has(braced) ? braced : closest(scope, documented.keys());
    out.push(suggestion === undefined ? { scope } : { scope, suggestion });
  }
  return out;
}

/** What one request of a document needs. */
export type ScopeNeed =
  /** A documented endpoint: the scope of the path it matched. */
  | { kind: 'scope'; scope: string; endpoint: Endpoint; path: EndpointPath }
  /** No documented endpoint (or method) matches: its scope is unknown. */
  | { kind: 'unmatched'; reason: string }
  /** A path outside `/api/v1/` and `/api/lti/`: not an endpoint of the API (section 2). */
  | { kind: 'not-checked'; path: string }
  /** The target cannot be read as a path (a `{{variable}}` of unknown value for the whole URL, a broken request line). */
  | { kind: 'unreadable'; reason: string };

export interface RequestScope {
  /** The request line's offset in the document. */
  start: number;
  method: string;
  target: string;
  need: ScopeNeed;
}

/**
 * The scope each request of a document needs: its target matched to a documented path as the
 * checker matches it (section 2: SIS-id forms, `self`, `{{variables}}` and a base_url that
 * carries a path), read with the document's variables over the environment's.
 */
export function requestScopes(checker: Checker, doc: LpreqDocument, env?: Environments): RequestScope[] {
  const scope = documentScope(doc, env);
  const out: RequestScope[] = [];
  for (const { start, block } of doc.blocks) {
    const request = block.request;
    if (!request) continue;
    const at = start + request.start;
    const target = requestTarget(request);
    if (!request.methodKnown) {
      out.push({
        start: at,
        method: request.method.text,
        target,
        need: { kind: 'unreadable', reason: `'${request.method.text}' is not an HTTP method` },
      });
      continue;
    }
    const method = request.method.text;
    const path = targetPath(target, (name) => scope.values.get(name));
    const match = path ? checker.matcher.match(path, method) : undefined;
    let need: ScopeNeed;
    if (!path || !match)
      need = { kind: 'unreadable', reason: 'the target is not a path until it is sent (a variable of unknown value)' };
    else if (match.kind === 'matched')
      need = { kind: 'scope', scope: match.path.scope, endpoint: match.endpoint, path: match.path };
    else if (match.kind === 'not-checked') need = { kind: 'not-checked', path: path.path };
    else if (match.kind === 'method-not-allowed')
      need = {
        kind: 'unmatched',
        reason: `${method} is not documented for ${match.templates.join(', ')} (documented: ${match.allowed.join(', ')})`,
      };
    else
      need = {
        kind: 'unmatched',
        reason: `no documented endpoint matches ${path.path}${match.near ? ` (nearest: ${match.near})` : ''}`,
      };
    out.push({ start: at, method, target, need });
  }
  return out;
}
