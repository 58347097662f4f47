/**
 * `lpreq proxy`: a reverse proxy in front of a real instance (or the mock) that checks the
 * traffic passing through it. Each request is read by the same path as the mock's
 * (`../http`: routing, body decoding, the Checker) and each JSON response by the sender's
 * typed check; what they find goes back to the client in `Lpreq-Violations` and to the host
 * as one record per exchange (`onExchange`), never with the client's credentials in it.
 *
 * The proxy holds no token: the client's `Authorization` goes to the target's origin, the
 * only origin the proxy ever connects to (one undici pool), and redirects are passed back to
 * the client, never followed. Bodies stream in both directions; only what is checked is held
 * (a form or JSON request body, a JSON response) and only up to `maxCheckedBytes`: past that
 * the rest streams on and the record says "not checked". Every exchange runs inside one
 * try/catch: a failure is a plain 502 (or a closed connection once the answer has begun).
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PassThrough, pipeline, type Readable } from 'node:stream';
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { Pool, type Dispatcher } from 'undici';
import { CODES, Checker, own, returnsFor, type Catalog, type Endpoint } from '../core';
import {
  checkRequest,
  createListener,
  decodeBody,
  isCheckedBodyType,
  logTarget,
  routeRequest,
  violationsHeader,
  type DecodedBody,
  type RequestProblem,
  type Violation,
} from '../http';
import { checkResponse, scrubSecrets } from '../sender';
import { cameThrough, headerText, requestHeadersForTarget, responseHeadersForClient } from './headers';

/** Bodies the proxy reads to check them are held up to this size (as the sender reads responses); larger ones stream through unchecked. */
const DEFAULT_MAX_CHECKED_BYTES = 10 * 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 30_000;
/** Milliseconds a client's request (head and body) may take to arrive before a 408, as the mock's. */
const DEFAULT_REQUEST_TIMEOUT_MS = 30_000;
/** How long in-flight exchanges may take to finish once the proxy is asked to stop. */
const DEFAULT_GRACE_MS = 10_000;

type Severity = 'error' | 'warning' | 'note';

/** A violation as the proxy reports it: the header's `{code, parameter | path}`, with its severity, message and side. */
export interface ProxyViolation extends Violation {
  severity: Severity;
  message: string;
  /** Whether it is about the request the client sent or the response the target gave. */
  in: 'request' | 'response';
}

/** One exchange as reported: nothing of its headers or bodies, of its query only the names, and never a credential. */
export interface ExchangeRecord {
  /** When the request arrived (ISO 8601). */
  time: string;
  method: string;
  /** The path and the query's parameter names (`logTarget`). */
  target: string;
  /** The documented endpoint's id, when the request matches one. */
  endpoint?: string;
  /** The token scope the request needs (`url:GET|/api/v1/courses/{course_id}/modules`), when it matches a documented endpoint. */
  scope?: string;
  /** The status the client got; 0 when it got none (it went away first). */
  status: number;
  ms: number;
  /** False when `--strict` answered 400 instead of forwarding. */
  forwarded: boolean;
  violations: ProxyViolation[];
}

export interface ProxyServerOptions {
  catalog: Catalog;
  /** The instance to forward to: an http(s) origin, with a base path or none. */
  target: URL;
  /** Answer 400 with the checker's errors instead of forwarding a request that has errors. */
  strict?: boolean;
  /** The scopes the clients' token is granted (`--scopes`): a request that needs another is reported (`scope-not-granted`). */
  scopes?: readonly string[];
  /** Milliseconds to wait for the target's response headers, and between two chunks of its body (504 for the first). */
  timeoutMs?: number;
  maxCheckedBytes?: number;
  /** Milliseconds a client's request may take to arrive (408 after); default 30 s. */
  requestTimeout?: number;
  onExchange?: (record: ExchangeRecord) => void;
}

/** One exchange in flight: what its steps share. */
interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  /** The path to forward (the path of an absolute-form target); undefined when the target is neither. */
  path: string | undefined;
  record: ExchangeRecord;
  /** Removes the exchange's credentials from a text. */
  scrub: (text: string) => string;
  abort: AbortController;
  /** What was found so far, request and response. */
  violations: ProxyViolation[];
  /** Sets the record's violations (scrubbed) from what was found, and returns them. */
  settle: () => ProxyViolation[];
}

