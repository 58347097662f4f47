/**
 * The test runner (LPREQ-FORMAT section 7): every request of the given files, in file order,
 * sent through the sender's own flow (`sendBlock`: dependencies first, the token only to
 * base_url's origin, every secret checked and scrubbed), then its assertions evaluated. One
 * implementation for the command line (`lpreq test`) and the editor: no process, console or
 * file system here. Files come in as text, progress goes out through `events`, and a run
 * stops on its AbortSignal.
 *
 * Within a run, a request that others refer to is sent once: each file keeps the answers of
 * its named requests, and a later reference reads the answer from earlier in the same run.
 * The run reads no history and writes none: what it finds depends on this run alone.
 */
import {
  assertionsOf,
  canonicalOperator,
  type Catalog,
  type Diagnostic,
  type Environments,
  type Block,
  type LpreqDocument,
  LineIndex,
  documentScope,
  metadataValue,
  parseDocument,
  requestName,
  requestTarget,
} from '../../core/index';
import { referencedRequests, referenceValue, type ResponseStore } from '../chaining';
import { blockNamed, sendingEnvironments, type PrepareOptions } from '../prepare';
import { scrubDeep, scrubSecrets } from '../secrets';
import { sendBlock, wasSent, type SendBlockOptions, type SendResult } from '../send';
import { snapshotNames } from '../snapshotFile';
import { describeAt, formatJsonPath } from '../typed';
import { resolveText, type SystemContext } from '../variables';
import type { ResponseFacts } from './evaluate';
import { evaluateWithinBudget, warmRegexWorker } from './regexBudget';
import {
  takeSnapshot,
  type SnapshotContext,
  type SnapshotFiles,
  type SnapshotMode,
  type SnapshotResult,
} from './snapshots';

/** One file to run. */
export interface TestSource {
  /** The file as reports name it: the path as given on the command line, or the workspace's relative path. */
  file: string;
  /** Its text; absent when it could not be read (`problem` says why). */
  text?: string;
  /** Why it could not be read: it is reported, and the run does not pass. */
  problem?: string;
  environments?: Environments;
  system?: SystemContext;
  /** Reads a body file (`< ./body.json`) relative to this file. */
  readFile?: PrepareOptions['readFile'];
  /** The token for this file's environment, when it is not the run's (`RunOptions.token`). */
  token?: string;
  /** The OAuth 2.0 sign-ins of this file's environment (`{{$auth.token("id")}}`, a new token after a 401). */
  auth?: SendBlockOptions['auth'];
  /** Only these requests, by block index (the editor runs one or a few); every one by default. */
  blocks?: ReadonlySet<number>;
  /** Where this file's snapshots are kept (`__snapshots__` beside it); none for standard input. */
  snapshots?: SnapshotFiles;
}

export interface AssertionResult {
  /** 1-based line of the assertion in its file. */
  line: number;
  /** The assertion line as written, trimmed. */
  text: string;
  passed: boolean;
  /** The value found, as JSON text, cut and scrubbed; null when nothing was found or the request was not sent. */
  actual: string | null;
  /** EXPECTED with its variables resolved (scrubbed), when it takes one and it could be resolved. */
  expected?: string;
  /** The operator, as the evaluator reads it (`contains` is `includes`); none for a line that could not be read. */
  operator?: string;
  message: string;
  /** Offsets of the assertion in the file's text (the editor marks them). */
  start: number;
  end: number;
}

/** An error of the checker that kept a request from being sent. */
export interface RequestDiagnostic {
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  code: string;
  message: string;
}

export type RequestFailure =
  /** The checker reports errors in it (and it is not `# @allow-invalid`), or in a request it refers to. */
  | 'invalid'
  /** It could not be prepared (a variable, a prompt, a protected environment not confirmed, a request it refers to that failed). */
  | 'not-sent'
  /** No response (refused, timeout, cancelled...), or one that did not arrive whole. */
  | 'exchange'
  /** Without assertions: a status outside 2xx. */
  | 'status'
  /** At least one assertion does not hold. */
  | 'assertion'
  /** The response differs from its snapshot (or the snapshot could not be read, written or found under `--ci`). */
  | 'snapshot';

