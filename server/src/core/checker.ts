/**
 * The checker: a request block against the catalog (LPREQ-FORMAT sections 2 to 4).
 * One interpreter for every rule kind of the catalog; no endpoint is special-cased here.
 */
import type { Catalog, CatalogParameter, Endpoint, EndpointPath } from './catalog/catalog';
import { splitParamName } from './catalog/catalog';
import type { Condition, JsonShape, Rule } from './catalog/schema';
import { acceptsForm, EndpointMatcher, INNER_PLACEHOLDER, targetPath, type MatchResult } from './matcher';
import {
  blockBoundaries,
  parseBlock,
  parseDocument,
  promptVariables,
  requestName,
  requestTarget,
  targetOffset,
  type Block,
  type LpreqDocument,
  type ParameterLine,
  type RequestLine,
} from './parser';
import { closest, editDistance } from './suggest';
import { DURATION_KEYS, parseDuration } from './metadata';
import { jsonBodyParameters, jsonBodyTree, VARIABLE_MARK } from './jsonParams';
import type { Node as JsonNode } from 'jsonc-parser';
import { formatProblem, typeProblem } from './values';
import { isSystemVariable, parseRequestReference } from './variables';
import { own } from './own';

export type Severity = 'error' | 'warning' | 'info';

export type DiagnosticCode =
  | 'syntax'
  | 'unknown-endpoint'
  | 'method-not-allowed'
  | 'unfilled-placeholder'
  | 'unresolved-variable'
  | 'missing-required'
  | 'conflicting-parameters'
  | 'invalid-enum'
  | 'invalid-type'
  | 'invalid-format'
  | 'json-body-expected'
  | 'unknown-parameter'
  | 'duplicate-parameter'
  | 'ignored-parameter'
  | 'deprecated'
  | 'token-in-file';

export const DEFAULT_SEVERITY: Record<DiagnosticCode, Severity> = {
  syntax: 'error',
  'unknown-endpoint': 'error',
  'method-not-allowed': 'error',
  'unfilled-placeholder': 'error',
  'unresolved-variable': 'error',
  'missing-required': 'error',
  'conflicting-parameters': 'error',
  'invalid-enum': 'error',
  'invalid-type': 'error',
  'invalid-format': 'error',
  'json-body-expected': 'error',
  'unknown-parameter': 'warning',
  'duplicate-parameter': 'warning',
  'ignored-parameter': 'warning',
  deprecated: 'warning',
  'token-in-file': 'warning',
};

/** What a quick fix needs to know, carried with the diagnostic. */
export interface DiagnosticData {
  /** Replace the diagnostic's range with this text (closest name or value). */
  replacement?: string;
  /** With no close match, the documented values to choose from (a short enum). */
  choices?: string[];
  /** Missing parameter names, to add with placeholders. */
  missing?: string[];
  /** The parameter line the diagnostic is about (offsets like the diagnostic's). */
  lineStart?: number;
  lineEnd?: number;
  endpointId?: string;
}

export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  message: string;
  /** Offsets: relative to the block from checkBlock, absolute from checkDocument. */
  start: number;
  end: number;
  data?: DiagnosticData;
}

/** Variables as the checker sees them: names and (for resolving base addresses) values. */
export interface VariableScope {
  /** File variables and the environment's, by name (file variables win). */
  values: Map<string, string>;
  /** Names of requests (`# @name`): of the whole file, or of the requests above a block when it is checked (RequestsBefore). */
  requestNames: Set<string>;
  /** Variables JetBrains scripts set for later requests (`client.global.set`): defined, of unknown value. */
  scriptNames?: Set<string>;
  /** Told of every variable a check looks up (`diagnose` uses it to find the blocks it checked before a later definition). */
  onLookup?: (name: string) => void;
  /** Brings requestNames up to date before it is read: RequestsBefore fills it only when a check asks (requestNamesOf). */
  syncRequestNames?: () => void;
}

/** A file or environment variable's value, as a check sees it. */
function scopeValue(scope: VariableScope, name: string): string | undefined {
  scope.onLookup?.(name);
  return scope.values.get(name);
}

function scopeHasValue(scope: VariableScope, name: string): boolean {
  scope.onLookup?.(name);
  return scope.values.has(name);
}

function scopeHasRequest(scope: VariableScope, name: string): boolean {
  return requestNamesOf(scope).has(name);
}

/** The names of the requests a scope sees (read them through this: a RequestsBefore scope fills its set on demand). */
export function requestNamesOf(scope: VariableScope): ReadonlySet<string> {
  scope.syncRequestNames?.();
  return scope.requestNames;
}

export interface Environments {
  /** Environment name to variables, the private file already merged over the shared one. */
  environments: Record<string, Record<string, string>>;
  /** The chosen environment; without one, a variable defined in any environment counts. */
  selected?: string;
}

export function environmentValues(env: Environments | undefined): Map<string, string> {
  const values = new Map<string, string>();
  if (!env) return values;
  if (env.selected !== undefined) {
    for (const [k, v] of Object.entries(own(env.environments, env.selected) ?? {})) values.set(k, String(v));
    return values;
  }
  for (const vars of Object.values(env.environments)) {
    for (const [k, v] of Object.entries(vars)) if (!values.has(k)) values.set(k, String(v));
  }
  return values;
}

/** Collects the scope of a document: its file variables over the environment's, and all its request names. */
export function documentScope(doc: LpreqDocument, env?: Environments): VariableScope {
  const scope = documentVariables(doc, env);
  for (let k = 0; k < doc.blocks.length; k++) {
    const name = requestName(doc.blocks[k].block);
    if (name) scope.requestNames.add(name);
  }
  return scope;
}

/** A document's variables (file variables over the environment's, names its scripts set), without its request names: what RequestsBefore starts from. */
function documentVariables(doc: LpreqDocument, env?: Environments): VariableScope {
  const scope: VariableScope = { values: environmentValues(env), requestNames: new Set() };
  for (let k = 0; k < doc.blocks.length; k++) {
    const block = doc.blocks[k].block;
    for (const v of block.variables) scope.values.set(v.name.text, v.value.text);
    for (const set of block.scriptSets) if (set.global) (scope.scriptNames ??= new Set()).add(set.name);
  }
  return scope;
}

/**
 * The scope a block's check sees, walking a document from the top: the whole document's
 * variables, and the names of the requests before the block (a request can only use the
 * response of an earlier one). `key` tells the blocks' positions apart for caches: while the
 * document's named requests and their order stay the same, the count of named requests
 * before a block fixes which names it sees.
 *
 * The names are kept in a list; the set a check reads is filled from it only when a check
 * asks (requestNamesOf), which most blocks never do: a file of named requests costs no
 * hashing of every name.
 */
export class RequestsBefore {
  private readonly names: string[] = [];
  private readonly seen = new Set<string>();
  /** How many of `names` are in `seen`. */
  private synced = 0;
  /** The scope to check the next block with (its set is current whenever it is read through requestNamesOf). */
  readonly scope: VariableScope;

  constructor(whole: VariableScope) {
    this.scope = { ...whole, requestNames: this.seen, syncRequestNames: () => this.sync() };
  }

  get key(): number {
    return this.names.length;
  }

  private sync(): void {
    while (this.synced < this.names.length) this.seen.add(this.names[this.synced++]);
  }

  /** Steps past a block: its name, if any, is seen by the blocks after it. */
  pass(block: Block): void {
    const name = requestName(block);
    if (name) this.names.push(name);
  }
}

export class Checker {
  readonly matcher: EndpointMatcher;

  constructor(readonly catalog: Catalog) {
    this.matcher = new EndpointMatcher(catalog);
  }

