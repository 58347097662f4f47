/**
 * `lpreq mock`: a local, stateful Learning Platform API built from the catalog. Requests
 * are routed with the checker's EndpointMatcher and checked with the editor's Checker;
 * responses are the documented resources, built from the catalog's field lists.
 */
import type { AddressInfo } from 'node:net';
import { bundledCatalog } from '../catalogData';
import type { Catalog } from '../core';
import { defaultSeed, parseSeed, type SeedData } from './seed';
import { MockServer, newToken, type RequestLogEntry } from './server';
import type { MockLimits } from './limits';
import { MockState } from './state';
import { Faults, type FaultPlan, type FaultRule } from './faults';

export { parseSeed, defaultSeed, SeedError, SeedSchema, type SeedData, type ParsedSeed } from './seed';
export { mockVariables, seededIds, type MockVariable } from './variables';
export { MockState, type Row } from './state';
export type { RequestLogEntry } from './server';
export { DEFAULT_LIMITS, type MockLimits } from './limits';
export { MAX_PARAMETERS } from '../http';
export { HANDLERS } from './handlers';
export { parseFaults, FaultsError, type FaultPlan, type FaultRule } from './faults';

export interface MockOptions {
  /** Default 4010; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1 (loopback only). */
  host?: string;
  /** Another data set of the same shape as the bundled seed. */
  seed?: SeedData;
  /** Accept only this token (and the user tokens); without it any non-empty bearer token is accepted. It stands for the seed's `self_user_id`. */
  token?: string;
  /** Tokens of other users of the seed, so that a request acts as that user (a student submits an assignment). */
  userTokens?: readonly UserToken[];
  /** Limit the token to these scopes (`url:GET|/api/v1/courses/:course_id/modules`). */
  scopes?: string[];
  catalog?: Catalog;
  /** Milliseconds a request may take to arrive before a 408 (default 30 s). */
  requestTimeout?: number;
  /** Told of every request once answered: method, path and query names, status, time, the checker's warnings (`lpreq mock` prints them unless `--quiet`). */
  onRequest?: (entry: RequestLogEntry) => void;
  /** How much the mock keeps: objects created, bytes of bodies that change data (limits.ts; 10,000 and 64 MB unless said). */
  limits?: Partial<MockLimits>;
  /** Faults on demand: the rules of a `--faults` file (`readFaultsFile`, `parseFaults`). */
  faults?: FaultPlan;
}

export interface UserToken {
  userId: number;
  token: string;
}

export interface RunningMock {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  url: string;
  port: number;
  /** The token to send: the one given, or a fresh one (any non-empty token works then). */
  token: string;
  state: MockState;
  /** The rules of `faults` no request matched so far. */
  unmatchedFaults(): FaultRule[];
  close(): Promise<void>;
}

export async function startMock(options: MockOptions = {}): Promise<RunningMock> {
  const catalog = options.catalog ?? bundledCatalog();
  const seed = options.seed === undefined ? defaultSeed() : parseSeed(options.seed);
  const state = new MockState(seed);
  // The seed's user tokens first, then those given: a token given twice is refused either way.
  const seeded = seed.user_tokens.map((u) => ({ userId: u.user_id, token: u.token }));
  const userTokens = userTokenMap(state, [...seeded, ...(options.userTokens ?? [])], options.token);
  const faults = options.faults && new Faults(options.faults);
  const mock = new MockServer({
    faults,
    catalog,
    state,
    token: options.token,
    userTokens,
    scopes: options.scopes,
    requestTimeout: options.requestTimeout,
    onRequest: options.onRequest,
    limits: options.limits,
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    const onError = (e: Error) => reject(e);
    mock.server.once('error', onError);
    mock.server.listen(options.port ?? 4010, host, () => {
      mock.server.off('error', onError);
      resolve();
    });
  });
  const port = (mock.server.address() as AddressInfo).port;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shownHost}:${port}`,
    port,
    token: options.token ?? newToken(),
    state,
    unmatchedFaults: () => faults?.unmatched() ?? [],
    close: () => mock.close(),
  };
}

/** `line 3 (GET /api/v1/courses/** status=503 ...)` matched no request: a note for the end of a run. */
export function unmatchedNote(file: string, rule: FaultRule): string {
  return `the faults file ${file}, line ${rule.line} (${rule.method} ${rule.path}) matched no request`;
}

/** The user tokens by token: each names a user of the seed, and no token stands for two users. */
function userTokenMap(
  state: MockState,
  given: readonly UserToken[],
  selfToken: string | undefined,
): Map<string, number> {
  const map = new Map<string, number>();
  for (const { userId, token } of given) {
    if (!state.get('users', userId)) throw new Error(`user ${userId} of a user token is not in the seed`);
    if (token.trim() === '' || /\s/.test(token))
      throw new Error(`the token of user ${userId} is empty or has white space`);
    if (map.has(token) || token === selfToken)
      throw new Error(`the token of user ${userId} is given to another user too`);
    map.set(token, userId);
  }
  return map;
}
