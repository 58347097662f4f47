/**
 * Where Fetch All Pages applies, and how the next page is asked for. One decision for every
 * place that offers or does it: the VS Code extension's code lens, the language server's
 * code lens and commands, and the sender (PreparedRequest.paginated and .paging), so that a
 * lens is shown exactly where `lpreq send --all-pages` follows pages.
 */
import type { Endpoint } from './catalog/catalog';

/**
 * How the next page of a list is fetched: through the `Link` header (`rel="next"`, convention
 * 7 of document A), or, for the webhook subscription list, by sending a `StartKey` header
 * holding the `EndKey` of the previous response (document C). Undefined: not a list in pages.
 */
export function pagingOf(endpoint: Endpoint | undefined): 'link' | 'start-key' | undefined {
  if (endpoint === undefined) return undefined;
  // The docs describe the StartKey request header only where it pages (the webhook list).
  if (endpoint.headers?.some((h) => h.name.toLowerCase() === 'startkey')) return 'start-key';
  return endpoint.paginated === true ? 'link' : undefined;
}

/** Whether a request to this endpoint is answered in pages that Fetch All Pages (`lpreq send --all-pages`) follows and merges. */
export function followsPages(endpoint: Endpoint | undefined): boolean {
  return pagingOf(endpoint) !== undefined;
}
