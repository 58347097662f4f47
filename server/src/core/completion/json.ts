/**
 * Completion inside a JSON body: the documented shape of a JSON endpoint's body, or a form
 * endpoint's bracket names read as JSON keys, and the documented values of a key.
 */
import { findNodeAtLocation, getLocation, parseTree, type ParseError } from 'jsonc-parser';
import type { Endpoint } from '../catalog/catalog';
import { splitParamName } from '../catalog/parameterText';
import type { JsonShape } from '../catalog/schema';
import { code, describeParameter, md, typeLabel } from '../describe';
import type { ServiceContext } from '../documentIndex';
import type { Block } from '../parser';
import { own } from '../own';
import { matchedEndpoint, rank, snippetText, type CompletionEntry, type CompletionOptions } from './items';

/**
 * The documented JSON body with what it requires, on lines of its own (a tab stop at each
 * value), as a completion of [start, end). Lines are indented with `\t`, which the editor turns
 * into its own unit of indentation; a client without snippets gets two spaces.
 */
export function bodySkeleton(shape: JsonShape, start: number, end: number): CompletionEntry {
  let n = 0;
  const write = (s: JsonShape, depth: number): string => {
    const inner = '\n' + '\t'.repeat(depth + 1);
    const close = '\n' + '\t'.repeat(depth);
    if (s.type === 'array') return s.items ? `[${inner}${write(s.items, depth + 1)}${close}]` : `[$${++n}]`;
    if (s.type !== 'object') return s.type === 'string' ? `"$${++n}"` : `$${++n}`;
    const keys = (s.required ?? []).filter((k) => own(s.properties, k));
    if (keys.length === 0) return `{$${++n}}`;
    return `{${keys.map((k) => `${inner}"${snippetText(k)}": ${write(own(s.properties, k)!, depth + 1)}`).join(',')}${close}}`;
  };
  const snippet = write(shape, 0);
  return {
    label: 'JSON body',
    kind: 'value',
    detail: 'the documented JSON body, with what it requires',
    documentation: shape.description ? md(shape.description) : undefined,
    insertText: snippet,
    snippet: true,
    plain: snippet.replace(/\$\d+/g, '').replace(/\t/g, '  '),
    start,
    end,
    sortText: rank(0, 0),
  };
}

/**
 * Inside a JSON body: the keys the object at the cursor takes, and the values of a key
 * that has documented ones. The shape comes from the endpoint's JSON body (quiz submission
 * update) or, for a form endpoint written as JSON, from its bracket names
 * (`{"module": {"` offers `name`, `position`, ...).
 */
export function completeJson(
  ctx: ServiceContext,
  block: Block,
  rel: number,
  base: number,
  out: CompletionEntry[],
  options: CompletionOptions = {},
) {
  const body = block.jsonBody;
  const endpoint = matchedEndpoint(ctx, block);
  if (!body || !endpoint) return;
  const at = rel - body.start;
  if (at < 0 || at > body.text.length) return;
  // An empty object or array where the body starts (`{}` closed by the editor): the documented body, when asked for.
  const empty = /^(\s*)(\{\s*\}|\[\s*\])\s*$/.exec(body.text);
  if (empty && endpoint.jsonBody && options.triggerCharacter === undefined && !empty[2].includes('\n')) {
    const from = empty[1].length;
    if (at > from && at < from + empty[2].length)
      out.push(bodySkeleton(endpoint.jsonBody, base + body.start + from, base + body.start + from + empty[2].length));
  }
  const location = getLocation(body.text, at);
  // The word being typed, with its opening quote: it is replaced whole. Brackets belong to a
  // word only inside quotes (a key `"include[]"`); outside, they are the JSON's own.
  const wordAround = (word: RegExp) => {
    let from = at;
    while (from > 0 && word.test(body.text[from - 1])) from--;
    let to = at;
    while (to < body.text.length && word.test(body.text[to])) to++;
    return { from, to };
  };
  let { from: s, to: e } = wordAround(/[\w\-[\]$]/);
  // A word with brackets not closed by a quote (`"GRA]` in an array): the brackets are the JSON's.
  if (body.text[s - 1] !== '"' || (body.text[e] !== '"' && /[[\]]/.test(body.text.slice(s, e))))
    ({ from: s, to: e } = wordAround(/[\w\-$]/));
  const quoted = body.text[s - 1] === '"';
  if (quoted) s--;
  if (quoted && body.text[e] === '"') e++;
  const start = base + body.start + s;
  const end = base + body.start + e;
  const path = location.path;
  if (
    location.isAtPropertyKey ||
    (location.previousNode === undefined && /[{,]\s*"?[\w-]*$/.test(body.text.slice(0, at)))
  ) {
    const objectPath = location.isAtPropertyKey ? path.slice(0, -1) : path;
    const present = new Set(jsonKeysAt(body.text, objectPath));
    // What the request misses as it stands (its JSON read as parameters), as for parameter
    // lines. The key being typed leaves the JSON broken, so it is checked without that key.
    const missingNow = new Set<string>();
    const repaired = endpoint.jsonBody ? undefined : withoutTypedKey(body.text, s, e);
    if (repaired !== undefined) {
      const probe: Block = { ...block, jsonBody: { ...body, text: repaired } };
      for (const d of ctx.checker.checkBlock(probe, ctx.scope))
        if (d.code === 'missing-required') for (const m of d.data?.missing ?? []) missingNow.add(m);
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
    out.push({
      label: text,
      kind: 'value',
      detail: param?.name,
      documentation: param
        ? `${code(v)}${meaning ? ` · ${md(meaning)}` : ''}\n\n${md(param.name)}: ${md(param.description)}`
        : undefined,
      insertText: snippetText(text),
      snippet: false,
      start,
      end,
      sortText: rank(0, i),
    });
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

const JSON_VALUE: Record<string, string> = {
  object: '{$1}',
  array: '[$1]',
  string: '"$1"',
  integer: '$1',
  number: '$1',
  boolean: '${1|true,false|}',
  any: '$1',
};

/**
 * The keys of the object at `path`: from the endpoint's JSON shape, or from its bracket
 * parameter names. `missing` are the parameters the request misses as it stands: a key that
 * leads to one is required here.
 */
function jsonKeys(endpoint: Endpoint, path: (string | number)[], missing: Set<string> = new Set()): JsonKey[] {
  if (endpoint.jsonBody) {
    let shape: JsonShape | undefined = endpoint.jsonBody;
    for (const step of path)
      shape = typeof step === 'number' ? shape?.items : (own(shape?.properties, step) ?? shape?.additionalProperties);
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
    const value = leaf
      ? JSON_VALUE[
          param.type === 'integer' || param.type === 'number' || param.type === 'boolean' ? param.type : 'string'
        ]
      : array
        ? '[$1]'
        : '{$1}';
    keys.set(key, {
      key,
      detail: leaf || array ? typeLabel(param) + (param.required ? ' · Required' : '') : 'object',
      documentation: leaf || array ? describeParameter(endpoint, param) : undefined,
      required: param.required === true,
      value,
    });
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
  const name =
    keys[0] +
    keys
      .slice(1)
      .map((k) => `[${k}]`)
      .join('') +
    (isArray ? '[]' : '');
  return endpoint.params.find((p) => p.name === name);
}
