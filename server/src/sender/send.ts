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
  type LpreqDocument,
} from '../core/index';
import { exchangeFromHistory, referencedRequests, referenceValue, type ResponseStore } from './chaining';
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
} from './prepare';
import { readTlsFiles, type TlsFiles } from '../node/index';
import { scrubSecrets } from './secrets';
import { checkResponse, type ResponseIssue } from './typed';
import type { SystemContext } from './variables';

export interface SendBlockOptions extends PagingOptions {
  checker: Checker;
  /** With each environment's `$tls` (used unless `tls` is given) and `$defaultHeaders`. */
  environments?: SendEnvironments;
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
   * A referenced request missing from `responses` is first looked for in `history` (its last
   * exchange from this `file` in the same environment) and sent only when there is none, or
   * when that one has no 2xx answer: the command line's memory between runs.
   */
  reuseHistory?: boolean;
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
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

/** Methods that change data: a protected environment asks before they are sent. */
export const CHANGING_METHODS: ReadonlySet<string> = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

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
  error?: ExchangeError | { kind: 'prepare' | 'dependency'; message: string };
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
  historyId?: string;
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
    return await sendWithDependencies(document, blockIndex, { ...options, responses, tls }, [], true);
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

async function sendWithDependencies(
  document: LpreqDocument,
  blockIndex: number,
  options: SendBlockOptions & { responses: ResponseStore },
  stack: string[],
  top: boolean,
): Promise<SendResult> {
  const scope = documentScope(document, options.environments);
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

  // Asked before anything is sent: a request the user cancels sends none of those it refers to either.
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
      };
      return result;
    }
  }
  const method = block?.request?.method.text.toUpperCase() ?? '';
  if (options.confirmChange && CHANGING_METHODS.has(method)) {
    if (!(await options.confirmChange({ request: label, method }))) {
      const what = label.startsWith(`${method} `) ? label : `${method} ${label}`;
      result.error = {
        kind: 'prepare',
        message: `not sent: the environment is protected, and ${what}${top ? '' : ' (this request refers to it)'} was not confirmed`,
      };
      return result;
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
      return result;
    }
    prompts.set(p.name, value);
    if (isSecretPrompt(p.name) && value.length > 0) result.secretValues.push(value);
  }
  for (const name of referencedRequests(document, blockIndex, scope.values)) {
    if (options.responses.has(name)) continue;
    const index = blockNamed(document, name);
    if (index === -1) {
      result.error = {
        kind: 'dependency',
        message: `there is no request named '${name}' in this file (# @name ${name})`,
      };
      return result;
    }
    if (stack.includes(name) || index === blockIndex) {
      result.error = {
        kind: 'dependency',
        message: `the requests refer to each other in a cycle: ${[...stack, name].join(' -> ')}`,
      };
      return result;
    }
    let historyUnusable: string | undefined;
    if (options.reuseHistory && options.history && options.file !== undefined) {
      const environment = options.environments?.selected;
      let entry: Awaited<ReturnType<HistoryStore['lastOf']>>;
      try {
        entry = await options.history.lastOf({
          name,
          file: options.file,
          environment,
          baseOrigin: environmentOrigin(options.environments),
        });
      } catch (e) {
        // A history that is there but cannot be read is not "never sent": sending the request
        // again could create a second module. The user is told, and nothing is sent.
        result.error = {
          kind: 'dependency',
          message: `the last response of '${name}' could not be read from the history: ${e instanceof Error ? e.message : String(e)}`,
        };
        return result;
      }
      // An entry that cannot be read back (written by hand, another version) is no response: the request is sent.
      let earlier: ReturnType<typeof exchangeFromHistory> | undefined;
      try {
        earlier = entry ? exchangeFromHistory(entry, index) : undefined;
      } catch (e) {
        earlier = { unusable: `cannot be read back (${e instanceof Error ? e.message : String(e)})` };
      }
      if (entry && earlier && 'stored' in earlier) {
        options.responses.set(name, earlier.stored);
        result.dependencies.push({ name, status: entry.status, ok: true, historyTime: entry.time });
        continue;
      }
      if (earlier && 'unusable' in earlier) historyUnusable = earlier.unusable;
    }
    options.onDependency?.(name);
    const dep = await sendWithDependencies(document, index, options, [...stack, name], false);
    result.dependencies.push(...dep.dependencies, {
      name,
      status: dep.response?.status ?? null,
      ok: dep.ok,
      ...(historyUnusable ? { historyUnusable } : {}),
      // Stopped before it left (a cycle, a prompt without an answer, a secret bound elsewhere): never called sent.
      ...(wasSent(dep) ? {} : { notSent: true as const }),
    });
    result.secretValues.push(...dep.secretValues);
    if (!dep.response || dep.response.status === null) {
      result.error = {
        kind: 'dependency',
        message: `the request '${name}' that this one refers to failed: ${dep.error?.message ?? 'no response'}`,
      };
      return result;
    }
    if (!dep.ok) result.warnings.push(`the request '${name}' that this one refers to answered ${dep.response.status}`);
  }

  const prepared = prepareRequest(options.checker, document, blockIndex, {
    environments: options.environments,
    system: options.system,
    reference: (ref) => referenceValue(ref, options.responses.get(ref.name)),
    prompts,
    overrides: options.overrides,
    readFile: options.readFile,
    defaultHeaders: options.defaultHeaders,
  });
  for (const s of [...prepared.secrets, ...prepared.foreignSecrets])
    if (!result.secretValues.includes(s)) result.secretValues.push(s);
  result.foreignSecretValues = prepared.foreignSecrets;
  if (!prepared.ok) {
    result.error = { kind: 'prepare', message: prepared.error };
    return result;
  }
  const request = prepared.request;
  result.request = request;
  if (options.confineTo && originOf(request.url) !== options.confineTo.origin) {
    result.error = {
      kind: 'prepare',
      message: `not sent to ${originOf(request.url) ?? request.url}: ${options.confineTo.why}`,
    };
    return result;
  }
  // What may go where the token goes, and what goes nowhere (exchange.ts); another
  // environment's token stays foreign even when it is also among the first.
  const secrets = [...(options.secrets ?? []), options.token, ...result.secretValues];
  const foreignSecrets = [...(options.foreignSecrets ?? []), ...prepared.foreignSecrets];
  const exchange = { ...options, secrets, foreignSecrets };
  // `# @all-pages` is the request's own --all-pages: every page, merged (lpreq test asserts on whole lists).
  const allPages =
    top && (options.allPages || (block !== undefined && metadataValue(block, 'all-pages') !== undefined));
  const pagingOptions: PagingOptions = allPages ? exchange : { ...exchange, onePage: true };
  const response = await sendAllPages(request, pagingOptions);
  result.response = response;
  result.ok = response.ok;
  result.warnings.push(...response.warnings);
  if (response.error) result.error = response.error;
  if (request.name && response.status !== null) options.responses.set(request.name, { request, response });

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
        options.checker.catalog,
        request.returns,
        response.bodyKind === 'empty' ? null : response.body,
        (text) => scrubSecrets(text, [...secrets, ...foreignSecrets]),
      );
      result.resource = typed.resource;
      result.issues = typed.issues;
    }
  }

  if (options.history) {
    try {
      const entry = entryFromExchange(request, response, {
        file: options.file,
        environment: options.environments?.selected,
        resource: result.resource,
        issues: result.issues,
        pages: response.pages,
        // Every secret of the flow stays out of history, as the token does.
        secrets: [...secrets, ...foreignSecrets],
      });
      result.historyId = (await options.history.add(entry)).id;
    } catch (e) {
      result.warnings.push(`the exchange could not be stored in history: ${(e as Error).message}`);
    }
  }
  return result;
}
