/**
 * Completion: methods, paths, path segments, parameter names and values, headers and
 * `{{variables}}`, always from the catalog. Results carry absolute offsets of the text
 * they replace; the LSP layer turns them into ranges.
 */
import type { CatalogParameter, Endpoint, EndpointPath, TemplateSegment } from './catalog/catalog';
import { RequestsBefore, requestNamesOf } from './checker';
import { lookupParameter } from './catalog/parameters';
import { describeEndpoint, describeParameter, md, code, parameterRules, typeLabel } from './describe';
import { blockAt, environmentSource, isSecretVariable, lineAt, type ServiceContext } from './documentIndex';
import { findNodeAtLocation, getLocation, parseTree, type ParseError } from 'jsonc-parser';
import { splitParamName } from './catalog/catalog';
import type { JsonShape } from './catalog/schema';
import { METHODS, promptVariables, requestName, type Block, type LpreqDocument } from './parser';
import { SYSTEM_VARIABLES } from './variables';
import { METADATA } from './metadata';
import { own } from './own';

export type CompletionKind = 'method' | 'path' | 'segment' | 'parameter' | 'value' | 'variable' | 'header' | 'reference' | 'metadata';

export interface CompletionEntry {
  label: string;
  kind: CompletionKind;
  detail?: string;
  /** Markdown. */
  documentation?: string;
  insertText: string;
  /** `insertText` is a snippet (`${1:course_id}` tab stops). */
  snippet: boolean;
  /** Absolute offsets of the replaced text. */
  start: number;
  end: number;
  sortText: string;
  filterText?: string;
  deprecated?: boolean;
  /** Ask the editor for completions again after inserting (a value follows). */
  retrigger?: boolean;
}

export interface CompletionOptions {
  /** The current time, for date templates (tests pass a fixed one). */
  now?: Date;
}

/** Escapes literal text for a snippet. */
function snippetText(text: string): string {
  return text.replace(/[\\$}]/g, '\\$&');
}

function choiceText(text: string): string {
  return text.replace(/[\\$}|,]/g, '\\$&');
}

const rank = (group: number, index: number) => `${group}${String(index).padStart(5, '0')}`;

