/**
 * What a request gets back, by name (issue 30): an endpoint's `returns`, or, where the docs say
 * the request decides between the alternatives of a union (`returnsBy`), the alternative its
 * parameters choose. The sender, the proxy and the mock name an answer by it.
 */
import type { Endpoint } from './catalog';
import type { Condition } from './schema';

/** The documented type of the answer to a request of `endpoint` that sent `pairs` (query and form parameters). */
export function returnsFor(endpoint: Endpoint, pairs: Iterable<readonly [string, string]>): string | null {
  const by = endpoint.returnsBy;
  if (!by) return endpoint.returns;
  const sent = new Map<string, string>();
  for (const [name, value] of pairs) sent.set(name, value);
  return by.cases.find((c) => holds(c.when, sent))?.returns ?? by.otherwise;
}

/** A rule condition on the parameters sent: false when its parameter was not sent. */
function holds(condition: Condition, sent: ReadonlyMap<string, string>): boolean {
  const value = sent.get(condition.param);
  if (value === undefined) return false;
  if (condition.present) return true;
  if (condition.in) return condition.in.includes(value);
  if (condition.notIn) return !condition.notIn.includes(value);
  return true;
}