  /** Checks a whole text (parse + check). */
  checkText(text: string, env?: Environments): { document: LpreqDocument; diagnostics: Diagnostic[] } {
    const document = parseDocument(text);
    return { document, diagnostics: this.checkDocument(document, env) };
  }

  /**
   * The diagnostics of a text, without keeping its tree: what `lpreq check` needs. Each block
   * is parsed, checked and dropped; nothing outlives its block, so a large file costs the
   * garbage collector little. The result equals checkDocument(parseDocument(text), env).
   */
  diagnose(text: string, env?: Environments): Diagnostic[] {
    const starts = blockBoundaries(text);
    const blockText = (k: number) => text.slice(starts[k], k + 1 < starts.length ? starts[k + 1] : text.length);
    // One pass: each block is checked with the scope of the blocks up to it, and every
    // variable it looks up is noted. A variable defined again or first by a later block makes
    // that block's check stale; those few blocks are checked again, with the whole document's
    // variables, at the end. Request names are another matter: a request can only use the
    // response of an earlier one (section 4), so each block sees the names before it.
    let current = 0;
    /** The blocks that looked each variable up, in order (a block once per name). */
    const lookedUp = new Map<string, number[]>();
    const names: string[] = [];
    const seen = new Set<string>();
    let synced = 0;
    const scope: VariableScope = {
      values: environmentValues(env),
      requestNames: seen,
      onLookup: (name) => {
        const blocks = lookedUp.get(name);
        if (!blocks) lookedUp.set(name, [current]);
        else if (blocks[blocks.length - 1] !== current) blocks.push(current);
      },
      syncRequestNames: () => {
        while (synced < names.length) seen.add(names[synced++]);
      },
    };
    /** The block that defines each variable (a file variable's last definition, a script's first); the count of named requests before each block. */
    const setAt = new Map<string, number>();
    let lastDefinition = -1;
    const keys: number[] = [];
    const found: Diagnostic[][] = [];
    for (let k = 0; k < starts.length; k++) {
      current = k;
      const block = parseBlock(blockText(k));
      for (let i = 0; i < block.variables.length; i++) {
        const v = block.variables[i];
        scope.values.set(v.name.text, v.value.text);
        setAt.set(v.name.text, k);
        lastDefinition = k;
      }
      for (let i = 0; i < block.scriptSets.length; i++) {
        const set = block.scriptSets[i];
        if (!set.global) continue;
        (scope.scriptNames ??= new Set()).add(set.name);
        if (!setAt.has(set.name)) {
          setAt.set(set.name, k);
          lastDefinition = k;
        }
      }
      keys.push(names.length);
      const diagnostics = this.checkBlock(block, scope);
      // Most blocks have none: their empty lists are not kept to the end.
      found.push(diagnostics.length === 0 ? NO_DIAGNOSTICS : diagnostics);
      const name = requestName(block);
      if (name) names.push(name);
    }
    scope.onLookup = undefined;
    // The blocks that looked a variable up before its (last) definition, in order.
    const stale: number[] = [];
    if (lastDefinition > 0) {
      for (const [name, blocks] of lookedUp) {
        const definedAt = setAt.get(name);
        if (definedAt === undefined) continue;
        for (let i = 0; i < blocks.length && blocks[i] < definedAt; i++) stale.push(blocks[i]);
      }
      stale.sort((a, b) => a - b);
    }
    for (let i = 0; i < stale.length; i++) {
      const k = stale[i];
      if (i > 0 && stale[i - 1] === k) continue;
      found[k] = this.checkBlock(parseBlock(blockText(k)), { ...scope, requestNames: new Set(names.slice(0, keys[k])), syncRequestNames: undefined });
    }
    const out: Diagnostic[] = [];
    for (let k = 0; k < found.length; k++) {
      const diagnostics = found[k];
      if (diagnostics.length === 0) continue;
      if (diagnostics.length > 1) diagnostics.sort(byPosition);
      for (const d of diagnostics) out.push(shiftDiagnostic(d, starts[k]));
    }
    return out;
  }

  checkDocument(doc: LpreqDocument, env?: Environments): Diagnostic[] {
    // The whole document's variables; the request names of the blocks before each one (section 4).
    const before = new RequestsBefore(documentVariables(doc, env));
    const out: Diagnostic[] = [];
    for (let k = 0; k < doc.blocks.length; k++) {
      const { start, block } = doc.blocks[k];
      const diagnostics = this.checkBlock(block, before.scope);
      before.pass(block);
      if (diagnostics.length === 0) continue;
      if (diagnostics.length > 1) diagnostics.sort(byPosition);
      for (const d of diagnostics) out.push(shiftDiagnostic(d, start));
    }
    return out;
  }

  /** Matches a block's request to the catalog (also used by completion, hover and sending). */
  matchBlock(block: Block, scope: VariableScope): MatchResult | undefined {
    const request = block.request;
    if (!request || !request.methodKnown) return undefined;
    const path = targetPath(requestTarget(request), (name) => scopeValue(scope, name));
    if (!path) return undefined;
    return this.matcher.match(path, request.method.text);
  }

