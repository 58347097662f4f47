/**
 * The checks of a block's text that need no endpoint: variable references, an access token
 * written in a header, the durations of its metadata, and which parts of the block are sent.
 */
import { assertionsOf, promptVariables, type Block } from '../parser';
import { DURATION_KEYS, parseDuration } from '../metadata';
import { isSystemVariable, parseRequestReference } from '../variables';
import { diag, type Diagnostic } from './diagnostics';
import { tableKey } from '../tableKey';
import { scopeHasRequest, scopeHasValue, type VariableScope } from './scope';
import { NO_PARAMS } from './context';

export function checkVariables(block: Block, scope: VariableScope, out: Diagnostic[]) {
  // One pass over the block's `{{` (most blocks have one or two); each reference counts
  // when it stands in a part that is sent (variable values, the target, query lines,
  // headers, parameter lines and the JSON body; not comments or metadata) or in the
  // EXPECTED of an assertion, which is read when the response comes.
  const text = block.text;
  let open = text.indexOf('{{');
  while (open !== -1) {
    const close = text.indexOf('}}', open + 2);
    if (close === -1) return;
    const end = close + 2;
    if (readsVariables(block, open, end)) {
      const expression = text.slice(open + 2, close).trim();
      const problem = resolutionOf(expression, scope);
      if (problem && !definedInBlock(block, expression)) {
        out.push(diag('unresolved-variable', problem, open, end));
      }
      open = text.indexOf('{{', end);
    } else {
      // An unclosed `{{` on one line does not swallow the references of the next ones.
      open = text.indexOf('{{', open + 2);
    }
  }
}

export function checkHeaders(block: Block, out: Diagnostic[]) {
  for (let i = 0; i < block.headers.length; i++) {
    const h = block.headers[i];
    if (h.name.text.toLowerCase() !== 'authorization') continue;
    const m = /^Bearer\s+(\S+)/i.exec(h.value.text);
    if (m && !m[1].includes('{{') && m[1].length >= 20) {
      out.push(
        diag(
          'token-in-file',
          "an access token is written in the file: keep it in the editor's secret storage or LPREQ_TOKEN (lpreq sends it for you), or use {{$processEnv LPREQ_TOKEN}}",
          h.value.start,
          h.value.end,
        ),
      );
    }
  }
}

/** What a `{{expression}}` is, which does not depend on any scope: a system variable (and its verdict), a request reference, or a name. */
type ExpressionKind =
  { kind: 'system'; verdict: string | undefined } | { kind: 'request'; name: string } | { kind: 'name' };

/** Kinds of the expressions seen: the same few recur in every block. Bounded in size. */
const expressionKinds = new Map<string, ExpressionKind>();

function kindOf(written: string): ExpressionKind {
  let kind = expressionKinds.get(written);
  if (kind) return kind;
  // Read from a copy: the names and messages kept in the table are then pieces of the copy, not of the document.
  const expression = tableKey(written);
  if (expression.startsWith('$')) {
    kind = {
      kind: 'system',
      verdict: isSystemVariable(expression) ? undefined : `{{${expression}}} is not a known system variable`,
    };
  } else {
    const ref = parseRequestReference(expression);
    kind = ref ? { kind: 'request', name: ref.name } : { kind: 'name' };
  }
  if (expressionKinds.size > 10_000) expressionKinds.clear();
  expressionKinds.set(expression, kind);
  return kind;
}

/** A variable the request asks for when it is sent (`# @prompt name`) or that its own script sets: defined for this block only. */
function definedInBlock(block: Block, expression: string): boolean {
  const name = expression.startsWith('%') ? expression.slice(1) : expression;
  return (
    block.scriptSets.some((x) => x.name === name) ||
    (block.metadata.length > 0 && promptVariables(block).some((p) => p.name === name))
  );
}

