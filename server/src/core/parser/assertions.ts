/** The assertion lines of a block (LPREQ-FORMAT section 6), taken out before its other lines are read, and read when asked. */
import { readAssertion, type AssertionParse } from '../assertion';
import type { Block } from './tree';
import { add, NONE, scratchEnds, scratchStarts, skipBlanks } from './scan';

/**
 * Notes where each line from `from` on that starts with `??` stands, in
 * `block.assertionLines`, and removes it from the scratch line ranges, so that the query
 * lines, headers, parameters and JSON body are read as if it were not there (an assertion is
 * never a query continuation, though it starts with `?`). Returns the count of the lines that
 * remain. The lines are not read here: `assertionsOf` reads them when something asks.
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
      block.assertionLines = add(add(block.assertionLines, s), e);
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

/**
 * The assertion lines of a block, read (offsets in the block's text, as every part of the
 * tree): read at the first call and kept in the block, which is the same whenever it is
 * read, so a block shared between parses is read once.
 */
export function assertionsOf(block: Block): readonly AssertionParse[] {
  let read = block.assertionsRead;
  if (read !== undefined) return read;
  const lines = block.assertionLines;
  read = NONE;
  for (let i = 0; i < lines.length; i += 2) read = add(read, readAssertion(block.text, lines[i], lines[i + 1], 0));
  block.assertionsRead = read;
  return read;
}
