/**
 * `conflictingValues`: the parameters of `all` must not all have one of their listed values at
 * once (pattern names are compared instance by instance: the same `{X}`) ->
 * conflicting-parameters on the later one.
 */
import type * as Z from 'zod';
import { splitParamName } from '../catalog/parameterText';
import { diag } from '../checker/diagnostics';
import { beside, choices, documented, endpointFact, fit, quote } from '../checker/phrases';
import { md } from '../markdown';
import type { ParameterLine } from '../parser';
import { namesParameters, type RuleKind, type SchemaKit } from './kind';

function schema({ z, text }: SchemaKit) {
  return z.strictObject({
    kind: z.literal('conflictingValues'),
    /** Each entry: a parameter (a pattern name aligns instances by their pattern segments) and the values that, all together, conflict. */
    all: z.array(z.strictObject({ param: z.string(), in: z.array(z.string()) })).min(2),
    text,
  });
}

export type ConflictingValuesRule = Z.output<ReturnType<typeof schema>>;

export const conflictingValues: RuleKind<ConflictingValuesRule> = {
  kind: 'conflictingValues',
  schema,
  lint: (rule, isParameter) =>
    namesParameters(
      rule.kind,
      rule.all.map((c) => c.param),
      isParameter,
    ),
  apply(rule, context) {
    const { sent, label, out } = context;
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
      const others = (lines as ParameterLine[]).filter((l) => l !== later);
      const pair = (l: ParameterLine) => `${beside(l.decodedName, later.decodedName)} = ${quote(l.decodedValue, 24)}`;
      out.push(
        diag(
          'conflicting-parameters',
          fit(
            `${pair(later)} is not allowed with ${choices(others.map(pair), 'and')}: change one`,
            `${pair(later)} conflicts with another value here: change one`,
          ),
          later.name.start,
          later.name.end,
          { lineStart: later.start, lineEnd: later.end },
          [documented(rule.text), endpointFact(label)],
        ),
      );
    }
  },
  describe: (rule, name) =>
    rule.all.some((c) => c.param === name) ? { text: `Not with ${md(rule.text)}`, requires: false } : undefined,
};

/** The values a sent name gives the pattern segments of a pattern name (`permissions[{X}][enabled]` -> the X). */
function patternInstance(pattern: string, name: string): string {
  const p = splitParamName(pattern);
  const n = splitParamName(name);
  if (!p || !n) return '';
  return p.map((s, i) => (/^\{\w+\}$/.test(s) ? n[i] : '')).join('\u0000');
}
