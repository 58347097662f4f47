/**
 * Sending: the commands Send Request, Fetch All Pages, Send All, Cancel and Rerun Last
 * Request (the lenses above each request are requestLenses.ts's, a send's progress and
 * Cancel sendProgress.ts's). Everything about sending is the sender's
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
import type { RequestRef, ShownResponse } from './responsePanel';
import type { ResponsePresenter } from './responsePresenter';
import { runCounts, runOutcome, runSummaryView, runView, type RunOutcome } from './model/runSummary';
import { SendProgress } from './sendProgress';
import {
  confirmProtected,
  load,
  presentResult,
  requestAt,
  sendSession,
  settingsPath,
  shownResult,
  warnOnce,
} from './sendSupport';

/** How long a send waits for the first screen of its answer before the typed check and the history go on. */
const FIRST_SCREEN_WAIT_MS = 3000;

/** An answer just read, typed as the docs will type it (its issues come with the check). */
function expectedType(answer: SendResult): SendResult {
  return { ...answer, resource: answer.ok ? (answer.request?.returns ?? null) : null, issues: [] };
}

export class SendController implements vscode.Disposable {
  private readonly progress = new SendProgress();
  /** The request sent last in this window, for Rerun Last Request (Ctrl+Alt+L). */
  private last: { ref: RequestRef; allPages: boolean } | undefined;

  constructor(
    private readonly environments: EnvironmentController,
    private readonly presenter: ResponsePresenter,
    private readonly historyView: HistoryView,
    private readonly settings: () => LpreqSettings,
    private readonly output: vscode.LogOutputChannel,
  ) {}

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

  /**
   * Send All Requests in File: every request in order, shown as one run in the response view
   * (its list, each exchange selectable in it, and the summary), not a view per request; with
   * the side bar's view, each answer goes to the side bar as it comes.
   */
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
    const exchanges: ShownResponse[] = [];
    const file = path.basename(t.doc.uri.fsPath || t.doc.uri.path);
    const inEditor = this.settings().responseView === 'editor';
    const runKey = `lpreq.run#${t.doc.uri.toString()}`;
    const showRun = (running: boolean) => {
      const summary = runSummaryView(file, outcomes, t.all.length, 0, Date.now() - started, running);
      const list = runView(file, outcomes, t.all.length, null, running);
      this.presenter.panels.showRun(runKey, { list, summary, exchanges });
    };
    await this.run(
      `${t.all.length} requests`,
      async (signal, progress) => {
        const { sender } = await load();
        const secrets = [setup.token, setup.privateToken, ...setup.foreignTokens];
        for (const [i, r] of t.all.entries()) {
          if (signal.aborted) break;
          const what = `${i + 1}/${t.all.length}: ${describeRequest(r)}`;
          progress.report({ message: what });
          if (inEditor) this.presenter.panels.sending(runKey, { method: 'Send All', url: file }, `Sending ${what} …`);
          const { result, failedAssertions, shown } = await this.sendOne(t.doc, t.parsed, r, setup, {
            allPages: false,
            signal,
            progress,
            confirmChange,
            present: !inEditor,
          });
          const scrub = (m: string) => sender.scrubSecrets(m, [...secrets, ...result.secretValues]);
          outcomes.push(runOutcome(r, { ...result, sent: sender.wasSent(result) }, failedAssertions, scrub));
          exchanges.push(shown);
          if (inEditor) showRun(i + 1 < t.all.length && !signal.aborted);
        }
      },
      false,
    );
    const counts = runCounts(outcomes, t.all.length);
    if (inEditor) showRun(false);
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

  /** Sends one request and shows its answer in its own view (unless `present` is false: a run shows it). */
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
      present?: boolean;
    },
  ): Promise<{ result: SendResult; failedAssertions: number; shown: ShownResponse }> {
    const present = o.present ?? true;
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
    if (present)
      this.presenter.sending(
        viewKey,
        { method: r.method, url: r.target, names: r },
        `Sending '${describeRequest(r)}' …`,
      );
    const started = Date.now();
    let bodyArrivedAt: number | undefined;
    let early: ShownResponse | undefined;
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
      // The answer is shown as soon as it is read; its typed check and the history wait for its first screen.
      onAnswer: async (answer) => {
        // When its last byte was read: the exchange ended after reading it (the body parsed, the connection closed).
        const answeredAt = Date.now();
        const t = answer.response?.timing;
        if (t) bodyArrivedAt = Date.now() - Math.max(0, t.totalMs - (t.firstByteMs ?? 0) - (t.downloadMs ?? 0));
        if (!present) return;
        early = await shownResult(viewKey, ref, expectedType(answer), undefined, {
          secrets: [setup.token, setup.privateToken, ...setup.foreignTokens, ...answer.secretValues],
          foreignSecrets: setup.foreignTokens,
          token: setup.token,
          environment: setup.selected,
          tls: sender.environmentOptions(setup.environments)?.tls,
        });
        early.bodyArrivedAt = bodyArrivedAt;
        early.answeredAt = answeredAt;
        early.checking = answer.ok;
        this.presenter.show(early);
        await this.presenter.drawn(viewKey, FIRST_SCREEN_WAIT_MS);
      },
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
    const shown = await shownResult(viewKey, ref, result, assertions, {
      secrets,
      foreignSecrets: setup.foreignTokens,
      token: setup.token,
      environment: setup.selected,
      tls: sender.environmentOptions(setup.environments)?.tls,
    });
    shown.bodyArrivedAt = bodyArrivedAt;
    if (present && early) this.presenter.update(early, shown);
    else if (present) this.presenter.show(shown);
    this.historyView.refresh();
    const status = result.response?.status ?? result.error?.kind ?? 'no response';
    this.output.info(
      `${result.request?.method ?? r.method} ${path.basename(doc.uri.fsPath)}:${r.line + 1} in ${setup.selected ?? 'no environment'} -> ${status} in ${sentMs} ms` +
        `${result.issues.length > 0 ? `, ${result.issues.length} issues` : ''}; shown ${Date.now() - started - sentMs} ms later`,
    );
    return { result, failedAssertions: assertions?.filter((a) => !a.passed).length ?? 0, shown };
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

  /** Runs a send with its progress and Cancel (sendProgress.ts). */
  run(
    title: string,
    task: (signal: AbortSignal, progress: vscode.Progress<{ message?: string }>) => Promise<void>,
    quiet = this.settings().responseView === 'editor',
  ): Promise<void> {
    return this.progress.run(title, task, quiet);
  }

  cancel(): void {
    this.progress.cancel();
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
  }
}
