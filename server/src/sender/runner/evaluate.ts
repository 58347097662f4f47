/**
 * One assertion (LPREQ-FORMAT section 6) against one response: pure, never throwing.
 *
 * The field selects values (a path with `[*]` may select several); the assertion holds when
 * at least one is selected and every one satisfies the operator (`exists` and `!exists` only
 * count them). EXPECTED is read by the JSON type of each value: a number by value (`1` is
 * `1.0`; an integer beyond 2^53 compared as the server wrote it), a boolean as `true` or
 * `false`, null as `null`, a string as the text written (inside the quotes when quoted), an
 * array or object as JSON. `<`, `<=`, `>`, `>=` compare numbers by value, and DateTime and
 * Date values in time order: by the field's documented type where the docs give one, else
 * when both sides read as ISO 8601 (a header's number, sent as text, compares by value).
 *
 * What a result shows of the response (`actual`, the message) is cut short and passed
 * through the one scrubber: a token the server echoes never reaches a report.
 */
import {
  canonicalOperator,
  dateTimeMillis,
  expectedRegExp,
  own,
  type Assertion,
  type AssertionOperator,
} from '../../core/index';
import type { ExactNumbers } from '../exactNumbers';
import { longestSpelling, scrubSecrets, withoutSecretStart } from '../secrets';
import { formatJsonPath } from '../typed';
import { selectsSeveral, selectValues } from './select';

/** What an assertion reads of an exchange (an ExchangeResult is one). */
export interface ResponseFacts {
  /** Null when no response arrived. */
  status: number | null;
  durationMs: number;
  /** Lower-case names; a repeated header's values joined as the exchange joined them. */
  headers: Readonly<Record<string, string>>;
  /** The parsed body when `bodyKind` is json. */
  body: unknown;
  bodyText: string;
  bodyKind: 'json' | 'text' | 'binary' | 'empty';
  exactNumbers?: ExactNumbers;
}

export interface EvaluationContext {
  /** The documented type of the body's value at a path (`DateTime`, `integer|null`), when the docs give one. */
  documentedType?: (path: readonly (string | number)[]) => string | undefined;
  /** Secrets kept out of what the result shows (the token first). */
  secrets?: readonly (string | undefined)[];
  /** How long `matches` could take over the values of one assertion (regexBudget.ts), for its message. */
  regexBudgetMs?: number;
  /**
   * The verdict of `matches` on the texts `matchesInput` gives, decided off the calling thread
   * (regexBudget.ts's `firstMismatch`): the evaluator never runs a pattern itself.
   */
  matched?: MatchVerdict;
}

/**
 * The index of the first text a pattern does not match (-1: every one does); or the budget ran
 * out, in the linear engine (the values are too long for the pattern) or in the backtracking
 * one (the pattern backtracks too much); or why it could not be decided.
 */
export type MatchVerdict = number | { ranOut: 'linear' | 'backtracking' } | { error: string };

export interface AssertionOutcome {
  passed: boolean;
  /**
   * The value the field holds, as JSON text (for a path with `[*]`, the array of every value
   * selected), cut to about 200 characters and scrubbed; null when nothing was selected.
   */
  actual: string | null;
  /** A short sentence: what was found, or why the assertion does not hold. */
  message: string;
}

/** One selected value, and where it stands, for messages. */
interface Candidate {
  value: unknown;
  /** `status`, `header content-type`, `body`, `$[1].workflow_state`. */
  where: string;
  /** Its path in the body, for a body path. */
  path?: (string | number)[];
  /** A body integer beyond 2^53, as the server wrote it. */
  exact?: string;
}

interface Selection {
  candidates: Candidate[];
  /** A path with `[*]`: `actual` is the array of what it selected. */
  several: boolean;
  /** Why nothing was selected, when nothing was. */
  none: string;
  header: boolean;
  /** The body's integers beyond 2^53, by path. */
  exact?: ExactNumbers;
}

/** How much of a value `actual` shows, and how much a message quotes. */
const ACTUAL_CHARS = 200;
const MESSAGE_CHARS = 60;

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INTEGER = /^[+-]?\d+$/;
const DATE_TYPE = /(^|\|)\s*(DateTime|Date|timestamp)\s*(\||$)/;

