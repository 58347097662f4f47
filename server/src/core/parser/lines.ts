/** Readers of one line of a block: metadata, variables, scripts, a body file, a header, a query. */
import type { FileBody, Metadata, ParameterLine, Token, VariableDefinition } from './tree';
import { add, identEnd, isSpace, isTokenChar, safeDecode, skipBlanks, tokenIn } from './scan';

/** `# @name value` or `// @name value`: the key and value tokens, or null. */
export function readMetadata(text: string, from: number, to: number): Metadata | null {
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
  return {
    key: { text: text.slice(i + 1, keyEnd), start: i + 1, end: keyEnd },
    value: tokenIn(text, valueFrom, to),
    start: from,
    end: to,
  };
}

/**
 * A response handler or redirection of REST Client and JetBrains' client (`> {% ... %}`,
 * `> handler.js`, `>> file`, `>>! file`, `<> file`): a line whose first non-blank character is `>`,
 * or `<>`. With `pre`, a pre-request script (`< {% ... %}`, `< script.js`) before the request line.
 */
export function isScriptLine(text: string, from: number, to: number, pre: boolean): boolean {
  const i = skipBlanks(text, from, to);
  if (i >= to) return false;
  const c = text.charCodeAt(i);
  return c === 62 || (c === 60 && (text.charCodeAt(i + 1) === 62 || pre));
}

/**
 * The last line of a script that starts at line `k`: an inline script `{% ... %}` opened on
 * that line and not closed there runs to the first line holding `%}`.
 */
export function scriptEnd(text: string, starts: number[], ends: number[], count: number, k: number): number {
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
export function readFileBody(text: string, from: number, to: number): Omit<FileBody, 'start' | 'end'> | null {
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
export function readVariable(text: string, from: number, to: number): VariableDefinition | null {
  const at = skipBlanks(text, from, to);
  if (at >= to || text.charCodeAt(at) !== 64) return null;
  const nameEnd = identEnd(text, at + 1, to, true);
  if (nameEnd === at + 1) return null;
  const eq = skipBlanks(text, nameEnd, to);
  if (eq >= to || text.charCodeAt(eq) !== 61) return null;
  return {
    name: { text: text.slice(at + 1, nameEnd), start: at + 1, end: nameEnd },
    value: tokenIn(text, eq + 1, to),
    start: at,
    end: to,
  };
}

/** `Name: value`: the index of the colon, or -1. */
export function headerColon(text: string, from: number, to: number): number {
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
export function parseQuery(text: string, from: number, to: number, params: ParameterLine[]): ParameterLine[] {
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
      const value: Token =
        eq === -1
          ? { text: '', start: pair.end, end: pair.end }
          : { text: text.slice(nameEnd + 1, pair.end), start: nameEnd + 1, end: pair.end };
      out = add(out, {
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
  return out;
}

/** A query continuation line: `?a=1` or `&b=2` after leading blanks. */
export function isContinuation(text: string, from: number, to: number): boolean {
  const i = skipBlanks(text, from, to);
  const c = text.charCodeAt(i);
  return i < to && (c === 63 || c === 38);
}

/** The text with every closed `{{...}}` taken out. */
export function withoutVariables(text: string): string {
  return text.replace(/\{\{[^]*?\}\}/g, '');
}

export function startsTarget(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  if (c === 47) return true; // '/'
  if (c === 123 && text.charCodeAt(i + 1) === 123) return true; // '{{'
  if (c === 104 || c === 72) return /^https?:\/\//i.test(text.slice(i, i + 8));
  return false;
}
