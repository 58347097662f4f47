/**
 * Completion on the request line: methods, whole documented paths, the next segment of a
 * path being written, and the literal forms and variables a placeholder accepts.
 */
import type { Endpoint, EndpointPath, TemplateSegment } from '../catalog/catalog';
import { code, describeEndpoint, md } from '../describe';
import { isSecretVariable, type ServiceContext } from '../documentIndex';
import { METHODS, type Block } from '../parser';
import { own } from '../own';
import { rank, snippetText, type CompletionEntry } from './items';
import { completeQuery } from './parameters';

const METHOD_DOCS: Record<(typeof METHODS)[number], string> = {
  GET: 'Reads: lists and shows. Parameters go in the query string.',
  POST: 'Creates, or starts an action. Parameters go in a form body (or the documented JSON body).',
  PUT: 'Updates. Parameters go in a form body (or the documented JSON body).',
  DELETE: 'Deletes, or ends. Parameters go in the query string.',
  PATCH: 'Updates part of a resource. Parameters go in a form body.',
  HEAD: 'A GET without the response body: answered wherever GET is documented.',
  OPTIONS: 'Asks which methods a path takes; the API documents none.',
};

export function completeMethods(start: number, end: number, out: CompletionEntry[], spaceFollows = false) {
  METHODS.forEach((m, i) => {
    out.push({
      label: m,
      kind: 'method',
      documentation: METHOD_DOCS[m],
      insertText: spaceFollows ? m : `${m} `,
      snippet: false,
      start,
      end,
      sortText: rank(0, i),
      retrigger: !spaceFollows,
      detail: 'HTTP method',
    });
  });
}

export function completeRequestLine(
  ctx: ServiceContext,
  block: Block,
  lineStart: number,
  text: string,
  col: number,
  abs: (n: number) => number,
  out: CompletionEntry[],
) {
  const request = block.request;
  if (!request) return;
  const methodEnd = request.method.end - lineStart;
  const methodStart = request.method.start - lineStart;
  if (request.method.end > request.method.start && col <= methodEnd) {
    completeMethods(abs(methodStart), abs(methodEnd), out, /^[ \t]/.test(text.slice(methodEnd)));
    return;
  }
  const targetStart = request.target.text.length > 0 ? request.target.start - lineStart : col;
  if (col < targetStart) {
    // Before a target already written nothing is offered: a path put there would stand in front of it.
    if (request.target.text.length === 0 && /^\s*$/.test(text.slice(methodEnd, col)))
      completePath(ctx, block, '', col, col, text, abs, out);
    return;
  }
  const typed = text.slice(targetStart, col);
  const q = typed.indexOf('?');
  if (q !== -1) {
    completeQuery(ctx, block, text, targetStart + q + 1, col, abs, out, lineStart);
    return;
  }
  completePath(ctx, block, typed, targetStart, col, text, abs, out);
}

/** Where the path begins in a target: after a leading `{{base_url}}` or `https://host`. */
function pathOffset(typed: string): number {
  if (typed.startsWith('{{')) {
    const close = typed.indexOf('}}');
    return close === -1 ? typed.length : close + 2;
  }
  const scheme = /^[a-z][a-z0-9+.-]*:\/\/[^/]*/i.exec(typed);
  return scheme ? scheme[0].length : 0;
}

function segmentMatches(t: TemplateSegment, typed: string): boolean {
  if (t.kind === 'placeholder') return typed.length > 0;
  return t.text === typed || /^\{\{[^{}]*\}\}$/.test(typed);
}

interface PathChoice {
  template: string;
  endpoints: Endpoint[];
  rest: TemplateSegment[];
}

/**
 * The documented paths that go on from the segments typed (`done`): what remains of each
 * (keyed by its text), the literal segments that come next, and the literal forms each next
 * placeholder accepts (catalog-wide, the endpoint's, the path's).
 */
