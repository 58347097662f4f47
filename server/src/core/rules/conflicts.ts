/** `conflicts`: `params` must not be sent together -> conflicting-parameters on the later one. */
import type * as Z from 'zod';
import { diag } from '../checker/diagnostics';
import { choices, documented, endpointFact, fit } from '../checker/phrases';
import { code, md } from '../markdown';
import { namesParameters, type RuleKind, type SchemaKit } from './kind';

function schema({ z, text }: SchemaKit) {
  return z.strictObject({ kind: z.literal('conflicts'), params: z.array(z.string()).min(2), text });
}

export type ConflictsRule = Z.output<ReturnType<typeof schema>>;

export const conflicts: RuleKind<ConflictsRule> = {
  kind: 'conflicts',
  schema,
  lint: (rule, isParameter) => namesParameters(rule.kind, rule.params, isParameter),
  apply(rule, context) {
    const { sent, label, out } = context;
    const lines = rule.params.flatMap((p) => context.lineOf(p)).sort((a, b) => a.start - b.start);
    const distinct = rule.params.filter((p) => sent.has(p));
    if (distinct.length < 2) return;
    const later = lines[lines.length - 1];
    out.push(
      diag(
        'conflicting-parameters',
        fit(
          `${choices(distinct, 'and')} must not be sent together: remove one`,
          `${later.decodedName} must not be sent with ${choices(
            distinct.filter((p) => p !== later.decodedName),
            'and',
          )}: remove one`,
          `${later.decodedName} conflicts with another parameter here: remove one`,
        ),
        later.name.start,
        later.name.end,
        {
          lineStart: later.start,
          lineEnd: later.end,
        },
        [documented(rule.text), endpointFact(label)],
      ),
    );
  },
  describe: (rule, name) =>
    rule.params.includes(name)
      ? {
          text: `Not together with ${rule.params
            .filter((p) => p !== name)
            .map(code)
            .join(', ')}: ${md(rule.text)}`,
          requires: false,
        }
      : undefined,
};
