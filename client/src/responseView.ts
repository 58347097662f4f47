/**
 * The side bar's Response view (`lpreq.response.view: sidebar`): the typed response tree of
 * the last exchange. The tree itself is model/responseTree.ts; this file only turns its nodes
 * into TreeItems. The raw body and a field's documentation open as read-only documents.
 */
import * as vscode from 'vscode';
import { copyText, documentationPage } from './model/format';
import type { NodeIcon, ResponseNode, ResponseTree } from './model/responseTree';
import { viewTitle } from './model/responseViewModel';
import { bodyExtension, rawBodyText, type ResponseDocuments } from './responseDocuments';

const ICONS: Record<NodeIcon, [string, string?]> = {
  pass: ['pass', 'testing.iconPassed'],
  error: ['error', 'errorForeground'],
  warning: ['warning', 'editorWarning.foreground'],
  info: ['info'],
  headers: ['list-unordered'],
  body: ['symbol-class'],
  field: ['symbol-field'],
  array: ['symbol-array'],
  object: ['symbol-object'],
  issues: ['warning', 'editorWarning.foreground'],
  text: ['file-text'],
};

export class ResponseView implements vscode.TreeDataProvider<ResponseNode>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<ResponseNode | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<ResponseNode>;
  private tree: ResponseTree | undefined;

  constructor(private readonly documents: ResponseDocuments) {
    this.view = vscode.window.createTreeView('lpreq.response', { treeDataProvider: this, showCollapseAll: true });
  }

  get current(): ResponseTree | undefined {
    return this.tree;
  }

  /** Shows "sending ..." until a response arrives. */
  sending(what: string): void {
    this.view.message = `Sending ${what} …`;
  }

  show(tree: ResponseTree, badge = true): void {
    this.tree = tree;
    this.view.message = undefined;
    this.view.description = this.tree.summary();
    this.view.badge =
      badge && this.tree.issueCount > 0
        ? { value: this.tree.issueCount, tooltip: `${this.tree.issueCount} differences from the documentation` }
        : undefined;
    void vscode.commands.executeCommand('setContext', 'lpreq.hasResponse', true);
    this.changed.fire(undefined);
  }

  clear(): void {
    this.tree = undefined;
    this.view.description = undefined;
    this.view.badge = undefined;
    this.view.message = undefined;
    void vscode.commands.executeCommand('setContext', 'lpreq.hasResponse', false);
    this.changed.fire(undefined);
  }

  /** Brings the view forward without taking the focus from the editor. */
  async reveal(): Promise<void> {
    await vscode.commands.executeCommand('lpreq.response.focus', { preserveFocus: true });
  }

  getTreeItem(node: ResponseNode): vscode.TreeItem {
    const state =
      node.collapsible === 'none'
        ? vscode.TreeItemCollapsibleState.None
        : node.collapsible === 'expanded'
          ? vscode.TreeItemCollapsibleState.Expanded
          : vscode.TreeItemCollapsibleState.Collapsed;
    const item = new vscode.TreeItem(node.label, state);
    item.id = node.id;
    item.description = node.description;
    item.contextValue = node.contextValue;
    if (node.tooltip) {
      const md = new vscode.MarkdownString(node.tooltip, true);
      item.tooltip = md;
    }
    if (node.icon) {
      const [id, color] = ICONS[node.icon];
      item.iconPath = new vscode.ThemeIcon(id, color ? new vscode.ThemeColor(color) : undefined);
    }
    if (node.kind === 'issue' && node.jsonPath)
      item.command = { command: 'lpreq.response.copyPath', title: 'Copy JSON Path', arguments: [node] };
    return item;
  }

  getChildren(node?: ResponseNode): ResponseNode[] {
    if (!this.tree) return [];
    return node ? this.tree.children(node) : this.tree.roots();
  }

  async copyValue(node?: ResponseNode): Promise<void> {
    const target = node ?? this.view.selection[0];
    if (!target) return;
    await vscode.env.clipboard.writeText(copyText(target.value));
    vscode.window.setStatusBarMessage('lpreq: value copied', 2000);
  }

  async copyPath(node?: ResponseNode): Promise<void> {
    const target = node ?? this.view.selection[0];
    if (!target?.jsonPath) return;
    await vscode.env.clipboard.writeText(target.jsonPath);
    vscode.window.setStatusBarMessage(`lpreq: copied ${target.jsonPath}`, 2000);
  }

  /** The raw body as a read-only document (`GET modules · 200.json`): JSON pretty-printed when it is small enough. */
  async openRaw(): Promise<void> {
    const r = this.tree?.response;
    if (!r) return;
    const name = viewTitle(r.method, r.url, r.status, r.error?.kind);
    await this.documents.open(
      `${name}.${bodyExtension(r.bodyKind, r.contentType)}`,
      rawBodyText(r.bodyKind, r.body, r.bodyText),
    );
  }

  /** A field's documentation in one read-only Markdown preview. */
  async showDocumentation(node?: ResponseNode): Promise<void> {
    const target = node ?? this.view.selection[0];
    if (!target) return;
    const label = target.jsonPath ?? target.label;
    await this.documents.showMarkdown(
      'lpreq documentation.md',
      documentationPage(label, target.documented, target.issues),
    );
  }

  dispose(): void {
    this.view.dispose();
    this.changed.dispose();
  }
}
