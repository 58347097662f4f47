/**
 * What the response view shows of one exchange, as plain data for the webview: the header
 * line, the banners that say what happened (failed, cancelled, sent without a token, a 401,
 * a cut body), the request as sent, the timing and the issues grouped. Pure: built from the
 * scrubbed summary (sendResult.ts), so nothing here can carry the token.
 *
 * Honest answers: a 4xx or 5xx body is an error body, never labelled with the success
 * resource, its API messages first; an HTML page is a page (its title and text, the markup
 * a click away); a cancelled request is cancelled, not failed.
 */
import type { Banner, BodyKind, SentRequestView, TimingRow, ViewAction, ViewData } from '../../webview/model/protocol';
import { formatBytes, formatCount, formatDuration } from '../../webview/model/format';
import { looksLikeHtml } from '../../webview/model/html';
import { groupIssues } from './issueGroups';
import { failureLine, labelOfFailure, type ResponseSummary } from './responseTree';

export interface ViewContext {
  /** The response's number in its view. */
  id: number;
  /** The environment the request was sent in. */
  environment?: string;
  /** Whether an access token was set for that environment when it was sent. */
  tokenSet: boolean;
  /** Whether the request can be sent again and copied as cURL (a request of an open file, not only a history entry). */
  fromRequest: boolean;
  /** Shown from the history, not sent now: when it was received, in local time. */
  fromHistory?: string;
  /** A history entry is behind it, which Send Again sends again (to the URL it went to). */
  fromHistoryEntry?: boolean;
  /** A token was set from this view after the answer came (Set Access Token on a 401): it offers to send again. */
  tokenJustSet?: boolean;
  /** The request's title and name, which name the view. */
  names?: RequestNames;
  /** Shown as soon as it was read: the body is still being checked against the documentation. */
  checking?: boolean;
}

/** A short name of a URL for titles: its last path segment that is not an id (`modules`, `modules 7`). */
export function shortName(url: string): string {
  let path: string;
  try {
    path = new URL(url).pathname;
  } catch {
    path = url.split('?')[0];
  }
  const segments = path.split('/').filter((s) => s.length > 0);
  const last = segments.at(-1);
  if (last === undefined) return '/';
  const isId = (s: string) => /^\d+$/.test(s) || /^[\w-]+:/.test(s) || s.startsWith('{{');
  if (!isId(last)) return decodeSegment(last);
  const before = segments.at(-2);
  return before && !isId(before) ? `${decodeSegment(before)} ${decodeSegment(last)}` : decodeSegment(last);
}

function decodeSegment(s: string): string {
  try {
    return decodeURIComponent(s).replace(/[/\\]/g, '∕');
  } catch {
    return s;
  }
}

/** What a request is called where it is shown: its `###` title, else its `@name`, else METHOD and a short path (`GET modules`). */
function requestLabel(method: string, url: string, names?: RequestNames): string {
  // A title names a tab and a document: no slash may make it a path.
  const title = names?.title?.trim().replace(/[/\\]/g, '∕');
  if (title) return title;
  const name = names?.name?.trim().replace(/[/\\]/g, '∕');
  return name ? name : `${method} ${shortName(url)}`;
}

/** A request's title (`### Create a module`) and name (`# @name createModule`), as its file gives them. */
export interface RequestNames {
  title?: string;
  name?: string;
}

/** The editor tab's title: `Create a module · 200`, `GET modules · 200`, `GET modules · failed`. */
export function viewTitle(
  method: string,
  url: string,
  status: number | null,
  errorKind?: string,
  names?: RequestNames,
): string {
  const what =
    status !== null
      ? String(status)
      : errorKind === 'cancelled'
        ? 'cancelled'
        : errorKind !== undefined && labelOfFailure(errorKind) === 'Not sent'
          ? 'not sent'
          : errorKind
            ? 'failed'
            : '…';
  return `${requestLabel(method, url, names)} · ${what}`;
}

