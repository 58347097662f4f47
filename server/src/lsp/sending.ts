/**
 * Sending from the language server, for any editor: what `lpreq send` does (the sender's
 * sendSetup and sendBlock: environments, the token from LPREQ_TOKEN or the private
 * environment file, prompts, the protected environment's confirmation, the requests a
 * request refers to, history in `.lpreq/history`), with the editor asked through the
 * protocol: a protected environment and a `# @note` through `window/showMessageRequest`
 * (Cancel first), progress through `$/progress` with cancellation (the exchange's
 * AbortSignal), the response written to a file (responseFiles.ts) with its typed issues
 * published on it and shown with `window/showDocument`. The token never comes from a
 * document, and nothing is sent but by a command (commands.ts).
 */
import { ErrorCodes, MessageType, ResponseError, ShowMessageNotification } from './protocol';
import type {
  CancellationToken,
  Connection,
  Diagnostic,
  MessageActionItem,
  ProgressToken,
  WorkDoneProgressReporter,
} from 'vscode-languageserver/node';
import { realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  describeAnswer,
  promptVariables,
  requestName,
  requestTarget,
  type LanguageService,
  type LpreqDocument,
} from '../core/index';
import { readTextFileSync, type TlsSettings } from '../node/index';
import {
  blockAtLine,
  prepareRequest,
  referenceValue,
  requestBlocks,
  scrubSecrets,
  SendSession,
  SetupError,
  toCurl,
  CopyRefused,
  environmentOptions,
  toCode,
  type CodeLanguage,
  type FileSetup,
  type PreparedRequest,
  tokenNotes,
  HistoryStore,
  projectStore,
  type SendResult,
  MemoryStore,
  OAuthTokens,
} from '../sender/index';
import { COMMANDS, type Command, type CommandOptions } from './commands';
import { issueRanges, responseFileName, responseText, writeResponseFile } from './responseFiles';
import type { Documents } from './documents';

/** What sending uses of the connection's Session (session.ts holds the sending, so sending names only this). */
interface SendingSession {
  connection: Connection;
  log(message: string): void;
  service(): LanguageService;
  documents: Documents;
  client: { workDoneProgress: boolean; showDocument: boolean };
  recheckAll(): void;
}

/** What a send command answers: the status, and where the response is. */
export interface SendSummary {
  ok: boolean;
  status: number | null;
  /** The response file (a `file:` URI), when one was written. */
  responseUri?: string;
  /** The editor was asked to show it and did (`window/showDocument`); otherwise a configuration may open responseUri itself (docs/editors.md). */
  shown: boolean;
  issues: number;
  error?: string;
}

/** A request of a file the command is about: its parse, its path, the document's URI. */
interface Target {
  uri: string;
  file: string;
  parsed: LpreqDocument;
}

function invalid(message: string): ResponseError<void> {
  return new ResponseError(ErrorCodes.InvalidParams, `lpreq: ${message}`);
}

function realpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

export class ServerSending {
  /** One history store per project folder: its writes are serialised, and reads wait for them. */
  private readonly stores = new Map<string, HistoryStore>();
  /**
   * The send session every host has (the sender's session.ts): the environment by the rule,
   * the token from LPREQ_TOKEN or the private file, the answers a chain reads. The server gives
   * it what only the protocol has: the questions, asked through the editor.
   */
  readonly sendSession: SendSession;
  /** The OAuth 2.0 sign-ins of this server's life, in its memory (never in a file): the session signs in with them. */
  private readonly signIns: OAuthTokens;

  constructor(private readonly session: SendingSession) {
    // The browser opens through the editor (`window/showDocument`, external), and the address is told as well;
    // a refused refresh token signs in again.
    this.signIns = new OAuthTokens({
      store: new MemoryStore(),
      openBrowser: async (url) => {
        if (!this.session.client.showDocument) return false;
        try {
          return (await this.session.connection.window.showDocument({ uri: url, external: true })).success;
        } catch {
          return false;
        }
      },
      tell: (message) => this.tell(MessageType.Info, `lpreq: ${message}`),
      interactive: true,
      signInAgain: true,
      requests: { env: process.env },
    });
    this.sendSession = new SendSession(
      {
        env: process.env,
        signIns: this.signIns,
        chooseWith: 'lpreq.selectEnvironment',
        preferred: () => session.documents.preferred,
        pickEnvironment: (names) => this.pickEnvironment(names, undefined),
        chosen: () => session.documents.forgetAnswers(),
        history: (folder) => this.history(folder),
        confirmNote: (q) =>
          this.confirm(`lpreq: ${q.request} is marked @note${q.note ? ` (${q.note})` : ''}. Send it?`, 'Send'),
        confirmChange: (q) =>
          this.confirm(
            `lpreq: '${q.environment}' is a protected environment. Send ${q.request.startsWith(`${q.method} `) ? q.request : `${q.method} ${q.request}`}?`,
            'Send',
          ),
        // The editor has no input box the server can open: the values come with the command (docs/editors.md).
        ask: () => Promise.resolve(undefined),
      },
      () => session.service().checker,
    );
  }

