/**
 * Sending: the code lenses above each request, and the commands Send Request, Fetch All
 * Pages, Send All, Cancel and Copy as cURL. Everything about sending is the sender's
 * (server/src/sender); this file asks the questions (errors, protected environments),
 * shows progress with Cancel, and hands the result to the Response and History views.
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { bodyFileReader, readBodyFile, workspaceFolder, type TlsSettings } from '../../server/src/node/index';
import { Checker, documentScope, LineIndex, promptVariables, requestName, targetPath, type LpreqDocument, own } from '../../server/src/core/index';
import type { ResponseStore, HistoryStore, SendResult, BodyFileRead, PreparedRequest, CodeLanguage, AssertionResult } from '../../server/src/sender/index';
import type { EnvironmentController } from './environmentController';
import type { HistoryView } from './historyView';
import { needsConfirmation } from './model/environments';
import { describeRequest, type RequestInfo } from './model/requestInfo';
import { exchangeOptions, type LpreqSettings } from './model/settings';
import type { RequestRef, ShownResponse } from './responsePanel';
import type { ResponsePresenter } from './responsePresenter';
import { runCounts, runSummaryView, type RunOutcome } from './model/runSummary';

type SenderModule = typeof import('../../server/src/sender/index');
type RequestsModule = typeof import('./model/requests');
type SendResultModule = typeof import('./model/sendResult');
type TreeModule = typeof import('./model/responseTree');

interface Loaded {
  sender: SenderModule;
  requests: RequestsModule;
  results: SendResultModule;
  trees: TreeModule;
  checker: Checker;
}

/** The sender and the catalog are loaded on first use, not at activation (the core's code runs at activation: the environments use its own-property lookups). */
let loading: Promise<Loaded> | undefined;
export function load(): Promise<Loaded> {
  loading ??= (async () => {
    const [sender, requests, results, trees, catalog] = await Promise.all([
      import('../../server/src/sender/index'),
      import('./model/requests'),
      import('./model/sendResult'),
      import('./model/responseTree'),
      import('../../server/src/catalogData'),
    ]);
    return { sender, requests, results, trees, checker: new Checker(catalog.bundledCatalog()) };
  })();
  return loading;
}

