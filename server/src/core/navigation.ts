/**
 * Navigation: go to definition, find references and rename, for file variables
 * (`@name` and `{{name}}`), prompt variables (`# @prompt name`, whose scope is their own
 * request) and named requests (`# @name req` and `{{req.response...}}`).
 */
import { blockAt } from './documentIndex';
import { findVariableReferences, promptVariables, requestName, type Block, type LpreqDocument } from './parser';
import { parseRequestReference } from './variables';
import type { TextEdit } from './codeActions';

export interface NavigationSymbol {
  kind: 'variable' | 'request';
  name: string;
  /** Absolute offsets of the name under the cursor. */
  start: number;
  end: number;
  /**
   * A prompt variable: the start of the block that asks for it. Its definition is that
   * block's `# @prompt` line and its uses are that block's only (it wins there over a file
   * or environment variable of the same name, as when sending).
   */
  promptBlock?: number;
}

export interface Location {
  start: number;
  end: number;
}

/** The variable or request name at an offset, if any. */
export function symbolAt(doc: LpreqDocument, offset: number): NavigationSymbol | undefined {
  const ref = blockAt(doc, offset);
  if (!ref) return undefined;
  const block = ref.block;
  const rel = offset - ref.start;
  for (const v of block.variables) {
    if (rel >= v.name.start && rel <= v.name.end)
      return { kind: 'variable', name: v.name.text, start: ref.start + v.name.start, end: ref.start + v.name.end };
  }
  for (const m of block.metadata) {
    if (m.key.text === 'name' && rel >= m.value.start && rel <= m.value.end && m.value.text) {
      return { kind: 'request', name: m.value.text, start: ref.start + m.value.start, end: ref.start + m.value.end };
    }
  }
  const prompts = block.metadata.length > 0 ? promptVariables(block) : [];
  for (const p of prompts) {
    if (rel >= p.start && rel <= p.end)
      return {
        kind: 'variable',
        name: p.name,
        start: ref.start + p.start,
        end: ref.start + p.end,
        promptBlock: ref.start,
      };
  }
  const lineStart = block.text.lastIndexOf('\n', rel - 1) + 1;
  let lineEnd = block.text.indexOf('\n', rel);
  if (lineEnd === -1) lineEnd = block.text.length;
  const line = block.text.slice(lineStart, lineEnd);
  for (const r of findVariableReferences(line, lineStart)) {
    if (rel < r.start || rel > r.end) continue;
    const inner = innerName(block.text, r.start, r.end);
    if (r.expression.startsWith('$')) return undefined;
    const req = parseRequestReference(r.expression);
    if (req)
      return {
        kind: 'request',
        name: req.name,
        start: ref.start + inner.start,
        end: ref.start + inner.start + req.name.length,
      };
    // `{{%name}}` (REST Client: the value percent-encoded) is a use of `name`.
    const skip = r.expression.startsWith('%') ? 1 : 0;
    const name = r.expression.slice(skip);
    const symbol: NavigationSymbol = {
      kind: 'variable',
      name,
      start: ref.start + inner.start + skip,
      end: ref.start + inner.end,
    };
    if (prompts.some((p) => p.name === name)) symbol.promptBlock = ref.start;
    return symbol;
  }
  return undefined;
}

/** The trimmed inside of `{{ ... }}` standing at [start, end). */
function innerName(text: string, start: number, end: number): { start: number; end: number } {
  let s = start + 2;
  let e = end - 2;
  while (s < e && /\s/.test(text[s])) s++;
  while (e > s && /\s/.test(text[e - 1])) e--;
  return { start: s, end: e };
}

/** The block a prompt variable belongs to. */
function promptScope(doc: LpreqDocument, symbol: NavigationSymbol): { start: number; block: Block } | undefined {
  return symbol.promptBlock === undefined ? undefined : doc.blocks.find((b) => b.start === symbol.promptBlock);
}

export function definitions(doc: LpreqDocument, symbol: NavigationSymbol): Location[] {
  const out: Location[] = [];
  const scope = promptScope(doc, symbol);
  if (scope) {
    for (const p of promptVariables(scope.block))
      if (p.name === symbol.name) out.push({ start: scope.start + p.start, end: scope.start + p.end });
    return out;
  }
  for (const { start, block } of doc.blocks) {
    if (symbol.kind === 'variable') {
      for (const v of block.variables)
        if (v.name.text === symbol.name) out.push({ start: start + v.name.start, end: start + v.name.end });
    } else if (requestName(block) === symbol.name) {
      const m = block.metadata.find((x) => x.key.text === 'name');
      if (m) out.push({ start: start + m.value.start, end: start + m.value.end });
    }
  }
  return out;
}

