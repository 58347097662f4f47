/**
 * The `.lpreq` parser (LPREQ-FORMAT section 1).
 *
 * It never throws: it returns a tree and a list of problems, recovering at every line
 * start and at `###` separators. A document is split into request blocks at lines that
 * begin with `###`; each block is parsed on its own, with offsets relative to the block's
 * start, so that an unchanged block can be reused as it is after an edit elsewhere.
 */

export const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] as const;
export type HttpMethod = (typeof METHODS)[number];
const METHOD_SET = new Set<string>(METHODS);

/** A piece of text and where it stands (offsets relative to the block start). */
export interface Token {
  text: string;
  start: number;
  end: number;
}

export interface Problem {
  code: 'syntax';
  message: string;
  start: number;
  end: number;
}

export interface VariableDefinition {
  name: Token;
  value: Token;
  /** The whole line. */
  start: number;
  end: number;
}

export interface Metadata {
  key: Token;
  value: Token;
  start: number;
  end: number;
}

/** `name = value` in the parameter block, or `name=value` in the query string. */
export interface ParameterLine {
  name: Token;
  value: Token;
  /** The name and value as sent (query-string parts are percent-decoded). */
  decodedName: string;
  decodedValue: string;
  /** Where it stands: the query string, the parameter block, or a JSON body read as parameters. */
  source: 'query' | 'body' | 'json';
  start: number;
  end: number;
}

export interface Header {
  name: Token;
  value: Token;
  start: number;
  end: number;
}

export interface RequestLine {
  method: Token;
  /** True when METHOD is one of the known methods. */
  methodKnown: boolean;
  target: Token;
  /**
   * JetBrains' client lets a long path go on over indented lines that start with `/`
   * (`    /modules`): those lines' tokens, in order. The request as sent is requestTarget().
   */
  pathLines?: Token[];
  version?: Token;
  start: number;
  end: number;
}

export interface JsonBody {
  text: string;
  start: number;
  end: number;
}

/** A body read from a file (REST Client and JetBrains: `< ./body.json`, or `<@ ./body.json` to replace its variables). */
export interface FileBody {
  /** The path as written, relative to the request file's folder. */
  path: Token;
  /** `<@`: the file's `{{variables}}` are replaced before it is sent. */
  processVariables: boolean;
  /** `<@latin1 ./file`: the file's encoding, when given. */
  encoding?: string;
  /** The whole line. */
  start: number;
  end: number;
}

export interface Block {
  /** The text of the block, from its `###` line (or the document start) to the next separator. */
  text: string;
  separator?: { start: number; end: number };
  title?: Token;
  metadata: Metadata[];
  variables: VariableDefinition[];
  request?: RequestLine;
  /** Continuation lines of the query (`?a=1`, `&b=2`), whole lines. */
  queryLines: { start: number; end: number }[];
  headers: Header[];
  params: ParameterLine[];
  jsonBody?: JsonBody;
  /** A body read from a file instead of written here. */
  fileBody?: FileBody;
  /** Blank line between headers and body, when present. */
  bodyStart?: number;
  /** Variables that JetBrains scripts of this block set (`client.global.set("id", ...)`); lpreq does not run them. */
  scriptSets: ScriptSet[];
  problems: Problem[];
}

/** A variable a JetBrains script sets: `client.global.set` (for later requests) or `request.variables.set` (for this one). */
export interface ScriptSet {
  name: string;
  global: boolean;
}

export interface BlockRef {
  /** Absolute offset of the block in the document. */
  start: number;
  block: Block;
}

export interface LpreqDocument {
  text: string;
  blocks: BlockRef[];
}

/*
 * The block is scanned by index: lines are [start, end) ranges of the block text, and only
 * the tokens that go into the tree are sliced out. No per-line objects or strings, and no
 * regular expressions on the common lines: this is the hot path of every keystroke and of
 * `lpreq check` over large files.
 */

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 10 || c === 12 || c === 11 || c === 0xa0 || c === 0xfeff || (c >= 0x2000 && (c <= 0x200a || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000)) || c === 0x1680;
}

/** The first index in [from, to) that is not a space or tab (or `to`). */
function skipBlanks(text: string, from: number, to: number): number {
  let i = from;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (c !== 32 && c !== 9) break;
    i++;
  }
  return i;
}

