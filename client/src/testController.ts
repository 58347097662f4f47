/**
 * The Test Explorer (VS Code's Testing API): the workspace's request files, their requests
 * (every one, as `lpreq test` counts them) and each assertion under its request, run with the
 * sender's runner and the send session, as `lpreq test` runs them: the same files in the same
 * order (the order `lpreq test <folder>` walks them), every request of a file that runs whole,
 * one mock for the whole run, so that both give the same verdicts; snapshots are kept beside
 * each file as `lpreq test` keeps them (the session's test source). Three run profiles: against
 * the project's environment (the session's rule; the picker when it cannot decide; the token
 * from secret storage; a protected environment asked once a run), against the built-in mock,
 * started in this process as `lpreq test --mock` starts it (server/src/mockRun.ts), with the
 * project's environment lending its variables over the mock's, and with snapshots updated
 * (`--update-snapshots`). What a result becomes is model/testResults.ts; this file only speaks
 * to VS Code. Files a `.lpreqtestignore` leaves out of `lpreq test <folder>` are left out here
 * too (the same code, walking from each workspace folder).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readConfinedText, TestIgnore } from '../../server/src/node/index';
import { parseDocument, LineIndex } from '../../server/src/core/index';
import type {
  AssertionResult,
  FileSetup,
  RequestResult,
  RunOptions,
  SendResult,
  TestSource,
} from '../../server/src/sender/index';
import {
  assertionOutcome,
  requestOutcome,
  runPlan,
  testRequests,
  type Outcome,
  type TestRequest,
  type WantedFile,
} from './model/testResults';
import { exchangeOptions, type LpreqSettings } from './model/settings';
import { confirmProtected, load, sendSession } from './sendSupport';

const FILES = '**/*.lpreq';
const NOT_WALKED = '**/{node_modules,.git}/**';

/** A test's exchange in a run, and what the response view needs to show it scrubbed. */
interface Exchange {
  uri: vscode.Uri;
  /** The request line, from 0. */
  line: number;
  result: SendResult;
  assertions: AssertionResult[];
  environment: string | undefined;
  token: string | undefined;
  secrets: string[];
}

/** Where a test item stands: its file, and the request it runs (none for a file). */
interface ItemData {
  uri: vscode.Uri;
  request?: TestRequest;
}

export class TestExplorer implements vscode.Disposable {
  private readonly controller = vscode.tests.createTestController('lpreq', 'lpreq requests');
  private readonly data = new WeakMap<vscode.TestItem, ItemData>();
  private readonly disposables: vscode.Disposable[] = [];
  private ignore = new TestIgnore();
  private discovered = false;
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly mockProfile: vscode.TestRunProfile;
  /** Each request item's exchange in its last run: what "Show Response" shows (its next run replaces it). */
  private readonly exchanges = new WeakMap<vscode.TestItem, Exchange>();