/** Every use of the symbol (`{{name}}`, `{{req.response...}}`), optionally with its definitions. */
export function references(doc: LpreqDocument, symbol: NavigationSymbol, includeDeclaration: boolean): Location[] {
  const out: Location[] = includeDeclaration ? definitions(doc, symbol) : [];
  const scope = promptScope(doc, symbol);
  for (const { start, block } of scope ? [scope] : doc.blocks) {
    if (!block.text.includes('{{')) continue;
    // A prompt of the same name hides the file's variable in its request, except in the
    // values of variables defined there, which later requests read too.
    const hidden = !scope && symbol.kind === 'variable' && prompts(block, symbol.name);
    for (const r of findVariableReferences(block.text, 0)) {
      const inner = innerName(block.text, r.start, r.end);
      if (symbol.kind === 'variable' && (r.expression === symbol.name || r.expression === `%${symbol.name}`)) {
        if (hidden && !inVariableValue(block, r.start)) continue;
        const skip = r.expression === symbol.name ? 0 : 1;
        out.push({ start: start + inner.start + skip, end: start + inner.end });
      } else if (symbol.kind === 'request') {
        const req = parseRequestReference(r.expression);
        if (req?.name === symbol.name)
          out.push({ start: start + inner.start, end: start + inner.start + req.name.length });
      }
    }
  }
  return out.sort((a, b) => a.start - b.start);
}

/** Whether the block asks for `name` with `# @prompt`. */
function prompts(block: Block, name: string): boolean {
  return block.metadata.length > 0 && promptVariables(block).some((p) => p.name === name);
}

/** Whether a block-relative offset stands in the value of a variable the block defines (`@y = ...{{x}}`). */
function inVariableValue(block: Block, offset: number): boolean {
  return block.variables.some((v) => offset >= v.value.start && offset < v.value.end);
}

/** Whether the block uses `{{name}}` (or `{{%name}}`) anywhere. */
function uses(block: Block, name: string): boolean {
  return (
    block.text.includes('{{') &&
    findVariableReferences(block.text, 0).some((r) => r.expression === name || r.expression === `%${name}`)
  );
}

/**
 * A `{{name}}` in the value of a variable defined in a request that prompts `name`: that
 * request reads it as its prompt, later requests as the file's variable. No rename can
 * keep both meanings.
 */
function ambiguousUse(doc: LpreqDocument, name: string): boolean {
  return doc.blocks.some(
    ({ block }) =>
      prompts(block, name) &&
      findVariableReferences(block.text, 0).some(
        (r) => (r.expression === name || r.expression === `%${name}`) && inVariableValue(block, r.start),
      ),
  );
}

function isValidName(kind: NavigationSymbol['kind'], name: string): boolean {
  return kind === 'variable' ? /^[A-Za-z_][\w.-]*$/.test(name) : /^[A-Za-z_][\w-]*$/.test(name);
}

/**
 * Why a symbol cannot be renamed at all: a variable defined only in an environment file
 * (renaming its uses alone would leave them undefined). Undefined when it can be.
 */
export function renameBlocker(doc: LpreqDocument, symbol: NavigationSymbol): string | undefined {
  if (definitions(doc, symbol).length > 0) return undefined;
  return symbol.kind === 'variable'
    ? `${symbol.name} is not defined in this file (it comes from an environment file, or nowhere): rename it where it is defined`
    : `no request in this file is named ${symbol.name}`;
}

/** The edits of a rename, or why it cannot be done; `taken` are names defined elsewhere (environments). */
export function rename(
  doc: LpreqDocument,
  symbol: NavigationSymbol,
  newName: string,
  taken: Iterable<string> = [],
): TextEdit[] | { error: string } {
  if (!isValidName(symbol.kind, newName))
    return { error: `'${newName}' is not a valid ${symbol.kind === 'variable' ? 'variable' : 'request'} name` };
  const blocker = renameBlocker(doc, symbol);
  if (blocker) return { error: blocker };
  if (symbol.kind === 'variable' && ambiguousUse(doc, symbol.name)) {
    return {
      error: `{{${symbol.name}}} stands in the value of a variable defined in a request that prompts ${symbol.name}: there it is the prompt, in later requests the file variable; rename it by hand`,
    };
  }
  if (newName !== symbol.name) {
    const scope = promptScope(doc, symbol);
    // A prompt renamed to a name its request already uses would take that use over.
    const clash = scope
      ? prompts(scope.block, newName) || uses(scope.block, newName)
      : symbol.kind === 'variable'
        ? doc.blocks.some(
            (b) =>
              b.block.variables.some((v) => v.name.text === newName) ||
              (b.block.metadata.length > 0 && promptVariables(b.block).some((p) => p.name === newName)),
          ) || [...taken].includes(newName)
        : doc.blocks.some((b) => requestName(b.block) === newName);
    // Two definitions of one name would silently change what the requests send.
    if (clash)
      return {
        error: `${newName} is already defined or used${scope ? ' in this request' : ''}: renaming ${symbol.name} to it would merge the two`,
      };
  }
  return references(doc, symbol, true).map((l) => ({ start: l.start, end: l.end, newText: newName }));
}