export function complete(ctx: ServiceContext, doc: LpreqDocument, offset: number, options: CompletionOptions = {}): CompletionEntry[] {
  const ref = blockAt(doc, offset);
  if (!ref) return [];
  const base = ref.start;
  const block = ref.block;
  const rel = offset - base;
  if (rel < 0 || rel > block.text.length) return [];
  const line = lineAt(block, rel);
  const col = rel - line.start;
  const before = line.text.slice(0, col);
  const out: CompletionEntry[] = [];
  const abs = (n: number) => base + line.start + n;
  // In the indentation before what a line holds: nothing is typed there, and any edit would land after the cursor.
  if (line.region !== 'json' && /^\s*$/.test(before) && line.text.slice(col).trim() !== '' && /^\s/.test(line.text.slice(col))) return out;

  // Scripts, redirections and a body file line of other clients: nothing of the API to complete there.
  if (/^\s*(>|<[>@\s]|<$)/.test(line.text) || insideScript(block.text, rel)) return out;
  // Inside an unclosed `{{`: variables, wherever the cursor is.
  const open = before.lastIndexOf('{{');
  if (open !== -1 && before.indexOf('}}', open) === -1) {
    // Not the variable this line defines (`@x = {{`), nor the request it stands in (it cannot wait for its own response).
    const defining = /^\s*@([A-Za-z_][\w.-]*)\s*=/.exec(line.text)?.[1];
    completeVariables(ctx, doc, line.text, open + 2, col, abs, out, { defining, request: requestName(block) }, block);
    return out;
  }
  switch (line.region) {
    case 'separator':
      return out;
    case 'path':
      // A path line of JetBrains' client (`    /items`): its segments are not completed.
      return out;
    case 'json':
      if (block.jsonBody) completeJson(ctx, block, rel, base, out);
      return out;
    case 'preamble': {
      // `# @` above the request line: the metadata lpreq reads.
      const meta = /^\s*(?:#|\/\/)\s*@([\w-]*)$/.exec(before);
      if (meta) {
        const from = before.length - meta[1].length;
        completeMetadata(abs(from), abs(from + /^[\w-]*/.exec(line.text.slice(from))![0].length), out);
        return out;
      }
      const t = before.trimStart();
      if (/^[A-Za-z]*$/.test(t) && !/^\s*(#|\/\/|@)/.test(line.text)) {
        completeMethods(abs(before.length - t.length), abs(wordEnd(line.text, col)), out);
      }
      return out;
    }
    case 'request':
      completeRequestLine(ctx, block, line.start, line.text, col, abs, out);
      return out;
    case 'query': {
      const s = line.text.search(/[?&]/);
      if (s !== -1 && s < col) completeQuery(ctx, block, line.text, s + 1, col, abs, out, line.start);
      return out;
    }
    case 'headers': {
      const colon = before.indexOf(':');
      if (colon !== -1) {
        completeHeaderValue(before.slice(0, colon).trim(), line.text, colon + 1, col, abs, out);
        return out;
      }
      completeHeaderNames(ctx, block, line.text, col, abs, out);
      if (line.text.trim() === '' && block.bodyStart === line.start) {
        // The blank line that ends the headers stays blank: a parameter goes on a line of its own below it.
        const first = out.length;
        completeParameterNames(ctx, block, '', abs(col), abs(col), 'body', false, -1, out);
        for (let i = first; i < out.length; i++) out[i] = { ...out[i], insertText: `\n${out[i].insertText}` };
      }
      return out;
    }
    case 'body': {
      const endpoint = line.text.trim() === '' ? matchedEndpoint(ctx, block) : undefined;
      if (endpoint?.jsonBody) {
        // An endpoint that takes JSON: its body, with what it requires, to fill in.
        let n = 0;
        const skeleton = (shape: JsonShape): string => {
          if (shape.type === 'array') return shape.items ? `[${skeleton(shape.items)}]` : `[$${++n}]`;
          if (shape.type !== 'object') return shape.type === 'string' ? `"$${++n}"` : `$${++n}`;
          const keys = (shape.required ?? []).filter((k) => own(shape.properties, k));
          return `{${keys.map((k) => `"${snippetText(k)}": ${skeleton(own(shape.properties, k)!)}`).join(', ')}}`;
        };
        out.push({ label: 'JSON body', kind: 'value', detail: endpoint.jsonBody.description ?? 'the documented JSON body', documentation: endpoint.jsonBody.description ? md(endpoint.jsonBody.description) : undefined, insertText: skeleton(endpoint.jsonBody), snippet: true, start: abs(col), end: abs(col), sortText: rank(0, 0) });
        return out;
      }
      completeBodyLine(ctx, block, line.text, col, abs, line.start, out, options);
      return out;
    }
  }
}

/** Whether `rel` stands inside a `{% ... %}` script of the block. */
function insideScript(text: string, rel: number): boolean {
  let open = text.lastIndexOf('{%', rel - 1);
  // `{{%name}}` is a variable, not a script.
  while (open > 0 && text.charCodeAt(open - 1) === 123) open = text.lastIndexOf('{%', open - 2);
  if (open === -1) return false;
  const close = text.indexOf('%}', open + 2);
  return close === -1 || close >= rel;
}

function wordEnd(text: string, col: number): number {
  let e = col;
  while (e < text.length && /[\w[\]{}.$-]/.test(text[e])) e++;
  return e;
}

const METHOD_DOCS: Record<(typeof METHODS)[number], string> = {
  GET: 'Reads: lists and shows. Parameters go in the query string.',
  POST: 'Creates, or starts an action. Parameters go in a form body (or the documented JSON body).',
  PUT: 'Updates. Parameters go in a form body (or the documented JSON body).',
  DELETE: 'Deletes, or ends. Parameters go in the query string.',
  PATCH: 'Updates part of a resource. Parameters go in a form body.',
  HEAD: 'A GET without the response body: answered wherever GET is documented.',
  OPTIONS: 'Asks which methods a path takes; the API documents none.',
};

function completeMethods(start: number, end: number, out: CompletionEntry[], spaceFollows = false) {
  METHODS.forEach((m, i) => {
    out.push({ label: m, kind: 'method', documentation: METHOD_DOCS[m], insertText: spaceFollows ? m : `${m} `, snippet: false, start, end, sortText: rank(0, i), retrigger: !spaceFollows, detail: 'HTTP method' });
  });
}

function completeRequestLine(
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
    if (request.target.text.length === 0 && /^\s*$/.test(text.slice(methodEnd, col))) completePath(ctx, block, '', col, col, text, abs, out);
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

  interface PathChoice {
    template: string;
    endpoints: Endpoint[];
    rest: TemplateSegment[];
  }
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
  const start = abs(replaceStart);
  const end = abs(replaceEnd);
  let i = 0;
  for (const [key, choice] of remainders) {
    let stop = 1;
    const snippet = choice.rest
      .map((s) => (s.kind === 'literal' ? snippetText(s.text) : `\${${stop++}:${s.rest ? s.name : `{${s.name}\\}`}}`))
      .join('/');
    const methods = [...new Set(choice.endpoints.map((e) => e.method))];
    const own = choice.endpoints.find((e) => e.method === method);
    const shown = own ?? choice.endpoints[0];
    const deprecated = choice.endpoints.every((e) => e.deprecated || e.paths.find((p) => p.template === choice.template)?.deprecated);
    out.push({
      label: leading + key,
      kind: 'path',
      detail: `${methods.join(', ')} ${choice.template}`,
      documentation: describeEndpoint(shown, shown.paths.find((p) => p.template === choice.template)),
      insertText: snippetText(leading) + snippet,
      snippet: true,
      start,
      end: abs(pathEnd),
      sortText: rank(own ? (deprecated ? 3 : 1) : 4, i++),
      deprecated,
    });
  }
  let j = 0;
  for (const [literal, endpoints] of nextLiterals) {
    const own = endpoints.some((e) => e.method === method);
    const onward = [...new Set(endpoints.flatMap((e) => e.paths.map((p) => p.template)).filter((t) => t.split('/').includes(literal)))];
    out.push({
      label: `${leading}${literal}/`,
      kind: 'segment',
      detail: 'path segment',
      documentation: `Goes on to ${onward.length === 1 ? 'the documented path' : `${onward.length} documented paths`}:\n\n${onward.slice(0, 8).map((t) => `- ${code(t)}`).join('\n')}${onward.length > 8 ? '\n- ...' : ''}`,
      insertText: leading + literal + (slashFollows ? '' : '/'),
      snippet: false,
      start,
      end,
      sortText: rank(own ? 0 : 2, j++),
      retrigger: !slashFollows,
    });
  }
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

function templateText(s: TemplateSegment): string {
  return s.kind === 'literal' ? s.text : `{${s.rest ? '*' : ''}${s.name}}`;
}

/**
 * Inside a JSON body: the keys the object at the cursor takes, and the values of a key
 * that has documented ones. The shape comes from the endpoint's JSON body (quiz submission
 * update) or, for a form endpoint written as JSON, from its bracket names
 * (`{"module": {"` offers `name`, `position`, ...).
 */
function completeJson(ctx: ServiceContext, block: Block, rel: number, base: number, out: CompletionEntry[]) {
  const body = block.jsonBody;
  const endpoint = matchedEndpoint(ctx, block);
  if (!body || !endpoint) return;
  const at = rel - body.start;
  if (at < 0 || at > body.text.length) return;
  const location = getLocation(body.text, at);
  // The word being typed, with its opening quote: it is replaced whole.
  let s = at;
  while (s > 0 && /[\w\-[\]$]/.test(body.text[s - 1])) s--;
  const quoted = body.text[s - 1] === '"';
  if (quoted) s--;
  let e = at;
  while (e < body.text.length && /[\w\-[\]$]/.test(body.text[e])) e++;
  if (quoted && body.text[e] === '"') e++;
  const start = base + body.start + s;
  const end = base + body.start + e;
  const path = location.path;
  if (location.isAtPropertyKey || (location.previousNode === undefined && /[{,]\s*"?[\w-]*$/.test(body.text.slice(0, at)))) {
    const objectPath = location.isAtPropertyKey ? path.slice(0, -1) : path;
    const present = new Set(jsonKeysAt(body.text, objectPath));
    // What the request misses as it stands (its JSON read as parameters), as for parameter
    // lines. The key being typed leaves the JSON broken, so it is checked without that key.
    const missingNow = new Set<string>();
    const repaired = endpoint.jsonBody ? undefined : withoutTypedKey(body.text, s, e);
    if (repaired !== undefined) {
      const probe: Block = { ...block, jsonBody: { ...body, text: repaired } };
      for (const d of ctx.checker.checkBlock(probe, ctx.scope)) if (d.code === 'missing-required') for (const m of d.data?.missing ?? []) missingNow.add(m);
    }
    jsonKeys(endpoint, objectPath, missingNow).forEach((k, i) => {
      if (present.has(k.key)) return;
      out.push({
        label: k.key,
        kind: 'parameter',
        detail: k.detail,
        documentation: k.documentation,
        insertText: `"${snippetText(k.key)}": ${k.value}`,
        snippet: true,
        start,
        end,
        sortText: rank(k.required ? 0 : 1, i),
        filterText: quoted ? `"${k.key}"` : k.key,
      });
    });
    return;
  }
  // A value: the documented ones of this key.
  const param = jsonParameter(endpoint, path);
  const values = param?.enum ?? (param?.type === 'boolean' ? ['true', 'false'] : undefined);
  values?.forEach((v, i) => {
    const text = param?.type === 'boolean' ? v : JSON.stringify(v);
    const meaning = own(param?.enumDescriptions, v);
    out.push({ label: text, kind: 'value', detail: param?.name, documentation: param ? `${code(v)}${meaning ? ` · ${md(meaning)}` : ''}\n\n${md(param.name)}: ${md(param.description)}` : undefined, insertText: snippetText(text), snippet: false, start, end, sortText: rank(0, i) });
  });
}

/**
 * A JSON body without the key being typed at [start, end), made whole again: the rest of
 * the body as it is, or, when that does not parse, the part before the key with its open
 * objects and arrays closed. Undefined when neither parses.
 */
function withoutTypedKey(text: string, start: number, end: number): string | undefined {
  const head = text.slice(0, start).replace(/,\s*$/, '');
  const candidates = [
    head + text.slice(end).replace(/^\s*,/, ''),
    // A key that already has a value (the cursor went back into it): the value goes too, its siblings stay.
    head + text.slice(afterValue(text, end)).replace(/^\s*,/, ''),
    head + closersOf(head),
  ];
  for (const candidate of candidates) {
    const errors: ParseError[] = [];
    parseTree(candidate, errors);
    if (errors.length === 0) return candidate;
  }
  return undefined;
}

/** The offset after `: value` that follows a key ending at `from` (`from` itself when no `:` follows). */
function afterValue(text: string, from: number): number {
  let i = from;
  while (i < text.length && /\s/.test(text[i])) i++;
  if (text[i] !== ':') return from;
  i++;
  while (i < text.length && /\s/.test(text[i])) i++;
  let depth = 0;
  let inString = false;
  for (; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') {
        inString = false;
        if (depth === 0) return i + 1;
      }
    } else if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') {
      if (depth === 0) return i;
      depth--;
      if (depth === 0) return i + 1;
    } else if (c === ',' && depth === 0) return i;
  }
  return i;
}

/** What closes the objects and arrays a JSON text leaves open (strings and escapes skipped). */
function closersOf(text: string): string {
  const open: string[] = [];
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') open.push('}');
    else if (c === '[') open.push(']');
    else if (c === '}' || c === ']') open.pop();
  }
  return inString ? '' : open.reverse().join('');
}

