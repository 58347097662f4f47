/**
 * The response view in the editor area: a webview panel beside the request, one per request
 * (sending again updates it) or one for all (`lpreq.response.reuse`). This file is the host
 * side: it makes the panels, builds what they show (model/responseViewModel.ts, from the
 * scrubbed summary), sends the body once as UTF-8 bytes, and answers the webview's messages
 * after checking them (model/webviewMessages.ts). The webview's code is client/webview/.
 */
import * as vscode from 'vscode';
import type { DocumentedType, PreparedRequest } from '../../server/src/sender/index';
import type { TlsSettings } from '../../server/src/node/index';
import { own } from '../../server/src/core/index';
import type { HostMessage, RunView, TreeNodeView, TypeInfo, ViewData, WebviewMessage } from '../webview/model/protocol';
import { parsePath, patternExample } from '../webview/model/jsonPath';
import { bodyBytes } from './model/bodyBytes';
import { copyText, documentationPage } from './model/format';
import type { ResponseNode, ResponseSummary, ResponseTree } from './model/responseTree';
import { buildView, viewTitle, type RequestNames, type ViewContext } from './model/responseViewModel';
import { parseWebviewMessage } from './model/webviewMessages';
import { responsePage } from './model/webviewHtml';
import { bodyExtension, rawBodyText, type ResponseDocuments } from './responseDocuments';

/** Where a response came from: the request in its file (for Send Again and Open Request). */
export interface RequestRef {
  uri: vscode.Uri;
  line: number;
  method: string;
  target: string;
  name?: string;
  title?: string;
}

/** One response to show. Everything in it has passed the scrubber. */
export interface ShownResponse {
  /** Which view shows it: one per request, or one for all. */
  key: string;
  summary: ResponseSummary;
  tree: ResponseTree;
  /** The documented type at a JSON path of a success body; undefined for anything else. */
  describe: (path: string) => DocumentedType | undefined;
  environment?: string;
  tokenSet: boolean;
  ref?: RequestRef;
  /** The request as prepared (never holding the token), for Copy as cURL. */
  prepared?: PreparedRequest;
  /**
   * The secrets the request may carry, written *** in a copied command. Kept in the extension
   * host for that alone: never sent to the webview.
   */
  curlSecrets?: string[];
  /** Those of curlSecrets that go nowhere from the request's environment: a copy that carries one is refused, as sending is. */
  curlForeignSecrets?: string[];
  /** The environment's `$tls` the request was sent with, for the copied command's TLS options. Kept in the extension host too. */
  curlTls?: TlsSettings;
  /** Shown from the history: when the answer was received, in local time. */
  fromHistory?: string;
  /** The request's title and name, when there is no `ref` to read them from (a history entry). */
  names?: RequestNames;
  /** The history entry it was read from or sent again as, for Send Again. */
  historyId?: string;
  /** When the body's last byte was read, and when the sender handed the answer on (Date.now()), for the log's account of the first screen. */
  bodyArrivedAt?: number;
  answeredAt?: number;
  /** A token was set from this view after the answer came: it offers to send again. */
  tokenJustSet?: boolean;
  /** Shown as soon as it was read: its body is still being checked against the documentation. */
  checking?: boolean;
}

/** A Send All run as it stands: its list, its summary, and the exchange of each request that ran. */
export interface RunState {
  list: Omit<RunView, 'selected'>;
  summary: { view: ViewData; text: string };
  exchanges: ShownResponse[];
}

/** What the panels ask of the rest of the extension. */
export interface PanelActions {
  sendAgain(ref: RequestRef, allPages?: boolean): Promise<void>;
  /** Sends a history entry again, to the URL it went to. */
  resendEntry(historyId: string): Promise<void>;
  copyCurl(shown: ShownResponse): Promise<void>;
  /** Asks for the token of an environment; true when one is set afterwards. */
  setToken(environment: string | undefined): Promise<boolean>;
  cancel(): void;
}

interface PanelState {
  panel: vscode.WebviewPanel;
  ready: boolean;
  queue: HostMessage[];
  shown?: ShownResponse;
  view?: ViewData;
  nextId: number;
  /** Tree nodes handed to the webview, by id, for their children. */
  nodes: Map<string, ResponseNode>;
  /** When the body shown last was given to post, and when it was posted, deflated or not (Date.now()). */
  bodyPostAt?: number;
  bodySentAt?: number;
  /** Waiting for the first screen of the view shown now. */
  whenDrawn: (() => void)[];
  /** The page inflates deflated bodies. */
  inflate?: boolean;
  /** The run this view shows (Send All), and which of its exchanges is shown (null: the summary). */
  run?: RunState & { selected: number | null };
}

