/**
 * Read-only documents of the `lpreq-response:` scheme: a raw body (`GET modules · 200.json`)
 * and the documentation of a field. They are never Untitled documents (nothing asks to be
 * saved), and their text, scrubbed like everything the views show, lives only in memory
 * while they are open.
 */
import * as vscode from 'vscode';

const RESPONSE_SCHEME = 'lpreq-response';

export class ResponseDocuments implements vscode.TextDocumentContentProvider, vscode.Disposable {
  private readonly contents = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[];

  constructor() {
    this.disposables = [
      vscode.workspace.registerTextDocumentContentProvider(RESPONSE_SCHEME, this),
      vscode.workspace.onDidCloseTextDocument((doc) => {
        if (doc.uri.scheme === RESPONSE_SCHEME) this.contents.delete(doc.uri.toString());
      }),
      this.changed,
    ];
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.contents.get(uri.toString()) ?? '';
  }

  /** The URI of a document named `name` (its file name shows as the editor's title) with this text. */
  set(name: string, text: string): vscode.Uri {
    const uri = vscode.Uri.from({ scheme: RESPONSE_SCHEME, path: `/${name.replace(/[/\\]/g, '∕')}` });
    const key = uri.toString();
    const had = this.contents.has(key);
    this.contents.set(key, text);
    if (had) this.changed.fire(uri);
    return uri;
  }

  /** Opens a read-only document beside the active editor, in preview (one tab, reused). */
  async open(name: string, text: string, column: vscode.ViewColumn = vscode.ViewColumn.Beside): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(this.set(name, text));
    await vscode.window.showTextDocument(doc, { preview: true, viewColumn: column, preserveFocus: false });
  }

  /** Shows Markdown rendered, in one preview that each new text replaces. */
  async showMarkdown(name: string, markdown: string): Promise<void> {
    const uri = this.set(name, markdown);
    await vscode.commands.executeCommand('markdown.showPreview', uri).then(undefined, async () => {
      // No Markdown preview (it is a built-in extension that can be disabled): the text itself.
      await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), {
        preview: true,
        viewColumn: vscode.ViewColumn.Beside,
      });
    });
  }

  dispose(): void {
    for (const d of this.disposables) d.dispose();
    this.contents.clear();
  }
}

/** The raw body as a document's text: JSON pretty-printed when it is not too large to. */
export function rawBodyText(bodyKind: string, body: unknown, bodyText: string): string {
  if (bodyKind === 'json' && bodyText.length < 5 * 1024 * 1024) {
    try {
      return JSON.stringify(body, null, 2);
    } catch {
      return bodyText;
    }
  }
  return bodyText;
}

/** The file extension of a body, for a document's name and a saved file. */
export function bodyExtension(kind: string, contentType: string | undefined): string {
  if (kind === 'json' || (contentType && /json/i.test(contentType))) return 'json';
  if (kind === 'html' || (contentType && /html/i.test(contentType))) return 'html';
  if (contentType && /xml/i.test(contentType)) return 'xml';
  return 'txt';
}