/** The keys already written in the object at `path` of a JSON text. */
function jsonKeysAt(text: string, path: (string | number)[]): string[] {
  const root = parseTree(text);
  const node = root && findNodeAtLocation(root, path);
  if (!node || node.type !== 'object') return [];
  return (node.children ?? []).map((p) => p.children?.[0]?.value).filter((k): k is string => typeof k === 'string');
}

interface JsonKey {
  key: string;
  detail: string;
  documentation?: string;
  required: boolean;
  /** What follows the key: a snippet for the value. */
  value: string;
}

const JSON_VALUE: Record<string, string> = { object: '{$1}', array: '[$1]', string: '"$1"', integer: '$1', number: '$1', boolean: '${1|true,false|}', any: '$1' };

/**
 * The keys of the object at `path`: from the endpoint's JSON shape, or from its bracket
 * parameter names. `missing` are the parameters the request misses as it stands: a key that
 * leads to one is required here.
 */
function jsonKeys(endpoint: Endpoint, path: (string | number)[], missing: Set<string> = new Set()): JsonKey[] {
  if (endpoint.jsonBody) {
    let shape: JsonShape | undefined = endpoint.jsonBody;
    for (const step of path) shape = typeof step === 'number' ? shape?.items : (own(shape?.properties, step) ?? shape?.additionalProperties);
    if (!shape || shape.type !== 'object') return [];
    return Object.entries(shape.properties ?? {}).map(([key, child]) => ({
      key,
      detail: `${child.type}${shape?.required?.includes(key) ? ' · Required' : ''}`,
      documentation: child.description ? md(child.description) : undefined,
      required: shape?.required?.includes(key) === true,
      value: JSON_VALUE[child.type] ?? '$1',
    }));
  }
  // A form endpoint's body as JSON: bracket names, one level at a time.
  const prefix = path.filter((p): p is string => typeof p === 'string');
  const keys = new Map<string, JsonKey>();
  for (const param of endpoint.params) {
    if (param.isPattern) continue;
    const segments = splitParamName(param.name);
    if (!segments || segments.length <= prefix.length || prefix.some((p, i) => segments[i] !== p)) continue;
    const key = segments[prefix.length];
    if (key === '' || keys.has(key)) continue;
    const rest = segments.slice(prefix.length + 1);
    const leaf = rest.length === 0;
    const array = rest.length === 1 && rest[0] === '';
    const value = leaf ? JSON_VALUE[param.type === 'integer' || param.type === 'number' || param.type === 'boolean' ? param.type : 'string'] : array ? '[$1]' : '{$1}';
    keys.set(key, { key, detail: leaf || array ? typeLabel(param) + (param.required ? ' · Required' : '') : 'object', documentation: leaf || array ? describeParameter(endpoint, param) : undefined, required: param.required === true, value });
  }
  // A key that leads to a parameter the request misses as it stands comes first too.
  for (const k of keys.values()) {
    if (k.required) continue;
    const stem = [...prefix, k.key].map((x, i) => (i === 0 ? x : `[${x}]`)).join('');
    if ([...missing].some((m) => m === stem || m.startsWith(`${stem}[`))) {
      k.required = true;
      if (!k.detail.includes('Required')) k.detail += ' · Required here';
    }
  }
  return [...keys.values()];
}

