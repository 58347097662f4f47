/**
 * Faults on demand (issue 30): `lpreq mock --faults FILE` and `lpreq test --mock --faults FILE`.
 * A rules file says which requests (method, path pattern, user) get which fault (a status, a
 * delay, a connection reset, a body cut short), at a rate or for a count, from a seed, so that
 * the same run gets the same faults. The format is in docs/mock.md ("Faults on demand"):
 *
 *     seed 7
 *     GET  /api/v1/courses/{id}/modules   status=503 rate=0.5
 *     POST /api/v1/courses/**  user=1001  status=429 retry-after=30 count=2
 *     *    /api/v1/**                    delay=300ms rate=10%
 *     GET  /api/v1/courses/42/files       reset count=1
 *     GET  /api/v1/folders/{id}/files     cut=100 rate=0.2
 *
 * Pure: it reads a text and decides; the server applies what it decides.
 */
import { STATUS_CODES } from 'node:http';

/** A rules file that cannot be read, with the line (1-based) that says why. */
export class FaultsError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

export interface FaultRule {
  /** The line of the rules file: the rule's name in logs and headers. */
  line: number;
  /** Upper case, or `*` for any. */
  method: string;
  /** The path pattern as written. */
  path: string;
  pattern: RegExp;
  /** Only requests of this user (the user of the token). */
  user?: number;
  status?: number;
  /** Seconds, for `Retry-After` (a 429 or 503). */
  retryAfter?: number;
  delayMs?: number;
  reset?: boolean;
  /** Bytes of the body sent before the connection is closed. */
  cut?: number;
  /** 0 to 1: the share of matching requests that get the fault. */
  rate?: number;
  /** At most this many faults. */
  count?: number;
}

export interface FaultPlan {
  seed: number;
  rules: FaultRule[];
}