/** A request as checked, ready to be forwarded. */
interface CheckedRequest {
  path: string;
  method: string;
  endpoint: Endpoint | undefined;
  /** The documented type of a 2xx answer to it, as the request chose where it chooses; null when none is documented. */
  returns: string | null;
  /** Read whole (checked), the rest after a read that stopped at the limit, or the client's stream. */
  body: Buffer | Readable | undefined;
}

/** undici's error codes of a target that did not answer in time. */
const TIMEOUTS = new Set(['UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

export class ProxyServer {
  readonly server: Server;
  private readonly checker: Checker;
  private readonly pool: Pool;
  private readonly basePath: string;
  private readonly timeoutMs: number;
  private readonly maxChecked: number;
  private readonly granted: ReadonlySet<string> | undefined;
  /** This proxy's pseudonym in `Via`: a request that carries it has come round to the proxy again. */
  private readonly via = `1.1 lpreq-${randomBytes(4).toString('hex')}`;
  private readonly destroyConnections: () => void;
  private inFlight = 0;
  private closing = false;
  private idle: (() => void) | undefined;

  constructor(private readonly options: ProxyServerOptions) {
    this.checker = new Checker(options.catalog);
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxChecked = options.maxCheckedBytes ?? DEFAULT_MAX_CHECKED_BYTES;
    this.granted = options.scopes && new Set(options.scopes);
    this.basePath = options.target.pathname.replace(/\/+$/, '');
    this.pool = new Pool(options.target.origin, {
      keepAliveTimeout: 10_000,
      headersTimeout: this.timeoutMs,
      bodyTimeout: this.timeoutMs,
      connect: { timeout: Math.min(this.timeoutMs, 10_000) },
    });
    const listener = createListener({
      requestTimeout: options.requestTimeout ?? DEFAULT_REQUEST_TIMEOUT_MS,
      keepAliveTimeout: 5_000,
      handle: (req, res) => {
        this.handle(req, res).catch((e: unknown) => this.fail(res, e));
      },
      answer: (m) => ({ contentType: 'text/plain; charset=utf-8', body: `lpreq proxy: ${m.message}\n` }),
      // Not forwarded, and not a tunnel: a line of the log as any exchange.
      onConnect: (target, m) =>
        this.options.onExchange?.({
          time: new Date().toISOString(),
          method: 'CONNECT',
          target,
          status: m.status,
          ms: 0,
          forwarded: false,
          violations: [],
        }),
    });
    this.server = listener.server;
    this.destroyConnections = listener.destroyConnections;
  }

  /**
   * Stops: no new connection is taken, idle ones close, and the exchanges under way have
   * `graceMs` to finish (their connections close after them); then every connection closes.
   */
  async close(graceMs = DEFAULT_GRACE_MS): Promise<void> {
    this.closing = true;
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeIdleConnections();
    if (this.inFlight > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        new Promise<void>((resolve) => (this.idle = resolve)),
        new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
      ]);
      clearTimeout(timer);
    }
    this.destroyConnections();
    await closed;
    await this.pool.destroy().catch(() => undefined);
  }

  /** One exchange: record, check, forward (or refuse under `--strict`), then stream the answer back. */
  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const exchange = this.record(req, res);
    const { path } = exchange;
    if (path === undefined) return this.plain(req, res, 400, 'the request target must be a path (/api/v1/...)');
    if (cameThrough(req.headers, this.via))
      return this.plain(req, res, 508, 'the request came back to this proxy: its target is the proxy itself');
    const checked = await this.check(exchange, path);
    if (!checked) return;
    const errors = exchange.violations.filter((v) => v.in === 'request' && v.severity === 'error');
    if (this.options.strict && errors.length > 0) return this.refuse(exchange);
    const upstream = await this.forward(exchange, checked);
    if (!upstream) return;
    exchange.record.forwarded = true;
    await this.streamBack(exchange, checked, upstream);
  }

  /**
   * The exchange's record, started: it is completed and given to `onExchange` when the
   * client's connection closes (whatever answered it), and a client that goes away aborts
   * what is still coming from the target.
   */
  private record(req: IncomingMessage, res: ServerResponse): Exchange {
    const started = performance.now();
    const abort = new AbortController();
    const rawTarget = req.url ?? '';
    // A request target in absolute form names the proxy, not the target: only its path is forwarded.
    const path = rawTarget.startsWith('/')
      ? rawTarget
      : /^https?:\/\//i.test(rawTarget)
        ? absolutePath(rawTarget)
        : undefined;
    const secrets = credentials(req, path);
    const scrub = (text: string) => (secrets.length === 0 ? text : scrubSecrets(text, secrets));
    const record: ExchangeRecord = {
      time: new Date().toISOString(),
      method: req.method ?? '',
      target: scrub(logTarget(path ?? rawTarget)),
      status: 0,
      ms: 0,
      forwarded: false,
      violations: [],
    };
    this.inFlight++;
    res.on('error', () => res.destroy());
    req.on('error', () => abort.abort());
    res.on('close', () => {
      // The client went away before the whole answer: whatever the target still sends is not wanted.
      if (!res.writableFinished) abort.abort();
      record.status = res.headersSent ? res.statusCode : 0;
      record.ms = Math.round((performance.now() - started) * 10) / 10;
      this.inFlight--;
      try {
        this.options.onExchange?.(record);
      } finally {
        if (this.inFlight === 0) this.idle?.();
      }
    });
    const violations: ProxyViolation[] = [];
    const settle = () => (record.violations = scrubViolations(violations, scrub));
    return { req, res, path, record, scrub, abort, violations, settle };
  }

  /**
   * The request checked as the mock checks it: its route, its scope, and its body when it is
   * one the checker reads and not too large (read whole; otherwise it streams on unchecked).
   * Undefined when the client went away while its body was read.
   */
  private async check(exchange: Exchange, path: string): Promise<CheckedRequest | undefined> {
    const { req, record, violations } = exchange;
    const method = (req.method ?? 'GET').toUpperCase();
    const url = new URL(`http://proxy.invalid${path}`);
    const route = routeRequest(this.checker, method, url);
    const endpoint: Endpoint | undefined = route.kind === 'matched' ? route.match.endpoint : undefined;
    if (route.kind === 'refused')
      violations.push({ code: route.problem.code, severity: 'error', message: route.problem.message, in: 'request' });
    else {
      record.endpoint = route.match.endpoint.id;
      record.scope = route.match.path.scope;
      if (this.granted && !this.granted.has(record.scope))
        violations.push({
          code: 'scope-not-granted',
          severity: CODES['scope-not-granted'].severity === 'error' ? 'error' : 'warning',
          message: `${record.scope} is not in the scopes given with --scopes: a token limited to them is refused`,
          in: 'request',
        });
    }

    let body: Buffer | Readable | undefined;
    let decoded: Extract<DecodedBody, { kind: 'decoded' }> | undefined;
    const contentType = req.headers['content-type'] ?? '';
    const hasBody = req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0';
    if (!hasBody) decoded = { kind: 'decoded', pairs: [] };
    else if (
      route.kind === 'matched' &&
      isCheckedBodyType(contentType) &&
      !(Number(req.headers['content-length']) > this.maxChecked)
    ) {
      const read = await readUpTo(req, this.maxChecked);
      if (read.kind === 'aborted') return undefined;
      if (read.kind === 'whole') {
        body = read.bytes;
        const d = decodeBody(route.match.endpoint, contentType, read.bytes);
        if (d.kind === 'decoded') decoded = d;
        else violations.push(refusalViolation(d.problem, 'request'));
      } else {
        body = read.rest;
        violations.push(
          notChecked('request', `the request body is larger than ${this.maxChecked} bytes: it was not checked`),
        );
      }
    } else {
      body = req;
      if (route.kind === 'matched') {
        violations.push(
          notChecked(
            'request',
            isCheckedBodyType(contentType)
              ? `the request body is larger than ${this.maxChecked} bytes: it was not checked`
              : `a request body of type ${contentType.split(';')[0].trim()} is not checked`,
          ),
        );
      }
    }

    if (route.kind === 'matched' && decoded) {
      const checked = checkRequest(this.checker, route, [...url.searchParams], decoded);
      if ('kind' in checked) violations.push(refusalViolation(checked.problem, 'request'));
      else {
        for (const e of checked.errors) violations.push(problemViolation(e, 'error'));
        for (const w of checked.warnings)
          violations.push(problemViolation(w, own(CODES, w.code)?.severity === 'info' ? 'note' : 'warning'));
      }
    }
    // What the request chose, where it chooses (`grouped`): its query and form parameters say.
    const returns = endpoint ? returnsFor(endpoint, [...url.searchParams, ...(decoded?.pairs ?? [])]) : null;
    return { path, method, endpoint, returns, body };
  }

  /** `--strict` and a request with errors: 400 with the checker's errors (and the first warnings) as JSON, nothing forwarded. */
  private refuse({ req, res, record, settle }: Exchange): void {
    settle();
    const problem = (v: ProxyViolation) => ({
      message: v.message,
      code: v.code,
      ...(v.parameter === undefined ? {} : { parameter: v.parameter }),
    });
    const warnings = record.violations.filter((v) => v.in === 'request' && v.severity !== 'error');
    const text = JSON.stringify({
      errors: record.violations.filter((v) => v.severity === 'error').map(problem),
      ...(warnings.length > 0 ? { warnings: warnings.slice(0, 20).map(problem) } : {}),
    });
    const headers = [
      'Content-Type',
      'application/json; charset=utf-8',
      'Content-Length',
      String(Buffer.byteLength(text)),
    ];
    this.writeHead(req, res, 400, headers, record.violations);
    res.end(text);
  }

  /**
   * The request sent on to the target's origin (its base path before the path). Undefined
   * when it could not be: the client then has its answer (504, 400 or 502), or went away.
   */
  private async forward(exchange: Exchange, request: CheckedRequest): Promise<Dispatcher.ResponseData | undefined> {
    const { req, res, abort, scrub, settle } = exchange;
    try {
      return await this.pool.request({
        path: `${this.basePath}${request.path}`,
        method: request.method,
        headers: requestHeadersForTarget(req.rawHeaders, {
          bufferedBody: Buffer.isBuffer(request.body),
          via: this.via,
        }),
        body: request.body,
        signal: abort.signal,
      });
    } catch (e) {
      if (abort.signal.aborted || res.destroyed) return undefined;
      const violations = settle();
      const code = (e as { code?: string }).code ?? '';
      const target = this.options.target.origin;
      if (TIMEOUTS.has(code))
        this.plain(req, res, 504, `the target ${target} did not answer within ${this.timeoutMs} ms`, violations);
      else if (code === 'UND_ERR_INVALID_ARG' || code === 'UND_ERR_NOT_SUPPORTED')
        this.plain(req, res, 400, `the request cannot be forwarded: ${scrub((e as Error).message)}`, violations);
      else {
        const why = code || scrub((e as Error).message);
        this.plain(req, res, 502, `the target ${target} could not be reached (${why})`, violations);
      }
      return undefined;
    }
  }

  /**
   * The target's answer to the client: a typed JSON body is held (up to the limit) and
   * checked before it is written; any other body streams through with backpressure.
   */
  private async streamBack(
    exchange: Exchange,
    request: CheckedRequest,
    upstream: Dispatcher.ResponseData,
  ): Promise<void> {
    const { req, res, violations, scrub, settle } = exchange;
    const status = upstream.statusCode;
    const headers = responseHeadersForClient(upstream.headers, (u) => this.rewrite(u, req));
    const responseType = headerText(upstream.headers, 'content-type') ?? '';
    const noBody = request.method === 'HEAD' || status === 204 || status === 304 || status < 200;
    if (noBody) {
      this.writeHead(req, res, status, headers, settle());
      res.end();
      await upstream.body.dump().catch(() => undefined);
      return;
    }
    const returns = request.returns;
    const typed = returns !== null && status >= 200 && status < 300;
    const json = /[/+]json\b/i.test(responseType);
    if (typed && !json) {
      violations.push(
        notChecked(
          'response',
          `the body is not JSON (${responseType || 'no content type'}), and ${returns} is documented: it was not checked`,
        ),
      );
    }
    const encoding = (headerText(upstream.headers, 'content-encoding') ?? 'identity').trim().toLowerCase();
    const declared = Number(headerText(upstream.headers, 'content-length'));
    if (typed && json && !DECODERS.has(encoding)) {
      violations.push(notChecked('response', `the body is encoded as ${encoding}: it was not checked`));
    } else if (typed && json && declared > this.maxChecked) {
      violations.push(notChecked('response', `the body is larger than ${this.maxChecked} bytes: it was not checked`));
    } else if (typed && json) {
      const read = await readUpTo(upstream.body, this.maxChecked);
      if (read.kind === 'aborted') {
        res.destroy();
        return;
      }
      if (read.kind === 'whole') {
        violations.push(...this.checkResponseBody(read.bytes, encoding, returns, scrub));
        this.writeHead(req, res, status, headers, settle());
        res.end(read.bytes);
        return;
      }
      violations.push(notChecked('response', `the body is larger than ${this.maxChecked} bytes: it was not checked`));
      this.writeHead(req, res, status, headers, settle());
      this.stream(read.rest, res);
      return;
    }
    this.writeHead(req, res, status, headers, settle());
    this.stream(upstream.body, res);
  }

  /** The typed check of a whole JSON body (decoded first when the target compressed it). */
  private checkResponseBody(
    bytes: Buffer,
    encoding: string,
    returns: string,
    scrub: (text: string) => string,
  ): ProxyViolation[] {
    let text: string;
    try {
      text = (DECODERS.get(encoding) ?? ((b: Buffer) => b))(bytes, this.maxChecked).toString('utf8');
    } catch (e) {
      const tooLarge = (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
      return [
        notChecked(
          'response',
          tooLarge
            ? `the body is larger than ${this.maxChecked} bytes once decoded: it was not checked`
            : `the ${encoding} body could not be decoded: it was not checked`,
        ),
      ];
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return [
        {
          code: 'invalid-json',
          severity: 'error',
          message: `the body is declared JSON and is not: ${(e as Error).message}`,
          in: 'response',
          path: '$',
        },
      ];
    }
    const typed = checkResponse(this.options.catalog, returns, value, scrub);
    return typed.issues.map((i) => ({
      code: i.code,
      severity: 'warning',
      message: i.message,
      in: 'response',
      path: i.path,
    }));
  }

  private stream(body: Readable, res: ServerResponse) {
    pipeline(body, res, (err) => {
      // The target's body broke off (reset, timeout): the client's answer breaks off too, never ends as if whole.
      if (err) res.destroy();
    });
  }

  private writeHead(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    headers: string[],
    violations: ProxyViolation[],
  ) {
    const out = [...headers];
    const header = violationsHeader(violations);
    if (header) out.push('Lpreq-Violations', header);
    // While stopping, and after a request whose body was not read to its end, the connection is not reused.
    if (this.closing || !req.complete) out.push('Connection', 'close');
    res.writeHead(status, out);
  }

  /** A plain-text answer of the proxy's own (the target did not answer, or the request cannot be forwarded). */
  private plain(
    req: IncomingMessage,
    res: ServerResponse,
    status: number,
    message: string,
    violations: ProxyViolation[] = [],
  ) {
    if (res.headersSent) {
      res.destroy();
      return;
    }
    const text = `lpreq proxy: ${message}\n`;
    this.writeHead(
      req,
      res,
      status,
      ['Content-Type', 'text/plain; charset=utf-8', 'Content-Length', String(Buffer.byteLength(text))],
      violations,
    );
    res.end(text);
  }

  private fail(res: ServerResponse, e: unknown) {
    try {
      if (res.headersSent) res.destroy();
      else {
        const text = `lpreq proxy: the proxy failed on this request (${(e as Error)?.name ?? 'error'})\n`;
        res.writeHead(502, {
          'Content-Type': 'text/plain; charset=utf-8',
          'Content-Length': Buffer.byteLength(text),
          Connection: 'close',
        });
        res.end(text);
      }
    } catch {
      res.destroy();
    }
  }

  /** An absolute URL of the target, as the client reaches it through the proxy; any other URL as it is. */
  private rewrite(url: string, req: IncomingMessage): string {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return url;
    }
    const { target } = this.options;
    if (parsed.origin !== target.origin) return url;
    const path = parsed.pathname;
    if (this.basePath !== '' && path !== this.basePath && !path.startsWith(`${this.basePath}/`)) return url;
    return `${this.ownOrigin(req)}${path.slice(this.basePath.length) || '/'}${parsed.search}${parsed.hash}`;
  }

  private ownOrigin(req: IncomingMessage): string {
    const host = req.headers.host;
    if (host && /^[A-Za-z0-9.:[\]-]+$/.test(host)) return `http://${host}`;
    const a = this.server.address() as AddressInfo | null;
    return a ? `http://127.0.0.1:${a.port}` : 'http://127.0.0.1';
  }
}