  /** Checks one block; offsets in the result are relative to the block. Never throws on any input. */
  checkBlock(block: Block, scope: VariableScope): Diagnostic[] {
    const out: Diagnostic[] = [];
    for (let i = 0; i < block.problems.length; i++) {
      const p = block.problems[i];
      out.push(diag('syntax', p.message, p.start, p.end));
    }
    this.checkVariables(block, scope, out);
    this.checkHeaders(block, out);
    if (block.metadata.length > 0) checkDurations(block, out);
    const request = block.request;
    if (!request || !request.methodKnown) return out;
    const lineStart = request.start;
    const lineEnd = request.end;
    // A request line (or path line) that cannot be read is that one mistake: its target is not matched as well.
    const pathLines = request.pathLines ?? [];
    const targetEnd = pathLines.length > 0 ? pathLines[pathLines.length - 1].end : lineEnd;
    for (let i = 0; i < block.problems.length; i++) if (block.problems[i].start >= lineStart && block.problems[i].end <= targetEnd) return out;
    const unclosed = unclosedVariable(block);
    if (unclosed) {
      out.push(diag('syntax', 'this {{ is not closed: a variable is written {{name}} (a brace in a URL is written %7B)', unclosed.start, unclosed.end));
      return out;
    }
    const target = pathLines.length > 0 ? requestTarget(request) : request.target.text;
    const path = targetPath(target, (name) => scopeValue(scope, name));
    if (!path) return out;
    const match = this.matcher.match(path, request.method.text);
    // Requests outside /api/v1/ and /api/lti/ are not validated, placeholders included.
    if (match.kind === 'not-checked') return out;
    for (let i = 0; i < path.segments.length; i++) {
      const seg = path.segments[i];
      if (seg.isUnfilled) {
        // The placeholder itself, also where it is written into a form (`sis_course_id:{course_id}`).
        const inner = seg.text.charCodeAt(0) === 123 ? undefined : INNER_PLACEHOLDER.exec(seg.text);
        const shown = inner ? inner[0] : seg.text;
        const at = target.indexOf(`/${seg.text}`);
        const start = at === -1 ? lineStart : targetOffset(request, at + 1 + (inner?.index ?? 0));
        out.push(
          diag(
            'unfilled-placeholder',
            `the path placeholder ${shown} is not filled in: replace it with an id or a {{variable}}`,
            start,
            at === -1 ? lineEnd : start + shown.length,
          ),
        );
      }
    }
    if (match.kind === 'unknown-endpoint') {
      out.push(
        diag(
          'unknown-endpoint',
          `no documented endpoint matches ${path.path}${match.near ? ` (nearest documented path: ${match.near})` : ''}`,
          request.target.start,
          request.target.end,
        ),
      );
      return out;
    }
    if (match.kind === 'method-not-allowed') {
      out.push(
        diag(
          'method-not-allowed',
          `${request.method.text} is not documented for ${match.templates.join(', ')}; documented: ${match.allowed.join(', ')}`,
          request.method.start,
          request.method.end === request.method.start ? request.target.end : request.method.end,
        ),
      );
      return out;
    }
    const endpoint = match.endpoint;
    const label = `${endpoint.method} ${match.path.template}`;
    if (match.path.deprecated || endpoint.deprecated) {
      const preferred = endpoint.paths.find((p) => !p.deprecated);
      out.push(
        diag(
          'deprecated',
          `${label} is deprecated${preferred && match.path.deprecated ? `; use ${preferred.template}` : ''}`,
          request.target.start,
          request.target.end,
          preferred && match.path.deprecated ? { replacement: preferred.template } : undefined,
        ),
      );
    }
    if (this.checkPlaceholderForms(endpoint, match.path, match.bindings, request, out)) return out;
    // A body read from a file (`< ./body.json`) is not here to check: what it holds, required or not, is unknown.
    if (block.fileBody) {
      if (endpoint.body !== 'json') this.checkParameters(block.params, endpoint, match.bindings, label, lineStart, lineEnd, out, false);
      return out;
    }
    if (endpoint.body === 'json') {
      // Beside a JSON body, a query string is not the body: it is checked as parameters, and the body as JSON.
      // Without one, parameters anywhere are form parameters sent where JSON is expected.
      const query = block.jsonBody ? block.params.filter((p) => p.source === 'query') : NO_PARAMS;
      if (query.length > 0) this.checkParameters(query, endpoint, match.bindings, label, lineStart, lineEnd, out, false);
      if (query.length < block.params.length) {
        out.push(
          diag(
            'json-body-expected',
            `${label} takes a JSON body, not form parameters${endpoint.jsonBody?.description ? `: ${endpoint.jsonBody.description}` : ''}`,
            lineStart,
            lineEnd,
          ),
        );
        return out;
      }
      if (endpoint.jsonBody) guardDepth(block, out, () => this.checkJsonBody(block, endpoint, endpoint.jsonBody!, label, lineStart, lineEnd, out));
      return out;
    }
    let params = block.params;
    if (block.jsonBody) {
      // The API reads a JSON body of a form endpoint as its parameters: check them by their bracket names.
      let json: ReturnType<typeof jsonBodyParameters> | undefined;
      guardDepth(block, out, () => (json = jsonBodyParameters(block.jsonBody!)));
      if (!json) return out;
      if (json.error) {
        out.push(diag('syntax', json.error.message, json.error.start, json.error.end));
        return out;
      }
      params = [...block.params, ...json.params];
      // A variable standing for a whole value (`"column": {{column}}`) may hold anything: what is missing cannot be known.
      if (json.variableValues) {
        this.checkParameters(params, endpoint, match.bindings, label, lineStart, lineEnd, out, false);
        return out;
      }
    }
    this.checkParameters(params, endpoint, match.bindings, label, lineStart, lineEnd, out);
    return out;
  }

  private checkVariables(block: Block, scope: VariableScope, out: Diagnostic[]) {
    // One pass over the block's `{{` (most blocks have one or two); each reference counts
    // when it stands in a part that is sent: variable values, the target, query lines,
    // headers, parameter lines and the JSON body (not comments or metadata).
    const text = block.text;
    let open = text.indexOf('{{');
    while (open !== -1) {
      const close = text.indexOf('}}', open + 2);
      if (close === -1) return;
      const end = close + 2;
      if (isSentRange(block, open, end)) {
        const expression = text.slice(open + 2, close).trim();
        const problem = resolutionOf(expression, scope);
        if (problem && !definedInBlock(block, expression)) {
          out.push(diag('unresolved-variable', problem, open, end));
        }
        open = text.indexOf('{{', end);
      } else {
        // An unclosed `{{` on one line does not swallow the references of the next ones.
        open = text.indexOf('{{', open + 2);
      }
    }
  }

  private checkHeaders(block: Block, out: Diagnostic[]) {
    for (let i = 0; i < block.headers.length; i++) {
      const h = block.headers[i];
      if (h.name.text.toLowerCase() !== 'authorization') continue;
      const m = /^Bearer\s+(\S+)/i.exec(h.value.text);
      if (m && !m[1].includes('{{') && m[1].length >= 20) {
        out.push(
          diag(
            'token-in-file',
            'an access token is written in the file: keep it in the editor\'s secret storage or LPREQ_TOKEN (lpreq sends it for you), or use {{$processEnv LPREQ_TOKEN}}',
            h.value.start,
            h.value.end,
          ),
        );
      }
    }
  }

  /**
   * The values the path gives its placeholders, against the forms each accepts (section 2):
   * an id is digits; a SIS id carries a documented prefix; `self`, `root`, a date or a name
   * only where the placeholder takes them.
   */
  private checkPlaceholderForms(
    endpoint: Endpoint,
    path: EndpointPath,
    bindings: Map<string, string>,
    request: RequestLine,
    out: Diagnostic[],
  ): boolean {
    const { start, end } = request.target;
    for (const [name, value] of bindings) {
      const forms = this.matcher.formsOf(endpoint, path, name);
      if (acceptsForm(forms, value)) continue;
      if (value.includes('{{') || /^\{[^{}]+\}$/.test(value)) continue;
      const sis = /^(sis_[a-z_]+):/.exec(value);
      const meant = sis || value === 'self' || value === 'root' || /\d/.test(value) ? undefined : this.misspeltLiteral(path, name, value);
      if (meant !== undefined) {
        // A word close to a literal that a documented path has in this place (`external_tools/sessionless-launch`,
        // `files/quotas`): a misspelt literal, not an id, so no documented path matches (section 2). Its
        // parameters are not checked against the path it was mistaken for.
        let shown = path.template;
        for (const [n, v] of bindings) shown = shown.replace(`{${n}}`, v);
        const message = `no documented endpoint matches ${shown}: did you mean '${meant}'? ('${value}' is not a form {${name}} accepts either)`;
        // Where the word stands as written, it alone is marked, and a quick fix can put the literal there.
        const at = segmentAt(requestTarget(request), value);
        if (at === -1) out.push(diag('unknown-endpoint', message, start, end));
        else out.push(diag('unknown-endpoint', message, targetOffset(request, at), targetOffset(request, at + value.length - 1) + 1, { replacement: meant }));
        return true;
      }
      let problem: string;
      if (sis) problem = forms.has(sis[1]) ? `${sis[1]}: needs an id after it` : `${sis[1]}: ids are not accepted for {${name}}`;
      else if (value === 'self' || value === 'root') problem = `'${value}' is not accepted for {${name}}`;
      else if (forms.has('date')) problem = `'${value}' is not a date (yyyy-mm-dd, a real calendar date) for {${name}}`;
      else {
        // Where SIS ids are accepted (convention 5), a bare non-numeric id is almost always a SIS id without its prefix.
        const prefix = [...forms].find((f) => f.startsWith('sis_'));
        problem = prefix ? `'${value}' is not an id for {${name}}; a SIS id is written ${prefix}:${value}` : `'${value}' is not an id for {${name}}`;
      }
      const accepted = [...forms].map((f) => (f.startsWith('sis_') ? `${f}:...` : f === 'id' ? 'an id' : f === 'date' ? 'a date (yyyy-mm-dd)' : f)).join(', ');
      out.push(diag('invalid-format', `${problem}; accepted: ${accepted}`, start, end));
    }
    return false;
  }

