/**
 * What the client sends, checked before anything reads it: a line and a character are
 * integers from 0 (one past the end is clamped, as TextDocument does), a change has text and
 * a range of two such positions. A request with a malformed position gets its empty answer
 * (MalformedParams, which the guard logs); a malformed change is refused whole.
 */
import type { Position, Range } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';

/** A line or a character as the protocol defines them: an integer from 0 (one past the end is clamped, as TextDocument does). */
function isIndex(n: unknown): n is number {
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;
}

function isPosition(p: unknown): p is Position {
  return (
    typeof p === 'object' &&
    p !== null &&
    isIndex((p as { line?: unknown }).line) &&
    isIndex((p as { character?: unknown }).character)
  );
}

function isRange(r: unknown): r is Range {
  return (
    typeof r === 'object' &&
    r !== null &&
    isPosition((r as { start?: unknown }).start) &&
    isPosition((r as { end?: unknown }).end)
  );
}

/** Params a client should not have sent (a position that is not two integers from 0): the request gets its empty answer, and the log a line. */
export class MalformedParams extends Error {}

/** The offset of a position a request gives; a malformed one is refused (MalformedParams), never read as some other place. */
export function offsetOf(document: TextDocument, position: unknown): number {
  if (!isPosition(position))
    throw new MalformedParams(
      `a position must be a line and a character, integers from 0; got ${JSON.stringify(position)}`,
    );
  return document.offsetAt(position);
}

/** Why a didChange cannot be applied, or undefined when every change in it can. */
export function malformedChange(changes: unknown): string | undefined {
  if (!Array.isArray(changes)) return 'its contentChanges is not a list';
  for (const change of changes) {
    if (typeof change !== 'object' || change === null) return 'a change is not an object';
    const { text, range } = change as { text?: unknown; range?: unknown };
    // A change without text would write "undefined" into the document.
    if (typeof text !== 'string') return 'a change has no text';
    if (range !== undefined && !isRange(range))
      return `a change's range is not two positions of integers from 0 (${JSON.stringify(range)})`;
  }
  return undefined;
}
