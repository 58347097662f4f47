/**
 * Completion on a `# @snapshot` line: its options (`ignore=$`, `exact=$`) where a word begins,
 * and after `ignore=` or `exact=` (or a comma between paths) the segments of a JSONPath into
 * the documented resource the endpoint returns, as an assertion's `?? body $.` completes them.
 */
import type { ServiceContext } from '../documentIndex';
import type { Block } from '../parser';
import { completePath } from './assertions';
import { matchedEndpoint, rank, type CompletionEntry } from './items';

const OPTIONS = [
  {
    name: 'ignore',
    doc: 'Leaves these places out of the comparison, their presence included: `ignore=$.updated_at,$[*].html_url`.',
  },
  {
    name: 'exact',
    doc: 'Compares these places by value, though the docs type them as a timestamp, an id or a URL (compared by type and presence otherwise): `exact=$.id`.',
  },
];

/** Completes on the `# @snapshot` line `text` (the cursor at column `col`); false when the line is not one. */
export function completeSnapshotLine(
  ctx: ServiceContext,
  block: Block,
  text: string,
  col: number,
  abs: (n: number) => number,
  out: CompletionEntry[],
): boolean {
  const line = /^(\s*(?:#|\/\/)\s*@snapshot)(?=\s|$)/.exec(text);
  // On the key itself: the metadata keys are completed there.
  if (!line || col <= line[1].length) return false;
  const before = text.slice(line[1].length, col);
  if (!/^\s/.test(before)) return true;
  const word = /(\S*)$/.exec(before)![1];
  const end = (from: number) => {
    let e = from;
    while (e < text.length && !/[\s,]/.test(text[e])) e++;
    return e;
  };
  const eq = word.indexOf('=');
  if (eq === -1) {
    OPTIONS.forEach((o, i) =>
      out.push({
        label: `${o.name}=`,
        filterText: o.name,
        kind: 'metadata',
        detail: '@snapshot option',
        documentation: o.doc,
        insertText: `${o.name}=$`,
        snippet: false,
        start: abs(col - word.length),
        end: abs(end(col)),
        sortText: rank(0, i),
        retrigger: true,
      }),
    );
    return true;
  }
  if (!OPTIONS.some((o) => o.name === word.slice(0, eq))) return true;
  const path = word.slice(word.lastIndexOf(',') + 1 > eq ? word.lastIndexOf(',') + 1 : eq + 1);
  const endpoint = matchedEndpoint(ctx, block);
  if (!endpoint || (path !== '' && !'$.['.includes(path[0]))) return true;
  completePath(ctx, endpoint, path === '' ? '$' : path, col - path.length, col, end(col), abs, out, path === '');
  return true;
}
