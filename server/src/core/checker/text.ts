/**
 * The checks of a block's text that need no endpoint: variable references, an access token
 * written in a header, the durations of its metadata, and which parts of the block are sent.
 */
import { assertionsOf, promptVariables, type Block } from '../parser';
import { DURATION_KEYS, parseDuration } from '../metadata';
import { isSystemVariable, parseRequestReference } from '../variables';
import { diag, type Diagnostic } from './diagnostics';
import { fit, quote } from './phrases';
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
        out.push(diag('unresolved-variable', problem.message, open, end, undefined, problem.related));
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
          'an access token is written in the file: keep it in secret storage or LPREQ_TOKEN instead',
          h.value.start,
          h.value.end,
          undefined,
          [
            'The editor keeps the token in its secret storage, the command line reads LPREQ_TOKEN, and lpreq sends it for you: the Authorization line can go.',
            'A header that must stay can read {{$processEnv LPREQ_TOKEN}}.',
          ],
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
      verdict: isSystemVariable(expression)
        ? undefined
        : fit(`${shownVariable(expression)} is not a known system variable`, 'not a known system variable'),
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

/** `{{expression}}` as a message shows it: a long one cut. */
function shownVariable(expression: string): string {
  return `{{${expression.length > 40 ? `${expression.slice(0, 39)}…` : expression}}}`;
}

/** Why `{{expression}}` does not resolve in the scope, or undefined when it does. */
function resolutionOf(expression: string, scope: VariableScope): { message: string; related?: string[] } | undefined {
  const kind = kindOf(expression);
  if (kind.kind === 'system') return kind.verdict === undefined ? undefined : { message: kind.verdict };
  if (kind.kind === 'request') {
    return scopeHasRequest(scope, kind.name)
      ? undefined
      : {
          message: fit(
            `no request above this one is named ${kind.name}: add # @name ${kind.name} to an earlier request`,
            'no request above this one has that name: name an earlier request',
          ),
          related: ['A request can only use the response of an earlier one.'],
        };
  }
  // REST Client's `{{%name}}`: the value of `name`, percent-encoded.
  const name = expression.charCodeAt(0) === 37 && expression.length > 1 ? expression.slice(1) : expression;
  if (scopeHasValue(scope, name)) return undefined;
  if (scope.scriptNames?.has(name)) return undefined;
  const subject = shownVariable(expression);
  const encoded = name !== expression ? [`${subject} is the value of ${name}, percent-encoded.`] : [];
  // Defined in another environment: the choice of environment is what is wrong, not the file.
  const others = scope.otherEnvironments;
  const elsewhere = others?.definedIn.get(name);
  if (others && elsewhere)
    return {
      message: fit(
        `${subject} is not in environment '${others.selected}': it is defined in ${elsewhere.join(', ')}`,
        `not in environment '${others.selected}': it is defined in ${elsewhere.join(', ')}`,
        `not in environment '${others.selected}': choose another or add it there`,
      ),
      related: encoded,
    };
  return {
    message: fit(
      `${subject} is defined nowhere: define @${name} in the file or add it to an environment`,
      `${subject} is defined nowhere: define it in the file or an environment`,
      'this variable is defined nowhere: define it in the file or an environment',
    ),
    related: [
      ...encoded,
      `Not a file variable (@${name} = ...), not in http-client.env.json or http-client.private.env.json.`,
    ],
  };
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
        fit(
          `${m.value.text ? `${quote(m.value.text, 30)} is not a duration` : `# @${key} needs a duration`}: write seconds, or 500 ms, 2 s, 1 m`,
          `# @${key} takes a duration: write seconds, or 500 ms, 2 s, 1 m`,
        ),
        start,
        end,
        undefined,
        [`# @${key} takes a duration of up to a day: seconds, or a number with ms, s or m (90, 500 ms, 2 m).`],
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
