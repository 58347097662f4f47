/**
 * The History view: the last exchanges of this workspace, kept by the sender's
 * HistoryStore in the extension's storage folder. Never holds the token.
 */
import * as vscode from 'vscode';
import type { HistoryStore } from '../../server/src/sender/index';
import { historyItems, type HistoryItem } from './model/history';

const ICONS: Record<HistoryItem['icon'], [string, string]> = {
  pass: ['pass', 'testing.iconPassed'],
  warning: ['warning', 'editorWarning.foreground'],
  error: ['error', 'errorForeground'],
  cancelled: ['circle-slash', 'disabledForeground'],
};

export class HistoryView implements vscode.TreeDataProvider<HistoryItem>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;
  readonly view: vscode.TreeView<HistoryItem>;

  constructor(
    private readonly store: () => HistoryStore | undefined,
    private readonly limit: () => number,
  ) {
    this.view = vscode.window.createTreeView('lpreq.history', { treeDataProvider: this });
  }

  refresh(): void {
    this.changed.fire();
  }

  getTreeItem(item: HistoryItem): vscode.TreeItem {
    const t = new vscode.TreeItem(item.label, vscode.TreeItemCollapsibleState.None);
    t.id = item.id;
    t.description = item.description;
    t.tooltip = item.tooltip;
    t.contextValue = 'exchange';
    const [icon, color] = ICONS[item.icon];
    t.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(color));
    t.command = { command: 'lpreq.history.show', title: 'Show Response', arguments: [item] };
    return t;
  }

  async getChildren(item?: HistoryItem): Promise<HistoryItem[]> {
    const store = this.store();
    if (item || !store) return [];
    let list: Awaited<ReturnType<HistoryStore['list']>>;
    try {
      list = await store.list(this.limit());
    } catch (e) {
      // A history that cannot be read is said so in the view, not shown as an empty one.
      this.view.message = `lpreq: ${e instanceof Error ? e.message : String(e)}`;
      this.view.description = undefined;
      return [];
    }
    this.view.message = undefined;
    this.view.description = list.length > 0 ? `${list.length}` : undefined;
    return historyItems(list);
  }

  dispose(): void {
    this.view.dispose();
    this.changed.dispose();
  }
}
