/**
 * Re-parsing after one edit without walking the whole text: only the blocks the edit
 * touches are split and parsed again; the blocks after them keep their objects and move
 * by the edit's length. `parseDocument(text, previous)` gives the same result, but hashes
 * every block's text to find the unchanged ones.
 */
import { blockIndexAt } from './documentIndex';
import { parseBlock, type Block, type BlockRef, type LpreqDocument } from './parser';

export interface Reparse {
  document: LpreqDocument;
  /** Blocks that left the document and blocks that entered it. */
  removed: Block[];
  added: Block[];
}

/** Applies the edit [start, end) -> `inserted` of `previous.text`, giving `text`. */
export function reparseEdit(previous: LpreqDocument, text: string, start: number, end: number, insertedLength: number): Reparse {
  const blocks = previous.blocks;
  const delta = insertedLength - (end - start);
  let first = blockIndexAt(previous, start);
  // A block start in the middle of the edit (or right at its end) may move or vanish.
  let last = blockIndexAt(previous, end);
  if (start === 0 || end === 0) first = 0;
  // The region re-split ends at the start of the block after `last` (unchanged text from there on).
  let regionStart = blocks[first].start;
  const oldRegionEnd = () => (last + 1 < blocks.length ? blocks[last + 1].start : previous.text.length);
  // If the edit touched the start of the region's first block, its `###` line may be gone.
  while (first > 0 && !text.startsWith('###', regionStart)) {
    first--;
    regionStart = blocks[first].start;
  }
  // The next block's `###` must still begin a line after the edit.
  while (last + 1 < blocks.length) {
    const s = blocks[last + 1].start + delta;
    if (s > start + insertedLength && text.startsWith('###', s) && text.charCodeAt(s - 1) === 10) break;
    last++;
  }
  const regionEnd = oldRegionEnd() + (last + 1 < blocks.length ? delta : text.length - previous.text.length);
  const reuse = new Map<string, Block>();
  for (let k = first; k <= last; k++) reuse.set(blocks[k].block.text, blocks[k].block);
  const fresh: BlockRef[] = [];
  const added: Block[] = [];
  const starts = [regionStart];
  let i = regionStart;
  for (;;) {
    const nl = text.indexOf('\n', i);
    if (nl === -1 || nl + 1 >= regionEnd) break;
    i = nl + 1;
    if (text.startsWith('###', i)) starts.push(i);
  }
  const used = new Set<Block>();
  for (let k = 0; k < starts.length; k++) {
    const s = starts[k];
    const e = k + 1 < starts.length ? starts[k + 1] : regionEnd;
    const blockText = text.slice(s, e);
    let block = reuse.get(blockText);
    if (!block || used.has(block)) {
      block = parseBlock(blockText);
      added.push(block);
    }
    used.add(block);
    fresh.push({ start: s, block });
  }
  const removed: Block[] = [];
  for (let k = first; k <= last; k++) if (!used.has(blocks[k].block)) removed.push(blocks[k].block);
  const out: BlockRef[] = blocks.slice(0, first);
  for (const ref of fresh) out.push(ref);
  for (let k = last + 1; k < blocks.length; k++) out.push(delta === 0 ? blocks[k] : { start: blocks[k].start + delta, block: blocks[k].block });
  return { document: { text, blocks: out }, removed, added };
}
