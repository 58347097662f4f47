/**
 * The syntax of an assertion line (LPREQ-FORMAT section 6): `?? FIELD OPERATOR [EXPECTED]`.
 *
 * Pure and never throwing: a line gives either an assertion, with the offsets of each part,
 * or the reason it cannot be read (an `invalid-assertion`), with the offsets of the part at
 * fault. Offsets are the line's own plus `base`, so a caller passes the line's offset in its
 * block. What an assertion means against the documentation (the checker) and against a
 * response (the runner) is decided elsewhere, on this one tree.
 */

const ASSERTION_PREFIX = '??';

/** Operators that compare with an EXPECTED value. */
const COMPARING_OPERATORS = [
  '==',
  '!=',
  '<',
  '<=',
  '>',
  '>=',
  'includes',
  'contains',
  'startsWith',
  'endsWith',
  'matches',
] as const;
/** Operators that take no EXPECTED value. */
const UNARY_OPERATORS = ['exists', '!exists', 'isNumber', 'isString', 'isBoolean', 'isArray', 'isNull'] as const;
export const ASSERTION_OPERATORS = [...COMPARING_OPERATORS, ...UNARY_OPERATORS] as const;
export type AssertionOperator = (typeof ASSERTION_OPERATORS)[number];

const UNARY_SET: ReadonlySet<string> = new Set(UNARY_OPERATORS);

export interface Span {
  start: number;
  end: number;
}

/** One step of a JSONPath: `$`, `.name` or `['name']`, `[N]`, `[*]`. */
export type JsonPathSegment = (
  { kind: 'root' } | { kind: 'name'; name: string } | { kind: 'index'; index: number } | { kind: 'wildcard' }
) &
  Span;

export interface JsonPath extends Span {
  /** As written. */
  text: string;
  /** The segments after the root: `$` itself is implied and not in the list. */
  segments: JsonPathSegment[];
}

export type AssertionField =
  | ({ kind: 'status' } & Span)
  | ({ kind: 'duration' } & Span)
  | ({ kind: 'header'; name: string; nameSpan: Span } & Span)
  | ({ kind: 'body'; path?: JsonPath } & Span);

export interface Expected extends Span {
  /** As written, trimmed (quotes and `{{variables}}` included). */
  raw: string;
  /** The text compared: inside the quotes when quoted, else as written. */
  text: string;
  /** Written in double quotes: always a string, whatever the field's type. */
  quoted: boolean;
}

export interface Assertion extends Span {
  /** The line as written, trimmed. */
  text: string;
  field: AssertionField;
  operator: AssertionOperator;
  operatorSpan: Span;
  expected?: Expected;
}

export interface AssertionProblem extends Span {
  /** One short sentence: what cannot be read and how to write it. */
  message: string;
  /** What else a person may want to read: the whole list the message points to. */
  related?: string[];
}

export type AssertionParse =
  { assertion: Assertion; problem?: undefined } | { assertion?: undefined; problem: AssertionProblem };

/** Whether a line (as written, leading blanks allowed) is an assertion line. */
export function isAssertionLine(line: string): boolean {
  let i = 0;
  while (i < line.length && (line[i] === ' ' || line[i] === '\t')) i++;
  return line.startsWith(ASSERTION_PREFIX, i);
}

/**
 * Where a name segment's name is written: after the dot of `.name`, or inside the quotes of
 * `['name']` (whose span is longer than the name by its brackets, quotes and escapes).
 */
export function nameSpan(segment: JsonPathSegment & { kind: 'name' }): Span {
  return segment.end - segment.start === segment.name.length + 1
    ? { start: segment.start + 1, end: segment.end }
    : { start: segment.start + 2, end: segment.end - 2 };
}

/** `includes` and `contains` are one operator. */
export function canonicalOperator(op: AssertionOperator): AssertionOperator {
  return op === 'contains' ? 'includes' : op;
}

export function takesExpected(op: AssertionOperator): boolean {
  return !UNARY_SET.has(op);
}

/**
 * Reads one assertion line. `base` is the offset of the line's first character in the
 * caller's text; every offset returned is relative to the same origin.
 */
export function parseAssertion(line: string, base = 0): AssertionParse {
  return readAssertion(line, 0, line.length, base);
}

/**
 * Reads the assertion line at [from, to) of `text`, in place: the parser passes a block's text
 * and a line's range, so no copy of the line is made. Every offset returned is an index of
 * `text` plus `shift`.
 */