/** Evaluates `assertion` against `response`; `expected` is its EXPECTED with `{{variables}}` resolved (inside the quotes when quoted). */
export function evaluateAssertion(
  assertion: Assertion,
  response: ResponseFacts,
  expected: string | undefined,
  context: EvaluationContext = {},
): AssertionOutcome {
  const selection = select(assertion, response);
  const show = new Shown(context.secrets, response.exactNumbers);
  const { candidates } = selection;
  const actual =
    candidates.length === 0
      ? null
      : selection.several
        ? show.list(candidates, ACTUAL_CHARS)
        : show.value(candidates[0], ACTUAL_CHARS);
  const op = canonicalOperator(assertion.operator);
  const count = candidates.length;
  if (op === 'exists') return { passed: count > 0, actual, message: count > 0 ? selected(count) : selection.none };
  if (op === '!exists') return { passed: count === 0, actual, message: count === 0 ? selection.none : selected(count) };
  if (count === 0) return { passed: false, actual, message: selection.none };

  const exp = expectedOf(assertion, expected);
  let matched: ReadonlySet<Candidate> | undefined;
  if (op === 'matches') {
    const regex = expectedRegExp(exp?.text ?? '');
    if (!regex)
      return {
        passed: false,
        actual,
        message: `${show.text(exp?.text ?? '', MESSAGE_CHARS)} is not a regular expression`,
      };
    const tested = testedByMatches(candidates);
    const verdict = tested.length === 0 ? -1 : context.matched;
    if (verdict === undefined) return { passed: false, actual, message: 'matches was not evaluated' };
    if (typeof verdict !== 'number') {
      const on = tested.length === 1 ? `${tested[0].where}, ${show.value(tested[0], MESSAGE_CHARS)}` : 'these values';
      const message =
        'error' in verdict
          ? `matches could not be evaluated: ${show.text(verdict.error, MESSAGE_CHARS)}`
          : `matches ran out of its time budget (${context.regexBudgetMs ?? '?'} ms) on ${on}: ${
              verdict.ranOut === 'linear'
                ? 'the values are too long for this pattern'
                : 'only a backtracking engine runs this pattern (a backreference, lookaround...), and it backtracks too much; make it unambiguous (no nested or overlapping repetition)'
            }`;
      return { passed: false, actual, message };
    }
    matched = new Set(verdict === -1 ? tested : tested.slice(0, verdict));
  }
  for (const c of candidates) {
    const verdict = holds(op, c, exp, matched, selection, context);
    if (verdict !== true) {
      const value = show.value(c, MESSAGE_CHARS);
      if (verdict) return { passed: false, actual, message: `${c.where} is ${value}: ${verdict}` };
      // The value says why: the operator is stated with it (`duration: 24 is not < 1`), EXPECTED as written.
      const wanted = exp === undefined ? '' : ` ${show.expected(exp, MESSAGE_CHARS)}`;
      return { passed: false, actual, message: `${c.where}: ${value} ${failedOperator(op)}${wanted}` };
    }
  }
  return {
    passed: true,
    actual,
    message:
      count === 1
        ? `${candidates[0].where} is ${show.value(candidates[0], MESSAGE_CHARS)}`
        : `all ${count} values hold`,
  };
}

/**
 * What `matches` tests, for the verdict to be decided before `evaluateAssertion` (off the
 * calling thread): the pattern, and the text of each selected value it reads, in the order of
 * the selection. Undefined for another operator, or when nothing is to be matched (nothing
 * selected, a pattern that does not parse): the evaluator then says why.
 */
export function matchesInput(
  assertion: Assertion,
  response: ResponseFacts,
  expected: string | undefined,
): { regex: RegExp; texts: string[] } | undefined {
  if (canonicalOperator(assertion.operator) !== 'matches') return undefined;
  const { candidates } = select(assertion, response);
  const regex = candidates.length > 0 ? expectedRegExp(expectedOf(assertion, expected)?.text ?? '') : undefined;
  return regex && { regex, texts: testedByMatches(candidates).map((c) => textOf(c) as string) };
}

/** EXPECTED as the operators read it: resolved, inside the quotes when quoted. */
function expectedOf(assertion: Assertion, expected: string | undefined): { text: string; quoted: boolean } | undefined {
  return assertion.expected
    ? { text: expected ?? assertion.expected.text, quoted: assertion.expected.quoted }
    : undefined;
}

/** The values `matches` tests: those it reads as text. */
function testedByMatches(candidates: Candidate[]): Candidate[] {
  return candidates.filter((c) => textOf(c) !== undefined);
}

