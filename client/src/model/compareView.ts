/**
 * "Compare with Previous Response" and "Compare with Snapshot" without VS Code: which history
 * entry is a response's previous one (the newest earlier response of the same request in the
 * same environment), what a history entry or a shown response is to the typed comparison, and
 * what the response view's Compare tab shows of a comparison. The comparison itself is the
 * sender's (`compareResponses`), the one `lpreq test` uses for snapshots. Pure.
 */
import {
  differenceWords,
  type ComparedResponse,
  type HistoryEntry,
  type HistorySummary,
  type SnapshotComparison,
} from '../../../server/src/sender/index';
import type { CompareRow, CompareView } from '../../webview/model/protocol';

/** Which request a shown response answered, as the history records it. */
export interface ResponseIdentity {
  /** The request file (its path on disk, as the history keeps it). */
  file?: string;
  name?: string;
  title?: string;
  method: string;
  url: string;
  environment?: string;
  /** The history entry of this very response, when it has one: earlier ones are those after it. */
  historyId?: string;
  /** When it was shown (ISO 8601): without its entry, only entries that ended before are earlier (its own may be written later). */
  shownAt?: string;
}

/**
 * The newest entry of `list` (the history, newest first) that is an earlier response of the
 * same request in the same environment: the request is the same by its `@name`, else by its
 * `###` title, else by its method and URL, in the same file. An entry without a response, or
 * one that did not arrive whole, is passed over.
 */
export function previousEntry(list: readonly HistorySummary[], me: ResponseIdentity): HistorySummary | undefined {
  // A bare `###` is no title.
  const titleOf = (t: string | undefined) => (t?.trim() ? t.trim() : undefined);
  const title = titleOf(me.title);
  const same = (s: HistorySummary) =>
    s.status !== null &&
    s.errorKind === undefined &&
    s.file === me.file &&
    s.environment === me.environment &&
    (me.name !== undefined
      ? s.name === me.name
      : title !== undefined
        ? s.name === undefined && titleOf(s.title) === title
        : s.name === undefined && titleOf(s.title) === undefined && s.method === me.method && s.url === me.url);
  const at = me.historyId === undefined ? -1 : list.findIndex((s) => s.id === me.historyId);
  const earlier = (s: HistorySummary) => at !== -1 || me.shownAt === undefined || s.time < me.shownAt;
  for (let i = at + 1; i < list.length; i++)
    if (list[i].id !== me.historyId && earlier(list[i]) && same(list[i])) return list[i];
  return undefined;
}

/** A history entry as the comparison reads it, or why it cannot be compared. */
export function comparedOfEntry(entry: HistoryEntry): { response: ComparedResponse } | { problem: string } {
  if (entry.bodyCut || entry.bodyFile !== undefined)
    return { problem: 'its body was too large for the history to keep whole' };
  const text = entry.body ?? '';
  const type = Object.entries(entry.responseHeaders ?? {}).find(([k]) => k.toLowerCase() === 'content-type')?.[1];
  if (text !== '' && (type === undefined || /json/i.test(type))) {
    try {
      return { response: { status: entry.status, body: JSON.parse(text) as unknown, json: true } };
    } catch {
      // Not JSON after all: compared as text.
    }
  }
  return { response: { status: entry.status, body: text, json: false } };
}

/** A shown response (its scrubbed summary) as the comparison reads it. */
export function comparedOfSummary(s: {
  status: number | null;
  body: unknown;
  bodyText: string;
  bodyKind: string;
}): ComparedResponse {
  return s.bodyKind === 'json'
    ? { status: s.status, body: s.body, json: true }
    : { status: s.status, body: s.bodyText, json: false };
}

function plural(n: number, word: string): string {
  return `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`;
}

/** What the Compare tab shows of a comparison. */
export function compareView(
  comparison: SnapshotComparison,
  o: {
    against: CompareView['against'];
    /** What the response is compared with, in words: `the snapshot requests/__snapshots__/m.lpreq/list.json`. */
    title: string;
    /** The `# @snapshot` options applied, as written (`ignore $[*].items_count`). */
    options: string[];
    canUpdate: boolean;
  },
): CompareView {
  const count = comparison.differences.length + comparison.more;
  const byKind = new Map<string, number>();
  for (const d of comparison.differences) byKind.set(d.kind, (byKind.get(d.kind) ?? 0) + 1);
  const kinds = [...byKind].map(([kind, n]) => `${n} ${differenceWords(kind as never)}`).join(', ');
  const summary =
    count === 0
      ? comparison.incomplete
        ? 'Not compared to the end: the body is larger than the comparison visits.'
        : 'No difference. Timestamps, ids and URLs compare by type and presence, lists of resources by id.'
      : `${plural(count, 'difference')}${kinds !== '' ? `: ${kinds}` : ''}${comparison.more > 0 ? ` (the first ${comparison.differences.length} listed)` : ''}.`;
  const rows: CompareRow[] = comparison.differences.map((d) => ({
    kind: d.kind,
    label: differenceWords(d.kind),
    path: d.path,
    ...(d.before !== undefined ? { before: d.before } : {}),
    ...(d.after !== undefined ? { after: d.after } : {}),
    ...(d.type !== undefined ? { type: d.type } : {}),
    message: d.message,
    // Only a place the response has can be shown in its body.
    revealable: d.path.startsWith('$') && d.kind !== 'removed',
  }));
  return {
    against: o.against,
    title: o.title,
    summary,
    rows,
    more: comparison.more,
    options: o.options,
    canUpdate: o.canUpdate,
    differences: count,
  };
}

/** A comparison that could not be made: the tab says why. */
export function compareProblem(
  against: CompareView['against'],
  title: string,
  problem: string,
  canUpdate = false,
): CompareView {
  return { against, title, summary: problem, problem, rows: [], more: 0, options: [], canUpdate, differences: 0 };
}
