/**
 * The mock's HTTP layer on Node's own http server: authentication, routing with the
 * checker's EndpointMatcher, checking with the checker, body limits, pagination, and the
 * JSON error bodies. Every request runs inside one try/catch: a failing handler is a 500,
 * never a dead process.
 */
import { randomBytes } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Catalog, Endpoint } from '../core';
import { Checker, findParameter } from '../core';
import {
  checkRequest,
  createListener,
  decodeBody,
  logTarget,
  requestUrl,
  routeRequest,
  violationsHeader,
  type DecodedBody,
  type Pair,
  type RequestProblem,
} from '../http';
import { HttpError, type MockContext, type Outcome } from './context';
import { HANDLERS } from './handlers';
import { Materializer } from './materialize';
import { Params } from './params';
import { countKept, DEFAULT_LIMITS, limitRefusal, type MockLimits } from './limits';
import { MockState } from './state';
import { Viewer } from './visibility';
import { lastStep, UPLOAD_PATH } from './upload';
import { type Fault, type Faults, preferredError, preferredStatus } from './faults';
import { own } from '../core';

/** Bodies larger than this are refused with 413. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;
const DEFAULT_PER_PAGE = 10;
const MAX_PER_PAGE = 100;

export interface MockServerOptions {
  catalog: Catalog;
  state: MockState;
  /** Only this token is accepted (and the user tokens); without it, any non-empty bearer token is. It stands for the seed's `self_user_id`. */
  token?: string;
  /** Tokens of other seeded users: a request with one is that user's (a student submits, a teacher grades). */
  userTokens?: ReadonlyMap<string, number>;
  /** Scopes (`url:GET|/api/v1/courses/:course_id/modules`) the token is limited to. */
  scopes?: string[];
  /** Milliseconds a request (headers and body) may take to arrive before a 408; default 30 s. */
  requestTimeout?: number;
  /** Told of every request once it is answered (or its client is gone): the command line's request log. */
  onRequest?: (entry: RequestLogEntry) => void;
  /** How much the mock keeps (limits.ts); DEFAULT_LIMITS unless said. */
  limits?: Partial<MockLimits>;
  /** Faults on demand (`--faults FILE`): which requests get a status, a delay, a reset or a body cut short. */
  faults?: Faults;
}

/** One request as the log shows it: nothing of its headers or body, and of its query only the names. */
export interface RequestLogEntry {
  method: string;
  /** The path and the query's parameter names (`logTarget`). */
  target: string;
  /** The status answered; 0 when the client went away first. */
  status: number;
  ms: number;
  warnings: RequestProblem[];
  /** A fault answered on demand (`--faults`, `Prefer: code=`): what it was and which rule gave it. */
  fault?: string;
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** The checker's warnings about the request: the `Lpreq-Warnings` header, and the log line. */
  warnings?: RequestProblem[];
  /** A fault answered on demand: the `Lpreq-Fault` header and the log line. */
  fault?: string;
}

type Problem = RequestProblem | { message: string; code?: string; parameter?: string };

const problemJson = (p: Problem) => ({
  message: p.message,
  ...(p.code ? { code: p.code } : {}),
  ...(p.parameter ? { parameter: p.parameter } : {}),
});

/** Warnings shown beside the errors of a 400, at most: enough to explain them, never a body as large as the request. */
const MAX_WARNINGS_SHOWN = 20;