/** The server's text of the integer at item `index` of the array at `path`, when it is beyond 2^53. */
function exactAt(
  exact: ExactNumbers | undefined,
  path: (string | number)[] | undefined,
  index: number,
): string | undefined {
  return exact && path ? own(exact, formatJsonPath([...path, index])) : undefined;
}

/** How a value that fails an operator is said: `is not <`, `does not include`. */
function failedOperator(op: AssertionOperator): string {
  switch (op) {
    case 'includes':
    case 'contains':
      return 'does not include';
    case 'startsWith':
      return 'does not start with';
    case 'endsWith':
      return 'does not end with';
    case 'matches':
      return 'does not match';
    default:
      return `is not ${op}`;
  }
}

function selected(count: number): string {
  return count === 1 ? 'one value is selected' : `${count} values are selected`;
}

/** The values the assertion's field selects in the response. */
function select(assertion: Assertion, response: ResponseFacts): Selection {
  const field = assertion.field;
  const out: Selection = { candidates: [], several: false, none: '', header: false };
  if (response.status === null) {
    out.none = 'there is no response';
    return out;
  }
  switch (field.kind) {
    case 'status':
      out.candidates.push({ value: response.status, where: 'status' });
      break;
    case 'duration':
      out.candidates.push({ value: response.durationMs, where: 'duration' });
      break;
    case 'header': {
      out.header = true;
      const value = own(response.headers, field.name.toLowerCase());
      if (value === undefined) out.none = `the response has no ${field.name} header`;
      else out.candidates.push({ value, where: `header ${field.name}` });
      break;
    }
    case 'body': {
      if (field.path === undefined) {
        if (response.bodyKind === 'binary') out.none = 'the body is binary, not text';
        else if (response.bodyKind === 'empty' || response.bodyText.length === 0) out.none = 'the body is empty';
        else out.candidates.push({ value: response.bodyText, where: 'body' });
        break;
      }
      const segments = field.path.segments;
      out.several = selectsSeveral(segments);
      if (response.bodyKind !== 'json') {
        out.none =
          response.bodyKind === 'empty'
            ? 'the body is empty'
            : `the body is ${response.bodyKind === 'binary' ? 'binary' : 'not JSON'}`;
        break;
      }
      const exact = response.exactNumbers;
      out.exact = exact;
      for (const { path, value } of selectValues(response.body, segments)) {
        const where = formatJsonPath(path);
        out.candidates.push({
          value,
          where,
          path,
          exact: exact && typeof value === 'number' ? own(exact, where) : undefined,
        });
      }
      if (out.candidates.length === 0) out.none = `${field.path.text} selects nothing`;
      break;
    }
  }
  return out;
}

type Verdict = true | string;

/** Whether one value satisfies the operator: true, or why not ('' when the value says it). */
function holds(
  op: AssertionOperator,
  c: Candidate,
  exp: { text: string; quoted: boolean } | undefined,
  matched: ReadonlySet<Candidate> | undefined,
  selection: Selection,
  context: EvaluationContext,
): Verdict {
  const { header, exact } = selection;
  const value = c.value;
  switch (op) {
    case '==':
      return exp !== undefined && equals(value, c.exact, exp) ? true : '';
    case '!=':
      return exp !== undefined && equals(value, c.exact, exp) ? '' : true;
    case 'includes':
    case 'contains': {
      if (exp === undefined) return '';
      if (typeof value === 'string') return value.includes(exp.text) ? true : '';
      if (Array.isArray(value))
        return value.some((item: unknown, i) => equals(item, exactAt(exact, c.path, i), exp)) ? true : '';
      return 'includes looks into a string or an array';
    }
    case 'startsWith':
    case 'endsWith':
    case 'matches': {
      const text = textOf(c);
      if (text === undefined) return `${op} reads text, a number or a boolean`;
      // Decided before, off the calling thread (regexBudget.ts), each value from its start.
      if (op === 'matches') return matched?.has(c) ? true : '';
      const wanted = exp?.text ?? '';
      return (op === 'startsWith' ? text.startsWith(wanted) : text.endsWith(wanted)) ? true : '';
    }
    case '<':
    case '<=':
    case '>':
    case '>=': {
      const order = compare(c, exp, header, context);
      if (typeof order === 'string') return order;
      const ok = op === '<' ? order < 0 : op === '<=' ? order <= 0 : op === '>' ? order > 0 : order >= 0;
      return ok ? true : '';
    }
    case 'isNumber':
      return typeof value === 'number' ? true : 'not a number';
    case 'isString':
      return typeof value === 'string' ? true : 'not a string';
    case 'isBoolean':
      return typeof value === 'boolean' ? true : 'not a boolean';
    case 'isArray':
      return Array.isArray(value) ? true : 'not an array';
    case 'isNull':
      return value === null ? true : 'not null';
    default:
      // exists and !exists are decided by the count before any value is looked at.
      return '';
  }
}

