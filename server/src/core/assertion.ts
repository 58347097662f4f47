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
const COMPARING_OPERATORS = ['==', '!=', '<', '<=', '>', '>=', 'includes', 'contains', 'startsWith', 'endsWith', 'matches'] as const;
/** Operators that take no EXPECTED value. */
const UNARY_OPERATORS = ['exists', '!exists', 'isNumber', 'isString', 'isBoolean', 'isArray', 'isNull'] as const;
export const ASSERTION_OPERATORS = [...COMPARING_OPERATORS, ...UNARY_OPERATORS] as const;
export type AssertionOperator = (typeof ASSERTION_OPERATORS)[number];

const OPERATOR_SET: ReadonlySet<string> = new Set(ASSERTION_OPERATORS);
const UNARY_SET: ReadonlySet<string> = new Set(UNARY_OPERATORS);

export interface Span {
  start: number;
  end: number;
}

/** One step of a JSONPath: `$`, `.name` or `['name']`, `[N]`, `[*]`. */
export type JsonPathSegment = ({ kind: 'root' } | { kind: 'name'; name: string } | { kind: 'index'; index: number } | { kind: 'wildcard' }) & Span;

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
  message: string;
}

export type AssertionParse = { assertion: Assertion; problem?: undefined } | { assertion?: undefined; problem: AssertionProblem };

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
  const scan = new LineScanner(line, base);
  scan.blanks();
  const start = scan.at;
  if (!line.startsWith(ASSERTION_PREFIX, scan.at)) return scan.fail('an assertion line starts with ??', start, line.length);
  scan.at += ASSERTION_PREFIX.length;
  const lineEnd = trimmedEnd(line);
  const whole = { start: base + start, end: base + Math.max(lineEnd, start + ASSERTION_PREFIX.length) };
  if (scan.at < line.length && line[scan.at] !== ' ' && line[scan.at] !== '\t') {
    return scan.fail('?? is followed by a space, then the field (status, duration, header NAME, body, body PATH)', start, lineEnd);
  }
  scan.blanks();
  if (scan.done(lineEnd)) return scan.fail('an empty assertion: write ?? FIELD OPERATOR [EXPECTED], such as ?? status == 200', start, lineEnd);

  const fieldWord = scan.word(lineEnd);
  let field: AssertionField;
  switch (fieldWord.text) {
    case 'status':
    case 'duration':
      field = { kind: fieldWord.text, start: base + fieldWord.start, end: base + fieldWord.end };
      break;
    case 'header': {
      scan.blanks();
      if (scan.done(lineEnd)) return scan.fail('header needs the name of the header: ?? header content-type includes json', fieldWord.start, fieldWord.end);
      const name = scan.word(lineEnd);
      if (OPERATOR_SET.has(name.text)) return scan.fail('header needs the name of the header before the operator', name.start, name.end);
      field = {
        kind: 'header',
        name: name.text,
        nameSpan: { start: base + name.start, end: base + name.end },
        start: base + fieldWord.start,
        end: base + name.end,
      };
      break;
    }
    case 'body': {
      scan.blanks();
      const next = line[scan.at];
      if (!scan.done(lineEnd) && (next === '$' || next === '.' || next === '[')) {
        const pathStart = scan.at;
        const path = parseJsonPath(line, pathStart, lineEnd, base);
        if ('problem' in path) return { problem: path.problem };
        scan.at = path.path.end - base;
        field = { kind: 'body', path: path.path, start: base + fieldWord.start, end: path.path.end };
      } else field = { kind: 'body', start: base + fieldWord.start, end: base + fieldWord.end };
      break;
    }
    default:
      return scan.fail(`unknown field ${quote(fieldWord.text)}: a field is status, duration, header NAME, body or body PATH`, fieldWord.start, fieldWord.end);
  }

  scan.blanks();
  if (scan.done(lineEnd))
    return scan.fail(`an operator is missing after ${quote(line.slice(field.start - base, field.end - base))}`, field.start - base, field.end - base);
  const opWord = scan.word(lineEnd);
  if (!OPERATOR_SET.has(opWord.text)) {
    const why =
      field.kind === 'body' && field.path === undefined && /^[\w-]+$/.test(opWord.text)
        ? ` (a path into the body starts with $, as in body $.${opWord.text})`
        : '';
    return scan.fail(`unknown operator ${quote(opWord.text)}${why}: one of ${ASSERTION_OPERATORS.join(', ')}`, opWord.start, opWord.end);
  }
  const operator = opWord.text as AssertionOperator;
  const operatorSpan = { start: base + opWord.start, end: base + opWord.end };
  scan.blanks();
  const rest = line.slice(scan.at, lineEnd);
  let expected: Expected | undefined;
  if (takesExpected(operator)) {
    if (rest.length === 0) return scan.fail(`${operator} needs a value to compare with`, opWord.start, opWord.end);
    const quoted = rest.length >= 2 && rest.startsWith('"') && rest.endsWith('"');
    expected = { raw: rest, text: quoted ? rest.slice(1, -1) : rest, quoted, start: base + scan.at, end: base + lineEnd };
    if (operator === 'matches' && !rest.includes('{{')) {
      const problem = regexProblem(expected.text);
      if (problem !== undefined) return scan.fail(`not a regular expression: ${problem}`, scan.at, lineEnd);
    }
  } else if (rest.length > 0) {
    return scan.fail(`${operator} takes no value: remove ${quote(rest)}`, scan.at, lineEnd);
  }
  return { assertion: { ...whole, text: line.slice(start, lineEnd), field, operator, operatorSpan, expected } };
}

