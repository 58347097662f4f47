/**
 * The typed issues of a response grouped by where and what: a list of 2,500 modules with an
 * undocumented field is one line (`$[*].x_internal_rank · undocumented × 2,500`), not 2,500.
 * Pure.
 */
import type { IssueGroupView, ViewIssue } from '../../webview/model/protocol';
import { pathPattern } from '../../webview/model/jsonPath';

/** Paths kept per group, for the view to reveal and list. */
const PATHS_PER_GROUP = 50;

const KINDS = new Map([
  ['undocumented-field', 'undocumented'],
  ['type-mismatch', 'type mismatch'],
  ['unknown-enum-value', 'unknown enum value'],
]);

function issueKind(code: string): string {
  return KINDS.get(code) ?? code;
}

/** Groups by path pattern and code, the largest first, then by pattern. */
export function groupIssues(issues: readonly ViewIssue[]): IssueGroupView[] {
  const groups = new Map<string, IssueGroupView>();
  for (const issue of issues) {
    const pattern = pathPattern(issue.path);
    const key = `${issue.code}\u0000${pattern}`;
    let group = groups.get(key);
    if (!group) {
      group = { pattern, code: issue.code, kind: issueKind(issue.code), count: 0, message: issue.message, paths: [] };
      groups.set(key, group);
    }
    group.count++;
    if (group.paths.length < PATHS_PER_GROUP) group.paths.push(issue.path);
  }
  return [...groups.values()].sort(
    (a, b) => b.count - a.count || (a.pattern < b.pattern ? -1 : a.pattern > b.pattern ? 1 : 0),
  );
}
