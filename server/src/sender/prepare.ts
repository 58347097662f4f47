/**
 * From block to request: the pure step of sending (no I/O). A parsed block, the variables
 * of its file and environment and the system context become a plain request object: the
 * URL (the path joined to base_url, the target's own query kept), the headers, and the
 * parameters encoded as the docs describe (query string for GET, DELETE and HEAD, a form
 * body for POST, PUT and PATCH), or the JSON body as written.
 */
import {
  Checker,
  documentScope,
  followsPages,
  pagingOf,
  environmentValues,
  type Environments,
  SECRET_NAME,
  type Endpoint,
  metadataValue,
  promptVariables,
  requestName,
  requestTarget,
  type LpreqDocument,
  DURATION_KEYS,
  parseDuration,
  lineStarts,
  own,
  type Block,
  type FileBody,
  returnsFor,
} from '../core/index';
import { appendQuery, encodeForm, encodeFormValue, escapeUrlText, type FormPair } from './encoding';
import { resolveText, type ReferenceResolver, type SystemContext } from './variables';
import { VERSION } from '../version';
import type { BodyFileRead, EnvironmentOptions } from '../node/index';
import { MIN_SECRET_LENGTH } from './secrets';
import { originOf } from './tokenOrigin';

export interface PreparedRequest {
  method: string;
  /** The full URL as sent. */
  url: string;
  /** Headers as written (variables resolved), plus Accept and User-Agent; never the token. */
  headers: [string, string][];
  /**
   * What is sent. `bytes`, when present, is sent as it is (a body file read with `<`), and
   * `text` only shows it (a binary file's text says how many bytes it has); `file` is where
   * those bytes come from, for a copied cURL command.
   */
  body?: { contentType: string; text: string; bytes?: Uint8Array; file?: string };
  /** `# @no-redirect` (REST Client, JetBrains' client): a 3xx answer is the response, not followed. */
  noRedirect?: boolean;
  /** `# @timeout` (JetBrains' client): how long this request may take, replacing the timeout setting. */
  timeoutMs?: number;
  /** `# @connection-timeout` (JetBrains' client): how long connecting may take. */
  connectTimeoutMs?: number;
  /** `# @name` of the request, and its `###` title. */
  name?: string;
  title?: string;
  /** Index of the block in the document. */
  blockIndex: number;
  /** The documented endpoint (`modules.list`), when the path matches one. */
  endpointId?: string;
  /** The documented response type (`Module[]`), or null. */
  returns: string | null;
  paginated: boolean;
  /** How the next page is found: the Link header, or the webhook list's EndKey/StartKey headers. */
  paging: 'link' | 'start-key';
  /** The only origin the token is sent to: the origin of base_url (the environment's first). */
  tokenOrigin?: string;
  /**
   * The headers (lower-case names) whose value is the private environment file's
   * `$defaultHeaders`: a copy reads each from an environment variable (curl.ts), never writes it.
   */
  privateHeaders?: string[];
}

/**
 * The secrets a request may carry, kept apart from the request so that nothing that copies
 * or prints it takes them along. `secrets` go where the token goes (the chosen environment's
 * secret variables, answers to secret prompts, secret process and `.env` variables the
 * request reads); `foreignSecrets` go nowhere (the other environments' secret variables, their
 * tokens first). Both are kept out of output, history and copied commands.
 */
export interface RequestSecrets {
  secrets: string[];
  foreignSecrets: string[];
}

export type PrepareResult =
  | ({ ok: true; request: PreparedRequest } & RequestSecrets)
  | ({ ok: false; error: string; errors: string[] } & RequestSecrets);

/**
 * Environments as the node helpers read them: with each one's `$tls` and `$defaultHeaders`,
 * and the names of the variables that come from the private file (secrets, like the token).
 */
export type SendEnvironments = Environments & {
  options?: Record<string, EnvironmentOptions>;
  privateNames?: Record<string, Set<string>>;
};

/** The `$tls` and `$defaultHeaders` of the chosen environment, if it has any. */
export function environmentOptions(env: SendEnvironments | undefined): EnvironmentOptions | undefined {
  return env?.selected !== undefined && env.options ? own(env.options, env.selected) : undefined;
}

