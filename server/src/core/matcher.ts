/**
 * Matching a request target to the documented endpoints (LPREQ-FORMAT section 2).
 */
import type { Catalog, Endpoint, EndpointPath, Method } from './catalog/catalog';
import { editDistance } from './suggest';
import { isDate } from './values';
import { own } from './own';
import { tableKey } from './tableKey';

export interface PathSegment {
  text: string;
  /** The segment is one whole `{{variable}}`. */
  isVariable: boolean;
  /** A whole variable's value, when the scope knows it and it is one plain segment (`self`, `42`). */
  value: string | undefined;
  /** The segment is a literal `{name}` left from the docs. */
  isUnfilled: boolean;
}

export interface TargetPath {
  /** The path, without base address and query. */
  path: string;
  segments: PathSegment[];
}

export type MatchResult =
  | { kind: 'matched'; endpoint: Endpoint; path: EndpointPath; bindings: Map<string, string> }
  | { kind: 'method-not-allowed'; allowed: Method[]; templates: string[] }
  | { kind: 'unknown-endpoint'; near?: string }
  | { kind: 'not-checked' };

/** A variable made of others (`@api = {{base_url}}/api/v1`), read through them. */
function expandVariables(value: string, resolve: (name: string) => string | undefined, depth: number): string {
  if (depth > 8 || !value.includes('{{')) return value;
  return value.replace(/\{\{([^{}]*)\}\}/g, (_, name: string) => {
    const inner = resolve(name.trim());
    return inner === undefined ? '' : expandVariables(inner, resolve, depth + 1);
  });
}

/**
 * Extracts the path of a request target. Leading `{{variables}}` (the base address) are
 * replaced by their values when known, so a base_url that carries a path still works.
 */
export function targetPath(target: string, resolve: (name: string) => string | undefined): TargetPath | undefined {
  let end = target.length;
  const q = target.indexOf('?');
  if (q !== -1) end = q;
  const h = target.indexOf('#');
  if (h !== -1 && h < end) end = h;
  let text = end === target.length ? target : target.slice(0, end);
  if (text.startsWith('{{')) {
    // The usual target is {{base_url}}/api/...: the base's own path (often none) comes first.
    let prefix = '';
    for (let depth = 0; depth < 8 && text.startsWith('{{'); depth++) {
      const close = text.indexOf('}}');
      if (close === -1) break;
      const value = resolve(text.slice(2, close).trim());
      prefix += (value !== undefined && value.includes('{{') ? expandVariables(value, resolve, 0) : value) ?? '';
      text = text.slice(close + 2);
    }
    const base = prefix.length === 0 ? '' : pathOf(prefix, true);
    if (base === undefined) return undefined;
    text =
      base.length === 0 || base === '/'
        ? text
        : base.endsWith('/') && text.startsWith('/')
          ? base + text.slice(1)
          : base + text;
    // A base address's own path before /api/ is where the instance is mounted (`https://host/lms`,
    // or `https://host/lms/api/v1` for `{{api}}/courses`): the docs' paths are relative to it (convention 1).
    if (base.length > 1 && !text.startsWith('/api/')) {
      const api = text.indexOf('/api/');
      if (api > 0 && api <= base.length) text = text.slice(api);
    }
  } else {
    const p = pathOf(text, false);
    if (p === undefined) return undefined;
    text = p;
  }
  if (text.charCodeAt(0) !== 47) return undefined;
  // Segments by index, without split() or regular expressions: this runs once per request.
  const segments: PathSegment[] = [];
  const n = text.length;
  let from = 1;
  while (from <= n) {
    let slash = text.indexOf('/', from);
    if (slash === -1) slash = n;
    if (slash > from) {
      // Only segments that start with '{' can be variables or placeholders.
      const braced = text.charCodeAt(from) === 123;
      const isVariable = braced && isWholeVariable(text, from, slash);
      const raw = text.slice(from, slash);
      // A variable that stands for several segments (`@cs = courses/880`): its segments, as written there.
      const spread = isVariable ? spreadSegments(resolve(text.slice(from + 2, slash - 2).trim()), resolve) : undefined;
      if (spread) {
        for (const s of spread) segments.push(s);
        from = slash + 1;
        continue;
      }
      segments.push({
        // As the server reads it: `sis_course_id%3AA1` is `sis_course_id:A1`.
        text: !braced && raw.includes('%') ? decodeSegment(raw) : raw,
        isVariable,
        value: isVariable ? plainSegment(resolve(text.slice(from + 2, slash - 2).trim())) : undefined,
        // `{course_id}`, or one written into a form (`sis_course_id:{course_id}`).
        isUnfilled: braced ? isPlaceholder(text, from, slash) : raw.includes('{') && INNER_PLACEHOLDER.test(raw),
      });
    }
    from = slash + 1;
  }
  return { path: text, segments };
}

