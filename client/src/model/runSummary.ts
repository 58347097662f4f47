/**
 * The end of "Send All Requests in File": what was sent, what passed (a 2xx answer and, as
 * `lpreq test` counts, every `??` assertion held) and what failed, as a view of its own in the response view. Pure, and built only from what the
 * response views show already (scrubbed labels, statuses, error kinds and messages).
 */
import type { SendResult } from '../../../server/src/sender/index';
import type { Banner, RunEntryView, RunView, ViewData } from '../../webview/model/protocol';
import type { RequestInfo } from './requestInfo';
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

/**
 * A request's outcome in a run: it passes as a test of `lpreq test` passes (a 2xx answer and
 * every `??` assertion held). Its message is shown, so it goes through `scrub` as every text of a response does.
 */
export function runOutcome(
  r: RequestInfo,
  result: Pick<SendResult, 'ok' | 'error' | 'response'> & { sent: boolean },
  failedAssertions: number,
  scrub: (text: string) => string,
): RunOutcome {
  const message =
    result.error?.message ??
    (failedAssertions > 0 ? `${failedAssertions} assertion${failedAssertions === 1 ? '' : 's'} failed` : undefined);
  return {
    // Named as the history and the response view name it: the title, else the name.
    label: r.title ?? r.name ?? `${r.method} ${r.target}`,
    method: r.method,
    target: r.target,
    status: result.response?.status ?? null,
    errorKind: result.error?.kind,
    message: message === undefined ? undefined : scrub(message),
    sent: result.sent,
    ok: result.ok && failedAssertions === 0,
    durationMs: result.response?.durationMs ?? 0,
  };
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

const markOf = (o: RunOutcome) => (o.ok ? '✓' : o.errorKind === 'cancelled' ? '–' : '✗');
const statusOf = (o: RunOutcome) =>
  o.status !== null ? String(o.status) : o.errorKind === 'cancelled' ? 'cancelled' : o.sent ? 'failed' : 'not sent';

function toneOf(o: RunOutcome): ViewData['status']['tone'] {
  if (o.errorKind === 'cancelled') return 'cancelled';
  if (o.status === null) return 'failed';
  if (o.status >= 500) return 'server-error';
  if (o.status >= 400) return 'client-error';
  if (o.status >= 300) return 'redirect';
  return o.ok ? 'ok' : 'failed';
}

/** One line of the run's list: `✓ 200  List modules  (GET /api/v1/...)  120 ms`. */
function line(o: RunOutcome): string {
  const mark = markOf(o);
  const status = statusOf(o);
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
  running = false,
): { view: ViewData; text: string } {
  const c = runCounts(outcomes, running ? outcomes.length : total);
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
  if (c.cancelled > 0 && !running)
    banners.push({ kind: 'cancelled', text: `Cancelled: ${c.cancelled} of ${total} requests did not run to the end.` });
  const text =
    [`Send All Requests in ${file}: ${total} requests, ${facts.join(', ')}`, '', ...outcomes.map(line)].join('\n') +
    '\n';
  const tone: ViewData['status']['tone'] = c.failed > 0 ? 'failed' : c.cancelled > 0 ? 'cancelled' : 'ok';
  return {
    view: {
      id,
      title: running ? `Run ${file} · ${outcomes.length}/${total} sent` : `Run ${file} · ${c.passed}/${total}`,
      status: { text: running ? `${outcomes.length} of ${total} sent…` : `${c.passed} of ${total} passed`, tone },
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

/**
 * The run's list as the run view shows it beside the exchange chosen (`selected`, or the
 * summary: null); `running` while requests are still to come.
 */
export function runView(
  file: string,
  outcomes: readonly RunOutcome[],
  total: number,
  selected: number | null,
  running: boolean,
): RunView {
  const c = runCounts(outcomes, running ? outcomes.length : total);
  const entries: RunEntryView[] = outcomes.map((o) => ({
    label: o.label,
    request: `${o.method} ${o.target}`,
    status: statusOf(o),
    tone: toneOf(o),
    mark: markOf(o),
    duration: formatDuration(o.durationMs),
    message: o.ok ? undefined : o.message,
  }));
  return {
    title: `Send All: ${file}`,
    summary: running ? `${outcomes.length} of ${total} sent…` : `${c.passed} of ${total} passed`,
    tone: running ? 'redirect' : c.failed > 0 ? 'failed' : c.cancelled > 0 ? 'cancelled' : 'ok',
    entries,
    selected: selected !== null && selected < entries.length ? selected : null,
    running,
  };
}
