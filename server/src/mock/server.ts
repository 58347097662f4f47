/**
 * The mock's HTTP layer on Node's own http server: authentication, routing with the
 * checker's EndpointMatcher, checking with the checker, body limits, pagination, and the
 * JSON error bodies. Every request runs inside one try/catch: a failing handler is a 500,
 * never a dead process.
 */
import { randomBytes } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { TextDecoder } from 'node:util';
import type { Catalog, Endpoint } from '../core';
import { Checker, findParameter } from '../core';
import { targetPath } from '../core';
import { checkHttpRequest, type RequestProblem } from './check';
import { HttpError, type MockContext, type Outcome } from './context';
import { HANDLERS } from './handlers';
import { Materializer } from './materialize';
import { flatten, Params, type Pair } from './params';
import { MockState } from './state';
import { own } from '../core';

/** Bodies larger than this are refused with 413. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
/**
 * More parameters than this in one request are refused with 400: checking is linear, but
 * a 10 MB form of `&a=1` (two million pairs) would still hold every other client for seconds.
 */
export const MAX_PARAMETERS = 100_000;
/** JSON nested deeper than this is refused with 400 (Rails' JSON parser stops at 100 too). */
export const MAX_JSON_DEPTH = 100;
export const DEFAULT_PER_PAGE = 10;
export const MAX_PER_PAGE = 100;

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
}

interface Reply {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

type Problem = RequestProblem | { message: string; code?: string; parameter?: string };

const problemJson = (p: Problem) => ({ message: p.message, ...(p.code ? { code: p.code } : {}), ...(p.parameter ? { parameter: p.parameter } : {}) });

/** Warnings shown beside the errors of a 400, at most: enough to explain them, never a body as large as the request. */
export const MAX_WARNINGS_SHOWN = 20;

function errorReply(status: number, problems: Problem[], headers?: Record<string, string>, warnings: Problem[] = []): Reply {
  const body: { errors: unknown[]; warnings?: unknown[] } = { errors: problems.map(problemJson) };
  if (warnings.length > 0) body.warnings = warnings.slice(0, MAX_WARNINGS_SHOWN).map(problemJson);
  return { status, body, headers };
}

/** The `charset` parameter of a Content-Type, when there is one. */
function charsetOf(contentType: string): string | undefined {
  const m = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i.exec(contentType);
  return m ? (m[1] ?? m[2]).trim() : undefined;
}

/**
 * A decoder for a declared charset, or null when the mock cannot decode it: unknown, or not
 * ASCII-compatible (UTF-16), where the `&`, `=` and `%` of a form body are not single bytes.
 * WHATWG decoders read ISO-8859-1, latin1 and US-ASCII as windows-1252, as browsers do.
 */
function textDecoder(charset: string): Decoder | null {
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(charset);
  } catch {
    return null;
  }
  if (decoder.encoding.startsWith('utf-16')) return null;
  // Node's windows-1252 decoder is ISO-8859-1 (0x80 stays U+0080), so its 32 differences are mapped here.
  if (decoder.encoding === 'windows-1252')
    return {
      encoding: decoder.encoding,
      decode: (bytes) =>
        Buffer.from(bytes)
          .toString('latin1')
          .replace(/[\x80-\x9f]/g, (c) => WINDOWS_1252[c.charCodeAt(0) - 0x80]),
    };
  return { encoding: decoder.encoding, decode: (bytes) => decoder.decode(bytes) };
}

interface Decoder {
  encoding: string;
  decode(bytes: Uint8Array): string;
}

/** windows-1252 at 0x80 to 0x9F (WHATWG Encoding); the five unassigned bytes stay as they are. */
const WINDOWS_1252 = [
  ...'\u20ac\u0081\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\u008d\u017d\u008f\u0090\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\u009d\u017e\u0178',
];

/** A form body whose escapes and bytes are of a charset other than UTF-8. */
function decodeForm(bytes: Buffer, decoder: Decoder): Pair[] {
  const pairs: Pair[] = [];
  // One character per byte, so that the split never cuts a byte sequence.
  for (const part of bytes.toString('latin1').split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    pairs.push(eq === -1 ? [decodeComponent(part, decoder), ''] : [decodeComponent(part.slice(0, eq), decoder), decodeComponent(part.slice(eq + 1), decoder)]);
  }
  return pairs;
}