/**
 * A JSONPath as section 6 writes it, from `from` up to the next blank (bracketed names may
 * hold blanks): `$`, `.name`, `['name']` or `["name"]`, `[N]`, `[*]`, in any sequence. A path
 * that starts with `.` or `[` starts at the root, as if `$` were written.
 */
export function parseJsonPath(line: string, from: number, to = line.length, base = 0): { path: JsonPath } | { problem: AssertionProblem } {
  const segments: JsonPathSegment[] = [];
  let i = from;
  const fail = (message: string, s: number, e: number) => ({ problem: { message, start: base + s, end: base + Math.max(e, s + 1) } });
  if (line[i] === '$') {
    segments.push({ kind: 'root', start: base + i, end: base + i + 1 });
    i++;
  }
  while (i < to && line[i] !== ' ' && line[i] !== '\t') {
    const c = line[i];
    if (c === '.') {
      let j = i + 1;
      if (line[j] === '*') {
        segments.push({ kind: 'wildcard', start: base + i, end: base + j + 1 });
        i = j + 1;
        continue;
      }
      while (j < to && !' \t.['.includes(line[j])) j++;
      if (j === i + 1) return fail('a path cannot end in . or have an empty name: write $.name', i, i + 1);
      const name = line.slice(i + 1, j);
      if (name.includes(']')) return fail(`${quote(name)} is not a name: a path is $, .name, ['name'], [N] and [*]`, i, j);
      segments.push({ kind: 'name', name, start: base + i, end: base + j });
      i = j;
    } else if (c === '[') {
      const close = bracketEnd(line, i, to);
      if (close === undefined) return fail('an unclosed [ in the path', i, to);
      const inner = line.slice(i + 1, close);
      const span = { start: base + i, end: base + close + 1 };
      if (inner === '*') segments.push({ kind: 'wildcard', ...span });
      else if (/^\d+$/.test(inner)) segments.push({ kind: 'index', index: Number(inner), ...span });
      else if (/^'(?:[^'\\]|\\.)*'$/.test(inner) || /^"(?:[^"\\]|\\.)*"$/.test(inner)) {
        segments.push({ kind: 'name', name: inner.slice(1, -1).replace(/\\(.)/g, '$1'), ...span });
      } else return fail(`[${inner}] is not a path step: write [N], [*] or ['name']`, i, close + 1);
      i = close + 1;
    } else {
      return fail(`${quote(c)} cannot stand here in a path: a path is $, .name, ['name'], [N] and [*]`, i, i + 1);
    }
  }
  if (i === from) return fail('a path is missing', from, from + 1);
  return { path: { text: line.slice(from, i), segments: segments.filter((s) => s.kind !== 'root'), start: base + from, end: base + i } };
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

function trimmedEnd(line: string): number {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t' || line[end - 1] === '\r' || line[end - 1] === '\n')) end--;
  return end;
}

function quote(text: string): string {
  return `'${text.length > 40 ? `${text.slice(0, 40)}…` : text}'`;
}

class LineScanner {
  at = 0;
  constructor(
    private readonly line: string,
    private readonly base: number,
  ) {}

  blanks(): void {
    while (this.at < this.line.length && (this.line[this.at] === ' ' || this.line[this.at] === '\t')) this.at++;
  }

  done(end: number): boolean {
    return this.at >= end;
  }

  word(end: number): { text: string; start: number; end: number } {
    const start = this.at;
    while (this.at < end && this.line[this.at] !== ' ' && this.line[this.at] !== '\t') this.at++;
    return { text: this.line.slice(start, this.at), start, end: this.at };
  }

  fail(message: string, start: number, end: number): { problem: AssertionProblem } {
    return { problem: { message, start: this.base + start, end: this.base + Math.max(end, start + 1) } };
  }
}