function decodeSegment(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * The segments a variable's value stands for when it holds a slash (`courses/880`,
 * `courses/{{course}}`): plain pieces, or whole variables read one level down. Undefined for
 * a value of one segment, or one that is not a plain path (a query, a fragment, a space, a
 * brace that is not a whole variable).
 */
function spreadSegments(
  value: string | undefined,
  resolve: (name: string) => string | undefined,
): PathSegment[] | undefined {
  if (value === undefined || !value.includes('/') || /[?#\s]/.test(value)) return undefined;
  const out: PathSegment[] = [];
  for (const piece of value.split('/')) {
    if (piece.length === 0) continue;
    if (isWholeVariable(piece, 0, piece.length)) {
      out.push({
        text: piece,
        isVariable: true,
        value: plainSegment(resolve(piece.slice(2, -2).trim())),
        isUnfilled: false,
      });
    } else if (noBraces(piece, 0, piece.length)) {
      out.push({
        text: piece.includes('%') ? decodeSegment(piece) : piece,
        isVariable: false,
        value: undefined,
        isUnfilled: false,
      });
    } else {
      return undefined;
    }
  }
  return out.length > 0 ? out : undefined;
}

/** A value that can stand for one path segment as it is: not empty, no slash, brace, query or fragment. */
function plainSegment(value: string | undefined): string | undefined {
  return value !== undefined && value.length > 0 && !/[/{}?#\s]/.test(value) ? value : undefined;
}

/** No brace in text[from, to). */
function noBraces(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 123 || c === 125) return false;
  }
  return true;
}

/** text[from, to) is `{{...}}` with no brace inside. */
function isWholeVariable(text: string, from: number, to: number): boolean {
  return (
    to - from >= 4 &&
    text.charCodeAt(from + 1) === 123 &&
    text.charCodeAt(to - 1) === 125 &&
    text.charCodeAt(to - 2) === 125 &&
    noBraces(text, from + 2, to - 2)
  );
}

/** A `{name}` placeholder inside a segment (not a `{{variable}}`). */
export const INNER_PLACEHOLDER = /(?<!\{)\{[A-Za-z_]\w*\}(?!\})/;

/** text[from, to) is `{name}`: something between single braces, with no brace inside. */
function isPlaceholder(text: string, from: number, to: number): boolean {
  return to - from >= 3 && text.charCodeAt(to - 1) === 125 && noBraces(text, from + 1, to - 1);
}

/** Paths of absolute URLs seen before: a file's base_url is looked at once, not once a request. */
const urlPaths = new Map<string, string>();

/** The path of an absolute URL (from the first '/' after the authority), or the text itself when it is a path. */
function pathOf(text: string, remember: boolean): string | undefined {
  if (text.charCodeAt(0) === 47) return text;
  const known = remember ? urlPaths.get(text) : undefined;
  if (known !== undefined) return known;
  const sep = text.indexOf('://');
  if (sep <= 0 || sep >= 16 || !/^[a-z][a-z0-9+.-]*$/i.test(text.slice(0, sep))) return undefined;
  const slash = text.indexOf('/', sep + 3);
  const path = slash === -1 ? '' : text.slice(slash);
  if (remember) {
    if (urlPaths.size > 1000) urlPaths.clear();
    urlPaths.set(tableKey(text), tableKey(path));
  }
  return path;
}

/** The bindings of a kept shape's result: none (never read; never added to). */
const NO_BINDINGS: Map<string, string> = new Map();

/** One segment of a cached path shape: the shapes that continue it, and the result of the shape that ends here. */
interface ShapeNode {
  next: Map<string, ShapeNode>;
  result: MatchResult | undefined;
}

interface Candidate {
  endpoint: Endpoint;
  path: EndpointPath;
  /**
   * One letter per segment, compared position by position, higher is better: Z a literal,
   * R the rest of the path, P a placeholder given a form it accepts (or a variable), O a
   * placeholder given a value it does not accept, A a variable standing for a literal.
   */
  score: string;
}

/** The literal forms a placeholder accepts on a path of an endpoint: catalog-wide, the endpoint's and the path's own. */
export function placeholderForms(catalog: Catalog, endpoint: Endpoint, path: EndpointPath, name: string): Set<string> {
  return new Set([
    ...(own(catalog.placeholders, name)?.forms ?? ['id']),
    ...(own(endpoint.placeholderForms, name) ?? []),
    ...(own(path.placeholderForms, name) ?? []),
  ]);
}

/** Whether a path segment is one of the forms a placeholder accepts: an id is digits, a SIS id a documented prefix and an id, `name` anything. */
export function acceptsForm(forms: Set<string>, value: string): boolean {
  if (forms.has('id') && isDigits(value)) return true;
  if (forms.has('name') || forms.has(value)) return true;
  if (forms.has('date') && isDate(value)) return true;
  const colon = value.indexOf(':');
  return colon > 0 && colon < value.length - 1 && value.startsWith('sis_') && forms.has(value.slice(0, colon));
}

/** Builds a matcher over the catalog's paths, grouped by segment count. */
export class EndpointMatcher {
  private readonly byLength = new Map<number, { endpoint: Endpoint; path: EndpointPath }[]>();
  private readonly withRest: { endpoint: Endpoint; path: EndpointPath }[] = [];

  constructor(readonly catalog: Catalog) {
    for (const endpoint of catalog.endpoints) {
      for (const path of endpoint.paths) {
        if (path.segments.some((s) => s.kind === 'placeholder' && s.rest)) {
          this.withRest.push({ endpoint, path });
        } else {
          const list = this.byLength.get(path.segments.length) ?? [];
          list.push({ endpoint, path });
          this.byLength.set(path.segments.length, list);
        }
      }
    }
  }

  /** Whether lpreq validates requests to this path: under /api/v1/ or /api/lti/. */
  static isChecked(target: TargetPath): boolean {
    const [a, b] = target.segments;
    return a?.text === 'api' && (b?.text === 'v1' || b?.text === 'lti');
  }

  private candidates(target: TargetPath, variablesMatchLiterals: boolean): Candidate[] {
    const out: Candidate[] = [];
    const segs = target.segments;
    const consider = (endpoint: Endpoint, path: EndpointPath) => {
      let score = '';
      const tpl = path.segments;
      for (let i = 0; i < tpl.length; i++) {
        const t = tpl[i];
        const s = segs[i];
        if (t.kind === 'placeholder' && t.rest) {
          // The rest of the path, possibly empty (by_path/{*full_path} needs at least one segment).
          if (i >= segs.length) return;
          score += 'R';
          out.push({ endpoint, path, score });
          return;
        }
        if (s === undefined) return;
        // A variable whose value the scope knows is matched as that value; one whose value is
        // unknown, or an unfilled {placeholder}, fits any placeholder and, on the second try,
        // any literal (its value may be that literal, or differ between environments).
        const open = isOpen(s);
        const text = s.value ?? s.text;
        if (t.kind === 'literal') {
          if (text === t.text) score += 'Z';
          else if (open && variablesMatchLiterals) score += 'A';
          else return;
        } else {
          score += open || acceptsForm(this.formsOf(endpoint, path, t.name), text) ? 'P' : 'O';
        }
      }
      if (tpl.length !== segs.length) return;
      out.push({ endpoint, path, score });
    };
    for (const { endpoint, path } of this.byLength.get(segs.length) ?? []) consider(endpoint, path);
    for (const { endpoint, path } of this.withRest) consider(endpoint, path);
    return out;
  }

  /**
   * Results by path shape: requests differ mostly in their ids, so the matching work is done
   * once per shape (ids and variables replaced by a marker) and method. The shapes form a
   * tree, one level a segment, so a lookup builds no key. Bounded in size.
   */
  private shapes = new Map<string, ShapeNode>();
  private shapeCount = 0;
  /** Forms by path and placeholder name, built on first use (no key to build on the checker's hot path). */
  private readonly forms = new WeakMap<EndpointPath, Map<string, Set<string>>>();

  /** The literal forms a placeholder accepts on a path of an endpoint (see placeholderForms). */
  formsOf(endpoint: Endpoint, path: EndpointPath, name: string): Set<string> {
    let byName = this.forms.get(path);
    if (!byName) {
      byName = new Map();
      this.forms.set(path, byName);
    }
    let forms = byName.get(name);
    if (!forms) {
      forms = placeholderForms(this.catalog, endpoint, path, name);
      byName.set(name, forms);
    }
    return forms;
  }

  match(target: TargetPath, method: string): MatchResult {
    if (!EndpointMatcher.isChecked(target)) return { kind: 'not-checked' };
    if (this.shapeCount > 20_000) {
      this.shapes = new Map();
      this.shapeCount = 0;
    }
    let root = this.shapes.get(method);
    if (!root) {
      root = { next: new Map(), result: undefined };
      this.shapes.set(method, root);
    }
    let node: ShapeNode = root;
    for (let i = 0; i < target.segments.length; i++) {
      const s = target.segments[i];
      // Ids share one key, and a variable of unknown value has its own (on a second try it may
      // stand for a literal, which an id never does); a known value is keyed as that text.
      const text = s.value ?? s.text;
      const key = isOpen(s) ? '\u0001' : isDigits(text) ? '\u0000' : text;
      let next: ShapeNode | undefined = node.next.get(key);
      if (!next) {
        next = { next: new Map(), result: undefined };
        node.next.set(tableKey(key), next);
        this.shapeCount++;
      }
      node = next;
    }
    let shape = node.result;
    if (!shape) {
      shape = this.matchUncached(target, method);
      // Kept without the bindings of the request it was found for: their values are pieces of
      // that request's text, and would keep its document alive. Each match binds its own.
      node.result =
        shape.kind === 'matched'
          ? { kind: 'matched', endpoint: shape.endpoint, path: shape.path, bindings: NO_BINDINGS }
          : shape;
    }
    if (shape.kind !== 'matched') return shape;
    return { kind: 'matched', endpoint: shape.endpoint, path: shape.path, bindings: bind(shape.path, target) };
  }

  private matchUncached(target: TargetPath, method: string): MatchResult {
    let candidates = this.candidates(target, false);
    if (candidates.length === 0) candidates = this.candidates(target, true);
    if (candidates.length === 0) return { kind: 'unknown-endpoint', near: this.nearest(target) };
    // Literal segments beat placeholders: the best-scoring paths are the path the target
    // names. Another path for the method is taken only when the target fits it as well, its
    // placeholders given forms they accept: GET /users/self/... is the {user_id} path (self
    // is a user id) although PUT documents /users/self/..., but PUT
    // .../custom_gradebook_columns/reorder is the reorder path with a method it does not
    // document, not a column whose id is "reorder".
    // Paths are told apart by their literals (a placeholder given a word it does not accept is
    // still that path, reported as invalid-format); among equals, accepted forms come first.
    candidates.sort(byScore);
    const bestShape = shapeOf(candidates[0].score);
    const best = candidates.filter((c) => shapeOf(c.score) === bestShape);
    let chosen =
      best.find((c) => serves(c.endpoint, method)) ??
      candidates.find((c) => serves(c.endpoint, method) && !c.score.includes('O'));
    // A {{variable}} or an unfilled {placeholder} may stand for a literal (`self`): a path
    // documented only with that literal for this method is the one meant.
    if (!chosen && target.segments.some(isOpen)) {
      chosen = this.candidates(target, true)
        .filter((c) => serves(c.endpoint, method))
        .sort(byScore)[0];
    }
    if (!chosen) {
      const allowed = [...new Set(best.map((c) => c.endpoint.method))];
      return { kind: 'method-not-allowed', allowed, templates: [...new Set(best.map((c) => c.path.template))] };
    }
    return { kind: 'matched', endpoint: chosen.endpoint, path: chosen.path, bindings: bind(chosen.path, target) };
  }

  /** The documented path most like the target (equal segments, then near spellings), for the message. */
  private nearest(target: TargetPath): string | undefined {
    let best: string | undefined;
    let bestScore = -Infinity;
    for (const endpoint of this.catalog.endpoints) {
      for (const path of endpoint.paths) {
        let score = -2 * Math.abs(path.segments.length - target.segments.length);
        const n = Math.min(path.segments.length, target.segments.length);
        for (let i = 0; i < n; i++) {
          const t = path.segments[i];
          const s = target.segments[i];
          if (t.kind === 'placeholder') score += s.isVariable || /^(\d+|sis_\w+:.*|self|root)$/.test(s.text) ? 2 : 1;
          else if (t.text === s.text) score += 3;
          else if (editDistance(t.text, s.text, 3) <= 3) score += 2;
        }
        if (score > bestScore) {
          bestScore = score;
          best = path.template;
        }
      }
    }
    return best;
  }
}

/** Whether an endpoint answers a method: its own, and HEAD wherever GET is documented (HTTP answers HEAD as GET without the body). */
function serves(endpoint: Endpoint, method: string): boolean {
  return endpoint.method === method || (method === 'HEAD' && endpoint.method === 'GET');
}

/** A segment whose value is not known here: a {{variable}} the scope has no plain value for, or an unfilled {placeholder}. */
function isOpen(s: PathSegment): boolean {
  return (s.isVariable && s.value === undefined) || s.isUnfilled;
}

/** A score with accepted and unaccepted placeholders alike: the literal structure of a path. */
function shapeOf(score: string): string {
  return score.replace(/O/g, 'P');
}

/** Better first: by literal structure, then by accepted forms. */
function byScore(x: Candidate, y: Candidate): number {
  const a = shapeOf(x.score);
  const b = shapeOf(y.score);
  if (a !== b) return a < b ? 1 : -1;
  return x.score < y.score ? 1 : x.score > y.score ? -1 : 0;
}

/** The values the target gives the template's placeholders (a rest placeholder takes the rest of the path). */
function bind(path: EndpointPath, target: TargetPath): Map<string, string> {
  const bindings = new Map<string, string>();
  const tpl = path.segments;
  for (let i = 0; i < tpl.length; i++) {
    const t = tpl[i];
    if (t.kind !== 'placeholder') continue;
    bindings.set(
      t.name,
      t.rest
        ? target.segments
            .slice(i)
            .map((s) => s.text)
            .join('/')
        : target.segments[i].text,
    );
  }
  return bindings;
}

function isDigits(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return s.length > 0;
}
