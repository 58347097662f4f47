/**
 * Where Fetch All Pages applies. One decision for every place that offers it: the VS Code
 * extension's code lens, the language server's code lens and commands, and what the sender
 * records of a request (PreparedRequest.paginated).
 */
import type { Endpoint } from './catalog/catalog';

/** Whether a request to this endpoint is answered in pages that Fetch All Pages (`lpreq send --all-pages`) follows and merges. */
export function followsPages(endpoint: Endpoint | undefined): boolean {
  return endpoint?.paginated === true;
}