function titleOf(shown: ShownResponse): string {
  const s = shown.summary;
  return viewTitle(s.method, s.url, s.status, s.error?.kind, shown.names ?? shown.ref);
}

/** Node icons of the Tree tab, by the tree's icon names. */
const TREE_ICONS = new Set(['pass', 'error', 'warning', 'issues']);

export class ResponsePanels implements vscode.Disposable {
  private readonly panels = new Map<string, PanelState>();
  private readonly media: vscode.Uri;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly documents: ResponseDocuments,
    private readonly actions: PanelActions,
    private readonly output: vscode.LogOutputChannel,
  ) {
    this.media = vscode.Uri.joinPath(context.extensionUri, 'dist', 'media');
  }

  /** The view of `key`, made beside the active editor when there is none; shown without taking the focus. */
  private panelFor(key: string, title: string): PanelState {
    const existing = this.panels.get(key);
    if (existing) {
      if (!existing.panel.visible) existing.panel.reveal(existing.panel.viewColumn ?? vscode.ViewColumn.Beside, true);
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      'lpreq.response',
      title,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      {
        enableScripts: true,
        // The body is kept in the webview: drawing it again after each tab switch would cost its size every time.
        retainContextWhenHidden: true,
        localResourceRoots: [this.media],
        enableCommandUris: false,
        // The view has a find of its own: it searches the whole body, not the rows on screen.
        enableFindWidget: false,
      },
    );
    panel.iconPath = vscode.Uri.joinPath(this.context.extensionUri, 'images', 'activity.svg');
    panel.webview.html = responsePage({
      cspSource: panel.webview.cspSource,
      scriptUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(this.media, 'response.js')).toString(),
      styleUri: panel.webview.asWebviewUri(vscode.Uri.joinPath(this.media, 'response.css')).toString(),
      // Web Crypto, not node:crypto: the extension does not load that module at activation.
      nonce: Buffer.from(globalThis.crypto.getRandomValues(new Uint8Array(18))).toString('base64url'),
    });
    const state: PanelState = { panel, ready: false, queue: [], nextId: 1, nodes: new Map(), whenDrawn: [] };
    panel.webview.onDidReceiveMessage((m: unknown) => this.onMessage(state, m));
    panel.onDidDispose(() => {
      if (this.panels.get(key) === state) this.panels.delete(key);
      for (const done of state.whenDrawn.splice(0)) done();
    });
    this.panels.set(key, state);
    return state;
  }

  private post(state: PanelState, message: HostMessage): void {
    if (!state.ready) {
      // Until the page says it is listening; a state makes the ones before it pointless.
      if (message.type === 'state') state.queue = [];
      state.queue.push(message);
      return;
    }
    void state.panel.webview.postMessage(message);
  }

  /** A request of this view is in flight: the view says so and dims the previous answer. */
  sending(key: string, what: { method: string; url: string; names?: RequestNames }, text: string): void {
    const title = viewTitle(what.method, what.url, null, undefined, what.names);
    const state = this.panelFor(key, title);
    if (!state.view) state.panel.title = title;
    this.post(state, { type: 'sending', text });
  }

  show(shown: ShownResponse): void {
    const state = this.panelFor(shown.key, titleOf(shown));
    state.run = undefined;
    this.present(state, shown);
  }

  /**
   * The same exchange as the view of `key` shows (`early`, shown as soon as it was read), now
   * with what came after (the typed check, the assertions): the view is updated in place, its
   * body not sent again. Anything else (another answer came meanwhile) is shown anew.
   */
  update(early: ShownResponse, shown: ShownResponse): void {
    const state = this.panels.get(shown.key);
    if (!state || state.shown !== early || !state.view) {
      this.show(shown);
      return;
    }
    const view = buildView(shown.summary, this.viewContext(state.view.id, shown));
    state.shown = shown;
    state.view = view;
    state.nodes = new Map();
    state.panel.title = view.title;
    this.post(state, { type: 'update', view });
  }

  /** Resolves once the view of `key` has drawn the first screen of what it shows now, or after `timeoutMs`. */
  drawn(key: string, timeoutMs: number): Promise<void> {
    const state = this.panels.get(key);
    if (!state) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      state.whenDrawn.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private viewContext(id: number, shown: ShownResponse): ViewContext {
    return {
      id,
      environment: shown.environment,
      tokenSet: shown.tokenSet,
      fromRequest: shown.ref !== undefined,
      fromHistory: shown.fromHistory,
      fromHistoryEntry: shown.historyId !== undefined,
      tokenJustSet: shown.tokenJustSet,
      checking: shown.checking,
      names: shown.names ?? shown.ref,
    };
  }

  /** An exchange in its view (with the run's list beside it, in a run). */
  private present(state: PanelState, shown: ShownResponse, run?: RunView): void {
    const context = this.viewContext(state.nextId++, shown);
    const view = buildView(shown.summary, context);
    if (run) view.run = run;
    state.shown = shown;
    state.view = view;
    state.nodes = new Map();
    state.panel.title = state.run ? state.run.summary.view.title : view.title;
    this.post(state, { type: 'state', view });
    if (view.bodyKind !== 'none' && view.bodyKind !== 'empty' && view.bodyKind !== 'binary')
      this.postBody(state, view.id, shown.summary.bodyText);
  }

  /** Posts a body (model/bodyBytes.ts: deflated when large); a view that moved on to another response meanwhile does not get it. */
  private postBody(state: PanelState, id: number, text: string): void {
    state.bodyPostAt = Date.now();
    void bodyBytes(text, state.inflate === true).then(({ bytes, encoding }) => {
      if (state.view?.id !== id) return;
      state.bodySentAt = Date.now();
      this.post(state, { type: 'body', id, bytes, sentAt: state.bodySentAt, ...(encoding ? { encoding } : {}) });
    });
  }

  /**
   * A Send All run in one view: its list of exchanges beside the one chosen, or beside the
   * run's summary. Called as each request answers: the list grows, and what is shown below it
   * stays, unless it is the summary, which is shown as it now stands.
   */
  showRun(key: string, run: RunState): void {
    const state = this.panelFor(key, run.summary.view.title);
    const selected = state.run && state.view ? state.run.selected : null;
    state.run = { ...run, selected };
    if (selected === null || !state.view) this.showRunPart(state, null);
    else {
      state.panel.title = run.summary.view.title;
      this.post(state, { type: 'run', id: state.view.id, run: { ...run.list, selected } });
    }
  }

  /** Shows an exchange of the run (its index), or its summary (null). */
  private showRunPart(state: PanelState, index: number | null): void {
    const run = state.run;
    if (!run) return;
    const shown = index === null ? undefined : run.exchanges[index];
    run.selected = shown ? index : null;
    const list: RunView = { ...run.list, selected: run.selected };
    if (shown) {
      this.present(state, shown, list);
      return;
    }
    // The summary answers no single request: its buttons act on nothing.
    const view: ViewData = { ...run.summary.view, id: state.nextId++, run: list };
    state.shown = undefined;
    state.view = view;
    state.nodes = new Map();
    state.panel.title = view.title;
    this.post(state, { type: 'state', view });
    this.postBody(state, view.id, run.summary.text);
  }

  /** Shows the field at a path in the view of `key`. */
  reveal(key: string, path: string): void {
    const state = this.panels.get(key);
    if (state) this.post(state, { type: 'reveal', path });
  }

  private onMessage(state: PanelState, raw: unknown): void {
    const message = parseWebviewMessage(raw);
    if (!message) {
      this.output.debug('response view: a message of an unknown shape was ignored');
      return;
    }
    this.handle(state, message).catch((e: unknown) => {
      this.output.error(`response view: ${(e as Error)?.stack ?? String(e)}`);
      void vscode.window.showErrorMessage(`lpreq: ${(e as Error)?.message ?? String(e)}`);
    });
  }

  private async handle(state: PanelState, message: WebviewMessage): Promise<void> {
    const shown = state.shown;
    switch (message.type) {
      case 'ready':
        state.ready = true;
        state.inflate = message.inflate === true;
        for (const m of state.queue.splice(0)) void state.panel.webview.postMessage(m);
        return;
      case 'rendered':
        this.output.info(renderedLine(state.panel.title, message, shown, state));
        if (state.view && message.id === state.view.id) for (const done of state.whenDrawn.splice(0)) done();
        return;
      case 'action':
        if (message.action === 'cancel') this.actions.cancel();
        else if (shown) await this.act(message.action, shown, state);
        return;
      case 'describe':
        if (shown && state.view && message.id === state.view.id) {
          const entries = message.patterns.map((p): [string, TypeInfo | null] => [p, typeInfo(shown, p)]);
          this.post(state, { type: 'types', id: message.id, entries });
        }
        return;
      case 'tree':
        if (shown && state.view && message.id === state.view.id) {
          const parent = message.parent === null ? undefined : state.nodes.get(message.parent);
          if (message.parent !== null && !parent) return;
          const nodes = parent ? shown.tree.children(parent) : shown.tree.roots();
          for (const n of nodes) state.nodes.set(n.id, n);
          this.post(state, { type: 'tree', id: message.id, parent: message.parent, nodes: nodes.map(treeNodeView) });
        }
        return;
      case 'copy':
        if (!shown) return;
        if (message.what === 'path') {
          await vscode.env.clipboard.writeText(message.path);
          vscode.window.setStatusBarMessage(`lpreq: copied ${message.path}`, 2000);
        } else {
          const found = valueAt(shown.summary.body, message.path);
          if (!found.found) return;
          await vscode.env.clipboard.writeText(copyText(found.value));
          vscode.window.setStatusBarMessage('lpreq: value copied', 2000);
        }
        return;
      case 'docs':
        if (shown) await this.showDocs(shown, message.path);
        return;
      case 'select':
        this.showRunPart(state, message.index);
        return;
    }
  }

  private async act(action: string, shown: ShownResponse, state: PanelState): Promise<void> {
    const s = shown.summary;
    const name = titleOf(shown);
    const ext = bodyExtension(s.bodyKind === 'json' ? 'json' : s.bodyKind, s.contentType);
    switch (action) {
      case 'fetchAllPages':
        if (shown.ref) await this.actions.sendAgain(shown.ref, true);
        return;
      case 'sendAgain':
        if (shown.ref) await this.actions.sendAgain(shown.ref);
        else if (shown.historyId !== undefined) await this.actions.resendEntry(shown.historyId);
        return;
      case 'openRequest':
        if (shown.ref) await openRequest(shown.ref);
        return;
      case 'copyCurl':
        await this.actions.copyCurl(shown);
        return;
      case 'setToken': {
        // The same answer still shown (its typed check may have updated it meanwhile): it came without the token, and says so.
        const id = state.view?.id;
        if ((await this.actions.setToken(shown.environment)) && state.shown && state.view?.id === id) {
          const updated: ShownResponse = { ...state.shown, tokenSet: true, tokenJustSet: true };
          this.present(state, updated, state.run ? { ...state.run.list, selected: state.run.selected } : undefined);
        }
        return;
      }
      case 'showOutput':
        this.output.show();
        return;
      case 'copyBody':
        await vscode.env.clipboard.writeText(s.bodyText);
        vscode.window.setStatusBarMessage('lpreq: body copied', 2000);
        return;
      case 'openRaw':
        // In the view's own group, beside its tab: no third column.
        await this.documents.open(
          `${name}.${ext}`,
          rawBodyText(s.bodyKind, s.body, s.bodyText),
          state.panel.viewColumn,
        );
        return;
      case 'saveBody':
        await saveText(`${fileName(name)}.${ext}`, s.bodyText);
        return;
      case 'saveResponse': {
        const head = [
          `HTTP/1.1 ${s.status ?? ''} ${s.statusText}`.trimEnd(),
          ...Object.entries(s.headers).map(([k, v]) => `${k}: ${v}`),
        ];
        await saveText(`${fileName(name)}.http`, `${head.join('\n')}\n\n${s.bodyText}`);
        return;
      }
    }
  }

  private async showDocs(shown: ShownResponse, path: string): Promise<void> {
    const doc = shown.describe(path);
    const issues = shown.summary.issues.filter((i) => i.path === path);
    await this.documents.showMarkdown('lpreq documentation.md', documentationPage(path, doc, issues));
  }

  /** The response shown last in any view, for the tests. */
  get current(): ViewData | undefined {
    let last: ViewData | undefined;
    for (const s of this.panels.values()) if (s.view && (!last || s.panel.active)) last = s.view;
    return last;
  }

  dispose(): void {
    for (const s of this.panels.values()) s.panel.dispose();
    this.panels.clear();
  }
}

