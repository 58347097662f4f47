/**
 * The requests of a document as the editor sees them: where each request line stands,
 * whether its endpoint is paginated, whether it changes data. Pure: text in, plain data out.
 */
import {
  documentScope,
  followsPages,
  type Checker,
  type Environments,
  parseDocument,
  requestName,
  requestTarget,
  type LpreqDocument,
  lineStarts,
  lineOfOffset as lineAt,
} from '../../../server/src/core/index';
import type { RequestInfo } from './requestInfo';

export { describeRequest, type RequestInfo } from './requestInfo';

export { lineStarts, lineOfOffset as lineAt } from '../../../server/src/core/index';

/** Every request of the document, in order. */
function listRequests(checker: Checker, document: LpreqDocument, environments?: Environments): RequestInfo[] {
  const starts = lineStarts(document.text);
  const scope = documentScope(document, environments);
  const out: RequestInfo[] = [];
  document.blocks.forEach(({ start, block }, blockIndex) => {
    const request = block.request;
    if (!request || !request.methodKnown) return;
    let match;
    try {
      match = checker.matchBlock(block, scope);
    } catch {
      match = undefined;
    }
    const endpoint = match?.kind === 'matched' ? match.endpoint : undefined;
    const end = start + Math.max(0, block.text.replace(/\s+$/, '').length - 1);
    out.push({
      blockIndex,
      line: lineAt(starts, start + request.start),
      startLine: lineAt(starts, start),
      endLine: lineAt(starts, Math.max(start, end)),
      method: request.method.text,
      target: requestTarget(request),
      name: requestName(block),
      title: block.title?.text || undefined,
      paginated: followsPages(endpoint),
      endpointId: endpoint?.id,
    });
  });
  return out;
}

export function parseRequests(
  checker: Checker,
  text: string,
  environments?: Environments,
): { document: LpreqDocument; requests: RequestInfo[] } {
  const document = parseDocument(text);
  return { document, requests: listRequests(checker, document, environments) };
}

/** The request whose block holds `line` (0-based), or the nearest one above it. */
export function requestAtLine(requests: readonly RequestInfo[], line: number): RequestInfo | undefined {
  let found: RequestInfo | undefined;
  for (const r of requests) {
    if (r.startLine <= line) found = r;
    else break;
  }
  if (found && line <= found.endLine) return found;
  return found ?? requests[0];
}
