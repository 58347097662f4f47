/**
 * The typed issues of a response by JSON path, for marking rows: the issues at a path, how
 * many lie at or below it (a collapsed container says so), and how many fall in a range of
 * an array's elements (a collapsed range says so). Pure.
 */
import { appendSegment, parsePath } from './jsonPath';

export interface ViewIssue {
  path: string;
  code: string;
  message: string;
}

export class IssueIndex {
  private readonly at = new Map<string, ViewIssue[]>();
  private readonly below = new Map<string, number>();
  /** Indices of elements with issues, by the path of their array, sorted. */
  private readonly elements = new Map<string, number[]>();

  constructor(readonly issues: readonly ViewIssue[]) {
    for (const issue of issues) {
      const list = this.at.get(issue.path);
      if (list) list.push(issue);
      else this.at.set(issue.path, [issue]);
      const segments = parsePath(issue.path);
      if (!segments) continue;
      let path = '$';
      for (let k = 0; k <= segments.length; k++) {
        this.below.set(path, (this.below.get(path) ?? 0) + 1);
        if (k === segments.length) break;
        const seg = segments[k];
        if (typeof seg === 'number') {
          const indices = this.elements.get(path);
          if (indices) indices.push(seg);
          else this.elements.set(path, [seg]);
        }
        path = appendSegment(path, seg);
      }
    }
    for (const list of this.elements.values()) list.sort((a, b) => a - b);
  }

  issuesAt(path: string): readonly ViewIssue[] {
    return this.at.get(path) ?? [];
  }

  /** Issues at the path or below it. */
  countBelow(path: string): number {
    return this.below.get(path) ?? 0;
  }

  /** Issues at or below elements `start` to `end - 1` of the array at `arrayPath`. */
  countInRange(arrayPath: string, start: number, end: number): number {
    const list = this.elements.get(arrayPath);
    if (!list) return 0;
    return lowerBound(list, end) - lowerBound(list, start);
  }
}

function lowerBound(list: readonly number[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