  /** A project's remembered environment (for checking, which needs no question). */
  remembered(projectFolder: string): string | null | undefined {
    return this.sendSession.remembered(projectFolder);
  }

  /** Runs a checked command (commands.ts). */
  async run(command: Command, token: CancellationToken, workDoneToken: ProgressToken | undefined): Promise<unknown> {
    switch (command.command) {
      case COMMANDS.send:
      case COMMANDS.fetchAllPages:
        return this.send(
          command.uri,
          command.line,
          command.options,
          command.command === COMMANDS.fetchAllPages,
          token,
          workDoneToken,
        );
      case COMMANDS.sendAll:
        return this.sendAll(command.uri, command.options, token, workDoneToken);
      case COMMANDS.copyAsCurl:
        return this.copyAsCurl(command.uri, command.line, command.options);
      case COMMANDS.generateCode:
        return this.generateCode(command.uri, command.line, command.language, command.options);
      case COMMANDS.selectEnvironment:
        return this.selectEnvironment(command.name);
    }
  }

  /**
   * The document a command names: an open one (its current text), or a file inside a
   * workspace folder (read from disk). Anything else is refused: a command cannot make the
   * server read, or send from, a file the user has not opened outside the workspace.
   */
  private async target(uri: string): Promise<Target> {
    let file: string;
    try {
      if (!uri.startsWith('file:')) throw new Error('not a file');
      file = fileURLToPath(uri);
    } catch {
      throw invalid(
        `${uri.slice(0, 200)} is not a saved file: lpreq sends from a file, whose folder holds the environment files`,
      );
    }
    const open = this.session.documents.get(uri);
    if (open) return { uri, file, parsed: this.session.documents.stateOf(open).parsed };
    const real = realpath(file);
    if (real === undefined || !statSync(real).isFile() || !this.insideWorkspace(real)) {
      throw invalid(`${uri.slice(0, 200)} is neither an open document nor a file inside a workspace folder`);
    }
    // A regular file of the workspace, read with a bounded read (a pipe swapped in meanwhile is refused, not waited on).
    const read = readTextFileSync(real);
    if (read.problem !== undefined) throw invalid(`${file}: ${read.problem}`);
    return { uri, file, parsed: this.session.service().parse(read.text) };
  }

  private insideWorkspace(real: string): boolean {
    return this.session.documents.rootPaths().some((root) => {
      const base = realpath(root) ?? root;
      const rel = relative(base, real);
      return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
    });
  }

  /** The block of the request at a 0-based line; an error when the line holds none. */
  private blockAt(target: Target, line: number): number {
    const index = blockAtLine(target.parsed, line + 1);
    if (index === -1 || !target.parsed.blocks[index].block.request?.methodKnown)
      throw invalid(`line ${line + 1} of ${target.file} is not inside a request`);
    return index;
  }

  /** What sending from `file` takes: the session's setup, with the environment this editor chose for every project, if it did. */
  private async setup(
    file: string,
    uri: string,
    o: { cancel?: CancellationToken; signIn?: boolean } = {},
  ): Promise<FileSetup> {
    const chosen = this.session.documents.chosen;
    const answer = this.session.documents.answerFor(uri);
    const given = chosen === null || (answer?.state === 'chosen' && answer.why === 'given') ? chosen : undefined;
    // A sign-in under way stops when the command is cancelled.
    const controller = new AbortController();
    const stop = o.cancel?.onCancellationRequested(() => controller.abort());
    try {
      return await this.sendSession.setup(file, { environment: given, signal: controller.signal, signIn: o.signIn });
    } catch (e) {
      if (e instanceof SetupError)
        throw new ResponseError(ErrorCodes.InvalidRequest, `lpreq: ${scrubSecrets(e.message, this.signIns.secrets())}`);
      throw e;
    } finally {
      stop?.dispose();
    }
  }