export interface RequestResult {
  /** The request's title, or its `@name`, or its request line as written. */
  name: string;
  /** 1-based line of the request line. */
  line: number;
  blockIndex: number;
  /** Null when no response arrived (or nothing was sent). */
  status: number | null;
  durationMs: number;
  passed: boolean;
  /** Not run: the run stopped before it (`bail`, cancelled). */
  skipped: boolean;
  /** It left lpreq (a response came or not). */
  sent: boolean;
  assertions: AssertionResult[];
  /** Why it failed, when it did: the kind, and a sentence (scrubbed). */
  failure?: { kind: RequestFailure; message: string };
  /** The checker's errors that kept it from being sent. */
  diagnostics: RequestDiagnostic[];
  warnings: string[];
  /** Its snapshot, when it has one (`# @snapshot`, `--snapshot`) and a response came. */
  snapshot?: SnapshotResult;
}

export interface FileResult {
  file: string;
  requests: RequestResult[];
  /** Why the file could not be read: nothing of it ran. */
  problem?: string;
}

export interface RunResult {
  files: FileResult[];
  /** Requests that passed, failed, were skipped. */
  passed: number;
  failed: number;
  skipped: number;
  /** Files that could not be read. */
  unreadable: number;
  /** The run stopped at the first failing request (`bail`). */
  bailed: boolean;
  /** The signal stopped the run. */
  cancelled: boolean;
}

export interface RunEvents {
  /** A file is about to run: its requests, in the order they will be reported. */
  fileStarted?(file: string, requests: { name: string; line: number; blockIndex: number }[]): void;
  requestStarted?(file: string, request: { name: string; line: number; blockIndex: number }): void;
  /** A request this one refers to is sent first. */
  dependencySent?(file: string, name: string): void;
  /**
   * A request's exchange, as sendBlock returned it, before its assertions are evaluated: for a
   * host that shows the response (the editor's response view). Not scrubbed: whatever shows it
   * scrubs it, as with sendBlock's own result.
   */
  requestSent?(file: string, request: { name: string; line: number; blockIndex: number }, exchange: SendResult): void;
  requestFinished?(file: string, result: RequestResult): void;
  fileFinished?(result: FileResult): void;
}

/** What a run sends with: every option of `sendBlock` that is not per file or per request. */
export interface RunOptions extends Omit<
  SendBlockOptions,
  | 'environments'
  | 'system'
  | 'readFile'
  | 'responses'
  | 'history'
  | 'reuseHistory'
  | 'file'
  | 'allPages'
  | 'onDependency'
> {
  /** Stop after the first request that fails; the rest are skipped. */
  bail?: boolean;
  /** Only requests whose title, `@name` or request line contains this text (any case). */
  grep?: string;
  events?: RunEvents;
  /** How snapshots are taken and compared (`--snapshot`, `--update-snapshots`, `--ci`). */
  snapshots?: SnapshotMode;
  /** How long `matches` may take over the values of one assertion; 1 s (REGEX_BUDGET_MS) unless said. */
  regexBudgetMs?: number;
}

/** Runs the requests of `sources`, file after file. Never throws; a file that cannot be read is reported. */
export async function runTests(
  sources: Iterable<TestSource> | AsyncIterable<TestSource>,
  options: RunOptions,
): Promise<RunResult> {
  const run: RunResult = {
    files: [],
    passed: 0,
    failed: 0,
    skipped: 0,
    unreadable: 0,
    bailed: false,
    cancelled: false,
  };
  for await (const source of sources) {
    const result = await runFile(source, options, run);
    // A file none of whose requests `grep` or `blocks` picks is not part of this run.
    if (result === undefined) continue;
    run.files.push(result);
    options.events?.fileFinished?.(result);
  }
  run.cancelled = options.signal?.aborted === true;
  return run;
}

/** The requests of a document as a run reports them, with what the editor's tests list. */
export function testsOf(
  document: LpreqDocument,
  lines: LineIndex,
): { name: string; line: number; blockIndex: number }[] {
  const out: { name: string; line: number; blockIndex: number }[] = [];
  document.blocks.forEach(({ start, block }, blockIndex) => {
    if (!block.request) return;
    const requestLine = `${block.request.method.text} ${requestTarget(block.request)}`.trim();
    const name = block.title?.text.trim() || requestName(block) || requestLine;
    out.push({ name, line: lines.at(start + block.request.start).line, blockIndex });
  });
  return out;
}

