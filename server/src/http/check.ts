/**
 * An HTTP request checked by the editor's Checker: the request becomes a request block
 * (method, path, one parameter line per sent pair, or the JSON body), so what the editor
 * calls an error is what the mock answers with 400 and what the proxy reports as one.
 */
import type { Checker, Diagnostic } from '../core';
import type { Block, ParameterLine } from '../core';
import type { Pair } from './pairs';

export interface RequestProblem {
  message: string;
  code: Diagnostic['code'];
  parameter?: string;
}

export interface RequestCheck {
  errors: RequestProblem[];
  warnings: RequestProblem[];
  /**
   * The pairs (by index into the request's pairs) the docs say the API ignores in this
   * request (`ignored-parameter`): a faithful server leaves them out before acting on the rest.
   */
  ignored: Set<number>;
}

/** Codes that are about the file, not the request on the wire. */
const NOT_FOR_HTTP = new Set<Diagnostic['code']>(['unresolved-variable', 'token-in-file', 'syntax']);

export function checkHttpRequest(
  checker: Checker,
  request: { method: string; path: string; pairs: Pair[]; jsonBody?: string },
): RequestCheck {
  const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ');
  let text = `${request.method} ${oneLine(request.path)}\n\n`;
  const requestLine = { start: 0, end: text.length - 2 };
  const params: ParameterLine[] = [];
  let jsonBody: Block['jsonBody'];
  if (request.jsonBody !== undefined) {
    const start = text.length;
    text += request.jsonBody;
    jsonBody = { text: request.jsonBody, start, end: text.length };
  } else {
    for (const [name, value] of request.pairs) {
      const n = oneLine(name);
      const v = oneLine(value);
      const start = text.length;
      text += `${n} = ${v}\n`;
      params.push({
        name: { text: n, start, end: start + n.length },
        value: { text: v, start: start + n.length + 3, end: start + n.length + 3 + v.length },
        decodedName: name,
        decodedValue: value,
        source: 'body',
        start,
        end: text.length - 1,
      });
    }
  }
  const methodEnd = request.method.length;
  const block: Block = {
    text,
    metadata: [],
    variables: [],
    request: {
      method: { text: request.method, start: 0, end: methodEnd },
      methodKnown: true,
      target: { text: oneLine(request.path), start: methodEnd + 1, end: requestLine.end },
      start: 0,
      end: requestLine.end,
    },
    queryLines: [],
    headers: [],
    params,
    jsonBody,
    bodyStart: requestLine.end + 1,
    assertionLines: [],
    assertionsRead: undefined,
    scriptSets: [],
    problems: [],
  };
  const diagnostics = checker.checkBlock(block, { values: new Map(), requestNames: new Set() });
  const errors: RequestProblem[] = [];
  const warnings: RequestProblem[] = [];
  const ignored = new Set<number>();
  for (const d of diagnostics) {
    if (NOT_FOR_HTTP.has(d.code) && !(d.code === 'syntax' && jsonBody)) continue;
    const index = lineAt(params, d.start);
    const problem: RequestProblem = { message: d.message, code: d.code };
    const missing = d.data?.missing;
    if (index !== undefined) problem.parameter = params[index].decodedName;
    else if (missing?.length === 1) problem.parameter = missing[0];
    if (d.code === 'ignored-parameter' && index !== undefined) ignored.add(index);
    (d.severity === 'error' ? errors : warnings).push(problem);
  }
  return { errors, warnings, ignored };
}

/** The index of the parameter line an offset falls on: the lines are in order, so a binary search (one warning per line of a large body must not scan every line). */
function lineAt(params: ParameterLine[], offset: number): number | undefined {
  let lo = 0;
  let hi = params.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const p = params[mid];
    if (offset < p.start) hi = mid - 1;
    else if (offset > p.end) lo = mid + 1;
    else return mid;
  }
  return undefined;
}
