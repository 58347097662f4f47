/**
 * How much the mock keeps: without a bound, created objects grow until the process runs out
 * of memory (24 modules with 4 MB names took 170 MB). A request that would go past a limit is
 * refused before its handler runs, with 507 and the API's error shape, and changes nothing;
 * restarting the mock starts from the seed again.
 */
import type { MockState } from './state';

export interface MockLimits {
  /** Objects created by requests (a row of any table) over the mock's life. */
  objects: number;
  /** Bytes of the request bodies that created or changed data, together. */
  bytes: number;
}

export const DEFAULT_LIMITS: MockLimits = { objects: 10_000, bytes: 64 * 1024 * 1024 };

const WRITES = new Set(['POST', 'PUT', 'PATCH']);

/** Why a request cannot be handled within the limits, or undefined when it can. */
export function limitRefusal(
  state: MockState,
  limits: MockLimits,
  method: string,
  bodyBytes: number,
): { message: string; code: string } | undefined {
  if (!WRITES.has(method)) return undefined;
  if (state.created >= limits.objects)
    return {
      message: `the mock keeps at most ${limits.objects} objects created by requests, and has that many: restart it to start again from its data set`,
      code: 'mock-limit-objects',
    };
  if (state.keptBytes + bodyBytes > limits.bytes)
    return {
      message: `the mock keeps at most ${Math.round(limits.bytes / 1048576)} MB of request bodies that change its data, and this one would go past it: restart it to start again from its data set`,
      code: 'mock-limit-bytes',
    };
  return undefined;
}

/** Counts a write request's body once its handler has run. */
export function countKept(state: MockState, method: string, bodyBytes: number): void {
  if (WRITES.has(method)) state.keptBytes += bodyBytes;
}
