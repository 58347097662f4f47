/**
 * Completion of parameters: names level by level in bracket notation (patterns as snippets),
 * and values (enums, booleans, date templates, context codes), in a query string or on a
 * body line.
 */
import type { CatalogParameter } from '../catalog/catalog';
import { lookupParameter } from '../catalog/parameters';
import { code, describeParameter, md, parameterRules, typeLabel } from '../describe';
import type { ServiceContext } from '../documentIndex';
import type { Block } from '../parser';
import { own } from '../own';
import { choiceText, matchedEndpoint, rank, snippetText, type CompletionEntry, type CompletionOptions } from './items';

/** A query pair at the cursor: `?name=value&...` from offset `from` of the line. */
export function completeQuery(
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
  completeParameterNames(
    ctx,
    block,
    text.slice(pairStart, col),
    abs(pairStart),
    abs(nameEnd),
    'query',
    eq !== -1,
    lineStart + pairStart,
    out,
  );
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

export function completeBodyLine(
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
    // A value written right after `=` gets its spaces on the way (`name = value`): the edit
    // takes the `=` too, and the list is filtered by what follows it.
    if (vs === eq + 1 && col > eq) {
      const spaced = eq > 0 && /\s/.test(text[eq - 1]);
      completeValues(ctx, block, name, abs(eq), abs(Math.max(ve, col)), out, options, spaced ? '= ' : ' = ');
      return;
    }
    completeValues(ctx, block, name, abs(vs), abs(Math.max(ve, col)), out, options);
    return;
  }
  let nameEnd = eq === -1 ? text.length : eq;
  while (nameEnd > col && /\s/.test(text[nameEnd - 1])) nameEnd--;
  completeParameterNames(
    ctx,
    block,
    text.slice(from, col),
    abs(from),
    abs(Math.max(nameEnd, col)),
    'body',
    eq !== -1,
    lineStart + from,
    out,
  );
}

/** Parameter names, level by level in bracket notation. `typed` is the name up to the cursor. */
export function completeParameterNames(
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
  for (const d of ctx.checker.checkBlock(block, ctx.scope))
    if (d.code === 'missing-required') for (const m of d.data?.missing ?? []) missingNow.add(m);
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
    const rest = param.name.startsWith(basePrefix)
      ? param.name.slice(basePrefix.length)
      : patternRest(param, basePrefix);
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
        documentation: leaf
          ? doc
          : pattern
            ? md(own(param.patterns, pattern[1])?.description ?? '')
            : `The keys inside ${code(`${basePrefix}${shownKey}]`)}, as bracket names (${code(param.name)})`,
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
  return segs
    .slice(inner.length + 1)
    .map((s) => `${s}]`)
    .join('[');
}

/** `permissions[{X}][enabled]` as a snippet: the pattern segment becomes a tab stop (a choice when listed). */
function patternSnippet(param: CatalogParameter, text: string): string {
  let n = 1;
  return text
    .split(/(\{\w+\})/)
    .map((part) => {
      const m = /^\{(\w+)\}$/.exec(part);
      if (!m) return snippetText(part);
      const values = own(param.patterns, m[1])?.values;
      if (values && values.length > 0) return `\${${n++}|${values.map(choiceText).join(',')}|}`;
      return `\${${n++}:${m[1]}}`;
    })
    .join('');
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
  /** Text the edit writes before the value, over the `=` it starts at (`' = '`). */
  before = '',
) {
  const endpoint = matchedEndpoint(ctx, block);
  if (!endpoint) return;
  const found = lookupParameter(endpoint, name);
  if (!found) return;
  const param = found.param;
  const push = (label: string, insertText: string, documentation: string | undefined, index: number, snippet = false) =>
    out.push({
      label,
      kind: 'value',
      insertText: (snippet ? snippetText(before) : before) + insertText,
      snippet,
      start,
      end,
      sortText: rank(0, index),
      documentation,
      detail: typeLabel(param),
      ...(before !== '' ? { filterText: `=${label}` } : {}),
    });
  if (param.enum) {
    param.enum.forEach((v, i) => {
      const d = own(param.enumDescriptions, v);
      push(
        v,
        v,
        `${code(v)}${param.default === v ? ' (default)' : ''}${d ? `\n\n${md(d)}` : ''}\n\n${md(param.name)}`,
        i,
      );
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