/** The catalog parameter a JSON value stands for (`{"module": {"name": ...}}` is module[name]), for its values. */
function jsonParameter(endpoint: Endpoint, path: (string | number)[]) {
  if (endpoint.jsonBody) return undefined;
  const keys = path.filter((p): p is string => typeof p === 'string');
  if (keys.length === 0) return undefined;
  const isArray = typeof path[path.length - 1] === 'number';
  const name = keys[0] + keys.slice(1).map((k) => `[${k}]`).join('') + (isArray ? '[]' : '');
  return endpoint.params.find((p) => p.name === name);
}

function matchedEndpoint(ctx: ServiceContext, block: Block): Endpoint | undefined {
  const match = ctx.checker.matchBlock(block, ctx.scope);
  return match?.kind === 'matched' ? match.endpoint : undefined;
}

/** A query pair at the cursor: `?name=value&...` from offset `from` of the line. */
function completeQuery(
  ctx: ServiceContext,
  block: Block,
  text: string,
  from: number,
  col: number,
  abs: (n: number) => number,
  out: CompletionEntry[],
  lineStart: number,
) {
  const amp = text.lastIndexOf('&', col - 1);
  const pairStart = Math.max(from, amp + 1);
  let pairEnd = col;
  while (pairEnd < text.length && text[pairEnd] !== '&' && !/\s/.test(text[pairEnd])) pairEnd++;
  const pair = text.slice(pairStart, pairEnd);
  const eq = pair.indexOf('=');
  if (eq !== -1 && pairStart + eq < col) {
    const name = safeDecode(pair.slice(0, eq));
    completeValues(ctx, block, name, abs(pairStart + eq + 1), abs(pairEnd), out, {});
    return;
  }
  const nameEnd = eq === -1 ? pairEnd : pairStart + eq;
  completeParameterNames(ctx, block, text.slice(pairStart, col), abs(pairStart), abs(nameEnd), 'query', eq !== -1, lineStart + pairStart, out);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

function completeBodyLine(
  ctx: ServiceContext,
  block: Block,
  text: string,
  col: number,
  abs: (n: number) => number,
  lineStart: number,
  out: CompletionEntry[],
  options: CompletionOptions,
) {
  let from = 0;
  while (from < text.length && /\s/.test(text[from])) from++;
  if (text[from] === '#' || text.startsWith('//', from) || text[from] === '@') return;
  if (text[from] === '&') from++;
  if (col < from) return;
  const eq = text.indexOf('=', from);
  if (eq !== -1 && eq < col) {
    const name = text.slice(from, eq).trim();
    let vs = eq + 1;
    while (vs < text.length && (text[vs] === ' ' || text[vs] === '\t')) vs++;
    let ve = text.length;
    while (ve > vs && /\s/.test(text[ve - 1])) ve--;
    if (col < vs) vs = col;
    completeValues(ctx, block, name, abs(vs), abs(Math.max(ve, col)), out, options);
    return;
  }
  let nameEnd = eq === -1 ? text.length : eq;
  while (nameEnd > col && /\s/.test(text[nameEnd - 1])) nameEnd--;
  completeParameterNames(ctx, block, text.slice(from, col), abs(from), abs(Math.max(nameEnd, col)), 'body', eq !== -1, lineStart + from, out);
}

/** Parameter names, level by level in bracket notation. `typed` is the name up to the cursor. */
function completeParameterNames(
  ctx: ServiceContext,
  block: Block,
  typed: string,
  start: number,
  end: number,
  source: 'body' | 'query',
  hasEquals: boolean,
  nameStart: number,
  out: CompletionEntry[],
) {
  const endpoint = matchedEndpoint(ctx, block);
  if (!endpoint || endpoint.body === 'json') return;
  const present = new Set<string>();
  // The name being typed does not count as present.
  for (const p of block.params) if (p.name.start !== nameStart) present.add(p.decodedName);
  const suffix = hasEquals ? '' : source === 'body' ? ' = ' : '=';
  const bracket = typed.lastIndexOf('[');
  const basePrefix = bracket === -1 ? '' : typed.slice(0, bracket + 1);
  const levelStart = bracket === -1 ? start : start + bracket + 1;
  const seen = new Set<string>();
  // What the request misses as it stands: a conditional requirement whose condition holds (page_url once the type is Page) comes first, as Required.
  const missingNow = new Set<string>();
  for (const d of ctx.checker.checkBlock(block, ctx.scope)) if (d.code === 'missing-required') for (const m of d.data?.missing ?? []) missingNow.add(m);
  endpoint.params.forEach((param, index) => {
    if (present.has(param.name) && !param.isArray) return;
    const { conditionallyRequired } = parameterRules(endpoint, param.name);
    const requiredNow = param.required || missingNow.has(param.name);
    const group = param.deprecated ? 4 : requiredNow ? 0 : conditionallyRequired ? 1 : 2;
    const valueFollows = param.enum !== undefined || param.type === 'boolean' || param.format !== undefined;
    const doc = describeParameter(endpoint, param);
    const detail = `${requiredNow ? '★ ' : ''}${typeLabel(param)}${param.required ? ' · Required' : requiredNow ? ' · Required here' : conditionallyRequired ? ' · conditionally required' : ''}`;
    if (bracket === -1) {
      const insert = param.isPattern ? patternSnippet(param, param.name) : snippetText(param.name);
      out.push({
        label: param.name,
        kind: 'parameter',
        detail,
        documentation: doc,
        insertText: insert + snippetText(suffix),
        snippet: true,
        start,
        end,
        sortText: rank(group, index),
        filterText: param.name,
        deprecated: param.deprecated !== undefined && param.deprecated !== false,
        retrigger: valueFollows && !hasEquals,
      });
      return;
    }
    // One level of bracket notation: the keys inside `typed[`.
    if (!param.name.startsWith(basePrefix)) {
      if (!param.isPattern || !patternPrefixMatches(param, basePrefix)) return;
    }
    const rest = param.name.startsWith(basePrefix) ? param.name.slice(basePrefix.length) : patternRest(param, basePrefix);
    if (rest === undefined) return;
    const close = rest.indexOf(']');
    if (close === -1) return;
    const key = rest.slice(0, close);
    const leaf = close === rest.length - 1;
    const pattern = /^\{(\w+)\}$/.exec(key);
    const keys = pattern ? (own(param.patterns, pattern[1])?.values ?? [undefined]) : [key];
    for (const k of keys) {
      const shownKey = k ?? key;
      const label = leaf ? `${basePrefix}${shownKey}]` : `${basePrefix}${shownKey}][`;
      if (seen.has(label)) continue;
      seen.add(label);
      const closing = leaf ? ']' : '][';
      const insert = k === undefined ? `\${1:${pattern ? pattern[1] : key}}${closing}` : snippetText(k + closing);
      out.push({
        label,
        kind: 'parameter',
        detail: leaf ? detail : 'object',
        documentation: leaf ? doc : pattern ? md(own(param.patterns, pattern[1])?.description ?? '') : `The keys inside ${code(`${basePrefix}${shownKey}]`)}, as bracket names (${code(param.name)})`,
        insertText: leaf ? insert + snippetText(suffix) : insert,
        snippet: true,
        start: levelStart,
        end,
        sortText: rank(group, index),
        filterText: shownKey,
        retrigger: leaf ? valueFollows && !hasEquals : true,
      });
    }
  });
}