/**
 * The log's account of a first screen: how long after the body arrived in the view it was
 * drawn, and, for a send, how long after its last byte was read, in the extension host and on
 * the way to the view (`npm run test:e2e` reads it: the response view's performance target).
 */
function renderedLine(
  title: string,
  m: { ms: number; transferMs?: number },
  shown: Pick<ShownResponse, 'bodyArrivedAt' | 'answeredAt'> | undefined,
  times: Pick<PanelState, 'bodyPostAt' | 'bodySentAt'>,
): string {
  const drawn = `response view: the body of ${title} drawn ${m.ms.toFixed(0)} ms after it arrived in the view`;
  const arrivedAt = shown?.bodyArrivedAt;
  const { bodyPostAt, bodySentAt } = times;
  if (arrivedAt === undefined || bodySentAt === undefined || m.transferMs === undefined) return drawn;
  const host = Math.round(bodySentAt - arrivedAt);
  const total = host + Math.round(m.transferMs) + Math.round(m.ms);
  const line = `${drawn}; first screen ${total} ms after the body's last byte was read (${host} ms in the extension host, ${Math.round(m.transferMs)} ms on the way to the view)`;
  if (shown?.answeredAt === undefined || bodyPostAt === undefined) return line;
  const steps = [
    `${Math.round(shown.answeredAt - arrivedAt)} ms reading it`,
    `${Math.round(bodyPostAt - shown.answeredAt)} ms building the view`,
    `${Math.round(bodySentAt - bodyPostAt)} ms deflating it`,
  ];
  return `${line}; in the extension host ${steps.join(', ')}`;
}

