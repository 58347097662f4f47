/**
 * Document structure: one symbol per request (method, path, title, `@name`), file
 * variables, and a folding range per request.
 */
import { isSecretVariable } from './documentIndex';
import { requestName, requestTarget, type LpreqDocument } from './parser';

export interface RequestSymbol {
  name: string;
  detail?: string;
  kind: 'request' | 'variable';
  /** Absolute offsets: the whole block, and the part to select (the request line). */
  start: number;
  end: number;
  selectionStart: number;
  selectionEnd: number;
}

/** End of the last non-blank line of a block (absolute). */
function contentEnd(text: string, base: number): number {
  let e = text.length;
  while (e > 0 && /\s/.test(text[e - 1])) e--;
  return base + e;
}

export function documentSymbols(doc: LpreqDocument): RequestSymbol[] {
  const out: RequestSymbol[] = [];
  for (const { start, block } of doc.blocks) {
    for (const v of block.variables) {
      // A secret-looking variable (`@my_token = ...`) keeps its value out of the outline, as hovers do.
      const detail = isSecretVariable(v.name.text, undefined) ? '(secret)' : v.value.text;
      out.push({
        name: `@${v.name.text}`,
        detail,
        kind: 'variable',
        start: start + v.start,
        end: start + v.end,
        selectionStart: start + v.name.start,
        selectionEnd: start + v.name.end,
      });
    }
    const request = block.request;
    if (!request) continue;
    const full = requestTarget(request);
    const target = full.length > 80 ? `${full.slice(0, 77)}...` : full;
    const name = requestName(block);
    const details = [block.title?.text, name ? `@${name}` : undefined].filter((x): x is string => !!x);
    out.push({
      name: `${request.method.text} ${target}`.trim() || '(request)',
      detail: details.length > 0 ? details.join(' · ') : undefined,
      kind: 'request',
      start:
        start +
        (block.separator ? block.separator.start : Math.min(request.start, block.metadata[0]?.start ?? request.start)),
      end: Math.max(contentEnd(block.text, start), start + request.end),
      selectionStart: start + request.start,
      selectionEnd: start + request.end,
    });
  }
  return out;
}

/** Folding ranges as absolute offsets of their first and last lines' starts. */
export function foldingRanges(doc: LpreqDocument): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = [];
  for (const { start, block } of doc.blocks) {
    const end = contentEnd(block.text, start);
    if (end > start && block.text.slice(0, end - start).includes('\n')) out.push({ start, end });
  }
  return out;
}
