/**
 * Shared helpers of the language services: finding the block at an offset, the line
 * and region of the cursor inside a block, the variable scope of a document kept up to
 * date cheaply across edits, and the environment as the editor sees it (with secrets).
 */
import type { Checker, Environments, GrantedScopes, OtherEnvironments, VariableScope } from './checker';
import { documentScope } from './checker';
import { requestName, type Block, type BlockRef, type LpreqDocument } from './parser';
import { own } from './own';

/** The environment files as the editor knows them: values, and which names are secret. */
export interface EnvironmentInfo extends Environments {
  /** Variables that come from the private env file, by environment. */
  privateNames?: Record<string, Set<string>>;
  /** Paths of the files, for hovers (`http-client.env.json`). */
  sharedFile?: string;
  privateFile?: string;
  /** Where each environment's `$scopes` is written, for the quick fix that adds a scope there. */
  scopeSites?: Record<string, ScopeSite>;
}

/** Where an environment's `$scopes` list is written. */
export interface ScopeSite {
  /** The environment file that declares it. */
  file: string;
  /** The environment of that file it stands in (`$shared` when every environment takes it from there). */
  environment: string;
  /** When `$scopes` names a file (`"$scopes": "scopes.json"`): that file, whose JSON array is the list. */
  listFile?: string;
}

/** What every language service is given besides the document. */
export interface ServiceContext {
  checker: Checker;
  scope: VariableScope;
  env?: EnvironmentInfo;
}