function patternPrefixMatches(param: CatalogParameter, prefix: string): boolean {
  return patternRest(param, prefix) !== undefined;
}

/** For a pattern name, the rest after `prefix` when the prefix fits it (a pattern segment matches any key). */
function patternRest(param: CatalogParameter, prefix: string): string | undefined {
  const segs = param.parsedName.segments;
  const typed = prefix.slice(0, -1);
  const open = typed.indexOf('[');
  const head = open === -1 ? typed : typed.slice(0, open);
  if (head !== segs[0]) return undefined;
  const inner = open === -1 ? [] : typed.slice(open + 1, -1).split('][');
  if (inner.length + 1 >= segs.length) return undefined;
  for (let i = 0; i < inner.length; i++) {
    if (!param.parsedName.patternAt.has(i + 1) && segs[i + 1] !== inner[i]) return undefined;
  }
  return segs.slice(inner.length + 1).map((s) => `${s}]`).join('[');
}

/** `permissions[{X}][enabled]` as a snippet: the pattern segment becomes a tab stop (a choice when listed). */
function patternSnippet(param: CatalogParameter, text: string): string {
  let n = 1;
  return text.split(/(\{\w+\})/).map((part) => {
    const m = /^\{(\w+)\}$/.exec(part);
    if (!m) return snippetText(part);
    const values = own(param.patterns, m[1])?.values;
    if (values && values.length > 0) return `\${${n++}|${values.map(choiceText).join(',')}|}`;
    return `\${${n++}:${m[1]}}`;
  }).join('');
}