/** Decoders of a compressed JSON body, each stopping at `max` bytes of output. */
const DECODERS = new Map<string, (bytes: Buffer, max: number) => Buffer>([
  ['identity', (b) => b],
  ['gzip', (b, max) => gunzipSync(b, { maxOutputLength: max })],
  ['x-gzip', (b, max) => gunzipSync(b, { maxOutputLength: max })],
  ['br', (b, max) => brotliDecompressSync(b, { maxOutputLength: max })],
  [
    'deflate',
    (b, max) => {
      // `deflate` is zlib-wrapped by the standard, and raw in some servers.
      try {
        return inflateSync(b, { maxOutputLength: max });
      } catch (e) {
        if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw e;
        return inflateRawSync(b, { maxOutputLength: max });
      }
    },
  ],
]);

function absolutePath(target: string): string | undefined {
  try {
    const u = new URL(target);
    return `${u.pathname}${u.search}`;
  } catch {
    return undefined;
  }
}

/**
 * The client's credentials, as secrets of the exchange: the `Authorization` value, its
 * credentials without the scheme (a bearer token), a Basic pair decoded and its password,
 * and any `access_token` in the query. None of them is ever in a record or a header the
 * proxy writes.
 */
function credentials(req: IncomingMessage, path: string | undefined): string[] {
  const out: string[] = [];
  const auth = req.headers.authorization?.trim();
  if (auth) {
    out.push(auth);
    const m = /^(\S+)\s+(.+)$/.exec(auth);
    if (m) {
      out.push(m[2].trim());
      if (m[1].toLowerCase() === 'basic') {
        const pair = Buffer.from(m[2].trim(), 'base64').toString('utf8');
        out.push(pair, pair.slice(pair.indexOf(':') + 1));
      }
    }
  }
  if (path !== undefined && path.includes('access_token')) {
    const q = path.indexOf('?');
    if (q !== -1) for (const v of new URLSearchParams(path.slice(q + 1)).getAll('access_token')) out.push(v);
  }
  return out.filter((s) => s.length > 0);
}