  /** Asks the user through `window/showMessageRequest`, the safe answer first; true only when `yes` is chosen. */
  private async confirm(message: string, yes: string): Promise<boolean> {
    try {
      const answer = await this.session.connection.window.showWarningMessage<MessageActionItem>(
        message,
        { title: 'Cancel' },
        { title: yes },
      );
      return answer?.title === yes;
    } catch (e) {
      this.session.log(`confirmation not asked: ${String(e)}`);
      return false;
    }
  }

  private tell(type: MessageType, message: string): void {
    void this.session.connection.sendNotification(ShowMessageNotification.type, { type, message });
  }

  /** Progress of a command: the editor's own token when it gave one, one the server creates when the editor can show it, or none. */
  private async progress(
    workDoneToken: ProgressToken | undefined,
  ): Promise<{ reporter?: WorkDoneProgressReporter; cancelled?: CancellationToken }> {
    const window = this.session.connection.window;
    if (workDoneToken !== undefined) return { reporter: window.attachWorkDoneProgress(workDoneToken) };
    if (!this.session.client.workDoneProgress) return {};
    try {
      const reporter = await window.createWorkDoneProgress();
      return { reporter, cancelled: reporter.token };
    } catch (e) {
      this.session.log(`no progress shown: ${String(e)}`);
      return {};
    }
  }

  /** Sends the request at `line` of `uri` (its pages merged with `allPages`), writes and shows its response. */
  async send(
    uri: string,
    line: number,
    options: CommandOptions,
    allPages: boolean,
    token: CancellationToken,
    workDoneToken: ProgressToken | undefined,
  ): Promise<SendSummary> {
    const target = await this.target(uri);
    const index = this.blockAt(target, line);
    const setup = await this.setup(target.file, target.uri, { cancel: token });
    const controller = new AbortController();
    const stop = token.onCancellationRequested(() => controller.abort());
    const { reporter, cancelled } = await this.progress(workDoneToken);
    const stopToo = cancelled?.onCancellationRequested(() => controller.abort());
    reporter?.begin(`lpreq: sending ${this.label(target, index)}`, undefined, undefined, true);
    try {
      const summary = await this.sendOne(target, index, setup, options, allPages, controller.signal, reporter);
      reporter?.done();
      return summary;
    } catch (e) {
      reporter?.done();
      throw e;
    } finally {
      stop.dispose();
      stopToo?.dispose();
    }
  }

  /** Sends every request of the document in order, as Send All does in the VS Code extension; stops when cancelled. */
  async sendAll(
    uri: string,
    options: CommandOptions,
    token: CancellationToken,
    workDoneToken: ProgressToken | undefined,
  ): Promise<{ sent: number; ok: number; results: SendSummary[] }> {
    const target = await this.target(uri);
    const indexes = requestBlocks(target.parsed).filter((k) => target.parsed.blocks[k].block.request?.methodKnown);
    const setup = await this.setup(target.file, target.uri, { cancel: token });
    const controller = new AbortController();
    const stop = token.onCancellationRequested(() => controller.abort());
    const { reporter, cancelled } = await this.progress(workDoneToken);
    const stopToo = cancelled?.onCancellationRequested(() => controller.abort());
    reporter?.begin(`lpreq: sending ${indexes.length} requests`, 0, undefined, true);
    const results: SendSummary[] = [];
    try {
      for (const [i, index] of indexes.entries()) {
        if (controller.signal.aborted) break;
        reporter?.report(
          Math.round((i / indexes.length) * 100),
          `${i + 1}/${indexes.length}: ${this.label(target, index)}`,
        );
        results.push(await this.sendOne(target, index, setup, options, false, controller.signal, reporter, false));
      }
    } finally {
      reporter?.done();
      stop.dispose();
      stopToo?.dispose();
    }
    const ok = results.filter((r) => r.ok).length;
    const skipped = indexes.length - results.length;
    this.tell(
      MessageType.Info,
      `lpreq: sent ${results.length} of ${indexes.length} requests: ${ok} OK, ${results.length - ok} failed${skipped > 0 ? `, ${skipped} cancelled` : ''}.`,
    );
    return { sent: results.length, ok, results };
  }

