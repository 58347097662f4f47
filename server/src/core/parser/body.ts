/** The phases after the request line: headers, and the body (a body file, JSON, or parameter lines). */
import type { Block, JsonBody } from './tree';
import { add, isBlankRange, isCommentRange, scratchEnds, scratchStarts, skipBlanks, tokenIn } from './scan';
import { headerColon, isScriptLine, readFileBody, scriptEnd } from './lines';

/** Headers up to the first blank line. Returns the line after that blank line. */
export function parseHeaders(text: string, count: number, from: number, block: Block): number {
  const starts = scratchStarts;
  const ends = scratchEnds;
  for (let k = from; k < count; k++) {
    const s = starts[k];
    const e = ends[k];
    if (isBlankRange(text, s, e)) {
      block.bodyStart = s;
      return k + 1;
    }
    if (isCommentRange(text, s, e)) continue;
    const colon = headerColon(text, s, e);
    if (colon !== -1) {
      block.headers = add(block.headers, {
        name: tokenIn(text, s, colon),
        value: tokenIn(text, colon + 1, e),
        start: s,
        end: e,
      });
      continue;
    }
    block.problems = add(block.problems, {
      code: 'syntax',
      message: `expected a header 'Name: value' or a blank line before the parameters`,
      start: skipBlanks(text, s, e),
      end: e,
    });
  }
  return count;
}

/** The body from line `from`: a body file, a JSON body, or parameter lines. */
export function parseBody(text: string, count: number, from: number, block: Block): void {
  const starts = scratchStarts;
  const ends = scratchEnds;
  let first = from;
  while (
    first < count &&
    (isBlankRange(text, starts[first], ends[first]) || isCommentRange(text, starts[first], ends[first]))
  )
    first++;
  if (first < count) {
    const lead = skipBlanks(text, starts[first], ends[first]);
    const file = readFileBody(text, lead, ends[first]);
    if (file) {
      // The body is the file; after it only response handlers and redirections may follow.
      block.fileBody = { ...file, start: lead, end: ends[first] };
      for (let j = first + 1; j < count; j++) {
        if (isBlankRange(text, starts[j], ends[j]) || isCommentRange(text, starts[j], ends[j])) continue;
        if (isScriptLine(text, starts[j], ends[j], false)) {
          j = scriptEnd(text, starts, ends, count, j);
          continue;
        }
        block.problems = add(block.problems, {
          code: 'syntax',
          message: 'the body is read from a file (< path): nothing else can follow it in this request',
          start: skipBlanks(text, starts[j], ends[j]),
          end: ends[j],
        });
      }
      return;
    }
    const c = text.charCodeAt(lead);
    if (c === 123 || c === 91) {
      block.jsonBody = readJsonBody(text, count, first);
      return;
    }
  }
  parseParameterLines(text, count, from, block);
}

/** A JSON body from line `first`; a response handler or redirection after it ends it (no JSON line starts with `>`). */
function readJsonBody(text: string, count: number, first: number): JsonBody {
  const starts = scratchStarts;
  const ends = scratchEnds;
  let stop = first + 1;
  while (stop < count && !isScriptLine(text, starts[stop], ends[stop], false)) stop++;
  let last = stop - 1;
  while (
    last > first &&
    (isBlankRange(text, starts[last], ends[last]) || isCommentRange(text, starts[last], ends[last]))
  )
    last--;
  // Whole-line comments cannot be JSON (a JSON string never spans lines): they are blanked
  // out, keeping every offset, so a body may carry notes like the rest of the file.
  let body = '';
  for (let j = first; j <= last; j++) {
    body += isCommentRange(text, starts[j], ends[j]) ? ' '.repeat(ends[j] - starts[j]) : text.slice(starts[j], ends[j]);
    if (j < last) body += lineGap(text, ends[j], starts[j + 1]);
  }
  return { text: body, start: starts[first], end: ends[last] };
}

/**
 * The text between two lines of a JSON body: a line break, or (where assertion lines were
 * taken out between them) those lines blanked out, every offset kept.
 */
function lineGap(text: string, from: number, to: number): string {
  const gap = text.slice(from, to);
  return gap.length <= 2 ? gap : gap.replace(/[^\r\n]/g, ' ');
}

/**
 * Parameter lines `name = value` from line `from`. A line `@name = value` here is a
 * parameter of the body, not a file variable (those stand outside a request body,
 * LPREQ-FORMAT section 1).
 */
function parseParameterLines(text: string, count: number, from: number, block: Block): void {
  const starts = scratchStarts;
  const ends = scratchEnds;
  for (let k = from; k < count; k++) {
    const s = starts[k];
    const e = ends[k];
    if (isBlankRange(text, s, e) || isCommentRange(text, s, e)) continue;
    let at = skipBlanks(text, s, e);
    const c = text.charCodeAt(at);
    // Response handlers and redirections of other clients (`> {% %}`, `>> file`, `<> file`) are
    // skipped, an inline handler over all its lines.
    if (c === 62 || (c === 60 && text.charCodeAt(at + 1) === 62)) {
      k = scriptEnd(text, starts, ends, count, k);
      continue;
    }
    const lineStart = at;
    if (c === 38) at++;
    const eq = text.indexOf('=', at);
    if (eq === -1 || eq >= e) {
      block.problems = add(block.problems, {
        code: 'syntax',
        message: `this line has no '=': a parameter line is 'name = value'`,
        start: lineStart,
        end: e,
      });
      continue;
    }
    const name = tokenIn(text, at, eq);
    if (name.text.length === 0) {
      block.problems = add(block.problems, {
        code: 'syntax',
        message: `the name is missing: a parameter line is 'name = value'`,
        start: lineStart,
        end: e,
      });
      continue;
    }
    const value = tokenIn(text, eq + 1, e);
    block.params = add(block.params, {
      name,
      value,
      decodedName: name.text,
      decodedValue: value.text,
      source: 'body',
      start: lineStart,
      end: e,
    });
  }
}
