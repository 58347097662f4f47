/**
 * Every rule kind of the catalog, one module each. The catalog schema builds its rule union
 * from this list, the catalog lint and the checker apply each rule through it, and hover and
 * completion describe rules with it. A new kind is a module here and a fixture; before adding
 * a tenth, see whether a general kind (appliesTo, conflictingValues, valueKinds) can say it.
 */
import type * as Z from 'zod';
import type { RuleContext } from './context';
import type { RuleKind, RuleNote, SchemaKit } from './kind';
import { required } from './required';
import { oneOf } from './oneOf';
import { conflicts } from './conflicts';
import { ignored } from './ignored';
import { valueRequires } from './valueRequires';
import { appliesTo } from './appliesTo';
import { conflictingValues } from './conflictingValues';
import { valueKinds } from './valueKinds';
import { patternAppliesTo } from './patternAppliesTo';

export const RULE_KINDS = [
  required,
  oneOf,
  conflicts,
  ignored,
  valueRequires,
  appliesTo,
  conflictingValues,
  valueKinds,
  patternAppliesTo,
] as const;

type RuleOf<K> = K extends RuleKind<infer R> ? R : never;

/** A rule of the catalog: one of the kinds listed here. */
export type Rule = RuleOf<(typeof RULE_KINDS)[number]>;

const byKind = new Map<string, RuleKind<Rule>>(RULE_KINDS.map((k) => [k.kind, k as RuleKind<Rule>]));

function kindOf(rule: Rule): RuleKind<Rule> {
  const kind = byKind.get(rule.kind);
  // The catalog schema admits only the kinds listed here.
  if (!kind) throw new Error(`no rule kind ${rule.kind}`);
  return kind;
}

/** The schema of a rule: the union of the kinds' schemas, told apart by `kind`. */
export function ruleSchema(kit: SchemaKit): Z.ZodType<Rule> {
  // Each kind's schema is an object with a literal `kind`; their union's type is Rule.
  const options = RULE_KINDS.map((k) => k.schema(kit)) as unknown as Parameters<
    SchemaKit['z']['discriminatedUnion']
  >[1];
  return kit.z.discriminatedUnion('kind', options) as unknown as Z.ZodType<Rule>;
}

/** What the catalog lint finds wrong with a rule on its endpoint. */
export function lintRule(rule: Rule, isParameter: (name: string) => boolean): string[] {
  return kindOf(rule).lint(rule, isParameter);
}

/** Applies one rule of the endpoint to a request. */
export function applyRule(rule: Rule, context: RuleContext): void {
  kindOf(rule).apply(rule, context);
}

/** What hover and completion say of a rule on parameter `name`, if it concerns it. */
export function ruleNote(rule: Rule, name: string): RuleNote | undefined {
  return kindOf(rule).describe(rule, name);
}
