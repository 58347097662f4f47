/**
 * The whole flow of sending one request of a file: requests it refers to are sent first
 * (chaining) unless their last response is known (the caller's map, or the history), then the request itself is prepared, sent (every page, when asked),
 * its body checked against the documented resource, and the exchange stored in history.
 */
import {
  type Checker,
  type Diagnostic,
  documentScope,
  RequestsBefore,
  SECRET_NAME,
  metadataValue,
  promptVariables,
  requestName,
  requestTarget,
  type Block,
  type LpreqDocument,
} from '../core/index';
import {
  answerCounts,
  answerOf,
  exchangeFromHistory,
  newer,
  referencedRequests,
  referenceValue,
  type ResponseStore,
  type StoredExchange,
} from './chaining';
import type { ExchangeError } from './exchange';
import { entryFromExchange, type HistoryStore } from './history';
import { sendAllPages, type PagedResult, type PagingOptions } from './paging';
import {
  blockNamed,
  environmentOptions,
  environmentOrigin,
  prepareRequest,
  type PreparedRequest,
  type PrepareOptions,
  type SendEnvironments,
  sendingEnvironments,
} from './prepare';
import { readTlsFiles, type TlsFiles } from '../node/index';
import { scrubSecrets } from './secrets';
import { authReferences, type SendAuth } from './oauth2/environmentAuth';
import { checkResponse, type ResponseIssue } from './typed';
import type { SystemContext } from './variables';

