/**
 * The code lenses above each request: Send Request, Fetch All Pages where the list pages,
 * and Copy as cURL; none when `lpreq.showCodeLens` is off.
 */
import * as vscode from 'vscode';
import type { EnvironmentController } from './environmentController';
import type { LpreqSettings } from './model/settings';
import { load } from './sendSupport';

export class RequestLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(
    private readonly environments: EnvironmentController,
    private readonly settings: () => LpreqSettings,
  ) {}

  refresh(): void {
    this.changed.fire();
  }

  async provideCodeLenses(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    if (!this.settings().showCodeLens) return [];
    const { requests, checker } = await load();
    if (token.isCancellationRequested) return [];
    const { requests: list } = requests.parseRequests(
      checker,
      document.getText(),
      this.environments.environments(document.uri),
    );
    const lenses: vscode.CodeLens[] = [];
    for (const r of list) {
      const range = new vscode.Range(r.line, 0, r.line, 0);
      const args = [document.uri, r.line];
      lenses.push(
        new vscode.CodeLens(range, {
          title: '$(play) Send Request',
          command: 'lpreq.sendRequest',
          arguments: args,
          tooltip: 'Send this request (Ctrl+Alt+R)',
        }),
      );
      if (r.paginated) {
        lenses.push(
          new vscode.CodeLens(range, {
            title: 'Fetch All Pages',
            command: 'lpreq.fetchAllPages',
            arguments: args,
            tooltip: 'Follow the next pages and merge them into one body',
          }),
        );
      }
      lenses.push(
        new vscode.CodeLens(range, {
          title: 'Copy as cURL',
          command: 'lpreq.copyAsCurl',
          arguments: args,
          tooltip: 'Copy a curl command; it reads the token from $LPREQ_TOKEN',
        }),
      );
    }
    return lenses;
  }

  dispose(): void {
    this.changed.dispose();
  }
}
