/**
 * `appliesTo`: the value of `param` only applies for some values of `dependsOn` (`table[value]`
 * lists them, `*` for all; `whenAbsent` names `dependsOn` not sent) -> ignored-parameter on `param`.
 */
import type * as Z from 'zod';
import { diag } from '../checker/diagnostics';
import { beside, choices, documented, endpointFact, fit, quote } from '../checker/phrases';
import { md } from '../markdown';
import { own } from '../own';
import { namesParameters, type RuleKind, type SchemaKit } from './kind';

function schema({ z, table, text }: SchemaKit) {
  return z.strictObject({
    kind: z.literal('appliesTo'),
    param: z.string(),
    dependsOn: z.string(),
    /** The key that stands in `table` for `dependsOn` not being sent (otherwise nothing is checked then). */
    whenAbsent: z.string().optional(),
    table: table(z.array(z.string())),
    text,
  });
}

export type AppliesToRule = Z.output<ReturnType<typeof schema>>;

export const appliesTo: RuleKind<AppliesToRule> = {
  kind: 'appliesTo',
  schema,
  lint: (rule, isParameter) => namesParameters(rule.kind, [rule.param, rule.dependsOn], isParameter),
  apply(rule, context) {
    const { out } = context;
    const given = context.values(rule.dependsOn)?.[0];
    const dep = given ?? rule.whenAbsent;
    if (dep === undefined || dep.includes('{{') || context.hasInvalidValue(rule.dependsOn)) return;
    for (const line of context.lineOf(rule.param)) {
      const allowed = own(rule.table, line.decodedValue);
      if (!allowed || allowed.includes('*') || allowed.includes(dep)) continue;
      const other = beside(rule.dependsOn, line.decodedName);
      const when = given === undefined ? `${other} is not given` : `${other} is ${dep}`;
      const describe = (v: string) => (v === rule.whenAbsent ? `${other} not given` : v);
      const value = quote(line.decodedValue);
      out.push(
        diag(
          'ignored-parameter',
          fit(
            `${value} is ignored when ${when}: it applies to ${choices(allowed.map(describe))}`,
            `${value} is ignored when ${when}: remove it or change ${other}`,
            `${value} is ignored here: remove it`,
          ),
          line.value.start,
          line.value.end,
          { lineStart: line.start, lineEnd: line.end },
          [
            `${line.decodedName} = ${line.decodedValue} applies to ${choices(allowed.map(describe))}`,
            documented(rule.text),
            endpointFact(context.label),
          ],
        ),
      );
    }
  },
  describe: (rule, name) => (rule.param === name ? { text: `Applies: ${md(rule.text)}`, requires: false } : undefined),
};
