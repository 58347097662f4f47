/** `required`: `param` is required when `when` holds -> missing-required (request line). */
import type * as Z from 'zod';
import { md } from '../markdown';
import { namesParameters, type RuleKind, type SchemaKit } from './kind';

function schema({ z, condition, text }: SchemaKit) {
  return z.strictObject({ kind: z.literal('required'), param: z.string(), when: condition, text });
}

export type RequiredRule = Z.output<ReturnType<typeof schema>>;

export const required: RuleKind<RequiredRule> = {
  kind: 'required',
  schema,
  lint: (rule, isParameter) => namesParameters(rule.kind, [rule.param, rule.when.param], isParameter),
  apply(rule, context) {
    if (!context.isSent(rule.param) && context.evaluate(rule.when) === true)
      context.missing(rule.param, rule.when, rule);
  },
  describe: (rule, name) => (rule.param === name ? { text: `Required: ${md(rule.text)}`, requires: true } : undefined),
};