export function readAssertion(text: string, from: number, to: number, shift: number): AssertionParse {
  // Index by index, with no scanner object, word objects or slices of the field and operator:
  // this runs for every assertion line of every check of a file, and what it allocates beyond
  // the tree is garbage at once.
  const start = skipSpaces(text, from, to);
  if (start + ASSERTION_PREFIX.length > to || text.charCodeAt(start) !== 63 || text.charCodeAt(start + 1) !== 63) {
    return problemAt(shift, 'an assertion line starts with ??', start, to);
  }
  let at = start + ASSERTION_PREFIX.length;
  const lineEnd = trimmedEnd(text, from, to);
  if (at < to && !isBlank(text.charCodeAt(at))) {
    return problemAt(
      shift,
      'put a space after ??, then the field: status, duration, header NAME, body or body PATH',
      start,
      lineEnd,
    );
  }
  at = skipSpaces(text, at, to);
  if (at >= lineEnd)
    return problemAt(
      shift,
      'the assertion is empty: write ?? FIELD OPERATOR [EXPECTED], such as ?? status == 200',
      start,
      lineEnd,
    );

  const fieldStart = at;
  const fieldEnd = wordEnd(text, at, lineEnd);
  at = fieldEnd;
  let field: AssertionField;
  switch (fieldWordAt(text, fieldStart, fieldEnd)) {
    case 'status':
      field = { kind: 'status', start: shift + fieldStart, end: shift + fieldEnd };
      break;
    case 'duration':
      field = { kind: 'duration', start: shift + fieldStart, end: shift + fieldEnd };
      break;
    case 'header': {
      const header = readHeaderField(text, skipSpaces(text, at, to), lineEnd, fieldStart, fieldEnd, shift);
      if ('problem' in header) return header;
      field = header;
      at = header.nameSpan.end - shift;
      break;
    }
    case 'body': {
      at = skipSpaces(text, at, to);
      const next = text.charCodeAt(at);
      if (at < lineEnd && (next === 36 || next === 46 || next === 91)) {
        const path = parseJsonPath(text, at, lineEnd, shift);
        if ('problem' in path) return { problem: path.problem };
        at = path.path.end - shift;
        field = { kind: 'body', path: path.path, start: shift + fieldStart, end: path.path.end };
      } else field = { kind: 'body', start: shift + fieldStart, end: shift + fieldEnd };
      break;
    }
    default:
      return problemAt(
        shift,
        `unknown field ${quote(text.slice(fieldStart, fieldEnd))}: a field is status, duration, header NAME, body or body PATH`,
        fieldStart,
        fieldEnd,
      );
  }

  at = skipSpaces(text, at, to);
  if (at >= lineEnd) {
    return problemAt(
      shift,
      `an operator is missing after ${quote(text.slice(field.start - shift, field.end - shift))}`,
      field.start - shift,
      field.end - shift,
    );
  }
  const opStart = at;
  const opEnd = wordEnd(text, at, lineEnd);
  const operator = operatorAt(text, opStart, opEnd);
  if (operator === undefined) {
    const opWord = text.slice(opStart, opEnd);
    const path = field.kind === 'body' && field.path === undefined && /^[\w-]+$/.test(opWord);
    return problemAt(
      shift,
      path
        ? `${quote(opWord)} is not an operator: a path into the body starts with $, as in body $.${opWord.slice(0, 30)}`
        : `unknown operator ${quote(opWord)}: write one such as ==, !=, <, includes, matches or exists`,
      opStart,
      opEnd,
      [`The operators: ${ASSERTION_OPERATORS.join(', ')}`],
    );
  }
  at = skipSpaces(text, opEnd, to);
  let expected: Expected | undefined;
  if (takesExpected(operator)) {
    if (at >= lineEnd) return problemAt(shift, `${operator} needs a value to compare with`, opStart, opEnd);
    const read = readExpected(text, operator, at, lineEnd, shift);
    if ('problem' in read) return read;
    expected = read;
  } else if (at < lineEnd) {
    return problemAt(shift, `${operator} takes no value: remove ${quote(text.slice(at, lineEnd))}`, at, lineEnd);
  }
  // Every object written out: a spread followed by more properties takes V8's slow path, on a
  // line read for every assertion of every check.
  return {
    assertion: {
      start: shift + start,
      end: shift + Math.max(lineEnd, start + ASSERTION_PREFIX.length),
      text: text.slice(start, lineEnd),
      field,
      operator,
      operatorSpan: { start: shift + opStart, end: shift + opEnd },
      expected,
    },
  };
}