export interface SendBlockOptions extends PagingOptions {
  checker: Checker;
  /** With each environment's `$tls` (used unless `tls` is given) and `$defaultHeaders`. */
  environments?: SendEnvironments;
  /** How the user chooses an environment, for the message of a request that needs one (prepare.ts). */
  chooseWith?: string;
  /** Headers every request of the flow gets unless it sets them (prepare.ts). */
  defaultHeaders?: PrepareOptions['defaultHeaders'];
  system?: SystemContext;
  /** Follow the next pages and merge them (only for the request itself, not its dependencies); a request marked `# @all-pages` always does. */
  allPages?: boolean;
  /**
   * Last exchanges by request name. Give the same map for later sends of the same document
   * to reuse responses; a referenced request missing from it is sent first.
   */
  responses?: ResponseStore;
  /** Stores every exchange of this flow (dependencies included): a HistoryStore, or one that writes it behind (the language server). */
  history?: Pick<HistoryStore, 'add' | 'lastOf'>;
  /**
   * A referenced request is also looked for in `history` (its newest exchange from this `file`
   * in the same environment, to the same base_url origin), and the newer of that and the one in
   * `responses` is read: the command line's memory between runs, and the editor's.
   */
  reuseHistory?: boolean;
  /**
   * A referenced request whose newest answer is not one it expects (a 401, a 500) is sent again
   * first (the default); false: the request is not sent, and the error says why (a test run
   * sends a request others refer to once).
   */
  sendAgain?: boolean;
  /** The request file, recorded in history. */
  file?: string;
  /** Called when a request this one refers to is about to be sent. */
  onDependency?: (name: string) => void;
  /** Values given beforehand for prompt variables (`# @prompt name`), by name (the command line's --prompt). */
  prompts?: Map<string, string>;
  /** Values that win over the file's and the environment's, for every request of the flow (prepare.ts). */
  overrides?: ReadonlyMap<string, string>;
  /**
   * Only requests to this origin are sent (`lpreq test --mock`: nothing leaves the machine);
   * `why` says so in the error of any other.
   */
  confineTo?: { origin: string; why: string };
  /** Reads a body file (`< ./body.json`), relative to the request file's folder. */
  readFile?: PrepareOptions['readFile'];
  /**
   * The environment's OAuth 2.0 sign-ins (oauth2/environmentAuth.ts): `{{$auth.token("id")}}`
   * readied before a request is prepared, and after a 401 to a sign-in's token a new token and
   * the request sent once more.
   */
  auth?: SendAuth;
  /** Asks for a prompt variable that has no value yet; undefined means the user cancelled. */
  ask?: (question: PromptQuestion) => Promise<string | undefined>;
  /**
   * Asked for each request of the flow marked `# @note` (REST Client), the requests it refers
   * to included, before it is sent; false stops the flow. Without it such requests are sent.
   */
  confirmNote?: (question: { request: string; note: string }) => Promise<boolean>;
  /**
   * Asked before each POST, PUT, PATCH or DELETE of the flow, the requests it refers to
   * included (a protected environment, `"$protected": true`); false stops the flow.
   */
  confirmChange?: (question: { request: string; method: string }) => Promise<boolean>;
  /**
   * Called with the request's own answer once it is read, before its body is checked against
   * the documentation and stored in history (the result then has no typed issues yet); the
   * flow goes on when it returns. A view shows the answer at once this way.
   */
  onAnswer?: (result: SendResult) => void | Promise<void>;
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** Methods that change data: a protected environment asks before they are sent. */
const CHANGING_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export interface PromptQuestion {
  name: string;
  /** The words after the name in `# @prompt name words`, or empty. */
  description: string;
  /** The request that asks: its name, or METHOD TARGET. */
  request: string;
  /** A name that reads like a secret (password, passwd, pass, token, secret): the answer should be masked. */
  secret: boolean;
}

/** A prompt variable whose name reads like a secret (REST Client masks password, passwd and pass): its answer is masked and kept out of history. */
export function isSecretPrompt(name: string): boolean {
  return SECRET_NAME.test(name);
}

export interface SendResult {
  /** True when a response with a 2xx status arrived. */
  ok: boolean;
  /** The request as sent (without the token); absent when it could not be prepared. */
  request?: PreparedRequest;
  /** The response (all pages merged with `allPages`); absent when nothing was sent. */
  response?: PagedResult;
  /** The documented type of the body (`Module[]`), or null. */
  resource: string | null;
  /** Differences between the body and the documented resource. */
  issues: ResponseIssue[];
  /** Why the body was not checked against `resource` (then `issues` says nothing about it). */
  unchecked?: 'truncated' | 'not-json';
  /** Why there is no (successful) response: a preparation problem or a failed exchange. */
  /** `declined`: the user answered no (a note, a protected environment, a prompt left empty), which a host need not repeat. */
  error?: ExchangeError | { kind: 'prepare'; message: string; declined?: true } | DependencyError;
  warnings: string[];
  /** Checker errors of the request, offsets relative to its block (it is sent anyway; the caller decides how to show them). */
  diagnostics: Diagnostic[];
  /**
   * Requests this one refers to: sent first, or, with `historyTime`, read from the history (the
   * exchange that ended then). `historyUnusable` says why the history's last one was not used.
   */
  dependencies: {
    name: string;
    status: number | null;
    ok: boolean;
    historyTime?: string;
    historyUnusable?: string;
    notSent?: true;
  }[];
  /**
   * Every secret of the flow but the token: answers to secret-looking prompt variables (a
   * password), the environments' secret variables (every environment's token), secret process
   * and `.env` variables the requests read. To be kept out of what is shown or stored, as the
   * token is.
   */
  secretValues: string[];
  /** Those of secretValues that go nowhere from the request's environment (prepare.ts's foreignSecrets): a copy of the request is checked with them. */
  foreignSecretValues?: string[];
  /** The environment's token after a 401 renewed it (a sign-in's): later sends of the flow use it. */
  renewedToken?: string;
  historyId?: string;
}

/**
 * A request this one refers to has no answer it can read: the message names it, the
 * environment and what was found, and says to send it first; `dependency` says the same for a
 * host that offers that as an action.
 */
export interface DependencyError {
  kind: 'dependency';
  message: string;
  dependency?: { name: string; environment: string | undefined; status: number | null };
}

/** The error of a request that reads the answer of `name`, which is not one it expects. */
function chainError(
  name: string,
  environment: string | undefined,
  found: { status?: number | null; statusText?: string; failure?: string; when: string },
): DependencyError {
  const where = environment === undefined ? 'with no environment' : `in the environment '${environment}'`;
  const what =
    found.failure !== undefined
      ? `got no usable answer (${found.failure})`
      : `answered ${found.status ?? 'nothing'}${found.statusText ? ` ${found.statusText}` : ''}`;
  const why =
    found.failure !== undefined || found.status === null || found.status === undefined
      ? ''
      : ': its body is an error, not what this request reads';
  return {
    kind: 'dependency',
    message: `not sent: this request reads the response of '${name}' ${where}, and '${name}', ${found.when}, ${what}${why}. Send '${name}' first and look at its response`,
    dependency: { name, environment, status: found.status ?? null },
  };
}

/**
 * The newest exchange of the request `name` (block `index`) in this environment: the one kept
 * in `responses` or the history's, whichever is newer. An error when the history is there but
 * cannot be read: "never sent" could make a second module.
 */
async function newestExchange(
  name: string,
  index: number,
  options: SendBlockOptions & { responses: ResponseStore },
): Promise<
  | { stored?: StoredExchange; historyTime?: string; historyUnusable?: string }
  | { error: NonNullable<SendResult['error']> }
> {
  const kept = options.responses.get(name);
  if (!options.reuseHistory || !options.history || options.file === undefined) return { stored: kept };
  let entry: Awaited<ReturnType<HistoryStore['lastOf']>>;
  try {
    entry = await options.history.lastOf({
      name,
      file: options.file,
      environment: options.environments?.selected,
      baseOrigin: environmentOrigin(options.environments),
    });
  } catch (e) {
    return {
      error: {
        kind: 'dependency',
        message: `the last response of '${name}' could not be read from the history: ${e instanceof Error ? e.message : String(e)}`,
      },
    };
  }
  if (!entry) return { stored: kept };
  // An entry that cannot be read back (written by hand, another version) is no response.
  let earlier: ReturnType<typeof exchangeFromHistory>;
  try {
    earlier = exchangeFromHistory(entry, index);
  } catch (e) {
    earlier = { unusable: `cannot be read back (${e instanceof Error ? e.message : String(e)})` };
  }
  if ('unusable' in earlier) {
    // Kept in memory and newer than the entry: the entry says nothing of it.
    if (kept && (kept.time === undefined || kept.time >= entry.time)) return { stored: kept };
    return { historyUnusable: earlier.unusable };
  }
  const stored = newer(kept, earlier.stored);
  return stored === earlier.stored ? { stored, historyTime: entry.time } : { stored };
}

/** Whether the request of a result left lpreq (an answer came or not), as opposed to being stopped before it was sent. */
export function wasSent(result: SendResult): boolean {
  const kind = result.response?.error?.kind;
  return result.response !== undefined && kind !== 'secret-elsewhere' && kind !== 'invalid-url';
}

/** Sends block `blockIndex` of `document`, with the requests it refers to first. Never throws. */
export async function sendBlock(
  document: LpreqDocument,
  blockIndex: number,
  options: SendBlockOptions,
): Promise<SendResult> {
  const responses = options.responses ?? new Map();
  let tls = options.tls;
  if (tls === undefined) {
    const read = environmentTls(options.environments);
    if ('error' in read) return notSent({ kind: 'tls', message: `not sent: ${read.error}` });
    tls = read.tls;
  }
  try {
    const flow = { ...options, responses, tls };
    const result = await sendWithDependencies(document, blockIndex, flow, [], true);
    // A 401 of this request or of one it refers to renewed the environment's token: the host's later sends take it.
    if (flow.token !== options.token && flow.token !== undefined) result.renewedToken = flow.token;
    return result;
  } catch (e) {
    return notSent({ kind: 'prepare', message: `internal error while sending: ${(e as Error)?.message ?? String(e)}` });
  }
}

function notSent(error: NonNullable<SendResult['error']>): SendResult {
  return {
    ok: false,
    resource: null,
    issues: [],
    error,
    warnings: [],
    diagnostics: [],
    dependencies: [],
    secretValues: [],
  };
}

/**
 * The chosen environment's `$tls` files, read now (every host that sends gets them: the
 * command line, the language server, the editor). None when it has no `$tls`.
 */
export function environmentTls(environments: SendEnvironments | undefined): { tls?: TlsFiles } | { error: string } {
  const settings = environmentOptions(environments)?.tls;
  return settings ? readTlsFiles(settings, environments?.selected) : {};
}

/**
 * What is asked before anything is sent (a request the user cancels sends none of those it
 * refers to either): a `# @note` confirmed, a change in a protected environment confirmed,
 * each `# @prompt` answered. The answers, or undefined with the reason on `result`.
 */
async function askFirst(
  block: Block | undefined,
  options: SendBlockOptions,
  top: boolean,
  result: SendResult,
): Promise<Map<string, string> | undefined> {
  // The request as questions name it: its name, or METHOD target.
  const label =
    (block && requestName(block)) ??
    `${block?.request?.method.text ?? ''} ${block?.request ? requestTarget(block.request) : ''}`.trim();
  const note = block ? metadataValue(block, 'note') : undefined;
  if (note !== undefined && options.confirmNote) {
    if (!(await options.confirmNote({ request: label, note }))) {
      result.error = {
        kind: 'prepare',
        message: `not sent: ${label} is marked # @note${top ? '' : ', and this request refers to it'}, and sending it was not confirmed`,
        declined: true,
      };
      return undefined;
    }
  }
  const method = block?.request?.method.text.toUpperCase() ?? '';
  if (options.confirmChange && CHANGING_METHODS.has(method)) {
    if (!(await options.confirmChange({ request: label, method }))) {
      const what = label.startsWith(`${method} `) ? label : `${method} ${label}`;
      result.error = {
        kind: 'prepare',
        message: `not sent: the environment is protected, and ${what}${top ? '' : ' (this request refers to it)'} was not confirmed`,
        declined: true,
      };
      return undefined;
    }
  }
  const prompts = new Map<string, string>();
  for (const p of block ? promptVariables(block) : []) {
    let value = options.prompts?.get(p.name);
    if (value === undefined && options.ask) {
      value = await options.ask({
        name: p.name,
        description: p.description,
        request: label,
        secret: isSecretPrompt(p.name),
      });
    }
    if (value === undefined) {
      result.error = {
        kind: 'prepare',
        message: `not sent: no value was given for {{${p.name}}} (# @prompt ${p.name})`,
      };
      return undefined;
    }
    prompts.set(p.name, value);
    if (isSecretPrompt(p.name) && value.length > 0) result.secretValues.push(value);
  }
  return prompts;
}

/**
 * The requests this one refers to, each answered first: by the newest exchange of it in this
 * environment (kept in memory or in the history) when that answer counts, else sent now,
 * with what it refers to. False when one cannot be had, with the reason on `result`.
 */
async function sendDependencies(
  document: LpreqDocument,
  blockIndex: number,
  values: Map<string, string>,
  options: SendBlockOptions & { responses: ResponseStore },
  stack: string[],
  result: SendResult,
): Promise<boolean> {
  const environment = options.environments?.selected;
  for (const name of referencedRequests(document, blockIndex, values)) {
    const index = blockNamed(document, name);
    if (index === -1) {
      result.error = {
        kind: 'dependency',
        message: `there is no request named '${name}' in this file (# @name ${name})`,
      };
      return false;
    }
    if (stack.includes(name) || index === blockIndex) {
      result.error = {
        kind: 'dependency',
        message: `the requests refer to each other in a cycle: ${[...stack, name].join(' -> ')}`,
      };
      return false;
    }
    const depBlock = document.blocks[index]?.block;
    // One lookup: the newest exchange of that request in this environment, kept in memory or in the history.
    const found = await newestExchange(name, index, options);
    if ('error' in found) {
      result.error = found.error;
      return false;
    }
    const { stored, historyTime, historyUnusable } = found;
    if (stored && answerCounts(depBlock, answerOf(stored))) {
      options.responses.set(name, stored);
      if (historyTime !== undefined)
        result.dependencies.push({ name, status: stored.response.status, ok: true, historyTime });
      continue;
    }
    // A request others refer to is sent once in a test run: an answer it did not expect is told, not asked for again.
    if (stored && options.sendAgain === false) {
      result.dependencies.push({ name, status: stored.response.status, ok: false, notSent: true });
      result.error = chainError(name, environment, {
        status: stored.response.status,
        statusText: stored.response.statusText,
        when: 'earlier in this run',
      });
      return false;
    }
    options.onDependency?.(name);
    const dep = await sendWithDependencies(document, index, options, [...stack, name], false);
    const unusable = historyUnusable ?? (stored ? `answered ${stored.response.status}` : undefined);
    result.dependencies.push(...dep.dependencies, {
      name,
      status: dep.response?.status ?? null,
      ok: dep.ok,
      ...(unusable ? { historyUnusable: unusable } : {}),
      // Stopped before it left (a cycle, a prompt without an answer, a secret bound elsewhere): never called sent.
      ...(wasSent(dep) ? {} : { notSent: true as const }),
    });
    result.secretValues.push(...dep.secretValues);
    if (!dep.response || dep.response.status === null) {
      result.error = wasSent(dep)
        ? chainError(name, environment, { failure: dep.error?.message ?? 'no response', when: 'sent first' })
        : dep.error?.kind === 'dependency'
          ? dep.error
          : {
              kind: 'dependency',
              message: `the request '${name}' that this one refers to was not sent: ${dep.error?.message ?? 'no response'}`,
              dependency: { name, environment, status: null },
            };
      return false;
    }
    const answered = dep.request?.name !== undefined ? options.responses.get(name) : undefined;
    if (!answerCounts(depBlock, answered ? answerOf(answered) : { status: dep.response.status, ok: dep.ok })) {
      result.error = chainError(name, environment, {
        status: dep.response.status,
        statusText: dep.response.statusText,
        failure:
          dep.error && dep.error.kind !== 'http' && dep.response.status >= 200 && dep.response.status < 300
            ? dep.error.message
            : undefined,
        when: 'sent first',
      });
      return false;
    }
  }

  return true;
}

/** The answer against its documented type: a body that can be checked is, one that cannot (cut short, not JSON) is named. */
function typeAnswer(
  result: SendResult,
  request: PreparedRequest,
  response: SendResult['response'] & object,
  checker: Checker,
  secrets: readonly (string | undefined)[],
): void {
  const declaredJson = response.contentType !== undefined && /[/+]json\b/i.test(response.contentType);
  if (response.ok && request.method !== 'HEAD' && response.bodyKind !== 'binary') {
    // A HEAD answer has no body to check; neither has a binary one (a file download).
    if (response.truncated) {
      result.resource = request.returns;
      result.unchecked = 'truncated';
      result.warnings.push('the body is truncated: it was not checked against the documentation');
    } else if (request.returns && response.bodyKind === 'text') {
      // An HTML login page is no JSON string: it is not typed, it is named.
      result.resource = request.returns;
      result.unchecked = 'not-json';
      if (!declaredJson)
        result.warnings.push(
          `the body is not JSON (${response.contentType ?? 'no content type'}), and ${request.returns} is documented: it was not checked against the documentation`,
        );
    } else if (response.bodyKind !== 'empty' || response.status !== 204) {
      const typed = checkResponse(
        checker.catalog,
        request.returns,
        response.bodyKind === 'empty' ? null : response.body,
        (text) => scrubSecrets(text, secrets),
      );
      result.resource = typed.resource;
      result.issues = typed.issues;
    }
  }
}

/** The exchange kept in the history, every secret of the flow left out as the token is. */
async function storeInHistory(
  result: SendResult,
  request: PreparedRequest,
  response: SendResult['response'] & object,
  options: SendBlockOptions,
  secrets: (string | undefined)[],
): Promise<void> {
  const history = options.history;
  if (!history) return;
  try {
    const entry = entryFromExchange(request, response, {
      file: options.file,
      environment: options.environments?.selected,
      resource: result.resource,
      issues: result.issues,
      pages: response.pages,
      // Every secret of the flow stays out of history, as the token does.
      secrets,
    });
    result.historyId = (await history.add(entry)).id;
  } catch (e) {
    result.warnings.push(`the exchange could not be stored in history: ${(e as Error).message}`);
  }
}

async function sendWithDependencies(
  document: LpreqDocument,
  blockIndex: number,
  options: SendBlockOptions & { responses: ResponseStore },
  stack: string[],
  top: boolean,
): Promise<SendResult> {
  const scope = documentScope(document, sendingEnvironments(options.environments));
  const block = document.blocks[blockIndex]?.block;
  const result: SendResult = {
    ok: false,
    resource: null,
    issues: [],
    warnings: [],
    diagnostics: [],
    dependencies: [],
    secretValues: [],
  };
  if (block) {
    // Checked as the editor checks it where it stands: with the request names above it.
    const before = new RequestsBefore(scope);
    for (let k = 0; k < blockIndex; k++) before.pass(document.blocks[k].block);
    result.diagnostics = options.checker.checkBlock(block, before.scope).filter((d) => d.severity === 'error');
  }

  const prompts = await askFirst(block, options, top, result);
  if (!prompts) return result;
  if (!(await sendDependencies(document, blockIndex, scope.values, options, stack, result))) return result;

  // `{{$auth.token("id")}}` of the request or of a variable it may read: the sign-in's token is had now, before the pure step.
  const auth = options.auth;
  if (auth && block) {
    const references = authReferences([block.text, ...scope.values.values()]);
    const problem = references.length > 0 ? await auth.ready(references, options.signal) : undefined;
    if (problem !== undefined) {
      result.error = { kind: 'prepare', message: `not sent: ${problem}` };
      return result;
    }
  }
  const prepare = () =>
    prepareRequest(options.checker, document, blockIndex, {
      environments: options.environments,
      system: auth ? { ...options.system, auth } : options.system,
      reference: (ref) => referenceValue(ref, options.responses.get(ref.name)),
      prompts,
      overrides: options.overrides,
      readFile: options.readFile,
      defaultHeaders: options.defaultHeaders,
      chooseWith: options.chooseWith,
    });
  let prepared = prepare();
  // A `$auth` reference the scan did not see (a body file's `<@`): readied now, and the request prepared again.
  const missing = !prepared.ok && auth ? auth.takeMissing() : [];
  if (missing.length > 0) {
    const problem = await auth?.ready(missing, options.signal);
    if (problem !== undefined) {
      result.error = { kind: 'prepare', message: `not sent: ${problem}` };
      return result;
    }
    prepared = prepare();
  }
  // A sign-in's tokens are secrets of the flow: its access and ID tokens go where the token goes, the rest nowhere.
  const authForeign = auth?.foreignSecrets() ?? [];
  for (const s of [...prepared.secrets, ...prepared.foreignSecrets, ...(auth?.secrets() ?? []), ...authForeign])
    if (!result.secretValues.includes(s)) result.secretValues.push(s);
  result.foreignSecretValues = [...prepared.foreignSecrets, ...authForeign];
  if (!prepared.ok) {
    result.error = { kind: 'prepare', message: prepared.error };
    return result;
  }
  let request = prepared.request;
  result.request = request;
  if (options.confineTo && originOf(request.url) !== options.confineTo.origin) {
    result.error = {
      kind: 'prepare',
      message: `not sent to ${originOf(request.url) ?? request.url}: ${options.confineTo.why}`,
    };
    return result;
  }
  // `# @all-pages` is the request's own --all-pages: every page, merged (lpreq test asserts on whole lists).
  const allPages =
    top && (options.allPages || (block !== undefined && metadataValue(block, 'all-pages') !== undefined));
  // What may go where the token goes, and what goes nowhere (exchange.ts); another
  // environment's token stays foreign even when it is also among the first.
  const exchangeOf = (p: typeof prepared) => {
    const secrets = [...(options.secrets ?? []), options.token, ...result.secretValues, ...(auth?.secrets() ?? [])];
    const foreignSecrets = [...(options.foreignSecrets ?? []), ...p.foreignSecrets, ...(auth?.foreignSecrets() ?? [])];
    const exchange = { ...options, secrets, foreignSecrets };
    return { secrets, foreignSecrets, paging: (allPages ? exchange : { ...exchange, onePage: true }) as PagingOptions };
  };
  let { secrets, foreignSecrets, paging } = exchangeOf(prepared);
  let response = await sendAllPages(request, paging);
  // Refused (401) with a sign-in's token: a new one (refreshed, or signed in again), and the request once more.
  if (response.status === 401 && auth) {
    const refused = [response.tokenSent ? options.token : undefined, ...prepared.secrets].filter(
      (t): t is string => typeof t === 'string',
    );
    const again = await auth.renew(refused, options.signal);
    if (again.error !== undefined)
      result.warnings.push(`the server refused the token (401), and no new one could be had: ${again.error}`);
    if (again.renewed) {
      if (again.token !== undefined) options.token = again.token;
      result.renewedToken = options.token;
      prepared = prepare();
      if (prepared.ok) {
        for (const s of [...prepared.secrets, ...(auth.secrets() ?? [])])
          if (!result.secretValues.includes(s)) result.secretValues.push(s);
        request = prepared.request;
        result.request = request;
        ({ secrets, foreignSecrets, paging } = exchangeOf(prepared));
        result.warnings.push('the server refused the token (401): lpreq got a new one and sent the request once more');
        response = await sendAllPages(request, paging);
      }
    }
  }
  result.response = response;
  result.ok = response.ok;
  result.warnings.push(...response.warnings);
  if (response.error) result.error = response.error;
  if (request.name && response.status !== null)
    options.responses.set(request.name, { request, response, time: new Date().toISOString() });
  if (top) await options.onAnswer?.(result);

  typeAnswer(result, request, response, options.checker, [...secrets, ...foreignSecrets]);

  if (options.history) await storeInHistory(result, request, response, options, [...secrets, ...foreignSecrets]);
  return result;
}
