/**
 * Snapshot files (`__snapshots__/<file>/<request>.json` beside the request file): their names
 * and their text. Pure: the store (snapshotStore.ts) reads and writes them.
 *
 * A snapshot is the response as lpreq compares it: the status and the body (parsed JSON, or
 * the text of another body), with the request line as written and the documented type, for
 * the person reading the file or its diff in a review. It is pretty-printed with two spaces,
 * keys in the order the server sent them, so that an update changes only the lines that
 * changed; a body nested deeper than JSON.stringify goes is written by a walk of its own.
 */
import { LineIndex, type LpreqDocument, own, requestName, requestTarget } from '../core/index';
import type { ComparedResponse } from './snapshotCompare';

/** The folder of snapshots, beside the request file (as Jest's `__snapshots__` beside a test). */
export const SNAPSHOT_FOLDER = '__snapshots__';

/** What a snapshot file holds. */
export interface SnapshotRecord {
  /** The request line as written (`GET /api/v1/courses/{{course}}/modules`). */
  request: string;
  /** The documented type of the response (`Module[]`), or null. */
  resource: string | null;
  status: number | null;
  /** Parsed JSON when `json`, else the body's text. */
  body: unknown;
  json: boolean;
}

const MARK = 'snapshot';
const VERSION = 1;

/** Characters a snapshot's file name keeps; every run of others becomes one `-`. */
const UNSAFE = /[^\p{L}\p{N}_.-]+/gu;
/** Names Windows will not give a file, whatever its extension. */
const RESERVED = /^(?:con|prn|aux|nul|com\d|lpt\d)(?:\..*)?$/i;
const MAX_NAME = 80;
const MAX_INDENT = 64;

/**
 * A file name made of a request's name: letters, digits, `_`, `.` and `-` kept, every other
 * run of characters one `-`, no `.` or `-` at either end (so never `..`, never hidden), at
 * most 80 characters. Undefined when nothing is left.
 */
export function safeFileName(text: string): string | undefined {
  const trim = (s: string) => s.replace(/^[.-]+|[.-]+$/g, '');
  let name = trim(text.normalize('NFC').replace(UNSAFE, '-'));
  if ([...name].length > MAX_NAME) name = trim([...name].slice(0, MAX_NAME).join(''));
  if (name === '') return undefined;
  return RESERVED.test(name) ? `${name}_` : name;
}

/**
 * The snapshot name of each request of a document (by block index, without `.json`): its
 * `@name`, else its `###` title, else `line-N` (N its request line), made safe as a file
 * name. Names are unique within the file whatever their case (a file system may not tell
 * `Modules` from `modules`): a repeated one gets `-2`, `-3`... in file order, as Jest numbers
 * tests of the same name.
 */
export function snapshotNames(
  document: LpreqDocument,
  lines: LineIndex = new LineIndex(document.text),
): Map<number, string> {
  const out = new Map<number, string>();
  const used = new Set<string>();
  document.blocks.forEach(({ start, block }, index) => {
    if (!block.request) return;
    const line = lines.at(start + block.request.start).line;
    const base =
      safeFileName(requestName(block) ?? '') ?? safeFileName(block.title?.text.trim() ?? '') ?? `line-${line}`;
    let name = base;
    for (let n = 2; used.has(name.toLowerCase()); n++) name = `${base}-${n}`;
    used.add(name.toLowerCase());
    out.set(index, name);
  });
  return out;
}

/** The request line of a block as a snapshot records it. */
export function requestLineOf(document: LpreqDocument, blockIndex: number): string {
  const request = document.blocks[blockIndex]?.block.request;
  return request ? `${request.method.text} ${requestTarget(request)}`.trim() : '';
}

/** The text of a snapshot file: pretty-printed JSON, ending with a new line. */
export function snapshotText(record: SnapshotRecord): string {
  const head = [
    `  "lpreq": ${JSON.stringify(MARK)}`,
    `  "version": ${VERSION}`,
    `  "request": ${JSON.stringify(record.request)}`,
    `  "resource": ${JSON.stringify(record.resource)}`,
    `  "status": ${JSON.stringify(record.status)}`,
  ];
  const body = record.json
    ? `  "body": ${prettyJson(record.body, 1)}`
    : `  "text": ${JSON.stringify(record.body ?? '')}`;
  return `{\n${[...head, body].join(',\n')}\n}\n`;
}