function scrubViolations(violations: ProxyViolation[], scrub: (text: string) => string): ProxyViolation[] {
  return violations.map((v) => {
    const out: ProxyViolation = { ...v, message: scrub(v.message) };
    if (v.parameter !== undefined) out.parameter = scrub(v.parameter);
    if (v.path !== undefined) out.path = scrub(v.path);
    return out;
  });
}

function problemViolation(p: RequestProblem, severity: Severity): ProxyViolation {
  const v: ProxyViolation = { code: p.code, severity, message: p.message, in: 'request' };
  if (p.parameter !== undefined) v.parameter = p.parameter;
  return v;
}

function notChecked(side: 'request' | 'response', message: string): ProxyViolation {
  return { code: 'not-checked', severity: 'note', message, in: side };
}

/** What the mock refuses while reading a body, as the proxy reports it: invalid JSON is an error; the rest means the body went unchecked. */
function refusalViolation(problem: { message: string; code: string }, side: 'request' | 'response'): ProxyViolation {
  return problem.code === 'invalid-json'
    ? { code: 'invalid-json', severity: 'error', message: problem.message, in: side }
    : notChecked(side, `${problem.message}: not checked`);
}

type Read = { kind: 'whole'; bytes: Buffer } | { kind: 'over'; rest: Readable } | { kind: 'aborted' };

/**
 * Reads a stream to its end if it ends within `max` bytes. Past that, the bytes read so far
 * and the rest of the stream come back as one stream (`rest`), to be passed on as they come.
 */
function readUpTo(stream: Readable, max: number): Promise<Read> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (r: Read) => {
      if (done) return;
      done = true;
      stream.off('data', onData);
      resolve(r);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      chunks.push(chunk);
      if (size > max) {
        stream.pause();
        const rest = new PassThrough();
        for (const c of chunks) rest.write(c);
        pipeline(stream, rest, () => undefined);
        finish({ kind: 'over', rest });
      }
    };
    stream.on('data', onData);
    stream.once('end', () => finish({ kind: 'whole', bytes: Buffer.concat(chunks) }));
    stream.once('error', () => finish({ kind: 'aborted' }));
    stream.once('close', () => finish({ kind: 'aborted' }));
  });
}
