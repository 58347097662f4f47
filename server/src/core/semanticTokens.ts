/**
 * Semantic tokens: what the TextMate grammar cannot know, since only the catalog and the
 * variables say it. A path segment that fills a placeholder (`880` in `/courses/880/...`)
 * is a `parameter`; a documented parameter name is a `property` (`deprecated` when the docs
 * say so); a value is an `enumMember` when it is one of the parameter's documented values,
 * a `number` for an integer or number parameter, a `keyword` for a boolean; a `{{name}}` is
 * a `variable` (`readonly` from an environment, `defaultLibrary` for a system variable), a
 * `parameter` when its request asks for it (`# @prompt`), a `function` for a named request's
 * response. On an assertion line: the field, the documented fields its path names, the
 * operator and a value the field takes. Names and values the checker reports are left to the
 * grammar and the diagnostic. Offsets are relative to the block; every token stays on one line.
 */
import { readsVariables, requestNamesOf } from './checker';
import { lookupParameter } from './catalog/parameters';
import type { ServiceContext } from './documentIndex';
import { assertionsOf, findVariableReferences, promptVariables, type Block, type LpreqDocument } from './parser';
import { parseRequestReference } from './variables';
import { nameSpan } from './assertion';
import type { Endpoint } from './catalog/catalog';
import { walkPath, type PlaceType, type Step } from './catalog/resources';

export const TOKEN_TYPES = [
  'parameter',
  'property',
  'enumMember',
  'number',
  'keyword',
  'variable',
  'function',
  'operator',
] as const;
export const TOKEN_MODIFIERS = ['deprecated', 'readonly', 'defaultLibrary'] as const;

export type TokenType = (typeof TOKEN_TYPES)[number];

export interface SemanticToken {
  start: number;
  end: number;
  /** Index in TOKEN_TYPES. */
  type: number;
  /** Bits of TOKEN_MODIFIERS. */
  modifiers: number;
}

const type = (t: TokenType) => TOKEN_TYPES.indexOf(t);
const DEPRECATED = 1 << TOKEN_MODIFIERS.indexOf('deprecated');
const READONLY = 1 << TOKEN_MODIFIERS.indexOf('readonly');
const DEFAULT_LIBRARY = 1 << TOKEN_MODIFIERS.indexOf('defaultLibrary');

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const BOOLEANS = new Set(['true', 'false', '1', '0']);

/** The names the file defines with `@name = value`, once per parse. */
const fileNamesOf = new WeakMap<LpreqDocument, Set<string>>();

export function fileVariableNames(doc: LpreqDocument): Set<string> {
  let names = fileNamesOf.get(doc);
  if (!names) {
    names = new Set();
    for (const { block } of doc.blocks) for (const v of block.variables) names.add(v.name.text);
    fileNamesOf.set(doc, names);
  }
  return names;
}

/** The tokens of one block, sorted, offsets relative to the block. Never throws on a parsed block. */
export function blockSemanticTokens(ctx: ServiceContext, block: Block, fileNames: Set<string>): SemanticToken[] {
  const out: SemanticToken[] = [];
  const request = block.request;
  const match = request && request.methodKnown ? ctx.checker.matchBlock(block, ctx.scope) : undefined;
  const endpoint = match?.kind === 'matched' ? match.endpoint : undefined;

  if (request && match?.kind === 'matched')
    pathTokens(request.target.text, request.target.start, match.path.template, out);

  if (endpoint) {
    for (const p of block.params) {
      // A JSON body is the grammar's; a name with a variable in it is not looked up.
      if (p.source === 'json' || p.name.text.includes('{{')) continue;
      const found = lookupParameter(endpoint, p.decodedName);
      if (!found) continue;
      const param = found.param;
      out.push({
        start: p.name.start,
        end: p.name.end,
        type: type('property'),
        modifiers: param.deprecated ? DEPRECATED : 0,
      });
      const value = p.decodedValue;
      if (p.value.text.length === 0 || p.value.text.includes('{{')) continue;
      let valueType = -1;
      if (param.enum?.includes(value)) valueType = type('enumMember');
      else if ((param.type === 'integer' || param.type === 'number') && NUMBER.test(value)) valueType = type('number');
      else if (param.type === 'boolean' && BOOLEANS.has(value)) valueType = type('keyword');
      if (valueType !== -1) out.push({ start: p.value.start, end: p.value.end, type: valueType, modifiers: 0 });
    }
  }

  if (block.assertionLines.length > 0) assertionTokens(ctx, block, endpoint, out);
  if (block.text.includes('{{')) variableTokens(ctx, block, fileNames, out);
  // A token is on one line of the editor, which breaks lines at a lone \r too.
  return out.filter((t) => !/[\r\n]/.test(block.text.slice(t.start, t.end))).sort((a, b) => a.start - b.start);
}

/**
 * The segments of the target's path that fill placeholders of the matched template. The
 * template's segments are aligned with the target's from `/api/` on; a target whose
 * segments do not line up one to one (a `{{variable}}` standing for several, a wildcard
 * path) gives none.
 */
