/** The check of a JSON body against the endpoint's documented shape. */
import type { Node as JsonNode } from 'jsonc-parser';
import type { JsonShape } from '../catalog/schema';
import type { Block, JsonBody } from '../parser';
import { jsonBodyTree, VARIABLE_MARK } from '../jsonParams';
import { closest } from '../suggest';
import { own } from '../own';
import { documented, endpointFact, fit, quote } from './phrases';
import { diag, type Diagnostic } from './diagnostics';
import type { RequestCheck } from './context';

export function checkJsonBody(check: RequestCheck, shape: JsonShape) {
  const { block, endpoint, label, lineStart, lineEnd, out } = check;
  const body = block.jsonBody;
  if (!body) {
    for (const key of shape.required ?? []) {
      out.push(
        diag(
          'missing-required',
          fit(
            `the JSON body with ${key} is missing: add it below the headers`,
            'the JSON body is missing: add it below the headers',
          ),
          lineStart,
          lineEnd,
          { missing: [key], endpointId: endpoint.id },
          [documented(shape.description), endpointFact(label)],
        ),
      );
    }
    return;
  }
  const tree = jsonBodyTree(body);
  if ('error' in tree) {
    // Where it goes wrong, as for a JSON body sent to a form endpoint.
    out.push(diag('syntax', tree.error.message, tree.error.start, tree.error.end));
    return;
  }
  walkJson({ ...check, body }, tree.root, shape, '$', undefined);
}

/** A check of a request with its JSON body. */
type JsonCheck = RequestCheck & { body: JsonBody };
/** A range of the block: a value without its quotes, a key with them (a quick fix replaces the whole key). */
type Range = { start: number; end: number };

/** Where a value's diagnostic goes; an object or array stands where its key does (its first line when it has none), as it may span many lines. */
function valueAt(body: JsonBody, node: JsonNode, key: Range | undefined): Range {
  if (node.type === 'object' || node.type === 'array')
    return key ?? { start: body.start + node.offset, end: body.start + node.offset + 1 };
  const quoted = node.type === 'string' && body.text.charCodeAt(node.offset) === 34 ? 1 : 0;
  return { start: body.start + node.offset + quoted, end: body.start + node.offset + node.length - quoted };
}

/** One value of the body against its documented shape, and what it holds. */
function walkJson(c: JsonCheck, node: JsonNode, s: JsonShape, path: string, key: Range | undefined): void {
  const { out, label } = c;
  // A `{{variable}}` stands here: what it holds is not known when checking.
  if (node.type === 'string' && String(node.value).includes(VARIABLE_MARK)) return;
  if (node.type === 'null') {
    if (!s.nullable && s.type !== 'any') {
      const at = valueAt(c.body, node, key);
      out.push(
        diag(
          'invalid-type',
          fit(`${path} must be ${article(s.type)}, not null`, `must be ${article(s.type)}, not null`),
          at.start,
          at.end,
          undefined,
          facts(s, label),
        ),
      );
    }
    return;
  }
  const actual = node.type === 'array' ? 'array' : node.type;
  const v: unknown = node.value;
  const ok =
    s.type === 'any' ||
    (s.type === 'integer' && node.type === 'number' && Number.isInteger(v)) ||
    (s.type === 'number' && node.type === 'number') ||
    s.type === node.type;
  if (!ok) {
    const at = valueAt(c.body, node, key);
    out.push(
      diag(
        'invalid-type',
        fit(
          `${path} must be ${article(s.type)}, not ${article(actual)}`,
          `must be ${article(s.type)}, not ${article(actual)}`,
        ),
        at.start,
        at.end,
        undefined,
        facts(s, label),
      ),
    );
    return;
  }
  if (s.minimum !== undefined && node.type === 'number' && (v as number) < s.minimum) {
    const at = valueAt(c.body, node, key);
    out.push(
      diag(
        'invalid-type',
        fit(
          `${path} must be at least ${s.minimum}, not ${String(v)}`,
          `must be at least ${s.minimum}, not ${String(v)}`,
        ),
        at.start,
        at.end,
        undefined,
        facts(s, label),
      ),
    );
  }
  if (node.type === 'array') walkArray(c, node, s, path, key);
  else if (node.type === 'object') walkObject(c, node, s, path);
}