/** `header NAME`: the name after the word, which must not be an operator. */
function readHeaderField(
  text: string,
  at: number,
  lineEnd: number,
  fieldStart: number,
  fieldEnd: number,
  shift: number,
): Extract<AssertionField, { kind: 'header' }> | { problem: AssertionProblem } {
  if (at >= lineEnd)
    return problemAt(
      shift,
      'header needs the name of the header: ?? header content-type includes json',
      fieldStart,
      fieldEnd,
    );
  const nameEnd = wordEnd(text, at, lineEnd);
  if (operatorAt(text, at, nameEnd) !== undefined)
    return problemAt(shift, 'header needs the name of the header before the operator', at, nameEnd);
  return {
    kind: 'header',
    name: text.slice(at, nameEnd),
    nameSpan: { start: shift + at, end: shift + nameEnd },
    start: shift + fieldStart,
    end: shift + nameEnd,
  };
}

/** The EXPECTED of an operator that takes one: the rest of the line, a problem when `matches` is given no regular expression. */
function readExpected(
  text: string,
  operator: AssertionOperator,
  at: number,
  lineEnd: number,
  shift: number,
): Expected | { problem: AssertionProblem } {
  const rest = text.slice(at, lineEnd);
  const quoted = rest.length >= 2 && rest.charCodeAt(0) === 34 && rest.charCodeAt(rest.length - 1) === 34;
  const expected = {
    raw: rest,
    text: quoted ? rest.slice(1, -1) : rest,
    quoted,
    start: shift + at,
    end: shift + lineEnd,
  };
  if (operator === 'matches' && !rest.includes('{{')) {
    const problem = regexProblem(expected.text);
    if (problem !== undefined) return problemAt(shift, `not a regular expression: ${problem}`, at, lineEnd);
  }
  return expected;
}

/** The field word at [s, e), compared in place (no slice); undefined when it is none of the four. */
function fieldWordAt(text: string, s: number, e: number): 'status' | 'duration' | 'header' | 'body' | undefined {
  switch (e - s) {
    case 4:
      return writtenAt(text, s, 'body') ? 'body' : undefined;
    case 6:
      return writtenAt(text, s, 'status') ? 'status' : writtenAt(text, s, 'header') ? 'header' : undefined;
    case 8:
      return writtenAt(text, s, 'duration') ? 'duration' : undefined;
    default:
      return undefined;
  }
}

/** The operators by their length, for `operatorAt`. */
const OPERATORS_BY_LENGTH: readonly (readonly AssertionOperator[])[] = (() => {
  const out: AssertionOperator[][] = [];
  for (const op of ASSERTION_OPERATORS) (out[op.length] ??= []).push(op);
  return out;
})();

/** The operator written at [s, e), compared in place (no slice): the constant itself, or undefined. */
function operatorAt(text: string, s: number, e: number): AssertionOperator | undefined {
  const candidates = OPERATORS_BY_LENGTH[e - s];
  if (candidates === undefined) return undefined;
  for (let i = 0; i < candidates.length; i++) if (writtenAt(text, s, candidates[i])) return candidates[i];
  return undefined;
}

/**
 * Whether `word` is written at `at` of `text`. A loop of charCodeAt, which V8's optimising
 * compiler inlines, where `startsWith` stays a call of a built-in on the hot path of reading
 * an assertion line.
 */
function writtenAt(text: string, at: number, word: string): boolean {
  for (let i = 0; i < word.length; i++) if (text.charCodeAt(at + i) !== word.charCodeAt(i)) return false;
  return true;
}

/**
 * A JSONPath as section 6 writes it, from `from` up to the next blank (bracketed names may
 * hold blanks): `$`, `.name`, `['name']` or `["name"]`, `[N]`, `[*]`, in any sequence. A path
 * that starts with `.` or `[` starts at the root, as if `$` were written.
 */
