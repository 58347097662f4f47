/**
 * `patternAppliesTo`: for pattern parameters (`permissions[{X}][...]`), segment `placeholder`
 * only applies for some values of `dependsOn` (default `defaultValue` when absent);
 * `table[segmentValue]` lists them -> ignored-parameter.
 */
import type * as Z from 'zod';
import { splitParamName } from '../catalog/parameterText';
import { diag } from '../checker/diagnostics';
import { choices, documented, endpointFact, fit } from '../checker/phrases';
import { md } from '../markdown';
import { own } from '../own';
import { namesParameters, type RuleKind, type SchemaKit } from './kind';

function schema({ z, table, text }: SchemaKit) {
  return z.strictObject({
    kind: z.literal('patternAppliesTo'),
    pattern: z.string(),
    placeholder: z.string(),
    dependsOn: z.string(),
    defaultValue: z.string().optional(),
    table: table(z.array(z.string())),
    text,
  });
}

export type PatternAppliesToRule = Z.output<ReturnType<typeof schema>>;

export const patternAppliesTo: RuleKind<PatternAppliesToRule> = {
  kind: 'patternAppliesTo',
  schema,
  lint: (rule, isParameter) => namesParameters(rule.kind, [rule.dependsOn], isParameter),
  apply(rule, context) {
    const { sent, out } = context;
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
            fit(
              `${name} is ignored for ${rule.dependsOn} ${dep}: it applies to ${choices(allowed)}`,
              `${name} is ignored for ${rule.dependsOn} ${dep}: remove it`,
            ),
            line.name.start,
            line.name.end,
            { lineStart: line.start, lineEnd: line.end },
            [
              `${name} applies to ${rule.dependsOn} ${choices(allowed)}`,
              documented(rule.text),
              endpointFact(context.label),
            ],
          ),
        );
      }
    }
  },
  describe: (rule, name) =>
    rule.pattern === name ? { text: `Applies: ${md(rule.text)}`, requires: false } : undefined,
};
