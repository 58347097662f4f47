/** The catalog's rules, interpreted. */
import type { Endpoint } from '../catalog/catalog';
import { splitParamName } from '../catalog/catalog';
import { outsideEnum } from '../catalog/parameters';
import type { Condition, Rule } from '../catalog/schema';
import type { ParameterLine } from '../parser';
import { own } from '../own';
import { diag, type Diagnostic } from './diagnostics';
import type { SentParameter } from './parameters';
import type { RequestCheck } from './context';


/** What the rules of one request see: the parameters sent, the path's values, and where to report. */
export class RuleContext {
  readonly bound: Map<string, string>;
  readonly label: string;
  readonly lineStart: number;
  readonly lineEnd: number;
  readonly endpoint: Endpoint;
  readonly out: Diagnostic[];

  constructor(
    check: RequestCheck,
    readonly sent: Map<string, SentParameter[]>,
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

  describe(c: Condition): string {
    const v = this.values(c.param)?.[0];
    // A condition on presence holds whatever the value: `grouped = false` is grouped mode ("when present").
    if (c.present !== undefined) return c.present ? `${c.param} is given${v !== undefined ? ` (as ${v})` : ''}` : `${c.param} is absent`;
    return v !== undefined ? `${c.param} is ${v}` : c.param;
  }

  expectation(c: Condition): string {
    if (c.present !== undefined) return `${c.param} is ${c.present ? 'given' : 'absent'}`;
    const v = this.values(c.param)?.[0];
    return c.in ? `${c.param} is ${c.in.join(' or ')}${v !== undefined ? ` (it is ${v})` : ''}` : `${c.param} is not ${c.notIn?.join(' or ')}`;
  }

  missing(name: string, why: string, rule: Rule): void {
    if (this.reportedMissing.has(name)) return;
    this.reportedMissing.add(name);
    this.out.push(
      diag('missing-required', `${name} is required ${why} (${rule.text}) for ${this.label}`, this.lineStart, this.lineEnd, {
        missing: [name],
        endpointId: this.endpoint.id,
      }),
    );
  }
}

/** One rule of the catalog, interpreted (every rule kind of the catalog schema). */
export function applyRule(rule: Rule, context: RuleContext): void {
  const { sent, reportedMissing, label, lineStart, lineEnd, endpoint, out } = context;
  switch (rule.kind) {
    case 'required':
      if (!context.isSent(rule.param) && context.evaluate(rule.when) === true) context.missing(rule.param, `when ${context.describe(rule.when)}`, rule);
      return;
    case 'oneOf':
      if (rule.params.some((p) => context.isSent(p)) || rule.params.some((p) => reportedMissing.has(p))) return;
      if (rule.unless && context.evaluate(rule.unless) !== false) return;
      rule.params.forEach((p) => reportedMissing.add(p));
      out.push(
        diag('missing-required', `one of ${rule.params.join(', ')} is required (${rule.text}) for ${label}`, lineStart, lineEnd, {
          missing: [rule.params[0]],
          endpointId: endpoint.id,
        }),
      );
      return;
    case 'conflicts': {
      const lines = rule.params.flatMap((p) => context.lineOf(p)).sort((a, b) => a.start - b.start);
      const distinct = rule.params.filter((p) => sent.has(p));
      if (distinct.length < 2) return;
      const later = lines[lines.length - 1];
      out.push(
        diag('conflicting-parameters', `${distinct.join(' and ')} must not be sent together (${rule.text}) for ${label}`, later.name.start, later.name.end, {
          lineStart: later.start,
          lineEnd: later.end,
        }),
      );
      return;
    }
    case 'ignored': {
      let fires: boolean;
      if (rule.when) fires = context.evaluate(rule.when) === true;
      // When the parameter the exception depends on is itself missing, that is the one mistake to report.
      else if (rule.unless) fires = context.evaluate(rule.unless) === false && !reportedMissing.has(rule.unless.param);
      else fires = true;
      if (!fires) return;
      const why = rule.when ? ` when ${context.describe(rule.when)}` : rule.unless ? ` unless ${context.expectation(rule.unless)}` : '';
      for (const name of rule.params) {
        for (const line of context.lineOf(name)) {
          out.push(
            diag(
              'ignored-parameter',
              `${line.decodedName} is ignored${why} (${rule.text}) for ${label}`,
              line.name.start,
              line.name.end,
              { lineStart: line.start, lineEnd: line.end },
            ),
          );
        }
      }
      return;
    }
    case 'valueRequires': {
      const vs = context.values(rule.param);
      if (!vs) return;
      if (rule.value !== undefined && !vs.includes(rule.value)) return;
      const req = context.values(rule.requires.param);
      const satisfied = rule.requires.value === undefined ? context.isSent(rule.requires.param) : !!req?.some((v) => v === rule.requires.value || v.includes('{{'));
      if (satisfied) return;
      const what = rule.requires.value !== undefined ? `${rule.requires.param} = ${rule.requires.value}` : rule.requires.param;
      if (reportedMissing.has(what)) return;
      reportedMissing.add(what);
      out.push(
        diag(
          'missing-required',
          `${what} is required when ${rule.param}${rule.value !== undefined ? ` = ${rule.value}` : ''} is given (${rule.text}) for ${label}`,
          lineStart,
          lineEnd,
          { missing: [rule.requires.param], endpointId: endpoint.id },
        ),
      );
      return;
    }
    case 'appliesTo': {
      const given = context.values(rule.dependsOn)?.[0];
      const dep = given ?? rule.whenAbsent;
      if (dep === undefined || dep.includes('{{') || context.hasInvalidValue(rule.dependsOn)) return;
      const when = given === undefined ? `${rule.dependsOn} is not given` : `${rule.dependsOn} is ${dep}`;
      const describe = (v: string) => (v === rule.whenAbsent ? `${rule.dependsOn} not given` : v);
      for (const line of context.lineOf(rule.param)) {
        const allowed = own(rule.table, line.decodedValue);
        if (!allowed || allowed.includes('*') || allowed.includes(dep)) continue;
        out.push(
          diag(
            'ignored-parameter',
            `${line.decodedName} = ${line.decodedValue} does not apply when ${when} and is ignored (${rule.text}); it applies to ${allowed.map(describe).join(', ')}`,
            line.value.start,
            line.value.end,
            { lineStart: line.start, lineEnd: line.end },
          ),
        );
      }
      return;
    }
    case 'conflictingValues': {
      // Lines of each parameter, keyed by their pattern instance (the values of the pattern segments).
      const instances = rule.all.map((c) => {
        const byInstance = new Map<string, ParameterLine>();
        for (const { line } of sent.get(c.param) ?? []) {
          if (!c.in.includes(line.decodedValue)) continue;
          byInstance.set(patternInstance(c.param, line.decodedName), line);
        }
        return byInstance;
      });
      for (const [instance, first] of instances[0]) {
        const lines = [first, ...instances.slice(1).map((m) => m.get(instance))];
        if (lines.some((l) => l === undefined)) continue;
        const later = (lines as ParameterLine[]).reduce((a, b) => (b.start > a.start ? b : a));
        out.push(
          diag(
            'conflicting-parameters',
            `${(lines as ParameterLine[]).map((l) => `${l.decodedName} = ${l.decodedValue}`).join(' with ')} is not allowed (${rule.text}) for ${label}`,
            later.name.start,
            later.name.end,
            { lineStart: later.start, lineEnd: later.end },
          ),
        );
      }
      return;
    }
    case 'valueKinds': {
      // The first value of a known kind sets the kind; a value of another kind, or one past the kind's limit, breaks the rule.
      let first: { kind: string; line: ParameterLine } | undefined;
      const counts = new Map<string, number>();
      for (const { line } of sent.get(rule.param) ?? []) {
        const value = line.decodedValue;
        const kind = value.includes('{{') ? undefined : rule.kinds.find((k) => value.startsWith(k.prefix));
        if (!kind) continue;
        const count = (counts.get(kind.name) ?? 0) + 1;
        counts.set(kind.name, count);
        let problem: string | undefined;
        if (first && first.kind !== kind.name) problem = `${line.decodedName} = ${value} (a ${kind.name}) with ${first.line.decodedName} = ${first.line.decodedValue} (a ${first.kind})`;
        else if (kind.max !== undefined && count > kind.max) problem = `${line.decodedName} = ${value}: more than ${kind.max} ${kind.name}`;
        first ??= { kind: kind.name, line };
        if (!problem) continue;
        out.push(
          diag('conflicting-parameters', `${problem} is not allowed (${rule.text}) for ${label}`, line.name.start, line.name.end, {
            lineStart: line.start,
            lineEnd: line.end,
          }),
        );
      }
      return;
    }
    case 'patternAppliesTo': {
      const depValues = context.values(rule.dependsOn);
      const dep = depValues?.[0] ?? rule.defaultValue;
      if (dep === undefined || dep.includes('{{') || context.hasInvalidValue(rule.dependsOn)) return;
      const prefix = splitParamName(rule.pattern);
      if (!prefix) return;
      const placeholderIndex = prefix.indexOf(`{${rule.placeholder}}`);
      for (const entries of sent.values()) {
        for (const { line } of entries) {
          const segments = splitParamName(line.decodedName);
          if (!segments || segments.length < prefix.length || segments[0] !== prefix[0]) continue;
          if (!prefix.every((s, i) => i === placeholderIndex || s === segments[i])) continue;
          const name = segments[placeholderIndex];
          const allowed = own(rule.table, name);
          if (!allowed || allowed.includes('*') || allowed.includes(dep)) continue;
          out.push(
            diag(
              'ignored-parameter',
              `${name} does not apply to ${rule.dependsOn} ${dep} and is ignored (${rule.text}); it applies to ${allowed.join(', ')}`,
              line.name.start,
              line.name.end,
              { lineStart: line.start, lineEnd: line.end },
            ),
          );
        }
      }
      return;
    }
  }
}

/**
 * Three-valued: undefined only when the value cannot be known before sending (a {{variable}}).
 * An absent parameter has no value, so `in` and `notIn` are both false for it.
 */
export function evaluateCondition(c: Condition, values: string[] | undefined, present: boolean): boolean | undefined {
  if (c.present !== undefined) return c.present === present;
  if (!values || values.length === 0) return false;
  if (values.some((v) => v.includes('{{'))) return undefined;
  if (c.in) return values.some((v) => c.in?.includes(v));
  if (c.notIn) return values.every((v) => !c.notIn?.includes(v));
  return present;
}

/** The values a sent name gives the pattern segments of a pattern name (`permissions[{X}][enabled]` -> the X). */
function patternInstance(pattern: string, name: string): string {
  const p = splitParamName(pattern);
  const n = splitParamName(name);
  if (!p || !n) return '';
  return p.map((s, i) => (/^\{\w+\}$/.test(s) ? n[i] : '')).join('\u0000');
}