function typeInfo(shown: ShownResponse, pattern: string): TypeInfo | null {
  const example = patternExample(pattern);
  const doc = example === undefined ? undefined : shown.describe(example);
  if (!doc) return null;
  return {
    type: doc.type,
    description: doc.description ?? doc.note,
    nullable: doc.nullable,
    deprecated: doc.deprecated,
    enumValues: doc.enum,
  };
}

function treeNodeView(n: ResponseNode): TreeNodeView {
  return {
    id: n.id,
    label: n.label,
    description: n.description,
    // The tooltips are Markdown for the side bar; the webview shows them as text.
    tooltip: n.tooltip?.replace(/\*\*|`/g, ''),
    icon: n.icon && TREE_ICONS.has(n.icon) ? n.icon : undefined,
    expandable: n.collapsible !== 'none',
    expanded: n.collapsible === 'expanded',
  };
}

/** The value at a JSON path of a parsed body, by own properties only. */
function valueAt(body: unknown, path: string): { found: boolean; value?: unknown } {
  const segments = parsePath(path);
  if (!segments) return { found: false };
  let v = body;
  for (const seg of segments) {
    if (typeof seg === 'number' && Array.isArray(v) && seg >= 0 && seg < v.length) v = v[seg] as unknown;
    else if (
      typeof seg === 'string' &&
      v &&
      typeof v === 'object' &&
      !Array.isArray(v) &&
      Object.prototype.hasOwnProperty.call(v, seg)
    )
      v = own(v as Record<string, unknown>, seg);
    else return { found: false };
  }
  return { found: true, value: v };
}

function fileName(title: string): string {
  return title
    .replace(/[\\/:*?"<>|·]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

async function saveText(suggested: string, text: string): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const target = await vscode.window.showSaveDialog({
    defaultUri: folder ? vscode.Uri.joinPath(folder, suggested) : undefined,
    saveLabel: 'Save',
  });
  if (!target) return;
  await vscode.workspace.fs.writeFile(target, Buffer.from(text, 'utf8'));
  vscode.window.setStatusBarMessage(`lpreq: saved ${vscode.workspace.asRelativePath(target)}`, 3000);
}

/** Shows the request in the editor that has its file open, or beside the view. */
async function openRequest(ref: RequestRef): Promise<void> {
  const doc = await vscode.workspace.openTextDocument(ref.uri);
  const visible = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === ref.uri.toString());
  const position = new vscode.Position(Math.min(ref.line, doc.lineCount - 1), 0);
  await vscode.window.showTextDocument(doc, {
    viewColumn: visible?.viewColumn ?? vscode.ViewColumn.One,
    selection: new vscode.Range(position, position),
  });
}