/** A snapshot file read back, or why it cannot be one. */
export function parseSnapshot(text: string): { record: SnapshotRecord } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    return { problem: `it is not JSON (${(e as Error).message})` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { problem: 'it is not a snapshot of lpreq' };
  const v = value as Record<string, unknown>;
  if (!Object.hasOwn(v, 'lpreq') || v.lpreq !== MARK) return { problem: 'it is not a snapshot of lpreq' };
  if (v.version !== VERSION) return { problem: `it is a snapshot of version ${String(v.version)}, not ${VERSION}` };
  const status = v.status;
  if (status !== null && (typeof status !== 'number' || !Number.isInteger(status)))
    return { problem: 'its status is not a number' };
  const hasBody = Object.hasOwn(v, 'body');
  const hasText = Object.hasOwn(v, 'text');
  if (hasBody === hasText) return { problem: 'it holds neither a body nor a text, or both' };
  if (hasText && typeof v.text !== 'string') return { problem: 'its text is not a string' };
  return {
    record: {
      request: typeof v.request === 'string' ? v.request : '',
      resource: typeof v.resource === 'string' ? v.resource : null,
      status: status as number | null,
      body: hasBody ? v.body : v.text,
      json: hasBody,
    },
  };
}

/** A record as the comparison reads it. */
export function comparedOf(record: SnapshotRecord): ComparedResponse {
  return { status: record.status, body: record.body, json: record.json };
}

/**
 * JSON text of a parsed value, two spaces an indentation level (`depth` levels in already), as
 * JSON.stringify writes it; a body nested deeper than JSON.stringify's recursion goes is written
 * by a walk of its own.
 */
export function prettyJson(value: unknown, depth = 0): string {
  let text: string;
  try {
    text = JSON.stringify(value, null, 2) ?? 'null';
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return deepJson(value, depth);
  }
  return depth > 0 ? text.replaceAll('\n', `\n${'  '.repeat(depth)}`) : text;
}

/** prettyJson's walk with a stack of its own, for a value nested too deep to recurse into. */
function deepJson(value: unknown, depth: number): string {
  const out: string[] = [];
  // Each item is a text to write or a value to write at a depth.
  const stack: (string | { v: unknown; depth: number })[] = [{ v: value, depth }];
  // Indented up to 64 levels: deeper, a line starts where its parent's does (still JSON), or a
  // body nested thousands deep would be written in a size that grows as the square of its depth.
  const pad = (n: number) => '\n' + '  '.repeat(Math.min(n, MAX_INDENT));
  while (stack.length > 0) {
    const item = stack.pop() as string | { v: unknown; depth: number };
    if (typeof item === 'string') {
      out.push(item);
      continue;
    }
    const { v, depth: d } = item;
    if (Array.isArray(v)) {
      if (v.length === 0) {
        out.push('[]');
        continue;
      }
      out.push('[');
      stack.push(`${pad(d)}]`);
      for (let i = v.length - 1; i >= 0; i--) {
        stack.push({ v: v[i] as unknown, depth: d + 1 });
        stack.push(i === 0 ? pad(d + 1) : `,${pad(d + 1)}`);
      }
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      if (keys.length === 0) {
        out.push('{}');
        continue;
      }
      out.push('{');
      stack.push(`${pad(d)}}`);
      for (let i = keys.length - 1; i >= 0; i--) {
        stack.push({ v: own(v as Record<string, unknown>, keys[i]), depth: d + 1 });
        stack.push(`${i === 0 ? '' : ','}${pad(d + 1)}${JSON.stringify(keys[i])}: `);
      }
    } else {
      out.push(JSON.stringify(v) ?? 'null');
    }
  }
  return out.join('');
}
