/**
 * The send session of a workspace: the one place that decides what a send uses besides the
 * request, for every host (`lpreq send`, `lpreq test`, the language server, the VS Code
 * extension with its Testing view and history). Which environment (environmentRule.ts: the
 * one given, the one remembered for the project, the only one, `local`, else the user is
 * asked); which token for it (the host's store, or LPREQ_TOKEN and the private file); which
 * earlier response a chain reads (the newest of this file's request in this environment, in
 * memory or in the history, and only an answer the request expects); and the sources and
 * options of a test run, against an environment or the built-in mock (whose start is
 * mockRun.ts's). A host builds one with what only it can give (where the choice is kept, how
 * a token is found, how to ask the user) and shows what it answers.
 *
 * An environment whose `Security.Auth` has a configuration of its own (oauth2/) gets its token
 * from that sign-in, here, for every host: the host gives only where its sign-ins are kept
 * (`signIns`: the editor's secret storage, a process's or a language server's memory) and how
 * a browser opens. The sign-in is bound to base_url's origin by its key, so the host's pasted
 * token and its origin question do not come into it; LPREQ_TOKEN still wins on a host that
 * keeps no tokens (the command line), as it wins over the private file.
 */
import { parseDocument, type Checker, type Environments } from '../core/index';
import { projectMemory, type EnvironmentMemory } from './environmentChoice';
import { decideEnvironment, type EnvironmentAnswer } from '../core/index';
import type { HistoryStore } from './history';
import type { LpreqDocument } from '../core/index';
import { environmentOrigin } from './prepare';
import type { ResponseStore } from './chaining';
import type { RunOptions, TestSource } from './runner/runner';
import { sendBlock, type SendBlockOptions, type SendResult } from './send';
import type { EnvironmentAuth } from './oauth2/environmentAuth';
import { signInFor } from './oauth2/setupAuth';
import type { OAuthTokens } from './oauth2/tokens';
import { ChooseEnvironmentError, sendSetup, SetupError, type SendSetup } from './setup';

/** The user declined to send the token to an origin it is not bound to: nothing is sent. */
export class TokenDeclinedError extends SetupError {}
import { loadEnvironmentFiles, type EnvironmentFiles } from '../node/index';
import { dirname } from 'node:path';

/** What only a host can give its session. */
export interface SessionHost {
  /** The process environment: `LPREQ_TOKEN` (unless `token` is given), `{{$processEnv NAME}}`, proxies. */
  env: NodeJS.ProcessEnv;
  /** How the user chooses an environment, for messages: `--env`, `lpreq.selectEnvironment`. */
  chooseWith: string;
  /** The origin the token is pinned to (`--token-origin`), over `LPREQ_TOKEN_ORIGIN` of `env`. */
  tokenOrigin?: string;
  /** Where a project's choice is remembered: `.lpreq/environment.json` of the project (projectMemory) unless given. */
  memory?: EnvironmentMemory;
  /** A default below the remembered choice (a language server's `initializationOptions.environment`). */
  preferred?: () => string | undefined;
  /**
   * The token of an environment for the origin of its base_url, when the host keeps tokens
   * (the editor's secret storage, each token bound to its origins): `token` when it may go
   * there, `kept` the one kept either way (out of output); undefined when the user declined to
   * send it to a new origin (then nothing is sent). Without it, LPREQ_TOKEN or the private
   * file's `token`.
   */
  token?: (
    environment: string,
    origin: string | undefined,
  ) => Promise<{ token: string | undefined; kept?: string } | undefined>;
  /**
   * Where this host's OAuth 2.0 sign-ins are kept, and how it opens a browser (oauth2/tokens.ts):
   * an environment with a `Security.Auth` configuration of its own sends that sign-in's token.
   * Without it, `Security.Auth` is not used (`{{$auth.token("id")}}` is an error).
   */
  signIns?: OAuthTokens;
  /** Wraps a sign-in (the editor shows its progress and lets it be cancelled through the signal). */
  signingIn?: <T>(id: string, run: (signal: AbortSignal | undefined) => Promise<T>) => Promise<T>;
  /** The tokens the host keeps for the environments other than `chosen`: they go nowhere from here. */
  otherTokens?: (chosen: string | undefined, names: readonly string[]) => Promise<string[]>;
  /**
   * Asks the user to choose among `names` when the rule cannot (the editor's picker): a name,
   * null for no environment, undefined when the user cancelled. Without it, sending stops with
   * a message that lists how to choose (the command line).
   */
  pickEnvironment?: (names: readonly string[], projectFolder: string) => Promise<string | null | undefined>;
  /** Told of a choice the session remembered, and whether it was written (the editor redraws its status bar and tells its language server). */
  chosen?: (projectFolder: string, choice: string | null, written: boolean) => void;
  /** The history of a project folder, when the host keeps one. */
  history?: (projectFolder: string) => Pick<HistoryStore, 'add' | 'lastOf'> | undefined;
  /** Asked before a request marked `# @note`, a change in a protected environment, a `# @prompt` variable. */
  confirmNote?: SendBlockOptions['confirmNote'];
  confirmChange?: (question: { request: string; method: string; environment: string }) => Promise<boolean>;
  ask?: SendBlockOptions['ask'];
  /** A protected environment besides `"$protected": true` (the editor's `lpreq.protectedEnvironments`). */
  isProtected?: (environment: string) => boolean;
}