function decodeComponent(s: string, decoder: Decoder): string {
  const out = Buffer.allocUnsafe(s.length);
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 0x2b) out[n++] = 0x20;
    else if (c === 0x25 && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      out[n++] = parseInt(s.slice(i + 1, i + 3), 16);
      i += 2;
    } else out[n++] = c;
  }
  return decoder.decode(out.subarray(0, n));
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
  private readonly sockets = new Set<Socket>();

  constructor(private readonly options: MockServerOptions) {
    this.checker = new Checker(options.catalog);
    this.materializer = new Materializer(options.catalog);
    this.scopes = options.scopes ? new Set(options.scopes) : undefined;
    const requestTimeout = options.requestTimeout ?? 30_000;
    this.server = createServer(
      {
        requestTimeout,
        headersTimeout: Math.min(10_000, requestTimeout),
        keepAliveTimeout: 10_000,
        maxHeaderSize: 32 * 1024,
        connectionsCheckingInterval: 1_000,
      },
      (req, res) => {
        this.handle(req, res).catch((e: unknown) => this.fail(res, e));
      },
    );
    this.server.keepAliveTimeout = 10_000;
    this.server.on('connection', (socket: Socket) => {
      this.sockets.add(socket);
      socket.on('close', () => this.sockets.delete(socket));
      socket.on('error', () => socket.destroy());
    });
    this.server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
      // Malformed HTTP (in the head, or in a chunked body) or a client too slow with its
      // request: a plain answer, then close. Once the head has arrived, the request's own
      // response answers, unless it has started already.
      const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
      if (!socket.writable || response?.headersSent) {
        socket.destroy();
        return;
      }
      const timeout = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
      const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
      const status = timeout ? 408 : tooLarge ? 431 : 400;
      const problem = {
        message: timeout ? 'the request took too long to arrive' : tooLarge ? 'the request headers are too large' : 'the request is not valid HTTP/1.1',
        code: timeout ? 'request-timeout' : 'malformed-request',
      };
      if (response) {
        response.on('finish', () => socket.destroy());
        this.send(response, errorReply(status, [problem], { Connection: 'close' }));
        return;
      }
      const body = JSON.stringify(errorReply(status, [problem]).body);
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
  }

  /** Closes the listener and every open connection. */
  close(): Promise<void> {
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      for (const s of this.sockets) s.destroy();
    });
  }

  private fail(res: ServerResponse, e: unknown) {
    try {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      this.send(res, errorReply(500, [{ message: `the mock failed on this request: ${(e as Error)?.message ?? String(e)}`, code: 'internal-error' }]));
    } catch {
      res.destroy();
    }
  }

  private send(res: ServerResponse, reply: Reply) {
    const headers: Record<string, string | number> = { ...reply.headers };
    if (reply.status === 204 || reply.body === undefined) {
      res.writeHead(reply.status, headers);
      res.end();
      return;
    }
    const text = JSON.stringify(reply.body);
    headers['Content-Type'] = 'application/json; charset=utf-8';
    headers['Content-Length'] = Buffer.byteLength(text);
    res.writeHead(reply.status, headers);
    res.end(text);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    res.on('error', () => res.destroy());
    req.on('error', () => req.destroy());
    const reply = await this.reply(req);
    // The request's framing broke or it timed out: clientError has answered already.
    if (res.headersSent) return;
    if (reply.headers?.Connection === 'close') {
      res.on('finish', () => req.socket.destroy());
    }
    this.send(res, reply);
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
            message: header ? 'the Authorization header must be "Bearer <token>"' : 'an access token is required: send Authorization: Bearer <token>',
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
    let url: URL;
    try {
      url = new URL(req.url ?? '/', 'http://mock.invalid');
    } catch {
      return errorReply(400, [{ message: 'the request target is not a valid URL', code: 'malformed-request' }]);
    }
    const caller = this.authorize(req);
    if ('status' in caller) return caller;

    const rawPath = url.pathname;
    const target = targetPath(rawPath, () => undefined);
    if (!target) return errorReply(404, [{ message: `no such path: ${rawPath}`, code: 'unknown-endpoint' }]);
    const matchMethod = method === 'HEAD' ? 'GET' : method;
    const match = this.checker.matcher.match(target, matchMethod);
    if (match.kind === 'not-checked' || match.kind === 'unknown-endpoint') {
      return errorReply(404, [
        {
          message: `no documented endpoint matches ${rawPath}${match.kind === 'unknown-endpoint' && match.near ? ` (nearest documented path: ${match.near})` : ''}`,
          code: 'unknown-endpoint',
        },
      ]);
    }
    if (match.kind === 'method-not-allowed') {
      const allow = [...match.allowed, ...(match.allowed.includes('GET') ? ['HEAD'] : [])].join(', ');
      return errorReply(
        405,
        [{ message: `${method} is not documented for ${match.templates.join(', ')}; documented: ${match.allowed.join(', ')}`, code: 'method-not-allowed' }],
        { Allow: allow },
      );
    }
    const endpoint = match.endpoint;
    if (this.scopes && !this.scopes.has(match.path.scope)) {
      return errorReply(403, [{ message: `the token's scopes do not include ${match.path.scope}`, code: 'insufficient-scope' }]);
    }

    const body = await readBody(req);
    if (body.kind === 'too-large')
      return errorReply(413, [{ message: `the request body is larger than ${MAX_BODY_BYTES} bytes`, code: 'body-too-large' }], { Connection: 'close' });
    if (body.kind === 'aborted') return errorReply(400, [{ message: 'the request body did not arrive', code: 'malformed-request' }], { Connection: 'close' });

    const queryPairs: Pair[] = [...url.searchParams];
    let bodyPairs: Pair[] = [];
    let json: unknown;
    let jsonText: string | undefined;
    if (body.bytes.length > 0) {
      const contentType = req.headers['content-type'] ?? '';
      const type = contentType.split(';')[0].trim().toLowerCase();
      const charset = charsetOf(contentType);
      const decoder = charset === undefined ? undefined : textDecoder(charset);
      if (decoder === null) {
        return errorReply(415, [
          {
            message: `the charset ${charset ?? ''} cannot be decoded: send UTF-8, or a single-byte charset such as ISO-8859-1 or windows-1252`,
            code: 'unsupported-charset',
          },
        ]);
      }
      const text = decoder && decoder.encoding !== 'utf-8' ? decoder.decode(body.bytes) : body.bytes.toString('utf8');
      if (type === 'application/json' || type.endsWith('+json')) {
        try {
          json = JSON.parse(text);
        } catch (e) {
          return errorReply(400, [{ message: `the body is not valid JSON: ${(e as Error).message}`, code: 'invalid-json' }]);
        }
        if (jsonDepth(json) > MAX_JSON_DEPTH)
          return errorReply(400, [{ message: `the JSON body is nested deeper than ${MAX_JSON_DEPTH} levels`, code: 'invalid-json' }]);
        if (endpoint.body === 'json') jsonText = text;
        else {
          if (json === null || typeof json !== 'object' || Array.isArray(json)) {
            return errorReply(400, [{ message: 'a JSON body must be an object of parameters', code: 'invalid-json' }]);
          }
          bodyPairs = flatten(json, '', [], MAX_PARAMETERS);
          if (bodyPairs.length > MAX_PARAMETERS) return tooManyParameters();
        }
      } else if (type === 'application/x-www-form-urlencoded' || type === '') {
        if (countOf(text, '&') >= MAX_PARAMETERS) return tooManyParameters();
        // Percent-escapes stand for bytes of the declared charset (Caf%E9 is Café in ISO-8859-1).
        bodyPairs = decoder && decoder.encoding !== 'utf-8' ? decodeForm(body.bytes, decoder) : [...new URLSearchParams(text)];
      } else {
        return errorReply(415, [
          {
            message: `content type ${type} is not accepted: send form fields as application/x-www-form-urlencoded, or JSON as application/json`,
            code: 'unsupported-media-type',
          },
        ]);
      }
    }

    if (queryPairs.length + bodyPairs.length > MAX_PARAMETERS) return tooManyParameters();

    // The path as the checker sees it: segments decoded, so `%7Bcourse_id%7D` is an unfilled placeholder.
    const checkedPath = target.segments.map((s) => {
      const d = safeDecode(s.text);
      return d.includes('/') ? s.text : d;
    });
    const pairs = endpoint.body === 'json' ? bodyPairs : [...queryPairs, ...bodyPairs];
    const { errors, warnings } = checkHttpRequest(this.checker, {
      method: matchMethod,
      path: `/${checkedPath.join('/')}`,
      pairs,
      jsonBody: endpoint.body === 'json' ? jsonText : undefined,
    });
    // The checker's warnings go with its errors, as `lpreq check` lists them: `module[name][]=x`
    // is missing-required, and the warning that module[name][] is not module[name] says why.
    if (errors.length > 0) return errorReply(400, errors, undefined, warnings);

    const handler = own(HANDLERS, endpoint.id);
    if (!handler) return errorReply(501, [{ message: `${endpoint.id} is documented but the mock does not implement it`, code: 'not-implemented' }]);
    const bindings = new Map<string, string>();
    for (const [k, v] of match.bindings) bindings.set(k, v.split('/').map(safeDecode).join('/'));
    const ctx: MockContext = {
      state: this.options.state,
      catalog: this.options.catalog,
      endpoint,
      template: match.path.template,
      bindings,
      params: new Params(documentedPairs(endpoint, [...queryPairs, ...bodyPairs])),
      json,
      headers: req.headers,
      baseUrl: this.baseUrl(req),
      callerId: caller.callerId,
    };
    let outcome: Outcome;
    try {
      outcome = handler(ctx);
    } catch (e) {
      if (e instanceof HttpError) return errorReply(e.status, [{ message: e.message, code: e.code, parameter: e.parameter }], e.headers);
      throw e;
    }
    return this.render(outcome, endpoint, url, ctx);
  }

  private render(outcome: Outcome, endpoint: Endpoint, url: URL, ctx: MockContext): Reply {
    if (outcome.kind === 'raw') return { status: outcome.status, body: outcome.body, headers: outcome.headers };
    const m = this.materializer;
    if (outcome.kind === 'one') {
      const type = outcome.as ?? endpoint.returns;
      return { status: outcome.status ?? endpoint.successStatus ?? 200, body: type ? m.value(type, outcome.value) : outcome.value };
    }
    let items = outcome.items;
    const headers: Record<string, string> = {};
    if (endpoint.paginated) {
      const page = paginate(items, url, ctx.baseUrl);
      items = page.items;
      headers.Link = page.link;
    }
    if (outcome.view) items = items.map(outcome.view);
    const status = endpoint.successStatus ?? 200;
    if (outcome.wrap && endpoint.returns) {
      return { status, headers, body: m.value(endpoint.returns, { ...outcome.extra, [outcome.wrap]: items }) };
    }
    const type = outcome.as ? `${outcome.as}[]` : (endpoint.returns ?? 'any[]');
    return { status, headers, body: m.value(type.endsWith('[]') || type.includes('|') ? type : `${type}[]`, items) };
  }
}

function tooManyParameters(): Reply {
  return errorReply(400, [{ message: `the request has more than ${MAX_PARAMETERS} parameters`, code: 'too-many-parameters' }]);
}

function countOf(text: string, char: string): number {
  let n = 0;
  for (let i = text.indexOf(char); i >= 0; i = text.indexOf(char, i + 1)) n++;
  return n;
}

/** How deep a parsed JSON value nests, found without recursion (the value may be nested past the stack). */
function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    if (depth + 1 > max) max = depth + 1;
    if (max > MAX_JSON_DEPTH) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v as Record<string, unknown>)) stack.push([child, depth + 1]);
  }
  return max;
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
export function paginate<T>(items: T[], url: URL, baseUrl: string): { items: T[]; link: string } {
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

/** A token to print when any token is accepted. */
export function newToken(): string {
  return `lpreq-mock-${randomBytes(12).toString('hex')}`;
}
