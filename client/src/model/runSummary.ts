/**
 * The end of "Send All Requests in File": what was sent, what passed (a 2xx answer and, as
 * `lpreq test` counts, every `??` assertion held) and what failed, as a view of its own in the response view. Pure, and built only from what the
 * response views show already (scrubbed labels, statuses, error kinds and messages).
 */
import type { Banner, ViewData } from '../../webview/model/protocol';
import { formatDuration } from '../../webview/model/format';

export interface RunOutcome {
  /** The request as the file names it: its title or `@name`, else METHOD target. */
  label: string;
  method: string;
  target: string;
  status: number | null;
  /** Why no (2xx) answer came; `cancelled` is not a failure of the request. */
  errorKind?: string;
  message?: string;
  /** Whether the request left lpreq (an answer came, or the connection failed). */
  sent: boolean;
  /** A 2xx answer, and every assertion of the request held. */
  ok: boolean;
  durationMs: number;
}

export interface RunCounts {
  total: number;
  sent: number;
  passed: number;
  failed: number;
  /** Not reached: the run was cancelled before them, or they were cancelled in flight. */
  cancelled: number;
}

export function runCounts(outcomes: readonly RunOutcome[], total: number): RunCounts {
  const cancelled = outcomes.filter((o) => o.errorKind === 'cancelled').length + Math.max(0, total - outcomes.length);
  const passed = outcomes.filter((o) => o.ok).length;
  return {
    total,
    sent: outcomes.filter((o) => o.sent).length,
    passed,
    failed: outcomes.filter((o) => !o.ok && o.errorKind !== 'cancelled').length,
    cancelled,
  };
}

/** One line of the run's list: `✓ 200  List modules  (GET /api/v1/...)  120 ms`. */
function line(o: RunOutcome): string {
  const mark = o.ok ? '✓' : o.errorKind === 'cancelled' ? '–' : '✗';
  const status =
    o.status !== null ? String(o.status) : o.errorKind === 'cancelled' ? 'cancelled' : o.sent ? 'failed' : 'not sent';
  const request = `${o.method} ${o.target}`;
  const what = o.label === request ? request : `${o.label}  (${request})`;
  const why = !o.ok && o.message ? `\n      ${o.message}` : '';
  return `${mark} ${status.padEnd(9)} ${what}  ${formatDuration(o.durationMs)}${why}`;
}

/** The run's view: the counts in the header line, each failure as a banner, every request as a line of the body. */
export function runSummaryView(
  file: string,
  outcomes: readonly RunOutcome[],
  total: number,
  id: number,
  totalMs: number,
): { view: ViewData; text: string } {
  const c = runCounts(outcomes, total);
  const facts = [`${c.sent} sent`, `${c.passed} passed`, `${c.failed} failed`];
  if (c.cancelled > 0) facts.push(`${c.cancelled} cancelled`);
  facts.push(formatDuration(totalMs));
  const failures = outcomes.filter((o) => !o.ok && o.errorKind !== 'cancelled');
  const banners: Banner[] = failures.slice(0, 10).map((o) => ({
    kind: 'error',
    text: `${o.label}: ${o.status !== null ? `answered ${o.status}${o.message !== undefined ? `; ${o.message}` : ''}` : (o.message ?? 'no answer')}`,
  }));
  if (failures.length > 10)
    banners.push({ kind: 'error', text: `and ${failures.length - 10} more failed (listed below)` });
  if (c.cancelled > 0)
    banners.push({ kind: 'cancelled', text: `Cancelled: ${c.cancelled} of ${total} requests did not run to the end.` });
  const text =
    [`Send All Requests in ${file}: ${total} requests, ${facts.join(', ')}`, '', ...outcomes.map(line)].join('\n') +
    '\n';
  const tone: ViewData['status']['tone'] = c.failed > 0 ? 'failed' : c.cancelled > 0 ? 'cancelled' : 'ok';
  return {
    view: {
      id,
      title: `Run ${file} · ${c.passed}/${total}`,
      status: { text: `${c.passed} of ${total} passed`, tone },
      facts,
      bodyLabel: 'Run summary',
      bodyKind: 'text',
      typed: false,
      apiErrors: [],
      assertions: [],
      banners,
      headers: [],
      timing: [],
      issues: [],
      issueGroups: [],
      actions: [],
    },
    text,
  };
}