/** Whether `grep` picks a request: its title, `@name` or request line contains it, in any case. */
function picked(document: LpreqDocument, blockIndex: number, grep: string | undefined): boolean {
  if (grep === undefined || grep === '') return true;
  const block = document.blocks[blockIndex].block;
  const wanted = grep.toLowerCase();
  const texts = [
    block.title?.text ?? '',
    requestName(block) ?? '',
    block.request ? `${block.request.method.text} ${requestTarget(block.request)}` : '',
  ];
  return texts.some((t) => t.toLowerCase().includes(wanted));
}

async function runFile(source: TestSource, options: RunOptions, run: RunResult): Promise<FileResult | undefined> {
  const file: FileResult = { file: source.file, requests: [] };
  if (source.text === undefined) {
    file.problem = source.problem ?? 'could not be read';
    run.unreadable++;
    options.events?.fileStarted?.(source.file, []);
    return file;
  }
  const text = source.text;
  const document = parseDocument(text);
  const lines = new LineIndex(text);
  const all = testsOf(document, lines);
  const tests = all.filter(
    (t) =>
      (source.blocks === undefined || source.blocks.has(t.blockIndex)) && picked(document, t.blockIndex, options.grep),
  );
  if (tests.length === 0 && all.length > 0) return undefined;
  options.events?.fileStarted?.(source.file, tests);
  if (tests.length === 0) return file;

  // The checker's errors, by block: checked once, as `lpreq check` checks the file.
  const errors = errorsByBlock(document, options.checker.checkDocument(document, source.environments));
  // The answers of this file's named requests in this run: a later reference reads them.
  const responses: ResponseStore = new Map();
  const scope = documentScope(document, sendingEnvironments(source.environments));
  const attempted = new Set<string>();
  const snapshots: FileRun['snapshots'] = {
    catalog: options.checker.catalog,
    lines,
    files: source.snapshots,
    names: snapshotNames(document, lines),
    mode: options.snapshots,
  };
  for (const test of tests) {
    options.events?.requestStarted?.(source.file, test);
    let result: RequestResult;
    if (run.bailed || options.signal?.aborted) result = skippedResult(document, test, lines);
    else
      result = await runRequest(
        document,
        test,
        { lines, errors, responses, values: scope.values, attempted, snapshots },
        source,
        options,
      );
    file.requests.push(result);
    if (result.skipped) run.skipped++;
    else if (result.passed) run.passed++;
    else {
      run.failed++;
      if (options.bail) run.bailed = true;
    }
    options.events?.requestFinished?.(source.file, result);
  }
  return file;
}

function errorsByBlock(document: LpreqDocument, diagnostics: Diagnostic[]): Map<number, Diagnostic[]> {
  const out = new Map<number, Diagnostic[]>();
  const starts = document.blocks.map((b) => b.start);
  for (const d of diagnostics) {
    if (d.severity !== 'error') continue;
    // The last block that starts at or before the diagnostic.
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= d.start) lo = mid;
      else hi = mid - 1;
    }
    const list = out.get(lo);
    if (list) list.push(d);
    else out.set(lo, [d]);
  }
  return out;
}

/** The assertions of a block as results not evaluated (the request was skipped or not sent). */
function unevaluated(
  document: LpreqDocument,
  blockIndex: number,
  lines: LineIndex,
  message: string,
): AssertionResult[] {
  const { start, block } = document.blocks[blockIndex];
  return assertionsOf(block).map((a) => {
    const span = a.assertion ?? a.problem;
    const text = block.text.slice(span.start, span.end).trim();
    return {
      line: lines.at(start + span.start).line,
      text,
      passed: false,
      actual: null,
      message,
      start: start + span.start,
      end: start + span.end,
    };
  });
}

