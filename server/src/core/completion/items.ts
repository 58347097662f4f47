/**
 * What every completion context writes: the entry, its options, snippet escaping, the sort
 * order and the endpoint a block is matched to.
 */
import type { Endpoint } from '../catalog/catalog';
import type { ServiceContext } from '../documentIndex';
import type { Block } from '../parser';

export type CompletionKind =
  | 'method'
  | 'path'
  | 'segment'
  | 'parameter'
  | 'value'
  | 'variable'
  | 'header'
  | 'reference'
  | 'metadata'
  | 'operator'
  | 'template';

export interface CompletionEntry {
  label: string;
  kind: CompletionKind;
  detail?: string;
  /** Markdown. */
  documentation?: string;
  insertText: string;
  /** `insertText` is a snippet (`${1:course_id}` tab stops). */
  snippet: boolean;
  /**
   * What a client without snippets inserts, where it is not the snippet with each tab stop
   * at its default: a body's lines indented with spaces instead of the editor's unit (`\t`).
   */
  plain?: string;
  /** Absolute offsets of the replaced text. */
  start: number;
  end: number;
  sortText: string;
  filterText?: string;
  deprecated?: boolean;
  /** Ask the editor for completions again after inserting (a value follows). */
  retrigger?: boolean;
}

export interface CompletionOptions {
  /** The current time, for date templates (tests pass a fixed one). */
  now?: Date;
  /**
   * The character whose typing asked for completion (LSP's triggerCharacter); absent when the
   * user asked (Ctrl+Space) or typed a word. A `{` that does not make `{{` and a bracket or
   * space typed in a JSON body open nothing: the next Enter is a new line there.
   */
  triggerCharacter?: string;
}

/** Escapes literal text for a snippet. */
export function snippetText(text: string): string {
  return text.replace(/[\\$}]/g, '\\$&');
}

export function choiceText(text: string): string {
  return text.replace(/[\\$}|,]/g, '\\$&');
}

export const rank = (group: number, index: number) => `${group}${String(index).padStart(5, '0')}`;

export function wordEnd(text: string, col: number): number {
  let e = col;
  while (e < text.length && /[\w[\]{}.$-]/.test(text[e])) e++;
  return e;
}

export function matchedEndpoint(ctx: ServiceContext, block: Block): Endpoint | undefined {
  const match = ctx.checker.matchBlock(block, ctx.scope);
  return match?.kind === 'matched' ? match.endpoint : undefined;
}