  private label(target: Target, index: number): string {
    const block = target.parsed.blocks[index].block;
    return (
      requestName(block) ??
      `${block.request?.method.text ?? ''} ${block.request ? requestTarget(block.request) : ''}`.trim()
    );
  }

  private lineOf(target: Target, index: number): number {
    const { start, block } = target.parsed.blocks[index];
    const text = target.parsed.text;
    let line = 1;
    const at = start + (block.request?.start ?? 0);
    for (let i = text.indexOf('\n'); i !== -1 && i < at; i = text.indexOf('\n', i + 1)) line++;
    return line;
  }

  /** One request: the sender's flow, then its response file, its diagnostics, and the editor told. */
  private async sendOne(
    target: Target,
    index: number,
    setup: FileSetup,
    options: CommandOptions,
    allPages: boolean,
    signal: AbortSignal,
    reporter: WorkDoneProgressReporter | undefined,
    show = true,
  ): Promise<SendSummary> {
    const environment = setup.selected;
    const { result } = await this.sendSession.send(target.parsed, index, {
      file: target.file,
      setup,
      env: process.env,
      signal,
      allPages,
      prompts: options.prompts,
      onPage: (p) => reporter?.report(`page ${p.page}, ${p.items} items`),
      onDependency: (name) => reporter?.report(`first sending '${name}', which this request refers to`),
    });
    const scrub = (text: string) =>
      scrubSecrets(text, [setup.token, setup.privateToken, ...result.secretValues, ...this.signIns.secrets()]);
    const notes = [
      ...setup.warnings,
      ...tokenNotes(result, { tokenFrom: setup.tokenFrom, oauth2: setup.oauth2, environment }),
    ];
    const summary: SendSummary = {
      ok: result.ok,
      status: result.response?.status ?? null,
      issues: result.issues.length,
      shown: false,
    };
    if (result.error) summary.error = scrub(this.explain(result.error.message));
    if (result.response && result.response.status !== null) {
      try {
        summary.responseUri = this.writeResponse(target, index, setup, result, notes, scrub);
      } catch (e) {
        this.tell(MessageType.Error, scrub(`lpreq: the response could not be written: ${(e as Error).message}`));
      }
    }
    const status = result.response?.status;
    if (summary.error && (status === null || status === undefined))
      this.tell(MessageType.Error, `lpreq: ${summary.error}`);
    else if (show)
      summary.shown = await this.show(
        summary,
        scrub(`HTTP ${status} ${result.response?.statusText ?? ''}`.trim()),
        notes.map(scrub),
      );
    return summary;
  }

  /** A prompt without a value says how to give one. */
  private explain(message: string): string {
    return message.includes('# @prompt')
      ? `${message}; give it with the command's options, { "prompts": { "name": "value" } } (docs/editors.md: :LpreqSend name=value in Neovim)`
      : message;
  }

  /**
   * The project's history, as `lpreq send` keeps it, written behind the answer: the editor
   * gets the response without waiting for the history's files and lock (several milliseconds
   * of disk), and a later read of the same store (a request that refers to this one) waits
   * for the write (HistoryStore serialises them). A failed write is told, as the command
   * line tells it.
   */
  private history(projectFolder: string): Pick<HistoryStore, 'add' | 'lastOf'> | undefined {
    let store = this.stores.get(projectFolder);
    if (!store) {
      try {
        store = new HistoryStore(projectStore(projectFolder, 'history'), { workspace: projectFolder });
      } catch (e) {
        this.session.log(`no history: ${(e as Error).message}`);
        return undefined;
      }
      this.stores.set(projectFolder, store);
    }
    const written = store;
    return {
      add: (entry) => {
        written
          .add(entry)
          .catch((e: unknown) =>
            this.tell(
              MessageType.Warning,
              `lpreq: the exchange could not be stored in history: ${(e as Error).message}`,
            ),
          );
        return Promise.resolve({
          id: '',
          time: '',
          method: entry.method,
          url: entry.url,
          status: entry.status,
          durationMs: entry.durationMs,
        });
      },
      lastOf: (request) => written.lastOf(request),
    };
  }

