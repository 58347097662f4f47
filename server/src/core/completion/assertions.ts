/**
 * Completion on an assertion line (`?? FIELD OPERATOR [EXPECTED]`, LPREQ-FORMAT section 6):
 * the fields after `?? `, header names after `header `, the segments of a JSONPath into the
 * documented resource the endpoint returns (`?? body $.` lists Module's fields, `$[*].` the
 * fields of a list's elements), the operators that fit the field, and EXPECTED values: the
 * documented values of an enum field, `true`/`false` for a boolean, `null` where the docs say
 * "or null", the documented statuses of the endpoint.
 *
 * The line is read as far as the cursor, tolerantly: a line being typed is rarely one the
 * parser accepts (`?? body $.` ends in a dot).
 */
import {
  ASSERTION_OPERATORS,
  canonicalOperator,
  parseJsonPath,
  takesExpected,
  type AssertionOperator,
  type JsonPathSegment,
} from '../assertion';
import {
  ASSERTION_FIELDS,
  describeFieldValue,
  describePlace,
  operatorDoc,
  placeTypeLabel,
  RESPONSE_HEADERS,
} from '../assertionDocs';
import type { Endpoint } from '../catalog/catalog';
import { fieldsOf, placeOf, walkPath, type PlaceType } from '../catalog/resources';
import { code, md } from '../describe';
import type { ServiceContext } from '../documentIndex';
import type { Block } from '../parser';
import { matchedEndpoint, rank, type CompletionEntry } from './items';

const ORDERING = new Set<string>(['<', '<=', '>', '>=']);
const TEXT_OPERATORS: readonly AssertionOperator[] = [
  '==',
  '!=',
  'includes',
  'startsWith',
  'endsWith',
  'matches',
  'exists',
  '!exists',
];
const NUMBER_OPERATORS: readonly AssertionOperator[] = ['==', '!=', '<', '<=', '>', '>='];

