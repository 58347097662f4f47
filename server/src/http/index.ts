/**
 * An HTTP request as the checker reads it, shared by the hosts that answer HTTP (the mock)
 * and those that pass it on (the proxy): routing, body decoding, the check, and what an
 * answer and a log line say about the exchange; and the listening server both use
 * (listener.ts, the one part that does I/O).
 */
export { checkHttpRequest, type RequestProblem, type RequestCheck } from './check';
export { flatten, type Pair } from './pairs';
export {
  MAX_PARAMETERS,
  requestUrl,
  routeRequest,
  decodeBody,
  checkRequest,
  isCheckedBodyType,
  type Route,
  type Refusal,
  type DecodedBody,
  type CheckedRequest,
} from './request';
export { createListener } from './listener';
export { violationsHeader, logTarget, MAX_HEADER_LENGTH, type Violation } from './violations';
