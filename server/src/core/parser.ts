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
  source: 'query' | 'body';
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
  version?: Token;
  start: number;
  end: number;
}

export interface JsonBody {
  text: string;
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
  /** Blank line between headers and body, when present. */
  bodyStart?: number;
  problems: Problem[];
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

interface Line {
  start: number;
  /** End of the content, before the line break. */
  end: number;
  text: string;
}

function splitLines(text: string): Line[] {
  const lines: Line[] = [];
  let start = 0;
  const n = text.length;
  while (start <= n) {
    let i = text.indexOf('\n', start);
    if (i === -1) i = n;
    let end = i;
    if (end > start && text.charCodeAt(end - 1) === 13) end--;
    lines.push({ start, end, text: text.slice(start, end) });
    if (i >= n) break;
    start = i + 1;
  }
  return lines;
}

function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 13 || c === 10 || c === 12 || c === 11 || c === 0xa0 || c === 0xfeff || (c >= 0x2000 && (c <= 0x200a || c === 0x2028 || c === 0x2029 || c === 0x202f || c === 0x205f || c === 0x3000)) || c === 0x1680;
}

function isBlank(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (!isSpace(s.charCodeAt(i))) return false;
  return true;
}

function leadingSpace(s: string): number {
  let i = 0;
  while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
  return i;
}

function isComment(s: string): boolean {
  const i = leadingSpace(s);
  const c = s.charCodeAt(i);
  return c === 35 /* # */ || (c === 47 /* / */ && s.charCodeAt(i + 1) === 47);
}

function token(text: string, lineStart: number, from: number, to: number): Token {
  return { text: text.slice(from, to), start: lineStart + from, end: lineStart + to };
}

/** Trims a range of a line, returning a token (empty tokens stand at `from`). */
function trimmedToken(line: Line, from: number, to: number): Token {
  let a = from;
  let b = to;
  while (a < b && isSpace(line.text.charCodeAt(a))) a++;
  while (b > a && isSpace(line.text.charCodeAt(b - 1))) b--;
  return token(line.text, line.start, a, b);
}

