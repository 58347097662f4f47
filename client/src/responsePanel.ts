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
import type {
  CompareView,
  HostMessage,
  TreeNodeView,
  TypeInfo,
  ViewData,
  WebviewMessage,
} from '../webview/model/protocol';
import { parsePath, patternExample } from '../webview/model/jsonPath';
import { copyText, documentationPage } from './model/format';
import type { ResponseNode, ResponseSummary, ResponseTree } from './model/responseTree';
import { buildView, viewTitle, type ViewContext } from './model/responseViewModel';
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
  /** Which request this answered, as the history records it (Compare with Previous Response looks for its earlier answers). */
  identity?: { file?: string; name?: string; title?: string; historyId?: string; shownAt?: string };
}

/** What the panels ask of the rest of the extension. */
export interface PanelActions {
  sendAgain(ref: RequestRef): Promise<void>;
  copyCurl(shown: ShownResponse): Promise<void>;
  setToken(environment: string | undefined): Promise<void>;
  cancel(): void;
  /** The typed comparison of a shown response with its previous response or its snapshot, or its snapshot written anew. */
  compare(shown: ShownResponse, what: 'previous' | 'snapshot' | 'update'): Promise<CompareView>;
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
  /** The comparison shown in the Compare tab, until the next response. */
  compare?: CompareView;
}

/** Node icons of the Tree tab, by the tree's icon names. */
const TREE_ICONS = new Set(['pass', 'error', 'warning', 'issues']);

export class ResponsePanels implements vscode.Disposable {
  private readonly panels = new Map<string, PanelState>();
  /** The view that showed a response last (the comparison commands act on it when no view is in front). */
  private lastShown: PanelState | undefined;
  private lastShownKey: string | undefined;
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
    const state: PanelState = { panel, ready: false, queue: [], nextId: 1, nodes: new Map() };
    panel.webview.onDidReceiveMessage((m: unknown) => this.onMessage(state, m));
    panel.onDidDispose(() => {
      if (this.panels.get(key) === state) this.panels.delete(key);
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
  sending(key: string, what: { method: string; url: string }, text: string): void {
    const state = this.panelFor(key, viewTitle(what.method, what.url, null));
    if (!state.view) state.panel.title = viewTitle(what.method, what.url, null);
    this.post(state, { type: 'sending', text });
  }

  show(shown: ShownResponse): void {
    const context: ViewContext = {
      id: 0,
      environment: shown.environment,
      tokenSet: shown.tokenSet,
      fromRequest: shown.ref !== undefined,
      fromHistory: shown.fromHistory,
    };
    const title = viewTitle(shown.summary.method, shown.summary.url, shown.summary.status, shown.summary.error?.kind);
    const state = this.panelFor(shown.key, title);
    this.lastShown = state;
    this.lastShownKey = shown.key;
    context.id = state.nextId++;
    const view = buildView(shown.summary, context);
    state.shown = shown;
    state.view = view;
    state.nodes = new Map();
    state.compare = undefined;
    state.panel.title = view.title;
    this.post(state, { type: 'state', view });
    if (view.bodyKind !== 'none' && view.bodyKind !== 'empty' && view.bodyKind !== 'binary') {
      // Bytes, not a string: a string would be escaped as JSON on its way to the webview.
      const bytes = Buffer.from(shown.summary.bodyText, 'utf8');
      this.post(state, {
        type: 'body',
        id: view.id,
        bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
      });
    }
  }

  /**
   * A view that answers no single request (the summary of a run): its data and text body as
   * they are. It has no request behind it, so its buttons act on nothing.
   */
  showView(key: string, view: ViewData, text: string): void {
    const state = this.panelFor(key, view.title);
    view.id = state.nextId++;
    state.shown = undefined;
    state.view = view;
    state.nodes = new Map();
    state.compare = undefined;
    state.panel.title = view.title;
    this.post(state, { type: 'state', view });
    const bytes = Buffer.from(text, 'utf8');
    this.post(state, {
      type: 'body',
      id: view.id,
      bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength),
    });
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
        for (const m of state.queue.splice(0)) void state.panel.webview.postMessage(m);
        return;
      case 'rendered':
        this.output.info(
          `response view: the body of ${state.panel.title} drawn ${message.ms.toFixed(0)} ms after it arrived`,
        );
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
    }
  }

  private async act(action: string, shown: ShownResponse, state: PanelState): Promise<void> {
    const column = state.panel.viewColumn;
    const s = shown.summary;
    const name = viewTitle(s.method, s.url, s.status, s.error?.kind);
    const ext = bodyExtension(s.bodyKind === 'json' ? 'json' : s.bodyKind, s.contentType);
    switch (action) {
      case 'sendAgain':
        if (shown.ref) await this.actions.sendAgain(shown.ref);
        return;
      case 'openRequest':
        if (shown.ref) await openRequest(shown.ref);
        return;
      case 'copyCurl':
        await this.actions.copyCurl(shown);
        return;
      case 'setToken':
        await this.actions.setToken(shown.environment);
        return;
      case 'showOutput':
        this.output.show();
        return;
      case 'copyBody':
        await vscode.env.clipboard.writeText(s.bodyText);
        vscode.window.setStatusBarMessage('lpreq: body copied', 2000);
        return;
      case 'openRaw':
        // In the view's own group, beside its tab: no third column.
        await this.documents.open(`${name}.${ext}`, rawBodyText(s.bodyKind, s.body, s.bodyText), column);
        return;
      case 'saveBody':
        await saveText(`${fileName(name)}.${ext}`, s.bodyText);
        return;
      case 'comparePrevious':
      case 'compareSnapshot':
      case 'updateSnapshot':
        await this.compareIn(
          state,
          action === 'comparePrevious' ? 'previous' : action === 'compareSnapshot' ? 'snapshot' : 'update',
        );
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

  /** The comparison of the response a view shows, in its Compare tab. */
  private async compareIn(state: PanelState, what: 'previous' | 'snapshot' | 'update'): Promise<void> {
    const shown = state.shown;
    const view = state.view;
    if (!shown || !view) return;
    const compare = await this.actions.compare(shown, what);
    // A newer response came meanwhile: the comparison is of the one before it.
    if (state.view !== view) return;
    state.compare = compare;
    this.post(state, { type: 'compare', id: view.id, compare });
  }

  /** Compare with Previous Response or with Snapshot (commands, the view's title menu): in the view in front, else the one that showed a response last. */
  async compareActive(what: 'previous' | 'snapshot'): Promise<boolean> {
    let target: PanelState | undefined;
    for (const s of this.panels.values()) if (s.shown && s.panel.active) target = s;
    if (!target && this.lastShown?.shown && this.panels.get(this.lastShownKey ?? '') === this.lastShown)
      target = this.lastShown;
    if (!target) return false;
    if (!target.panel.visible) target.panel.reveal(target.panel.viewColumn, true);
    await this.compareIn(target, what);
    return true;
  }

  /** The comparison shown last in any view, for the tests. */
  get currentCompare(): CompareView | undefined {
    let last: PanelState | undefined;
    for (const s of this.panels.values()) if (s.compare && (!last || s.panel.active)) last = s;
    return last?.compare;
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
