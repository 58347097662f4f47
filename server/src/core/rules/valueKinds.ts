/**
 * `valueKinds`: the values of an array `param` are of one kind only, a kind told by its prefix
 * (`course_section_`, `group_category_`), and at most `max` values of a kind ->
 * conflicting-parameters on the value that breaks it.
 */
import type * as Z from 'zod';
import { diag } from '../checker/diagnostics';
import { documented, endpointFact, fit, quote } from '../checker/phrases';
import { md } from '../markdown';
import type { ParameterLine } from '../parser';
import { namesParameters, type RuleKind, type SchemaKit } from './kind';

function schema({ z, text }: SchemaKit) {
  return z.strictObject({
    kind: z.literal('valueKinds'),
    param: z.string(),
    kinds: z
      .array(z.strictObject({ name: z.string(), prefix: z.string().min(1), max: z.number().int().min(1).optional() }))
      .min(1),
    text,
  });
}

export type ValueKindsRule = Z.output<ReturnType<typeof schema>>;

export const valueKinds: RuleKind<ValueKindsRule> = {
  kind: 'valueKinds',
  schema,
  lint: (rule, isParameter) => namesParameters(rule.kind, [rule.param], isParameter),
  apply(rule, context) {
    const { sent, label, out } = context;
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
      if (first && first.kind !== kind.name)
        problem = fit(
          `${quote(value, 30)} (a ${kind.name}) is not allowed with ${quote(first.line.decodedValue, 30)} (a ${first.kind}): keep one kind`,
          `a ${kind.name} is not allowed with a ${first.kind}: keep one kind`,
        );
      else if (kind.max !== undefined && count > kind.max)
        problem = fit(
          `${quote(value, 30)} is one ${kind.name} too many (at most ${kind.max}): remove it`,
          `one ${kind.name} too many (at most ${kind.max}): remove it`,
        );
      first ??= { kind: kind.name, line };
      if (!problem) continue;
      out.push(
        diag(
          'conflicting-parameters',
          problem,
          line.name.start,
          line.name.end,
          {
            lineStart: line.start,
            lineEnd: line.end,
          },
          [documented(rule.text), endpointFact(label)],
        ),
      );
    }
  },
  describe: (rule, name) =>
    rule.param === name ? { text: `One kind of value: ${md(rule.text)}`, requires: false } : undefined,
};
