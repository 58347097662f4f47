/** `oneOf`: at least one of `params` is required (when `unless` does not hold) -> missing-required. */
import type * as Z from 'zod';
import { diag } from '../checker/diagnostics';
import { choices, documented, endpointFact, fit } from '../checker/phrases';
import { code, md } from '../markdown';
import { namesParameters, type RuleKind, type SchemaKit } from './kind';

function schema({ z, condition, text }: SchemaKit) {
  return z.strictObject({
    kind: z.literal('oneOf'),
    params: z.array(z.string()).min(2),
    unless: condition.optional(),
    text,
  });
}

export type OneOfRule = Z.output<ReturnType<typeof schema>>;

export const oneOf: RuleKind<OneOfRule> = {
  kind: 'oneOf',
  schema,
  lint: (rule, isParameter) =>
    namesParameters(rule.kind, [...rule.params, ...(rule.unless ? [rule.unless.param] : [])], isParameter),
  apply(rule, context) {
    const { reportedMissing, label, lineStart, lineEnd, endpoint, out } = context;
    if (rule.params.some((p) => context.isSent(p)) || rule.params.some((p) => reportedMissing.has(p))) return;
    if (rule.unless && context.evaluate(rule.unless) !== false) return;
    rule.params.forEach((p) => reportedMissing.add(p));
    out.push(
      diag(
        'missing-required',
        fit(
          `one of ${choices(rule.params)} is required: add one`,
          `one of ${rule.params.length} parameters is required: add one`,
        ),
        lineStart,
        lineEnd,
        {
          missing: [rule.params[0]],
          endpointId: endpoint.id,
        },
        [documented(rule.text), endpointFact(label)],
      ),
    );
  },
  describe: (rule, name) =>
    rule.params.includes(name)
      ? { text: `One of ${rule.params.map(code).join(', ')} is required: ${md(rule.text)}`, requires: true }
      : undefined,
};
