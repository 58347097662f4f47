/**
 * One entry to the language services, in the manner of vscode-json-languageservice's
 * `getLanguageService`: `createLanguageService(catalog)` gives every feature an editor asks
 * for over a parsed document, as plain objects with offsets. A host keeps the documents
 * (their text, versions and environment), calls these, and turns offsets into its own
 * positions; nothing here knows LSP, a file or a clock.
 */
import type { Catalog, Endpoint } from './catalog/catalog';
import {
  Checker,
  documentScope,
  shiftDiagnostic,
  type Diagnostic,
  type Environments,
  type VariableScope,
} from './checker';
import { codeActions, type CodeAction, type TextEdit } from './codeActions';
import { complete, type CompletionEntry, type CompletionOptions } from './completion';
import { blockAt, type EnvironmentInfo, type ServiceContext } from './documentIndex';
import { formatDocument } from './formatting';
import { hover, type HoverResult } from './hover';
import { reparseEdit, type Reparse, type TextSource } from './incremental';
import {
  definitions,
  references,
  rename,
  renameBlocker,
  symbolAt,
  type Location,
  type NavigationSymbol,
} from './navigation';
import { parseDocument, type Block, type LpreqDocument } from './parser';
import { blockSemanticTokens, fileVariableNames, type SemanticToken } from './semanticTokens';
import { selectionRanges } from './selectionRanges';
import { documentSymbols, foldingRanges, type RequestSymbol } from './symbols';

// The result types of the features: what a host converts (core/index.ts exports this file whole).
export type { CompletionEntry, CompletionKind, CompletionOptions } from './completion';
export type { HoverResult } from './hover';
export type { CodeAction, TextEdit } from './codeActions';
export type { NavigationSymbol, Location } from './navigation';
export type { RequestSymbol } from './symbols';
export type { Reparse, TextSource } from './incremental';
export type { SemanticToken } from './semanticTokens';

/** A parsed document with what its services read besides the text. */
export interface ServiceDocument {
  readonly parsed: LpreqDocument;
  /** Its variables and request names: `scope(parsed, env)`, or a ScopeTracker's across edits. */
  readonly scope: VariableScope;
  /** The environment files as the editor knows them (values, which names are private). */
  readonly env?: EnvironmentInfo;
}

/** A use of the name under the cursor; its definitions are writes. */
export interface Highlight extends Location {
  kind: 'read' | 'write';
}

export interface LanguageService {
  readonly catalog: Catalog;
  readonly checker: Checker;
  /** Parses a text; the unchanged blocks of `previous` are reused. */
  parse(text: string, previous?: LpreqDocument): LpreqDocument;
  /** The parse after an edit of [start, end) of `previous` by `insertedLength` characters: only the blocks it touches are parsed again. */
  reparse(previous: LpreqDocument, text: TextSource, start: number, end: number, insertedLength: number): Reparse;
  /** The variables and request names of a parsed document (for a host that keeps no ScopeTracker). */
  scope(parsed: LpreqDocument, env?: Environments): VariableScope;
  /**
   * The diagnostics of a text without keeping its tree; offsets are the text's. `onChecked`
   * is told each block's final diagnostics (Checker.diagnose).
   */
  diagnose(
    text: string,
    env?: Environments,
    onChecked?: (index: number, diagnostics: readonly Diagnostic[], endpoint: Endpoint | undefined) => void,
  ): Diagnostic[];
  /** One block's diagnostics, offsets relative to the block, in the scope given (RequestsBefore's where it stands). */
  checkBlock(block: Block, scope: VariableScope): Diagnostic[];
  complete(doc: ServiceDocument, offset: number, options?: CompletionOptions): CompletionEntry[];
  /**
   * The hover at an offset. `said`: what the diagnostics at the offset say (messages and
   * related lines), when the host has them at hand; otherwise the block is checked for them.
   */
  hover(doc: ServiceDocument, offset: number, said?: readonly string[]): HoverResult | undefined;
  /**
   * Fixes and refactors for [start, end], built from the diagnostics of the current text of
   * the blocks there (an editor's may be stale). `only`: the kinds wanted (`refactor` takes
   * `refactor.extract`), all without it.
   */
  codeActions(doc: ServiceDocument, start: number, end: number, only?: readonly string[]): CodeAction[];
  symbols(parsed: LpreqDocument): RequestSymbol[];
  foldingRanges(parsed: LpreqDocument): Location[];
  format(parsed: LpreqDocument): TextEdit[];
  /** The variable or request name at an offset and where the file defines it (an environment variable: no location). */
  definition(parsed: LpreqDocument, offset: number): { symbol: NavigationSymbol; locations: Location[] } | undefined;
  references(parsed: LpreqDocument, offset: number, includeDeclaration: boolean): Location[];
  /** Every use of the name at an offset; undefined where there is no name (an editor then highlights the word). */
  highlights(parsed: LpreqDocument, offset: number): Highlight[] | undefined;
  /** The name a rename at an offset would change, or why it cannot be renamed; undefined where there is no name. */
  prepareRename(
    parsed: LpreqDocument,
    offset: number,
  ): { start: number; end: number; placeholder: string } | { error: string } | undefined;
  /** The edits of renaming the name at an offset (names of the environments are taken), or why not. */
  rename(doc: ServiceDocument, offset: number, newName: string): TextEdit[] | { error: string } | undefined;
  /** The names the file defines with `@name = value` (they colour `{{name}}`), once per parse. */
  fileVariableNames(parsed: LpreqDocument): Set<string>;
  /** One block's semantic tokens, offsets relative to the block (a host caches them per block). */
  semanticTokens(doc: ServiceDocument, block: Block, fileNames: Set<string>): SemanticToken[];
  /** The ranges an editor's "expand selection" steps through at each offset, innermost first. */
  selectionRanges(parsed: LpreqDocument, offsets: readonly number[]): Location[][];
}