/** Completes on an assertion line `text` (the cursor at column `col`); `abs` turns a column into an absolute offset. */
export function completeAssertion(
  ctx: ServiceContext,
  block: Block,
  text: string,
  col: number,
  abs: (n: number) => number,
  out: CompletionEntry[],
): void {
  const prefix = /^\s*\?\?/.exec(text);
  if (!prefix || col < prefix[0].length) return;
  const rest = text.slice(prefix[0].length, col);
  const wordEnd = (from: number) => {
    let e = from;
    while (e < text.length && text[e] !== ' ' && text[e] !== '\t') e++;
    return e;
  };
  if (rest === '') {
    // Right after `??`: the field, after a space.
    completeFields(abs(col), abs(col), ' ', out);
    return;
  }
  if (!/^[ \t]/.test(rest)) return;
  const fieldWord = /^[ \t]+(\S*)$/.exec(rest);
  if (fieldWord) {
    completeFields(abs(col - fieldWord[1].length), abs(wordEnd(col)), '', out);
    return;
  }
  const endpoint = matchedEndpoint(ctx, block);
  // status and duration: numbers.
  const number = /^[ \t]+(status|duration)[ \t]+(\S*)$/.exec(rest);
  if (number) {
    completeOperators(NUMBER_OPERATORS, abs(col - number[2].length), abs(wordEnd(col)), out);
    return;
  }
  const numberValue = /^[ \t]+status[ \t]+(\S+)[ \t]+(\S*)$/.exec(rest);
  if (numberValue) {
    if (isOperator(numberValue[1]) && takesExpected(numberValue[1]))
      completeStatuses(endpoint, abs(col - numberValue[2].length), abs(valueEnd(text, col)), out);
    return;
  }
  // header NAME: the name, then the operators of a text.
  const headerName = /^[ \t]+header[ \t]+(\S*)$/.exec(rest);
  if (headerName) {
    completeHeaders(endpoint, abs(col - headerName[1].length), abs(wordEnd(col)), out);
    return;
  }
  const headerOperator = /^[ \t]+header[ \t]+\S+[ \t]+(\S*)$/.exec(rest);
  if (headerOperator) {
    completeOperators(TEXT_OPERATORS, abs(col - headerOperator[1].length), abs(wordEnd(col)), out);
    return;
  }
  // body: a path, or the operators of the whole body as text.
  const bodyWord = /^[ \t]+body[ \t]+(\S*)$/.exec(rest);
  if (bodyWord) {
    const word = bodyWord[1];
    const from = col - word.length;
    if (word.length > 0 && '$.['.includes(word[0])) {
      if (endpoint) completePath(ctx, endpoint, word, from, col, wordEnd(col), abs, out);
      return;
    }
    completeOperators(TEXT_OPERATORS, abs(from), abs(wordEnd(col)), out);
    if (word.length === 0 && endpoint) completePath(ctx, endpoint, '$', col, col, wordEnd(col), abs, out, true);
    return;
  }
  const pathOperator = /^[ \t]+body[ \t]+([$.[]\S*)[ \t]+(\S*)$/.exec(rest);
  if (pathOperator) {
    const types = endpoint ? placeAt(ctx, endpoint, pathOperator[1]) : undefined;
    const ordered =
      types === undefined ||
      types.some((t) => t.type === 'integer' || t.type === 'number' || t.type === 'DateTime' || t.type === 'Date');
    const operators = ASSERTION_OPERATORS.filter((op) => ordered || !ORDERING.has(op));
    completeOperators(operators, abs(col - pathOperator[2].length), abs(wordEnd(col)), out);
    return;
  }
  const pathValue = /^[ \t]+body[ \t]+([$.[]\S*)[ \t]+(\S+)[ \t]+(.*)$/.exec(rest);
  if (pathValue && endpoint && isOperator(pathValue[2]) && takesExpected(pathValue[2])) {
    const types = placeAt(ctx, endpoint, pathValue[1]);
    if (types)
      completeValues(
        types,
        canonicalOperator(pathValue[2]),
        abs(col - pathValue[3].length),
        abs(valueEnd(text, col)),
        out,
      );
  }
}

function isOperator(word: string): word is AssertionOperator {
  return (ASSERTION_OPERATORS as readonly string[]).includes(word);
}

/** EXPECTED runs to the end of the line: a value replaces what is written after the cursor too. */
function valueEnd(text: string, col: number): number {
  return Math.max(col, text.trimEnd().length);
}

function completeFields(start: number, end: number, lead: string, out: CompletionEntry[]): void {
  ASSERTION_FIELDS.forEach((f, i) => {
    out.push({
      label: f.name,
      kind: 'metadata',
      detail: 'assertion field',
      documentation: f.doc,
      insertText: `${lead}${f.name} `,
      snippet: false,
      start,
      end,
      sortText: rank(0, i),
      retrigger: true,
    });
  });
}

function completeOperators(
  operators: readonly AssertionOperator[],
  start: number,
  end: number,
  out: CompletionEntry[],
): void {
  operators.forEach((op, i) => {
    const more = takesExpected(op);
    out.push({
      label: op,
      kind: 'operator',
      detail: more ? 'operator, then EXPECTED' : 'operator',
      documentation: operatorDoc(op),
      insertText: more ? `${op} ` : op,
      snippet: false,
      start,
      end,
      sortText: rank(0, i),
      retrigger: more,
    });
  });
}

function completeHeaders(endpoint: Endpoint | undefined, start: number, end: number, out: CompletionEntry[]): void {
  RESPONSE_HEADERS.forEach((h, i) => {
    // A paginated list sends Link: it comes first there.
    const first = h.paginated === true && endpoint?.paginated === true;
    out.push({
      label: h.name,
      kind: 'header',
      detail: 'response header',
      documentation: md(h.doc),
      insertText: `${h.name} `,
      snippet: false,
      start,
      end,
      sortText: rank(first ? 0 : 1, i),
      retrigger: true,
    });
  });
}

/** The statuses the docs give the endpoint: its success status, then its documented errors with their conditions. */
function completeStatuses(endpoint: Endpoint | undefined, start: number, end: number, out: CompletionEntry[]): void {
  const success = endpoint?.successStatus ?? 200;
  const seen = new Set<number>([success]);
  out.push({
    label: String(success),
    kind: 'value',
    detail: 'status',
    documentation: endpoint
      ? `The documented success status of ${code(`${endpoint.method} ${endpoint.paths[0].template}`)}`
      : 'OK',
    insertText: String(success),
    snippet: false,
    start,
    end,
    sortText: rank(0, 0),
  });
  (endpoint?.errors ?? []).forEach((e, i) => {
    if (seen.has(e.status)) return;
    seen.add(e.status);
    out.push({
      label: String(e.status),
      kind: 'value',
      detail: 'documented error status',
      documentation: md(e.condition),
      insertText: String(e.status),
      snippet: false,
      start,
      end,
      sortText: rank(1, i),
    });
  });
}

/** What a written path reaches in the endpoint's response, when the docs describe it. */
function placeAt(ctx: ServiceContext, endpoint: Endpoint, pathText: string): readonly PlaceType[] | undefined {
  const parsed = parseJsonPath(pathText, 0);
  if ('problem' in parsed) return undefined;
  const end = walkPath(ctx.checker.catalog, endpoint.returns, parsed.path.segments);
  return end.kind === 'documented' ? end.types : undefined;
}

/**
 * The next segment of a path being typed: `word` is the path from its start (column `from`) to
 * the cursor (`col`), and `end` where the word ends on the line. A name after a dot or in
 * `['`, an index or a wildcard after `[`, or either after a whole segment.
 */
export function completePath(
  ctx: ServiceContext,
  endpoint: Endpoint,
  word: string,
  from: number,
  col: number,
  end: number,
  abs: (n: number) => number,
  out: CompletionEntry[],
  insertRoot = false,
): void {
  const dot = word.lastIndexOf('.');
  const open = word.lastIndexOf('[');
  const close = word.lastIndexOf(']');
  let complete = word;
  let partial: 'dot' | 'bracket' | undefined;
  if (dot > open && dot > close) {
    if (!/^[\w$-]*$/.test(word.slice(dot + 1))) return;
    complete = word.slice(0, dot);
    partial = 'dot';
  } else if (open > dot && open > close) {
    if (!/^['"]?[\w$-]*$|^\d*$|^\*?$/.test(word.slice(open + 1))) return;
    complete = word.slice(0, open);
    partial = 'bracket';
  }
  let segments: JsonPathSegment[] = [];
  if (complete !== '' && complete !== '$') {
    const parsed = parseJsonPath(complete, 0);
    if ('problem' in parsed) return;
    segments = parsed.path.segments;
  }
  const reached = walkPath(ctx.checker.catalog, endpoint.returns, segments);
  if (reached.kind !== 'documented') return;
  const types = reached.types;
  const lists = types.some((t) => t.type.endsWith('[]'));
  const fields = fieldsOf(ctx.checker.catalog, types);
  const root = insertRoot ? '$' : '';
  const push = (
    label: string,
    insertText: string,
    start: number,
    detail: string,
    documentation: string,
    index: number,
    extra: Partial<CompletionEntry> = {},
  ) =>
    out.push({
      label,
      kind: 'parameter',
      detail,
      documentation,
      insertText,
      snippet: false,
      start: abs(start),
      end: abs(end),
      sortText: rank(0, index),
      ...extra,
    });
  const listItems = (start: number, filterPrefix: string) => {
    const element = types.filter((t) => t.type.endsWith('[]')).map((t) => t.type.slice(0, -2));
    const about = `an element of ${code(placeTypeLabel(types))}${element.length > 0 ? `: ${code([...new Set(element)].join(' | '))}` : ''}`;
    push('[*]', `${root}[*]`, start, 'every element', `Every element of the list: ${about}`, 0, {
      filterText: `${filterPrefix}[*]`,
    });
    push('[0]', `${root}[0]`, start, 'the first element', `The first element of the list: ${about}`, 1, {
      filterText: `${filterPrefix}[0]`,
    });
  };
  const fieldDoc = (f: (typeof fields)[number]) => {
    const place = placeOf(f.field.type, f.field, f.owner, f.field.nullable === true);
    return { detail: placeTypeLabel(place), documentation: describePlace(ctx.checker.catalog, place) };
  };
  if (partial === 'dot') {
    if (lists) listItems(from + dot, '.');
    fields.forEach((f, i) => {
      const { detail, documentation } = fieldDoc(f);
      push(
        f.field.name,
        f.field.name,
        from + dot + 1,
        detail,
        documentation,
        2 + i,
        f.field.deprecated ? { deprecated: true } : {},
      );
    });
    return;
  }
  if (partial === 'bracket') {
    if (lists) listItems(from + open, '[');
    fields.forEach((f, i) => {
      const { detail, documentation } = fieldDoc(f);
      const written = `['${f.field.name}']`;
      push(written, written, from + open, detail, documentation, 2 + i, {
        filterText: written,
        ...(f.field.deprecated ? { deprecated: true } : {}),
      });
    });
    return;
  }
  // After `$` or a whole segment: the next one, with its dot or brackets.
  if (lists) listItems(col, '');
  fields.forEach((f, i) => {
    const { detail, documentation } = fieldDoc(f);
    push(
      `.${f.field.name}`,
      `${root}.${f.field.name}`,
      col,
      detail,
      documentation,
      2 + i,
      f.field.deprecated ? { deprecated: true } : {},
    );
  });
}

/** EXPECTED: the documented values of an enum field, `true`/`false` for a boolean, `null` where the docs allow it. */
function completeValues(
  types: readonly PlaceType[],
  op: AssertionOperator,
  start: number,
  end: number,
  out: CompletionEntry[],
): void {
  const seen = new Set<string>();
  let index = 0;
  const push = (value: string, detail: string, documentation: string) => {
    if (seen.has(value)) return;
    seen.add(value);
    out.push({
      label: value,
      kind: 'value',
      detail,
      documentation,
      insertText: value,
      snippet: false,
      start,
      end,
      sortText: rank(0, index++),
    });
  };
  for (const here of types) {
    // `includes` on a list compares with its elements.
    const t =
      op === 'includes' && here.type.endsWith('[]') ? { ...here, type: here.type.slice(0, -2), nullable: false } : here;
    if (
      ORDERING.has(op) &&
      !(t.type === 'integer' || t.type === 'number' || t.type === 'DateTime' || t.type === 'Date')
    )
      continue;
    if (t.type === 'string' && t.field?.enum) {
      for (const v of t.field.enum) push(v, placeTypeLabel([t]), describeFieldValue(t, v) ?? code(v));
    } else if (t.type === 'boolean') {
      push('true', 'boolean', `${code('true')}: the JSON boolean`);
      push('false', 'boolean', `${code('false')}: the JSON boolean`);
    } else if (t.type === 'false') {
      push('false', 'false', `${code('false')}: the JSON boolean`);
    }
  }
  if ((op === '==' || op === '!=') && types.some((t) => t.nullable))
    push('null', 'null', 'The docs say this field may be null.');
}
