/**
 * `valueRequires`: when `param` has `value` (or any value when absent), `requires` must be
 * sent (with `requires.value` when given) -> missing-required (request line).
 */
import type * as Z from 'zod';
import { diag } from '../checker/diagnostics';
import { documented, endpointFact, fit } from '../checker/phrases';
import { code, md } from '../markdown';
import { namesParameters, type RuleKind, type SchemaKit } from './kind';

function schema({ z, text }: SchemaKit) {
  return z.strictObject({
    kind: z.literal('valueRequires'),
    param: z.string(),
    value: z.string().optional(),
    requires: z.strictObject({ param: z.string(), value: z.string().optional() }),
    text,
  });
}

export type ValueRequiresRule = Z.output<ReturnType<typeof schema>>;

export const valueRequires: RuleKind<ValueRequiresRule> = {
  kind: 'valueRequires',
  schema,
  lint: (rule, isParameter) => namesParameters(rule.kind, [rule.param, rule.requires.param], isParameter),
  apply(rule, context) {
    const { reportedMissing, label, lineStart, lineEnd, endpoint, out } = context;
    const vs = context.values(rule.param);
    if (!vs) return;
    if (rule.value !== undefined && !vs.includes(rule.value)) return;
    const req = context.values(rule.requires.param);
    const satisfied =
      rule.requires.value === undefined
        ? context.isSent(rule.requires.param)
        : !!req?.some((v) => v === rule.requires.value || v.includes('{{'));
    if (satisfied) return;
    const what =
      rule.requires.value !== undefined ? `${rule.requires.param} = ${rule.requires.value}` : rule.requires.param;
    if (reportedMissing.has(what)) return;
    reportedMissing.add(what);
    const given = `${rule.param}${rule.value !== undefined ? ` = ${rule.value}` : ''}`;
    out.push(
      diag(
        'missing-required',
        fit(`${what} is required with ${given}: add it`, `${what} is required here: add it`),
        lineStart,
        lineEnd,
        { missing: [rule.requires.param], endpointId: endpoint.id },
        [documented(rule.text), endpointFact(label)],
      ),
    );
  },
  describe: (rule, name) =>
    rule.requires.param === name
      ? {
          text: `Required with ${code(rule.param)}${rule.value ? ` = ${code(rule.value)}` : ''}: ${md(rule.text)}`,
          requires: true,
        }
      : undefined,
};
