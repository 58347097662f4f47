/**
 * The assertion lines of a request (LPREQ-FORMAT section 6) against the documentation: a line
 * that cannot be read (`invalid-assertion`), a PATH into the response that names a field the
 * returned resource does not document (`unknown-field`), and an EXPECTED the field can never
 * hold or an order on what has none (`invalid-enum`, `invalid-type`). Every diagnostic stands
 * on its assertion's line: on the part at fault (the path segment, the EXPECTED as written,
 * or the operator).
 *
 * What a field is comes from the catalog's resources (`catalog/resources.ts`), never from
 * code that knows an endpoint. Where the docs do not show a value's inside, or the request
 * matches no documented endpoint, a PATH is not checked at all.
 */
import {
  canonicalOperator,
  nameSpan,
  readAssertion,
  type Assertion,
  type AssertionOperator,
  type AssertionParse,
  type Expected,
  type JsonPathSegment,
} from '../assertion';
import type { Catalog, EndpointPath } from '../catalog/catalog';
import { SCALAR_TYPES, walkPath, type PlaceType } from '../catalog/resources';
import type { Block } from '../parser';
import { enumSuggestions } from '../suggest';
import { isNearMiss } from '../catalog/parameterText';
import { isDate, isDateTime, typeProblem } from '../values';
import { tableKey } from '../tableKey';
import { choices, fit, quote } from './phrases';
import { diag, NO_DIAGNOSTICS, type Diagnostic, type DiagnosticData } from './diagnostics';
import type { RequestCheck } from './context';

/** The operators that order their operands: they need a number, an integer, a DateTime or a Date. */
const ORDERING: ReadonlySet<AssertionOperator> = new Set(['<', '<=', '>', '>=']);
/** The types the ordering operators compare: numbers by value, dates in time order. */
const NUMERIC: ReadonlySet<string> = new Set(['integer', 'number']);
const TEMPORAL: ReadonlySet<string> = new Set(['DateTime', 'Date']);

/** The entries kept in each of a checker's tables: past this many, a table starts again. */
const MAX_ENTRIES = 10_000;

/** What the check of a line or of a block's assertion lines found, offsets from the first character of the text checked. */
interface Verdicts {
  /** Whether they depend on the endpoint the request matched: only a PATH into the body does. */
  readonly onEndpoint: boolean;
  /** What they give when the endpoint does not matter, or under a request that matched none; undefined until asked. */
  anywhere: readonly Diagnostic[] | undefined;
  /** What they give by the documented path the request matched, when that matters. */
  byPath: Map<EndpointPath, readonly Diagnostic[]> | undefined;
}

/** A line's verdicts, with the line read (offsets from its first character). */
interface LineVerdicts extends Verdicts {
  readonly read: AssertionParse;
}

/** The verdicts kept for the request under the documented path `path` (undefined: a path does not matter, or none matched). */
function kept(known: Verdicts, path: EndpointPath | undefined): readonly Diagnostic[] | undefined {
  return path === undefined ? known.anywhere : known.byPath?.get(path);
}

function keep(known: Verdicts, path: EndpointPath | undefined, found: readonly Diagnostic[]): void {
  if (path === undefined) known.anywhere = found;
  else (known.byPath ??= new Map()).set(path, found);
}

/**
 * The checks of assertion lines, kept by the text as written. A file repeats its assertion
 * lines: `?? status == 200` and `?? duration < 2000` under every request, the same lines
 * under each request to an endpoint. What they find depends on nothing but their text and,
 * for a PATH into the body, the documented path the request matched (which gives the
 * endpoint, what it returns and how messages name it). So a block's assertion lines, from
 * the first to the last, are looked up at once by their text; a text not seen before is
 * checked line by line, each line looked up in turn; a line not seen before is read and
 * checked. A line seen before is neither read nor checked again, and the tree reads its
 * lines only when asked (`assertionsOf`). One pair of tables a checker, since the verdicts
 * come from its catalog; each bounded, emptied when full.
 */
export class AssertionVerdicts {
  private readonly sections = new Map<string, Verdicts>();
  private readonly lines = new Map<string, LineVerdicts>();

  constructor(private readonly catalog: Catalog) {}

