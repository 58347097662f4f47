/**
 * Selection ranges (an editor's "expand selection"): from the word at the cursor outwards,
 * through the piece of the line it belongs to (a parameter's name or value, a header's, a
 * query pair, a path segment), the line, the request block without its trailing blank lines,
 * to the whole file. Each range holds the one before it.
 */
import { blockAt } from './documentIndex';
import type { Location } from './navigation';
import { assertionsOf, type Block, type LpreqDocument } from './parser';

/** Characters of a word: a name, a value, a path segment, a variable's name. */
const WORD = /[\w$.\-%]/;

/** The ranges around each offset, innermost first. */
export function selectionRanges(doc: LpreqDocument, offsets: readonly number[]): Location[][] {
  return offsets.map((offset) => rangesAt(doc, offset));
}

function rangesAt(doc: LpreqDocument, offset: number): Location[] {
  const at = Math.max(0, Math.min(offset, doc.text.length));
  const candidates: Location[] = [];
  const ref = blockAt(doc, at);
  if (ref) {
    const o = at - ref.start;
    for (const r of blockRanges(ref.block, o)) candidates.push({ start: ref.start + r.start, end: ref.start + r.end });
  }
  candidates.push({ start: 0, end: doc.text.length });
  const ranges = nested(candidates, at);
  // An empty document: the cursor itself, since every range must hold the position.
  return ranges.length > 0 ? ranges : [{ start: at, end: at }];
}

/** The ranges of a block that hold offset `o` (relative to the block), in no order. */
function blockRanges(block: Block, o: number): Location[] {
  const text = block.text;
  const out: Location[] = [];
  const add = (r: { start: number; end: number } | undefined) => {
    if (r && r.start <= o && o <= r.end) out.push({ start: r.start, end: r.end });
  };
  out.push(wordAt(text, o));
  const lineStart = text.lastIndexOf('\n', o - 1) + 1;
  let lineEnd = text.indexOf('\n', o);
  if (lineEnd === -1) lineEnd = text.length;
  if (lineEnd > lineStart && text[lineEnd - 1] === '\r') lineEnd--;
  const written = text.slice(lineStart, lineEnd);
  add({ start: lineStart + written.length - written.trimStart().length, end: lineStart + written.trimEnd().length });
  const request = block.request;
  if (request) {
    add(request.method);
    add(request.target);
    for (const t of request.pathLines ?? []) add(t);
    for (const segment of segmentsOf(request.target)) add(segment);
    add(request);
  }
  for (const p of block.params) {
    add(p.name);
    add(p.value);
    add(p);
  }
  for (const h of block.headers) {
    add(h.name);
    add(h.value);
    add(h);
  }
  for (const v of block.variables) {
    add(v.name);
    add(v.value);
    add(v);
  }
  for (const m of block.metadata) {
    add(m.key);
    add(m.value);
    add(m);
  }
  if (block.assertionLines.length > 0) {
    for (const { assertion } of assertionsOf(block)) {
      if (!assertion) continue;
      add(assertion.field);
      if (assertion.field.kind === 'body') add(assertion.field.path);
      add(assertion.expected);
      add(assertion);
    }
  }
  add(block.jsonBody);
  add(block.fileBody?.path);
  // The block: from its separator (or its first line) to its last line that is not blank.
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1])) end--;
  add({ start: block.separator?.start ?? text.length - text.trimStart().length, end: Math.max(end, o) });
  return out;
}

/** The path segments and query pairs of a request target, each a range. */
function segmentsOf(target: { text: string; start: number }): Location[] {
  const out: Location[] = [];
  const query = target.text.indexOf('?');
  const path = query === -1 ? target.text : target.text.slice(0, query);
  let from = 0;
  for (const part of path.split('/')) {
    if (part !== '') out.push({ start: target.start + from, end: target.start + from + part.length });
    from += part.length + 1;
  }
  if (query !== -1) {
    let start = query + 1;
    for (const pair of target.text.slice(query + 1).split('&')) {
      const eq = pair.indexOf('=');
      if (eq !== -1) out.push({ start: target.start + start + eq + 1, end: target.start + start + pair.length });
      out.push({ start: target.start + start, end: target.start + start + pair.length });
      start += pair.length + 1;
    }
    out.push({ start: target.start + query, end: target.start + target.text.length });
  }
  return out;
}

/** The word at `o`: the run of word characters around it (empty between two others). */
function wordAt(text: string, o: number): Location {
  let start = o;
  let end = o;
  while (start > 0 && WORD.test(text[start - 1])) start--;
  while (end < text.length && WORD.test(text[end])) end++;
  return { start, end };
}

/** The candidates that hold `at`, smallest first, each holding the one before it; empty ranges left out. */
function nested(candidates: Location[], at: number): Location[] {
  const sorted = candidates
    .filter((r) => r.start <= at && at <= r.end && r.end > r.start)
    .sort((a, b) => a.end - a.start - (b.end - b.start) || b.start - a.start);
  const out: Location[] = [];
  for (const r of sorted) {
    const last = out[out.length - 1];
    if (last && (r.start > last.start || r.end < last.end || (r.start === last.start && r.end === last.end))) continue;
    out.push(r);
  }
  return out;
}
