/**
 * The Test Explorer's logic without VS Code: which tests a request file holds (each request
 * with assertions, and its assertions under it, each with the line it stands on and an id that
 * survives edits elsewhere in the file), and how a result of the sender's runner becomes the
 * state and messages of those tests. The runner is the one `lpreq test` uses; this only maps
 * what it reports. Lines here are 0-based, as the editor counts them.
 */
import {
  assertionsOf,
  lineOfOffset,
  lineStarts,
  SNAPSHOT_KEY,
  type LpreqDocument,
} from '../../../server/src/core/index';
import type { AssertionResult, RequestResult } from '../../../server/src/sender/index';

export interface TestAssertion {
  id: string;
  /** The assertion line as written, trimmed. */
  label: string;
  line: number;
}

export interface TestRequest {
  /** Stable while the request keeps its name (its title, `@name` or request line): an edit above it does not change it. */
  id: string;
  label: string;
  blockIndex: number;
  /** The request line, and the last line of the request's block. */
  line: number;
  endLine: number;
  assertions: TestAssertion[];
}

/**
 * The tests of a document: its requests that have assertions, as the runner names them
 * (`testsOf`). A name used twice in a file gets `#2`, `#3` after it, so ids stay unique.
 */
export function testRequests(
  document: LpreqDocument,
  named: readonly { name: string; blockIndex: number }[],
): TestRequest[] {
  const starts = lineStarts(document.text);
  const seen = new Map<string, number>();
  const out: TestRequest[] = [];
  for (const { name, blockIndex } of named) {
    const { start, block } = document.blocks[blockIndex];
    // A request with a snapshot is a test too: its snapshot is what it asserts.
    if (
      !block.request ||
      (block.assertionLines.length === 0 && !block.metadata.some((m) => m.key.text === SNAPSHOT_KEY))
    )
      continue;
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    const id = count === 1 ? name : `${name} #${count}`;
    const end = start + Math.max(0, block.text.replace(/\s+$/, '').length - 1);
    out.push({
      id,
      label: name,
      blockIndex,
      line: lineOfOffset(starts, start + block.request.start),
      endLine: lineOfOffset(starts, Math.max(start, end)),
      assertions: assertionsOf(block).map((a, k) => {
        const span = a.assertion ?? a.problem;
        return {
          id: `${id}/${k}`,
          label: block.text.slice(span.start, span.end).trim(),
          line: lineOfOffset(starts, start + span.start),
        };
      }),
    });
  }
  return out;
}

/** A message of a test, at a line of its file; `expected` and `actual` make it a diff. */
export interface OutcomeMessage {
  text: string;
  line: number;
  expected?: string;
  actual?: string;
}

export interface Outcome {
  state: 'passed' | 'failed' | 'errored' | 'skipped';
  messages: OutcomeMessage[];
  durationMs?: number;
}

/** How a value the runner found reads in a diff: the JSON text, or that nothing was found. */
function actualText(a: AssertionResult): string {
  return a.actual ?? '(nothing)';
}

/** The outcome of one assertion of a request the runner reported. */
export function assertionOutcome(request: RequestResult, a: AssertionResult): Outcome {
  if (request.skipped) return { state: 'skipped', messages: [] };
  if (a.passed) return { state: 'passed', messages: [] };
  const line = a.line - 1;
  // Not evaluated (the request was not sent or got no answer): the request's message says why.
  if (!request.sent || request.status === null) return { state: 'errored', messages: [{ text: a.message, line }] };
  const detail = a.actual === null ? a.message : `${a.message}; actual: ${a.actual}`;
  const message: OutcomeMessage = { text: `${a.text}: ${detail}`, line };
  // A diff only where there is something to compare: an operator with EXPECTED.
  if (a.expected !== undefined) {
    message.expected = a.expected;
    message.actual = actualText(a);
  }
  return { state: 'failed', messages: [message] };
}

/**
 * The messages of a failed snapshot, at the request's line: what failed, then each difference
 * by its JSONPath, as a diff of the snapshot's value and the response's where both have one.
 */
function snapshotMessages(request: RequestResult): OutcomeMessage[] {
  const s = request.snapshot;
  if (s?.outcome !== 'failed') return [];
  const line = request.line - 1;
  const out: OutcomeMessage[] = [{ text: `@snapshot: ${s.message}`, line }];
  for (const d of s.differences) {
    const m: OutcomeMessage = { text: `@snapshot ${d.path}: ${d.kind}: ${d.message}`, line };
    if (d.before !== undefined && d.after !== undefined) {
      m.expected = d.before;
      m.actual = d.after;
    }
    out.push(m);
  }
  if (s.more > 0) out.push({ text: `@snapshot: and ${s.more} more differences`, line });
  return out;
}

/** The outcome of a request: passed, failed (an assertion, the status or its snapshot), errored (not sent, no answer). */
export function requestOutcome(request: RequestResult): Outcome {
  const line = request.line - 1;
  const durationMs = request.sent ? request.durationMs : undefined;
  if (request.skipped) return { state: 'skipped', messages: [] };
  if (request.passed) return { state: 'passed', messages: [], durationMs };
  const failure = request.failure ?? { kind: 'exchange', message: 'failed' };
  switch (failure.kind) {
    case 'assertion':
      return {
        state: 'failed',
        durationMs,
        messages: [
          ...request.assertions.filter((a) => !a.passed).map((a) => assertionOutcome(request, a).messages[0]),
          ...snapshotMessages(request),
        ],
      };
    case 'snapshot':
      return { state: 'failed', durationMs, messages: snapshotMessages(request) };
    case 'status':
      return { state: 'failed', durationMs, messages: [{ text: failure.message, line }, ...snapshotMessages(request)] };
    case 'invalid':
      // The checker's errors, each where it stands; the sentence first, at the request line.
      return {
        state: 'errored',
        messages: [
          { text: failure.message, line },
          ...request.diagnostics.map((d) => ({ text: `${d.code}: ${d.message}`, line: d.line - 1 })),
        ],
      };
    default:
      return { state: 'errored', durationMs, messages: [{ text: failure.message, line }] };
  }
}