function tone(s: ResponseSummary): ViewData['status']['tone'] {
  if (s.status === null) return s.error?.kind === 'cancelled' ? 'cancelled' : 'failed';
  if (s.status >= 500) return 'server-error';
  if (s.status >= 400) return 'client-error';
  if (s.status >= 300) return 'redirect';
  return s.error && s.error.kind !== 'http' ? 'failed' : 'ok';
}

function bodyKind(s: ResponseSummary): BodyKind {
  if (s.status === null) return s.bodyText.length > 0 ? 'text' : 'none';
  switch (s.bodyKind) {
    case 'json':
      return 'json';
    case 'text':
      return looksLikeHtml(s.contentType, s.bodyText) ? 'html' : 'text';
    case 'binary':
      return 'binary';
    default:
      return 'empty';
  }
}

/** Items of a merged list: the array itself, or the arrays of a wrapper object. */
function itemCount(body: unknown): number | undefined {
  if (Array.isArray(body)) return body.length;
  if (body && typeof body === 'object') {
    const arrays = Object.values(body as Record<string, unknown>).filter(Array.isArray);
    if (arrays.length > 0) return arrays.reduce<number>((n, a) => n + (a as unknown[]).length, 0);
  }
  return undefined;
}

function timingRows(s: ResponseSummary): TimingRow[] {
  const t = s.timing;
  if (!t) return [];
  const rows: TimingRow[] = [];
  const dns = t.dnsMs ?? 0;
  if (t.dnsMs !== undefined) rows.push({ label: 'DNS lookup', startMs: 0, ms: t.dnsMs });
  if (t.connectMs !== undefined)
    rows.push({ label: 'TCP connection', startMs: dns, ms: Math.max(0, t.connectMs - dns) });
  const connected = (t.connectMs ?? 0) + (t.tlsMs ?? 0);
  if (t.tlsMs !== undefined) rows.push({ label: 'TLS handshake', startMs: t.connectMs ?? 0, ms: t.tlsMs });
  if (t.firstByteMs !== undefined)
    rows.push({ label: 'Waiting for the first byte', startMs: connected, ms: Math.max(0, t.firstByteMs - connected) });
  if (t.firstByteMs !== undefined && t.downloadMs !== undefined)
    rows.push({ label: 'Download', startMs: t.firstByteMs, ms: t.downloadMs });
  return rows;
}

function sentRequest(s: ResponseSummary, ctx: ViewContext): SentRequestView | undefined {
  if (!s.sent) return undefined;
  const headers: [string, string][] = s.sent.headers.map(([n, v]) => [n, v]);
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  if (s.sent.body !== undefined && s.sent.contentType && !has('content-type'))
    headers.push(['Content-Type', s.sent.contentType]);
  // The token was added by the exchange, so it is not among the headers written: shown masked.
  if (s.tokenSent && !has('authorization')) headers.push(['Authorization', 'Bearer ***']);
  const tokenNote =
    s.tokenSent === undefined
      ? undefined
      : s.tokenSent
        ? `The access token${ctx.environment ? ` of '${ctx.environment}'` : ''} went with it (shown ***).`
        : s.authorizationWritten
          ? "The request's own Authorization header went with it; the token was not added."
          : 'No access token went with it.';
  return { method: s.method, url: s.url, headers, body: s.sent.body, tokenNote, redirects: s.redirects ?? [] };
}

function setTokenAction(environment: string | undefined): ViewAction {
  return {
    id: 'setToken',
    label: environment ? `Set Access Token for '${environment}'` : 'Set Access Token',
    title: "Keep a token in the editor's secret storage for this environment",
  };
}