/** What a request gets: one rule's fault. */
export interface Fault {
  rule: FaultRule;
  /** `status=503 (line 3)`: the request line's and the `Lpreq-Fault` header's words. */
  label: string;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS', '*']);
const KEYS = ['user', 'status', 'retry-after', 'delay', 'reset', 'cut', 'rate', 'count'];
/** Longest delay a rule may ask for: a fault test stays bounded. */
const MAX_DELAY_MS = 60_000;

/** Reads a rules file; throws FaultsError naming the line of the first mistake. */
export function parseFaults(text: string): FaultPlan {
  let seed = 1;
  let seenSeed = false;
  const rules: FaultRule[] = [];
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = i + 1;
    const words = lines[i]
      .replace(/(^|\s)#.*$/, '')
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    if (words.length === 0) continue;
    if (words[0] === 'seed') {
      if (seenSeed) throw new FaultsError(line, 'the seed is given twice');
      if (words.length !== 2 || !/^\d{1,9}$/.test(words[1]))
        throw new FaultsError(line, 'write the seed as `seed N`, N a whole number');
      seed = Number(words[1]);
      seenSeed = true;
      continue;
    }
    rules.push(parseRule(words, line));
  }
  return { seed, rules };
}

function parseRule(words: string[], line: number): FaultRule {
  const [method, path, ...rest] = words;
  if (!METHODS.has(method))
    throw new FaultsError(
      line,
      `a rule starts with a method (GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS or *), not '${method}'`,
    );
  if (path === undefined || !path.startsWith('/'))
    throw new FaultsError(line, `after the method comes a path pattern that starts with /, not '${path ?? ''}'`);
  const rule: FaultRule = { line, method, path, pattern: pathPattern(path) };
  const seen = new Set<string>();
  for (const word of rest) {
    const m = /^([a-z-]+)(?:=(.*))?$/.exec(word);
    const key = m?.[1] ?? word;
    if (!m || !KEYS.includes(key)) {
      const near = KEYS.find((k) => k.startsWith(key.slice(0, 3)));
      throw new FaultsError(
        line,
        `unknown word '${word}'${near ? ` (did you mean ${near}${near === 'reset' ? '' : '='}?)` : ''}: a rule takes ${KEYS.map((k) => (k === 'reset' ? k : `${k}=`)).join(', ')}`,
      );
    }
    if (seen.has(key)) throw new FaultsError(line, `${key} is given twice`);
    seen.add(key);
    const value = m[2];
    if (key === 'reset') {
      if (value !== undefined) throw new FaultsError(line, 'reset takes no value');
      rule.reset = true;
      continue;
    }
    if (value === undefined || value === '') throw new FaultsError(line, `${key} needs a value (${key}=...)`);
    switch (key) {
      case 'user':
        rule.user = whole(value, line, 'user', 'a user id');
        break;
      case 'status': {
        const status = whole(value, line, 'status', 'a status code');
        if (status < 400 || status > 599 || STATUS_CODES[status] === undefined)
          throw new FaultsError(
            line,
            `status=${value}: a fault's status is an error status, 400 to 599 (500, 502, 503, 429...)`,
          );
        rule.status = status;
        break;
      }
      case 'retry-after':
        rule.retryAfter = whole(value, line, 'retry-after', 'a number of seconds');
        break;
      case 'delay':
        rule.delayMs = duration(value, line);
        break;
      case 'cut':
        rule.cut = whole(value, line, 'cut', 'a number of bytes');
        break;
      case 'rate': {
        const percent = /^(\d+(?:\.\d+)?)%$/.exec(value);
        const rate = percent ? Number(percent[1]) / 100 : /^(0|1)?(\.\d+)?$/.test(value) ? Number(value) : NaN;
        if (!(rate > 0 && rate <= 1))
          throw new FaultsError(line, `rate=${value}: a rate is above 0 and at most 1 (0.25), or a percentage (25%)`);
        rule.rate = rate;
        break;
      }
      default:
        rule.count = whole(value, line, 'count', 'a number of requests');
        if (rule.count === 0) throw new FaultsError(line, 'count=0 gives no fault: remove the rule instead');
    }
  }
  const actions = [rule.status !== undefined, rule.reset === true, rule.cut !== undefined].filter(Boolean).length;
  if (actions > 1) throw new FaultsError(line, 'a rule gives one of status=, reset and cut= (with delay= or not)');
  if (actions === 0 && rule.delayMs === undefined)
    throw new FaultsError(line, 'a rule gives a fault: status=NNN, delay=DURATION, reset or cut=BYTES');
  if (rule.retryAfter !== undefined && rule.status !== 429 && rule.status !== 503)
    throw new FaultsError(line, 'retry-after goes with status=429 or status=503');
  if (rule.rate === undefined && rule.count === undefined)
    throw new FaultsError(line, 'a rule says how often: rate=R (0.25 or 25%), count=N, or both');
  return rule;
}

function whole(value: string, line: number, key: string, what: string): number {
  if (!/^\d{1,9}$/.test(value)) throw new FaultsError(line, `${key}=${value}: ${what} is a whole number`);
  return Number(value);
}

function duration(value: string, line: number): number {
  const m = /^(\d{1,9})(ms|s)?$/.exec(value);
  if (!m) throw new FaultsError(line, `delay=${value}: a delay is milliseconds (250ms, or 250) or seconds (2s)`);
  const ms = Number(m[1]) * (m[2] === 's' ? 1000 : 1);
  if (ms > MAX_DELAY_MS) throw new FaultsError(line, `delay=${value}: a delay is at most ${MAX_DELAY_MS / 1000}s`);
  return ms;
}

/** `*` is one path segment, `**` any number of them, `{name}` one segment; the rest is literal. */
function pathPattern(path: string): RegExp {
  const segments = path
    .split('/')
    .slice(1)
    .map((s) =>
      s === '**'
        ? '(?:/[^/]*)*'
        : `/${s === '*' || /^\{\w+\}$/.test(s) ? '[^/]+' : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
    );
  return new RegExp(`^${segments.join('')}/?$`);
}

/** The faults of a run: which request gets which, from the plan and its seed. */
export class Faults {
  private readonly matches = new Map<FaultRule, number>();
  private readonly given = new Map<FaultRule, number>();

  constructor(readonly plan: FaultPlan) {}

  /** The fault a request gets, if any: the first rule that matches it and fires. */
  decide(method: string, path: string, user: number | undefined): Fault | undefined {
    for (const rule of this.plan.rules) {
      if (rule.method !== '*' && rule.method !== method) continue;
      if (rule.user !== undefined && rule.user !== user) continue;
      if (!rule.pattern.test(path)) continue;
      const n = this.matches.get(rule) ?? 0;
      this.matches.set(rule, n + 1);
      const given = this.given.get(rule) ?? 0;
      if (rule.count !== undefined && given >= rule.count) continue;
      if (rule.rate !== undefined && chance(this.plan.seed, rule.line, n) >= rule.rate) continue;
      this.given.set(rule, given + 1);
      return { rule, label: labelOf(rule) };
    }
    return undefined;
  }

  /** The rules no request matched. */
  unmatched(): FaultRule[] {
    return this.plan.rules.filter((r) => !this.matches.has(r));
  }
}

function labelOf(rule: FaultRule): string {
  const parts: string[] = [];
  if (rule.delayMs !== undefined) parts.push(`delay=${rule.delayMs}ms`);
  if (rule.status !== undefined) parts.push(`status=${rule.status}`);
  if (rule.reset) parts.push('reset');
  if (rule.cut !== undefined) parts.push(`cut=${rule.cut}`);
  return `${parts.join(' ')} (line ${rule.line})`;
}

/** A number in [0, 1) from the seed, the rule and how many requests it matched before: the same every run. */
function chance(seed: number, line: number, n: number): number {
  // splitmix32 over the three numbers.
  let x = (Math.imul(seed, 0x9e3779b1) ^ Math.imul(line, 0x85ebca6b) ^ Math.imul(n + 1, 0xc2b2ae35)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x21f0aaad);
  x = Math.imul(x ^ (x >>> 15), 0x735a2d97);
  return ((x ^ (x >>> 15)) >>> 0) / 4294967296;
}

/**
 * `Prefer: code=NNN` (as Prism reads it, RFC 7240's header): the status asked for, undefined
 * when the header asks for none, or null when its code is not a status.
 */
export function preferredStatus(header: string | string[] | undefined): number | null | undefined {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (!text) return undefined;
  const m = /(?:^|[,;\s])code\s*=\s*"?([^",;\s]*)"?/i.exec(text);
  if (!m) return undefined;
  return /^[1-5]\d\d$/.test(m[1]) ? Number(m[1]) : null;
}

/** What a `Prefer: code=` answer says: the endpoint's documented error of that status, or a plain one. */
export interface PreferredError {
  status: number;
  message: string;
  code: 'documented-error' | 'preferred-status';
  headers: Record<string, string>;
}

/**
 * The answer to `Prefer: code=NNN` on an endpoint: its documented error for that status (the
 * docs' condition as the message) or a plain one where the docs give none, with the headers an
 * answer of that status carries; undefined for the endpoint's success status, which is answered
 * as usual. Null for a status the mock does not make up (1xx to 3xx other than success).
 */
export function preferredError(
  endpoint: { errors?: { status: number; condition: string }[]; successStatus?: number },
  status: number,
): PreferredError | null | undefined {
  if (status === (endpoint.successStatus ?? 200)) return undefined;
  if (status < 400) return null;
  const documented = endpoint.errors?.find((e) => e.status === status);
  const headers: Record<string, string> = { 'Preference-Applied': `code=${status}` };
  if (status === 401) headers['WWW-Authenticate'] = 'Bearer realm="lpreq mock"';
  if (status === 429) headers['Retry-After'] = '1';
  return documented
    ? { status, message: documented.condition, code: 'documented-error', headers }
    : {
        status,
        message: `${status} ${STATUS_CODES[status] ?? 'Error'}, as Prefer asked`,
        code: 'preferred-status',
        headers,
      };
}
