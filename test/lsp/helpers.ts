/** Helpers of the language-service tests: in-memory documents, cursors marked `|`, edits applied. */
import { bundledCatalog } from '../../server/src/catalogData';
import { Checker } from '../../server/src/core/checker';
import { ScopeTracker, type EnvironmentInfo, type ServiceContext } from '../../server/src/core/documentIndex';
import { parseDocument, type LpreqDocument } from '../../server/src/core/parser';

let checker: Checker | undefined;
export const getChecker = () => (checker ??= new Checker(bundledCatalog()));

export function load(text: string, env?: EnvironmentInfo): { ctx: ServiceContext; doc: LpreqDocument } {
  const doc = parseDocument(text);
  const { scope } = new ScopeTracker().update(doc, env);
  return { ctx: { checker: getChecker(), scope, env }, doc };
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