  /**
   * A literal that documented paths have where `path` has the placeholder `name`, after the
   * same segments (literals alike, placeholders in the same places), and that `value` is a
   * likely misspelling of; undefined when there is none.
   */
  private misspeltLiteral(path: EndpointPath, name: string, value: string): string | undefined {
    const at = path.segments.findIndex((s) => s.kind === 'placeholder' && s.name === name);
    if (at < 0) return undefined;
    const literals = new Set<string>();
    for (const other of this.catalog.endpoints) {
      for (const p of other.paths) {
        const here = p.segments[at];
        if (here?.kind !== 'literal') continue;
        let same = true;
        for (let i = 0; i < at && same; i++) {
          const a = p.segments[i];
          const b = path.segments[i];
          same = a.kind === b.kind && (a.kind !== 'literal' || (b.kind === 'literal' && a.text === b.text));
        }
        if (same) literals.add(here.text);
      }
    }
    return closest(value, literals);
  }

  private checkJsonBody(
    block: Block,
    endpoint: Endpoint,
    shape: JsonShape,
    label: string,
    lineStart: number,
    lineEnd: number,
    out: Diagnostic[],
  ) {
    const body = block.jsonBody;
    if (!body) {
      for (const key of shape.required ?? []) {
        out.push(diag('missing-required', `${label} needs a JSON body with ${key}`, lineStart, lineEnd, { missing: [key], endpointId: endpoint.id }));
      }
      return;
    }
    const tree = jsonBodyTree(body);
    if ('error' in tree) {
      // Where it goes wrong, as for a JSON body sent to a form endpoint.
      out.push(diag('syntax', tree.error.message, tree.error.start, tree.error.end));
      return;
    }
    // Ranges: a value without its quotes, a key with them (a quick fix replaces the whole key).
    // An object or array stands where its key does (its first line when it has none), as it may span many lines.
    type Range = { start: number; end: number };
    const valueAt = (node: JsonNode, key: Range | undefined) => {
      if (node.type === 'object' || node.type === 'array') return key ?? { start: body.start + node.offset, end: body.start + node.offset + 1 };
      const quoted = node.type === 'string' && body.text.charCodeAt(node.offset) === 34 ? 1 : 0;
      return { start: body.start + node.offset + quoted, end: body.start + node.offset + node.length - quoted };
    };
    const walk = (node: JsonNode, s: JsonShape, path: string, key: Range | undefined) => {
      // A `{{variable}}` stands here: what it holds is not known when checking.
      if (node.type === 'string' && String(node.value).includes(VARIABLE_MARK)) return;
      if (node.type === 'null') {
        if (!s.nullable && s.type !== 'any') {
          const at = valueAt(node, key);
          out.push(diag('invalid-type', `${path} must be ${s.type}, not null (${shapeNote(s, label)})`, at.start, at.end));
        }
        return;
      }
      const actual = node.type === 'array' ? 'array' : node.type;
      const v: unknown = node.value;
      const ok =
        s.type === 'any' ||
        (s.type === 'integer' && node.type === 'number' && Number.isInteger(v)) ||
        (s.type === 'number' && node.type === 'number') ||
        s.type === node.type;
      if (!ok) {
        const at = valueAt(node, key);
        out.push(diag('invalid-type', `${path} must be ${s.type === 'integer' ? 'an integer' : s.type === 'object' || s.type === 'array' ? `an ${s.type}` : `a ${s.type}`}, not ${actual} (${shapeNote(s, label)})`, at.start, at.end));
        return;
      }
      if (s.minimum !== undefined && node.type === 'number' && (v as number) < s.minimum) {
        const at = valueAt(node, key);
        out.push(diag('invalid-type', `${path} must be at least ${s.minimum}, not ${String(v)} (${shapeNote(s, label)})`, at.start, at.end));
      }
      if (node.type === 'array') {
        const items = node.children ?? [];
        const required = s.items?.type === 'object' ? (s.items.required ?? []) : [];
        if (items.length === 0 && s.minItems !== undefined && required.length > 0) {
          // The object left out (`"quiz_submissions": []`): what is missing is its required parameters (attempt).
          for (const req of required) out.push(diag('missing-required', `${path}[0].${req} is required (${label})`, lineStart, lineEnd, { missing: [req] }));
        } else if (s.minItems !== undefined && items.length < s.minItems) {
          const at = valueAt(node, key);
          out.push(diag('invalid-type', `${path} needs at least ${s.minItems} element(s) (${shapeNote(s, label)})`, at.start, at.end));
        }
        if (s.maxItems !== undefined && items.length > s.maxItems) {
          const at = valueAt(node, key);
          out.push(diag('invalid-type', `${path} takes at most ${s.maxItems} element(s) (${shapeNote(s, label)})`, at.start, at.end));
        }
        if (s.items) items.forEach((item, i) => walk(item, s.items as JsonShape, `${path}[${i}]`, undefined));
        return;
      }
      if (node.type !== 'object') return;
      const keys = (node.children ?? []).flatMap((property) => (property.children?.[0] ? [String(property.children[0].value)] : []));
      const unknownKey = (k: string) => k.includes(VARIABLE_MARK);
      // A key made of a variable may be the one required: then nothing is reported missing.
      const keyFromVariable = keys.some(unknownKey);
      for (const req of s.required ?? []) {
        if (!keys.includes(req) && !keyFromVariable) out.push(diag('missing-required', `${path}.${req} is required (${label})`, lineStart, lineEnd, { missing: [req] }));
      }
      const given = new Set<string>();
      for (const property of node.children ?? []) {
        const [keyNode, child] = property.children ?? [];
        if (!keyNode || !child) continue;
        const k = String(keyNode.value);
        if (unknownKey(k)) continue;
        const keyAt = { start: body.start + keyNode.offset, end: body.start + keyNode.offset + keyNode.length };
        if (given.has(k)) {
          // JSON keeps the last of a repeated key: the earlier value is lost.
          out.push(diag('duplicate-parameter', `${path}.${k} is given more than once (${label}); only the last value is read`, keyAt.start, keyAt.end));
        }
        given.add(k);
        const childShape = own(s.properties, k) ?? s.additionalProperties;
        if (!childShape) {
          const near = closest(k, Object.keys(s.properties ?? {}));
          out.push(
            diag('unknown-parameter', `${path}.${k} is not documented for ${label}${near ? `; did you mean ${near}?` : ''}`, keyAt.start, keyAt.end, near ? { replacement: `"${near}"` } : undefined),
          );
          continue;
        }
        walk(child, childShape, `${path}.${k}`, keyAt);
      }
    };
    walk(tree.root, shape, '$', undefined);
  }

