/**
 * The `# @snapshot` metadata line: the request's response is kept as a snapshot and compared
 * with it on later runs (docs/testing.md). Its value is a list of options separated by blanks:
 *
 *   # @snapshot
 *   # @snapshot ignore=$.updated_at exact=$.id
 *   # @snapshot ignore=$[*].html_url,$[*].items_url
 *
 * `ignore=PATHS` leaves those places out of the comparison (their presence too); `exact=PATHS`
 * compares them by value although the docs type them as a timestamp, an id or a URL (which are
 * otherwise compared by type and presence; `exact=$` compares the whole body so). PATHS is one JSONPath of section 6 or several
 * separated by commas, and an option may be written more than once. Pure: read here, checked
 * by the checker (`checker/snapshot.ts`), applied by the sender.
 */
import { parseJsonPath, type JsonPath } from './assertion';

export const SNAPSHOT_KEY = 'snapshot';

const SNAPSHOT_OPTIONS = ['ignore', 'exact'] as const;
export type SnapshotOptionName = (typeof SNAPSHOT_OPTIONS)[number];

/** One path of an option, with its offsets in the value the line was read from. */
export interface SnapshotPath {
  option: SnapshotOptionName;
  path: JsonPath;
}

export interface SnapshotProblem {
  message: string;
  start: number;
  end: number;
}

export interface SnapshotOptions {
  paths: SnapshotPath[];
  problems: SnapshotProblem[];
}

const isBlank = (c: number) => c === 32 || c === 9;

/**
 * Reads the value of a `# @snapshot` line. Offsets in paths and problems are from the start of
 * `value`, moved by `base`. Never throws; what it cannot read is a problem.
 */
export function parseSnapshotOptions(value: string, base = 0): SnapshotOptions {
  const out: SnapshotOptions = { paths: [], problems: [] };
  let i = 0;
  while (i < value.length) {
    while (i < value.length && isBlank(value.charCodeAt(i))) i++;
    if (i >= value.length) break;
    const end = wordEnd(value, i);
    const word = value.slice(i, end);
    const eq = word.indexOf('=');
    const name = eq === -1 ? word : word.slice(0, eq);
    if (eq === -1 || !(SNAPSHOT_OPTIONS as readonly string[]).includes(name)) {
      out.problems.push({
        message: `'${cut(word)}' is not an option of @snapshot: write ignore=$.path or exact=$.path`,
        start: base + i,
        end: base + end,
      });
    } else if (eq === word.length - 1) {
      out.problems.push({
        message: `${name}= takes one JSONPath or several separated by commas, such as ${name}=$.updated_at`,
        start: base + i,
        end: base + end,
      });
    } else {
      readPaths(value, i + eq + 1, end, name as SnapshotOptionName, base, out);
    }
    i = end;
  }
  return out;
}

/** The end of a word: the next blank outside brackets (a bracketed name may hold blanks). */
function wordEnd(text: string, from: number): number {
  let depth = 0;
  let quote = 0;
  for (let i = from; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === 92) i++;
      else if (c === quote) quote = 0;
    } else if (depth > 0 && (c === 39 || c === 34)) quote = c;
    else if (c === 91) depth++;
    else if (c === 93 && depth > 0) depth--;
    else if (depth === 0 && isBlank(c)) return i;
  }
  return text.length;
}

/** The paths of one option, `[from, to)` of `text`: split at commas outside brackets. */
function readPaths(
  text: string,
  from: number,
  to: number,
  option: SnapshotOptionName,
  base: number,
  out: SnapshotOptions,
): void {
  let start = from;
  let depth = 0;
  let quote = 0;
  for (let i = from; i <= to; i++) {
    const c = i < to ? text.charCodeAt(i) : 44;
    if (quote !== 0) {
      if (c === 92) i++;
      else if (c === quote) quote = 0;
      continue;
    }
    if (depth > 0 && (c === 39 || c === 34)) quote = c;
    else if (c === 91) depth++;
    else if (c === 93 && depth > 0) depth--;
    else if (c === 44 && depth === 0) {
      if (i === start) {
        out.problems.push({
          message: `an empty path in ${option}=: separate paths with one comma`,
          start: base + Math.max(from, i - 1),
          end: base + i + 1,
        });
      } else if (text.charCodeAt(start) !== 36) {
        out.problems.push({
          message: `a path starts with $ (as in ${option}=$.${cut(text.slice(start, i)).replace(/^[.[]*/, '')})`,
          start: base + start,
          end: base + i,
        });
      } else {
        const read = parseJsonPath(text, start, i, base);
        if ('problem' in read) out.problems.push(read.problem);
        else if (read.path.segments.length === 0 && option === 'ignore')
          out.problems.push({
            message: 'ignore=$ would leave the whole body out: a snapshot that ignores it compares nothing',
            start: base + start,
            end: base + i,
          });
        else out.paths.push({ option, path: read.path });
      }
      start = i + 1;
    }
  }
}

function cut(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