/** EXPECTED read by the type of `value` (section 6): equal or not. */
function equals(value: unknown, exact: string | undefined, exp: { text: string; quoted: boolean }): boolean {
  if (typeof value === 'string') return value === exp.text;
  if (exp.quoted) return false;
  if (typeof value === 'number') return sameNumber(value, exact, exp.text);
  if (typeof value === 'boolean') return exp.text === String(value);
  if (value === null) return exp.text === 'null';
  let parsed: unknown;
  try {
    parsed = JSON.parse(exp.text);
  } catch {
    return false;
  }
  return sameJson(value, parsed);
}

function sameNumber(value: number, exact: string | undefined, text: string): boolean {
  if (!NUMBER.test(text)) return false;
  // Whole numbers compare exactly, whatever their size: 9007199254740993 is not ...992.
  if (INTEGER.test(text) && (exact !== undefined || Number.isInteger(value))) {
    const a = bigOf(exact ?? value);
    const b = bigOf(text);
    if (a !== undefined && b !== undefined) return a === b;
  }
  return value === Number(text);
}

function bigOf(n: number | string): bigint | undefined {
  try {
    return BigInt(typeof n === 'string' ? n.replace(/^\+/, '') : n);
  } catch {
    return undefined;
  }
}

/** Two JSON values alike: numbers by value, arrays item by item, objects by their own members. */
function sameJson(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return a === b;
  if (Array.isArray(a))
    return Array.isArray(b) && a.length === b.length && a.every((item: unknown, i) => sameJson(item, b[i]));
  if (a !== null && typeof a === 'object') {
    if (b === null || typeof b !== 'object' || Array.isArray(b)) return false;
    const keys = Object.keys(a);
    const other = b as Record<string, unknown>;
    return (
      keys.length === Object.keys(other).length &&
      keys.every((k) => Object.hasOwn(other, k) && sameJson(own(a as Record<string, unknown>, k), own(other, k)))
    );
  }
  return a === b;
}

/** The text `startsWith`, `endsWith` and `matches` read: a string, or a number or boolean as JSON writes it. */
function textOf(c: Candidate): string | undefined {
  if (typeof c.value === 'string') return c.value;
  if (typeof c.value === 'number') return c.exact ?? JSON.stringify(c.value);
  if (typeof c.value === 'boolean') return String(c.value);
  return undefined;
}

/** The order of the value against EXPECTED (negative, zero, positive), or why they do not compare. */
function compare(
  c: Candidate,
  exp: { text: string; quoted: boolean } | undefined,
  header: boolean,
  context: EvaluationContext,
): number | string {
  if (exp === undefined) return '';
  const value = c.value;
  if (typeof value === 'number') {
    if (exp.quoted || !NUMBER.test(exp.text)) return `${quoteShort(exp.text)} is not a number`;
    return orderNumbers(c.exact ?? value, exp.text);
  }
  if (typeof value === 'string') {
    const documented = c.path ? context.documentedType?.(c.path) : undefined;
    const asDates =
      documented !== undefined
        ? DATE_TYPE.test(documented)
        : dateTimeMillis(value) !== undefined && dateTimeMillis(exp.text) !== undefined;
    if (asDates) {
      const a = dateTimeMillis(value);
      const b = dateTimeMillis(exp.text);
      if (a === undefined) return 'not an ISO 8601 date';
      if (b === undefined) return `${quoteShort(exp.text)} is not an ISO 8601 date`;
      return a - b;
    }
    // A header carries a number as text (x-total-count, content-length): by value.
    if (header && NUMBER.test(value.trim()) && !exp.quoted && NUMBER.test(exp.text))
      return orderNumbers(value.trim(), exp.text);
    return documented !== undefined
      ? `documented as ${documented}, not a number, DateTime or Date`
      : 'neither a number nor an ISO 8601 date';
  }
  return 'neither a number nor an ISO 8601 date';
}

function orderNumbers(a: number | string, b: string): number {
  const aText = typeof a === 'string' ? a : undefined;
  if ((aText === undefined || INTEGER.test(aText)) && INTEGER.test(b) && (aText !== undefined || Number.isInteger(a))) {
    const x = bigOf(a);
    const y = bigOf(b);
    if (x !== undefined && y !== undefined) return x < y ? -1 : x > y ? 1 : 0;
  }
  return Number(a) - Number(b);
}