export interface PrepareOptions {
  /** Environments (shared and private merged) and the chosen one. */
  environments?: SendEnvironments;
  /**
   * Headers every request gets unless it sets them (the editor's `lpreq.defaultHeaders`); the
   * environment's `$defaultHeaders` win over these. Their values may use variables.
   */
  defaultHeaders?: readonly (readonly [string, string])[];
  system?: SystemContext;
  /** Values of `{{name.response...}}` references (request chaining). */
  reference?: ReferenceResolver;
  /** The values given for the block's prompt variables (`# @prompt name`); they win over other definitions. */
  prompts?: Map<string, string>;
  /**
   * Values that win over the file's and the environment's (a prompt's answer still wins): `lpreq
   * test --mock` sets `base_url` to the mock's address, whatever a file's `@base_url` says.
   */
  overrides?: ReadonlyMap<string, string>;
  /** How the user chooses an environment, for a message that asks for one (`with --env dev or --env staging`). */
  chooseWith?: string;
  /**
   * Reads a body file (`< ./body.json`), its path relative to the request file's folder;
   * the caller does the I/O (this step stays pure). Without it such a request is not prepared.
   */
  readFile?: (path: string, encoding: string | undefined) => BodyFileRead;
}

// What readFile gives is the node helpers' type (node/bodyFile.ts reads body files); the sender's entry names it too.
export type { BodyFileRead };

/** The content type of a body file when no Content-Type header says it. */
function contentTypeOfFile(path: string): string {
  const ext = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  if (ext === 'json') return 'application/json';
  if (ext === 'xml') return 'application/xml';
  if (ext === 'txt' || ext === 'md') return 'text/plain';
  if (ext === 'csv') return 'text/csv';
  if (ext === 'html' || ext === 'htm') return 'text/html';
  if (ext === 'png') return 'image/png';
  if (ext === 'jpg' || ext === 'jpeg') return 'image/jpeg';
  if (ext === 'gif') return 'image/gif';
  if (ext === 'svg') return 'image/svg+xml';
  if (ext === 'pdf') return 'application/pdf';
  if (ext === 'zip') return 'application/zip';
  return 'application/octet-stream';
}

/** An HTTP header name (RFC 9110's token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const QUERY_METHODS = new Set(['GET', 'DELETE', 'HEAD', 'OPTIONS']);
export const USER_AGENT = `lpreq/${VERSION}`;

/**
 * The endpoint's documented response type, paging and way of paging. `sent` (the URL and a form
 * body) picks the type where the request decides it (`grouped` on the submissions for students).
 */
export function endpointFacts(
  endpoint: Endpoint | undefined,
  sent?: { url: string; form?: string },
): Pick<PreparedRequest, 'endpointId' | 'returns' | 'paginated' | 'paging'> {
  return {
    endpointId: endpoint?.id,
    returns: endpoint ? returnsFor(endpoint, sentPairs(sent)) : null,
    paginated: followsPages(endpoint),
    paging: pagingOf(endpoint) ?? 'link',
  };
}

/** The parameters a request sent: its query's and its form body's. */
function sentPairs(sent: { url: string; form?: string } | undefined): [string, string][] {
  if (!sent) return [];
  let query: [string, string][] = [];
  try {
    query = [...new URL(sent.url).searchParams];
  } catch {
    // An unusable URL sends nothing to decide by.
  }
  return sent.form === undefined ? query : [...query, ...new URLSearchParams(sent.form)];
}

/**
 * Builds the request of block `blockIndex` of `document`, with the secrets it may carry.
 * Never throws: an unresolved variable, a missing base_url or an unusable target is an error
 * in the result.
 */
export function prepareRequest(
  checker: Checker,
  document: LpreqDocument,
  blockIndex: number,
  options: PrepareOptions = {},
): PrepareResult {
  const read: string[] = [];
  const privateSent: string[] = [];
  const result = buildRequest(checker, document, blockIndex, options, read, privateSent);
  return { ...result, ...requestSecrets(options, read, privateSent) };
}

/**
 * Whether a value of the private environment file is a secret: every one is, like the token,
 * but base_url (it says where secrets go, and is shown), the `$` settings, the words true,
 * false and null, and values shorter than a token may be (they could not be told from other text).
 */