  constructor(
    private readonly settings: () => LpreqSettings,
    private readonly output: vscode.LogOutputChannel,
    /** Shows a test's exchange in the response view (SendController.showExchange). */
    private readonly show: (
      uri: vscode.Uri,
      line: number,
      result: SendResult,
      assertions: AssertionResult[],
      o: Omit<Exchange, 'uri' | 'line' | 'result' | 'assertions'>,
    ) => Promise<void>,
  ) {
    // Files are looked for when the Testing view first asks, not at activation.
    this.controller.resolveHandler = async (item) => {
      if (!item) await this.discover();
    };
    this.controller.refreshHandler = async () => {
      this.ignore = new TestIgnore();
      await this.discover();
    };
    this.controller.createRunProfile(
      'Run',
      vscode.TestRunProfileKind.Run,
      (request, token) => this.run(request, token, false),
      true,
    );
    this.mockProfile = this.controller.createRunProfile(
      'Run against the built-in mock',
      vscode.TestRunProfileKind.Run,
      (request, token) => this.run(request, token, true),
      false,
    );
    // `lpreq test --update-snapshots`: the response is written over each snapshot it differs from.
    this.controller.createRunProfile(
      'Run and update snapshots',
      vscode.TestRunProfileKind.Run,
      (request, token) => this.run(request, token, false, true),
      false,
    );

    const watcher = vscode.workspace.createFileSystemWatcher(FILES);
    const ignoreWatcher = vscode.workspace.createFileSystemWatcher('**/.lpreqtestignore');
    const reread = () => {
      this.ignore = new TestIgnore();
      if (this.discovered) void this.discover();
    };
    this.disposables.push(
      this.controller,
      watcher,
      ignoreWatcher,
      watcher.onDidCreate((uri) => this.updateSoon(uri)),
      watcher.onDidChange((uri) => this.updateSoon(uri)),
      watcher.onDidDelete((uri) => this.controller.items.delete(uri.toString())),
      ignoreWatcher.onDidCreate(reread),
      ignoreWatcher.onDidChange(reread),
      ignoreWatcher.onDidDelete(reread),
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.document.languageId === 'lpreq') this.updateSoon(e.document.uri);
      }),
      vscode.workspace.onDidOpenTextDocument((d) => {
        if (d.languageId === 'lpreq') this.updateSoon(d.uri);
      }),
    );
  }

  /** Every test of the workspace against the built-in mock (the command "Run Tests Against the Built-in Mock"). */
  async runAgainstMock(): Promise<void> {
    if (!this.discovered) await this.discover();
    const cancel = new vscode.CancellationTokenSource();
    try {
      await this.run(new vscode.TestRunRequest(undefined, undefined, this.mockProfile), cancel.token, true);
    } finally {
      cancel.dispose();
    }
  }

  /** The workspace's request files, less those an ignore file leaves out. */
  private async discover(): Promise<void> {
    this.discovered = true;
    const uris = await vscode.workspace.findFiles(FILES, NOT_WALKED);
    const keep = new Set<string>();
    for (const uri of uris) {
      if (this.ignored(uri)) continue;
      keep.add(uri.toString());
      await this.update(uri);
    }
    this.controller.items.forEach((item) => {
      if (!keep.has(item.id)) this.controller.items.delete(item.id);
    });
  }

  /** The `.lpreqtestignore` that leaves a file out of `lpreq test <its workspace folder>`, if any. */
  private ignored(uri: vscode.Uri): boolean {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    if (uri.scheme !== 'file' || !folder) return true;
    return this.ignore.ignoring(uri.fsPath, folder.uri.fsPath, folder.uri.fsPath) !== undefined;
  }

  private updateSoon(uri: vscode.Uri): void {
    if (!this.discovered || this.ignored(uri)) return;
    const key = uri.toString();
    clearTimeout(this.pending.get(key));
    this.pending.set(
      key,
      setTimeout(() => {
        this.pending.delete(key);
        void this.update(uri);
      }, 300),
    );
  }

  /** The text the editor holds (edits not saved included), or the file's. */
  private async textOf(uri: vscode.Uri): Promise<{ text?: string; problem?: string }> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    if (open) return { text: open.getText() };
    // A file found in the workspace is the repository's: read by the confined reader, a pipe or a link out of it refused.
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    return readConfinedText(uri.fsPath, folder?.uri.fsPath ?? path.dirname(uri.fsPath));
  }

  /** Lists a file's tests from its text; a file without any is not listed. Returns its requests. */
  private async update(uri: vscode.Uri, given?: string): Promise<TestRequest[]> {
    const text = given ?? (await this.textOf(uri)).text;
    const { sender } = await load();
    const document = parseDocument(text ?? '');
    const requests = testRequests(document, sender.testsOf(document, new LineIndex(document.text)));
    const id = uri.toString();
    if (requests.length === 0) {
      this.controller.items.delete(id);
      return requests;
    }
    let file = this.controller.items.get(id);
    if (!file) {
      file = this.controller.createTestItem(id, vscode.workspace.asRelativePath(uri), uri);
      this.controller.items.add(file);
      this.data.set(file, { uri });
    }
    const items = requests.map((r) => {
      const item = file.children.get(r.id) ?? this.controller.createTestItem(r.id, r.label, uri);
      item.range = new vscode.Range(r.line, 0, r.endLine, 0);
      this.data.set(item, { uri, request: r });
      item.children.replace(
        r.assertions.map((a) => {
          const child = item.children.get(a.id) ?? this.controller.createTestItem(a.id, a.label, uri);
          child.range = new vscode.Range(a.line, 0, a.line, a.label.length);
          this.data.set(child, { uri, request: r });
          return child;
        }),
      );
      return item;
    });
    file.children.replace(items);
    return requests;
  }

  /** The files and request ids a run asks for: a file runs all its tests, an assertion its request. */
  private wanted(request: vscode.TestRunRequest): Map<string, { uri: vscode.Uri; ids?: Set<string> }> {
    const out = new Map<string, { uri: vscode.Uri; ids?: Set<string> }>();
    const excluded = new Set((request.exclude ?? []).map((i) => i.id));
    const items: vscode.TestItem[] = [];
    if (request.include) items.push(...request.include);
    else this.controller.items.forEach((i) => items.push(i));
    for (const item of items) {
      const d = this.data.get(item);
      if (!d || excluded.has(item.id)) continue;
      const key = d.uri.toString();
      const entry = out.get(key) ?? { uri: d.uri, ids: new Set<string>() };
      if (!d.request) entry.ids = undefined;
      else entry.ids?.add(d.request.id);
      out.set(key, entry);
    }
    return out;
  }

  /** Each file asked for, read as the editor holds it; its items made from the text that runs, so results land on the lines they concern. */
  private async readWanted(request: vscode.TestRunRequest, run: vscode.TestRun) {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const read = new Map<string, { uri: vscode.Uri; text: string; requests: TestRequest[] }>();
    const wantedFiles: WantedFile<string>[] = [];
    for (const [key, want] of this.wanted(request)) {
      const got = await this.textOf(want.uri);
      if (got.text === undefined) {
        const file = this.controller.items.get(key);
        if (file)
          run.errored(
            file,
            new vscode.TestMessage(
              `${vscode.workspace.asRelativePath(want.uri)}: ${got.problem ?? 'could not be read'}`,
            ),
          );
        continue;
      }
      read.set(key, { uri: want.uri, text: got.text, requests: await this.update(want.uri, got.text) });
      const folder = vscode.workspace.getWorkspaceFolder(want.uri);
      wantedFiles.push({
        file: key,
        folder: folder ? folders.indexOf(folder) : folders.length,
        parts: relativeParts(want.uri, folder),
        ids: want.ids,
      });
    }
    return { read, wantedFiles };
  }

  private async run(
    request: vscode.TestRunRequest,
    cancel: vscode.CancellationToken,
    mock: boolean,
    updateSnapshots = false,
  ): Promise<void> {
    const run = this.controller.createTestRun(request);
    const abort = new AbortController();
    const onCancel = cancel.onCancellationRequested(() => abort.abort());
    const { sender } = await load();
    const session = await sendSession();
    const { startMockRun } = await import('../../server/src/mockRun');
    let mockRun: Awaited<ReturnType<typeof startMockRun>> | undefined;
    try {
      if (mock) {
        try {
          mockRun = await startMockRun('the run against the built-in mock');
        } catch (e) {
          run.appendOutput(`the built-in mock could not start: ${(e as Error).message}\r\n`);
          return;
        }
      }
      const sent = new Map<string, SendResult>();
      const shown: Exchange[] = [];
      const byFile = new Map<
        string,
        { uri: vscode.Uri; requests: TestRequest[]; items: Map<number, vscode.TestItem> }
      >();
      const sources: TestSource[] = [];
      const setups: FileSetup[] = [];
      const { read, wantedFiles } = await this.readWanted(request, run);
      // What lpreq test would run of these files, in its order (model/testResults.ts).
      for (const planned of runPlan(wantedFiles, (key) => read.get(key)?.requests ?? [])) {
        const key = planned.file;
        const { uri, text } = read.get(key) as { uri: vscode.Uri; text: string };
        const requests = planned.requests;
        const fileItem = this.controller.items.get(key);
        if (!fileItem) continue;
        const items = enqueue(run, fileItem, requests);
        const display = vscode.workspace.asRelativePath(uri);
        byFile.set(display, { uri: uri, requests, items });
        try {
          // The environment by the session's rule (the picker when it cannot decide), as lpreq test and Send Request take it.
          const made = await session.testSource(uri.fsPath, {
            display,
            text,
            mock: mockRun,
            ...(planned.blocks ? { blocks: planned.blocks } : {}),
          });
          sources.push(made.source);
          setups.push(made.setup);
          for (const warning of made.setup.warnings) run.appendOutput(`${display}: ${warning}\r\n`);
        } catch (e) {
          if (!(e instanceof sender.SetupError)) throw e;
          run.errored(fileItem, new vscode.TestMessage(e.message));
          run.appendOutput(`${display}: ${e.message}\r\n`);
        }
      }
      if (mockRun) for (const note of session.missingFromMock(sources, mockRun)) run.appendOutput(`${note}\r\n`);

      const { environments, where } = runPlace(setups, mockRun !== undefined);
      const base = session.runOptions(setups, mockRun);
      const options: RunOptions = {
        snapshots: { update: updateSnapshots },
        ...exchangeOptions(this.settings()),
        ...base,
        ...(mockRun ? { proxy: undefined } : {}),
        signal: abort.signal,
        ...(base.confirmChange ? { confirmChange: askOnce(environments) } : {}),
        events: {
          requestStarted: (file, r) => {
            const item = byFile.get(file)?.items.get(r.blockIndex);
            if (!item) return;
            run.started(item);
            item.children.forEach((c) => run.started(c));
          },
          dependencySent: (file, name) =>
            run.appendOutput(`${file}: first sending '${name}', which a request refers to\r\n`),
          requestSent: (file, r, exchange) => sent.set(`${file}#${r.blockIndex}`, exchange),
          requestFinished: (file, r) => {
            const f = byFile.get(file);
            const item = f?.items.get(r.blockIndex);
            if (f && item) this.report(run, f.uri, item, r);
            const exchange = sent.get(`${file}#${r.blockIndex}`);
            sent.delete(`${file}#${r.blockIndex}`);
            if (f && item) this.exchanges.delete(item);
            const setup = setups[sources.findIndex((s) => s.file === file)];
            if (f && item && exchange) {
              shown.push({
                uri: f.uri,
                line: r.line - 1,
                result: exchange,
                assertions: r.assertions,
                environment: mockRun ? 'built-in mock' : setup?.selected,
                token: mockRun ? mockRun.token : setup?.token,
                secrets: (options.foreignSecrets ?? []).filter((t): t is string => typeof t === 'string'),
              });
              this.exchanges.set(item, shown[shown.length - 1]);
            }
          },
        },
      };
      const result = await sender.runTests(sources, options);
      // A run of one request shows its response, as Send Request would; after a larger run, "Show Response" on a test does.
      const ran = [...byFile.values()].reduce((n, f) => n + f.items.size, 0);
      if (ran === 1 && shown.length === 1) await this.showExchange(shown[0]);
      run.appendOutput(
        `${where}: ${result.passed} passed, ${result.failed} failed${result.skipped > 0 ? `, ${result.skipped} skipped` : ''}${result.cancelled ? ' (cancelled)' : ''}\r\n`,
      );
      this.output.info(`test run ${where}: ${result.passed} passed, ${result.failed} failed`);
    } catch (e) {
      this.output.error(`test run: ${(e as Error).stack ?? String(e)}`);
      run.appendOutput(`the run stopped: ${(e as Error).message}\r\n`);
    } finally {
      onCancel.dispose();
      await mockRun?.close();
      run.end();
    }
  }

  /** A request's result on its item and on each of its assertions. */
  private report(run: vscode.TestRun, uri: vscode.Uri, item: vscode.TestItem, r: RequestResult): void {
    const apply = (target: vscode.TestItem, outcome: Outcome) => {
      const messages = outcome.messages.map((m) => {
        const message =
          m.expected !== undefined && m.actual !== undefined
            ? vscode.TestMessage.diff(m.text, m.expected, m.actual)
            : new vscode.TestMessage(m.text);
        message.location = new vscode.Location(uri, new vscode.Position(m.line, 0));
        return message;
      });
      if (outcome.state === 'passed') run.passed(target, outcome.durationMs);
      else if (outcome.state === 'skipped') run.skipped(target);
      else if (outcome.state === 'failed') run.failed(target, messages, outcome.durationMs);
      else run.errored(target, messages, outcome.durationMs);
    };
    apply(item, requestOutcome(r));
    r.assertions.forEach((a, k) => {
      const child = item.children.get(`${item.id}/${k}`);
      if (child) apply(child, assertionOutcome(r, a));
    });
    const status = r.status === null ? (r.skipped ? 'skipped' : 'no response') : String(r.status);
    run.appendOutput(`${r.passed ? 'PASS' : r.skipped ? 'SKIP' : 'FAIL'}  ${r.name}  line ${r.line}, ${status}\r\n`);
    for (const a of r.assertions.filter((x) => !x.passed && !r.skipped)) {
      run.appendOutput(
        `      line ${a.line}  ${a.text}\r\n        ${a.expected !== undefined ? `expected: ${a.expected}\r\n        ` : ''}actual:   ${a.actual ?? a.message}\r\n`,
      );
    }
  }

  /** "Show Response" of a test item (or of its assertion's request): its exchange in the last run. */
  async showResponse(item: unknown): Promise<void> {
    // The command is given the item it was run on: a request, or one of its assertions.
    const test = item !== null && typeof item === 'object' && 'id' in item ? (item as vscode.TestItem) : undefined;
    const exchange = test && (this.exchanges.get(test) ?? (test.parent ? this.exchanges.get(test.parent) : undefined));
    if (!exchange) {
      void vscode.window.showInformationMessage('lpreq: this test sent nothing in the last run; run it first.');
      return;
    }
    await this.showExchange(exchange);
  }

  private async showExchange(e: Exchange): Promise<void> {
    await this.show(e.uri, e.line, e.result, e.assertions, {
      environment: e.environment,
      token: e.token,
      secrets: e.secrets,
    });
  }

  dispose(): void {
    for (const t of this.pending.values()) clearTimeout(t);
    for (const d of this.disposables) d.dispose();
  }
}

