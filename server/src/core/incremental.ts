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

/**
 * The edited text as the re-parse reads it: only around the edit. A string is one; the
 * language server's document is another, which never joins its whole text for an edit.
 */
export interface TextSource {
  readonly length: number;
  slice(from: number, to: number): string;
  charCodeAt(offset: number): number;
}

/** The text of a document given by its blocks: they follow one another to its end. */
function endOf(doc: LpreqDocument): number {
  const last = doc.blocks[doc.blocks.length - 1];
  return last ? last.start + last.block.text.length : doc.text.length;
}

function isSeparatorAt(text: TextSource, at: number): boolean {
  return text.charCodeAt(at) === 35 && text.charCodeAt(at + 1) === 35 && text.charCodeAt(at + 2) === 35;
}

/** A document whose text is joined from its blocks when first asked for. */
function documentOf(blocks: BlockRef[]): LpreqDocument {
  let text: string | undefined;
  return {
    blocks,
    get text() {
      if (text === undefined) {
        const parts = blocks.map((b) => b.block.text);
        // A byte order mark is the one character before the first block (parser.ts, blockBoundaries).
        text = (blocks[0]?.start === 1 ? '\uFEFF' : '') + parts.join('');
      }
      return text;
    },
  };
}

/** Applies the edit [start, end) -> `insertedLength` characters of `previous`'s text, giving `text`. */
export function reparseEdit(
  previous: LpreqDocument,
  text: TextSource,
  start: number,
  end: number,
  insertedLength: number,
): Reparse {
  const blocks = previous.blocks;
  const previousLength = endOf(previous);
  const delta = insertedLength - (end - start);
  let first = blockIndexAt(previous, start);
  // A block start in the middle of the edit (or right at its end) may move or vanish.
  let last = blockIndexAt(previous, end);
  if (start === 0 || end === 0) first = 0;
  // The region re-split ends at the start of the block after `last` (unchanged text from there on).
  let regionStart = blocks[first].start;
  const oldRegionEnd = () => (last + 1 < blocks.length ? blocks[last + 1].start : previousLength);
  // If the edit touched the start of the region's first block, its `###` line may be gone.
  while (first > 0 && !isSeparatorAt(text, regionStart)) {
    first--;
    regionStart = blocks[first].start;
  }
  // The first block starts after a byte order mark, which an edit at the start may add or remove.
  if (first === 0) regionStart = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  // The next block's `###` must still begin a line after the edit.
  while (last + 1 < blocks.length) {
    const s = blocks[last + 1].start + delta;
    if (s > start + insertedLength && isSeparatorAt(text, s) && text.charCodeAt(s - 1) === 10) break;
    last++;
  }
  const regionEnd = oldRegionEnd() + (last + 1 < blocks.length ? delta : text.length - previousLength);
  const region = text.slice(regionStart, regionEnd);
  const reuse = new Map<string, Block>();
  for (let k = first; k <= last; k++) reuse.set(blocks[k].block.text, blocks[k].block);
  const fresh: BlockRef[] = [];
  const added: Block[] = [];
  // Block starts inside the region, relative to it.
  const starts = [0];
  let i = 0;
  for (;;) {
    const nl = region.indexOf('\n', i);
    if (nl === -1 || nl + 1 >= region.length) break;
    i = nl + 1;
    if (region.startsWith('###', i)) starts.push(i);
  }
  const used = new Set<Block>();
  for (let k = 0; k < starts.length; k++) {
    const s = starts[k];
    const e = k + 1 < starts.length ? starts[k + 1] : region.length;
    const blockText = region.slice(s, e);
    let block = reuse.get(blockText);
    if (!block || used.has(block)) {
      block = parseBlock(blockText);
      added.push(block);
    }
    used.add(block);
    fresh.push({ start: regionStart + s, block });
  }
  const removed: Block[] = [];
  for (let k = first; k <= last; k++) if (!used.has(blocks[k].block)) removed.push(blocks[k].block);
  const out: BlockRef[] = blocks.slice(0, first);
  for (const ref of fresh) out.push(ref);
  for (let k = last + 1; k < blocks.length; k++)
    out.push(delta === 0 ? blocks[k] : { start: blocks[k].start + delta, block: blocks[k].block });
  return { document: typeof text === 'string' ? { text, blocks: out } : documentOf(out), removed, added };
}