function privateSecret(name: string, value: string): boolean {
  return (
    name !== 'base_url' &&
    !name.startsWith('$') &&
    value.length >= MIN_SECRET_LENGTH &&
    !/^(true|false|null)$/i.test(value)
  );
}

/**
 * What is secret in a request (RequestSecrets): secret-looking variables, the values of the
 * private file (its variables and its `$defaultHeaders`; `privateSent` holds the private
 * default headers' values as this request sends them), secret prompts' answers, and `read`:
 * the secret process and `.env` values its text read. The private file's values go only to
 * base_url's origin, as the token does: with no base_url, nowhere.
 */
function requestSecrets(
  options: PrepareOptions,
  read: readonly string[],
  privateSent: readonly string[],
): RequestSecrets {
  const env = options.environments;
  const privateNames = env?.privateNames;
  const fromPrivate = (environment: string | undefined, name: string) =>
    environment !== undefined
      ? own(privateNames, environment)?.has(name) === true
      : Object.values(privateNames ?? {}).some((names) => names.has(name));
  const mine = new Set<string>();
  const bound = new Set<string>(privateSent);
  const add = (to: Set<string>, name: string, value: unknown) => {
    if (SECRET_NAME.test(name) && typeof value === 'string' && value.length > 0) to.add(value);
  };
  // With no environment chosen, no environment's values are this request's own.
  for (const [name, value] of environmentValues(sendingEnvironments(env))) {
    add(mine, name, value);
    if (fromPrivate(env?.selected, name) && privateSecret(name, value)) bound.add(value);
  }
  const foreign = new Set<string>();
  for (const [environment, vars] of Object.entries(env?.environments ?? {})) {
    for (const [name, value] of Object.entries(vars)) {
      add(foreign, name, value);
      if (own(privateNames, environment)?.has(name) === true && privateSecret(name, value)) foreign.add(value);
    }
  }
  // The private file's default headers, of the chosen environment (as written, when no variable is in them) and of the others.
  for (const [environment, settings] of Object.entries(env?.options ?? {})) {
    const names = new Set(settings.privateHeaders ?? []);
    for (const [name, value] of settings.defaultHeaders ?? []) {
      if (!names.has(name.toLowerCase()) || value.includes('{{') || !privateSecret(name, value)) continue;
      (environment === env?.selected ? bound : foreign).add(value);
    }
  }
  // The chosen environment's own values are its own, whoever else shares them.
  for (const value of [...mine, ...bound]) foreign.delete(value);
  for (const [name, value] of options.prompts ?? []) add(mine, name, value);
  for (const value of read) mine.add(value);
  // Only base_url says where the private file's values may go: without one, nowhere.
  const goesSomewhere = environmentOrigin(env) !== undefined;
  for (const value of bound) {
    if (goesSomewhere) mine.add(value);
    else if (!mine.has(value)) foreign.add(value);
  }
  return { secrets: [...mine], foreignSecrets: [...foreign] };
}

/** The query written in the target and on continuation lines, kept as written; values that come from variables are encoded as data. */
function queryOf(block: Block, resolve: (text: string, encode?: (v: string) => string) => string): string[] {
  const queryParts: string[] = [];
  for (const p of block.params) {
    if (p.source !== 'query') continue;
    const name = escapeUrlText(resolve(p.name.text, encodeFormValue));
    const hasValue = block.text.charAt(p.name.end) === '=';
    queryParts.push(hasValue ? `${name}=${escapeUrlText(resolve(p.value.text, encodeFormValue))}` : name);
  }
  return queryParts;
}

/**
 * The default headers, after the request's own and before lpreq's Accept and User-Agent: the
 * request wins, then the environment's `$defaultHeaders`, then the editor's setting. Returns
 * the names of the private file's (secrets, like the token), or why the request cannot be
 * sent (a name that is no header name, when nothing else is wrong yet).
 */
