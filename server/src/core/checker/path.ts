/** The checks of a request's target: the values its path gives the placeholders, and `{{` left open. */
import type { Catalog, Endpoint, EndpointPath } from '../catalog/catalog';
import { acceptsForm, type EndpointMatcher } from '../matcher';
import { requestTarget, targetOffset, type Block, type ParameterLine, type RequestLine } from '../parser';
import { closest } from '../suggest';
import { diag, type Diagnostic } from './diagnostics';

/**
 * The values the path gives its placeholders, against the forms each accepts (section 2):
 * an id is digits; a SIS id carries a documented prefix; `self`, `root`, a date or a name
 * only where the placeholder takes them.
 */
export function checkPlaceholderForms(
  matcher: EndpointMatcher,
  endpoint: Endpoint,
  path: EndpointPath,
  bindings: Map<string, string>,
  request: RequestLine,
  out: Diagnostic[],
): boolean {
  const { start, end } = request.target;
  for (const [name, value] of bindings) {
    const forms = matcher.formsOf(endpoint, path, name);
    if (acceptsForm(forms, value)) continue;
    if (value.includes('{{') || /^\{[^{}]+\}$/.test(value)) continue;
    const sis = /^(sis_[a-z_]+):/.exec(value);
    const meant = sis || value === 'self' || value === 'root' || /\d/.test(value) ? undefined : misspeltLiteral(matcher.catalog, path, name, value);
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
function misspeltLiteral(catalog: Catalog, path: EndpointPath, name: string, value: string): string | undefined {
  const at = path.segments.findIndex((s) => s.kind === 'placeholder' && s.name === name);
  if (at < 0) return undefined;
  const literals = new Set<string>();
  for (const other of catalog.endpoints) {
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

/**
 * A `{{` in the target or a query line with no `}}` after it on its line: no variable, and
 * not a URL either (braces are not URL characters). From the `{{` to the line's end.
 */
export function unclosedVariable(block: Block): { start: number; end: number } | undefined {
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
export const NO_PARAMS: ParameterLine[] = [];
