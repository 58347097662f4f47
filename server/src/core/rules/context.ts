/**
 * What a rule sees of a request when it is applied, and the phrases rules share. The rules
 * stand below the catalog (whose schema is built from them) and the checker (which applies
 * them), so what they read of a request is named here: a RequestCheck is a RuleRequest.
 */
import { outsideEnum, type DocumentedValues } from '../catalog/parameterText';
import type { ParameterLine } from '../parser';
import { diag, type Diagnostic } from '../checker/diagnostics';
import { beside, documented, endpointFact, fit } from '../checker/phrases';

/**
 * A condition on another parameter of the same request (the catalog's ConditionSchema).
 * `present`: the parameter is sent (with any value). `in`/`notIn`: its value is (not) one of these.
 */
export interface Condition {
  param: string;
  present?: boolean;
  in?: string[];
  notIn?: string[];
}

/** What a rule reads of the request being checked (the checker's RequestCheck). */
export interface RuleRequest {
  /** The values the target gives the path's placeholders, by placeholder name. */
  readonly bindings: Map<string, string>;
  /** `METHOD /template`: how messages name the endpoint. */
  readonly label: string;
  readonly lineStart: number;
  readonly lineEnd: number;
  readonly endpoint: { readonly id: string };
  readonly out: Diagnostic[];
}

/** A parameter line of the request and the documented parameter it names. */
export interface SentParameter<P extends DocumentedValues = DocumentedValues> {
  line: ParameterLine;
  param: P;
}

/** What the rules of one request see: the parameters sent, the path's values, and where to report. */
export class RuleContext {
  readonly bound: Map<string, string>;
  readonly label: string;
  readonly lineStart: number;
  readonly lineEnd: number;
  readonly endpoint: { readonly id: string };
  readonly out: Diagnostic[];

  constructor(
    check: RuleRequest,
    readonly sent: ReadonlyMap<string, readonly SentParameter[]>,
    /** A parameter is reported missing once, however many rules require it. */
    readonly reportedMissing: Set<string>,
  ) {
    this.bound = check.bindings;
    this.label = check.label;
    this.lineStart = check.lineStart;
    this.lineEnd = check.lineEnd;
    this.endpoint = check.endpoint;
    this.out = check.out;
  }

  isSent(name: string): boolean {
    return this.sent.has(name) || this.bound.has(name);
  }

  /** The values sent for a parameter, or the value the path gives it (`{id}` on roles update). */
  values(name: string): string[] | undefined {
    const entries = this.sent.get(name);
    if (!entries) {
      const fromPath = this.bound.get(name);
      return fromPath === undefined ? undefined : [fromPath];
    }
    const values: string[] = [];
    for (const e of entries) values.push(e.line.decodedValue);
    return values;
  }

  lineOf(name: string): ParameterLine[] {
    const entries = this.sent.get(name);
    if (!entries) return [];
    const lines: ParameterLine[] = [];
    for (const e of entries) lines.push(e.line);
    return lines;
  }

  /**
   * Whether a parameter was given a value outside its documented set (reported as
   * invalid-enum): a rule that depends on that value cannot tell what the request meant,
   * and reports nothing more. One mistake, one diagnostic.
   */
  hasInvalidValue(name: string): boolean {
    const entries = this.sent.get(name);
    if (!entries) return false;
    for (const { line, param } of entries) if (outsideEnum(param, line.decodedValue)) return true;
    return false;
  }

  /** A condition on the request: undefined when it cannot be known (a {{variable}}, or a value outside the documented set). */
  evaluate(c: Condition): boolean | undefined {
    if (c.present === undefined && this.hasInvalidValue(c.param)) return undefined;
    return evaluateCondition(c, this.values(c.param), this.isSent(c.param));
  }

  /** A condition that holds, as the request meets it (`type is Page`, `grouped is given`), its name read beside `near`. */
  describe(c: Condition, near = c.param): string {
    const name = beside(c.param, near);
    const v = this.values(c.param)?.[0];
    // A condition on presence holds whatever the value: `grouped = false` is grouped mode ("when present").
    if (c.present !== undefined) return c.present ? `${name} is given` : `${name} is absent`;
    return v !== undefined ? `${name} is ${v}` : name;
  }

  /** What a condition asks, where the request does not meet it (`type is ExternalTool, not Page`). */
  expectation(c: Condition, near = c.param): string {
    const name = beside(c.param, near);
    if (c.present !== undefined) return `${name} is ${c.present ? 'given' : 'absent'}`;
    const v = this.values(c.param)?.[0];
    return c.in
      ? `${name} is ${c.in.join(' or ')}${v !== undefined ? `, not ${v}` : ''}`
      : `${name} is not ${c.notIn?.join(' or ')}`;
  }

  /** Reports `name` missing on the request line, once however many rules require it. */
  missing(name: string, condition: Condition | undefined, rule: { text: string }): void {
    if (this.reportedMissing.has(name)) return;
    this.reportedMissing.add(name);
    const when = condition ? ` when ${this.describe(condition, name)}` : '';
    this.out.push(
      diag(
        'missing-required',
        fit(`${name} is required${when}: add it`, `${name} is required here: add it`),
        this.lineStart,
        this.lineEnd,
        {
          missing: [name],
          endpointId: this.endpoint.id,
        },
        [documented(rule.text), endpointFact(this.label)],
      ),
    );
  }
}

/**
 * Three-valued: undefined only when the value cannot be known before sending (a {{variable}}).
 * An absent parameter has no value, so `in` and `notIn` are both false for it.
 */
function evaluateCondition(c: Condition, values: string[] | undefined, present: boolean): boolean | undefined {
  if (c.present !== undefined) return c.present === present;
  if (!values || values.length === 0) return false;
  if (values.some((v) => v.includes('{{'))) return undefined;
  if (c.in) return values.some((v) => c.in?.includes(v));
  if (c.notIn) return values.every((v) => !c.notIn?.includes(v));
  return present;
}