export function parseJsonPath(
  line: string,
  from: number,
  to = line.length,
  base = 0,
): { path: JsonPath } | { problem: AssertionProblem } {
  // `$` is implied, not a segment. This is the hot path of every assertion line: each segment
  // is written out as an object literal (a spread, `{ kind, ...span }`, takes V8's slow path),
  // and a failure is a module function (a closure made at each call would be allocated per line).
  const segments: JsonPathSegment[] = [];
  let i = from;
  if (line.charCodeAt(i) === 36) i++;
  while (i < to) {
    const c = line.charCodeAt(i);
    if (c === 32 || c === 9) break;
    if (c === 46) {
      let j = i + 1;
      if (line.charCodeAt(j) === 42) {
        segments.push({ kind: 'wildcard', start: base + i, end: base + j + 1 });
        i = j + 1;
        continue;
      }
      while (j < to) {
        const d = line.charCodeAt(j);
        if (d === 32 || d === 9 || d === 46 || d === 91) break;
        j++;
      }
      if (j === i + 1) return problemAt(base, "a path cannot end in '.' or have an empty name: write $.name", i, i + 1);
      const name = line.slice(i + 1, j);
      if (name.includes(']'))
        return problemAt(base, `${quote(name)} is not a name: a path is $, .name, ['name'], [N] and [*]`, i, j);
      segments.push({ kind: 'name', name, start: base + i, end: base + j });
      i = j;
    } else if (c === 91) {
      const close = bracketEnd(line, i, to);
      if (close === undefined) return problemAt(base, 'an unclosed [ in the path', i, to);
      const inner = line.slice(i + 1, close);
      const start = base + i;
      const end = base + close + 1;
      if (inner === '*') segments.push({ kind: 'wildcard', start, end });
      else if (/^\d+$/.test(inner)) segments.push({ kind: 'index', index: Number(inner), start, end });
      else if (/^'(?:[^'\\]|\\.)*'$/.test(inner) || /^"(?:[^"\\]|\\.)*"$/.test(inner)) {
        segments.push({ kind: 'name', name: inner.slice(1, -1).replace(/\\(.)/g, '$1'), start, end });
      } else return problemAt(base, `[${inner}] is not a path step: write [N], [*] or ['name']`, i, close + 1);
      i = close + 1;
    } else {
      return problemAt(
        base,
        `${quote(line[i])} cannot stand here in a path: a path is $, .name, ['name'], [N] and [*]`,
        i,
        i + 1,
      );
    }
  }
  if (i === from) return problemAt(base, 'a path is missing', from, from + 1);
  return { path: { text: line.slice(from, i), segments, start: base + from, end: base + i } };
}

/** A line or path that cannot be read, at [s, e) of the line (at least one character), offsets moved by `base`. */
function problemAt(
  base: number,
  message: string,
  s: number,
  e: number,
  related?: string[],
): { problem: AssertionProblem } {
  const problem: AssertionProblem = { message, start: base + s, end: base + Math.max(e, s + 1) };
  if (related) problem.related = related;
  return { problem };
}

/** The index of the `]` that closes the `[` at `open`, quotes respected; undefined when none does. */
function bracketEnd(line: string, open: number, to: number): number | undefined {
  let quoteChar: string | undefined;
  for (let i = open + 1; i < to; i++) {
    const c = line[i];
    if (quoteChar !== undefined) {
      if (c === '\\') i++;
      else if (c === quoteChar) quoteChar = undefined;
    } else if (c === "'" || c === '"') quoteChar = c;
    else if (c === ']') return i;
  }
  return undefined;
}

/**
 * The regular expression EXPECTED stands for: `/pattern/flags` as JavaScript writes it, or
 * the whole text as the pattern. Undefined when it does not parse.
 */
export function expectedRegExp(text: string): RegExp | undefined {
  const literal = /^\/(.*)\/([a-z]*)$/s.exec(text);
  try {
    return literal ? new RegExp(literal[1], literal[2]) : new RegExp(text);
  } catch {
    return undefined;
  }
}

function regexProblem(text: string): string | undefined {
  const literal = /^\/(.*)\/([a-z]*)$/s.exec(text);
  try {
    if (literal) new RegExp(literal[1], literal[2]);
    else new RegExp(text);
    return undefined;
  } catch (e) {
    return (e as Error).message.replace(/^Invalid regular expression: /, '');
  }
}

/** The end of [from, to) without its trailing spaces, tabs and line breaks. */
function trimmedEnd(text: string, from: number, to: number): number {
  let end = to;
  while (end > from) {
    const c = text.charCodeAt(end - 1);
    if (c !== 32 && c !== 9 && c !== 13 && c !== 10) break;
    end--;
  }
  return end;
}

function quote(text: string): string {
  return `'${text.length > 40 ? `${text.slice(0, 40)}…` : text}'`;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}

/** The first index from `from` that is not a space or tab (or `to`). */
function skipSpaces(line: string, from: number, to: number): number {
  let i = from;
  while (i < to && isBlank(line.charCodeAt(i))) i++;
  return i;
}

/** The end of the word at `from`: the next space or tab, or `to`. */
function wordEnd(line: string, from: number, to: number): number {
  let i = from;
  while (i < to && !isBlank(line.charCodeAt(i))) i++;
  return i;
}