  private checkParameters(
    params: ParameterLine[],
    endpoint: Endpoint,
    bound: Map<string, string>,
    label: string,
    lineStart: number,
    lineEnd: number,
    out: Diagnostic[],
    /** False when the body comes from a file: what is missing or conflicting cannot be known. */
    requirements = true,
  ) {
    /** Sent parameters by catalog name (a pattern's name for pattern parameters), in order. */
    const sent = new Map<string, SentParameter[]>();
    for (let i = 0; i < params.length; i++) {
      const line = params[i];
      const name = line.decodedName;
      const param = findParameter(endpoint, name);
      if (!param) {
        // A name made of a variable (`?{{query}}`, `{{field}} = 1`) is not known when checking, nor is
        // what a variable in a JSON body holds where an object goes (`"column": {{column}}`).
        const objectFromVariable = line.source === 'json' && line.decodedValue.startsWith('{{') && endpoint.params.some((p) => p.name.startsWith(`${name}[`));
        if (line.source === 'body' && name.startsWith('@')) {
          // Meant as a file variable, most likely; in a request body it is a parameter (section 1).
          out.push(
            diag(
              'unknown-parameter',
              `${name} is sent as a parameter of ${label}: a file variable (${name} = value) stands outside a request body, above the request line`,
              line.name.start,
              line.name.end,
              { lineStart: line.start, lineEnd: line.end },
            ),
          );
        } else if (!endpoint.paramsNotShown && !name.includes('{{') && !objectFromVariable) {
          const near = closest(name, suggestionNames(endpoint, name));
          const replacement = near && line.source === 'json' ? jsonKeyReplacement(name, near) : near;
          const left = splitParamName(name)?.find((seg) => LEFT_PATTERN.test(seg));
          out.push(
            diag(
              'unknown-parameter',
              left
                ? `${name}: ${left} is the docs' pattern segment, not filled in; write the name it stands for (${label})`
                : `${name} is not a documented parameter of ${label}${near ? `; did you mean ${near}?` : ''}`,
              line.name.start,
              line.name.end,
              replacement ? { replacement, lineStart: line.start, lineEnd: line.end } : { lineStart: line.start, lineEnd: line.end },
            ),
          );
        }
        continue;
      }
      const key = param.name;
      const list = sent.get(key);
      // A name with `[]` is an array element (`question[answers][][answer_text]`, an index pattern written as convention 2 writes arrays).
      const repeated = list !== undefined && !param.isArray && !name.includes('[]') && list.some((e) => e.line.decodedName === name);
      if (list) list.push({ line, param });
      else sent.set(key, [{ line, param }]);
      if (repeated) {
        out.push(
          diag('duplicate-parameter', `${name} takes one value but is given more than once (${label})`, line.name.start, line.name.end, {
            lineStart: line.start,
            lineEnd: line.end,
          }),
        );
      }
      if (param.deprecated) {
        const successor = typeof param.deprecated === 'object' ? param.deprecated.successor : undefined;
        out.push(
          diag(
            'deprecated',
            `${name} is deprecated${successor ? `; use ${successor}` : ''} for ${label}${param.description && !/^deprecated\.?$/i.test(param.description) ? ` (${param.description})` : ''}`,
            line.name.start,
            line.name.end,
            successor ? { replacement: successor } : undefined,
          ),
        );
      }
      this.checkValue(line, param, label, out);
    }
    if (!requirements) return;
    // Unconditional requirements; a value the path carries satisfies its parameter.
    let missing: string[] = NO_NAMES;
    for (let i = 0; i < endpoint.requiredParams.length; i++) {
      const p = endpoint.requiredParams[i];
      if (sent.has(p.name)) continue;
      if (bound.has(p.name) || (p.inPath && bound.has(p.inPath))) continue;
      // A deprecated alias (`role` for `label`) is the same parameter under its old name: reported as deprecated, not as missing.
      if (endpoint.params.some((q) => typeof q.deprecated === 'object' && q.deprecated.successor === p.name && sent.has(q.name))) continue;
      if (missing === NO_NAMES) missing = [];
      missing.push(p.name);
    }
    if (missing.length === 0 && endpoint.rules.length === 0) return;
    const reportedMissing = new Set<string>(missing);
    for (const name of missing) {
      const p = endpoint.params.find((x) => x.name === name);
      out.push(
        diag('missing-required', `${name} is required for ${label}${p?.description ? ` (${p.description})` : ''}`, lineStart, lineEnd, {
          missing: [name],
          endpointId: endpoint.id,
        }),
      );
    }
    if (endpoint.rules.length === 0) return;
    const context = new RuleContext(sent, bound, reportedMissing, label, lineStart, lineEnd, endpoint, out);
    for (let i = 0; i < endpoint.rules.length; i++) applyRule(endpoint.rules[i], context);
  }

  private checkValue(line: ParameterLine, param: CatalogParameter, label: string, out: Diagnostic[]) {
    const value = line.decodedValue;
    if (value.includes('{{')) return;
    if (param.nullable && (value === '' || value === 'null')) return;
    if (param.enum && (!param.enumOpen || outsideEnum(param, value))) {
      if (outsideEnum(param, value)) {
        const at = valueRange(line);
        const data = { lineStart: line.start, lineEnd: line.end };
        const near = closest(value, param.enum);
        out.push(
          diag(
            'invalid-enum',
            `${line.decodedName} = ${value || '(empty)'} is not a documented value for ${label}; documented: ${param.enum.join(', ')}${near ? `. Did you mean ${near}?` : ''}`,
            at.start,
            at.end,
            near ? { ...data, replacement: near } : param.enum.length <= 10 ? { ...data, choices: param.enum } : data,
          ),
        );
      }
      return;
    }
    // An empty value is sent as an empty string: not an integer, a boolean or a date. Where the
    // docs let an empty value clear a field (planner note update's course_id), the parameter is nullable.
    const typeMsg = typeProblem(param.type, value, param.sisForms);
    if (typeMsg) {
      const at = valueRange(line);
      // A `+` in a query string is sent as a space (`+02:00` arrives as ` 02:00`).
      const plus = line.source === 'query' && line.value.text.includes('+') ? "; in a query string '+' is a space: write %2B for a plus sign" : '';
      out.push(diag('invalid-type', `${line.decodedName} must be ${typeMsg}, not '${value}'${plus} (${label})`, at.start, at.end, { lineStart: line.start, lineEnd: line.end }));
      return;
    }
    if (param.format) {
      const formatMsg = formatProblem(param.format, value, param.contextTypes);
      if (formatMsg) {
        const at = valueRange(line);
        out.push(diag('invalid-format', `${line.decodedName} must be ${formatMsg}, not '${value}' (${label})`, at.start, at.end, { lineStart: line.start, lineEnd: line.end }));
      }
    }
  }

}

/** What the rules of one request see: the parameters sent, the path's values, and where to report. */
class RuleContext {
  constructor(
    readonly sent: Map<string, SentParameter[]>,
    readonly bound: Map<string, string>,
    /** A parameter is reported missing once, however many rules require it. */
    readonly reportedMissing: Set<string>,
    readonly label: string,
    readonly lineStart: number,
    readonly lineEnd: number,
    readonly endpoint: Endpoint,
    readonly out: Diagnostic[],
  ) {}

  isSent(name: string): boolean {
    return this.sent.has(name) || this.bound.has(name);
  }

  /** The values sent for a parameter, or the value the path gives it (`{id}` on roles update). */
  values(name: string): string[] | undefined {
    const entries = this.sent.get(name);
    if (!entries) {
      const fromPath = this.bound.get(name);
      return fromPath === undefined ? undefined : [fromPath];
    }
    const values: string[] = [];
    for (const e of entries) values.push(e.line.decodedValue);
    return values;
  }

  lineOf(name: string): ParameterLine[] {
    const entries = this.sent.get(name);
    if (!entries) return [];
    const lines: ParameterLine[] = [];
    for (const e of entries) lines.push(e.line);
    return lines;
  }

  /**
   * Whether a parameter was given a value outside its documented set (reported as
   * invalid-enum): a rule that depends on that value cannot tell what the request meant,
   * and reports nothing more. One mistake, one diagnostic.
   */
  hasInvalidValue(name: string): boolean {
    const entries = this.sent.get(name);
    if (!entries) return false;
    for (const { line, param } of entries) if (outsideEnum(param, line.decodedValue)) return true;
    return false;
  }

  /** A condition on the request: undefined when it cannot be known (a {{variable}}, or a value outside the documented set). */
  evaluate(c: Condition): boolean | undefined {
    if (c.present === undefined && this.hasInvalidValue(c.param)) return undefined;
    return evaluateCondition(c, this.values(c.param), this.isSent(c.param));
  }