function banners(s: ResponseSummary, ctx: ViewContext, kind: BodyKind): Banner[] {
  const out: Banner[] = [];
  const env = ctx.environment;
  if (ctx.fromHistory !== undefined) {
    out.push({
      kind: 'info',
      text: `From the history: this answer was received at ${ctx.fromHistory}${env ? ` in '${env}'` : ''}; nothing was sent now.`,
    });
  }
  if (s.status === null) {
    if (s.error?.kind === 'cancelled')
      out.push({ kind: 'cancelled', text: 'Cancelled: the request was stopped before its answer was complete.' });
    else
      out.push({
        kind: 'error',
        text: s.error ? failureLine(s.error.kind, s.error.message) : 'No response: nothing was sent',
        actions: canSendAgain(ctx) ? [{ id: 'sendAgain', label: 'Send Again' }] : undefined,
      });
  } else if (s.error && s.error.kind !== 'http') {
    out.push({
      kind: s.error.kind === 'cancelled' ? 'cancelled' : 'error',
      text: failureLine(s.error.kind, s.error.message),
    });
  }
  const withoutToken = s.status !== null && s.tokenSent === false && !s.authorizationWritten;
  if (ctx.tokenJustSet) {
    out.push({
      kind: 'info',
      text: `An access token is set${env ? ` for '${env}'` : ''} now; this answer came ${s.tokenSent ? 'with the one before' : 'without it'}.`,
      actions: canSendAgain(ctx)
        ? [{ id: 'sendAgain', label: 'Send Again', title: 'Send the request with the token' }]
        : undefined,
    });
  } else if (withoutToken) {
    out.push({
      kind: 'warning',
      text: ctx.tokenSet
        ? `Sent without the access token${env ? ` of '${env}'` : ''}: it goes only to the origin of the environment's base_url.`
        : `Sent without an access token: none is set${env ? ` for '${env}'` : ' (no environment is chosen)'}.`,
      actions: ctx.tokenSet ? undefined : [setTokenAction(env)],
    });
  }
  if (s.status === 401) {
    out.push({
      kind: 'error',
      text: `401 Unauthorized: the API did not accept ${s.tokenSent ? 'the access token' : 'the request without a token'}.`,
      actions: ctx.tokenJustSet || (withoutToken && !ctx.tokenSet) ? undefined : [setTokenAction(env)],
    });
  }
  if (kind === 'html' && s.status !== null && s.status >= 200 && s.status < 300 && s.resource) {
    out.push({
      kind: 'warning',
      text: `An HTML page came back where the docs say ${s.resource}: a login page or a proxy's page, not the API's answer.`,
    });
  }
  if (s.truncated) {
    out.push({
      kind: 'warning',
      text: `The body is cut: ${formatBytes(s.truncated.bytes)} is over the limit of ${formatBytes(s.truncated.limit)} (lpreq.maxBodySize); all of it is in ${s.truncated.file}.`,
    });
  }
  for (const w of s.warnings ?? []) {
    // Said above already.
    if (withoutToken && /^the token is not sent/.test(w)) continue;
    if (s.truncated && /truncated/.test(w)) continue;
    out.push({ kind: 'info', text: w.charAt(0).toUpperCase() + w.slice(1) });
  }
  return out;
}

const canSendAgain = (ctx: ViewContext) => ctx.fromRequest || ctx.fromHistoryEntry === true;

function actions(s: ResponseSummary, ctx: ViewContext, kind: BodyKind): ViewAction[] {
  const hasBody = s.bodyText.length > 0;
  const out: ViewAction[] = [];
  if (canSendAgain(ctx))
    out.push({
      id: 'sendAgain',
      label: 'Send Again',
      title: ctx.fromRequest
        ? 'Send the request again (the view is updated)'
        : 'Send this exchange again, to the URL it went to, with the chosen environment’s token',
    });
  if (ctx.fromRequest) out.push({ id: 'openRequest', label: 'Open Request', title: 'Show the request this answers' });
  if (s.status !== null)
    out.push({
      id: 'saveResponse',
      label: 'Save Response',
      title: 'Save the status line, the headers and the body to a file',
    });
  if (hasBody) {
    out.push({ id: 'saveBody', label: 'Save Body', title: 'Save the body to a file' });
    out.push({ id: 'copyBody', label: 'Copy Body' });
    out.push({
      id: 'openRaw',
      label: kind === 'html' ? 'Open Markup' : 'Open Raw',
      title: 'The body as a read-only document',
    });
  }
  if (ctx.fromRequest)
    out.push({ id: 'copyCurl', label: 'Copy as cURL', title: 'A curl command that reads the token from $LPREQ_TOKEN' });
  return out;
}

