/**
 * "Paste as lpreq Request" and "Import into lpreq...". The import runs in the command line's
 * import bundle (dist/import.js, loaded on first use: curlconverter, the shell grammar's
 * WebAssembly and Postman's SDK stay out of the extension's own bundle and its activation),
 * the same code as `lpreq import`: one conversion, one check, one scrubber, one merge of
 * environment entries. The engine the extension targets (VS Code 1.91) has no paste-edit
 * provider API, so pasting is a command, in the editor's context menu.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type * as ImportHost from '../../server/src/importHost';

type ImportBundle = typeof ImportHost;

export class ImportCommands {
  private bundle: ImportBundle | undefined;
  private readonly report: vscode.OutputChannel;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.report = vscode.window.createOutputChannel('lpreq import');
    context.subscriptions.push(this.report);
  }

  private load(): ImportBundle {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    this.bundle ??= require(path.join(this.context.extensionPath, 'dist', 'import.js')) as ImportBundle;
    return this.bundle;
  }

  /** The environments a file in this folder is checked with. */
  private environmentsOf(dir: string | undefined): Record<string, Record<string, string>> {
    return dir ? this.load().folderEnvironments(dir).environments : {};
  }

  /** The clipboard's cURL command (or requests of another format) as lpreq requests, at the cursor. */
  async pasteAsRequest(): Promise<void> {
    const editor = vscode.window.activeTextEditor;
    if (!editor || editor.document.languageId !== 'lpreq') {
      void vscode.window.showInformationMessage('lpreq: open a .lpreq file to paste a request into.');
      return;
    }
    const text = await vscode.env.clipboard.readText();
    const bundle = this.load();
    if (text.trim() === '' || bundle.detectFormat(text) === undefined) {
      void vscode.window.showWarningMessage(
        'lpreq: the clipboard holds no cURL command (nor a HAR, Postman or .http text) to paste as a request.',
      );
      return;
    }
    const document = editor.document;
    const dir = document.uri.scheme === 'file' ? path.dirname(document.uri.fsPath) : undefined;
    const result = await bundle.editorImport([{ name: 'clipboard', text }], {
      paste: true,
      environments: this.environmentsOf(dir),
      bundleDir: path.join(this.context.extensionPath, 'dist'),
    });
    // A pasted request starts its own block: on a line of its own, after a blank line.
    const at = editor.selection.start;
    const before = document.getText(new vscode.Range(new vscode.Position(0, 0), at));
    const lead = before.length === 0 || before.endsWith('\n\n') ? '' : before.endsWith('\n') ? '\n' : '\n\n';
    await editor.edit((edit) => edit.replace(editor.selection, lead + result.text));
    this.showReport(result, 'pasted from the clipboard', undefined, false);
  }

  /** A file picked, imported into a new .lpreq file beside the workspace's requests, opened with the report. */
  async importFile(): Promise<void> {
    const picked = await vscode.window.showOpenDialog({
      canSelectMany: false,
      openLabel: 'Import into lpreq',
      filters: {
        'cURL, HAR, Postman, .http': ['curl', 'sh', 'txt', 'har', 'json', 'http', 'rest'],
        'All files': ['*'],
      },
    });
    const source = picked?.[0];
    if (!source) return;
    const bundle = this.load();
    const read = await bundle.readTextInput(source.fsPath);
    if (read.text === undefined) throw new Error(`cannot read ${path.basename(source.fsPath)}: ${read.problem}`);
    const from = bundle.detectFormat(read.text);
    if (from === undefined)
      throw new Error(
        `cannot tell what ${path.basename(source.fsPath)} is: a cURL command, a HAR capture, a Postman collection or environment, or a .http file`,
      );
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const base = path.basename(source.fsPath).replace(/(\.postman_(collection|environment))?\.[^.]+$/, '');
    const target = await vscode.window.showSaveDialog({
      defaultUri: folder ? vscode.Uri.joinPath(folder, `${base}.lpreq`) : undefined,
      filters: { 'lpreq requests': ['lpreq'] },
      saveLabel: 'Write the requests here',
    });
    if (!target) return;
    const result = await bundle.editorImport(
      [
        {
          name: path.basename(source.fsPath),
          text: read.text,
          ...(from === 'http' ? { environments: bundle.httpClientEnvironments(source.fsPath) } : {}),
        },
      ],
      {
        withResponses: false,
        environments: this.environmentsOf(path.dirname(target.fsPath)),
        bundleDir: path.join(this.context.extensionPath, 'dist'),
      },
    );
    await vscode.workspace.fs.writeFile(target, Buffer.from(result.text, 'utf8'));
    const merge = bundle.writeEnvironmentEntries(target.fsPath, result);
    await vscode.window.showTextDocument(target);
    this.showReport(result, `wrote ${path.basename(target.fsPath)} from ${path.basename(source.fsPath)}`, merge, true);
  }

  private showReport(
    result: ImportHost.ImportResult,
    header: string,
    merge: ReturnType<ImportBundle['writeEnvironmentEntries']>,
    show: boolean,
  ): void {
    const bundle = this.load();
    this.report.clear();
    this.report.append(
      bundle.formatReport(result.report, `lpreq import: ${header}`, result.notes) +
        bundle.environmentSummary(result, merge),
    );
    if (show) this.report.show(true);
    const n = result.report.requests.length;
    const undocumented = result.report.requests.filter((r) => !r.endpoint).length;
    const summary = `lpreq: imported ${n} request${n === 1 ? '' : 's'}${undocumented > 0 ? `, ${undocumented} undocumented` : ''}; ${result.report.errors} error${result.report.errors === 1 ? '' : 's'}, ${result.report.warnings} warning${result.report.warnings === 1 ? '' : 's'}.`;
    void vscode.window.showInformationMessage(summary, 'Show Report').then((choice) => {
      if (choice === 'Show Report') this.report.show(true);
    });
  }
}