/** What sending a request of a file takes in this session: the sender's setup with the token the host gives. */
export interface FileSetup extends SendSetup {
  /** Tokens that go nowhere from this environment (those the host keeps for the others). */
  foreignTokens: string[];
  /** The environment's OAuth 2.0 sign-ins, for its sends (`{{$auth.token("id")}}`, a new token after a 401). */
  auth?: EnvironmentAuth;
}

/** The mock of a test run, as mockRun.ts starts it. */
export interface MockTarget {
  token: string;
  /** The runner's options that send to the mock and nowhere else. */
  options: Pick<RunOptions, 'overrides' | 'confineTo' | 'env'>;
  /** A file's environments for the run: the one the rule gives lends its variables, the mock's fill in the rest. */
  environments(setup: Pick<SendSetup, 'files' | 'selected'>): Environments;
  /** The environment a mock run makes when none lends its variables. */
  ownEnvironment: string;
  /** What the mock's seed holds for a variable no one gives (`the mock's quiz_submissions are 3, 4, 5`). */
  missing(name: string): string;
}

export class SendSession {
  /** Choices made in this session, by project folder: they hold even when the memory cannot be written. */
  private readonly choices = new Map<string, string | null>();
  /** The newest exchanges of named requests, by file, environment and base_url origin. */
  private readonly kept = new Map<string, ResponseStore>();

  private made: Checker | undefined;

  /** `checker`, or a function that makes it when a send first needs it (`lpreq env` never does). */
  constructor(
    readonly host: SessionHost,
    private readonly checkerOrMaker: Checker | (() => Checker),
  ) {}

  get checker(): Checker {
    this.made ??= typeof this.checkerOrMaker === 'function' ? this.checkerOrMaker() : this.checkerOrMaker;
    return this.made;
  }

  private get memory(): EnvironmentMemory {
    return this.host.memory ?? projectMemory;
  }

  /** The choice remembered for a project folder: this session's, else the memory's. */
  remembered(projectFolder: string): string | null | undefined {
    return this.choices.has(projectFolder) ? this.choices.get(projectFolder) : this.memory.read(projectFolder);
  }

  /**
   * The rule's answer for the project of the files found from `folder` (a request file's
   * folder), without asking: what the status bar, `lpreq env` and the server show.
   */
  answer(folder: string, files?: EnvironmentFiles): EnvironmentAnswer & { projectFolder: string } {
    const found = files ?? loadEnvironmentFiles(folder);
    const projectFolder = found.shared || found.private ? dirname(found.shared ?? found.private ?? '') : folder;
    return {
      ...decideEnvironment(Object.keys(found.environments), {
        remembered: this.remembered(projectFolder),
        preferred: this.host.preferred?.(),
      }),
      projectFolder,
    };
  }