function safeDecode(s: string): string {
  if (!s.includes('%') && !s.includes('+')) return s;
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

const VARIABLE_LINE = /^\s*@([A-Za-z_][\w.-]*)\s*=(.*)$/;
const METADATA_LINE = /^\s*(?:#|\/\/)\s*@([A-Za-z_][\w-]*)(?:\s+(.*?))?\s*$/;
const HEADER_LINE = /^\s*([A-Za-z0-9!#$%&'*+.^_`|~-]+)\s*:(.*)$/;

/** Splits `a=1&b=2` (a query string, from offset `from` of the line) into parameters. */
function parseQuery(line: Line, from: number, out: ParameterLine[]) {
  let i = from;
  const text = line.text;
  while (i < text.length) {
    let amp = text.indexOf('&', i);
    if (amp === -1) amp = text.length;
    // Trailing spaces (and a trailing HTTP version, already cut) are not part of the pair.
    const pair = trimmedToken(line, i, amp);
    if (pair.text.length > 0) {
      const eq = pair.text.indexOf('=');
      const nameEnd = eq === -1 ? pair.end : pair.start + eq;
      const rel = pair.start - line.start;
      const name = token(text, line.start, rel, nameEnd - line.start);
      const value =
        eq === -1
          ? token(text, line.start, pair.end - line.start, pair.end - line.start)
          : token(text, line.start, rel + eq + 1, pair.end - line.start);
      out.push({
        name,
        value,
        decodedName: safeDecode(name.text),
        decodedValue: safeDecode(value.text),
        source: 'query',
        start: pair.start,
        end: pair.end,
      });
    }
    i = amp + 1;
  }
}

function parseRequestLine(line: Line, block: Block): RequestLine | undefined {
  const text = line.text;
  const s = leadingSpace(text);
  let e = s;
  while (e < text.length && !isSpace(text.charCodeAt(e))) e++;
  const first = token(text, line.start, s, e);
  let method: Token;
  let targetFrom: number;
  let methodKnown: boolean;
  const looksLikeTarget = /^(\/|https?:\/\/|\{\{)/i.test(first.text);
  if (looksLikeTarget) {
    // REST Client and JetBrains read a bare URL as a GET.
    method = { text: 'GET', start: first.start, end: first.start };
    methodKnown = true;
    targetFrom = s;
  } else {
    method = first;
    methodKnown = METHOD_SET.has(first.text);
    targetFrom = e;
    if (!methodKnown) {
      const upper = first.text.toUpperCase();
      const hint = METHOD_SET.has(upper) ? ` (methods are upper case: ${upper})` : '';
      block.problems.push({
        code: 'syntax',
        message: `'${first.text}' is not an HTTP method${hint}; a request line is METHOD TARGET with METHOD one of ${METHODS.join(', ')}`,
        start: first.start,
        end: first.end,
      });
    }
  }
  let rest = trimmedToken(line, targetFrom, text.length);
  let version: Token | undefined;
  const versionMatch = /\s+(HTTP\/\d(?:\.\d)?)$/.exec(rest.text);
  if (versionMatch) {
    const vStart = rest.end - versionMatch[1].length;
    version = { text: versionMatch[1], start: vStart, end: rest.end };
    rest = trimmedToken(line, rest.start - line.start, vStart - line.start);
  }
  if (rest.text.length === 0) {
    if (methodKnown) {
      block.problems.push({
        code: 'syntax',
        message: `the request line has no target: write ${method.text} /api/v1/... or ${method.text} {{base_url}}/api/v1/...`,
        start: line.start + s,
        end: line.end,
      });
    }
    return { method, methodKnown: false, target: rest, version, start: line.start + s, end: line.end };
  }
  // Spaces in the query are sent percent-encoded (as REST Client does); in the path they are a mistake.
  const pathPart = rest.text.split('?', 1)[0];
  if (/\s/.test(pathPart) && methodKnown) {
    block.problems.push({
      code: 'syntax',
      message: 'the target of a request line cannot contain spaces (percent-encode them as %20)',
      start: rest.start,
      end: rest.end,
    });
  }
  return { method, methodKnown, target: rest, version, start: line.start + s, end: line.end };
}

/** Parses one block. `text` starts at the block's `###` line, if it has one. */
export function parseBlock(text: string): Block {
  const block: Block = {
    text,
    metadata: [],
    variables: [],
    queryLines: [],
    headers: [],
    params: [],
    problems: [],
  };
  const lines = splitLines(text);
  let index = 0;
  if (lines.length > 0 && lines[0].text.startsWith('###')) {
    const line = lines[0];
    block.separator = { start: line.start, end: line.end };
    const title = trimmedToken(line, 3, line.text.length);
    if (title.text.length > 0) block.title = title;
    index = 1;
  }
  // Before the request line: comments, metadata, variables.
  for (; index < lines.length; index++) {
    const line = lines[index];
    if (isBlank(line.text)) continue;
    const meta = METADATA_LINE.exec(line.text);
    if (meta) {
      const keyAt = line.text.indexOf('@') + 1;
      const key = token(line.text, line.start, keyAt, keyAt + meta[1].length);
      const value = trimmedToken(line, keyAt + meta[1].length, line.text.length);
      block.metadata.push({ key, value, start: line.start, end: line.end });
      continue;
    }
    if (isComment(line.text)) continue;
    const variable = VARIABLE_LINE.exec(line.text);
    if (variable) {
      block.variables.push(parseVariable(line));
      continue;
    }
    block.request = parseRequestLine(line, block);
    if (block.request && block.request.target.text.length > 0) {
      const q = block.request.target.text.indexOf('?');
      if (q !== -1) {
        const from = block.request.target.start - line.start + q + 1;
        const to = block.request.target.end - line.start;
        parseQuery({ start: line.start, end: line.start + to, text: line.text.slice(0, to) }, from, block.params);
      }
    }
    index++;
    break;
  }
  if (!block.request) return block;
  // Query continuation lines.
  const isContinuation = (line: Line) => {
    const c = line.text[leadingSpace(line.text)];
    return c === '?' || c === '&';
  };
  for (; index < lines.length; index++) {
    const line = lines[index];
    if (isComment(line.text)) {
      // A comment between continuation lines does not end the query.
      let next = index + 1;
      while (next < lines.length && isComment(lines[next].text)) next++;
      if (next < lines.length && isContinuation(lines[next])) continue;
      break;
    }
    if (!isContinuation(line)) break;
    const s = leadingSpace(line.text);
    block.queryLines.push({ start: line.start, end: line.end });
    parseQuery(line, s + 1, block.params);
  }
  // Headers up to the first blank line.
  for (; index < lines.length; index++) {
    const line = lines[index];
    if (isBlank(line.text)) {
      block.bodyStart = line.start;
      index++;
      break;
    }
    if (isComment(line.text)) continue;
    const header = HEADER_LINE.exec(line.text);
    if (header) {
      const colon = line.text.indexOf(':');
      block.headers.push({
        name: trimmedToken(line, 0, colon),
        value: trimmedToken(line, colon + 1, line.text.length),
        start: line.start,
        end: line.end,
      });
      continue;
    }
    // A parameter line without the blank line before it: read it as a parameter, and say so.
    block.problems.push({
      code: 'syntax',
      message: `expected a header 'Name: value' or a blank line before the parameters`,
      start: line.start + leadingSpace(line.text),
      end: line.end,
    });
  }
  // Body: a JSON body or parameter lines.
  let firstContent = index;
  while (firstContent < lines.length && (isBlank(lines[firstContent].text) || isComment(lines[firstContent].text))) {
    firstContent++;
  }
  if (firstContent < lines.length) {
    const t = lines[firstContent].text.trimStart();
    if (t.startsWith('{') || t.startsWith('[')) {
      let last = lines.length - 1;
      while (last > firstContent && (isBlank(lines[last].text) || isComment(lines[last].text))) last--;
      const start = lines[firstContent].start;
      const end = lines[last].end;
      // Whole-line comments cannot be JSON (a JSON string never spans lines): they are blanked
      // out, keeping every offset, so a body may carry notes like the rest of the file.
      let body = '';
      for (let k = firstContent; k <= last; k++) {
        const l = lines[k];
        body += isComment(l.text) ? ' '.repeat(l.text.length) : l.text;
        if (k < last) body += text.slice(l.end, lines[k + 1].start);
      }
      block.jsonBody = { text: body, start, end };
      return block;
    }
  }
  for (; index < lines.length; index++) {
    const line = lines[index];
    if (isBlank(line.text) || isComment(line.text)) continue;
    if (VARIABLE_LINE.test(line.text)) {
      block.variables.push(parseVariable(line));
      continue;
    }
    // Response handlers and redirections of other clients (`> {% %}`, `>> file`, `<> file`) are skipped.
    const t = line.text.trimStart();
    if (t.startsWith('>') || t.startsWith('<>')) continue;
    let from = leadingSpace(line.text);
    if (line.text[from] === '&') from++;
    const eq = line.text.indexOf('=', from);
    if (eq === -1) {
      block.problems.push({
        code: 'syntax',
        message: `a parameter line is 'name = value'; this line has no '='`,
        start: line.start + leadingSpace(line.text),
        end: line.end,
      });
      continue;
    }
    const name = trimmedToken(line, from, eq);
    const value = trimmedToken(line, eq + 1, line.text.length);
    if (name.text.length === 0) {
      block.problems.push({
        code: 'syntax',
        message: `a parameter line is 'name = value'; the name is missing`,
        start: line.start + leadingSpace(line.text),
        end: line.end,
      });
      continue;
    }
    block.params.push({
      name,
      value,
      decodedName: name.text,
      decodedValue: value.text,
      source: 'body',
      start: line.start + leadingSpace(line.text),
      end: line.end,
    });
  }
  return block;
}

function parseVariable(line: Line): VariableDefinition {
  const at = line.text.indexOf('@');
  const eq = line.text.indexOf('=', at);
  return {
    name: trimmedToken(line, at + 1, eq),
    value: trimmedToken(line, eq + 1, line.text.length),
    start: line.start + leadingSpace(line.text),
    end: line.end,
  };
}

/** Offsets of the blocks of a document: the start and each line that begins with `###`. */
export function blockBoundaries(text: string): number[] {
  const first = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const starts = [first];
  let i = first;
  for (;;) {
    const nl = text.indexOf('\n', i);
    if (nl === -1) break;
    i = nl + 1;
    if (text.startsWith('###', i)) starts.push(i);
  }
  return starts;
}

/**
 * Parses a whole document. `previous` lets a caller reuse the blocks of an earlier parse:
 * a block whose text did not change is not parsed again.
 */
export function parseDocument(text: string, previous?: LpreqDocument): LpreqDocument {
  const reuse = new Map<string, Block>();
  if (previous) for (const ref of previous.blocks) reuse.set(ref.block.text, ref.block);
  const starts = blockBoundaries(text);
  const blocks: BlockRef[] = [];
  for (let k = 0; k < starts.length; k++) {
    const start = starts[k];
    const end = k + 1 < starts.length ? starts[k + 1] : text.length;
    const blockText = text.slice(start, end);
    const block = reuse.get(blockText) ?? parseBlock(blockText);
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

/** The `@name` metadata of a block, if any. */
export function requestName(block: Block): string | undefined {
  const meta = block.metadata.find((m) => m.key.text === 'name');
  return meta && meta.value.text.length > 0 ? meta.value.text : undefined;
}
