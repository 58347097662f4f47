/** The phases before the headers: the `###` line, metadata, variables and the request line, path lines, query lines. */
import { METHODS, type Block, type RequestLine, type Token } from './tree';
import {
  add,
  isBlankRange,
  isCommentRange,
  isSpace,
  NONE,
  scratchEnds,
  scratchStarts,
  skipBlanks,
  tokenIn,
} from './scan';
import {
  isContinuation,
  isScriptLine,
  parseQuery,
  readMetadata,
  readVariable,
  scriptEnd,
  startsTarget,
  withoutVariables,
} from './lines';

const METHOD_SET = new Set<string>(METHODS);

function parseRequestLine(text: string, from: number, to: number, block: Block): RequestLine {
  const s = skipBlanks(text, from, to);
  let e = s;
  while (e < to && !isSpace(text.charCodeAt(e))) e++;
  let method: Token;
  let targetFrom: number;
  let methodKnown: boolean;
  if (startsTarget(text, s)) {
    // REST Client and JetBrains read a bare URL as a GET.
    method = { text: 'GET', start: s, end: s };
    methodKnown = true;
    targetFrom = s;
  } else {
    method = { text: text.slice(s, e), start: s, end: e };
    methodKnown = METHOD_SET.has(method.text);
    targetFrom = e;
    if (!methodKnown) {
      const upper = method.text.toUpperCase();
      const shown = method.text.length > 30 ? `${method.text.slice(0, 29)}…` : method.text;
      block.problems = add(block.problems, {
        code: 'syntax',
        message: METHOD_SET.has(upper)
          ? `'${shown}' is not an HTTP method: methods are upper case, write ${upper}`
          : `'${shown}' is not an HTTP method: write GET, POST, PUT, DELETE, PATCH, HEAD or OPTIONS`,
        start: s,
        end: e,
      });
    }
  }
  let target = tokenIn(text, targetFrom, to);
  let version: Token | undefined;
  const lastSpace = Math.max(target.text.lastIndexOf(' '), target.text.lastIndexOf('\t'));
  if (lastSpace !== -1 && /^HTTP\/\d(?:\.\d)?$/.test(target.text.slice(lastSpace + 1))) {
    const vStart = target.start + lastSpace + 1;
    version = { text: text.slice(vStart, target.end), start: vStart, end: target.end };
    target = tokenIn(text, target.start, vStart);
  }
  if (target.text.length === 0) {
    if (methodKnown) {
      block.problems = add(block.problems, {
        code: 'syntax',
        message: `the request line has no target: write ${method.text} /api/v1/<path> or ${method.text} {{base_url}}/api/v1/<path>`,
        start: s,
        end: to,
      });
    }
    return { method, methodKnown: false, target, pathLines: NONE, version, start: s, end: to };
  }
  if (methodKnown && !startsTarget(text, target.start) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(target.text)) {
    block.problems = add(block.problems, {
      code: 'syntax',
      message: `the target '${target.text.length > 30 ? `${target.text.slice(0, 29)}…` : target.text}' is not a path starting with /, an absolute URL or a {{variable}}`,
      start: target.start,
      end: target.end,
    });
  }
  // Spaces in the query are sent percent-encoded (as REST Client does); in the path they are a
  // mistake, except inside a {{variable}} (`{{ course }}`, `{{$dotenv COURSE_ID}}`).
  const q = target.text.indexOf('?');
  const pathPart = q === -1 ? target.text : target.text.slice(0, q);
  if (methodKnown && /\s/.test(pathPart) && /\s/.test(withoutVariables(pathPart))) {
    block.problems = add(block.problems, {
      code: 'syntax',
      message: 'the target of a request line cannot contain spaces (percent-encode them as %20)',
      start: target.start,
      end: target.end,
    });
  }
  return { method, methodKnown, target, pathLines: NONE, version, start: s, end: to };
}

/**
 * The `###` line, then comments, metadata and variables, then the request line with the
 * path lines and query string that go with it. Returns the index of the line after them.
 */
export function parseHead(text: string, count: number, block: Block): number {
  const starts = scratchStarts;
  const ends = scratchEnds;
  let k = 0;
  if (count > 0 && text.startsWith('###')) {
    block.separator = { start: 0, end: ends[0] };
    const title = tokenIn(text, 3, ends[0]);
    if (title.text.length > 0) block.title = title;
    k = 1;
  }
  for (; k < count; k++) {
    const s = starts[k];
    const e = ends[k];
    if (isBlankRange(text, s, e)) continue;
    const meta = readMetadata(text, s, e);
    if (meta) {
      block.metadata = add(block.metadata, meta);
      continue;
    }
    if (isCommentRange(text, s, e)) continue;
    const variable = readVariable(text, s, e);
    if (variable) {
      block.variables = add(block.variables, variable);
      continue;
    }
    // A pre-request script of JetBrains' client (`< {% ... %}`) is skipped, however many lines it spans.
    if (isScriptLine(text, s, e, true)) {
      k = scriptEnd(text, starts, ends, count, k);
      continue;
    }
    const request = parseRequestLine(text, s, e, block);
    block.request = request;
    return parsePathLines(text, count, k + 1, request, block);
  }
  return k;
}

/**
 * JetBrains' client lets the path go on over indented lines that start with `/`, until one
 * carries the query; the query string of the last one is read. Returns the line after them.
 */
function parsePathLines(text: string, count: number, from: number, request: RequestLine, block: Block): number {
  const starts = scratchStarts;
  const ends = scratchEnds;
  let k = from;
  let last = request.target;
  if (request.methodKnown && last.text.length > 0 && !/[?#]/.test(last.text)) {
    for (; k < count; k++) {
      const lead = skipBlanks(text, starts[k], ends[k]);
      // Not a `//` comment.
      if (lead === starts[k] || lead >= ends[k] || text.charCodeAt(lead) !== 47 || text.charCodeAt(lead + 1) === 47)
        break;
      last = tokenIn(text, lead, ends[k]);
      request.pathLines = add(request.pathLines ?? NONE, last);
      if (/\s/.test(withoutVariables(last.text.split(/[?#]/)[0]))) {
        block.problems = add(block.problems, {
          code: 'syntax',
          message: 'a path line cannot contain spaces (percent-encode them as %20)',
          start: last.start,
          end: last.end,
        });
      }
      if (/[?#]/.test(last.text)) {
        k++;
        break;
      }
    }
  }
  if (last.text.length > 0) {
    const q = last.text.indexOf('?');
    // A fragment (`#top`) is never sent: the query ends before it.
    const hash = q === -1 ? -1 : last.text.indexOf('#', q);
    if (q !== -1)
      block.params = parseQuery(text, last.start + q + 1, hash === -1 ? last.end : last.start + hash, block.params);
  }
  return k;
}

/** Query continuation lines (`?a=1`, `&b=2`); a comment between them does not end the query. Returns the line after them. */
export function parseQueryLines(text: string, count: number, from: number, block: Block): number {
  const starts = scratchStarts;
  const ends = scratchEnds;
  let k = from;
  for (; k < count; k++) {
    if (isCommentRange(text, starts[k], ends[k])) {
      let next = k + 1;
      while (next < count && isCommentRange(text, starts[next], ends[next])) next++;
      if (next < count && isContinuation(text, starts[next], ends[next])) continue;
      break;
    }
    if (!isContinuation(text, starts[k], ends[k])) break;
    block.queryLines = add(block.queryLines, { start: starts[k], end: ends[k] });
    block.params = parseQuery(text, skipBlanks(text, starts[k], ends[k]) + 1, ends[k], block.params);
  }
  return k;
}