  /** Remembers a choice for a project (null: no environment); a choice that cannot be written still holds in this session. */
  remember(projectFolder: string, choice: string | null): { written: boolean; problem?: string } {
    this.choices.set(projectFolder, choice);
    let outcome: { written: boolean; problem?: string } = { written: true };
    try {
      this.memory.write(projectFolder, choice);
    } catch (e) {
      outcome = { written: false, problem: (e as Error).message };
    }
    this.host.chosen?.(projectFolder, choice, outcome.written);
    return outcome;
  }

  /** Choices another host may have written are read again (the memory's file changed). */
  forgetChoices(): void {
    this.choices.clear();
  }

  /**
   * What sending a request of `file` takes: the environment by the rule (asking the user
   * through the host when it cannot decide and the host can ask), the token for it, the
   * project's folder. A SetupError says why sending cannot start.
   */
  async setup(
    file: string,
    o: {
      environment?: string | null;
      forMock?: boolean;
      /** Stops a sign-in under way (the command line's Ctrl+C, the editor's Cancel). */
      signal?: AbortSignal;
      /** false: no OAuth 2.0 sign-in starts (a copy of a request, which never holds a sign-in's token). */
      signIn?: boolean;
    } = {},
  ): Promise<FileSetup> {
    const options = {
      env: this.host.env,
      chooseWith: this.host.chooseWith,
      tokenOrigin: this.host.tokenOrigin,
      forMock: o.forMock,
      remembered: (folder: string) => this.remembered(folder),
      preferred: this.host.preferred?.(),
    };
    let setup: SendSetup;
    try {
      setup = sendSetup(file, { ...options, environment: o.environment });
    } catch (e) {
      if (!(e instanceof ChooseEnvironmentError) || !this.host.pickEnvironment) throw e;
      const picked = await this.host.pickEnvironment(e.names, e.projectFolder);
      if (picked === undefined) throw new SetupError(`not sent: no environment was chosen (${e.names.join(', ')})`);
      this.remember(e.projectFolder, picked);
      setup = sendSetup(file, { ...options, environment: picked });
    }
    return o.forMock || o.signIn === false ? this.withHostToken(setup) : this.withSignIn(setup, o.signal);
  }

  /**
   * The environment's own sign-in's token, when it has a configuration of its own (signing in,
   * or refreshing, first: a browser may open), in place of the host's; otherwise the host's
   * token, with the sign-ins for `$auth`. A SetupError says why signing in failed.
   */
  private async withSignIn(setup: SendSetup, signal?: AbortSignal): Promise<FileSetup> {
    const signIns = this.host.signIns;
    if (!signIns) return this.withHostToken(setup);
    // LPREQ_TOKEN wins where it is the host's way of giving a token (a host that keeps none).
    const explicit = !this.host.token && setup.tokenFrom === 'LPREQ_TOKEN';
    const wrap = this.host.signingIn ?? ((_id, run) => run(undefined));
    const signed = await signInFor(setup, signIns, { signal, explicitTokenWins: explicit, wrap });
    if (signed.setup.tokenFrom !== 'oauth2') {
      const withToken = await this.withHostToken(setup);
      return signed.auth ? { ...withToken, auth: signed.auth } : withToken;
    }
    const names = Object.keys(setup.files.environments);
    const foreignTokens = (await this.host.otherTokens?.(setup.selected, names)) ?? [];
    const protectedEnvironment =
      setup.protectedEnvironment || (setup.selected !== undefined && this.host.isProtected?.(setup.selected) === true);
    return { ...signed.setup, protectedEnvironment, foreignTokens, ...(signed.auth ? { auth: signed.auth } : {}) };
  }