  /** Checks every assertion line of a block. `check` is what the checks share when the request matched a documented endpoint. */
  checkBlock(block: Block, check: RequestCheck | undefined, out: Diagnostic[]): void {
    const lines = block.assertionLines;
    const from = lines[0];
    const section = block.text.slice(from, lines[lines.length - 1]);
    let known = this.sections.get(section);
    if (known === undefined) {
      if (this.sections.size >= MAX_ENTRIES) this.sections.clear();
      let onEndpoint = false;
      for (let i = 0; i < lines.length && !onEndpoint; i += 2)
        onEndpoint = this.line(block.text.slice(lines[i], lines[i + 1])).onEndpoint;
      known = { onEndpoint, anywhere: undefined, byPath: undefined };
      this.sections.set(tableKey(section), known);
    }
    // Looked up without a closure or an object made: this runs for every block that has assertions.
    const path = known.onEndpoint ? check?.path : undefined;
    let found = kept(known, path);
    if (found === undefined) {
      found = this.checkSection(block, path === undefined ? undefined : check);
      keep(known, path, found);
    }
    for (let k = 0; k < found.length; k++) out.push(placed(found[k], from));
  }

  /** The diagnostics of a block's assertion lines, offsets from the first one's start. */
  private checkSection(block: Block, check: RequestCheck | undefined): readonly Diagnostic[] {
    const lines = block.assertionLines;
    let out: Diagnostic[] | undefined;
    for (let i = 0; i < lines.length; i += 2) {
      const known = this.line(block.text.slice(lines[i], lines[i + 1]));
      const path = known.onEndpoint ? check?.path : undefined;
      let found = kept(known, path);
      if (found === undefined) {
        found = verdictOf(known.read, this.catalog, path === undefined ? undefined : check);
        keep(known, path, found);
      }
      for (let k = 0; k < found.length; k++) (out ??= []).push(placed(found[k], lines[i] - lines[0]));
    }
    return out ?? NO_DIAGNOSTICS;
  }

  /** A line's entry: read at the first sight of its text. */
  private line(written: string): LineVerdicts {
    let known = this.lines.get(written);
    if (known === undefined) {
      if (this.lines.size >= MAX_ENTRIES) this.lines.clear();
      // Read from the copy that is the key: the texts of the read, and the messages made of
      // them, are then pieces of the copy, not of the document.
      const text = tableKey(written);
      const read = readAssertion(text, 0, text.length, 0);
      known = { read, onEndpoint: onEndpoint(read), anywhere: undefined, byPath: undefined };
      this.lines.set(text, known);
    }
    return known;
  }
}

/** Whether what a line's check finds depends on the endpoint its request matched: a PATH into the body does. */
function onEndpoint(read: AssertionParse): boolean {
  const field = read.assertion?.field;
  return field !== undefined && field.kind === 'body' && field.path !== undefined;
}

/** The diagnostics of one assertion line read (offsets as its read has them). */
function verdictOf(read: AssertionParse, catalog: Catalog, check: RequestCheck | undefined): readonly Diagnostic[] {
  if (read.problem)
    return [
      diag('invalid-assertion', read.problem.message, read.problem.start, read.problem.end, undefined, [
        ...(read.problem.related ?? []),
        'An assertion is ?? FIELD OPERATOR [EXPECTED] (LPREQ-FORMAT section 6).',
      ]),
    ];
  const out: Diagnostic[] = [];
  checkAssertion(read.assertion, catalog, check, out);
  return out.length > 0 ? out : NO_DIAGNOSTICS;
}

/** A diagnostic of the table, moved to where its line stands: always a new object, since the table's are shared. */
function placed(d: Diagnostic, by: number): Diagnostic {
  return { ...d, start: d.start + by, end: d.end + by };
}

function checkAssertion(a: Assertion, catalog: Catalog, check: RequestCheck | undefined, out: Diagnostic[]): void {
  const field = a.field;
  const op = canonicalOperator(a.operator);
  switch (field.kind) {
    case 'status':
    case 'duration': {
      // Both are numbers, whatever the endpoint: the status an integer, the duration milliseconds.
      if (!a.expected || !(op === '==' || op === '!=' || ORDERING.has(op)) || hasVariable(a.expected)) return;
      const type = field.kind === 'status' ? 'integer' : 'number';
      if (!numberFits(type, a.expected)) {
        const what =
          field.kind === 'status'
            ? 'the status is a number, such as 200 or 404'
            : 'the duration is a number of milliseconds, such as 2000';
        out.push(
          diag(
            'invalid-type',
            `${quote(a.expected.raw)} cannot be compared with ${field.kind} by ${a.operator}: ${what}`,
            a.expected.start,
            a.expected.end,
          ),
        );
      }
      return;
    }
    case 'header':
      if (ORDERING.has(op)) out.push(orderingOnText(a, 'a header'));
      return;
    case 'body': {
      const path = field.path;
      if (!path) {
        if (ORDERING.has(op)) out.push(orderingOnText(a, 'the body without a path'));
        return;
      }
      if (!check) return;
      const returns = check.endpoint.returns;
      const end = walkPath(catalog, returns, path.segments);
      if (end.kind === 'not-shown') return;
      if (end.kind === 'unknown') {
        out.push(unknownField(path.segments[end.at], end, check.label, returns ?? ''));
        return;
      }
      checkValue(a, op, end.types, out);
      return;
    }
  }
}