function skippedResult(
  document: LpreqDocument,
  test: { name: string; line: number; blockIndex: number },
  lines: LineIndex,
): RequestResult {
  return {
    ...test,
    status: null,
    durationMs: 0,
    passed: false,
    skipped: true,
    sent: false,
    assertions: unevaluated(document, test.blockIndex, lines, 'not run'),
    diagnostics: [],
    warnings: [],
  };
}

/** The requests a block refers to, directly or through those, by name and block: what the flow would send first. */
function dependenciesOf(
  document: LpreqDocument,
  blockIndex: number,
  values: Map<string, string>,
): { name: string; index: number }[] {
  const found: { name: string; index: number }[] = [];
  const seen = new Set<number>([blockIndex]);
  const pending = [blockIndex];
  while (pending.length > 0) {
    const at = pending.pop() as number;
    for (const name of referencedRequests(document, at, values)) {
      const index = blockNamed(document, name);
      if (index === -1 || seen.has(index)) continue;
      seen.add(index);
      pending.push(index);
      found.push({ name, index });
    }
  }
  return found;
}

/** What the requests of one file share in a run. */
interface FileRun {
  lines: LineIndex;
  /** The checker's errors, by block. */
  errors: Map<number, Diagnostic[]>;
  responses: ResponseStore;
  /** The file's variables over the environment's. */
  values: Map<string, string>;
  /** The named requests this run has sent or tried to send: none is sent twice. */
  attempted: Set<string>;
  /** How the file's snapshots are taken: its store, its requests' snapshot names, the run's mode. */
  snapshots: Omit<SnapshotContext, 'scrub' | 'writable'>;
}

/**
 * Why a request is not sent for what it refers to: a request with errors is not sent as a
 * dependency either, and one this run tried already without an answer is not tried again
 * (a refused POST is not asked for twice).
 */
function dependencyFailure(
  document: LpreqDocument,
  blockIndex: number,
  { errors, responses, values, attempted }: Pick<FileRun, 'errors' | 'responses' | 'values' | 'attempted'>,
): RequestResult['failure'] {
  const dependencies = dependenciesOf(document, blockIndex, values);
  const invalid = dependencies.filter(
    (d) =>
      (errors.get(d.index)?.length ?? 0) > 0 &&
      metadataValue(document.blocks[d.index].block, 'allow-invalid') === undefined,
  );
  const unanswered = dependencies.filter((d) => attempted.has(d.name) && !responses.has(d.name));
  if (invalid.length === 0 && unanswered.length === 0) return undefined;
  const names = (list: { name: string }[]) => list.map((d) => `'${d.name}'`).join(', ');
  return {
    kind: invalid.length > 0 ? 'invalid' : 'not-sent',
    message:
      invalid.length > 0
        ? `not sent: it refers to ${names(invalid)}, which the checker reports errors in`
        : `not sent: it refers to ${names(unanswered)}, which got no answer earlier in this run`,
  };
}

/**
 * The verdict of a request that was answered: an error the status does not say (a body cut
 * short, a list missing pages) fails it whatever its assertions say; without assertions it
 * passes on 2xx; with them, when every one holds.
 */
function verdictOf(
  result: SendResult,
  block: Block,
  assertions: RequestResult['assertions'],
): RequestResult['failure'] {
  const status = result.response?.status ?? 0;
  const failed = assertions.filter((a) => !a.passed).length;
  const incomplete = result.error !== undefined && result.error.kind !== 'http' ? result.error : undefined;
  if (incomplete) return { kind: 'exchange', message: incomplete.message };
  if (block.assertionLines.length === 0) {
    if (status < 200 || status >= 300)
      return { kind: 'status', message: `answered ${status}, and a request without assertions passes on 2xx` };
    return undefined;
  }
  if (failed === 0) return undefined;
  const total = assertions.length;
  return { kind: 'assertion', message: `${failed} of ${total} assertion${total === 1 ? '' : 's'} did not hold` };
}