function pathTokens(target: string, targetStart: number, template: string, out: SemanticToken[]) {
  if (template.includes('{*')) return;
  let end = target.length;
  for (const c of ['?', '#']) {
    const at = target.indexOf(c);
    if (at !== -1 && at < end) end = at;
  }
  const api = target.indexOf('/api/');
  const templateApi = template.indexOf('/api/');
  if (api === -1 || api >= end || templateApi === -1) return;
  const wanted = template.slice(templateApi + 1).split('/');
  const pieces: { start: number; end: number }[] = [];
  for (let from = api + 1; from <= end;) {
    let slash = target.indexOf('/', from);
    if (slash === -1 || slash > end) slash = end;
    pieces.push({ start: from, end: slash });
    from = slash + 1;
  }
  // A trailing slash leaves an empty last piece.
  if (pieces.length === wanted.length + 1 && pieces[pieces.length - 1].start === pieces[pieces.length - 1].end)
    pieces.pop();
  if (pieces.length !== wanted.length) return;
  for (let i = 0; i < wanted.length; i++) {
    const piece = pieces[i];
    if (!wanted[i].startsWith('{') || piece.end === piece.start) continue;
    // A segment with a `{{variable}}` in it is the variable's token.
    if (target.slice(piece.start, piece.end).includes('{{')) continue;
    out.push({ start: targetStart + piece.start, end: targetStart + piece.end, type: type('parameter'), modifiers: 0 });
  }
}

/**
 * An assertion line: its field (`keyword`), the segments of its path that name documented
 * fields (`property`), its operator, and an EXPECTED the field takes: a documented enum value,
 * a number where a number is compared, `true`/`false` of a boolean, `null` where the docs say
 * "or null". A line that cannot be read, or an EXPECTED with a `{{variable}}`, is the grammar's.
 */
function assertionTokens(ctx: ServiceContext, block: Block, endpoint: Endpoint | undefined, out: SemanticToken[]) {
  for (const read of assertionsOf(block)) {
    const a = read.assertion;
    if (!a) continue;
    const field = a.field;
    out.push({ start: field.start, end: field.start + field.kind.length, type: type('keyword'), modifiers: 0 });
    let place: readonly PlaceType[] | undefined;
    if (field.kind === 'body' && field.path && endpoint) {
      const steps: Step[] = [];
      const end = walkPath(ctx.checker.catalog, endpoint.returns, field.path.segments, steps);
      field.path.segments.forEach((segment, i) => {
        const reached = steps[i];
        if (segment.kind !== 'name' || reached?.kind !== 'documented') return;
        const documented = reached.types.find((t) => t.field?.name === segment.name);
        if (!documented?.field) return;
        const at = nameSpan(segment);
        out.push({
          start: at.start,
          end: at.end,
          type: type('property'),
          modifiers: documented.field.deprecated ? DEPRECATED : 0,
        });
      });
      if (end.kind === 'documented') place = end.types;
    }
    out.push({ start: a.operatorSpan.start, end: a.operatorSpan.end, type: type('operator'), modifiers: 0 });
    const expected = a.expected;
    if (!expected || expected.raw.includes('{{')) continue;
    let valueType = -1;
    if (field.kind === 'status' || field.kind === 'duration') {
      if (NUMBER.test(expected.raw)) valueType = type('number');
    } else if (place) {
      const text = expected.text;
      for (const t of place) {
        if (t.type === 'string' && t.field?.enum?.includes(text)) valueType = type('enumMember');
        else if ((t.type === 'integer' || t.type === 'number') && NUMBER.test(expected.raw)) valueType = type('number');
        else if (
          (t.type === 'boolean' && (expected.raw === 'true' || expected.raw === 'false')) ||
          (t.nullable && expected.raw === 'null')
        )
          valueType = type('keyword');
        if (valueType !== -1) break;
      }
    }
    if (valueType !== -1) out.push({ start: expected.start, end: expected.end, type: valueType, modifiers: 0 });
  }
}

function variableTokens(ctx: ServiceContext, block: Block, fileNames: Set<string>, out: SemanticToken[]) {
  const prompts = block.metadata.length > 0 ? promptVariables(block) : [];
  for (const r of findVariableReferences(block.text, 0)) {
    if (!readsVariables(block, r.start, r.end)) continue;
    // The name inside the braces, without the spaces around it or the `%` of `{{%name}}`.
    let s = r.start + 2;
    let e = r.end - 2;
    while (s < e && /\s/.test(block.text[s])) s++;
    while (e > s && /\s/.test(block.text[e - 1])) e--;
    if (s === e) continue;
    const expression = r.expression.startsWith('%') ? r.expression.slice(1) : r.expression;
    if (r.expression.startsWith('%')) s++;
    if (s >= e) continue;
    let tokenType = -1;
    let modifiers = 0;
    if (expression.startsWith('$')) {
      tokenType = type('variable');
      modifiers = DEFAULT_LIBRARY;
      // Only the name (`$processEnv`), not its argument.
      const space = block.text.slice(s, e).search(/\s/);
      if (space !== -1) e = s + space;
    } else if (prompts.some((p) => p.name === expression)) {
      tokenType = type('parameter');
    } else if (parseRequestReference(expression)) {
      const name = parseRequestReference(expression)!.name;
      if (!requestNamesOf(ctx.scope).has(name)) continue;
      tokenType = type('function');
      e = s + name.length;
    } else if (fileNames.has(expression)) {
      tokenType = type('variable');
    } else if (ctx.scope.values.has(expression)) {
      tokenType = type('variable');
      modifiers = READONLY;
    } else if (ctx.scope.scriptNames?.has(expression) || block.scriptSets.some((x) => x.name === expression)) {
      tokenType = type('variable');
    }
    if (tokenType !== -1) out.push({ start: s, end: e, type: tokenType, modifiers });
  }
}