/** `<` and its kin on a text: the operator is at fault. */
function orderingOnText(a: Assertion, what: string): Diagnostic {
  return diag(
    'invalid-type',
    `${a.operator} compares numbers and dates, and ${what} is text: use ==, != or includes`,
    a.operatorSpan.start,
    a.operatorSpan.end,
  );
}

export function unknownField(
  segment: JsonPathSegment,
  step: { near?: string; list: boolean; on: string },
  label: string,
  returns: string,
): Diagnostic {
  if (segment.kind === 'name') {
    const at = nameSpan(segment);
    if (step.list) {
      return diag(
        'unknown-field',
        fit(
          `${step.on} is a list: '${segment.name}' is a field of its elements, write [*].${segment.name} or [0].${segment.name}`,
          `${step.on} is a list: reach '${segment.name}' in its elements with [*] or [N]`,
        ),
        at.start,
        at.end,
        undefined,
        [`${label} returns ${returns}`],
      );
    }
    const data: DiagnosticData | undefined = step.near !== undefined ? { replacement: step.near } : undefined;
    const name = quote(segment.name);
    return diag(
      'unknown-field',
      step.near !== undefined
        ? fit(
            `${name} is not a documented field of ${step.on}: did you mean '${step.near}'?`,
            `${name} is not a documented field: did you mean '${step.near}'?`,
          )
        : fit(`${name} is not a documented field of ${step.on}`, `${name} is not a documented field`),
      at.start,
      at.end,
      data,
      [`${label} returns ${returns}`],
    );
  }
  const written = segment.kind === 'wildcard' ? 'a wildcard' : `[${segment.kind === 'index' ? segment.index : ''}]`;
  return diag(
    'unknown-field',
    fit(
      `${written} selects nothing here: ${step.on} is not a list`,
      `${written} selects nothing here: this is not a list`,
    ),
    segment.start,
    segment.end,
    undefined,
    [`${label} returns ${returns}`],
  );
}

/** EXPECTED and the operator against what the path reaches. Loops, not closures: this runs for every assertion of a file. */
function checkValue(a: Assertion, op: AssertionOperator, types: readonly PlaceType[], out: Diagnostic[]): void {
  const expected = a.expected;
  if (ORDERING.has(op)) {
    let numeric = false;
    let temporal = false;
    for (let i = 0; i < types.length; i++) {
      const t = types[i].type;
      // A value the docs leave open (`any`) may be a number.
      if (t === 'any') return;
      if (NUMERIC.has(t)) numeric = true;
      else if (TEMPORAL.has(t)) temporal = true;
    }
    if (!numeric && !temporal) {
      out.push(
        diag(
          'invalid-type',
          fit(
            `${a.operator} compares numbers and dates, and this field is ${typesText(types)}: use == or !=`,
            `${a.operator} compares numbers and dates, not this field: use == or !=`,
          ),
          a.operatorSpan.start,
          a.operatorSpan.end,
          undefined,
          [
            '<, <=, > and >= compare a number, an integer, a DateTime or a Date.',
            `The field is documented as ${typesText(types)}.`,
          ],
        ),
      );
      return;
    }
    if (!expected || hasVariable(expected)) return;
    if ((numeric && numberFits('number', expected)) || (temporal && timeFits(expected.text))) return;
    out.push(
      diag(
        'invalid-type',
        `${quote(expected.raw)} is not ${numeric ? 'a number' : 'a date (yyyy-mm-dd) or an ISO 8601 date and time'}, which ${a.operator} needs here`,
        expected.start,
        expected.end,
      ),
    );
    return;
  }
  if (!expected || (op !== '==' && op !== '!=' && op !== 'includes') || hasVariable(expected)) return;
  let problem: Diagnostic | undefined;
  for (let i = 0; i < types.length; i++) {
    const verdict = op === 'includes' ? includesVerdict(types[i], expected) : equalsVerdict(types[i], expected);
    if (verdict === undefined) return;
    problem ??= verdict;
  }
  if (problem) out.push(problem);
}