function pathsAfter(ctx: ServiceContext, done: readonly string[]) {
  const remainders = new Map<string, PathChoice>();
  const nextLiterals = new Map<string, Endpoint[]>();
  /** The literal forms each next placeholder accepts on the paths that continue there (catalog-wide, the endpoint's, the path's). */
  const nextPlaceholders = new Map<string, Set<string>>();
  const addForms = (name: string, endpoint: Endpoint, path: EndpointPath) => {
    let forms = nextPlaceholders.get(name);
    if (!forms) {
      forms = new Set();
      nextPlaceholders.set(name, forms);
    }
    for (const f of ctx.checker.matcher.formsOf(endpoint, path, name)) forms.add(f);
  };
  for (const endpoint of ctx.checker.catalog.endpoints) {
    for (const path of endpoint.paths) {
      const segs = path.segments;
      if (segs.length <= done.length) continue;
      let ok = true;
      for (let i = 0; i < done.length && ok; i++) {
        const t = segs[i];
        if (t.kind === 'placeholder' && t.rest) break;
        ok = segmentMatches(t, done[i]);
      }
      if (!ok) continue;
      const rest = segs.slice(done.length);
      const key = rest.map(templateText).join('/');
      const entry = remainders.get(key) ?? { template: path.template, endpoints: [], rest };
      entry.endpoints.push(endpoint);
      remainders.set(key, entry);
      const next = rest[0];
      if (rest.length > 1) {
        if (next.kind === 'literal') nextLiterals.set(next.text, [...(nextLiterals.get(next.text) ?? []), endpoint]);
        else addForms(next.name, endpoint, path);
      } else if (next.kind === 'placeholder') {
        addForms(next.name, endpoint, path);
      }
    }
  }
  return { remainders, nextLiterals, nextPlaceholders };
}

