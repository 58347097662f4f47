/**
 * Sending: the code lenses above each request, and the commands Send Request, Fetch All
 * Pages, Send All, Cancel and Rerun Last Request. Everything about sending is the sender's
 * send session (server/src/sender/session.ts: the environment, the token, the answers a chain
 * reads); this file asks whether to send a request with errors, shows progress with Cancel,
 * and hands the result to the Response and History views. Copy as cURL and Generate Code are
 * copyCommands.ts's, the history's commands historyCommands.ts's.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { documentScope, LineIndex, type LpreqDocument } from '../../server/src/core/index';
import type { ResponseStore, SendResult, AssertionResult, FileSetup } from '../../server/src/sender/index';
import type { EnvironmentController } from './environmentController';
import type { HistoryView } from './historyView';
import { describeRequest, type RequestInfo } from './model/requestInfo';
import { exchangeOptions, type LpreqSettings } from './model/settings';
import type { RequestRef } from './responsePanel';
import type { ResponsePresenter } from './responsePresenter';
import { runCounts, runSummaryView, type RunOutcome } from './model/runSummary';
import { confirmProtected, load, presentResult, requestAt, sendSession, settingsPath, warnOnce } from './sendSupport';

export class SendController implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly inFlight = new Set<AbortController>();
  /** The request sent last in this window, for Rerun Last Request (Ctrl+Alt+L). */
  private last: { ref: RequestRef; allPages: boolean } | undefined;

  constructor(
    private readonly environments: EnvironmentController,
    private readonly presenter: ResponsePresenter,
    private readonly historyView: HistoryView,
    private readonly settings: () => LpreqSettings,
    private readonly output: vscode.LogOutputChannel,
  ) {}

  refreshLenses(): void {
    this.lensesChanged.fire();
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

  /** Errors of the language server inside a request's lines. */
  private errorsIn(doc: vscode.TextDocument, r: RequestInfo): vscode.Diagnostic[] {
    return vscode.languages
      .getDiagnostics(doc.uri)
      .filter(
        (d) =>
          d.severity === vscode.DiagnosticSeverity.Error &&
          d.range.start.line >= r.startLine &&
          d.range.start.line <= r.endLine,
      );
  }

  /** Asks whether requests with errors are sent anyway; true when they may go (a protected environment is the session's to ask). */
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
    return true;
  }

  /**
   * The session's setup of a document (the environment by the rule, the picker when it cannot
   * decide, the token from secret storage); undefined, with the reason shown, when there is none.
   */
  private async setupOf(doc: vscode.TextDocument): Promise<FileSetup | undefined> {
    const { sender } = await load();
    const session = await sendSession();
    try {
      const setup = await session.setup(settingsPath(doc).file);
      for (const warning of setup.warnings) warnOnce(warning);
      return setup;
    } catch (e) {
      // The user declined to send the token to a new origin: nothing to tell.
      if (e instanceof sender.TokenDeclinedError) return undefined;
      if (!(e instanceof sender.SetupError)) throw e;
      void vscode.window.showErrorMessage(`lpreq: ${e.message}`);
      return undefined;
    }
  }

  async send(uri?: vscode.Uri, line?: number, allPages = false): Promise<void> {
    const t = await requestAt(this.environments, uri, line);
    if (!t) return;
    if (!(await this.confirm(t.doc, [t.request]))) return;
    const setup = await this.setupOf(t.doc);
    if (!setup) return;
    await this.run(describeRequest(t.request), async (signal, progress) => {
      const { result } = await this.sendOne(t.doc, t.parsed, t.request, setup, { allPages, signal, progress });
      if (result.error?.kind === 'prepare' || result.error?.kind === 'dependency') void this.explain(t.doc, result);
    });
  }

  /** Why a request was not sent; for a request it reads the answer of, the action to send that one first. */
  private async explain(doc: vscode.TextDocument, result: SendResult): Promise<void> {
    const error = result.error;
    // The user said no (a protected environment, a note): nothing to tell.
    if (!error || ('declined' in error && error.declined)) return;
    const dependency = error.kind === 'dependency' ? error.dependency : undefined;
    if (!dependency) {
      void vscode.window.showErrorMessage(`lpreq: ${error.message}`);
      return;
    }
    const action = `Send '${dependency.name}' First`;
    if ((await vscode.window.showErrorMessage(`lpreq: ${error.message}`, action)) !== action) return;
    const { requests, checker } = await load();
    const all = requests.parseRequests(checker, doc.getText(), this.environments.environments(doc.uri)).requests;
    const found = all.find((r) => r.name === dependency.name);
    if (found) await this.send(doc.uri, found.line);
  }

  async sendAll(uri?: vscode.Uri): Promise<void> {
    const t = await requestAt(this.environments, uri, 0);
    if (!t) return;
    if (!(await this.confirm(t.doc, t.all))) return;
    const setup = await this.setupOf(t.doc);
    if (!setup) return;
    const started = Date.now();
    const outcomes: RunOutcome[] = [];
    // A protected environment asks once for the whole file, at its first request that changes data.
    const changing = t.all.filter((r) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(r.method.toUpperCase()));
    let asked: Promise<boolean> | undefined;
    const confirmChange = setup.protectedEnvironment
      ? () =>
          (asked ??= confirmProtected(
            `'${setup.selected ?? ''}' is a protected environment. Send ${changing.length === 1 ? `${changing[0].method} '${describeRequest(changing[0])}'` : `${changing.length} requests that change data`} to '${setup.selected ?? ''}'?`,
            'POST, PUT, PATCH and DELETE change data on the server.',
          ))
      : undefined;
    await this.run(
      `${t.all.length} requests`,
      async (signal, progress) => {
        const { sender } = await load();
        const secrets = [setup.token, setup.privateToken, ...setup.foreignTokens];
        for (const [i, r] of t.all.entries()) {
          if (signal.aborted) break;
          progress.report({ message: `${i + 1}/${t.all.length}: ${describeRequest(r)}` });
          const { result, failedAssertions } = await this.sendOne(t.doc, t.parsed, r, setup, {
            allPages: false,
            signal,
            progress,
            confirmChange,
          });
          // A request passes as a test of `lpreq test` passes: a 2xx answer and every `??` assertion held.
          const message =
            result.error?.message ??
            (failedAssertions > 0
              ? `${failedAssertions} assertion${failedAssertions === 1 ? '' : 's'} failed`
              : undefined);
          outcomes.push({
            label: describeRequest(r),
            method: r.method,
            target: r.target,
            status: result.response?.status ?? null,
            errorKind: result.error?.kind,
            // Shown in the view and its body: through the scrubber, as every response text is.
            message:
              message === undefined ? undefined : sender.scrubSecrets(message, [...secrets, ...result.secretValues]),
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
  async rerunLast(newestInHistory: () => Promise<void>): Promise<void> {
    if (this.last) {
      await this.sendAgain(this.last.ref, this.last.allPages);
      return;
    }
    await newestInHistory();
  }

  /** The answers a chain of a document reads in its current environment (the session's, for Copy as cURL). */
  async responsesOf(uri: vscode.Uri): Promise<ResponseStore | undefined> {
    const session = await sendSession();
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString()) ?? { uri };
    const environments = this.environments.environments(uri);
    return session.responses(settingsPath(doc).file, { environments, selected: environments.selected });
  }

  private async sendOne(
    doc: vscode.TextDocument,
    parsed: LpreqDocument,
    r: RequestInfo,
    setup: FileSetup,
    o: {
      allPages: boolean;
      signal: AbortSignal;
      progress: vscode.Progress<{ message?: string }>;
      confirmChange?: () => Promise<boolean>;
    },
  ): Promise<{ result: SendResult; failedAssertions: number }> {
    const { sender, checker } = await load();
    const session = await sendSession();
    const ref: RequestRef = {
      uri: doc.uri,
      line: r.line,
      method: r.method,
      target: r.target,
      name: r.name,
      title: r.title,
    };
    this.last = { ref, allPages: o.allPages };
    const viewKey = this.presenter.key(ref);
    this.presenter.sending(viewKey, { method: r.method, url: r.target }, `Sending '${describeRequest(r)}' …`);
    const started = Date.now();
    // The matches worker starts while the request is on its way.
    sender.readyForAssertions(parsed, r.blockIndex);
    const { result } = await session.send(parsed, r.blockIndex, {
      ...settingsPath(doc),
      setup,
      defaultHeaders: this.settings().defaultHeaders,
      allPages: o.allPages,
      signal: o.signal,
      ...exchangeOptions(this.settings()),
      onPage: (p) => o.progress.report({ message: `page ${p.page}, ${p.items} items` }),
      onDependency: (name) => o.progress.report({ message: `first sending '${name}', which this request refers to` }),
      ...(o.confirmChange ? { confirmChange: o.confirmChange } : {}),
    });
    const sentMs = Date.now() - started;
    const secrets = [setup.token, setup.privateToken, ...setup.foreignTokens, ...result.secretValues];
    // The request's assertions, evaluated as a test run evaluates them (the runner's own step).
    const assertions =
      parsed.blocks[r.blockIndex].block.assertionLines.length > 0 && result.response
        ? await sender.evaluateBlockAssertions(parsed, r.blockIndex, result, {
            checker,
            lines: new LineIndex(parsed.text),
            values: documentScope(parsed, sender.sendingEnvironments(setup.environments)).values,
            system: setup.system,
            responses: session.responses(settingsPath(doc).file, setup),
            secrets: secrets.filter((x): x is string => typeof x === 'string'),
          })
        : undefined;
    await presentResult(this.presenter, viewKey, ref, result, assertions, {
      secrets,
      foreignSecrets: setup.foreignTokens,
      token: setup.token,
      environment: setup.selected,
      tls: sender.environmentOptions(setup.environments)?.tls,
    });
    this.historyView.refresh();
    const status = result.response?.status ?? result.error?.kind ?? 'no response';
    this.output.info(
      `${result.request?.method ?? r.method} ${path.basename(doc.uri.fsPath)}:${r.line + 1} in ${setup.selected ?? 'no environment'} -> ${status} in ${sentMs} ms` +
        `${result.issues.length > 0 ? `, ${result.issues.length} issues` : ''}; shown ${Date.now() - started - sentMs} ms later`,
    );
    return { result, failedAssertions: assertions?.filter((a) => !a.passed).length ?? 0 };
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
    const t = await requestAt(this.environments, uri, line);
    if (!t) return;
    const r = t.request;
    const ref: RequestRef = {
      uri: t.doc.uri,
      line: r.line,
      method: r.method,
      target: r.target,
      name: r.name,
      title: r.title,
    };
    const secrets = [
      o.token,
      await this.environments.keptToken(this.environments.selectedFor(t.doc.uri)),
      ...o.secrets,
      ...(await this.environments.otherTokens(t.doc.uri)),
      ...result.secretValues,
    ];
    await presentResult(this.presenter, this.presenter.key(ref), ref, result, assertions, {
      secrets,
      token: o.token,
      environment: o.environment,
    });
    this.historyView.refresh();
  }

  /**
   * Runs a send with its progress: in a cancellable notification, or, when the response view
   * in the editor says the request is in flight and has its own Cancel, in the status bar.
   * Ctrl+Alt+K cancels too. Sending a whole file keeps the notification (it counts the requests).
   */
  async run(
    title: string,
    task: (signal: AbortSignal, progress: vscode.Progress<{ message?: string }>) => Promise<void>,
    quiet = this.settings().responseView === 'editor',
  ): Promise<void> {
    const controller = new AbortController();
    this.inFlight.add(controller);
    await vscode.commands.executeCommand('setContext', 'lpreq.requestInFlight', true);
    try {
      await vscode.window.withProgress(
        {
          location: quiet ? vscode.ProgressLocation.Window : vscode.ProgressLocation.Notification,
          title: `lpreq: sending ${title}`,
          cancellable: !quiet,
        },
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
      void vscode.window.showWarningMessage(
        `lpreq: the request ${ref.method} ${ref.target} is no longer in ${vscode.workspace.asRelativePath(ref.uri)}.`,
      );
      return;
    }
    await this.send(ref.uri, found.line, allPages);
  }

  dispose(): void {
    this.cancel();
    this.lensesChanged.dispose();
  }
}