function isBlankRange(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(text.charCodeAt(i))) return false;
  return true;
}

/** A whole-line comment: `#` or `//` after leading blanks. */
function isCommentRange(text: string, from: number, to: number): boolean {
  const i = skipBlanks(text, from, to);
  const c = text.charCodeAt(i);
  return i < to && (c === 35 || (c === 47 && i + 1 < to && text.charCodeAt(i + 1) === 47));
}

/** The trimmed token in [from, to); an empty token stands at `from`. */
function tokenIn(text: string, from: number, to: number): Token {
  let a = from;
  let b = to;
  while (a < b && isSpace(text.charCodeAt(a))) a++;
  while (b > a && isSpace(text.charCodeAt(b - 1))) b--;
  return { text: text.slice(a, b), start: a, end: b };
}

function isIdentStart(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

/** After the first character of a name: letters, digits, `_`, `-` and, with `dots`, `.`. */
function isIdentPart(c: number, dots: boolean): boolean {
  return isIdentStart(c) || (c >= 48 && c <= 57) || c === 45 || (dots && c === 46);
}

/** The end of a name starting at `from`: a letter or `_`, then letters, digits, `_`, `-` (and `.` with `dots`). */
function identEnd(text: string, from: number, to: number, dots: boolean): number {
  if (from >= to || !isIdentStart(text.charCodeAt(from))) return from;
  let i = from + 1;
  while (i < to && isIdentPart(text.charCodeAt(i), dots)) i++;
  return i;
}

/** HTTP token characters (RFC 9110), for header names, as a table of the ASCII range. */
const TOKEN_CHARS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  const letterOrDigit = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
  TOKEN_CHARS[c] = letterOrDigit || "!#$%&'*+.^_`|~-".includes(String.fromCharCode(c)) ? 1 : 0;
}

function isTokenChar(c: number): boolean {
  return c < 128 && TOKEN_CHARS[c] === 1;
}

