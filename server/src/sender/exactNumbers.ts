/**
 * Integers beyond 2^53 in a JSON body: JSON.parse turns 9007199254740993 into ...992, and an id
 * chained into the next request, or printed, would silently name another object. The body is
 * still parsed as usual (the typed check sees numbers); the source text of each such integer is
 * kept by JSON path (jsonc-parser gives the offsets), and used where lpreq prints a value or
 * puts it into a request. Pure functions.
 */
import { getNodePath, parseTree, type Node } from 'jsonc-parser';
import { formatJsonPath, parseJsonPath } from './typed';
import { own, setOwn } from '../core/index';

/** The source text of the integers JSON.parse cannot keep, by JSON path (`$[0].id`). */
export type ExactNumbers = Record<string, string>;

/** The integers of a JSON text that a JavaScript number changes, by path; undefined when there are none (the usual case, found without parsing twice). */
export function exactIntegers(text: string): ExactNumbers | undefined {
  // 2^53 has 16 digits: shorter runs of digits are exact.
  if (!/\d{16}/.test(text)) return undefined;
  let root: Node | undefined;
  try {
    // jsonc-parser builds its tree recursively: a body nested thousands deep overflows the stack.
    root = parseTree(text);
  } catch {
    return undefined;
  }
  if (!root) return undefined;
  const out: ExactNumbers = {};
  // Walked with a stack of its own, for the same reason.
  const pending: Node[] = [root];
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    if (node.type === 'number') {
      const source = text.slice(node.offset, node.offset + node.length);
      if (/^-?\d+$/.test(source) && !Number.isSafeInteger(node.value))
        setOwn(out, formatJsonPath(getNodePath(node)), source);
      continue;
    }
    for (const child of node.children ?? []) pending.push(child);
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/**
 * JSON text of `value` (as JSON.stringify, `indent` spaces), with the integers of `exact` as
 * they were written; `at` is the path of `value` in the body `exact` describes.
 */
export function stringifyExact(
  value: unknown,
  exact: ExactNumbers | undefined,
  indent = 0,
  at: readonly (string | number)[] = [],
): string {
  if (!exact) return JSON.stringify(value, null, indent) ?? '';
  const pad = (depth: number) => (indent > 0 ? `\n${' '.repeat(indent * depth)}` : '');
  const write = (v: unknown, path: (string | number)[], depth: number): string | undefined => {
    if (typeof v === 'number') return own(exact, formatJsonPath(path)) ?? JSON.stringify(v);
    if (Array.isArray(v)) {
      if (v.length === 0) return '[]';
      const items = v.map((item, i) => `${pad(depth + 1)}${write(item, [...path, i], depth + 1) ?? 'null'}`);
      return `[${items.join(',')}${pad(depth)}]`;
    }
    if (v && typeof v === 'object' && typeof (v as { toJSON?: unknown }).toJSON !== 'function') {
      const members = Object.entries(v as Record<string, unknown>).flatMap(([k, item]) => {
        const text = write(item, [...path, k], depth + 1);
        return text === undefined ? [] : [`${pad(depth + 1)}${JSON.stringify(k)}:${indent > 0 ? ' ' : ''}${text}`];
      });
      return members.length === 0 ? '{}' : `{${members.join(',')}${pad(depth)}}`;
    }
    return JSON.stringify(v);
  };
  try {
    return write(value, [...at], 0) ?? '';
  } catch (e) {
    // A value nested thousands deep overflows the stack here: shown as JSON.stringify shows it.
    if (!(e instanceof RangeError)) throw e;
    return JSON.stringify(value, null, indent) ?? '';
  }
}

/**
 * The exact integers of a page merged into earlier pages (paging.ts): an array's items move
 * by the items before them (`lengths`: the length of each merged array, by path, before this
 * page), and members that only page 1 gives keep page 1's.
 */
export function shiftExact(page: ExactNumbers | undefined, lengths: Map<string, number>): ExactNumbers {
  const out: ExactNumbers = {};
  for (const [path, text] of Object.entries(page ?? {})) {
    const segments = parseJsonPath(path);
    if (!segments) continue;
    // `$[i]...` (an array of pages) or `$.key[i]...` (a wrapper's array).
    const cut = typeof segments[0] === 'number' ? 0 : typeof segments[1] === 'number' ? 1 : -1;
    if (cut === -1) continue;
    // An array the pages before did not have starts here: its items keep their indexes.
    const offset = lengths.get(formatJsonPath(segments.slice(0, cut))) ?? 0;
    const moved = [...segments];
    moved[cut] = (segments[cut] as number) + offset;
    setOwn(out, formatJsonPath(moved), text);
  }
  return out;
}
