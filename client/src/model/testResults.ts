/**
 * The Test Explorer's logic without VS Code: which tests a request file holds (each request,
 * as `lpreq test` counts them, and its assertions under it, each with the line it stands on and an id that
 * survives edits elsewhere in the file), and how a result of the sender's runner becomes the
 * state and messages of those tests. The runner is the one `lpreq test` uses; this only maps
 * what it reports. Lines here are 0-based, as the editor counts them.
 */
import { assertionsOf, lineOfOffset, lineStarts, type LpreqDocument } from '../../../server/src/core/index';
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
 * The tests of a document: every request, as the runner names them (`testsOf`) and as
 * `lpreq test` runs and counts them (one without assertions passes on a 2xx). A name used
 * twice in a file gets `#2`, `#3` after it, so ids stay unique.
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
    if (!block.request) continue;
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
  const message: OutcomeMessage = { text: `${a.text}: ${a.message}`, line };
  // A diff only for ==: the editor writes a diff as `actual != expected`, which would misstate any other operator.
  if (a.expected !== undefined && a.operator === '==') {
    message.expected = a.expected;
    message.actual = actualText(a);
  }
  return { state: 'failed', messages: [message] };
}

/** The outcome of a request: passed, failed (an assertion or the status), errored (not sent, no answer). */
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
        messages: request.assertions.filter((a) => !a.passed).map((a) => assertionOutcome(request, a).messages[0]),
      };
    case 'status':
      return { state: 'failed', durationMs, messages: [{ text: failure.message, line }] };
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

/**
 * Paths below a workspace folder in the order `lpreq test <folder>` walks them (each folder's
 * entries sorted by name, files and folders alike): segment by segment.
 */
function compareParts(a: readonly string[], b: readonly string[]): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] !== b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return a.length - b.length;
}

/** A file a Testing view run asks for: where it stands, and the ids of its tests asked for (none: the whole file). */
export interface WantedFile<T> {
  file: T;
  /** The index of its workspace folder (files outside any come last). */
  folder: number;
  /** Its path below that folder, by segment. */
  parts: readonly string[];
  ids?: ReadonlySet<string>;
}

/**
 * What a Testing view run runs, as `lpreq test` runs the same files: the files in the order it
 * walks them, and of each file every request when the file runs whole (`blocks` undefined: a
 * request without assertions changes the state the next ones read, as the item added before
 * "Rename and publish the new module" counts in its `items_count`), or only the requests asked
 * for (one test run on its own).
 */
export function runPlan<T>(
  wanted: readonly WantedFile<T>[],
  requestsOf: (file: T) => readonly TestRequest[],
): { file: T; requests: TestRequest[]; blocks?: Set<number> }[] {
  return [...wanted]
    .sort((a, b) => a.folder - b.folder || compareParts(a.parts, b.parts))
    .flatMap((w) => {
      const requests = requestsOf(w.file).filter((r) => w.ids === undefined || w.ids.has(r.id));
      if (requests.length === 0) return [];
      return [
        {
          file: w.file,
          requests,
          ...(w.ids === undefined ? {} : { blocks: new Set(requests.map((r) => r.blockIndex)) }),
        },
      ];
    });
}
