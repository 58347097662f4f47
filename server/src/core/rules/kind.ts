/**
 * What a rule kind is: one module (`rules/<kind>.ts`) says how the catalog writes it (its zod
 * schema), what the catalog lint checks of it, how the checker applies it to a request, and
 * how hover and completion speak of it. `rules/index.ts` lists the kinds.
 */
import type * as Z from 'zod';
import type { Condition, RuleContext } from './context';

/**
 * What a rule kind's schema is built with. zod is handed over rather than imported: the
 * catalog loads zod on first use (catalog.ts), and a rule module is loaded with the checker.
 * Only the parts of zod the kinds use are handed over (a kind that needs another adds it
 * here and in catalog/schema.ts): the whole namespace as a value would keep all of zod,
 * its locales too, in every bundle.
 */
export interface SchemaKit {
  readonly z: Pick<
    typeof Z,
    'strictObject' | 'literal' | 'string' | 'number' | 'boolean' | 'array' | 'discriminatedUnion'
  >;
  /** A condition on another parameter of the request (`{ param, present | in | notIn }`). */
  readonly condition: Z.ZodType<Condition>;
  /** A table keyed by names (values, pattern segments), built with no prototype. */
  readonly table: <T extends Z.ZodType>(value: T) => Z.ZodType<Record<string, Z.output<T>>>;
  /** The docs' words that state the rule, quoted in messages: every rule has them, last. */
  readonly text: Z.ZodString;
}

/** How hover and completion speak of a rule on one parameter. */
export interface RuleNote {
  /** A sentence in the docs' words (Markdown). */
  text: string;
  /** The rule makes the parameter required in some requests (completion marks it). */
  requires: boolean;
}

export interface RuleKind<R extends { kind: string; text: string }> {
  readonly kind: R['kind'];
  /** The rule as the catalog JSON writes it. */
  schema(kit: SchemaKit): Z.ZodType<R>;
  /**
   * What the catalog lint finds wrong with the rule on its endpoint, as phrases;
   * `isParameter` tells a parameter (or path placeholder) of the endpoint.
   */
  lint(rule: R, isParameter: (name: string) => boolean): string[];
  /** Applies the rule to a request; what it finds goes to `context.out`. */
  apply(rule: R, context: RuleContext): void;
  /** What hover and completion say of the rule on parameter `name`, or undefined when it does not concern it. */
  describe(rule: R, name: string): RuleNote | undefined;
}

/** The lint of a rule that names parameters: each must be one of the endpoint's. */
export function namesParameters(
  kind: string,
  names: readonly string[],
  isParameter: (name: string) => boolean,
): string[] {
  const problems: string[] = [];
  for (const n of names)
    if (!isParameter(n)) problems.push(`rule ${kind} names ${n}, which is not a parameter of the endpoint`);
  return problems;
}