/** An array: its number of elements, and each element. */
function walkArray(c: JsonCheck, node: JsonNode, s: JsonShape, path: string, key: Range | undefined): void {
  const { out, label, lineStart, lineEnd } = c;
  const items = node.children ?? [];
  const required = s.items?.type === 'object' ? (s.items.required ?? []) : [];
  if (items.length === 0 && s.minItems !== undefined && required.length > 0) {
    // The object left out (`"quiz_submissions": []`): what is missing is its required parameters (attempt).
    for (const req of required)
      out.push(
        diag(
          'missing-required',
          fit(`${path}[0].${req} is required: add it`, `${req} is required: add it`),
          lineStart,
          lineEnd,
          { missing: [req] },
          [endpointFact(label)],
        ),
      );
  } else if (s.minItems !== undefined && items.length < s.minItems) {
    const at = valueAt(c.body, node, key);
    out.push(
      diag(
        'invalid-type',
        fit(`${path} needs at least ${elements(s.minItems)}`, `needs at least ${elements(s.minItems)}`),
        at.start,
        at.end,
        undefined,
        facts(s, label),
      ),
    );
  }
  if (s.maxItems !== undefined && items.length > s.maxItems) {
    const at = valueAt(c.body, node, key);
    out.push(
      diag(
        'invalid-type',
        fit(
          `${path} takes at most ${elements(s.maxItems)}: remove the others`,
          `at most ${elements(s.maxItems)}: remove the others`,
        ),
        at.start,
        at.end,
        undefined,
        facts(s, label),
      ),
    );
  }
  if (s.items) items.forEach((item, i) => walkJson(c, item, s.items as JsonShape, `${path}[${i}]`, undefined));
}

/** An object: its required keys, and each key (documented, given once) with its value. */
function walkObject(c: JsonCheck, node: JsonNode, s: JsonShape, path: string): void {
  const { out, label, lineStart, lineEnd, body } = c;
  const keys = (node.children ?? []).flatMap((property) =>
    property.children?.[0] ? [String(property.children[0].value)] : [],
  );
  const unknownKey = (k: string) => k.includes(VARIABLE_MARK);
  // A key made of a variable may be the one required: then nothing is reported missing.
  const keyFromVariable = keys.some(unknownKey);
  for (const req of s.required ?? []) {
    if (!keys.includes(req) && !keyFromVariable)
      out.push(
        diag(
          'missing-required',
          fit(`${path}.${req} is required: add it`, `${req} is required: add it`),
          lineStart,
          lineEnd,
          { missing: [req] },
          [endpointFact(label)],
        ),
      );
  }
  const given = new Set<string>();
  for (const property of node.children ?? []) {
    const [keyNode, child] = property.children ?? [];
    if (!keyNode || !child) continue;
    const k = String(keyNode.value);
    if (unknownKey(k)) continue;
    const keyAt = { start: body.start + keyNode.offset, end: body.start + keyNode.offset + keyNode.length };
    if (given.has(k)) {
      // JSON keeps the last of a repeated key: the earlier value is lost.
      out.push(
        diag(
          'duplicate-parameter',
          fit(
            `${path}.${k} is given again, and only the last value is read: remove one`,
            `${quote(k)} is given again: remove one`,
          ),
          keyAt.start,
          keyAt.end,
          undefined,
          [endpointFact(label)],
        ),
      );
    }
    given.add(k);
    const childShape = own(s.properties, k) ?? s.additionalProperties;
    if (!childShape) {
      const near = closest(k, Object.keys(s.properties ?? {}));
      out.push(
        diag(
          'unknown-parameter',
          near
            ? fit(
                `${path}.${k} is not a documented key: did you mean ${near}?`,
                `${quote(k)} is not a documented key: did you mean ${near}?`,
              )
            : fit(`${path}.${k} is not a documented key`, `${quote(k)} is not a documented key`),
          keyAt.start,
          keyAt.end,
          near ? { replacement: `"${near}"` } : undefined,
          [endpointFact(label)],
        ),
      );
      continue;
    }
    walkJson(c, child, childShape, `${path}.${k}`, keyAt);
  }
}

/** Runs a check of a JSON body; a body nested too deeply to walk (thousands of levels) is reported, never thrown. */
export function guardDepth(block: Block, out: Diagnostic[], check: () => void): void {
  try {
    check();
  } catch (e) {
    if (!(e instanceof RangeError) || !block.jsonBody) throw e;
    out.push(diag('syntax', 'the JSON body is nested too deeply to check', block.jsonBody.start, block.jsonBody.end));
  }
}

/** What the docs say of a part of a JSON body, and the endpoint: the related lines of its diagnostics. */
function facts(s: JsonShape, label: string): (string | undefined)[] {
  return [documented(s.description), endpointFact(label)];
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function elements(n: number): string {
  return n === 1 ? '1 element' : `${n} elements`;
}