/** Why `{{expression}}` does not resolve in the scope, or undefined when it does. */
function resolutionOf(expression: string, scope: VariableScope): string | undefined {
  const kind = kindOf(expression);
  if (kind.kind === 'system') return kind.verdict;
  if (kind.kind === 'request') {
    return scopeHasRequest(scope, kind.name)
      ? undefined
      : `{{${expression}}} refers to a request named ${kind.name}, and no request before this one has # @name ${kind.name} (a request can only use the response of an earlier one)`;
  }
  // REST Client's `{{%name}}`: the value of `name`, percent-encoded.
  const name = expression.charCodeAt(0) === 37 && expression.length > 1 ? expression.slice(1) : expression;
  if (scopeHasValue(scope, name)) return undefined;
  if (scope.scriptNames?.has(name)) return undefined;
  const subject =
    name !== expression ? `{{${expression}}} is the percent-encoded value of ${name}, which` : `{{${expression}}}`;
  // Defined in another environment: the choice of environment is what is wrong, not the file.
  const others = scope.otherEnvironments;
  const elsewhere = others?.definedIn.get(name);
  if (others && elsewhere)
    return `${subject} is not in environment '${others.selected}'; defined in ${elsewhere.join(', ')}`;
  return `${subject} is defined nowhere: not as a file variable (@${name} = ...), not in http-client.env.json or http-client.private.env.json`;
}

/** `# @timeout` and `# @connection-timeout` take a duration (JetBrains' client): one that cannot be read is not sent. */
export function checkDurations(block: Block, out: Diagnostic[]): void {
  for (let i = 0; i < block.metadata.length; i++) {
    const m = block.metadata[i];
    const key = m.key.text;
    if (!(DURATION_KEYS as readonly string[]).includes(key) || parseDuration(m.value.text) !== undefined) continue;
    const [start, end] = m.value.text.length > 0 ? [m.value.start, m.value.end] : [m.key.start - 1, m.key.end];
    out.push(
      diag(
        'invalid-format',
        `# @${key} takes a duration of up to a day: seconds, or a number with ms, s or m (\`90\`, \`500 ms\`, \`2 m\`)${m.value.text ? `; '${m.value.text}' is not one` : ''}`,
        start,
        end,
      ),
    );
  }
}

/** Whether [start, end) of a block stands where `{{variables}}` are read: a part that is sent, or an assertion's EXPECTED. */
export function readsVariables(block: Block, start: number, end: number): boolean {
  if (isSentRange(block, start, end)) return true;
  const assertions = assertionsOf(block);
  for (let i = 0; i < assertions.length; i++) {
    const expected = assertions[i].assertion?.expected;
    if (expected && start >= expected.start && end <= expected.end) return true;
  }
  return false;
}

/** Whether [start, end) of a block stands in a part that is sent (not comments or metadata). */
function isSentRange(block: Block, start: number, end: number): boolean {
  const within = (from: number, to: number) => start >= from && end <= to;
  const request = block.request;
  if (request && within(request.target.start, request.target.end)) return true;
  const pathLines = request?.pathLines ?? NO_PARAMS;
  for (let i = 0; i < pathLines.length; i++) if (within(pathLines[i].start, pathLines[i].end)) return true;
  for (let i = 0; i < block.headers.length; i++) if (within(block.headers[i].start, block.headers[i].end)) return true;
  for (let i = 0; i < block.params.length; i++)
    if (block.params[i].source === 'body' && within(block.params[i].start, block.params[i].end)) return true;
  for (let i = 0; i < block.variables.length; i++)
    if (within(block.variables[i].value.start, block.variables[i].value.end)) return true;
  for (let i = 0; i < block.queryLines.length; i++)
    if (within(block.queryLines[i].start, block.queryLines[i].end)) return true;
  if (block.fileBody !== undefined && within(block.fileBody.start, block.fileBody.end)) return true;
  return block.jsonBody !== undefined && within(block.jsonBody.start, block.jsonBody.end);
}
