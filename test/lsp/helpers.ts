/** Helpers of the language-service tests: in-memory documents, cursors marked `|`, edits applied. */
import { bundledCatalog } from '../../server/src/catalogData';
import {
  createLanguageService,
  ScopeTracker,
  type EnvironmentInfo,
  type LanguageService,
  type ServiceDocument,
} from '../../server/src/core/index';

let service: LanguageService | undefined;
/** The service of the bundled catalog, made once for every test of the process. */
export const getService = (): LanguageService => (service ??= createLanguageService(bundledCatalog()));
export const getChecker = () => getService().checker;

/** A document as a host keeps it: parsed, with its scope and environments. */
export function serviceDocument(text: string, env?: EnvironmentInfo): ServiceDocument {
  const parsed = getService().parse(text);
  const { scope } = new ScopeTracker().update(parsed, env);
  return { parsed, scope, env };
}

/** Splits `text` with one `|` into the text without it and the cursor offset. */
export function cursor(marked: string): { text: string; offset: number } {
  const offset = marked.indexOf('|');
  if (offset === -1) throw new Error(`no cursor in ${marked}`);
  return { text: marked.slice(0, offset) + marked.slice(offset + 1), offset };
}

/** The text a snippet inserts when every placeholder keeps its default (the first choice). */
export function expandSnippet(snippet: string): string {
  let out = '';
  for (let i = 0; i < snippet.length; i++) {
    const c = snippet[i];
    if (c === '\\' && i + 1 < snippet.length) {
      out += snippet[++i];
      continue;
    }
    if (c === '$') {
      const rest = snippet.slice(i);
      const simple = /^\$(\d+)/.exec(rest);
      if (simple) {
        i += simple[0].length - 1;
        continue;
      }
      const choice = /^\$\{\d+\|((?:\\.|[^,|\\])*)[,|]/.exec(rest);
      if (choice) {
        out += choice[1].replace(/\\(.)/g, '$1');
        i += rest.indexOf('|}') + 1;
        continue;
      }
      const holder = /^\$\{\d+:/.exec(rest);
      if (holder) {
        // Placeholders here never nest: read to the first unescaped `}`.
        let j = holder[0].length;
        let value = '';
        while (j < rest.length && rest[j] !== '}') {
          if (rest[j] === '\\') j++;
          value += rest[j++];
        }
        out += value;
        i += j;
        continue;
      }
    }
    out += c;
  }
  return out;
}

export function applyEdits(text: string, edits: { start: number; end: number; newText: string }[]): string {
  const sorted = [...edits].sort((a, b) => b.start - a.start || b.end - a.end);
  let out = text;
  for (const e of sorted) out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}