/** Whether `==` or `!=` could ever compare equal: undefined when it could, else the diagnostic. */
function equalsVerdict(t: PlaceType, expected: Expected): Diagnostic | undefined {
  const text = expected.text;
  if (!expected.quoted && text === 'null') {
    return t.nullable || t.type === 'any'
      ? undefined
      : typeDiagnostic(t, expected, `${fieldName(t)} is not documented as nullable: it is never null`);
  }
  switch (t.type) {
    case 'integer':
    case 'number':
      return !expected.quoted && numberFits(t.type, expected)
        ? undefined
        : typeDiagnostic(t, expected, `${fieldName(t)} is ${article(t.type)}`);
    case 'boolean':
      return !expected.quoted && (text === 'true' || text === 'false')
        ? undefined
        : typeDiagnostic(t, expected, `${fieldName(t)} is a boolean: true or false`);
    case 'false':
      return !expected.quoted && text === 'false'
        ? undefined
        : typeDiagnostic(t, expected, `${fieldName(t)} is false here`);
    case 'DateTime':
      return timeFits(text)
        ? undefined
        : typeDiagnostic(t, expected, `${fieldName(t)} is a DateTime (ISO 8601, such as 2026-09-14T08:00:00Z)`);
    case 'Date':
      return isDate(text) ? undefined : typeDiagnostic(t, expected, `${fieldName(t)} is a Date (yyyy-mm-dd)`);
    case 'string':
      return enumVerdict(t, expected);
    default:
      // An object, a list or what the docs do not show: not compared here.
      return undefined;
  }
}

/** `includes`: a text's enum (section 6), or an element of a list of scalars. */
function includesVerdict(t: PlaceType, expected: Expected): Diagnostic | undefined {
  if (t.type === 'string') return enumVerdict(t, expected);
  if (t.type.endsWith('[]')) {
    const element = t.type.slice(0, -2);
    if (!SCALAR_TYPES.has(element)) return undefined;
    return equalsVerdict({ type: element, field: t.field, owner: t.owner, nullable: false }, expected);
  }
  return undefined;
}

function enumVerdict(t: PlaceType, expected: Expected): Diagnostic | undefined {
  const values = t.field?.enum;
  const text = expected.text;
  if (!values || values.length === 0 || values.includes(text)) return undefined;
  // An open set (the docs say other values exist) takes others, but not a near miss of a listed one, as for parameters.
  if (t.field?.enumOpen && !isNearMiss(text, values)) return undefined;
  const { closest: near, others } = enumSuggestions(text, values);
  const written = (v: string) => (expected.quoted ? `"${v}"` : v);
  const data: DiagnosticData | undefined =
    near === undefined && others.length === 0
      ? undefined
      : {
          ...(near !== undefined ? { replacement: written(near) } : {}),
          ...(others.length > 0 ? { choices: others.map(written) } : {}),
        };
  return diag(
    'invalid-enum',
    near !== undefined
      ? fit(
          `${quote(text)} is not a value of ${fieldName(t)}: did you mean ${near}?`,
          `${quote(text)} is not a documented value: did you mean ${near}?`,
        )
      : fit(
          `${quote(text)} is not a value of ${fieldName(t)}: use ${choices(values)}`,
          `${quote(text)} is not a documented value of ${fieldName(t)}`,
        ),
    expected.start,
    expected.end,
    data,
    [`Documented values of ${fieldName(t)}: ${values.join(', ')}`],
  );
}

function typeDiagnostic(t: PlaceType, expected: Expected, why: string): Diagnostic {
  const shown = expected.quoted ? `${expected.raw} (quoted: a string)` : quote(expected.raw);
  return diag(
    'invalid-type',
    `${shown} can never be the value here: ${why}${t.nullable && t.type !== 'any' ? ' (or null)' : ''}`,
    expected.start,
    expected.end,
  );
}

/** A number literal, compared by value (section 6): an integer field takes `1` and `1.0`, not `1.5`. */
function numberFits(type: 'integer' | 'number', expected: Expected): boolean {
  if (expected.quoted) return false;
  if (isDigits(expected.text)) return true;
  return (
    typeProblem('number', expected.text) === null && (type === 'number' || Number.isInteger(Number(expected.text)))
  );
}

/** Digits alone (`200`, `2000`), the EXPECTED of most status and duration assertions: read without a regular expression. */
function isDigits(text: string): boolean {
  if (text.length === 0) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
}

/** A value the ordering of dates reads: a Date or a DateTime, whichever the field is (they compare in time order). */
function timeFits(text: string): boolean {
  return isDateTime(text) || isDate(text);
}

function hasVariable(expected: Expected): boolean {
  return expected.raw.includes('{{');
}

function fieldName(t: PlaceType): string {
  if (t.field && t.owner) return `${t.owner.name}.${t.field.name}`;
  return t.owner ? `a value of ${t.owner.name}` : 'the value';
}

function typesText(types: readonly PlaceType[]): string {
  return [...new Set(types.map((t) => t.type))].join(' or ');
}

function article(type: string): string {
  return type === 'integer' ? 'an integer' : 'a number';
}
