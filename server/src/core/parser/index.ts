/**
 * The `.lpreq` parser (LPREQ-FORMAT section 1).
 *
 * It never throws: it returns a tree and a list of problems, recovering at every line
 * start and at `###` separators. A document is split into request blocks at lines that
 * begin with `###`; each block is parsed on its own, with offsets relative to the block's
 * start, so that an unchanged block can be reused as it is after an edit elsewhere.
 *
 * The phases of a block, each in its module: `scan.ts` (characters and lines), `lines.ts` (one
 * line of each kind), `head.ts` (up to the request line, its path lines and query lines),
 * `body.ts` (headers and the body); `queries.ts` reads a parsed block; `tree.ts` is the tree.
 */
import type { Block, BlockRef, LpreqDocument, ScriptSet } from './tree';
import { add, NONE, splitLines } from './scan';
import { parseHead, parseQueryLines } from './head';
import { parseBody, parseHeaders } from './body';
import { takeAssertions } from './assertions';

export { assertionsOf } from './assertions';

export * from './tree';
export * from './queries';

/** Parses one block. `text` starts at the block's `###` line, if it has one. */
export function parseBlock(text: string): Block {
  const block = parseBlockLines(text);
  if (text.includes('{%')) block.scriptSets = scriptSets(text);
  return block;
}

const SCRIPT_SET = /\b(client\.global|request\.variables)\.set\(\s*(["'])([A-Za-z_][\w.-]*)\2/g;

/** The variables the block's inline scripts (`{% ... %}`) set. */
function scriptSets(text: string): ScriptSet[] {
  let out: ScriptSet[] = NONE;
  for (let open = text.indexOf('{%'); open !== -1;) {
    const close = text.indexOf('%}', open + 2);
    const script = text.slice(open + 2, close === -1 ? text.length : close);
    for (const m of script.matchAll(SCRIPT_SET)) out = add(out, { name: m[3], global: m[1] === 'client.global' });
    if (close === -1) break;
    open = text.indexOf('{%', close + 2);
  }
  return out;
}

/*
 * A block is parsed in phases, one function each, in the order of the format: the lines,
 * what comes before and on the request line, query continuation lines, headers, and the body.
 */
function parseBlockLines(text: string): Block {
  const block = emptyBlock(text);
  let count = splitLines(text);
  let k = parseHead(text, count, block);
  if (!block.request) return block;
  count = takeAssertions(text, count, k, block);
  k = parseQueryLines(text, count, k, block);
  k = parseHeaders(text, count, k, block);
  parseBody(text, count, k, block);
  return block;
}

function emptyBlock(text: string): Block {
  // Every field from the start, in one order: all blocks share one shape, which keeps the
  // code that reads them monomorphic.
  return {
    text,
    separator: undefined,
    title: undefined,
    metadata: NONE,
    variables: NONE,
    request: undefined,
    queryLines: NONE,
    headers: NONE,
    params: NONE,
    jsonBody: undefined,
    fileBody: undefined,
    bodyStart: undefined,
    assertionLines: NONE,
    assertionsRead: undefined,
    scriptSets: NONE,
    problems: NONE,
  };
}

/**
 * What the rest of a document reads of a parsed block: its text, `###` line, metadata (the
 * request's name), variables, request line and the names its scripts set; its query lines,
 * headers, parameters, body, assertions and problems left out. It stands for the block in a
 * document still being parsed (SlicedParse), in the same shape as a parsed block.
 */
export function outlineOf(block: Block): Block {
  return {
    text: block.text,
    separator: block.separator,
    title: block.title,
    metadata: block.metadata,
    variables: block.variables,
    request: block.request,
    queryLines: NONE,
    headers: NONE,
    params: NONE,
    jsonBody: undefined,
    fileBody: undefined,
    bodyStart: undefined,
    assertionLines: NONE,
    assertionsRead: undefined,
    scriptSets: block.scriptSets,
    problems: NONE,
  };
}

/**
 * The outline of a block (`outlineOf(parseBlock(text))`), read from its head alone: the lines
 * up to the request line and its path lines, and the names its scripts set. A host that
 * checked a document with `diagnose` makes its outline with this afterwards: outlines kept
 * while `diagnose` runs live through the young generation's collections of all its garbage,
 * which cost more than reading the heads again.
 */
export function parseOutline(text: string): Block {
  const block = emptyBlock(text);
  parseHead(text, splitLines(text), block);
  // What parseHead finds beyond the outline (a query string's parameters, problems) is not in it.
  block.params = NONE;
  block.problems = NONE;
  if (text.includes('{%')) block.scriptSets = scriptSets(text);
  return block;
}

/** Offsets of the blocks of a document: the start and each line that begins with `###`. */
export function blockBoundaries(text: string): number[] {
  const first = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const starts = [first];
  // One search a block, not one a line.
  for (let nl = text.indexOf('\n###', first); nl !== -1; nl = text.indexOf('\n###', nl + 1)) starts.push(nl + 1);
  return starts;
}

/**
 * Parses a whole document. `previous` lets a caller reuse the blocks of an earlier parse:
 * a block whose text did not change is not parsed again.
 */
export function parseDocument(text: string, previous?: LpreqDocument): LpreqDocument {
  let reuse: Map<string, Block> | undefined;
  if (previous) {
    reuse = new Map();
    for (const ref of previous.blocks) reuse.set(ref.block.text, ref.block);
  }
  const starts = blockBoundaries(text);
  const blocks: BlockRef[] = [];
  for (let k = 0; k < starts.length; k++) {
    const start = starts[k];
    const end = k + 1 < starts.length ? starts[k + 1] : text.length;
    const blockText = text.slice(start, end);
    const block = reuse?.get(blockText) ?? parseBlock(blockText);
    blocks.push({ start, block });
  }
  return { text, blocks };
}
