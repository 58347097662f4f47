/** The assertion lines of a block (LPREQ-FORMAT section 6), taken out before its other lines are read. */
import { readAssertion } from '../assertion';
import type { Block } from './tree';
import { add, scratchEnds, scratchStarts, skipBlanks } from './scan';

/**
 * Reads every line from `from` on that starts with `??` into `block.assertions`, and removes
 * it from the scratch line ranges, so that the query lines, headers, parameters and JSON body
 * are read as if it were not there (an assertion is never a query continuation, though it
 * starts with `?`). Returns the count of the lines that remain.
 */
export function takeAssertions(text: string, count: number, from: number, block: Block): number {
  const starts = scratchStarts;
  const ends = scratchEnds;
  let kept = from;
  for (let k = from; k < count; k++) {
    const s = starts[k];
    const e = ends[k];
    const lead = skipBlanks(text, s, e);
    if (lead + 1 < e && text.charCodeAt(lead) === 63 && text.charCodeAt(lead + 1) === 63) {
      block.assertions = add(block.assertions, readAssertion(text, s, e, 0));
      continue;
    }
    if (kept !== k) {
      starts[kept] = s;
      ends[kept] = e;
    }
    kept++;
  }
  return kept;
}