function isoDate(d: Date): string {
  return d.toISOString().slice(0, 10);
}

function completeValues(
  ctx: ServiceContext,
  block: Block,
  name: string,
  start: number,
  end: number,
  out: CompletionEntry[],
  options: CompletionOptions,
) {
  const endpoint = matchedEndpoint(ctx, block);
  if (!endpoint) return;
  const found = lookupParameter(endpoint, name);
  if (!found) return;
  const param = found.param;
  const push = (label: string, insertText: string, documentation: string | undefined, index: number, snippet = false) =>
    out.push({ label, kind: 'value', insertText, snippet, start, end, sortText: rank(0, index), documentation, detail: typeLabel(param) });
  if (param.enum) {
    param.enum.forEach((v, i) => {
      const d = own(param.enumDescriptions, v);
      push(v, v, `${code(v)}${param.default === v ? ' (default)' : ''}${d ? `\n\n${md(d)}` : ''}\n\n${md(param.name)}`, i);
    });
    return;
  }
  const now = options.now ?? new Date();
  switch (param.type) {
    case 'boolean':
      push('true', 'true', `${md(param.name)} is a boolean: ${code('true')} (or ${code('1')})`, 0);
      push('false', 'false', `${md(param.name)} is a boolean: ${code('false')} (or ${code('0')})`, 1);
      return;
    case 'Date':
      push(isoDate(now), `\${1:${isoDate(now)}}`, 'A date, yyyy-mm-dd', 0, true);
      return;
    case 'DateTime':
      push(`${isoDate(now)}T00:00:00Z`, `\${1:${isoDate(now)}}T\${2:00:00:00}Z`, 'A date and time, ISO 8601', 0, true);
      return;
    default:
      break;
  }
  if (param.format === 'context_code' || param.format === 'id_or_context_code') {
    const types = param.contextTypes ?? ['course', 'group', 'user'];
    types.forEach((t, i) => push(`${t}_`, `${t}_`, `A context code: ${code(`${t}_<id>`)}`, i));
  }
}