  /** The host's token for the chosen environment (the editor's secret storage), in place of LPREQ_TOKEN and the private file. */
  private async withHostToken(setup: SendSetup): Promise<FileSetup> {
    const names = Object.keys(setup.files.environments);
    const foreignTokens = (await this.host.otherTokens?.(setup.selected, names)) ?? [];
    const protectedEnvironment =
      setup.protectedEnvironment || (setup.selected !== undefined && this.host.isProtected?.(setup.selected) === true);
    if (!this.host.token) return { ...setup, protectedEnvironment, foreignTokens };
    const access =
      setup.selected === undefined
        ? { token: undefined }
        : await this.host.token(setup.selected, environmentOrigin(setup.environments));
    if (access === undefined)
      throw new TokenDeclinedError(
        `not sent: the access token of '${setup.selected ?? ''}' is not bound to ${environmentOrigin(setup.environments) ?? 'this origin'}, and sending it there was not confirmed`,
      );
    const token = access.token;
    // This environment's token, when it may not go to base_url's origin, goes nowhere.
    const withheld = access.kept !== undefined && access.kept !== token ? [access.kept] : [];
    return {
      ...setup,
      protectedEnvironment,
      token,
      tokenFrom: token === undefined ? undefined : 'host',
      foreignTokens: [...withheld, ...foreignTokens],
    };
  }

  /**
   * The newest exchanges of a file's named requests in this session, in its environment and
   * to its base_url origin: what a chain reads before the history (never an answer of another
   * environment).
   */
  responses(file: string, setup: Pick<SendSetup, 'environments' | 'selected'>): ResponseStore {
    const key = JSON.stringify([file, setup.selected ?? null, environmentOrigin(setup.environments) ?? null]);
    let store = this.kept.get(key);
    if (!store) {
      store = new Map();
      this.kept.set(key, store);
    }
    return store;
  }

  /**
   * Sends block `blockIndex` of `document` (of `file`; `saved` false for a document with no
   * file of its own, whose history keeps no file), with the requests it refers to first,
   * through the sender's flow. The setup is made first (a SetupError when it cannot be).
   */
  async send(
    document: LpreqDocument,
    blockIndex: number,
    o: Omit<
      SendBlockOptions,
      | 'checker'
      | 'environments'
      | 'token'
      | 'system'
      | 'readFile'
      | 'responses'
      | 'history'
      | 'reuseHistory'
      | 'file'
      | 'chooseWith'
    > & {
      file: string;
      saved?: boolean;
      /** The environment given for this send (`--env`); the rule's otherwise. */
      environment?: string | null;
      /** The history to use instead of the host's (`--history DIR`), or none (`null`: `--no-history`). */
      history?: Pick<HistoryStore, 'add' | 'lastOf'> | null;
      /** Send every request this one refers to again (`--resend-dependencies`). */
      resendDependencies?: boolean;
      /** The setup, when the host made it already. */
      setup?: FileSetup;
    },
  ): Promise<{ result: SendResult; setup: FileSetup }> {
    const setup = o.setup ?? (await this.setup(o.file, { environment: o.environment, signal: o.signal }));
    const history = o.history === null ? undefined : (o.history ?? this.host.history?.(setup.projectFolder));
    const environment = setup.selected ?? '';
    const kept = this.responses(o.file, setup);
    // `--resend-dependencies` reads neither the kept answers nor the history's; what it gets is kept after.
    const responses: ResponseStore = o.resendDependencies ? new Map() : kept;
    const result = await sendBlock(document, blockIndex, {
      ...o,
      checker: this.checker,
      environments: setup.environments,
      token: setup.token,
      ...(setup.auth ? { auth: setup.auth } : {}),
      foreignSecrets: [...(o.foreignSecrets ?? []), ...setup.foreignTokens],
      system: setup.system,
      readFile: setup.readFile,
      chooseWith: this.host.chooseWith,
      responses,
      history,
      reuseHistory: !o.resendDependencies,
      file: o.saved === false ? undefined : o.file,
      confirmNote: o.confirmNote ?? this.host.confirmNote,
      confirmChange:
        o.confirmChange ??
        (setup.protectedEnvironment && this.host.confirmChange
          ? (q) => (this.host.confirmChange as NonNullable<SessionHost['confirmChange']>)({ ...q, environment })
          : undefined),
      ask: o.ask ?? this.host.ask,
    });
    if (responses !== kept) for (const [name, stored] of responses) kept.set(name, stored);
    // A sign-in's token renewed after a 401: the setup's later sends (Send All, a run) take the new one.
    if (result.renewedToken !== undefined) setup.token = result.renewedToken;
    return { result, setup };
  }

