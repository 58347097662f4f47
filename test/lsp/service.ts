/**
 * The language features as a host sees them: through `createLanguageService(catalog)`, the
 * core's one entry. One helper a feature, in the manner of vscode-json-languageservice's
 * `testCompletionsFor`: the input is a text with the cursor marked `|`, the expected answer
 * is data (a text after the edit, with its cursor marked; titles; ranges as the text they
 * cover), and a completion or a code action is applied before it is compared.
 */
import assert from 'node:assert/strict';
import {
  TOKEN_MODIFIERS,
  TOKEN_TYPES,
  type CompletionEntry,
  type CompletionOptions,
  type EnvironmentInfo,
  type ServiceDocument,
} from '../../server/src/core/index';
import { applyEdits, cursor, expandSnippet, getService, serviceDocument } from './helpers';

export { getService, serviceDocument };

/** The marked text parsed, with the cursor's offset. */
export function atCursor(
  marked: string,
  env?: EnvironmentInfo,
): { text: string; offset: number; doc: ServiceDocument } {
  const { text, offset } = cursor(marked);
  return { text, offset, doc: serviceDocument(text, env) };
}

/** The cursor after a snippet is inserted at `start`: its first tab stop, else `$0`, else the end. */
function cursorAfter(insertText: string, snippet: boolean, start: number): number {
  if (!snippet) return start + insertText.length;
  const marks = [/\$\{1[:|}]|\$1(?!\d)/, /\$\{0\}|\$0(?!\d)/];
  for (const mark of marks) {
    const m = mark.exec(insertText);
    if (m) return start + expandSnippet(insertText.slice(0, m.index)).length;
  }
  return start + expandSnippet(insertText).length;
}

/** The completions at the cursor of `marked`. */
export function completionsAt(
  marked: string,
  env?: EnvironmentInfo,
  options?: CompletionOptions,
): { text: string; items: CompletionEntry[] } {
  const { text, offset, doc } = atCursor(marked, env);
  return { text, items: getService().complete(doc, offset, options) };
}

/** The labels offered at the cursor of `marked`, in order. */
export function completionLabels(marked: string, env?: EnvironmentInfo, options?: CompletionOptions): string[] {
  return completionsAt(marked, env, options).items.map((i) => i.label);
}

/**
 * Completing `marked` with the item labelled `label` gives `expected`: the text (snippet
 * placeholders keep their defaults) and, where `expected` marks it with `|`, the cursor
 * (a snippet's first tab stop, or the end of what was inserted).
 */
export function testCompletion(
  marked: string,
  label: string,
  expected: string,
  env?: EnvironmentInfo,
  options?: CompletionOptions,
): CompletionEntry {
  const { text, items } = completionsAt(marked, env, options);
  const item = items.find((i) => i.label === label);
  assert.ok(
    item,
    `no item '${label}' at ${JSON.stringify(marked)}; got ${items
      .map((i) => i.label)
      .slice(0, 30)
      .join(', ')}`,
  );
  const inserted = item.snippet ? expandSnippet(item.insertText) : item.insertText;
  const result = applyEdits(text, [{ start: item.start, end: item.end, newText: inserted }]);
  if (expected.includes('|')) {
    const at = cursorAfter(item.insertText, item.snippet, item.start);
    assert.equal(result.slice(0, at) + '|' + result.slice(at), expected, `${label} at ${JSON.stringify(marked)}`);
  } else {
    assert.equal(result, expected, `${label} at ${JSON.stringify(marked)}`);
  }
  return item;
}

/** The hover at the cursor of `marked` matches `expected`, or there is none (`null`). */
export function testHover(marked: string, expected: RegExp | null, env?: EnvironmentInfo): string | undefined {
  const { offset, doc } = atCursor(marked, env);
  const h = getService().hover(doc, offset);
  if (expected === null) {
    assert.equal(h, undefined, `a hover at ${JSON.stringify(marked)}`);
    return undefined;
  }
  assert.ok(h, `no hover at ${JSON.stringify(marked)}`);
  assert.match(h.contents, expected);
  return h.contents;
}

/** The titles of the code actions at the cursor of `marked`. */
export function codeActionTitles(marked: string, env?: EnvironmentInfo): string[] {
  const { offset, doc } = atCursor(marked, env);
  return getService()
    .codeActions(doc, offset, offset)
    .map((a) => a.title);
}

/** The code action titled like `title` at the cursor of `marked`, applied, gives `expected`. */
export function testCodeAction(marked: string, title: RegExp, expected: string, env?: EnvironmentInfo) {
  const { text, offset, doc } = atCursor(marked, env);
  const actions = getService().codeActions(doc, offset, offset);
  const action = actions.find((a) => title.test(a.title));
  assert.ok(action, `no action ${title} at ${JSON.stringify(marked)}; got ${actions.map((a) => a.title).join(' | ')}`);
  assert.equal(applyEdits(text, action.edits), expected);
  return action;
}

/** Formatting `input` gives `expected`, and formatting that again changes nothing. */
export function testFormat(input: string, expected: string): void {
  const service = getService();
  assert.equal(applyEdits(input, service.format(service.parse(input))), expected);
  assert.deepEqual(service.format(service.parse(expected)), [], 'formatting twice changes nothing');
}

/** The symbols of `text` as [name, detail, the last line of its range]. */
export function testSymbols(text: string, expected: [string, string | undefined, string][]): void {
  const service = getService();
  assert.deepEqual(
    service.symbols(service.parse(text)).map((s) => [s.name, s.detail, text.slice(s.start, s.end).split('\n').pop()]),
    expected,
  );
}

/** The folding ranges of `text`, each as the last line it folds. */
export function testFolding(text: string, expected: string[]): void {
  const service = getService();
  assert.deepEqual(
    service.foldingRanges(service.parse(text)).map((r) => text.slice(r.start, r.end).split('\n').pop()),
    expected,
  );
}

/** The definitions of the name at the cursor of `marked`, as the texts they cover (an environment's: none). */
export function testDefinition(marked: string, expected: string[] | undefined): void {
  const { text, offset, doc } = atCursor(marked);
  const found = getService().definition(doc.parsed, offset);
  assert.deepEqual(
    found?.locations.map((l) => `${l.start}:${text.slice(l.start, l.end)}`),
    expected?.map((e) => `${text.indexOf(e)}:${e}`),
  );
}

/** Renaming the name at the cursor of `marked` to `newName` gives `expected`, or is refused (`expected` an Error). */
export function testRename(marked: string, newName: string, expected: string | Error, env?: EnvironmentInfo): void {
  const { text, offset, doc } = atCursor(marked, env);
  const edits = getService().rename(doc, offset, newName);
  assert.ok(edits, `nothing to rename at ${JSON.stringify(marked)}`);
  if (expected instanceof Error) return assert.ok('error' in edits, `renaming to ${newName} is refused`);
  if ('error' in edits) return assert.fail(edits.error);
  assert.equal(applyEdits(text, edits), expected);
}

/** The semantic tokens of `text`, every block's, as [text, type] pairs in order. */
export function semanticTokensOf(text: string, env?: EnvironmentInfo): [string, string, string[]][] {
  const service = getService();
  const doc = serviceDocument(text, env);
  const names = service.fileVariableNames(doc.parsed);
  return doc.parsed.blocks.flatMap(({ start, block }) =>
    service
      .semanticTokens(doc, block, names)
      .map((t): [string, string, string[]] => [
        text.slice(start + t.start, start + t.end),
        TOKEN_TYPES[t.type],
        TOKEN_MODIFIERS.filter((_, i) => (t.modifiers & (1 << i)) !== 0),
      ]),
  );
}
