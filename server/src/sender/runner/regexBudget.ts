/**
 * `matches` against values a server chose, within a time budget. A backtracking pattern such
 * as `^(a|aa)+$` on a long value takes longer than the age of the universe in V8's engine, and
 * the value is the server's to choose: without a limit one assertion hangs `lpreq test` (whose
 * `--timeout` covers the exchange only) and, in the editor, the extension host with every
 * extension in it. The values of one assertion are tested in one call run by `node:vm` with a
 * timeout: V8 interrupts the match when the budget is spent, wherever it is, and the thread
 * is free again. A pattern that runs out is a failed assertion that says so.
 */
import { createContext, Script } from 'node:vm';

/** How long the values of one assertion may take: a sane pattern takes milliseconds on a megabyte. */
export const REGEX_BUDGET_MS = 1000;

/** One context for every call: the pattern and the values are given as its globals for the call. */
let context: Record<string, unknown> | undefined;
const TEST_ALL = new Script(
  '(function () { for (let i = 0; i < texts.length; i++) { re.lastIndex = 0; if (!re.test(texts[i])) return i; } return -1; })()',
  { filename: 'lpreq-matches' },
);

/** The index of the first of `texts` that `regex` does not match (-1: all match), or 'timeout' when the budget ran out first. */
export function firstMismatch(regex: RegExp, texts: readonly string[], budgetMs = REGEX_BUDGET_MS): number | 'timeout' {
  context ??= createContext(Object.create(null) as Record<string, unknown>);
  context.re = regex;
  context.texts = texts;
  try {
    return TEST_ALL.runInContext(context, { timeout: Math.max(1, Math.round(budgetMs)) }) as number;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') return 'timeout';
    throw e;
  } finally {
    // Nothing of a response is kept beyond the call.
    context.re = undefined;
    context.texts = undefined;
  }
}
