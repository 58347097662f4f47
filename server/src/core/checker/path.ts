/** The checks of a request's target: the values its path gives the placeholders, and `{{` left open. */
import type { Catalog, EndpointPath } from '../catalog/catalog';
import { acceptsForm, INNER_PLACEHOLDER, targetPath, type EndpointMatcher } from '../matcher';
import { requestTarget, targetOffset, type Block, type RequestLine } from '../parser';
import { closest } from '../suggest';
import { choices, endpointFact, fit, quote } from './phrases';
import { diag, type Diagnostic } from './diagnostics';
import { NO_PARAMS, type RequestCheck } from './context';
import { scopeValue, type VariableScope } from './scope';

/**
 * The request's target against the catalog: a target that cannot be read, a placeholder left
 * in it, no documented path or method, a deprecated path, a value a placeholder does not take.
 * Returns what the checks of the rest need when the target matched an endpoint and they go on.
 */
export function checkTarget(
  matcher: EndpointMatcher,
  block: Block,
  scope: VariableScope,
  out: Diagnostic[],
): RequestCheck | undefined {
  const request = block.request;
  if (!request || !request.methodKnown) return undefined;
  const lineStart = request.start;
  const lineEnd = request.end;
  // A request line (or path line) that cannot be read is that one mistake: its target is not matched as well.
  const pathLines = request.pathLines ?? [];
  const targetEnd = pathLines.length > 0 ? pathLines[pathLines.length - 1].end : lineEnd;
  for (let i = 0; i < block.problems.length; i++)
    if (block.problems[i].start >= lineStart && block.problems[i].end <= targetEnd) return undefined;
  const unclosed = unclosedVariable(block);
  if (unclosed) {
    out.push(
      diag(
        'syntax',
        'this {{ is not closed: write {{name}}, or %7B for a brace in a URL',
        unclosed.start,
        unclosed.end,
      ),
    );
    return undefined;
  }
  const target = pathLines.length > 0 ? requestTarget(request) : request.target.text;
  const path = targetPath(target, (name) => scopeValue(scope, name));
  if (!path) return undefined;
  const match = matcher.match(path, request.method.text);
  // Requests outside /api/v1/ and /api/lti/ are not validated, placeholders included.
  if (match.kind === 'not-checked') return undefined;
  reportUnfilled(request, target, path, out);
  if (match.kind === 'unknown-endpoint') {
    out.push(
      diag(
        'unknown-endpoint',
        match.near
          ? fit(
              `no documented endpoint has this path: did you mean ${match.near}?`,
              'no documented endpoint has this path: see the nearest one below',
            )
          : 'no documented endpoint has this path',
        request.target.start,
        request.target.end,
        undefined,
        [match.near ? `Nearest documented path: ${match.near}` : undefined, `Path as matched: ${path.path}`],
      ),
    );
    return undefined;
  }
  if (match.kind === 'method-not-allowed') {
    out.push(
      diag(
        'method-not-allowed',
        `${request.method.text} is not documented for this path: use ${choices(match.allowed)}`,
        request.method.start,
        request.method.end === request.method.start ? request.target.end : request.method.end,
        undefined,
        match.templates.map((t) => `Documented for ${t}: ${match.allowed.join(', ')}`),
      ),
    );
    return undefined;
  }
  const endpoint = match.endpoint;
  const label = `${endpoint.method} ${match.path.template}`;
  if (match.path.deprecated || endpoint.deprecated) {
    const preferred = endpoint.paths.find((p) => !p.deprecated);
    out.push(
      diag(
        'deprecated',
        preferred && match.path.deprecated
          ? fit(`this path is deprecated: use ${preferred.template}`, 'this path is deprecated: use the one below')
          : 'this endpoint is deprecated',
        request.target.start,
        request.target.end,
        preferred && match.path.deprecated ? { replacement: preferred.template } : undefined,
        [preferred && match.path.deprecated ? `Use ${preferred.template}` : undefined, endpointFact(label)],
      ),
    );
  }
  const granted = scope.granted;
  if (granted && !granted.scopes.has(match.path.scope)) {
    const message =
      granted.environments.length === 1
        ? `${match.path.scope} is not in the $scopes of ${granted.environments[0]}`
        : `${match.path.scope} is in no environment's $scopes (${granted.environments.join(', ')})`;
    out.push(
      diag('scope-not-granted', message, request.target.start, request.target.end, {
        scope: match.path.scope,
        grantTo: granted.environments,
      }),
    );
  }
  const check: RequestCheck = {
    block,
    request,
    endpoint,
    path: match.path,
    bindings: match.bindings,
    label,
    lineStart,
    lineEnd,
    out,
  };
  return checkPlaceholderForms(check, matcher) ? undefined : check;
}