/** A file's path below its workspace folder, by segment. */
function relativeParts(uri: vscode.Uri, folder: vscode.WorkspaceFolder | undefined): string[] {
  const base = folder?.uri.path ?? '';
  const rel = base && uri.path.startsWith(`${base}/`) ? uri.path.slice(base.length + 1) : uri.path;
  return rel.split('/');
}

/** The items of the requests that run, by block, each queued with its assertions. */
function enqueue(
  run: vscode.TestRun,
  fileItem: vscode.TestItem,
  requests: TestRequest[],
): Map<number, vscode.TestItem> {
  const items = new Map<number, vscode.TestItem>();
  for (const r of requests) {
    const item = fileItem.children.get(r.id);
    if (!item) continue;
    items.set(r.blockIndex, item);
    run.enqueued(item);
    item.children.forEach((c) => run.enqueued(c));
  }
  return items;
}

/** The environments of a run, and where it ran, as its summary says. */
function runPlace(setups: FileSetup[], mock: boolean): { environments: string; where: string } {
  const environments = [...new Set(setups.map((s) => s.selected ?? 'no environment'))].join(', ');
  const where = mock
    ? `against the built-in mock${setups.some((s) => s.selected !== undefined) ? `, with the variables of ${environments}` : ''}`
    : `in ${environments || 'no environment'}`;
  return { environments, where };
}

/** A protected environment asks once a run, at its first request that changes data (a dependency included). */
function askOnce(environments: string): NonNullable<RunOptions['confirmChange']> {
  let answer: Promise<boolean> | undefined;
  return (q) =>
    (answer ??= confirmProtected(
      `'${environments}' is a protected environment. This run sends ${q.method} '${q.request}' and may send other requests that change data. Send them to '${environments}'?`,
      'POST, PUT, PATCH and DELETE change data on the server.',
    ));
}