  describe(c: Condition): string {
    const v = this.values(c.param)?.[0];
    // A condition on presence holds whatever the value: `grouped = false` is grouped mode ("when present").
    if (c.present !== undefined) return c.present ? `${c.param} is given${v !== undefined ? ` (as ${v})` : ''}` : `${c.param} is absent`;
    return v !== undefined ? `${c.param} is ${v}` : c.param;
  }

  expectation(c: Condition): string {
    if (c.present !== undefined) return `${c.param} is ${c.present ? 'given' : 'absent'}`;
    const v = this.values(c.param)?.[0];
    return c.in ? `${c.param} is ${c.in.join(' or ')}${v !== undefined ? ` (it is ${v})` : ''}` : `${c.param} is not ${c.notIn?.join(' or ')}`;
  }

  missing(name: string, why: string, rule: Rule): void {
    if (this.reportedMissing.has(name)) return;
    this.reportedMissing.add(name);
    this.out.push(
      diag('missing-required', `${name} is required ${why} (${rule.text}) for ${this.label}`, this.lineStart, this.lineEnd, {
        missing: [name],
        endpointId: this.endpoint.id,
      }),
    );
  }
}

/** One rule of the catalog, interpreted (every rule kind of the catalog schema). */
function applyRule(rule: Rule, context: RuleContext): void {
  const { sent, reportedMissing, label, lineStart, lineEnd, endpoint, out } = context;
  switch (rule.kind) {
    case 'required':
      if (!context.isSent(rule.param) && context.evaluate(rule.when) === true) context.missing(rule.param, `when ${context.describe(rule.when)}`, rule);
      return;
    case 'oneOf':
      if (rule.params.some((p) => context.isSent(p)) || rule.params.some((p) => reportedMissing.has(p))) return;
      if (rule.unless && context.evaluate(rule.unless) !== false) return;
      rule.params.forEach((p) => reportedMissing.add(p));
      out.push(
        diag('missing-required', `one of ${rule.params.join(', ')} is required (${rule.text}) for ${label}`, lineStart, lineEnd, {
          missing: [rule.params[0]],
          endpointId: endpoint.id,
        }),
      );
      return;
    case 'conflicts': {
      const lines = rule.params.flatMap((p) => context.lineOf(p)).sort((a, b) => a.start - b.start);
      const distinct = rule.params.filter((p) => sent.has(p));
      if (distinct.length < 2) return;
      const later = lines[lines.length - 1];
      out.push(
        diag('conflicting-parameters', `${distinct.join(' and ')} must not be sent together (${rule.text}) for ${label}`, later.name.start, later.name.end, {
          lineStart: later.start,
          lineEnd: later.end,
        }),
      );
      return;
    }
    case 'ignored': {
      let fires: boolean;
      if (rule.when) fires = context.evaluate(rule.when) === true;
      // When the parameter the exception depends on is itself missing, that is the one mistake to report.
      else if (rule.unless) fires = context.evaluate(rule.unless) === false && !reportedMissing.has(rule.unless.param);
      else fires = true;
      if (!fires) return;
      const why = rule.when ? ` when ${context.describe(rule.when)}` : rule.unless ? ` unless ${context.expectation(rule.unless)}` : '';
      for (const name of rule.params) {
        for (const line of context.lineOf(name)) {
          out.push(
            diag(
              'ignored-parameter',
              `${line.decodedName} is ignored${why} (${rule.text}) for ${label}`,
              line.name.start,
              line.name.end,
              { lineStart: line.start, lineEnd: line.end },
            ),
          );
        }
      }
      return;
    }
    case 'valueRequires': {
      const vs = context.values(rule.param);
      if (!vs) return;
      if (rule.value !== undefined && !vs.includes(rule.value)) return;
      const req = context.values(rule.requires.param);
      const satisfied = rule.requires.value === undefined ? context.isSent(rule.requires.param) : !!req?.some((v) => v === rule.requires.value || v.includes('{{'));
      if (satisfied) return;
      const what = rule.requires.value !== undefined ? `${rule.requires.param} = ${rule.requires.value}` : rule.requires.param;
      if (reportedMissing.has(what)) return;
      reportedMissing.add(what);
      out.push(
        diag(
          'missing-required',
          `${what} is required when ${rule.param}${rule.value !== undefined ? ` = ${rule.value}` : ''} is given (${rule.text}) for ${label}`,
          lineStart,
          lineEnd,
          { missing: [rule.requires.param], endpointId: endpoint.id },
        ),
      );
      return;
    }
    case 'appliesTo': {
      const given = context.values(rule.dependsOn)?.[0];
      const dep = given ?? rule.whenAbsent;
      if (dep === undefined || dep.includes('{{') || context.hasInvalidValue(rule.dependsOn)) return;
      const when = given === undefined ? `${rule.dependsOn} is not given` : `${rule.dependsOn} is ${dep}`;
      const describe = (v: string) => (v === rule.whenAbsent ? `${rule.dependsOn} not given` : v);
      for (const line of context.lineOf(rule.param)) {
        const allowed = own(rule.table, line.decodedValue);
        if (!allowed || allowed.includes('*') || allowed.includes(dep)) continue;
        out.push(
          diag(
            'ignored-parameter',
            `${line.decodedName} = ${line.decodedValue} does not apply when ${when} and is ignored (${rule.text}); it applies to ${allowed.map(describe).join(', ')}`,
            line.value.start,
            line.value.end,
            { lineStart: line.start, lineEnd: line.end },
          ),
        );
      }
      return;
    }
    case 'conflictingValues': {
      // Lines of each parameter, keyed by their pattern instance (the values of the pattern segments).
      const instances = rule.all.map((c) => {
        const byInstance = new Map<string, ParameterLine>();
        for (const { line } of sent.get(c.param) ?? []) {
          if (!c.in.includes(line.decodedValue)) continue;
          byInstance.set(patternInstance(c.param, line.decodedName), line);
        }
        return byInstance;
      });
      for (const [instance, first] of instances[0]) {
        const lines = [first, ...instances.slice(1).map((m) => m.get(instance))];
        if (lines.some((l) => l === undefined)) continue;
        const later = (lines as ParameterLine[]).reduce((a, b) => (b.start > a.start ? b : a));
        out.push(
          diag(
            'conflicting-parameters',
            `${(lines as ParameterLine[]).map((l) => `${l.decodedName} = ${l.decodedValue}`).join(' with ')} is not allowed (${rule.text}) for ${label}`,
            later.name.start,
            later.name.end,
            { lineStart: later.start, lineEnd: later.end },
          ),
        );
      }
      return;
    }
    case 'valueKinds': {
      // The first value of a known kind sets the kind; a value of another kind, or one past the kind's limit, breaks the rule.
      let first: { kind: string; line: ParameterLine } | undefined;
      const counts = new Map<string, number>();
      for (const { line } of sent.get(rule.param) ?? []) {
        const value = line.decodedValue;
        const kind = value.includes('{{') ? undefined : rule.kinds.find((k) => value.startsWith(k.prefix));
        if (!kind) continue;
        const count = (counts.get(kind.name) ?? 0) + 1;
        counts.set(kind.name, count);
        let problem: string | undefined;
        if (first && first.kind !== kind.name) problem = `${line.decodedName} = ${value} (a ${kind.name}) with ${first.line.decodedName} = ${first.line.decodedValue} (a ${first.kind})`;
        else if (kind.max !== undefined && count > kind.max) problem = `${line.decodedName} = ${value}: more than ${kind.max} ${kind.name}`;
        first ??= { kind: kind.name, line };
        if (!problem) continue;
        out.push(
          diag('conflicting-parameters', `${problem} is not allowed (${rule.text}) for ${label}`, line.name.start, line.name.end, {
            lineStart: line.start,
            lineEnd: line.end,
          }),
        );
      }
      return;
    }
    case 'patternAppliesTo': {
      const depValues = context.values(rule.dependsOn);
      const dep = depValues?.[0] ?? rule.defaultValue;
      if (dep === undefined || dep.includes('{{') || context.hasInvalidValue(rule.dependsOn)) return;
      const prefix = splitParamName(rule.pattern);
      if (!prefix) return;
      const placeholderIndex = prefix.indexOf(`{${rule.placeholder}}`);
      for (const entries of sent.values()) {
        for (const { line } of entries) {
          const segments = splitParamName(line.decodedName);
          if (!segments || segments.length < prefix.length || segments[0] !== prefix[0]) continue;
          if (!prefix.every((s, i) => i === placeholderIndex || s === segments[i])) continue;
          const name = segments[placeholderIndex];
          const allowed = own(rule.table, name);
          if (!allowed || allowed.includes('*') || allowed.includes(dep)) continue;
          out.push(
            diag(
              'ignored-parameter',
              `${name} does not apply to ${rule.dependsOn} ${dep} and is ignored (${rule.text}); it applies to ${allowed.join(', ')}`,
              line.name.start,
              line.name.end,
              { lineStart: line.start, lineEnd: line.end },
            ),
          );
        }
      }
      return;
    }
  }
}