async function runRequest(
  document: LpreqDocument,
  test: { name: string; line: number; blockIndex: number },
  { lines, errors, responses, values: fileValues, attempted, snapshots }: FileRun,
  source: TestSource,
  options: RunOptions,
): Promise<RequestResult> {
  const { blockIndex } = test;
  const { block } = document.blocks[blockIndex];
  const base: RequestResult = {
    ...test,
    status: null,
    durationMs: 0,
    passed: false,
    skipped: false,
    sent: false,
    assertions: [],
    diagnostics: [],
    warnings: [],
  };
  const allowInvalid = metadataValue(block, 'allow-invalid') !== undefined;
  const blockErrors = errors.get(blockIndex) ?? [];
  const token = source.token ?? options.token;
  // Each secret once: the scrubber walks the text once a secret.
  const secretsOf = (result?: SendResult) => [
    ...new Set(
      [
        token,
        options.token,
        ...(options.secrets ?? []),
        ...(options.foreignSecrets ?? []),
        ...(result?.secretValues ?? []),
      ].filter((s): s is string => typeof s === 'string'),
    ),
  ];

  if (blockErrors.length > 0 && !allowInvalid) {
    base.diagnostics = blockErrors.map((d) => {
      const s = lines.at(d.start);
      const e = lines.at(Math.max(d.end, d.start));
      return { line: s.line, column: s.column, endLine: e.line, endColumn: e.column, code: d.code, message: d.message };
    });
    const count = blockErrors.length;
    base.failure = {
      kind: 'invalid',
      message: `not sent: the checker reports ${count} error${count === 1 ? '' : 's'} in this request (mark it # @allow-invalid to send it anyway)`,
    };
    base.assertions = unevaluated(document, blockIndex, lines, 'not evaluated: the request was not sent');
    return scrubDeep(base, secretsOf());
  }
  const blocked = dependencyFailure(document, blockIndex, { errors, responses, values: fileValues, attempted });
  if (blocked) {
    base.failure = blocked;
    base.assertions = unevaluated(document, blockIndex, lines, 'not evaluated: the request was not sent');
    return scrubDeep(base, secretsOf());
  }

  readyForAssertions(document, blockIndex);
  const result = await sendBlock(document, blockIndex, {
    ...options,
    token,
    ...(source.auth ? { auth: source.auth } : {}),
    environments: source.environments,
    system: source.system,
    readFile: source.readFile,
    responses,
    onDependency: (name) => options.events?.dependencySent?.(source.file, name),
  });
  // A sign-in's token renewed after a 401: the file's later requests send the new one.
  if (result.renewedToken !== undefined) source.token = result.renewedToken;
  options.events?.requestSent?.(source.file, test, result);
  for (const name of [requestName(block), ...result.dependencies.map((d) => d.name)])
    if (name !== undefined) attempted.add(name);
  const response = result.response;
  base.sent = wasSent(result);
  base.status = response?.status ?? null;
  base.durationMs = response?.durationMs ?? 0;
  base.warnings = result.warnings;
  const secrets = secretsOf(result);

  if (!response || response.status === null) {
    base.failure = { kind: base.sent ? 'exchange' : 'not-sent', message: result.error?.message ?? 'no response' };
    base.assertions = unevaluated(
      document,
      blockIndex,
      lines,
      `not evaluated: ${base.sent ? 'no response' : 'the request was not sent'}`,
    );
    return scrubDeep(base, secrets);
  }

  // EXPECTED reads the variables the request itself reads (prepare.ts): the file's over the environment's, then overrides, then prompt answers given.
  const values =
    options.overrides?.size || options.prompts?.size
      ? new Map([...fileValues, ...(options.overrides ?? []), ...(options.prompts ?? [])])
      : fileValues;
  base.assertions = await evaluateBlockAssertions(document, blockIndex, result, {
    checker: options.checker,
    lines,
    values,
    system: source.system,
    responses,
    secrets,
    regexBudgetMs: options.regexBudgetMs,
  });

  const failure = verdictOf(result, block, base.assertions);
  if (failure) base.failure = failure;
  // An error the status does not say (a body cut short, a list missing pages): no snapshot of it.
  const incomplete = result.error !== undefined && result.error.kind !== 'http';
  // A snapshot is written only of a response that passed otherwise, as Jest writes none after a failed expect.
  const scrub = (text: string) => scrubSecrets(text, secrets);
  const snapshot = incomplete
    ? undefined
    : takeSnapshot(document, blockIndex, result, { ...snapshots, scrub, writable: base.failure === undefined });
  if (snapshot) base.snapshot = snapshot;
  if (base.failure === undefined && snapshot?.outcome === 'failed')
    base.failure = { kind: 'snapshot', message: snapshot.message };
  base.passed = base.failure === undefined;
  return scrubDeep(base, secrets);
}

