/** `ignored`: `params` are ignored when `when` holds, or unless `unless` holds -> ignored-parameter on each. */
import type * as Z from 'zod';
import { diag } from '../checker/diagnostics';
import { documented, endpointFact, fit } from '../checker/phrases';
import { md } from '../markdown';
import { namesParameters, type RuleKind, type SchemaKit } from './kind';

function schema({ z, condition, text }: SchemaKit) {
  return z.strictObject({
    kind: z.literal('ignored'),
    params: z.array(z.string()).min(1),
    when: condition.optional(),
    unless: condition.optional(),
    text,
  });
}

export type IgnoredRule = Z.output<ReturnType<typeof schema>>;

export const ignored: RuleKind<IgnoredRule> = {
  kind: 'ignored',
  schema,
  lint: (rule, isParameter) =>
    namesParameters(
      rule.kind,
      [...rule.params, ...(rule.when ? [rule.when.param] : []), ...(rule.unless ? [rule.unless.param] : [])],
      isParameter,
    ),
  apply(rule, context) {
    const { reportedMissing, label, out } = context;
    let fires: boolean;
    if (rule.when) fires = context.evaluate(rule.when) === true;
    // When the parameter the exception depends on is itself missing, that is the one mistake to report.
    else if (rule.unless) fires = context.evaluate(rule.unless) === false && !reportedMissing.has(rule.unless.param);
    else fires = true;
    if (!fires) return;
    for (const name of rule.params) {
      const why = rule.when
        ? ` when ${context.describe(rule.when, name)}`
        : rule.unless
          ? ` unless ${context.expectation(rule.unless, name)}`
          : '';
      for (const line of context.lineOf(name)) {
        out.push(
          diag(
            'ignored-parameter',
            fit(`${line.decodedName} is ignored${why}: remove it`, `${line.decodedName} is ignored here: remove it`),
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
    }
  },
  describe: (rule, name) =>
    rule.params.includes(name) ? { text: `Ignored: ${md(rule.text)}`, requires: false } : undefined,
};