const HEADERS: { name: string; description: string; values: string[] }[] = [
  { name: 'Accept', description: 'The media types the client accepts; the API answers `application/json`.', values: ['application/json', '*/*'] },
  { name: 'Content-Type', description: 'The media type of the body. lpreq sets it from the body (form or JSON) when absent.', values: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'] },
  { name: 'Authorization', description: 'The access token. lpreq sends it from secret storage or LPREQ_TOKEN; never write the token itself here.', values: ['Bearer {{$processEnv LPREQ_TOKEN}}', 'Bearer {{token}}'] },
  { name: 'User-Agent', description: 'The client name.', values: ['lpreq'] },
  { name: 'If-None-Match', description: 'An ETag for a conditional request.', values: [] },
];

function completeHeaderNames(ctx: ServiceContext, block: Block, text: string, col: number, abs: (n: number) => number, out: CompletionEntry[]) {
  let s = 0;
  while (s < text.length && /\s/.test(text[s])) s++;
  if (text[s] === '#' || text.startsWith('//', s)) return;
  if (col < s || !/^[A-Za-z0-9-]*$/.test(text.slice(s, col))) return;
  const end = wordEnd(text, col);
  // The name being typed, or written over, is not "already present"; a colon already there is kept.
  const own = text.slice(s, end).toLowerCase();
  const present = new Set(block.headers.map((h) => h.name.text.toLowerCase()).filter((n) => n !== own));
  const colonFollows = /^\s*:/.test(text.slice(end));
  const endpoint = matchedEndpoint(ctx, block);
  const all = [...HEADERS, ...(endpoint?.headers ?? []).map((h) => ({ name: h.name, description: h.description, values: [] as string[] }))];
  all.forEach((h, i) => {
    if (present.has(h.name.toLowerCase())) return;
    out.push({
      label: h.name,
      kind: 'header',
      documentation: md(h.description),
      insertText: colonFollows ? h.name : `${h.name}: `,
      snippet: false,
      start: abs(s),
      end: abs(end),
      sortText: rank(5, i),
      retrigger: h.values.length > 0 && !colonFollows,
      detail: 'header',
    });
  });
}

function completeHeaderValue(name: string, text: string, from: number, col: number, abs: (n: number) => number, out: CompletionEntry[]) {
  const h = HEADERS.find((x) => x.name.toLowerCase() === name.toLowerCase());
  if (!h) return;
  let s = from;
  while (s < col && text[s] === ' ') s++;
  h.values.forEach((v, i) => {
    out.push({ label: v, kind: 'value', documentation: `A value of ${code(h.name)}: ${md(h.description)}`, insertText: v, snippet: false, start: abs(s), end: abs(Math.max(col, text.trimEnd().length)), sortText: rank(0, i), detail: `${h.name} value` });
  });
}

function completeMetadata(start: number, end: number, out: CompletionEntry[]) {
  METADATA.forEach((m, i) => {
    out.push({ label: `@${m.key}`, filterText: m.key, kind: 'metadata', detail: 'request metadata', documentation: m.doc, insertText: m.insert, snippet: true, start, end, sortText: rank(0, i) });
  });
}

function completeVariables(
  ctx: ServiceContext,
  doc: LpreqDocument,
  text: string,
  from: number,
  col: number,
  abs: (n: number) => number,
  out: CompletionEntry[],
  exclude: { defining?: string; request?: string },
  block: Block,
) {
  let s = from;
  while (s < col && text[s] === ' ') s++;
  // `{{%name}}` (percent-encoded): the `%` stays, the name is completed after it.
  if (text[s] === '%') s++;
  let e = col;
  while (e < text.length && /[\w.$-]/.test(text[e])) e++;
  const closed = text.startsWith('}}', e) || text.startsWith(' }}', e);
  const close = closed ? '' : '}}';
  const start = abs(s);
  const end = abs(e);
  const fileVariables = new Map<string, string>();
  for (const { block } of doc.blocks) {
    if (block.variables.length === 0) continue;
    for (const v of block.variables) fileVariables.set(v.name.text, v.value.text);
  }
  let i = 0;
  if (exclude.defining !== undefined) fileVariables.delete(exclude.defining);
  // The request's own prompt variables first: asked for when it is sent, they win over the rest.
  const asked = new Set<string>();
  for (const p of block.metadata.length > 0 ? promptVariables(block) : []) {
    if (asked.has(p.name)) continue;
    asked.add(p.name);
    out.push({
      label: p.name,
      kind: 'variable',
      detail: 'prompt variable',
      documentation: `Asked for when this request is sent${p.description ? `: ${md(p.description)}` : ''} (${code(`# @prompt ${p.name}`)})`,
      insertText: p.name + close,
      snippet: false,
      start,
      end,
      sortText: rank(0, i++),
    });
  }
  for (const [name, value] of fileVariables) {
    if (asked.has(name)) continue;
    out.push({
      label: name,
      kind: 'variable',
      detail: 'file variable',
      documentation: `${code(`@${name}`)} = ${isSecretVariable(name, ctx.env) ? '(secret)' : code(value)}`,
      insertText: name + close,
      snippet: false,
      start,
      end,
      sortText: rank(0, i++),
    });
  }
  const envNames = new Set<string>();
  for (const [e2, vars] of Object.entries(ctx.env?.environments ?? {})) {
    if (ctx.env?.selected !== undefined && ctx.env.selected !== e2) continue;
    for (const name of Object.keys(vars)) if (!name.startsWith('$')) envNames.add(name);
  }
  for (const name of envNames) {
    if (fileVariables.has(name) || asked.has(name)) continue;
    const source = environmentSource(name, ctx.env);
    const shown = isSecretVariable(name, ctx.env) ? '(secret)' : source ? code(source.value) : '';
    out.push({
      label: name,
      kind: 'variable',
      detail: `environment${source ? ` ${source.environment}` : ''}`,
      documentation: `${code(name)} = ${shown}${source?.file ? `\n\nfrom ${md(source.file)}` : ''}`,
      insertText: name + close,
      snippet: false,
      start,
      end,
      sortText: rank(1, i++),
    });
  }
  // Variables that scripts of JetBrains' client set: named, so they can be written; lpreq does not run the scripts.
  const scripted = new Set<string>([...(ctx.scope.scriptNames ?? []), ...block.scriptSets.map((x) => x.name)]);
  for (const name of scripted) {
    if (fileVariables.has(name) || envNames.has(name) || asked.has(name)) continue;
    out.push({
      label: name,
      kind: 'variable',
      detail: 'set by a script',
      documentation: `Set by a script of JetBrains' HTTP client (${code('client.global.set')} or ${code('request.variables.set')}); lpreq does not run scripts, so it has no value when lpreq sends`,
      insertText: name + close,
      snippet: false,
      start,
      end,
      sortText: rank(1, i++),
    });
  }
  // Only requests above this one: a request can only use the response of an earlier one.
  const before = new RequestsBefore(ctx.scope);
  for (const ref of doc.blocks) {
    if (ref.block === block) break;
    before.pass(ref.block);
  }
  for (const name of requestNamesOf(before.scope)) {
    if (name === exclude.request) continue;
    for (const part of ['response.body.$.', 'response.headers.']) {
      out.push({
        label: `${name}.${part}`,
        kind: 'reference',
        detail: `named request ${name}`,
        documentation: part.includes('body') ? `A value of the response body of ${code(name)}, by JSONPath: ${code(`${name}.response.body.$.id`)}` : `A response header of ${code(name)}: ${code(`${name}.response.headers.Location`)}`,
        insertText: `${snippetText(`${name}.${part}`)}$0${close}`,
        snippet: true,
        start,
        end,
        sortText: rank(2, i++),
      });
    }
  }
  for (const v of SYSTEM_VARIABLES) {
    out.push({
      label: v.name,
      kind: 'variable',
      detail: 'system variable',
      documentation: md(v.description),
      insertText: v.insert + close,
      snippet: false,
      start,
      end,
      sortText: rank(3, i++),
    });
  }
}