/** Each placeholder of the documentation's form left in the target (`{course_id}`), also where it is written into a form. */
function reportUnfilled(
  request: RequestLine,
  target: string,
  path: NonNullable<ReturnType<typeof targetPath>>,
  out: Diagnostic[],
): void {
  const lineStart = request.start;
  const lineEnd = request.end;
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
          fit(
            `the placeholder ${shown} is not filled in: write an id or a {{variable}}`,
            'a placeholder is not filled in: write an id or a {{variable}}',
          ),
          start,
          at === -1 ? lineEnd : start + shown.length,
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
function checkPlaceholderForms(check: RequestCheck, matcher: EndpointMatcher): boolean {
  const { endpoint, path, bindings, request, out } = check;
  const { start, end } = request.target;
  for (const [name, value] of bindings) {
    const forms = matcher.formsOf(endpoint, path, name);
    if (acceptsForm(forms, value)) continue;
    if (value.includes('{{') || /^\{[^{}]+\}$/.test(value)) continue;
    const sis = /^(sis_[a-z_]+):/.exec(value);
    const meant =
      sis || value === 'self' || value === 'root' || /\d/.test(value)
        ? undefined
        : misspeltLiteral(matcher.catalog, path, name, value);
    if (meant !== undefined) {
      // A word close to a literal that a documented path has in this place (`external_tools/sessionless-launch`,
      // `files/quotas`): a misspelt literal, not an id, so no documented path matches (section 2). Its
      // parameters are not checked against the path it was mistaken for.
      const message = fit(
        `no documented endpoint has this path: did you mean '${meant}' for ${quote(value, 30)}?`,
        `no documented endpoint has this path: did you mean '${meant}'?`,
      );
      const related = [
        `${quote(value)} is not a form {${name}} accepts either.`,
        `Nearest documented path: ${path.template}`,
      ];
      // Where the word stands as written, it alone is marked, and a quick fix can put the literal there.
      const at = segmentAt(requestTarget(request), value);
      if (at === -1) out.push(diag('unknown-endpoint', message, start, end, undefined, related));
      else
        out.push(
          diag(
            'unknown-endpoint',
            message,
            targetOffset(request, at),
            targetOffset(request, at + value.length - 1) + 1,
            { replacement: meant },
            related,
          ),
        );
      return true;
    }
    const accepted = [...forms].map((f) =>
      f.startsWith('sis_') ? `${f}:<id>` : f === 'id' ? 'an id' : f === 'date' ? 'a date (yyyy-mm-dd)' : f,
    );
    const shown = quote(value, 30);
    let problem: string;
    if (sis)
      problem = forms.has(sis[1])
        ? `${shown} has no id after ${sis[1]}: write ${sis[1]}:<id>`
        : `${sis[1]} ids are not accepted for {${name}}: use ${choices(accepted)}`;
    else if (value === 'self' || value === 'root')
      problem = `${shown} is not accepted for {${name}}: use ${choices(accepted)}`;
    else if (forms.has('date')) problem = `${shown} is not a real date for {${name}}: write yyyy-mm-dd`;
    else {
      // Where SIS ids are accepted (convention 5), a bare non-numeric id is almost always a SIS id without its prefix.
      const prefix = [...forms].find((f) => f.startsWith('sis_'));
      problem = prefix
        ? fit(
            `${shown} is not an id for {${name}}: a SIS id is written ${prefix}:${value}`,
            `${shown} is not an id for {${name}}: a SIS id is written ${prefix}:<id>`,
          )
        : `${shown} is not an id for {${name}}: write the id's digits`;
    }
    out.push(
      diag('invalid-format', fit(problem, `this is not a form {${name}} accepts`), start, end, undefined, [
        `{${name}} accepts ${accepted.join(', ')}`,
        endpointFact(check.label),
      ]),
    );
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
  for (
    let at = path.lastIndexOf(`/${segment}`);
    at !== -1;
    at = at === 0 ? -1 : path.lastIndexOf(`/${segment}`, at - 1)
  ) {
    const after = at + 1 + segment.length;
    if (after === path.length || path.charCodeAt(after) === 47) return at + 1;
  }
  return -1;
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
