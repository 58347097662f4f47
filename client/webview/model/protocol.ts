/**
 * The messages between the extension host and the response view's webview, and the view's
 * data. Types only: the host builds a ViewData (client/src/model/responseViewModel.ts), the
 * webview draws it; what the webview sends back is checked by the host before use
 * (client/src/model/webviewMessages.ts), never trusted.
 *
 * Everything in a ViewData, and the body, has passed the scrubber: the token never reaches
 * the webview.
 */
import type { ViewIssue } from './issueIndex';

export type { ViewIssue } from './issueIndex';

/** What a button of the view asks the host to do. */
export type ActionId =
  | 'saveResponse'
  | 'saveBody'
  | 'copyBody'
  | 'copyCurl'
  | 'sendAgain'
  | 'openRequest'
  | 'openRaw'
  | 'setToken'
  | 'cancel'
  | 'showOutput'
  | 'fetchAllPages';

export const ACTION_IDS: readonly ActionId[] = [
  'saveResponse',
  'saveBody',
  'copyBody',
  'copyCurl',
  'sendAgain',
  'openRequest',
  'openRaw',
  'setToken',
  'cancel',
  'showOutput',
  'fetchAllPages',
];

export interface ViewAction {
  id: ActionId;
  label: string;
  /** The tooltip. */
  title?: string;
}

/** A line above the body: an error, a warning, a note, or the request in flight. */
export interface Banner {
  kind: 'error' | 'warning' | 'info' | 'cancelled';
  text: string;
  actions?: ViewAction[];
}

export interface IssueGroupView {
  /** The path with every index `[*]`: `$[*].x_internal_rank`. */
  pattern: string;
  code: string;
  /** The kind in words: `undocumented`, `type mismatch`, `unknown enum value`. */
  kind: string;
  count: number;
  /** The first issue's message. */
  message: string;
  /** The first paths of the group (a click reveals the first). */
  paths: string[];
}

/** An assertion of the request (`?? ...`) as evaluated on this response: the line it stands on, what was found. */
export interface AssertionView {
  line: number;
  text: string;
  passed: boolean;
  /** EXPECTED with its variables resolved. */
  expected?: string;
  /** The value found, as JSON text; null when nothing was found. */
  actual: string | null;
  message: string;
}

export interface TimingRow {
  label: string;
  /** Milliseconds from the start of the exchange to where this part starts, and how long it took. */
  startMs: number;
  ms: number;
}

export interface SentRequestView {
  method: string;
  url: string;
  headers: [string, string][];
  body?: string;
  /** Where the token went, or that none went. */
  tokenNote?: string;
  redirects: { status: number; from: string; to: string }[];
}

/** How the body is shown: typed JSON, JSON, a page's text (its markup a click away), text, or nothing to show. */
export type BodyKind = 'json' | 'html' | 'text' | 'binary' | 'empty' | 'none';

/** One request of a Send All run, as the run's list shows it. */
export interface RunEntryView {
  /** The request as its file names it: its `###` title or `@name`, else METHOD target. */
  label: string;
  /** METHOD target, as written. */
  request: string;
  /** `200`, `failed`, `not sent`, `cancelled`. */
  status: string;
  tone: ViewData['status']['tone'];
  /** ✓ passed, ✗ failed, – cancelled. */
  mark: string;
  duration: string;
  /** Why it failed. */
  message?: string;
}

/** A Send All run: its summary line and each exchange, one of which (or the summary: null) is shown below the list. */
export interface RunView {
  /** `Send All: modules.lpreq`. */
  title: string;
  /** `19 of 21 passed`, or `3 of 21 sent…` while it runs. */
  summary: string;
  tone: ViewData['status']['tone'];
  entries: RunEntryView[];
  selected: number | null;
  running: boolean;
}

export interface ViewData {
  /** The response's number in this view: the body message and answers about types carry it. */
  id: number;
  /** The editor tab's title: `GET modules · 200`. */
  title: string;
  status: { text: string; tone: 'ok' | 'redirect' | 'client-error' | 'server-error' | 'failed' | 'cancelled' };
  /** The rest of the header line: time, size, resource, environment, issues (or pages and items). */
  facts: string[];
  /** What the body is called: its documented type (`Module[]`), `Error body`, `HTML page`, `Text`. */
  bodyLabel: string;
  bodyKind: BodyKind;
  /** Whether the body's fields are typed by the docs (only a success answer's are). */
  typed: boolean;
  contentType?: string;
  /** The API's error messages, shown first. */
  apiErrors: string[];
  banners: Banner[];
  headers: [string, string][];
  request?: SentRequestView;
  timing: TimingRow[];
  totalMs?: number;
  issues: ViewIssue[];
  issueGroups: IssueGroupView[];
  /** The request's assertions evaluated on this response; empty when it has none. */
  assertions: AssertionView[];
  actions: ViewAction[];
  /** Shown as soon as it was read: its body is being checked against the documentation (the issues come with an update). */
  checking?: boolean;
  /** One page of several (`page 1, more pages`), with Fetch All Pages beside it when the request can be sent from its file. */
  paging?: { text: string; action?: ViewAction };
  /** The run this view is part of (Send All): its list stands beside the view. */
  run?: RunView;
}

/** A documented type, as a row shows it and its tooltip describes it. */
export interface TypeInfo {
  type: string;
  description?: string;
  nullable?: boolean;
  deprecated?: boolean;
  enumValues?: string[];
}

/** A node of the Tree tab (the side bar's typed tree, model/responseTree.ts), as drawn. */
export interface TreeNodeView {
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  icon?: string;
  expandable: boolean;
  expanded: boolean;
}

export type HostMessage =
  | { type: 'state'; view: ViewData }
  /** What is known of the response shown changed (its typed issues came): the same view id, its body kept. */
  | { type: 'update'; view: ViewData }
  /**
   * The body of response `id`, once, as UTF-8 bytes (no JSON escaping on the way), deflated when
   * the page can inflate it and it is large; `sentAt` the host's clock when it was posted.
   */
  | { type: 'body'; id: number; bytes: Uint8Array; sentAt?: number; encoding?: 'deflate-raw' }
  /** A request is in flight: the view says so and dims what it shows. */
  | { type: 'sending'; text: string }
  | { type: 'types'; id: number; entries: [string, TypeInfo | null][] }
  | { type: 'tree'; id: number; parent: string | null; nodes: TreeNodeView[] }
  | { type: 'reveal'; path: string }
  /** The run's list changed (a request of it answered); the view below it is unchanged. */
  | { type: 'run'; id: number; run: RunView };

export type WebviewMessage =
  /** The page listens; `inflate`: it can inflate a deflated body (DecompressionStream). */
  | { type: 'ready'; inflate?: boolean }
  | { type: 'action'; action: ActionId }
  /** Documented types of these path patterns, for response `id`. */
  | { type: 'describe'; id: number; patterns: string[] }
  /** The children of a Tree node (null: the roots). */
  | { type: 'tree'; id: number; parent: string | null }
  | { type: 'copy'; what: 'value' | 'path'; path: string }
  /** The documentation of the field at a path, in a read-only preview. */
  | { type: 'docs'; path: string }
  /** Shows an exchange of the run (its index), or the run's summary (null). */
  | { type: 'select'; index: number | null }
  /** The body of response `id` was drawn: how long after it arrived (for the output log and the tests). */
  | { type: 'rendered'; id: number; ms: number; transferMs?: number };