export function createLanguageService(catalog: Catalog): LanguageService {
  const checker = new Checker(catalog);
  const context = (doc: ServiceDocument): ServiceContext => ({ checker, scope: doc.scope, env: doc.env });
  return {
    catalog,
    checker,
    parse: (text, previous) => parseDocument(text, previous),
    reparse: (previous, text, start, end, insertedLength) => reparseEdit(previous, text, start, end, insertedLength),
    scope: (parsed, env) => documentScope(parsed, env),
    diagnose: (text, env, onChecked) => checker.diagnose(text, env, onChecked),
    checkBlock: (block, scope) => checker.checkBlock(block, scope),
    complete: (doc, offset, options) => complete(context(doc), doc.parsed, offset, options),
    hover: (doc, offset, said) => hover(context(doc), doc.parsed, offset, said),
    codeActions(doc, start, end, only) {
      const current: Diagnostic[] = [];
      const seen = new Set<number>();
      for (const offset of [start, end]) {
        const ref = blockAt(doc.parsed, offset);
        if (!ref || seen.has(ref.start)) continue;
        seen.add(ref.start);
        for (const d of checker.checkBlock(ref.block, doc.scope)) current.push(shiftDiagnostic(d, ref.start));
      }
      const actions = codeActions(context(doc), doc.parsed, start, end, current);
      return only ? actions.filter((a) => only.some((k) => a.kind === k || a.kind.startsWith(`${k}.`))) : actions;
    },
    symbols: (parsed) => documentSymbols(parsed),
    foldingRanges: (parsed) => foldingRanges(parsed),
    format: (parsed) => formatDocument(parsed),
    definition(parsed, offset) {
      const symbol = symbolAt(parsed, offset);
      return symbol ? { symbol, locations: definitions(parsed, symbol) } : undefined;
    },
    references(parsed, offset, includeDeclaration) {
      const symbol = symbolAt(parsed, offset);
      return symbol ? references(parsed, symbol, includeDeclaration) : [];
    },
    highlights(parsed, offset) {
      const symbol = symbolAt(parsed, offset);
      if (!symbol) return undefined;
      const defined = new Set(definitions(parsed, symbol).map((l) => l.start));
      return references(parsed, symbol, true).map((l) => ({
        start: l.start,
        end: l.end,
        kind: defined.has(l.start) ? 'write' : 'read',
      }));
    },
    prepareRename(parsed, offset) {
      const symbol = symbolAt(parsed, offset);
      if (!symbol) return undefined;
      const blocker = renameBlocker(parsed, symbol);
      return blocker ? { error: blocker } : { start: symbol.start, end: symbol.end, placeholder: symbol.name };
    },
    rename(doc, offset, newName) {
      const symbol = symbolAt(doc.parsed, offset);
      if (!symbol) return undefined;
      const taken = Object.values(doc.env?.environments ?? {}).flatMap((vars) => Object.keys(vars));
      return rename(doc.parsed, symbol, newName, taken);
    },
    fileVariableNames: (parsed) => fileVariableNames(parsed),
    semanticTokens: (doc, block, fileNames) => blockSemanticTokens(context(doc), block, fileNames),
    selectionRanges: (parsed, offsets) => selectionRanges(parsed, offsets),
  };
}