/** Index of the block that contains `offset` (binary search over block starts). */
export function blockIndexAt(doc: LpreqDocument, offset: number): number {
  const blocks = doc.blocks;
  let lo = 0;
  let hi = blocks.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (blocks[mid].start <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

export function blockAt(doc: LpreqDocument, offset: number): BlockRef | undefined {
  if (doc.blocks.length === 0) return undefined;
  return doc.blocks[blockIndexAt(doc, offset)];
}

/** Where a line of a block stands: before the request, on it, in the query, headers or body, or an assertion after it. */
export type Region =
  'preamble' | 'separator' | 'request' | 'path' | 'query' | 'headers' | 'body' | 'json' | 'assertion';

export interface LineAt {
  /** Offsets relative to the block. */
  start: number;
  end: number;
  text: string;
  region: Region;
}

/** The line that contains block-relative `offset`, and the region it belongs to. */
export function lineAt(block: Block, offset: number): LineAt {
  const text = block.text;
  const at = Math.max(0, Math.min(offset, text.length));
  const start = text.lastIndexOf('\n', at - 1) + 1;
  let end = text.indexOf('\n', at);
  if (end === -1) end = text.length;
  if (end > start && text.charCodeAt(end - 1) === 13) end--;
  const line = text.slice(start, end);
  return { start, end, text: line, region: regionOf(block, start) };
}

function regionOf(block: Block, lineStart: number): Region {
  if (block.separator && lineStart <= block.separator.start) return 'separator';
  const request = block.request;
  if (!request) return 'preamble';
  const requestLine = lineStartOf(block.text, request.start);
  if (lineStart < requestLine) return 'preamble';
  if (lineStart === requestLine) return 'request';
  // An assertion line after the request line, wherever it stands (section 6): never a query, header, parameter or JSON line.
  if (isAssertionAt(block.text, lineStart)) return 'assertion';
  if (request.pathLines?.some((p) => lineStartOf(block.text, p.start) === lineStart)) return 'path';
  if (block.queryLines.some((q) => q.start === lineStart)) return 'query';
  if (block.bodyStart === undefined || lineStart <= block.bodyStart) return 'headers';
  if (block.jsonBody && lineStart >= lineStartOf(block.text, block.jsonBody.start)) return 'json';
  return 'body';
}

function isAssertionAt(text: string, lineStart: number): boolean {
  let i = lineStart;
  while (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9) i++;
  return text.charCodeAt(i) === 63 && text.charCodeAt(i + 1) === 63;
}

function lineStartOf(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** 0-based line number of an offset (counts line breaks; for messages and hovers). */
export function lineNumberOf(text: string, offset: number): number {
  let n = 0;
  let i = text.indexOf('\n');
  while (i !== -1 && i < offset) {
    n++;
    i = text.indexOf('\n', i + 1);
  }
  return n;
}

/** Names that hold secrets whatever file defines them (variables, and prompt variables whose answers are masked). */
export const SECRET_NAME = /token|secret|pass(word|wd|phrase)?|pwd|\bpin\b|api[_-]?key|credential/i;

/** True when the value of this variable must never be shown. */
export function isSecretVariable(name: string, env: EnvironmentInfo | undefined): boolean {
  if (SECRET_NAME.test(name)) return true;
  const priv = env?.privateNames;
  if (!priv) return false;
  if (env.selected !== undefined) return own(priv, env.selected)?.has(name) === true;
  return Object.values(priv).some((names) => names.has(name));
}

/** Where an environment variable comes from, for hovers: the environment name and file. */
export function environmentSource(
  name: string,
  env: EnvironmentInfo | undefined,
): { environment: string; file?: string; value: string } | undefined {
  if (!env) return undefined;
  const names = env.selected !== undefined ? [env.selected] : Object.keys(env.environments);
  for (const e of names) {
    const vars = own(env.environments, e);
    const value = own(vars, name);
    if (value !== undefined) {
      const isPrivate = own(env.privateNames, e)?.has(name) === true;
      return { environment: e, file: isPrivate ? env.privateFile : env.sharedFile, value: String(value) };
    }
  }
  return undefined;
}

/**
 * Keeps the variable scope of a document across edits. Recomputing the scope walks every
 * block; after a typical keystroke no block that defines a variable or a request name
 * changed, so the previous scope is kept and its key stays the same. The key lets caches
 * of per-block results know whether the scope they were computed in is still current.
 */
export class ScopeTracker {
  private scope: VariableScope | undefined;
  private envKey = '';
  private generation = 0;

  /**
   * The scope of `doc` and a key that changes whenever the scope does. With `change`
   * (the blocks an edit removed and added), the scope is recomputed only when one of
   * them defines a variable or a request name.
   */
  update(
    doc: LpreqDocument,
    env: Environments | undefined,
    change?: { removed: Block[]; added: Block[] },
  ): { scope: VariableScope; key: number } {
    const envKey = environmentKey(env);
    const unchanged =
      this.scope !== undefined &&
      envKey === this.envKey &&
      change !== undefined &&
      !change.removed.some(affectsScope) &&
      !change.added.some(affectsScope);
    if (!unchanged || !this.scope) {
      const next = documentScope(doc, env);
      if (!this.scope || !sameScope(this.scope, next)) this.generation++;
      this.scope = next;
      this.envKey = envKey;
    }
    return { scope: this.scope, key: this.generation };
  }
}

function sameScope(a: VariableScope, b: VariableScope): boolean {
  if (a.values.size !== b.values.size || a.requestNames.size !== b.requestNames.size) return false;
  for (const [k, v] of a.values) if (b.values.get(k) !== v) return false;
  // In document order: which requests come before a block depends on it.
  const names = [...b.requestNames];
  let i = 0;
  for (const n of a.requestNames) if (names[i++] !== n) return false;
  if ((a.scriptNames?.size ?? 0) !== (b.scriptNames?.size ?? 0)) return false;
  // Where other environments define a name is in the messages of unresolved variables.
  if (!sameOthers(a.otherEnvironments, b.otherEnvironments)) return false;
  if (!sameGranted(a.granted, b.granted)) return false;
  for (const n of a.scriptNames ?? []) if (!b.scriptNames?.has(n)) return false;
  return true;
}

function sameOthers(a: OtherEnvironments | undefined, b: OtherEnvironments | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.selected !== b.selected || a.definedIn.size !== b.definedIn.size) return false;
  for (const [k, v] of a.definedIn) if (b.definedIn.get(k)?.join('\n') !== v.join('\n')) return false;
  return true;
}

function sameGranted(a: GrantedScopes | undefined, b: GrantedScopes | undefined): boolean {
  if (a === undefined || b === undefined) return a === b;
  if (a.scopes.size !== b.scopes.size || a.environments.join('\n') !== b.environments.join('\n')) return false;
  for (const s of a.scopes) if (!b.scopes.has(s)) return false;
  return true;
}

function affectsScope(block: Block): boolean {
  return block.variables.length > 0 || requestName(block) !== undefined || block.scriptSets.length > 0;
}

function environmentKey(env: Environments | undefined): string {
  if (!env) return '';
  return JSON.stringify([env.selected ?? null, env.environments, env.scopes ?? null]);
}