/**
 * Three-valued: undefined only when the value cannot be known before sending (a {{variable}}).
 * An absent parameter has no value, so `in` and `notIn` are both false for it.
 */
export function evaluateCondition(c: Condition, values: string[] | undefined, present: boolean): boolean | undefined {
  if (c.present !== undefined) return c.present === present;
  if (!values || values.length === 0) return false;
  if (values.some((v) => v.includes('{{'))) return undefined;
  if (c.in) return values.some((v) => c.in?.includes(v));
  if (c.notIn) return values.every((v) => !c.notIn?.includes(v));
  return present;
}

/** A value outside a parameter's closed set of documented values (a {{variable}}, or null where allowed, is not). */
function outsideEnum(param: CatalogParameter, value: string): boolean {
  if (!param.enum || param.enum.includes(value) || value.includes('{{')) return false;
  // An open set (launch_type: placement names beyond those listed) takes other values, but not a near miss of a listed one (`assesment`).
  if (param.enumOpen) return isNearMiss(value, param.enum);
  return !(param.nullable && (value === '' || value === 'null'));
}

function isNearMiss(value: string, values: readonly string[]): boolean {
  const lower = value.toLowerCase();
  return values.some((v) => editDistance(lower, v.toLowerCase(), 2) <= 2);
}

/** Runs a check of a JSON body; a body nested too deeply to walk (thousands of levels) is reported, never thrown. */
function guardDepth(block: Block, out: Diagnostic[], check: () => void): void {
  try {
    check();
  } catch (e) {
    if (!(e instanceof RangeError) || !block.jsonBody) throw e;
    out.push(diag('syntax', 'the JSON body is nested too deeply to check', block.jsonBody.start, block.jsonBody.end));
  }
}

/** A parameter line and the documented parameter it stands for. */
interface SentParameter {
  line: ParameterLine;
  param: CatalogParameter;
}

/** The documented parameter a sent name stands for (the checker's hot path: no allocation on an exact name). */
export function findParameter(endpoint: Endpoint, name: string): CatalogParameter | undefined {
  return endpoint.paramByName.get(name) ?? lookupParameter(endpoint, name)?.param;
}

/** Finds the documented parameter a sent name stands for: exact, indexed (`[0]` for `[]`) or a pattern. */
export function lookupParameter(endpoint: Endpoint, name: string): { param: CatalogParameter; segments: string[] } | undefined {
  const exact = endpoint.paramByName.get(name);
  if (exact) return { param: exact, segments: exact.parsedName.segments };
  const segments = splitParamName(name);
  if (!segments) return undefined;
  if (segments.length > 2 && segments.slice(1, -1).some((s) => /^\d+$/.test(s))) {
    const normalised = segments[0] + segments.slice(1).map((s, i) => (i < segments.length - 2 && /^\d+$/.test(s) ? '[]' : `[${s}]`)).join('');
    const indexed = endpoint.paramByName.get(normalised);
    if (indexed) return { param: indexed, segments };
  }
  for (const p of endpoint.patternParams) {
    const ps = p.parsedName.segments;
    if (ps.length !== segments.length) continue;
    let ok = true;
    for (let i = 0; i < ps.length && ok; i++) {
      const pattern = p.parsedName.patternAt.get(i);
      // A pattern segment takes a name, not the docs' `{X}` left as it is.
      if (pattern !== undefined) ok = (segments[i].length > 0 && !LEFT_PATTERN.test(segments[i])) || own(p.patterns, pattern)?.index === true;
      else ok = ps[i] === segments[i];
    }
    if (ok) return { param: p, segments };
  }
  // Keys inside a parameter documented as a hash of any shape (`error[http_env][HTTP_USER_AGENT]`).
  for (let k = segments.length - 1; k >= 1; k--) {
    const prefix = segments[0] + segments.slice(1, k).map((s) => `[${s}]`).join('');
    const p = endpoint.paramByName.get(prefix);
    if (p) return p.type === 'any' ? { param: p, segments } : undefined;
  }
  return undefined;
}

/** The values a sent name gives the pattern segments of a pattern name (`permissions[{X}][enabled]` -> the X). */
function patternInstance(pattern: string, name: string): string {
  const p = splitParamName(pattern);
  const n = splitParamName(name);
  if (!p || !n) return '';
  return p.map((s, i) => (/^\{\w+\}$/.test(s) ? n[i] : '')).join('\u0000');
}

/** In a JSON body the name's range is its last key: the fix replaces that key alone, when the rest agrees. */
function jsonKeyReplacement(name: string, near: string): string | undefined {
  const a = splitParamName(name);
  const b = splitParamName(near);
  if (!a || !b || a.length !== b.length || a.slice(0, -1).join('\u0000') !== b.slice(0, -1).join('\u0000')) return undefined;
  return b[b.length - 1];
}

/** A pattern segment written as the docs write it (`permissions[{X}][enabled]`): not filled in. */
const LEFT_PATTERN = /^\{\w*\}$/;

/**
 * Names to suggest for an unknown `typed` name: the endpoint's names, a pattern filled with
 * what `typed` has in its pattern segments (`notification_preferences[new_announcement][frequency]`
 * for `...[new_announcement][frequncy]`), never with the docs' `{X}`.
 */
function suggestionNames(endpoint: Endpoint, typed: string): string[] {
  const segments = splitParamName(typed);
  const names: string[] = [];
  for (const p of endpoint.params) {
    if (!p.isPattern) {
      names.push(p.name);
      continue;
    }
    const ps = p.parsedName.segments;
    if (!segments || segments.length !== ps.length) continue;
    const filled = ps.map((seg, i) => (p.parsedName.patternAt.has(i) ? segments[i] : seg));
    if (filled.some((seg, i) => p.parsedName.patternAt.has(i) && (seg === '' || LEFT_PATTERN.test(seg)))) continue;
    names.push(filled[0] + filled.slice(1).map((seg) => `[${seg}]`).join(''));
  }
  return names;
}


/** What a `{{expression}}` is, which does not depend on any scope: a system variable (and its verdict), a request reference, or a name. */
type ExpressionKind = { kind: 'system'; verdict: string | undefined } | { kind: 'request'; name: string } | { kind: 'name' };