  /**
   * A test run's source for one file: its environment by the rule (with the mock's variables
   * and address in a mock run), its token, its system variables and body files. The run itself
   * is the runner's (`runTests`), with `runOptions`.
   */
  async testSource(
    file: string,
    o: { display: string; text: string; environment?: string | null; mock?: MockTarget; blocks?: ReadonlySet<number> },
  ): Promise<{ source: TestSource; setup: FileSetup }> {
    const setup = await this.setup(file, { environment: o.environment, forMock: o.mock !== undefined });
    return {
      setup,
      source: {
        file: o.display,
        text: o.text,
        environments: o.mock ? o.mock.environments(setup) : setup.environments,
        token: o.mock ? o.mock.token : setup.token,
        ...(setup.auth && !o.mock ? { auth: setup.auth } : {}),
        system: setup.system,
        readFile: setup.readFile,
        ...(o.blocks ? { blocks: o.blocks } : {}),
      },
    };
  }

  /**
   * The variables a mock run's files use that neither the environment lent nor the mock gives:
   * one note a name, with what the mock's seed holds instead. The requests that use one are not
   * sent (the checker reports it); this says it once.
   */
  missingFromMock(sources: readonly TestSource[], mock: MockTarget): string[] {
    const files = new Map<string, string[]>();
    for (const source of sources) {
      if (source.text === undefined) continue;
      const text = source.text;
      for (const d of this.checker.checkDocument(parseDocument(text), source.environments)) {
        if (d.code !== 'unresolved-variable') continue;
        const name = /^\{\{\s*([^{}\s]+)\s*\}\}$/.exec(text.slice(d.start, d.end))?.[1];
        if (name === undefined || name.includes('.') || name.startsWith('$')) continue;
        const list = files.get(name) ?? [];
        if (!list.includes(source.file)) list.push(source.file);
        files.set(name, list);
      }
    }
    return [...files].map(([name, where]) => {
      const lent = sources.find((s) => s.file === where[0])?.environments?.selected;
      const given =
        lent === undefined || lent === mock.ownEnvironment
          ? 'is not given by the mock, and no environment lends its variables'
          : `is given neither by the environment '${lent}' nor by the mock`;
      return `{{${name}}} ${given} (${mock.missing(name)}): the requests of ${where.join(', ')} that use it are not sent`;
    });
  }

  /**
   * The options of a test run whose files have these setups: the questions the host asks (a
   * protected environment's only when its run sends there), the tokens that go nowhere, and the
   * mock's confinement in a mock run.
   */
  runOptions(setups: readonly FileSetup[], mock?: MockTarget): Omit<RunOptions, 'checker'> & { checker: Checker } {
    const real = setups.flatMap((s) => [s.token, s.privateToken, ...s.foreignTokens]);
    const foreign = mock ? [...real, this.host.env.LPREQ_TOKEN] : setups.flatMap((s) => s.foreignTokens);
    const protectedNames = mock
      ? []
      : [...new Set(setups.filter((s) => s.protectedEnvironment).map((s) => s.selected ?? ''))];
    const confirmChange = this.host.confirmChange;
    return {
      checker: this.checker,
      foreignSecrets: [...new Set(foreign.filter((t): t is string => typeof t === 'string' && t.length > 0))],
      confirmNote: this.host.confirmNote,
      ask: this.host.ask,
      ...(protectedNames.length > 0 && confirmChange
        ? { confirmChange: (q) => confirmChange({ ...q, environment: protectedNames.join(', ') }) }
        : {}),
      // A request others refer to is sent once a run: an answer it did not expect is told, not asked for again.
      sendAgain: false,
      chooseWith: this.host.chooseWith,
      ...mock?.options,
    };
  }
}