  /** Writes the response file and publishes its typed issues on it; returns its URI. */
  private writeResponse(
    target: Target,
    index: number,
    setup: FileSetup,
    result: SendResult,
    notes: string[],
    scrub: (text: string) => string,
  ): string {
    const line = this.lineOf(target, index);
    const { text, extension } = responseText(result, {
      requestFile: target.file,
      line,
      environment: setup.selected,
      errors: result.diagnostics.length,
      notes,
      time: new Date().toISOString(),
    });
    const written = scrub(text);
    const name = responseFileName(target.file, setup.projectFolder, {
      name: requestName(target.parsed.blocks[index].block),
      line,
    });
    const path = writeResponseFile(setup.projectFolder, name, extension, written);
    const uri = pathToFileURL(path).href;
    const diagnostics: Diagnostic[] = issueRanges(written, extension === '.jsonc' ? result.issues : []).map(
      ({ issue, start, end }) => ({
        range: { start, end },
        // An undocumented field is news, not a fault; a wrong type or value is worth a look.
        severity: issue.code === 'undocumented-field' ? 3 : 2,
        code: issue.code,
        source: 'lpreq',
        message: scrub(`${issue.path}: ${issue.message}`),
      }),
    );
    void this.session.connection.sendDiagnostics({ uri, diagnostics });
    return uri;
  }

  /** Shows the response file beside the request where the editor can (true), and says where it is otherwise. */
  private async show(summary: SendSummary, status: string, notes: string[]): Promise<boolean> {
    const issues =
      summary.issues > 0
        ? `, ${summary.issues} difference${summary.issues === 1 ? '' : 's'} from the documentation`
        : '';
    if (notes.length > 0) this.tell(MessageType.Warning, `lpreq: ${status}: ${notes.join('; ')}`);
    if (!summary.responseUri) return false;
    if (this.session.client.showDocument) {
      try {
        const shown = await this.session.connection.window.showDocument({ uri: summary.responseUri, takeFocus: false });
        if (shown.success) return true;
      } catch (e) {
        this.session.log(`showDocument: ${String(e)}`);
      }
    }
    this.tell(MessageType.Info, `lpreq: ${status}${issues}: ${fileURLToPath(summary.responseUri)}`);
    return false;
  }

  /** The request at `line` prepared as it would be sent, and the secrets to keep out of a copy of it. */
  private async prepareForCopy(
    uri: string,
    line: number,
    options: CommandOptions,
  ): Promise<{
    request: PreparedRequest;
    token?: string;
    secrets: (string | undefined)[];
    foreignSecrets: (string | undefined)[];
    tls?: TlsSettings;
  }> {
    const target = await this.target(uri);
    const index = this.blockAt(target, line);
    // A copy never holds a sign-in's token, so copying signs no one in; the sign-ins' secrets go nowhere in it.
    const setup = await this.setup(target.file, target.uri, { signIn: false });
    const block = target.parsed.blocks[index].block;
    for (const p of promptVariables(block)) {
      if (!options.prompts.has(p.name))
        throw new ResponseError(
          ErrorCodes.InvalidRequest,
          this.explain(`lpreq: the request asks for {{${p.name}}} (# @prompt ${p.name})`),
        );
    }
    const responses = this.sendSession.responses(target.file, setup);
    const prepared = prepareRequest(this.session.service().checker, target.parsed, index, {
      environments: setup.environments,
      system: setup.system,
      readFile: setup.readFile,
      reference: (ref) => referenceValue(ref, responses.get(ref.name)),
      prompts: options.prompts,
      chooseWith: 'lpreq.selectEnvironment',
    });
    const secrets = [setup.privateToken, ...prepared.secrets];
    const foreignSecrets = [...setup.foreignTokens, ...prepared.foreignSecrets, ...this.signIns.secrets()];
    if (!prepared.ok)
      throw new ResponseError(
        ErrorCodes.InvalidRequest,
        scrubSecrets(`lpreq: ${prepared.error}`, [setup.token, ...secrets, ...foreignSecrets]),
      );
    return {
      request: prepared.request,
      token: setup.token,
      secrets,
      foreignSecrets,
      tls: environmentOptions(setup.environments)?.tls,
    };
  }

  /** A copy of a request, or the sender's reason for refusing to send it as the error of the command. */
  private copied<T>(make: () => T): T {
    try {
      return make();
    } catch (e) {
      if (e instanceof CopyRefused)
        throw new ResponseError(ErrorCodes.InvalidRequest, `lpreq: not copied: ${e.message}`);
      throw e;
    }
  }

