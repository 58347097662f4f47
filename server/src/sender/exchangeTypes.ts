/**
 * What an exchange is given and what it gives back: the types exchange.ts, connection.ts and
 * responseBody.ts share, below all three.
 */
import type { ExactNumbers } from './exactNumbers';
import type { TlsFiles } from '../node/index';

export type FailureKind =
  | 'refused'
  | 'reset'
  | 'timeout'
  | 'cancelled'
  | 'tls'
  | 'dns'
  | 'invalid-url'
  | 'too-many-redirects'
  /** The method, the URL or the body carries the token (or a secret) and is bound for an origin it may not go to: not sent. */
  | 'secret-elsewhere'
  /** `--all-pages`: a later page failed (or was not fetched), so the merged list is not whole. */
  | 'incomplete'
  | 'network'
  | 'http';

export interface ExchangeError {
  kind: FailureKind;
  message: string;
}

export interface Timing {
  /** Name lookup, when a lookup took place (not for IP addresses or through a proxy). */
  dnsMs?: number;
  /** TCP connection, name lookup included (the hop that answered). */
  connectMs?: number;
  /** The TLS handshake, after the TCP connection (https only). */
  tlsMs?: number;
  /** From the start until the status line and headers of the last hop arrived. */
  firstByteMs?: number;
  /** From the headers of the answer until the end of its body. */
  downloadMs?: number;
  totalMs: number;
}

export interface ExchangeResult {
  /** True for a 2xx status whose body could be read. */
  ok: boolean;
  /** Null when no response arrived. */
  status: number | null;
  statusText: string;
  /** Response headers, lower-case names; repeated headers joined with `, `. */
  headers: Record<string, string>;
  /** Parsed JSON when the body is JSON; the text otherwise; null when empty or binary. */
  body: unknown;
  /** The body as text (for a truncated body, its first part). */
  bodyText: string;
  bodyKind: 'json' | 'text' | 'binary' | 'empty';
  contentType?: string;
  bytes: number;
  durationMs: number;
  timing: Timing;
  /**
   * The body stopped before its end (a timeout, a reset, a cancellation): `bytes` arrived, and
   * `bodyText` holds them, unparsed.
   */
  bodyIncomplete?: boolean;
  /** Integers of a JSON body beyond 2^53, as written, by JSON path: `body` holds them rounded. */
  exactNumbers?: ExactNumbers;
  /** The body was larger than the limit: all of it is in `file`. */
  truncated?: { file: string; bytes: number; limit: number };
  /** The URL that answered (after redirects). */
  url: string;
  redirects: { status: number; from: string; to: string; tokenSent: boolean }[];
  /** Whether the token went with the request that answered. */
  tokenSent: boolean;
  /**
   * The request's own `Authorization` header went with the request that answered; the token
   * was then not added (a header written in the file says what this request authenticates with).
   */
  authorizationWritten?: boolean;
  error?: ExchangeError;
  warnings: string[];
}

export interface ExchangeOptions {
  /** The access token; sent only to `prepared.tokenOrigin`. */
  token?: string;
  /** Whole exchange, redirects and body included. Default 30 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** A proxy URL; without it HTTPS_PROXY / HTTP_PROXY (and NO_PROXY) of `env` apply. */
  proxy?: string;
  /** Where proxy settings are read; default process.env. */
  env?: Record<string, string | undefined>;
  /** Default 5. */
  maxRedirects?: number;
  /** Bodies above this are written to a file and reported as truncated. Default 10 MiB. */
  maxBodyBytes?: number;
  /** Folder for truncated bodies; default the system's temporary folder. */
  spillDir?: string;
  /**
   * Secrets that go where the token goes, and nowhere else (`{{token}}`, a secret prompt's
   * answer, the selected environment's secret variables): a header that carries one is left
   * out anywhere else, and a method, URL or body that carries one is not sent there.
   */
  secrets?: (string | undefined)[];
  /**
   * Secrets that go nowhere from here (the tokens of the other environments): a request that
   * carries one is not sent to any origin, and a header that carries one is left out.
   */
  foreignSecrets?: (string | undefined)[];
  /**
   * The environment's `$tls` files: used only on https hops to `prepared.tokenOrigin` (the
   * origin of its base_url), so that a redirect to another host is checked as usual and gets
   * no client certificate.
   */
  tls?: TlsFiles;
}
