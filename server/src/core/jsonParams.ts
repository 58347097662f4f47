/**
 * A JSON body read as the form parameters it stands for. The API reads a JSON body of a
 * form endpoint the same way as form fields (convention 2): `{"module": {"name": "x"}}` is
 * `module[name] = x`, an array of values is `name[]` repeated, and an array of objects is
 * indexed (`grading_periods[0][end_date]`). The checker checks these like parameter lines;
 * names and values point at the JSON keys and values.
 */
import { parseTree, type Node, type ParseError } from 'jsonc-parser';
import type { JsonBody, ParameterLine, Token } from './parser';

export interface JsonParameters {
  /** Parameters in body order; `source` is 'json'. */
  params: ParameterLine[];
  /** A `{{variable}}` stands for a whole value (`"column": {{column}}`, or the whole body): what it holds is unknown. */
  variableValues?: boolean;
  /** The body is not valid JSON: the first error's offset and a message. */
  error?: { message: string; start: number; end: number };
}

const ERRORS: Record<number, string> = {
  1: 'invalid symbol',
  2: 'invalid number format',
  3: 'a property name is expected',
  4: 'a value is expected',
  5: "':' is expected",
  6: "',' is expected",
  7: "'}' is expected",
  8: "']' is expected",
  9: 'the end of the body is expected',
};

/** A character no request writes: it stands for the characters of a `{{variable}}` in a JSON body. */
export const VARIABLE_MARK = '\uE000';

/**
 * A JSON body's text with each `{{variable}}` masked, every offset kept: inside a string by
 * marks, elsewhere (`"attempt": {{n}}`) by a string of marks. The variable's value is not
 * known when checking, so what it stands for is not checked; the body around it still is
 * (LPREQ-FORMAT section 3: its presence counts for required and conflicts).
 */
export function maskVariables(text: string): string {
  if (!text.includes('{{')) return text;
  let out = '';
  let copied = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString && c === 92) {
      i++;
      continue;
    }
    if (c === 34) {
      inString = !inString;
      continue;
    }
    if (c !== 123 || text.charCodeAt(i + 1) !== 123) continue;
    const close = text.indexOf('}}', i + 2);
    // Only a variable: no braces, quotes or line break inside (`{{"a": 1}}` is broken JSON, not a variable).
    if (close === -1 || /[{}"\n]/.test(text.slice(i + 2, close))) continue;
    const length = close + 2 - i;
    out += text.slice(copied, i) + (inString ? VARIABLE_MARK.repeat(length) : `"${VARIABLE_MARK.repeat(length - 2)}"`);
    copied = close + 2;
    i = close + 1;
  }
  return out + text.slice(copied);
}

/** A JSON string node without its quotes; other values as written. */
function valueToken(body: JsonBody, node: Node): Token {
  // As written: a variable in place of a value (`{{points}}`) is read as a string, but has no quotes.
  const quoted = node.type === 'string' && body.text.charCodeAt(node.offset) === 34;
  const start = body.start + node.offset + (quoted ? 1 : 0);
  const end = body.start + node.offset + node.length - (quoted ? 1 : 0);
  return { text: body.text.slice(start - body.start, end - body.start), start, end };
}

/** The value as sent; one that holds a variable is the text as written (`{{name}}`), which the checker leaves alone. */
function scalar(body: JsonBody, node: Node): string {
  if (node.type === 'null') return '';
  const value = String(node.value);
  return value.includes(VARIABLE_MARK) ? valueToken(body, node).text : value;
}

function syntaxError(body: JsonBody, errors: ParseError[]): { message: string; start: number; end: number } {
  const e = errors[0];
  // An error at the very end of the body has no character of its own: keep the range inside the body.
  const at = Math.min(body.start + (e?.offset ?? 0), body.end);
  const end = Math.min(at + Math.max(1, e?.length ?? 1), body.end);
  return {
    message: `the JSON body is not valid JSON: ${ERRORS[e?.error ?? 0] ?? 'unreadable'}`,
    start: Math.min(at, end),
    end,
  };
}

/** The body's JSON tree (offsets relative to the body), its variables masked; or where it goes wrong first. */
export function jsonBodyTree(
  body: JsonBody,
): { root: Node } | { error: { message: string; start: number; end: number } } {
  const errors: ParseError[] = [];
  const root = parseTree(maskVariables(body.text), errors, { allowTrailingComma: false, disallowComments: true });
  return errors.length > 0 || !root ? { error: syntaxError(body, errors) } : { root };
}

export function jsonBodyParameters(body: JsonBody): JsonParameters {
  const tree = jsonBodyTree(body);
  if ('error' in tree) return { params: [], error: tree.error };
  const root = tree.root;
  const params: ParameterLine[] = [];
  let variableValues = false;
  const push = (name: string, key: Token, node: Node) => {
    if (node.type === 'string' && body.text.charCodeAt(node.offset) !== 34) variableValues = true;
    const value = valueToken(body, node);
    params.push({
      name: { ...key, text: name },
      value,
      decodedName: name,
      decodedValue: scalar(body, node),
      source: 'json',
      start: key.start,
      end: value.end,
    });
  };
  const walk = (node: Node, name: string, key: Token) => {
    if (node.type === 'object') {
      for (const property of node.children ?? []) {
        const [keyNode, valueNode] = property.children ?? [];
        if (!keyNode || !valueNode) continue;
        const k = scalar(body, keyNode);
        walk(valueNode, name === '' ? k : `${name}[${k}]`, valueToken(body, keyNode));
      }
      return;
    }
    if (node.type === 'array') {
      const items = node.children ?? [];
      const nested = items.some((item) => item.type === 'object' || item.type === 'array');
      items.forEach((item, i) => (nested ? walk(item, `${name}[${i}]`, key) : push(`${name}[]`, key, item)));
      return;
    }
    if (name !== '') push(name, key, node);
  };
  if (root.type === 'object') walk(root, '', { text: '', start: body.start, end: body.start });
  else if (root.type === 'string' && body.text.charCodeAt(root.offset) !== 34) variableValues = true;
  return variableValues ? { params, variableValues } : { params };
}
