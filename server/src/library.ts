/**
 * The library entry the editor and the benchmarks import: parsing and checking of one text,
 * with the bundled catalog loaded once, on first use. Importing it has no side effects.
 */
import { bundledCatalog } from './catalogData';
import { Checker, type Diagnostic, type Environments, parseDocument, type LpreqDocument } from './core/index';

let checker: Checker | undefined;

/** The checker over the bundled catalog (created on first use). */
export function defaultChecker(): Checker {
  checker ??= new Checker(bundledCatalog());
  return checker;
}

/** Parses a text; pass the previous result to reuse its unchanged blocks. */
export function parse(text: string, previous?: LpreqDocument): LpreqDocument {
  return parseDocument(text, previous);
}

/** Parses and checks a text; offsets in the diagnostics are offsets of the text. */
export function check(
  text: string,
  environments?: Environments,
): { document: LpreqDocument; diagnostics: Diagnostic[] } {
  return defaultChecker().checkText(text, environments);
}

/** The diagnostics of a text, without keeping its tree (what `lpreq check` does). */
export function diagnose(text: string, environments?: Environments): Diagnostic[] {
  return defaultChecker().diagnose(text, environments);
}

export { bundledCatalog };
export * from './core/index';