function safeDecode(s: string): string {
  if (!s.includes('%') && !s.includes('+')) return s;
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

/**
 * Lists a block does not use share one empty array, and the line ranges live in
 * scratch arrays reused from block to block (parsing is synchronous): a large document
 * allocates little beyond its tree.
 */
// Not frozen: a frozen array has another elements kind, which makes every loop over block lists polymorphic.
// Only `add` below ever grows a list, and it never pushes onto NONE.
const NONE: never[] = [];
const scratchStarts: number[] = [];
const scratchEnds: number[] = [];

function add<T>(list: T[], item: T): T[] {
  if (list === NONE) return [item];
  list.push(item);
  return list;
}

/** `# @name value` or `// @name value`: the key and value tokens, or null. */
function readMetadata(text: string, from: number, to: number): Metadata | null {
  let i = skipBlanks(text, from, to);
  if (text.charCodeAt(i) === 35) i++;
  else if (text.charCodeAt(i) === 47 && text.charCodeAt(i + 1) === 47) i += 2;
  else return null;
  i = skipBlanks(text, i, to);
  if (i >= to || text.charCodeAt(i) !== 64) return null;
  const keyEnd = identEnd(text, i + 1, to, false);
  if (keyEnd === i + 1) return null;
  if (keyEnd < to && !isSpace(text.charCodeAt(keyEnd))) return null;
  // `# @name = value` (with an equals sign, as some clients write it) is `# @name value`.
  let valueFrom = skipBlanks(text, keyEnd, to);
  if (valueFrom < to && text.charCodeAt(valueFrom) === 61) valueFrom++;
  return { key: { text: text.slice(i + 1, keyEnd), start: i + 1, end: keyEnd }, value: tokenIn(text, valueFrom, to), start: from, end: to };
}

/**
 * A response handler or redirection of REST Client and JetBrains' client (`> {% ... %}`,
 * `> handler.js`, `>> file`, `>>! file`, `<> file`): a line whose first non-blank character is `>`,
 * or `<>`. With `pre`, a pre-request script (`< {% ... %}`, `< script.js`) before the request line.
 */
function isScriptLine(text: string, from: number, to: number, pre: boolean): boolean {
  const i = skipBlanks(text, from, to);
  if (i >= to) return false;
  const c = text.charCodeAt(i);
  return c === 62 || (c === 60 && (text.charCodeAt(i + 1) === 62 || pre));
}

/**
 * The last line of a script that starts at line `k`: an inline script `{% ... %}` opened on
 * that line and not closed there runs to the first line holding `%}`.
 */
function scriptEnd(text: string, starts: number[], ends: number[], count: number, k: number): number {
  const open = text.indexOf('{%', starts[k]);
  if (open === -1 || open >= ends[k]) return k;
  const close = text.indexOf('%}', open + 2);
  if (close !== -1 && close < ends[k]) return k;
  for (let j = k + 1; j < count; j++) {
    const c = text.indexOf('%}', starts[j]);
    if (c !== -1 && c < ends[j]) return j;
  }
  return count - 1;
}

/** `< path`, `<@ path` or `<@encoding path` in the body: a body read from a file, or null. */
function readFileBody(text: string, from: number, to: number): Omit<FileBody, 'start' | 'end'> | null {
  if (text.charCodeAt(from) !== 60) return null;
  let i = from + 1;
  let processVariables = false;
  let encoding: string | undefined;
  if (text.charCodeAt(i) === 64) {
    processVariables = true;
    i++;
    const encEnd = identEnd(text, i, to, false);
    if (encEnd > i) encoding = text.slice(i, encEnd);
    i = encEnd;
  }
  const c = text.charCodeAt(i);
  if (i >= to || (c !== 32 && c !== 9)) return null;
  const path = tokenIn(text, i, to);
  if (path.text.length === 0) return null;
  return { path, processVariables, encoding };
}

/** `@name = value`: the variable, or null. */
function readVariable(text: string, from: number, to: number): VariableDefinition | null {
  const at = skipBlanks(text, from, to);
  if (at >= to || text.charCodeAt(at) !== 64) return null;
  const nameEnd = identEnd(text, at + 1, to, true);
  if (nameEnd === at + 1) return null;
  const eq = skipBlanks(text, nameEnd, to);
  if (eq >= to || text.charCodeAt(eq) !== 61) return null;
  return { name: { text: text.slice(at + 1, nameEnd), start: at + 1, end: nameEnd }, value: tokenIn(text, eq + 1, to), start: at, end: to };
}

/** `Name: value`: the index of the colon, or -1. */
function headerColon(text: string, from: number, to: number): number {
  let i = skipBlanks(text, from, to);
  const nameStart = i;
  while (i < to) {
    const c = text.charCodeAt(i);
    if (isTokenChar(c)) i++;
    else if (c === 123 && text.charCodeAt(i + 1) === 123) {
      // A `{{variable}}` in the name (`X-{{tenant}}-Id: 1`), as anywhere else in a header.
      const close = text.indexOf('}}', i + 2);
      if (close === -1 || close + 2 > to) break;
      i = close + 2;
    } else break;
  }
  if (i === nameStart) return -1;
  i = skipBlanks(text, i, to);
  return i < to && text.charCodeAt(i) === 58 ? i : -1;
}

/** Splits `a=1&b=2` in [from, to) into query parameters. */
function parseQuery(text: string, from: number, to: number, params: ParameterLine[]): ParameterLine[] {
  let out = params;
  let i = from;
  while (i < to) {
    let amp = text.indexOf('&', i);
    if (amp === -1 || amp > to) amp = to;
    const pair = tokenIn(text, i, amp);
    if (pair.text.length > 0) {
      const eq = pair.text.indexOf('=');
      const nameEnd = eq === -1 ? pair.end : pair.start + eq;
      const name: Token = { text: text.slice(pair.start, nameEnd), start: pair.start, end: nameEnd };
      const value: Token = eq === -1 ? { text: '', start: pair.end, end: pair.end } : { text: text.slice(nameEnd + 1, pair.end), start: nameEnd + 1, end: pair.end };
      out = add(out, { name, value, decodedName: safeDecode(name.text), decodedValue: safeDecode(value.text), source: 'query', start: pair.start, end: pair.end });
    }
    i = amp + 1;
  }
  return out;
}

/** A query continuation line: `?a=1` or `&b=2` after leading blanks. */
function isContinuation(text: string, from: number, to: number): boolean {
  const i = skipBlanks(text, from, to);
  const c = text.charCodeAt(i);
  return i < to && (c === 63 || c === 38);
}

/** The text with every closed `{{...}}` taken out. */
function withoutVariables(text: string): string {
  return text.replace(/\{\{[^]*?\}\}/g, '');
}

function startsTarget(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c === 47) return true; // '/'
  if (c === 123 && text.charCodeAt(i + 1) === 123) return true; // '{{'
  if (c === 104 || c === 72) return /^https?:\/\//i.test(text.slice(i, i + 8));
  return false;
}

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
      const hint = METHOD_SET.has(upper) ? ` (methods are upper case: ${upper})` : '';
      block.problems = add(block.problems, {
        code: 'syntax',
        message: `'${method.text}' is not an HTTP method${hint}; a request line is METHOD TARGET with METHOD one of ${METHODS.join(', ')}`,
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
        message: `the request line has no target: write ${method.text} /api/v1/... or ${method.text} {{base_url}}/api/v1/...`,
        start: s,
        end: to,
      });
    }
    return { method, methodKnown: false, target, pathLines: NONE, version, start: s, end: to };
  }
  if (methodKnown && !startsTarget(text, target.start) && !/^[a-z][a-z0-9+.-]*:\/\//i.test(target.text)) {
    block.problems = add(block.problems, {
      code: 'syntax',
      message: `the target '${target.text}' is not a path starting with /, an absolute URL or a {{variable}}`,
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
  for (let open = text.indexOf('{%'); open !== -1; ) {
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
  // Every field from the start, in one order: all blocks share one shape, which keeps the
  // code that reads them monomorphic.
  const block: Block = {
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
    scriptSets: NONE,
    problems: NONE,
  };
  const count = splitLines(text);
  let k = parseHead(text, count, block);
  if (!block.request) return block;
  k = parseQueryLines(text, count, k, block);
  k = parseHeaders(text, count, k, block);
  parseBody(text, count, k, block);
  return block;
}

/** Fills the scratch line ranges: scratchStarts[k] .. scratchEnds[k], before the line break and without a trailing CR. Returns the count. */
function splitLines(text: string): number {
  const n = text.length;
  const starts = scratchStarts;
  const ends = scratchEnds;
  let count = 0;
  for (let start = 0; start <= n; ) {
    let nl = text.indexOf('\n', start);
    if (nl === -1) nl = n;
    starts[count] = start;
    ends[count] = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    count++;
    if (nl >= n) break;
    start = nl + 1;
  }
  return count;
}

/**
 * The `###` line, then comments, metadata and variables, then the request line with the
 * path lines and query string that go with it. Returns the index of the line after them.
 */
function parseHead(text: string, count: number, block: Block): number {
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
      if (lead === starts[k] || lead >= ends[k] || text.charCodeAt(lead) !== 47 || text.charCodeAt(lead + 1) === 47) break;
      last = tokenIn(text, lead, ends[k]);
      request.pathLines = add(request.pathLines ?? NONE, last);
      if (/\s/.test(withoutVariables(last.text.split(/[?#]/)[0]))) {
        block.problems = add(block.problems, { code: 'syntax', message: 'a path line cannot contain spaces (percent-encode them as %20)', start: last.start, end: last.end });
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
    if (q !== -1) block.params = parseQuery(text, last.start + q + 1, hash === -1 ? last.end : last.start + hash, block.params);
  }
  return k;
}

/** Query continuation lines (`?a=1`, `&b=2`); a comment between them does not end the query. Returns the line after them. */
function parseQueryLines(text: string, count: number, from: number, block: Block): number {
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

/** Headers up to the first blank line. Returns the line after that blank line. */
function parseHeaders(text: string, count: number, from: number, block: Block): number {
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
      block.headers = add(block.headers, { name: tokenIn(text, s, colon), value: tokenIn(text, colon + 1, e), start: s, end: e });
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
function parseBody(text: string, count: number, from: number, block: Block): void {
  const starts = scratchStarts;
  const ends = scratchEnds;
  let first = from;
  while (first < count && (isBlankRange(text, starts[first], ends[first]) || isCommentRange(text, starts[first], ends[first]))) first++;
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
        block.problems = add(block.problems, { code: 'syntax', message: 'the body is read from a file (< path): nothing else can follow it in this request', start: skipBlanks(text, starts[j], ends[j]), end: ends[j] });
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
  while (last > first && (isBlankRange(text, starts[last], ends[last]) || isCommentRange(text, starts[last], ends[last]))) last--;
  // Whole-line comments cannot be JSON (a JSON string never spans lines): they are blanked
  // out, keeping every offset, so a body may carry notes like the rest of the file.
  let body = '';
  for (let j = first; j <= last; j++) {
    body += isCommentRange(text, starts[j], ends[j]) ? ' '.repeat(ends[j] - starts[j]) : text.slice(starts[j], ends[j]);
    if (j < last) body += text.slice(ends[j], starts[j + 1]);
  }
  return { text: body, start: starts[first], end: ends[last] };
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
      block.problems = add(block.problems, { code: 'syntax', message: `a parameter line is 'name = value'; this line has no '='`, start: lineStart, end: e });
      continue;
    }
    const name = tokenIn(text, at, eq);
    if (name.text.length === 0) {
      block.problems = add(block.problems, { code: 'syntax', message: `a parameter line is 'name = value'; the name is missing`, start: lineStart, end: e });
      continue;
    }
    const value = tokenIn(text, eq + 1, e);
    block.params = add(block.params, { name, value, decodedName: name.text, decodedValue: value.text, source: 'body', start: lineStart, end: e });
  }
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

/** A `{{...}}` reference in some text. */
export interface VariableReference {
  /** The inside, trimmed: `base_url`, `$guid`, `createModule.response.body.$.id`. */
  expression: string;
  /** Offsets of `{{` and just after `}}`, relative to the same origin as the text given. */
  start: number;
  end: number;
}

/** Finds `{{...}}` references in `text`, whose first character stands at `offset`. */
export function findVariableReferences(text: string, offset: number): VariableReference[] {
  const refs: VariableReference[] = [];
  let i = text.indexOf('{{');
  while (i !== -1) {
    const close = text.indexOf('}}', i + 2);
    if (close === -1) break;
    refs.push({ expression: text.slice(i + 2, close).trim(), start: offset + i, end: offset + close + 2 });
    i = text.indexOf('{{', close + 2);
  }
  return refs;
}

/** A REST Client prompt variable: `# @prompt name [description]` above a request. */
export interface PromptVariable {
  name: string;
  /** The words after the name: what to ask; empty when there are none. */
  description: string;
  /** Offsets of the name in the block (`# @prompt |name| ...`). */
  start: number;
  end: number;
}

const PROMPT = /^([A-Za-z_][\w.-]*)(?:\s+(.*))?$/;

/** The variables a block asks for when it is sent (`# @prompt name description`), in order. */
export function promptVariables(block: Block): PromptVariable[] {
  let out: PromptVariable[] = NONE;
  for (const m of block.metadata) {
    if (m.key.text !== 'prompt') continue;
    const p = PROMPT.exec(m.value.text);
    if (p) out = add(out, { name: p[1], description: (p[2] ?? '').trim(), start: m.value.start, end: m.value.start + p[1].length });
  }
  return out;
}

/**
 * The value of a block's `# @key value` metadata: '' for a key written without a value
 * (`# @no-redirect`), undefined when the block does not have it.
 */
export function metadataValue(block: Block, key: string): string | undefined {
  for (const m of block.metadata) if (m.key.text === key) return m.value.text;
  return undefined;
}

/** The request's target as sent: the request line's, with JetBrains' indented path lines (`    /items`) joined to it. */
export function requestTarget(request: RequestLine): string {
  const lines = request.pathLines;
  if (!lines || lines.length === 0) return request.target.text;
  let target = request.target.text;
  for (const line of lines) target += line.text;
  return target;
}

/** The block offset of character `index` of requestTarget(request): on the request line or on one of its path lines. */
export function targetOffset(request: RequestLine, index: number): number {
  let from = 0;
  for (const token of [request.target, ...(request.pathLines ?? [])]) {
    if (index < from + token.text.length) return token.start + index - from;
    from += token.text.length;
  }
  const lines = request.pathLines;
  return lines && lines.length > 0 ? lines[lines.length - 1].end : request.target.end;
}

/** The `@name` metadata of a block, if any. */
export function requestName(block: Block): string | undefined {
  for (let i = 0; i < block.metadata.length; i++) {
    const m = block.metadata[i];
    if (m.key.text === 'name') return m.value.text.length > 0 ? m.value.text : undefined;
  }
  return undefined;
}