/**
 * Starts what evaluating a block's assertions will need while its request is on its way: the
 * worker that decides `matches` (regexBudget.ts), whose start would otherwise come after the
 * response. For the runner and for Send Request, before they send.
 */
export function readyForAssertions(document: LpreqDocument, blockIndex: number): void {
  const { block } = document.blocks[blockIndex];
  if (assertionsOf(block).some((a) => a.assertion && canonicalOperator(a.assertion.operator) === 'matches'))
    warmRegexWorker();
}

/** What evaluating a block's assertions reads besides the response. */
export interface AssertionContext {
  checker: Pick<RunOptions['checker'], 'catalog'>;
  lines: LineIndex;
  /** The variables EXPECTED reads: the file's over the environment's (and overrides, prompt answers). */
  values: Map<string, string>;
  system?: SystemContext;
  /** The answers of named requests, for `{{name.response...}}` in EXPECTED. */
  responses: ResponseStore;
  /** Scrubbed out of every actual value and EXPECTED shown. */
  secrets: string[];
  /** How long `matches` may take over the values of one assertion; 1 s (REGEX_BUDGET_MS) unless said. */
  regexBudgetMs?: number;
}

/**
 * The assertions of a block evaluated on the response a send got: what a run does after each
 * request, and what the editor does after Send Request, so both read them the same way. With
 * no response, each is reported not evaluated. A `matches` is decided off the calling thread,
 * within its budget (regexBudget.ts): the extension host's thread never runs a pattern.
 * Results are not yet scrubbed of `secrets` beyond what evaluation scrubs: callers scrub the
 * whole result.
 */
export async function evaluateBlockAssertions(
  document: LpreqDocument,
  blockIndex: number,
  result: SendResult,
  context: AssertionContext,
): Promise<AssertionResult[]> {
  const { lines, values, system, responses, secrets } = context;
  const { start, block } = document.blocks[blockIndex];
  const response = result.response;
  if (!response || response.status === null) {
    return unevaluated(
      document,
      blockIndex,
      lines,
      `not evaluated: ${wasSent(result) ? 'no response' : 'the request was not sent'}`,
    );
  }
  const out: AssertionResult[] = [];
  const documentedType = documentedTypes(context.checker.catalog, result.request?.returns ?? null);
  for (const entry of assertionsOf(block)) {
    if (entry.problem) {
      const p = entry.problem;
      out.push({
        line: lines.at(start + p.start).line,
        text: block.text.slice(p.start, p.end).trim(),
        passed: false,
        actual: null,
        message: p.message,
        start: start + p.start,
        end: start + p.end,
      });
      continue;
    }
    const a = entry.assertion;
    const where = { line: lines.at(start + a.start).line, text: a.text, start: start + a.start, end: start + a.end };
    let expected: string | undefined;
    if (a.expected) {
      const resolved = resolveText(a.expected.text, {
        values,
        system,
        reference: (ref) => referenceValue(ref, responses.get(ref.name)),
      });
      if (resolved.errors.length > 0) {
        out.push({
          ...where,
          passed: false,
          actual: null,
          message: `EXPECTED cannot be resolved: ${resolved.errors[0]}`,
        });
        continue;
      }
      expected = resolved.text;
    }
    const outcome = await evaluateWithinBudget(a, response as ResponseFacts, expected, {
      documentedType,
      secrets,
      regexBudgetMs: context.regexBudgetMs,
    });
    const operator = canonicalOperator(a.operator);
    out.push({ ...where, ...outcome, operator, ...(expected !== undefined ? { expected } : {}) });
  }
  return out;
}

/** The documented type at a path of a response of type `returns`, from the catalog's resources. */
export function documentedTypes(
  catalog: Catalog,
  returns: string | null,
): ((path: readonly (string | number)[]) => string | undefined) | undefined {
  if (returns === null) return undefined;
  return (path) => describeAt(catalog, returns, formatJsonPath(path))?.type;
}
