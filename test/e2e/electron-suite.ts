/**
 * The checks of the end-to-end tests, run inside VS Code's extension host by
 * @vscode/test-electron (electron.ts). The workspace and the fake API come from
 * fixture.ts, as for the code-server runner; the API's address is in LPREQ_E2E_BASE_URL.
 */
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { LpreqTestApi } from '../../client/src/extension';
import { REQUEST_FILE } from './fixture';

async function until<T>(what: string, get: () => T | undefined | Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export async function run(): Promise<void> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'no workspace folder');
  const uri = vscode.Uri.joinPath(folder.uri, REQUEST_FILE);
  const doc = await vscode.workspace.openTextDocument(uri);
  const editor = await vscode.window.showTextDocument(doc);
  assert.equal(doc.languageId, 'lpreq');
  const ext = vscode.extensions.all.find((e) => e.packageJSON?.name === 'lpreq');
  assert.ok(ext, 'the lpreq extension is not installed');
  const api = (await ext.activate()) as LpreqTestApi | undefined;
  assert.ok(api, 'the extension gives its test API in test mode');

  // A diagnostic: module[position] = second is not an integer.
  const diagnostics = await until('a diagnostic', () => {
    const d = vscode.languages.getDiagnostics(uri);
    return d.length > 0 ? d : undefined;
  });
  assert.ok(diagnostics.some((d) => d.code === 'invalid-type' || String(d.code).includes('invalid-type')));

  // A completion of a parameter name, accepted.
  const line = doc
    .getText()
    .split('\n')
    .findIndex((l) => l.startsWith('module[position]'));
  await editor.edit((e) => e.insert(new vscode.Position(line, doc.lineAt(line).text.length), '\nmodule[req'));
  const position = new vscode.Position(line + 1, 'module[req'.length);
  const list = await vscode.commands.executeCommand<vscode.CompletionList>(
    'vscode.executeCompletionItemProvider',
    uri,
    position,
  );
  const item = list.items.find((i) =>
    (typeof i.label === 'string' ? i.label : i.label.label).includes('require_sequential_progress'),
  );
  assert.ok(item, 'no completion for module[require_sequential_progress]');
  editor.selection = new vscode.Selection(position, position);
  await vscode.commands.executeCommand('editor.action.triggerSuggest');
  await new Promise((r) => setTimeout(r, 1000));
  await vscode.commands.executeCommand('acceptSelectedSuggestion');
  await until(
    'the accepted completion',
    () => doc.getText().includes('module[require_sequential_progress]') || undefined,
  );

  // Fix the error (so that no modal question stops the test) and send with the environment's base_url.
  const fixed = doc
    .getText()
    .replace('module[position] = second', 'module[position] = 2')
    .replace(/module\[require_sequential_progress\]\]?.*$/m, 'module[require_sequential_progress] = true');
  await editor.edit((e) => e.replace(new vscode.Range(0, 0, doc.lineCount, 0), fixed));
  await vscode.commands.executeCommand('lpreq.selectEnvironment', 'local');
  const requestLine = doc
    .getText()
    .split('\n')
    .findIndex((l) => l.startsWith('POST '));
  await vscode.commands.executeCommand('lpreq.sendRequest', uri, requestLine);

  const response = await until('the response', () => api.response());
  assert.match(response.summary, /^200 · Module/);
  assert.ok(
    response.labels.some((l) => l.startsWith('Module')),
    `labels: ${response.labels.join(' | ')}`,
  );
  assert.ok(
    response.labels.some((l) => /^position 2 · integer/.test(l)),
    `labels: ${response.labels.join(' | ')}`,
  );
  const history = api.historyDir();
  assert.ok(history, 'no history folder');
  await doc.save();
}