/** Kinds of the expressions seen: the same few recur in every block. Bounded in size. */
const expressionKinds = new Map<string, ExpressionKind>();

function kindOf(expression: string): ExpressionKind {
  let kind = expressionKinds.get(expression);
  if (kind) return kind;
  if (expression.startsWith('$')) {
    kind = { kind: 'system', verdict: isSystemVariable(expression) ? undefined : `{{${expression}}} is not a known system variable` };
  } else {
    const ref = parseRequestReference(expression);
    kind = ref ? { kind: 'request', name: ref.name } : { kind: 'name' };
  }
  if (expressionKinds.size > 10_000) expressionKinds.clear();
  expressionKinds.set(expression, kind);
  return kind;
}

/** Why `{{expression}}` does not resolve in the scope, or undefined when it does. */
/** A variable the request asks for when it is sent (`# @prompt name`) or that its own script sets: defined for this block only. */
function definedInBlock(block: Block, expression: string): boolean {
  const name = expression.startsWith('%') ? expression.slice(1) : expression;
  return block.scriptSets.some((x) => x.name === name) || (block.metadata.length > 0 && promptVariables(block).some((p) => p.name === name));
}

function resolutionOf(expression: string, scope: VariableScope): string | undefined {
  const kind = kindOf(expression);
  if (kind.kind === 'system') return kind.verdict;
  if (kind.kind === 'request') {
    return scopeHasRequest(scope, kind.name) ? undefined : `{{${expression}}} refers to a request named ${kind.name}, and no request before this one has # @name ${kind.name} (a request can only use the response of an earlier one)`;
  }
  // REST Client's `{{%name}}`: the value of `name`, percent-encoded.
  const name = expression.charCodeAt(0) === 37 && expression.length > 1 ? expression.slice(1) : expression;
  if (scopeHasValue(scope, name)) return undefined;
  if (scope.scriptNames?.has(name)) return undefined;
  if (name !== expression) return `{{${expression}}} is the percent-encoded value of ${name}, which is defined nowhere: not as a file variable (@${name} = ...), not in http-client.env.json or http-client.private.env.json`;
  return `{{${expression}}} is defined nowhere: not as a file variable (@${expression} = ...), not in http-client.env.json or http-client.private.env.json`;
}

/** Shared by the requests that miss nothing (never written to). */
const NO_NAMES: string[] = [];
/** The diagnostics of a block that has none (never added to). */
const NO_DIAGNOSTICS: Diagnostic[] = [];

/** Where a value's diagnostic goes: the value, or the whole line when the value is empty. */
function valueRange(line: ParameterLine): { start: number; end: number } {
  return line.value.end > line.value.start ? line.value : { start: line.name.start, end: line.end };
}

function byPosition(a: Diagnostic, b: Diagnostic): number {
  return a.start - b.start || a.end - b.end;
}

/** Where `segment` stands as a whole segment of the target's path (the last such place), or -1. */
function segmentAt(target: string, segment: string): number {
  const query = target.search(/[?#]/);
  const path = query === -1 ? target : target.slice(0, query);
  for (let at = path.lastIndexOf(`/${segment}`); at !== -1; at = at === 0 ? -1 : path.lastIndexOf(`/${segment}`, at - 1)) {
    const after = at + 1 + segment.length;
    if (after === path.length || path.charCodeAt(after) === 47) return at + 1;
  }
  return -1;
}

/** The endpoint and what the docs say of a part of a JSON body, for messages. */
function shapeNote(s: JsonShape, label: string): string {
  return s.description ? `${label}: ${s.description}` : label;
}

/**
 * A `{{` in the target or a query line with no `}}` after it on its line: no variable, and
 * not a URL either (braces are not URL characters). From the `{{` to the line's end.
 */
function unclosedVariable(block: Block): { start: number; end: number } | undefined {
  const request = block.request;
  if (!request) return undefined;
  let found = unclosedIn(block.text, request.target);
  const pathLines = request.pathLines ?? NO_PARAMS;
  for (let i = 0; i < pathLines.length; i++) found ??= unclosedIn(block.text, pathLines[i]);
  for (let i = 0; i < block.queryLines.length; i++) found ??= unclosedIn(block.text, block.queryLines[i]);
  return found;
}

function unclosedIn(text: string, part: { start: number; end: number }): { start: number; end: number } | undefined {
  let open = text.indexOf('{{', part.start);
  while (open !== -1 && open < part.end) {
    const close = text.indexOf('}}', open + 2);
    if (close === -1 || close + 2 > part.end) return { start: open, end: part.end };
    open = text.indexOf('{{', close + 2);
  }
  return undefined;
}

/** No parameters to check apart (shared, never written to). */
const NO_PARAMS: ParameterLine[] = [];

/** `# @timeout` and `# @connection-timeout` take a duration (JetBrains' client): one that cannot be read is not sent. */
function checkDurations(block: Block, out: Diagnostic[]): void {
  for (let i = 0; i < block.metadata.length; i++) {
    const m = block.metadata[i];
    const key = m.key.text;
    if (!(DURATION_KEYS as readonly string[]).includes(key) || parseDuration(m.value.text) !== undefined) continue;
    const [start, end] = m.value.text.length > 0 ? [m.value.start, m.value.end] : [m.key.start - 1, m.key.end];
    out.push(
      diag(
        'invalid-format',
        `# @${key} takes a duration of up to a day: seconds, or a number with ms, s or m (\`90\`, \`500 ms\`, \`2 m\`)${m.value.text ? `; '${m.value.text}' is not one` : ''}`,
        start,
        end,
      ),
    );
  }
}

/** Whether [start, end) of a block stands in a part that is sent (not comments or metadata). */
export function isSentRange(block: Block, start: number, end: number): boolean {
  const within = (from: number, to: number) => start >= from && end <= to;
  const request = block.request;
  if (request && within(request.target.start, request.target.end)) return true;
  const pathLines = request?.pathLines ?? NO_PARAMS;
  for (let i = 0; i < pathLines.length; i++) if (within(pathLines[i].start, pathLines[i].end)) return true;
  for (let i = 0; i < block.headers.length; i++) if (within(block.headers[i].start, block.headers[i].end)) return true;
  for (let i = 0; i < block.params.length; i++) if (block.params[i].source === 'body' && within(block.params[i].start, block.params[i].end)) return true;
  for (let i = 0; i < block.variables.length; i++) if (within(block.variables[i].value.start, block.variables[i].value.end)) return true;
  for (let i = 0; i < block.queryLines.length; i++) if (within(block.queryLines[i].start, block.queryLines[i].end)) return true;
  if (block.fileBody !== undefined && within(block.fileBody.start, block.fileBody.end)) return true;
  return block.jsonBody !== undefined && within(block.jsonBody.start, block.jsonBody.end);
}


function diag(code: DiagnosticCode, message: string, start: number, end: number, data?: DiagnosticData): Diagnostic {
  const d: Diagnostic = { code, severity: DEFAULT_SEVERITY[code], message, start, end };
  if (data) d.data = data;
  return d;
}

/** A diagnostic moved by `by` characters, with the line offsets of its data (block-relative to absolute). */
export function shiftDiagnostic(d: Diagnostic, by: number): Diagnostic {
  if (by === 0) return d;
  const data = d.data && (d.data.lineStart !== undefined || d.data.lineEnd !== undefined)
    ? { ...d.data, lineStart: d.data.lineStart !== undefined ? d.data.lineStart + by : undefined, lineEnd: d.data.lineEnd !== undefined ? d.data.lineEnd + by : undefined }
    : d.data;
  return { ...d, start: d.start + by, end: d.end + by, ...(data ? { data } : {}) };
}