function completePath(
  ctx: ServiceContext,
  block: Block,
  typed: string,
  targetStart: number,
  col: number,
  text: string,
  abs: (n: number) => number,
  out: CompletionEntry[],
) {
  const p0 = pathOffset(typed);
  const pathTyped = typed.slice(p0);
  const lastSlash = pathTyped.lastIndexOf('/');
  const done = lastSlash <= 0 ? [] : pathTyped.slice(1, lastSlash).split('/');
  const replaceStart = targetStart + p0 + lastSlash + 1;
  let replaceEnd = col;
  while (replaceEnd < text.length && !/[/?#\s]/.test(text[replaceEnd])) replaceEnd++;
  // A whole path from here replaces the rest of the path written after the cursor too (not the
  // query); a segment is put in place of the current one, keeping a `/` that follows it.
  let pathEnd = replaceEnd;
  while (pathEnd < text.length && !/[?#\s]/.test(text[pathEnd])) pathEnd++;
  const slashFollows = text[replaceEnd] === '/';
  const method = block.request?.method.text ?? 'GET';
  const leading = lastSlash === -1 ? '/' : '';

  const { remainders, nextLiterals, nextPlaceholders } = pathsAfter(ctx, done);
  const start = abs(replaceStart);
  const end = abs(replaceEnd);
  // By resource (the docs' section: Modules, Module items, ...), then by path: the paths of
  // one resource stand together, whatever order the catalog lists its endpoints in.
  const byResource = [...remainders].sort(
    ([a, x], [b, y]) => compareText(x.endpoints[0].source.section, y.endpoints[0].source.section) || compareText(a, b),
  );
  let i = 0;
  for (const [key, choice] of byResource) {
    // A placeholder whose variable is defined (in the file or the chosen environment) is filled
    // with it; any other is a tab stop showing its name, which typing `{{` replaces.
    let stop = 1;
    const filled = (s: TemplateSegment) => s.kind === 'placeholder' && !s.rest && ctx.scope.values.has(s.name);
    const snippet = choice.rest
      .map((s) =>
        s.kind === 'literal'
          ? snippetText(s.text)
          : filled(s)
            ? snippetText(`{{${s.name}}}`)
            : `\${${stop++}:${s.rest ? s.name : `{${s.name}\\}`}}`,
      )
      .join('/');
    const tabStops = stop > 1;
    const plain = choice.rest.map((s) => (s.kind === 'literal' ? s.text : `{{${s.name}}}`)).join('/');
    const methods = [...new Set(choice.endpoints.map((e) => e.method))];
    const own = choice.endpoints.find((e) => e.method === method);
    const shown = own ?? choice.endpoints[0];
    const deprecated = choice.endpoints.every(
      (e) => e.deprecated || e.paths.find((p) => p.template === choice.template)?.deprecated,
    );
    out.push({
      label: leading + key,
      kind: 'path',
      // What the endpoint does, in the docs' words; the path is the label already.
      detail: `${shown.method} · ${shown.purpose}${methods.length > 1 ? ` (also ${methods.filter((m) => m !== shown.method).join(', ')})` : ''}`,
      documentation: describeEndpoint(
        shown,
        shown.paths.find((p) => p.template === choice.template),
      ),
      insertText: tabStops ? snippetText(leading) + snippet : leading + plain,
      snippet: tabStops,
      start,
      end: abs(pathEnd),
      sortText: rank(own ? (deprecated ? 3 : 1) : 4, i++),
      deprecated,
    });
  }
  let j = segmentItems(nextLiterals, method, leading, slashFollows, { start, end }, out);
  const seenForms = new Set<string>();
  for (const [name, forms] of nextPlaceholders) {
    const description = own(ctx.checker.catalog.placeholders, name)?.description;
    for (const form of forms) {
      if (form === 'id' || form === 'name' || form === 'date' || seenForms.has(form) || remainders.has(form)) continue;
      seenForms.add(form);
      const sis = form.startsWith('sis_');
      out.push({
        label: sis ? `${form}:` : form,
        kind: 'segment',
        detail: `accepted for {${name}}`,
        documentation: description ? md(description) : undefined,
        insertText: leading + (sis ? `${form}:` : form),
        snippet: false,
        start,
        end,
        sortText: rank(0, j++),
      });
    }
    if (ctx.scope.values.has(name)) {
      out.push({
        label: `{{${name}}}`,
        kind: 'variable',
        detail: `variable for {${name}}`,
        documentation: `The variable ${code(name)} = ${code(isSecretVariable(name, ctx.env) ? '(secret)' : (ctx.scope.values.get(name) ?? ''))} in place of ${code(`{${name}}`)}`,
        insertText: `${leading}{{${name}}}`,
        snippet: false,
        start,
        end,
        sortText: rank(0, j++),
      });
    }
  }
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function templateText(s: TemplateSegment): string {
  return s.kind === 'literal' ? s.text : `{${s.rest ? '*' : ''}${s.name}}`;
}

/** The literal segments that come next, each with the paths it goes on to; the next rank. */
function segmentItems(
  nextLiterals: Map<string, Endpoint[]>,
  method: string,
  leading: string,
  slashFollows: boolean,
  { start, end }: { start: number; end: number },
  out: CompletionEntry[],
): number {
  let j = 0;
  for (const [literal, endpoints] of nextLiterals) {
    const own = endpoints.some((e) => e.method === method);
    const onward = [
      ...new Set(
        endpoints.flatMap((e) => e.paths.map((p) => p.template)).filter((t) => t.split('/').includes(literal)),
      ),
    ];
    out.push({
      label: `${leading}${literal}/`,
      kind: 'segment',
      detail: 'path segment',
      documentation: `Goes on to ${onward.length === 1 ? 'the documented path' : `${onward.length} documented paths`}:\n\n${onward
        .slice(0, 8)
        .map((t) => `- ${code(t)}`)
        .join('\n')}${onward.length > 8 ? '\n- ...' : ''}`,
      insertText: leading + literal + (slashFollows ? '' : '/'),
      snippet: false,
      start,
      end,
      sortText: rank(own ? 0 : 2, j++),
      retrigger: !slashFollows,
    });
  }
  return j;
}
