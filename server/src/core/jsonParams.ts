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

/** A JSON string node without its quotes; other values as written. */
function valueToken(body: JsonBody, node: Node): Token {
  const quoted = node.type === 'string';
  const start = body.start + node.offset + (quoted ? 1 : 0);
  const end = body.start + node.offset + node.length - (quoted ? 1 : 0);
  return { text: body.text.slice(start - body.start, end - body.start), start, end };
}

function scalar(node: Node): string {
  if (node.type === 'null') return '';
  return String(node.value);
}

function syntaxError(body: JsonBody, errors: ParseError[]): { message: string; start: number; end: number } {
  const e = errors[0];
  // An error at the very end of the body has no character of its own: keep the range inside the body.
  const at = Math.min(body.start + (e?.offset ?? 0), body.end);
  const end = Math.min(at + Math.max(1, e?.length ?? 1), body.end);
  return { message: `the JSON body is not valid JSON: ${ERRORS[e?.error ?? 0] ?? 'unreadable'}`, start: Math.min(at, end), end };
}

/** Where a body that is not valid JSON goes wrong first (offsets like the body's), or undefined for valid JSON. */
export function jsonSyntaxError(body: JsonBody): { message: string; start: number; end: number } | undefined {
  const errors: ParseError[] = [];
  const root = parseTree(body.text, errors, { allowTrailingComma: false, disallowComments: true });
  return errors.length > 0 || !root ? syntaxError(body, errors) : undefined;
}

export function jsonBodyParameters(body: JsonBody): JsonParameters {
  const errors: ParseError[] = [];
  const root = parseTree(body.text, errors, { allowTrailingComma: false, disallowComments: true });
  if (errors.length > 0 || !root) return { params: [], error: syntaxError(body, errors) };
  const params: ParameterLine[] = [];
  const push = (name: string, key: Token, node: Node) => {
    const value = valueToken(body, node);
    params.push({ name: { ...key, text: name }, value, decodedName: name, decodedValue: scalar(node), source: 'json', start: key.start, end: value.end });
  };
  const walk = (node: Node, name: string, key: Token) => {
    if (node.type === 'object') {
      for (const property of node.children ?? []) {
        const [keyNode, valueNode] = property.children ?? [];
        if (!keyNode || !valueNode) continue;
        const k = String(keyNode.value);
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
  return { params };
}