export class SendController implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  /** Responses by request name, per document, for `{{name.response...}}` chaining. */
  private readonly responses = new Map<string, ResponseStore>();
  private readonly inFlight = new Set<AbortController>();
  /** The request sent last in this window, for Rerun Last Request (Ctrl+Alt+L). */
  private last: { ref: RequestRef; allPages: boolean } | undefined;

  constructor(
    private readonly environments: EnvironmentController,
    private readonly presenter: ResponsePresenter,
    private readonly historyView: HistoryView,
    private readonly settings: () => LpreqSettings,
    private readonly history: () => HistoryStore | undefined,
    private readonly output: vscode.LogOutputChannel,
  ) {}

  refreshLenses(): void {
    this.lensesChanged.fire();
  }

  async provideCodeLenses(document: vscode.TextDocument, token: vscode.CancellationToken): Promise<vscode.CodeLens[]> {
    if (!this.settings().showCodeLens) return [];
    const { requests, checker } = await load();
    if (token.isCancellationRequested) return [];
    const { requests: list } = requests.parseRequests(checker, document.getText(), this.environments.environments(document.uri));
    const lenses: vscode.CodeLens[] = [];
    for (const r of list) {
      const range = new vscode.Range(r.line, 0, r.line, 0);
      const args = [document.uri, r.line];
      lenses.push(
        new vscode.CodeLens(range, { title: '$(play) Send Request', command: 'lpreq.sendRequest', arguments: args, tooltip: 'Send this request (Ctrl+Alt+R)' }),
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

  /** The document and request a command is about: the code lens's, or the cursor's. */
  private async target(
    uri?: vscode.Uri,
    line?: number,
  ): Promise<{ doc: vscode.TextDocument; parsed: LpreqDocument; request: RequestInfo; all: RequestInfo[] } | undefined> {
    const editor = vscode.window.activeTextEditor;
    const doc = uri instanceof vscode.Uri ? await vscode.workspace.openTextDocument(uri) : editor?.document;
    if (!doc || doc.languageId !== 'lpreq') {
      void vscode.window.showWarningMessage('lpreq: open a .lpreq file and put the cursor in a request.');
      return undefined;
    }
    const { requests, checker } = await load();
    const { document: parsed, requests: all } = requests.parseRequests(checker, doc.getText(), this.environments.environments(doc.uri));
    const at = typeof line === 'number' ? line : editor && editor.document === doc ? editor.selection.active.line : 0;
    const request = requests.requestAtLine(all, at);
    if (!request) {
      void vscode.window.showWarningMessage('lpreq: this file has no request (a line like GET /api/v1/courses).');
      return undefined;
    }
    return { doc, parsed, request, all };
  }

  /** Errors of the language server inside a request's lines. */
  private errorsIn(doc: vscode.TextDocument, r: RequestInfo): vscode.Diagnostic[] {
    return vscode.languages
      .getDiagnostics(doc.uri)
      .filter((d) => d.severity === vscode.DiagnosticSeverity.Error && d.range.start.line >= r.startLine && d.range.start.line <= r.endLine);
  }

  /** Asks about errors and protected environments; true when the requests may go. */
  private async confirm(doc: vscode.TextDocument, list: RequestInfo[]): Promise<boolean> {
    if (this.settings().confirmSendWithErrors) {
      const withErrors = list.map((r) => ({ r, errors: this.errorsIn(doc, r) })).filter((x) => x.errors.length > 0);
      if (withErrors.length > 0) {
        const first = withErrors[0];
        const detail =
          withErrors.length === 1
            ? `${first.errors.length} ${first.errors.length === 1 ? 'error' : 'errors'}, the first: ${first.errors[0].message}`
            : `${withErrors.length} requests have errors; the first, '${describeRequest(first.r)}': ${first.errors[0].message}`;
        const answer = await vscode.window.showWarningMessage(
          withErrors.length === 1
            ? `The request '${describeRequest(first.r)}' still has errors. Send it anyway?`
            : 'Some requests still have errors. Send them anyway?',
          { modal: true, detail },
          'Send Anyway',
        );
        if (answer !== 'Send Anyway') return false;
      }
    }
    const env = this.environments.selected;
    const changing = list.filter((r) => needsConfirmation(r.method, this.environments.isProtected(doc.uri)));
    if (changing.length > 0) {
      const what = changing.length === 1 ? `${changing[0].method} '${describeRequest(changing[0])}'` : `${changing.length} requests that change data`;
      return confirmProtected(
        `'${env ?? ''}' is a protected environment. Send ${what} to '${env ?? ''}'?`,
        'POST, PUT, PATCH and DELETE change data on the server.',
      );
    }
    return true;
  }

  async send(uri?: vscode.Uri, line?: number, allPages = false): Promise<void> {
    const t = await this.target(uri, line);
    if (!t) return;
    if (!(await this.confirm(t.doc, [t.request]))) return;
    await this.run(describeRequest(t.request), async (signal, progress) => {
      const { result } = await this.sendOne(t.doc, t.parsed, t.request, { allPages, signal, progress });
      if (result.error?.kind === 'prepare' || result.error?.kind === 'dependency') void vscode.window.showErrorMessage(`lpreq: ${result.error.message}`);
    });
  }

  async sendAll(uri?: vscode.Uri): Promise<void> {
    const t = await this.target(uri, 0);
    if (!t) return;
    if (!(await this.confirm(t.doc, t.all))) return;
    const started = Date.now();
    const outcomes: RunOutcome[] = [];
    await this.run(
      `${t.all.length} requests`,
      async (signal, progress) => {
        const { sender } = await load();
        const secrets = [await this.environments.token(), ...(await this.environments.otherTokens(t.doc.uri))];
        for (const [i, r] of t.all.entries()) {
          if (signal.aborted) break;
          progress.report({ message: `${i + 1}/${t.all.length}: ${describeRequest(r)}` });
          const { result, failedAssertions } = await this.sendOne(t.doc, t.parsed, r, { allPages: false, signal, progress });
          // A request passes as a test of `lpreq test` passes: a 2xx answer and every `??` assertion held.
          const message =
            result.error?.message ?? (failedAssertions > 0 ? `${failedAssertions} assertion${failedAssertions === 1 ? '' : 's'} failed` : undefined);
          outcomes.push({
            label: describeRequest(r),
            method: r.method,
            target: r.target,
            status: result.response?.status ?? null,
            errorKind: result.error?.kind,
            // Shown in the view and its body: through the scrubber, as every response text is.
            message: message === undefined ? undefined : sender.scrubSecrets(message, [...secrets, ...result.secretValues]),
            sent: sender.wasSent(result),
            ok: result.ok && failedAssertions === 0,
            durationMs: result.response?.durationMs ?? 0,
          });
        }
      },
      false,
    );
    const counts = runCounts(outcomes, t.all.length);
    const file = path.basename(t.doc.uri.fsPath || t.doc.uri.path);
    if (this.settings().responseView === 'editor') {
      const { view, text } = runSummaryView(file, outcomes, t.all.length, 0, Date.now() - started);
      this.presenter.panels.showView(`lpreq.run#${t.doc.uri.toString()}`, view, text);
    }
    void vscode.window.showInformationMessage(
      `lpreq: ${file}: ${counts.sent} of ${counts.total} requests sent: ${counts.passed} passed, ${counts.failed} failed${counts.cancelled > 0 ? `, ${counts.cancelled} cancelled` : ''}.`,
    );
  }

  /**
   * Rerun Last Request (Ctrl+Alt+L), as in REST Client: the request sent last in this window,
   * read again from its file as it is now; after a restart, the newest exchange of the history.
   */
  async rerunLast(): Promise<void> {
    if (this.last) {
      await this.sendAgain(this.last.ref, this.last.allPages);
      return;
    }
    const [newest] = (await this.history()?.list(1)) ?? [];
    if (!newest) {
      void vscode.window.showInformationMessage('lpreq: nothing was sent yet, so there is no last request to send again.');
      return;
    }
    await this.resend(newest.id);
  }

  /**
   * The history as a quick pick (Ctrl+Alt+H): picking an entry shows its answer in the
   * response view; the entry's button, or Alt+Enter, sends it again.
   */
  async pickHistory(): Promise<void> {
    const store = this.history();
    if (!store) {
      void vscode.window.showInformationMessage('lpreq: the history is off (lpreq.historySize is 0).');
      return;
    }
    const { historyItems } = await import('./model/history');
    const rerun: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('debug-rerun'), tooltip: 'Send Again' };
    const icons: Record<string, string> = { pass: 'pass', warning: 'warning', error: 'error', cancelled: 'circle-slash' };
    type Item = vscode.QuickPickItem & { id: string };
    const items: Item[] = historyItems(await store.list()).map((h) => ({
      id: h.id,
      label: `$(${icons[h.icon] ?? 'circle-outline'}) ${h.label}`,
      description: h.description,
      detail: h.tooltip.split('\n').find((l) => /^[A-Z]+ \S+:\/\//.test(l)),
      buttons: [rerun],
    }));
    if (items.length === 0) {
      void vscode.window.showInformationMessage('lpreq: the history is empty: send a request first.');
      return;
    }
    const pick = vscode.window.createQuickPick<Item>();
    pick.title = 'lpreq: History';
    pick.placeholder = 'Show an answer (Enter), or send the request again (the button at the right of an entry)';
    pick.matchOnDescription = true;
    pick.matchOnDetail = true;
    pick.items = items;
    const chosen = await new Promise<{ id: string; again: boolean } | undefined>((resolve) => {
      pick.onDidTriggerItemButton((e) => {
        resolve({ id: e.item.id, again: true });
        pick.hide();
      });
      pick.onDidAccept(() => {
        const item = pick.selectedItems[0] ?? pick.activeItems[0];
        resolve(item ? { id: item.id, again: false } : undefined);
        pick.hide();
      });
      pick.onDidHide(() => resolve(undefined));
      pick.show();
    });
    pick.dispose();
    if (!chosen) return;
    if (chosen.again) await this.resend(chosen.id);
    else await this.showHistoryEntry(chosen.id);
  }

  private async sendOne(
    doc: vscode.TextDocument,
    parsed: LpreqDocument,
    r: RequestInfo,
    o: { allPages: boolean; signal: AbortSignal; progress: vscode.Progress<{ message?: string }> },
  ): Promise<{ result: SendResult; failedAssertions: number }> {
    const { sender, checker } = await load();
    const key = doc.uri.toString();
    let responses = this.responses.get(key);
    if (!responses) {
      responses = new Map();
      this.responses.set(key, responses);
    }
    const ref: RequestRef = { uri: doc.uri, line: r.line, method: r.method, target: r.target, name: r.name, title: r.title };
    this.last = { ref, allPages: o.allPages };
    const viewKey = this.presenter.key(ref);
    this.presenter.sending(viewKey, { method: r.method, url: r.target }, `Sending '${describeRequest(r)}' …`);
    const token = await this.environments.token();
    const foreignSecrets = await this.environments.otherTokens(doc.uri);
    const environments = this.environments.environments(doc.uri);
    const started = Date.now();
    const system = systemContext(doc, sender.parseDotenv);
    const result = await sender.sendBlock(parsed, r.blockIndex, {
      checker,
      environments,
      token,
      // The tokens kept for the other environments go nowhere from this one.
      foreignSecrets,
      responses,
      system,
      readFile: (file, encoding) => this.readBodyFileOf(doc, file, encoding),
      history: this.history(),
      file: doc.uri.scheme === 'file' ? doc.uri.fsPath : undefined,
      defaultHeaders: this.settings().defaultHeaders,
      allPages: o.allPages,
      signal: o.signal,
      ...exchangeOptions(this.settings()),
      onPage: (p) => o.progress.report({ message: `page ${p.page}, ${p.items} items` }),
      onDependency: (name) => o.progress.report({ message: `first sending '${name}', which this request refers to` }),
      ask: askPrompt,
      confirmNote: async (q) =>
        (await vscode.window.showWarningMessage(`${q.request} is marked @note. Send it?`, { modal: true, detail: q.note || undefined }, 'Send')) === 'Send',
    });
    const sentMs = Date.now() - started;
    const secrets = [token, ...foreignSecrets, ...result.secretValues];
    // The request's assertions, evaluated as a test run evaluates them (the runner's own step).
    const assertions =
      parsed.blocks[r.blockIndex].block.assertionLines.length > 0 && result.response
        ? sender.evaluateBlockAssertions(parsed, r.blockIndex, result, {
            checker,
            lines: new LineIndex(parsed.text),
            values: documentScope(parsed, environments).values,
            system,
            responses,
            secrets: secrets.filter((x): x is string => typeof x === 'string'),
          })
        : undefined;
    await this.present(viewKey, ref, result, assertions, { secrets, token, environment: environments.selected });
    this.historyView.refresh();
    const status = result.response?.status ?? result.error?.kind ?? 'no response';
    this.output.info(
      `${result.request?.method ?? r.method} ${path.basename(doc.uri.fsPath)}:${r.line + 1} -> ${status} in ${sentMs} ms` +
        `${result.issues.length > 0 ? `, ${result.issues.length} issues` : ''}; shown ${Date.now() - started - sentMs} ms later`,
    );
    return { result, failedAssertions: assertions?.filter((a) => !a.passed).length ?? 0 };
  }

  /** A response in the view (its summary scrubbed of every secret given), typed by the docs when it is a success. */
  private async present(
    viewKey: string,
    ref: RequestRef,
    result: SendResult,
    assertions: AssertionResult[] | undefined,
    o: { secrets: (string | undefined)[]; token: string | undefined; environment: string | undefined },
  ): Promise<void> {
    const { sender, results, trees, checker } = await load();
    const summary = results.summaryFromSend(result, { method: ref.method, url: ref.target }, (text) => sender.scrubSecrets(text, o.secrets), assertions);
    // Only a success answer is typed by the docs: an error body is not the documented resource.
    const returns = result.ok ? result.resource : null;
    const describe = (p: string) => sender.describeAt(checker.catalog, returns, p);
    this.presenter.show({
      key: viewKey,
      summary,
      tree: new trees.ResponseTree(summary, describe, this.nextIdPrefix()),
      describe,
      environment: o.environment,
      tokenSet: o.token !== undefined && o.token.length > 0,
      ref,
      prepared: result.request,
      curlSecrets: o.secrets.filter((x): x is string => typeof x === 'string' && x !== o.token),
    });
  }

  /**
   * An exchange of a test run (the Testing view) in the response view, with its assertion
   * results, as Send Request shows its own: the same view of the request, scrubbed the same way.
   */
  async showExchange(
    uri: vscode.Uri,
    line: number,
    result: SendResult,
    assertions: AssertionResult[],
    o: { environment: string | undefined; token: string | undefined; secrets: string[] },
  ): Promise<void> {
    const t = await this.target(uri, line);
    if (!t) return;
    const r = t.request;
    const ref: RequestRef = { uri: t.doc.uri, line: r.line, method: r.method, target: r.target, name: r.name, title: r.title };
    const secrets = [o.token, await this.environments.token(), ...o.secrets, ...(await this.environments.otherTokens(t.doc.uri)), ...result.secretValues];
    await this.present(this.presenter.key(ref), ref, result, assertions, { secrets, token: o.token, environment: o.environment });
    this.historyView.refresh();
  }

  /**
   * Runs a send with its progress: in a cancellable notification, or, when the response view
   * in the editor says the request is in flight and has its own Cancel, in the status bar.
   * Ctrl+Alt+K cancels too. Sending a whole file keeps the notification (it counts the requests).
   */
  private async run(
    title: string,
    task: (signal: AbortSignal, progress: vscode.Progress<{ message?: string }>) => Promise<void>,
    quiet = this.settings().responseView === 'editor',
  ): Promise<void> {
    const controller = new AbortController();
    this.inFlight.add(controller);
    await vscode.commands.executeCommand('setContext', 'lpreq.requestInFlight', true);
    try {
      await vscode.window.withProgress(
        { location: quiet ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification, title: `lpreq: sending ${title}`, cancellable: !quiet },
        async (progress, cancel) => {
          cancel.onCancellationRequested(() => controller.abort());
          await task(controller.signal, progress);
        },
      );
    } finally {
      this.inFlight.delete(controller);
      if (this.inFlight.size === 0) await vscode.commands.executeCommand('setContext', 'lpreq.requestInFlight', false);
    }
  }

  cancel(): void {
    for (const c of this.inFlight) c.abort();
  }

  /**
   * The request at the code lens or cursor, prepared as it would be sent (its prompts asked),
   * with the token and every secret it may carry, for a copied command or generated code.
   */
  private async prepareForCopy(
    uri?: vscode.Uri,
    line?: number,
  ): Promise<{ prepared: PreparedRequest; token: string | undefined; secrets: string[]; sender: SenderModule; tls: TlsSettings | undefined } | undefined> {
    const t = await this.target(uri, line);
    if (!t) return undefined;
    const { sender, checker } = await load();
    const responses = this.responses.get(t.doc.uri.toString());
    const block = t.parsed.blocks[t.request.blockIndex].block;
    const prompts = new Map<string, string>();
    for (const p of promptVariables(block)) {
      const value = await askPrompt({
        name: p.name,
        description: p.description,
        request: requestName(block) ?? `${t.request.method} ${t.request.target}`,
        secret: sender.isSecretPrompt(p.name),
      });
      if (value === undefined) return undefined;
      prompts.set(p.name, value);
    }
    const environments = this.environments.environments(t.doc.uri);
    const prepared = sender.prepareRequest(checker, t.parsed, t.request.blockIndex, {
      environments,
      system: systemContext(t.doc, sender.parseDotenv),
      readFile: (file, encoding) => this.readBodyFileOf(t.doc, file, encoding),
      reference: (ref) => sender.referenceValue(ref, responses?.get(ref.name)),
      prompts,
      defaultHeaders: this.settings().defaultHeaders,
    });
    if (!prepared.ok) {
      void vscode.window.showErrorMessage(`lpreq: ${prepared.error}`);
      return undefined;
    }
    // The token and every secret the request carries ({{token}}, {{$processEnv LPREQ_TOKEN}}, a
    // password prompt's answer, another environment's token) are known, so that the command
    // without the token holds none of them.
    const token = await this.environments.token();
    const secrets = [...prepared.secrets, ...prepared.foreignSecrets, ...(await this.environments.otherTokens(t.doc.uri))];
    return { prepared: prepared.request, token, secrets, sender, tls: sender.environmentOptions(environments)?.tls };
  }

  /**
   * "Generate Code": the request as a fetch (JavaScript) or Python requests program, which
   * reads the token from LPREQ_TOKEN when it runs; the token is never written into it.
   */
  async generateCode(uri?: vscode.Uri, line?: number, language?: unknown): Promise<{ name: string; text: string } | undefined> {
    let chosen: CodeLanguage | undefined = language === 'javascript' || language === 'python' ? language : undefined;
    if (!chosen) {
      const picked = await vscode.window.showQuickPick(
        [
          { label: 'JavaScript (fetch)', language: 'javascript' as const, description: 'Node 18 or later, or a browser' },
          { label: 'Python (requests)', language: 'python' as const, description: 'pip install requests' },
        ],
        { title: 'lpreq: Generate Code', placeHolder: 'The language of the program; it reads the token from LPREQ_TOKEN when it runs' },
      );
      chosen = picked?.language;
    }
    if (!chosen) return undefined;
    const copy = await this.prepareForCopy(uri, line);
    if (!copy) return undefined;
    const text = copy.sender.toCode(copy.prepared, chosen, { token: copy.token, secrets: copy.secrets });
    const what = (copy.prepared.title ?? copy.prepared.name ?? `${copy.prepared.method} ${path.posix.basename(new URL(copy.prepared.url).pathname)}`).replace(
      /[\\/:*?"<>|\r\n]+/g,
      ' ',
    );
    return { name: `${what.trim() || copy.prepared.method}.${chosen === 'javascript' ? 'mjs' : 'py'}`, text };
  }

  async copyAsCurl(uri?: vscode.Uri, line?: number, withToken = false): Promise<void> {
    const copy = await this.prepareForCopy(uri, line);
    if (!copy) return;
    const { prepared, token, secrets, sender, tls } = copy;
    if (withToken) {
      if (!token) {
        void vscode.window.showWarningMessage('lpreq: no access token is set for this environment; run "lpreq: Set Access Token" first.');
        return;
      }
      await vscode.env.clipboard.writeText(sender.toCurl(prepared, { includeToken: true, token, secrets, tls }));
      void vscode.window.showWarningMessage(
        'lpreq: the curl command on the clipboard contains the access token (and any other secret the request carries). Do not paste it where others can read it.',
      );
      return;
    }
    const command = sender.toCurl(prepared, { token, secrets, tls });
    await vscode.env.clipboard.writeText(command);
    void vscode.window.showInformationMessage(
      `lpreq: curl command copied. It reads the token from $LPREQ_TOKEN when it runs${command.includes('***') ? '; the other secrets the request carries are written ***' : ''}.`,
    );
  }

  /** Sends a stored exchange again, to the URL it went to; the token is the chosen environment's. */
  async resend(historyId: string): Promise<void> {
    const store = this.history();
    if (!store) return;
    const { sender, checker, results, trees } = await load();
    const entry = await store.get(historyId);
    if (!entry) {
      void vscode.window.showWarningMessage('lpreq: that exchange is no longer in history.');
      return;
    }
    const { requestFromEntry } = await import('./model/history');
    const target = targetPath(entry.request.url, () => undefined);
    const match = target ? checker.matcher.match(target, entry.request.method) : undefined;
    const envs = this.environments.environments();
    const base = envs.selected ? own(envs.environments, envs.selected)?.base_url : undefined;
    let tokenOrigin: string | undefined;
    try {
      tokenOrigin = base ? new URL(base).origin : undefined;
    } catch {
      tokenOrigin = undefined;
    }
    const rebuilt = requestFromEntry(entry, { ...sender.endpointFacts(match?.kind === 'matched' ? match.endpoint : undefined), tokenOrigin }, (file) => {
      // The body file is read again under the rule it was first read by: from inside the workspace of its request file.
      if (entry.file === undefined) return { error: 'the request file it was sent from is not known, so its workspace is not either' };
      const read = readBodyFile(file, undefined, workspaceFolder(entry.file, this.environments.environmentFiles(vscode.Uri.file(entry.file))));
      return 'error' in read ? read : { bytes: read.bytes ?? Buffer.from(read.text, 'utf8') };
    });
    if ('error' in rebuilt) {
      void vscode.window.showErrorMessage(`lpreq: cannot send it again: ${rebuilt.error}`);
      return;
    }
    const prepared = rebuilt;
    if (needsConfirmation(prepared.method, this.environments.isProtected())) {
      const env = envs.selected ?? '';
      if (!(await confirmProtected(`'${env}' is a protected environment. Send ${prepared.method} ${prepared.url} to '${env}' again?`))) return;
    }
    const key = this.presenter.key(undefined);
    this.presenter.sending(key, prepared, `Sending ${prepared.method} ${prepared.url} again …`);
    await this.run(`${prepared.method} ${prepared.url}`, async (signal) => {
      const token = await this.environments.token();
      const foreignSecrets = await this.environments.otherTokens();
      // The chosen environment's `$tls`, as for any send.
      const tls = sender.environmentTls(envs);
      if ('error' in tls) {
        void vscode.window.showErrorMessage(`lpreq: not sent: ${tls.error}`);
        return;
      }
      const response = await sender.sendAllPages(prepared, { ...exchangeOptions(this.settings()), token, foreignSecrets, signal, maxPages: 1, tls: tls.tls });
      const scrub = (text: string) => sender.scrubSecrets(text, [token, ...foreignSecrets]);
      const typed = response.ok
        ? sender.checkResponse(checker.catalog, prepared.returns, response.bodyKind === 'empty' ? null : response.body, scrub)
        : { resource: null, issues: [] };
      const result: SendResult = {
        ok: response.ok,
        request: prepared,
        response,
        resource: typed.resource,
        issues: typed.issues,
        error: response.error,
        warnings: response.warnings,
        diagnostics: [],
        dependencies: [],
        secretValues: [],
      };
      await store.add(
        sender.entryFromExchange(prepared, response, {
          file: entry.file,
          environment: envs.selected,
          resource: typed.resource,
          issues: typed.issues,
          secrets: [token, ...foreignSecrets],
          resent: true,
        }),
      );
      const summary = results.summaryFromSend(result, prepared, scrub);
      const describe = (p: string) => sender.describeAt(checker.catalog, response.ok ? typed.resource : null, p);
      this.presenter.show({
        key: this.presenter.key(undefined),
        summary,
        tree: new trees.ResponseTree(summary, describe, this.nextIdPrefix()),
        describe,
        environment: envs.selected,
        tokenSet: token !== undefined && token.length > 0,
        prepared,
        curlSecrets: foreignSecrets,
      });
      this.historyView.refresh();
    });
  }

  /** A body file (`< ./body.json`), relative to the request file's folder and inside its workspace, as the command line reads it. */
  private readBodyFileOf(doc: vscode.TextDocument, file: string, encoding: string | undefined): BodyFileRead {
    if (doc.uri.scheme !== 'file') return { error: 'an unsaved request file has no folder to read it from' };
    return bodyFileReader(doc.uri.fsPath, this.environments.environmentFiles(doc.uri))(file, encoding);
  }

  async showHistoryEntry(historyId: string): Promise<void> {
    const store = this.history();
    const entry = await store?.get(historyId);
    if (!entry) return;
    const { sender, results, trees, checker } = await load();
    // Stored without the token already; scrubbed again with the tokens known now.
    const secrets = [await this.environments.token(), ...(await this.environments.otherTokens())];
    const summary = results.summaryFromHistory(entry, (text) => sender.scrubSecrets(text, secrets));
    const { localTime } = await import('./model/history');
    const ok = entry.status !== null && entry.status >= 200 && entry.status < 300;
    const describe = (p: string) => sender.describeAt(checker.catalog, ok ? (entry.resource ?? null) : null, p);
    this.presenter.show(
      {
        key: this.presenter.key(undefined),
        summary,
        tree: new trees.ResponseTree(summary, describe, this.nextIdPrefix()),
        describe,
        environment: entry.environment,
        tokenSet: true,
        fromHistory: localTime(entry.time, Date.now()),
      },
      true,
    );
  }

  /** Sends the request a response view shows again, found in its file by name, title or request line. */
  async sendAgain(ref: RequestRef, allPages = false): Promise<void> {
    const doc = await vscode.workspace.openTextDocument(ref.uri);
    const { requests, checker } = await load();
    const { requests: all } = requests.parseRequests(checker, doc.getText(), this.environments.environments(doc.uri));
    const found =
      (ref.name !== undefined ? all.find((r) => r.name === ref.name) : undefined) ??
      (ref.title !== undefined ? all.find((r) => r.title === ref.title) : undefined) ??
      all.find((r) => r.method === ref.method && r.target === ref.target) ??
      requests.requestAtLine(all, ref.line);
    if (!found) {
      void vscode.window.showWarningMessage(`lpreq: the request ${ref.method} ${ref.target} is no longer in ${vscode.workspace.asRelativePath(ref.uri)}.`);
      return;
    }
    await this.send(ref.uri, found.line, allPages);
  }

  /** "Copy as cURL" of a response view: the request as it was prepared, the token read from $LPREQ_TOKEN. */
  async copyCurlOf(shown: ShownResponse): Promise<void> {
    if (!shown.prepared) return;
    const { sender } = await load();
    const token = await this.environments.token();
    await vscode.env.clipboard.writeText(sender.toCurl(shown.prepared, { token, secrets: shown.curlSecrets ?? [] }));
    void vscode.window.showInformationMessage('lpreq: curl command copied. It reads the token from $LPREQ_TOKEN when it runs.');
  }

  private generation = 0;

  /** A prefix for the node ids of the next tree, so that a new response starts collapsed as it should. */
  private nextIdPrefix(): string {
    return `g${++this.generation}`;
  }

  dispose(): void {
    this.cancel();
    this.lensesChanged.dispose();
  }
}

/**
 * The confirmation of a request that changes data in a protected environment: a modal whose
 * first button, the one focused and pressed by Enter, is Cancel. VS Code's modal always adds a
 * button of its own for Escape, which the first item cannot be; it is named Don't Send (as
 * Save, Don't Save, Cancel), so that no two buttons read the same.
 */
export async function confirmProtected(message: string, detail?: string): Promise<boolean> {
  const cancel: vscode.MessageItem = { title: 'Cancel' };
  const send: vscode.MessageItem = { title: 'Send' };
  const close: vscode.MessageItem = { title: "Don't Send", isCloseAffordance: true };
  const answer = await vscode.window.showWarningMessage(message, { modal: true, detail }, cancel, send, close);
  return answer === send;
}

/** Asks for a prompt variable (`# @prompt name description`) as REST Client does; undefined when the user cancels. */
export async function askPrompt(q: { name: string; description: string; request: string; secret: boolean }): Promise<string | undefined> {
  return await vscode.window.showInputBox({
    title: `lpreq: ${q.request} asks for {{${q.name}}}`,
    prompt: q.description || `The value of {{${q.name}}} for this request`,
    placeHolder: q.name,
    password: q.secret,
    ignoreFocusOut: true,
  });
}

/**
 * What system variables read when the editor sends: the extension host's environment
 * (`{{$processEnv NAME}}`, `{{$env.NAME}}`), the `.env` file beside the request file
 * (`{{$dotenv NAME}}`) and the workspace folder (`{{$projectRoot}}`), as the command line does.
 */
export function systemContext(doc: { uri: vscode.Uri }, parseDotenv: (text: string) => Record<string, string>) {
  let dotenv: Record<string, string> = {};
  if (doc.uri.scheme === 'file') {
    try {
      dotenv = parseDotenv(readFileSync(path.join(path.dirname(doc.uri.fsPath), '.env'), 'utf8'));
    } catch {
      // No .env file: {{$dotenv NAME}} stays unresolved and says so.
    }
  }
  const folder = vscode.workspace.getWorkspaceFolder(doc.uri);
  return { processEnv: process.env, dotenv, projectRoot: folder?.uri.fsPath ?? (doc.uri.scheme === 'file' ? path.dirname(doc.uri.fsPath) : undefined) };
}
