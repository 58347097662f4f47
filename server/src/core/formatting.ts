/**
 * Document formatting: one space around `=` in parameter and variable lines, header
 * colons aligned within a request, `###` lines normalised, one space between the parts of
 * an assertion line (`?? body $.name == Week 5`). Values are never changed: only the spaces
 * around them are (an assertion's EXPECTED is kept as written, its inner spaces too; a line
 * that cannot be read as an assertion is left alone).
 */
import { assertionsOf, type LpreqDocument } from './parser';
import type { TextEdit } from './codeActions';

export function formatDocument(doc: LpreqDocument): TextEdit[] {
  const edits: TextEdit[] = [];
  const replaceLine = (lineStart: number, lineEnd: number, text: string) => {
    if (doc.text.slice(lineStart, lineEnd) !== text) edits.push({ start: lineStart, end: lineEnd, newText: text });
  };
  for (const { start, block } of doc.blocks) {
    const t = block.text;
    const lineEndOf = (s: number) => {
      let e = t.indexOf('\n', s);
      if (e === -1) e = t.length;
      if (e > s && t.charCodeAt(e - 1) === 13) e--;
      return e;
    };
    if (block.separator && !t.startsWith('####', block.separator.start)) {
      const line = t.slice(block.separator.start, block.separator.end);
      const title = line.slice(3).trim();
      replaceLine(start + block.separator.start, start + block.separator.end, title ? `### ${title}` : '###');
    }
    for (const v of block.variables) {
      const lineStart = t.lastIndexOf('\n', v.start - 1) + 1;
      const indent = t.slice(lineStart, v.start);
      replaceLine(
        start + lineStart,
        start + lineEndOf(v.start),
        `${indent}@${v.name.text} = ${v.value.text}`.trimEnd(),
      );
    }
    for (const p of block.params) {
      if (p.source !== 'body') continue;
      const lineStart = t.lastIndexOf('\n', p.start - 1) + 1;
      const lead = t.slice(lineStart, p.name.start);
      const value = p.value.text;
      replaceLine(
        start + lineStart,
        start + lineEndOf(p.start),
        value ? `${lead}${p.name.text} = ${value}` : `${lead}${p.name.text} =`,
      );
    }
    for (const read of assertionsOf(block)) {
      const a = read.assertion;
      if (!a) continue;
      const f = a.field;
      const field =
        f.kind === 'header' ? `header ${f.name}` : f.kind === 'body' && f.path ? `body ${f.path.text}` : f.kind;
      replaceLine(
        start + a.start,
        start + lineEndOf(a.start),
        `?? ${field} ${a.operator}${a.expected ? ` ${a.expected.raw}` : ''}`,
      );
    }
    if (block.headers.length > 0) {
      const width = Math.max(...block.headers.map((h) => h.name.text.length));
      for (const h of block.headers) {
        const lineStart = h.start;
        const indent = t.slice(lineStart, h.name.start);
        const value = h.value.text;
        replaceLine(
          start + lineStart,
          start + lineEndOf(h.start),
          `${indent}${h.name.text.padEnd(width)}:${value ? ` ${value}` : ''}`,
        );
      }
    }
  }
  return edits;
}