/** The view of an exchange. `s` is the scrubbed summary. */
export function buildView(s: ResponseSummary, ctx: ViewContext): ViewData {
  const kind = bodyKind(s);
  const ok = s.status !== null && s.status >= 200 && s.status < 300;
  const failed = s.status !== null && s.status >= 400;
  const typed = ok && kind === 'json' && s.resource !== null;
  const facts: string[] = [];
  if (s.pages !== undefined) {
    facts.push(formatCount(s.pages, 'page', 'pages'));
    const items = itemCount(s.body);
    if (items !== undefined) facts.push(formatCount(items, 'item', 'items'));
  }
  if (s.status !== null || s.bytes > 0) facts.push(formatBytes(s.bytes));
  facts.push(formatDuration(s.durationMs));
  if (typed && s.resource) facts.push(s.resource);
  if (ctx.environment) facts.push(ctx.environment);
  const issues = typed ? s.issues : [];
  if (typed && ctx.checking) facts.push('checking against the docs…');
  else if (issues.length > 0) facts.push(formatCount(issues.length, 'issue', 'issues'));
  const assertions = s.assertions ?? [];
  const failedAssertions = assertions.filter((a) => !a.passed).length;
  if (assertions.length > 0)
    facts.push(
      failedAssertions > 0
        ? `${failedAssertions} of ${formatCount(assertions.length, 'assertion', 'assertions')} failed`
        : `${formatCount(assertions.length, 'assertion', 'assertions')} passed`,
    );
  const statusText =
    s.status !== null
      ? `${s.status} ${s.statusText}`.trim()
      : s.error?.kind === 'cancelled'
        ? 'Cancelled'
        : s.error
          ? labelOfFailure(s.error.kind)
          : 'No response';
  const bodyLabel = failed
    ? kind === 'html'
      ? 'Error page (HTML)'
      : 'Error body'
    : kind === 'json'
      ? typed && s.resource
        ? s.resource
        : 'JSON'
      : kind === 'html'
        ? 'HTML page'
        : kind === 'text'
          ? 'Text'
          : kind === 'binary'
            ? 'Binary'
            : kind === 'empty'
              ? 'Empty body'
              : 'No body';
  return {
    id: ctx.id,
    title: viewTitle(s.method, s.url, s.status, s.error?.kind, ctx.names),
    status: { text: statusText, tone: tone(s) },
    facts,
    bodyLabel,
    bodyKind: kind,
    typed,
    contentType: s.contentType,
    apiErrors: failed ? (s.apiErrors ?? (s.apiError ? [s.apiError] : [])) : [],
    banners: banners(s, ctx, kind),
    headers: Object.entries(s.headers),
    request: sentRequest(s, ctx),
    timing: timingRows(s),
    totalMs: s.timing?.totalMs ?? s.durationMs,
    issues,
    issueGroups: groupIssues(issues),
    assertions,
    actions: actions(s, ctx, kind),
    checking: typed && ctx.checking ? true : undefined,
    paging: s.morePages
      ? {
          text: `${s.morePages.page !== undefined ? `page ${s.morePages.page.toLocaleString('en-US')}` : 'a page'}, more pages`,
          action: ctx.fromRequest
            ? {
                id: 'fetchAllPages',
                label: 'Fetch All Pages',
                title: 'Follow the next pages and merge them into one body',
              }
            : undefined,
        }
      : undefined,
  };
}