function errorReply(
  status: number,
  problems: Problem[],
  headers?: Record<string, string>,
  warnings: Problem[] = [],
): Reply {
  const body: { errors: unknown[]; warnings?: unknown[] } = { errors: problems.map(problemJson) };
  if (warnings.length > 0) body.warnings = warnings.slice(0, MAX_WARNINGS_SHOWN).map(problemJson);
  return { status, body, headers };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export class MockServer {
  readonly checker: Checker;
  readonly server: Server;
  private readonly materializer: Materializer;
  private readonly scopes?: Set<string>;
  private readonly destroyConnections: () => void;

  constructor(private readonly options: MockServerOptions) {
    this.checker = new Checker(options.catalog);
    this.materializer = new Materializer(options.catalog);
    this.scopes = options.scopes ? new Set(options.scopes) : undefined;
    const listener = createListener({
      requestTimeout: options.requestTimeout ?? 30_000,
      keepAliveTimeout: 10_000,
      handle: (req, res) => {
        this.handle(req, res).catch((e: unknown) => this.fail(res, e));
      },
      answer: (m) => ({
        contentType: 'application/json; charset=utf-8',
        body: JSON.stringify(errorReply(m.status, [{ message: m.message, code: m.code }]).body),
      }),
      // No request to log the usual way: its head never arrived whole.
      onHeadless: (m) => this.options.onRequest?.({ method: '-', target: '-', status: m.status, ms: 0, warnings: [] }),
      onConnect: (target, m) =>
        this.options.onRequest?.({ method: 'CONNECT', target, status: m.status, ms: 0, warnings: [] }),
    });
    this.server = listener.server;
    this.destroyConnections = listener.destroyConnections;
  }

  /** Closes the listener and every open connection. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      this.destroyConnections();
    });
  }

  private fail(res: ServerResponse, e: unknown) {
    try {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      this.send(
        res,
        errorReply(500, [
          { message: `the mock failed on this request: ${(e as Error)?.message ?? String(e)}`, code: 'internal-error' },
        ]),
      );
    } catch {
      res.destroy();
    }
  }

  private send(res: ServerResponse, reply: Reply, cut?: number) {
    const headers: Record<string, string | number> = { ...reply.headers };
    const warnings =
      reply.warnings &&
      violationsHeader(
        reply.warnings.map((w) =>
          w.parameter === undefined ? { code: w.code } : { code: w.code, parameter: w.parameter },
        ),
      );
    if (warnings) headers['Lpreq-Warnings'] = warnings;
    if (reply.fault) headers['Lpreq-Fault'] = reply.fault;
    if (reply.status === 204 || reply.body === undefined) {
      res.writeHead(reply.status, headers);
      res.end();
      return;
    }
    const text = JSON.stringify(reply.body);
    headers['Content-Type'] = 'application/json; charset=utf-8';
    headers['Content-Length'] = Buffer.byteLength(text);
    res.writeHead(reply.status, headers);
    if (cut !== undefined) {
      // A body cut short: part of it, then the connection closes.
      const bytes = Buffer.from(text);
      res.write(bytes.subarray(0, Math.min(cut, Math.max(0, bytes.length - 1))), () => res.destroy());
      return;
    }
    res.end(text);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.on('error', () => res.destroy());
    req.on('error', () => req.destroy());
    const onRequest = this.options.onRequest;
    let warnings: RequestProblem[] = [];
    const fault = this.options.faults && this.faultOf(req);
    if (onRequest) {
      const started = performance.now();
      res.on('close', () =>
        onRequest({
          method: req.method ?? '',
          // An upload address is good until its file arrives: the log names it without its token.
          target: (req.url ?? '').startsWith(UPLOAD_PATH) ? `${UPLOAD_PATH}*` : logTarget(req.url ?? ''),
          status: res.headersSent ? res.statusCode : 0,
          ms: performance.now() - started,
          warnings,
          ...(fault ? { fault: fault.label } : {}),
        }),
      );
    }
    if (fault?.rule.delayMs !== undefined) await sleep(fault.rule.delayMs);
    if (fault?.rule.reset) {
      resetConnection(req);
      return;
    }
    const reply = fault?.rule.status !== undefined ? this.faultReply(fault) : await this.reply(req);
    if (fault) reply.fault = fault.label;
    warnings = reply.warnings ?? [];
    // The request's framing broke or it timed out: clientError has answered already.
    if (res.headersSent) return;
    if (reply.headers?.Connection === 'close') {
      res.on('finish', () => req.socket.destroy());
    }
    this.send(res, reply, fault?.rule.cut);
  }

  /** The fault of the `--faults` rules a request gets, if any: by its method, path and the user of its token. */
  private faultOf(req: IncomingMessage): Fault | undefined {
    const url = requestUrl(req.url ?? '/');
    if (!url) return undefined;
    const caller = url.pathname.startsWith(UPLOAD_PATH) ? undefined : this.authorize(req);
    const user = caller && !('status' in caller) ? caller.callerId : undefined;
    return this.options.faults?.decide((req.method ?? 'GET').toUpperCase(), url.pathname, user);
  }

  /** A status fault: the status, nothing done (the handler does not run). */
  private faultReply(fault: Fault): Reply {
    const status = fault.rule.status ?? 500;
    const retryAfter = fault.rule.retryAfter ?? (status === 429 ? 1 : undefined);
    return errorReply(
      status,
      [{ message: `${status} ${STATUS_CODES[status] ?? ''}: a fault of --faults, ${fault.label}`, code: 'fault' }],
      retryAfter === undefined ? undefined : { 'Retry-After': String(retryAfter) },
    );
  }

  private baseUrl(req: IncomingMessage): string {
    const host = req.headers.host;
    if (host && /^[A-Za-z0-9.:[\]-]+$/.test(host)) return `http://${host}`;
    const a = this.server.address() as AddressInfo | null;
    return a ? `http://127.0.0.1:${a.port}` : 'http://127.0.0.1';
  }

  /** The user the request's token stands for, or the 401 that refuses it. */
  private authorize(req: IncomingMessage): { callerId: number } | Reply {
    const header = req.headers.authorization ?? '';
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    const challenge = { 'WWW-Authenticate': 'Bearer realm="lpreq mock"' };
    if (!m)
      return errorReply(
        401,
        [
          {
            message: header
              ? 'the Authorization header must be "Bearer <token>"'
              : 'an access token is required: send Authorization: Bearer <token>',
            code: 'unauthenticated',
          },
        ],
        challenge,
      );
    const userId = this.options.userTokens?.get(m[1]);
    if (userId !== undefined) return { callerId: userId };
    if (this.options.token !== undefined && m[1] !== this.options.token)
      return errorReply(401, [{ message: 'invalid access token', code: 'invalid-token' }], challenge);
    return { callerId: this.options.state.selfUserId };
  }

  private async reply(req: IncomingMessage): Promise<Reply> {
    const method = (req.method ?? 'GET').toUpperCase();
    const url = requestUrl(req.url ?? '/');
    if (!url) return errorReply(400, [{ message: 'the request target is not a valid URL', code: 'malformed-request' }]);
    // An upload's last step goes to a one-time address, without the token (upload.ts).
    if (url.pathname.startsWith(UPLOAD_PATH)) return this.lastUploadStep(req, method, url);
    const caller = this.authorize(req);
    if ('status' in caller) return caller;

    const route = routeRequest(this.checker, method, url);
    if (route.kind === 'refused') return errorReply(route.status, [route.problem], route.headers);
    const { match } = route;
    const endpoint = match.endpoint;
    if (this.scopes && !this.scopes.has(match.path.scope)) {
      return errorReply(403, [
        { message: `the token's scopes do not include ${match.path.scope}`, code: 'insufficient-scope' },
      ]);
    }

    const body = await readBody(req);
    if (body.kind === 'too-large')
      return errorReply(
        413,
        [{ message: `the request body is larger than ${MAX_BODY_BYTES} bytes`, code: 'body-too-large' }],
        { Connection: 'close' },
      );
    if (body.kind === 'aborted')
      return errorReply(400, [{ message: 'the request body did not arrive', code: 'malformed-request' }], {
        Connection: 'close',
      });
    const decoded: DecodedBody = decodeBody(endpoint, req.headers['content-type'] ?? '', body.bytes);
    if (decoded.kind === 'refused') return errorReply(decoded.status, [decoded.problem], decoded.headers);

    const queryPairs: Pair[] = [...url.searchParams];
    const checked = checkRequest(this.checker, route, queryPairs, decoded);
    if ('kind' in checked) return errorReply(checked.status, [checked.problem], checked.headers);
    const { errors, warnings } = checked;
    // The checker's warnings go with its errors, as `lpreq check` lists them: `module[name][]=x`
    // is missing-required, and the warning that module[name][] is not module[name] says why.
    if (errors.length > 0) return { ...errorReply(400, errors, undefined, warnings), warnings };
    // `Prefer: code=NNN`: the endpoint's documented error of that status, and nothing done.
    const preferred = this.preferred(req, endpoint);
    if (preferred) return { ...preferred, warnings };

    const handler = own(HANDLERS, endpoint.id);
    if (!handler)
      return {
        ...errorReply(501, [
          { message: `${endpoint.id} is documented but the mock does not implement it`, code: 'not-implemented' },
        ]),
        warnings,
      };
    const bindings = new Map<string, string>();
    for (const [k, v] of match.bindings) bindings.set(k, v.split('/').map(safeDecode).join('/'));
    // What the docs say the API ignores in this request (`ignored-parameter`), it ignores:
    // `module_item[page_url]` on an Assignment item is not stored.
    const sent =
      endpoint.body === 'json'
        ? [...queryPairs, ...decoded.pairs]
        : checked.pairs.filter((_, i) => !checked.ignored.has(i));
    const request = {
      state: this.options.state,
      catalog: this.options.catalog,
      endpoint,
      template: match.path.template,
      bindings,
      params: new Params(documentedPairs(endpoint, sent)),
      json: decoded.json,
      headers: req.headers,
      baseUrl: this.baseUrl(req),
      callerId: caller.callerId,
    };
    const ctx: MockContext = { ...request, who: new Viewer(request) };
    // Document statements of who may call the endpoint (issue 30), before anything is done.
    const refusal = ctx.who.refusal(endpoint);
    if (refusal) return { ...errorReply(403, [refusal]), warnings };
    const full = limitRefusal(
      this.options.state,
      { ...DEFAULT_LIMITS, ...this.options.limits },
      method,
      body.bytes.length,
    );
    if (full) return { ...errorReply(507, [full]), warnings };
    let outcome: Outcome;
    try {
      outcome = handler(ctx);
      countKept(this.options.state, method, body.bytes.length);
    } catch (e) {
      if (e instanceof HttpError)
        return {
          ...errorReply(e.status, [{ message: e.message, code: e.code, parameter: e.parameter }], e.headers),
          warnings,
        };
      throw e;
    }
    return { ...this.render(outcome, endpoint, url, ctx), warnings };
  }

  private preferred(req: IncomingMessage, endpoint: Endpoint): Reply | undefined {
    const status = preferredStatus(req.headers.prefer);
    if (status === undefined) return undefined;
    const answer = status === null ? null : preferredError(endpoint, status);
    if (answer === undefined) return undefined;
    if (answer === null)
      return errorReply(400, [
        {
          message: `Prefer: code= takes an error status (400 to 599) or the endpoint's success status (${endpoint.successStatus ?? 200})`,
          code: 'unsupported-preference',
        },
      ]);
    return {
      ...errorReply(answer.status, [{ message: answer.message, code: answer.code }], answer.headers),
      fault: `prefer code=${answer.status}`,
    };
  }

  private async lastUploadStep(req: IncomingMessage, method: string, url: URL): Promise<Reply> {
    const body = method === 'POST' ? await readBody(req) : undefined;
    if (body && body.kind !== 'ok')
      return errorReply(
        body.kind === 'too-large' ? 413 : 400,
        [
          {
            message:
              body.kind === 'too-large'
                ? `the file is larger than ${MAX_BODY_BYTES} bytes`
                : 'the upload did not arrive',
            code: body.kind === 'too-large' ? 'body-too-large' : 'malformed-request',
          },
        ],
        { Connection: 'close' },
      );
    const { state, catalog } = this.options;
    const step = { state, catalog, materializer: this.materializer, baseUrl: this.baseUrl(req), headers: req.headers };
    const r = lastStep(step, method, url.pathname, body?.bytes);
    return r.error
      ? errorReply(r.status, [r.error], r.headers)
      : { status: r.status, body: r.body, headers: r.headers };
  }

  private render(outcome: Outcome, endpoint: Endpoint, url: URL, ctx: MockContext): Reply {
    if (outcome.kind === 'raw') return { status: outcome.status, body: outcome.body, headers: outcome.headers };
    const m = this.materializer;
    const who = ctx.who;
    if (outcome.kind === 'one') {
      const type = outcome.as ?? endpoint.returns;
      // A row the caller may not see is not there for them.
      if (!who.seesRow(endpoint, type ?? undefined, outcome.value))
        return errorReply(404, [
          { message: `${endpoint.id}: no such row for user ${ctx.callerId}`, code: 'not-found' },
        ]);
      return {
        status: outcome.status ?? endpoint.successStatus ?? 200,
        body: type ? m.value(type, outcome.value, who) : outcome.value,
      };
    }
    const element = (outcome.as ?? endpoint.returns ?? '').replace(/\[\]$/, '');
    let items = who.visibleRows(endpoint, element, outcome.items);
    const headers: Record<string, string> = {};
    if (endpoint.paginated) {
      const page = paginate(items, url, ctx.baseUrl);
      items = page.items;
      headers.Link = page.link;
    }
    if (outcome.view) items = items.map(outcome.view);
    const status = endpoint.successStatus ?? 200;
    if (outcome.wrap && endpoint.returns) {
      return { status, headers, body: m.value(endpoint.returns, { ...outcome.extra, [outcome.wrap]: items }, who) };
    }
    const type = outcome.as ? `${outcome.as}[]` : (endpoint.returns ?? 'any[]');
    return {
      status,
      headers,
      body: m.value(type.endsWith('[]') || type.includes('|') ? type : `${type}[]`, items, who),
    };
  }
}

/**
 * The pairs a handler may read: those the catalog documents for the endpoint, in their
 * documented form. An undocumented name is only a warning of the checker, so it reaches
 * here; left in, `module[prerequisite_module_ids]=5` would put a string where the handler
 * reads the array `module[prerequisite_module_ids][]`, and `module=x` a string where it reads an object.
 * Endpoints whose parameters the docs do not show keep everything.
 */
function documentedPairs(endpoint: Endpoint, pairs: Pair[]): Pair[] {
  return endpoint.paramsNotShown ? pairs : pairs.filter(([name]) => findParameter(endpoint, name) !== undefined);
}

/** One page of a list and its Link header (per_page default 10, at most 100; page from 1). */
function paginate<T>(items: T[], url: URL, baseUrl: string): { items: T[]; link: string } {
  const perPageRaw = Number.parseInt(url.searchParams.get('per_page') ?? '', 10);
  const perPage = Number.isFinite(perPageRaw) && perPageRaw > 0 ? Math.min(perPageRaw, MAX_PER_PAGE) : DEFAULT_PER_PAGE;
  const pageRaw = Number.parseInt(url.searchParams.get('page') ?? '', 10);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const page = Number.isFinite(pageRaw) && pageRaw > 0 ? pageRaw : 1;
  const link = (n: number, rel: string) => {
    const u = new URL(url.pathname + url.search, baseUrl);
    u.searchParams.set('page', String(n));
    u.searchParams.set('per_page', String(perPage));
    return `<${u.toString()}>; rel="${rel}"`;
  };
  const links = [link(page, 'current')];
  if (page < last) links.push(link(page + 1, 'next'));
  if (page > 1) links.push(link(Math.min(page - 1, last), 'prev'));
  links.push(link(1, 'first'), link(last, 'last'));
  return { items: items.slice((page - 1) * perPage, page * perPage), link: links.join(',') };
}

type Body = { kind: 'ok'; bytes: Buffer } | { kind: 'too-large' } | { kind: 'aborted' };

function readBody(req: IncomingMessage): Promise<Body> {
  const declared = Number(req.headers['content-length'] ?? '0');
  if (Number.isFinite(declared) && declared > MAX_BODY_BYTES) return Promise.resolve({ kind: 'too-large' });
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (b: Body) => {
      if (done) return;
      done = true;
      resolve(b);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        req.pause();
        finish({ kind: 'too-large' });
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => finish({ kind: 'ok', bytes: Buffer.concat(chunks) }));
    req.on('aborted', () => finish({ kind: 'aborted' }));
    req.on('error', () => finish({ kind: 'aborted' }));
    req.on('close', () => finish({ kind: 'aborted' }));
  });
}

/** Waits, without keeping a stopped mock's process alive. */
function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** A connection reset: the socket ends with a RST where the platform can send one. */
function resetConnection(req: IncomingMessage): void {
  const socket = req.socket as IncomingMessage['socket'] & { resetAndDestroy?: () => void };
  if (typeof socket.resetAndDestroy === 'function') socket.resetAndDestroy();
  else socket.destroy();
}

/** A token to print when any token is accepted. */
export function newToken(): string {
  return `lpreq-mock-${randomBytes(12).toString('hex')}`;
}