function quoteShort(text: string): string {
  return JSON.stringify(text.length > MESSAGE_CHARS ? `${text.slice(0, MESSAGE_CHARS)}...` : text);
}

/**
 * Values as a report shows them: JSON text written only as far as it is shown, then scrubbed.
 * The written part runs past what is shown by the longest spelling of a secret, and a part
 * cut short loses an end that could begin one: the scrubber sees every secret it shows whole.
 */
class Shown {
  private readonly secrets: readonly (string | undefined)[];
  private readonly margin: number;

  constructor(
    secrets: readonly (string | undefined)[] | undefined,
    private readonly exact: ExactNumbers | undefined,
  ) {
    this.secrets = secrets ?? [];
    this.margin = this.secrets.reduce((n, s) => (typeof s === 'string' ? Math.max(n, longestSpelling(s)) : n), 0);
  }

  value(c: Candidate, chars: number): string {
    return this.finish(new BoundedJson(chars + this.margin, this.exact).value(c.value, c.path), chars);
  }

  list(candidates: Candidate[], chars: number): string {
    const json = new BoundedJson(chars + this.margin, this.exact);
    json.raw('[');
    candidates.forEach((c, i) => {
      if (i > 0) json.raw(',');
      json.value(c.value, c.path);
    });
    json.raw(']');
    return this.finish(json, chars);
  }

  /** EXPECTED as written: quoted only when it was, and with no quotes added to plain text. */
  expected(exp: { text: string; quoted: boolean }, chars: number): string {
    if (exp.quoted) return this.text(exp.text, chars);
    // As written, cut and scrubbed as a value is (a regular expression keeps its backslashes).
    const json = new BoundedJson(chars + this.margin).raw(exp.text.slice(0, chars + this.margin));
    json.cut ||= exp.text.length > chars + this.margin;
    return this.finish(json, chars);
  }

  text(text: string, chars: number): string {
    const json = new BoundedJson(chars + this.margin);
    json.value(text);
    return this.finish(json, chars);
  }

  private finish(json: BoundedJson, chars: number): string {
    let text = json.cut ? withoutSecretStart(json.out, this.secrets) : json.out;
    if (this.secrets.length > 0) text = scrubSecrets(text, this.secrets);
    return json.cut || text.length > chars ? `${text.slice(0, chars)}...` : text;
  }
}

/** JSON.stringify that stops once `limit` characters are written (`cut` then says so); integers beyond 2^53 as the server wrote them. */
class BoundedJson {
  out = '';
  cut = false;

  constructor(
    private readonly limit: number,
    private readonly exact?: ExactNumbers,
  ) {}

  raw(text: string): this {
    if (this.cut) return this;
    this.out += text;
    if (this.out.length >= this.limit) this.cut = true;
    return this;
  }

  /** `path` is where `v` stands in the body (kept only when the body has exact integers). */
  value(v: unknown, path?: (string | number)[]): this {
    if (this.cut) return this;
    const at = (step: string | number) => (this.exact && path ? [...path, step] : undefined);
    if (typeof v === 'string') {
      const room = this.limit - this.out.length;
      // A long string is written only as far as it is shown, without its closing quote.
      if (v.length > room) {
        this.out += JSON.stringify(v.slice(0, room)).slice(0, -1);
        this.cut = true;
      } else this.raw(JSON.stringify(v));
    } else if (typeof v === 'number') {
      const exact = this.exact && path ? own(this.exact, formatJsonPath(path)) : undefined;
      this.raw(exact ?? (Number.isFinite(v) ? JSON.stringify(v) : 'null'));
    } else if (Array.isArray(v)) {
      this.raw('[');
      for (let i = 0; i < v.length && !this.cut; i++) {
        if (i > 0) this.raw(',');
        this.value(v[i] as unknown, at(i));
      }
      this.raw(']');
    } else if (v !== null && typeof v === 'object') {
      this.raw('{');
      let first = true;
      for (const key of Object.keys(v)) {
        if (this.cut) break;
        if (!first) this.raw(',');
        first = false;
        this.value(key)
          .raw(':')
          .value(own(v as Record<string, unknown>, key), at(key));
      }
      this.raw('}');
    } else this.raw(v === undefined ? 'null' : JSON.stringify(v));
    return this;
  }
}
