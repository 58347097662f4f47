/** What callers read out of a parsed block: variable references, prompts, metadata, the target as sent, the request's name. */
import type { Block, RequestLine } from './tree';
import { add, NONE } from './scan';

/** A `{{...}}` reference in some text. */
export interface VariableReference {
  /** The inside, trimmed: `base_url`, `$guid`, `createModule.response.body.$.id`. */
  expression: string;
  /** Offsets of `{{` and just after `}}`, relative to the same origin as the text given. */
  start: number;
  end: number;
}

/** Finds `{{...}}` references in `text`, whose first character stands at `offset`. */
export function findVariableReferences(text: string, offset: number): VariableReference[] {
  const refs: VariableReference[] = [];
  let i = text.indexOf('{{');
  while (i !== -1) {
    const close = text.indexOf('}}', i + 2);
    if (close === -1) break;
    refs.push({ expression: text.slice(i + 2, close).trim(), start: offset + i, end: offset + close + 2 });
    i = text.indexOf('{{', close + 2);
  }
  return refs;
}

/** A REST Client prompt variable: `# @prompt name [description]` above a request. */
export interface PromptVariable {
  name: string;
  /** The words after the name: what to ask; empty when there are none. */
  description: string;
  /** Offsets of the name in the block (`# @prompt |name| ...`). */
  start: number;
  end: number;
}

const PROMPT = /^([A-Za-z_][\w.-]*)(?:\s+(.*))?$/;

/** The variables a block asks for when it is sent (`# @prompt name description`), in order. */
export function promptVariables(block: Block): PromptVariable[] {
  let out: PromptVariable[] = NONE;
  for (const m of block.metadata) {
    if (m.key.text !== 'prompt') continue;
    const p = PROMPT.exec(m.value.text);
    if (p)
      out = add(out, {
        name: p[1],
        description: (p[2] ?? '').trim(),
        start: m.value.start,
        end: m.value.start + p[1].length,
      });
  }
  return out;
}

/**
 * The value of a block's `# @key value` metadata: '' for a key written without a value
 * (`# @no-redirect`), undefined when the block does not have it.
 */
export function metadataValue(block: Block, key: string): string | undefined {
  for (const m of block.metadata) if (m.key.text === key) return m.value.text;
  return undefined;
}

/** The request's target as sent: the request line's, with JetBrains' indented path lines (`    /items`) joined to it. */
export function requestTarget(request: RequestLine): string {
  const lines = request.pathLines;
  if (!lines || lines.length === 0) return request.target.text;
  let target = request.target.text;
  for (const line of lines) target += line.text;
  return target;
}

/** The block offset of character `index` of requestTarget(request): on the request line or on one of its path lines. */
export function targetOffset(request: RequestLine, index: number): number {
  let from = 0;
  for (const token of [request.target, ...(request.pathLines ?? [])]) {
    if (index < from + token.text.length) return token.start + index - from;
    from += token.text.length;
  }
  const lines = request.pathLines;
  return lines && lines.length > 0 ? lines[lines.length - 1].end : request.target.end;
}

/** The `@name` metadata of a block, if any. */
export function requestName(block: Block): string | undefined {
  for (let i = 0; i < block.metadata.length; i++) {
    const m = block.metadata[i];
    if (m.key.text === 'name') return m.value.text.length > 0 ? m.value.text : undefined;
  }
  return undefined;
}