function addDefaultHeaders(
  headers: [string, string][],
  options: PrepareOptions,
  resolve: (text: string) => string,
  privateSent: string[],
  errors: readonly string[],
): string[] | string {
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  const settings = environmentOptions(options.environments);
  const privateDefaults = new Set(settings?.privateHeaders ?? []);
  const privateHeaders: string[] = [];
  const defaults = settings?.defaultHeaders ?? [];
  for (const [i, [name, value]] of [...defaults, ...(options.defaultHeaders ?? [])].entries()) {
    if (!HEADER_NAME.test(name)) {
      if (errors.length === 0) return `cannot send: the default header name '${name}' is not a valid HTTP header name`;
      continue;
    }
    const lower = name.toLowerCase();
    if (has(lower)) continue;
    const resolved = resolve(value);
    headers.push([name, resolved]);
    // The private file's: a secret, like the token.
    if (i < defaults.length && privateDefaults.has(lower)) {
      privateHeaders.push(lower);
      if (privateSecret(name, resolved)) privateSent.push(resolved);
    }
  }
  return privateHeaders;
}

/** A body read from a file (`< ./body.json`, `<@` with its variables replaced), or why it cannot be sent. */
function readFileBody(
  file: FileBody,
  resolve: (text: string) => string,
  options: PrepareOptions,
  headers: [string, string][],
): NonNullable<PreparedRequest['body']> | string {
  const path = resolve(file.path.text);
  if (!options.readFile) return `the body is read from ${path}, and no file can be read here`;
  const read = options.readFile(path, file.encoding);
  if ('error' in read) return `cannot send: the body file ${path}: ${read.error}`;
  const declared = headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1];
  const contentType = declared ?? contentTypeOfFile(path);
  if (file.processVariables) {
    // Variables are replaced in text; a binary file has none, and a string would corrupt its bytes.
    if (read.binary)
      return `cannot send: the body file ${path} is binary, not text: its variables cannot be replaced (send it as it is with < instead of <@)`;
    return { contentType, text: resolve(read.text) };
  } else if (read.bytes) {
    // As it is: the file's own bytes, whatever they hold.
    const shown = read.binary ? `[${read.bytes.length} bytes of binary data from ${path}]` : read.text;
    return { contentType, text: shown, bytes: read.bytes, file: read.path };
  } else {
    return { contentType, text: read.text };
  }
}

/** `# @timeout` and `# @connection-timeout` in milliseconds, or why one cannot be read. */
function durationsOf(
  block: Block,
): { timeoutMs?: number; connectTimeoutMs?: number } | { error: string; errors: string[] } {
  const durations: { timeoutMs?: number; connectTimeoutMs?: number } = {};
  for (const key of DURATION_KEYS) {
    const written = metadataValue(block, key);
    if (written === undefined) continue;
    const ms = parseDuration(written);
    if (ms === undefined)
      return {
        error: `cannot send: # @${key} '${written}' is not a duration (seconds, or a number with ms, s or m, up to a day)`,
        errors: [`# @${key} '${written}' is not a duration`],
      };
    durations[key === 'timeout' ? 'timeoutMs' : 'connectTimeoutMs'] = ms;
  }
  return durations;
}