  /** The curl command of the request at `line`: the token's place reads $LPREQ_TOKEN, every other secret is ***. */
  async copyAsCurl(uri: string, line: number, options: CommandOptions): Promise<{ command: string }> {
    const { request, token, secrets, foreignSecrets, tls } = await this.prepareForCopy(uri, line, options);
    const command = this.copied(() => toCurl(request, { token, secrets, foreignSecrets, tls }));
    // The server cannot write the clipboard: the command is the answer, and shown (docs/editors.md).
    // One line: a status line (Helix) or an echo area (Emacs) shows one.
    this.tell(
      MessageType.Info,
      `lpreq: curl command (${command.includes('$LPREQ_TOKEN') ? 'it reads the token from $LPREQ_TOKEN when it runs' : 'it sends no access token'}): ${command.replace(/ \\\n\s*/g, ' ')}`,
    );
    return { command };
  }

  /** "Generate Code" of the request at `line`: the program is the answer; it reads the token from LPREQ_TOKEN when it runs. */
  async generateCode(
    uri: string,
    line: number,
    language: CodeLanguage,
    options: CommandOptions,
  ): Promise<{ language: CodeLanguage; code: string }> {
    const { request, token, secrets, foreignSecrets, tls } = await this.prepareForCopy(uri, line, options);
    return { language, code: this.copied(() => toCode(request, language, { token, secrets, foreignSecrets, tls })) };
  }

  /**
   * Asks the user to choose an environment among `names` through `window/showMessageRequest`
   * (a name, null for "No environment", undefined when nothing was chosen).
   */
  private async pickEnvironment(names: readonly string[], now: string | undefined): Promise<string | null | undefined> {
    const none = 'No environment';
    let answer: MessageActionItem | undefined;
    try {
      answer = await this.session.connection.window.showInformationMessage<MessageActionItem>(
        `lpreq: choose the environment${now ? ` (now: ${now})` : ' to send to'}`,
        ...names.map((n) => ({ title: n })),
        { title: none },
      );
    } catch (e) {
      this.session.log(`environment not asked: ${String(e)}`);
    }
    if (answer === undefined) return undefined;
    return answer.title === none && !names.includes(none) ? null : answer.title;
  }

  /**
   * Chooses the environment: the one named, none with null, or one the user picks from those
   * of the environment files of the open documents and the workspace folders. The choice is
   * remembered for each project that has it (`.lpreq/environment.json`, where `lpreq send` and
   * the VS Code extension read it too); every open document is checked again with it.
   */
  async selectEnvironment(name: string | null | undefined): Promise<{ environment: string | null }> {
    const documents = this.session.documents;
    const projects = documents.projects();
    const current = () => {
      const first = projects[0];
      const answer = first && this.sendSession.answer(first.folder);
      return answer?.state === 'chosen' ? answer.name : null;
    };
    let chosen = name;
    if (chosen === undefined) {
      const names = documents.environmentNames();
      if (names.length === 0) {
        this.tell(
          MessageType.Info,
          'lpreq: no http-client.env.json or http-client.private.env.json was found for the open documents or the workspace folders.',
        );
        return { environment: current() };
      }
      const first = projects[0];
      const picked = await this.pickEnvironment(
        names,
        first ? describeAnswer(this.sendSession.answer(first.folder)) : undefined,
      );
      if (picked === undefined) return { environment: current() };
      chosen = picked;
    }
    // A choice this editor made for every project gives way to the one made now.
    documents.chosen = undefined;
    const kept = projects.filter((p) => chosen === null || p.names.includes(chosen));
    if (projects.length > 0 && kept.length === 0)
      throw new ResponseError(
        ErrorCodes.InvalidParams,
        `lpreq: lpreq.selectEnvironment ${chosen}: no such environment; the environments are ${documents.environmentNames().join(', ')}`,
      );
    for (const p of kept) {
      const outcome = this.sendSession.remember(p.folder, chosen);
      if (!outcome.written) this.session.log(`the chosen environment is not remembered: ${outcome.problem ?? ''}`);
    }
    documents.forgetAnswers();
    this.session.recheckAll();
    return { environment: chosen };
  }
}