function buildRequest(
  checker: Checker,
  document: LpreqDocument,
  blockIndex: number,
  options: PrepareOptions,
  read: string[],
  privateSent: string[],
): { ok: true; request: PreparedRequest } | { ok: false; error: string; errors: string[] } {
  const ref = document.blocks[blockIndex];
  if (!ref) return { ok: false, error: `there is no request number ${blockIndex + 1} in this file`, errors: [] };
  const block = ref.block;
  const request = block.request;
  if (!request || request.target.text.length === 0) {
    return { ok: false, error: 'this block has no request line (METHOD TARGET)', errors: [] };
  }
  if (!request.methodKnown)
    return { ok: false, error: `'${request.method.text}' is not an HTTP method lpreq sends`, errors: [] };
  // Only the chosen environment's variables are sent: with none chosen, none is read (the
  // checker counts any environment's as defined; a send must not pick one of them).
  const scope = documentScope(document, sendingEnvironments(options.environments));
  const asked = promptVariables(block).find((p) => !options.prompts?.has(p.name));
  if (asked) {
    return {
      ok: false,
      error: `this request asks for {{${asked.name}}} when it is sent (# @prompt ${asked.name}${asked.description ? ` ${asked.description}` : ''}), and no value was given`,
      errors: [],
    };
  }
  const values =
    options.prompts?.size || options.overrides?.size
      ? new Map([...scope.values, ...(options.overrides ?? []), ...(options.prompts ?? [])])
      : scope.values;
  const scriptNames = new Set([...(scope.scriptNames ?? []), ...block.scriptSets.map((x) => x.name)]);
  const ctx = {
    values,
    system: options.system,
    reference: options.reference,
    scriptNames,
    missing: (name: string) => missingFromEnvironment(name, options),
  };
  const errors: string[] = [];
  const resolve = (text: string, encode?: (v: string) => string, formEncoded = false) => {
    const r = resolveText(text, ctx, encode, formEncoded);
    for (const e of r.errors) if (!errors.includes(e)) errors.push(e);
    read.push(...r.secrets);
    return r.text;
  };

  const method = request.method.text;
  const target = requestTarget(request);
  const q = target.indexOf('?');
  const rawPath = q === -1 ? target : target.slice(0, q);
  // `{{base_url}}/api/...` with a base_url that ends in `/` must not give `//api`.
  const leading = /^(\{\{[^{}]*\}\})(\/.*)$/s.exec(rawPath);
  let url = escapeUrlText(leading ? resolve(leading[1]).replace(/\/+$/, '') + resolve(leading[2]) : resolve(rawPath));

  const baseUrlText = values.get('base_url');
  const baseUrl = baseUrlText === undefined ? undefined : resolve(baseUrlText);
  if (url.startsWith('/')) {
    if (!baseUrl) {
      const elsewhere = missingFromEnvironment('base_url', options);
      if (elsewhere !== undefined) return fail(`not sent: the target is a path, and ${elsewhere}`, errors);
      return fail(
        'the target is a path, and no base_url is defined: add @base_url = https://... or choose an environment that has one',
        errors,
      );
    }
    url = baseUrl.replace(/\/+$/, '') + url;
  }
  // A variable of the target that is not defined (`{{base_url}}` with no environment chosen) says so, not that the URL is strange.
  if (errors.length > 0 && !/^https?:\/\//i.test(url)) return fail(`cannot send: ${errors[0]}`, errors);
  if (!/^https?:\/\//i.test(url)) {
    return fail(`cannot send to '${url}': the target is an http(s) URL or a path starting with /`, errors);
  }

  const queryParts = queryOf(block, resolve);
  if (queryParts.length > 0) url = `${url}?${queryParts.join('&')}`;

  const pairs: FormPair[] = block.params
    .filter((p) => p.source === 'body')
    .map((p) => ({ name: resolve(p.name.text, undefined, true), value: resolve(p.value.text, undefined, true) }));

  const headers: [string, string][] = block.headers.map((h) => [resolve(h.name.text), resolve(h.value.text)]);
  const badName = headers.find(([n]) => !HEADER_NAME.test(n));
  if (badName && errors.length === 0)
    return fail(`cannot send: the header name '${badName[0]}' is not a valid HTTP header name`, errors);
  const privateHeaders = addDefaultHeaders(headers, options, resolve, privateSent, errors);
  if (typeof privateHeaders === 'string') return fail(privateHeaders, errors);
  const has = (name: string) => headers.some(([n]) => n.toLowerCase() === name);
  if (!has('accept')) headers.push(['Accept', 'application/json']);
  if (!has('user-agent')) headers.push(['User-Agent', USER_AGENT]);

  let body: PreparedRequest['body'];
  if (block.fileBody) {
    const read = readFileBody(block.fileBody, resolve, options, headers);
    if (typeof read === 'string') return fail(read, errors);
    body = read;
  } else if (block.jsonBody) {
    body = { contentType: 'application/json', text: resolve(block.jsonBody.text) };
  } else if (pairs.length > 0) {
    if (QUERY_METHODS.has(method)) url = appendQuery(url, encodeForm(pairs));
    else body = { contentType: 'application/x-www-form-urlencoded', text: encodeForm(pairs) };
  }
  if (errors.length > 0) return fail(`cannot send: ${errors[0]}`, errors);
  const durations = durationsOf(block);
  if ('error' in durations) return fail(durations.error, durations.errors);
  const match = checker.matchBlock(block, scope);
  const endpoint = match?.kind === 'matched' ? match.endpoint : undefined;
  const environmentBase = environmentBaseUrl(options.environments);
  return {
    ok: true,
    request: {
      method,
      url,
      headers,
      body,
      name: requestName(block),
      title: block.title?.text,
      blockIndex,
      ...endpointFacts(endpoint, {
        url,
        form: body?.contentType === 'application/x-www-form-urlencoded' ? body.text : undefined,
      }),
      ...(metadataValue(block, 'no-redirect') !== undefined ? { noRedirect: true } : {}),
      ...durations,
      // Only an environment says where the token belongs: a file's @base_url (a file anyone can
      // change in a pull request) never sends it anywhere.
      tokenOrigin: originOf(environmentBase),
      ...(privateHeaders.length > 0 ? { privateHeaders } : {}),
    },
  };
}

/**
 * The environments a send reads: the chosen one's variables only. With none chosen there are
 * none to read (every environment is still known, for the secrets that must go nowhere).
 */
export function sendingEnvironments(env: Environments | undefined): Environments | undefined {
  return env && env.selected === undefined ? { environments: {} } : env;
}

/**
 * Why `{{name}}`, which neither the file nor the chosen environment gives, is missing when an
 * environment would give it: none is chosen, or only others define it.
 */
function missingFromEnvironment(name: string, options: PrepareOptions): string | undefined {
  const env = options.environments;
  if (!env) return undefined;
  const definedIn = Object.keys(env.environments).filter((e) => own(own(env.environments, e), name) !== undefined);
  if (definedIn.length === 0) return undefined;
  const how = options.chooseWith ? ` (with ${options.chooseWith})` : '';
  if (env.selected === undefined)
    return `{{${name}}} comes from an environment, and no environment is chosen: choose one of ${definedIn.join(', ')} to send this request${how}`;
  return `{{${name}}} is not in the environment '${env.selected}'; it is defined in ${definedIn.join(', ')}`;
}

/** The origin of the chosen environment's base_url (where the token goes), if it has one. */
export function environmentOrigin(env: Environments | undefined): string | undefined {
  return originOf(environmentBaseUrl(env));
}

/**
 * The chosen environment's base_url: the token belongs to it, whatever a file says. One made
 * of the environment's own variables (`http://{{host}}:{{port}}`) is read through them, never
 * through a file's: a file variable cannot move the token elsewhere.
 */
function environmentBaseUrl(env: Environments | undefined): string | undefined {
  if (!env?.selected) return undefined;
  const vars = own(env.environments, env.selected);
  const base = vars?.base_url;
  if (base === undefined || !base.includes('{{')) return base;
  const resolved = resolveText(base, { values: new Map(Object.entries(vars ?? {})) });
  return resolved.errors.length > 0 ? undefined : resolved.text;
}

function fail(error: string, errors: string[]): { ok: false; error: string; errors: string[] } {
  return { ok: false, error, errors };
}

/** The index of the block that holds `line` (1-based) of the document's text, or -1. */
export function blockAtLine(document: LpreqDocument, line: number): number {
  const starts = lineStarts(document.text);
  if (line < 1 || line > starts.length) return -1;
  const offset = starts[line - 1];
  for (let k = document.blocks.length - 1; k >= 0; k--) if (document.blocks[k].start <= offset) return k;
  return -1;
}

/** Indexes of the blocks that hold a request. */
export function requestBlocks(document: LpreqDocument): number[] {
  return document.blocks.flatMap((b, i) => (b.block.request ? [i] : []));
}

/** The index of the block named `name` (`# @name`), or -1. */
export function blockNamed(document: LpreqDocument, name: string): number {
  return document.blocks.findIndex((b) => requestName(b.block) === name);
}

/**
 * Every secret the environments hold, whichever is chosen: the values of the private file and
 * its default headers, and the values of secret-looking variables, of every environment. What
 * a host that answers for a whole workspace (the MCP server) keeps out of all it returns.
 */
export function environmentSecrets(environments: SendEnvironments): string[] {
  const { secrets, foreignSecrets } = requestSecrets(
    { environments: { ...environments, selected: undefined } },
    [],
    [],
  );
  return [...new Set([...secrets, ...foreignSecrets])];
}
