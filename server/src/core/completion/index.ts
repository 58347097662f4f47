/**
 * Completion: methods, paths, path segments, parameter names and values, headers,
 * `{{variables}}` and assertion lines, always from the catalog. Results carry absolute offsets of the text
 * they replace; the LSP layer turns them into ranges.
 */
import { blockAt, lineAt, type ServiceContext } from '../documentIndex';
import { requestName, type LpreqDocument } from '../parser';
import { completeHeaderNames, completeHeaderValue, completeMetadata } from './headers';
import { matchedEndpoint, wordEnd, type CompletionEntry, type CompletionOptions } from './items';
import { completeAssertion } from './assertions';
import { bodySkeleton, completeJson } from './json';
import { completeBodyLine, completeParameterNames, completeQuery } from './parameters';
import { completeMethods, completeRequestLine } from './path';
import { completeVariables } from './variables';
import { completeTemplates } from './templates';
import { completeSnapshotLine } from './snapshot';

export { snippetText, type CompletionEntry, type CompletionKind, type CompletionOptions } from './items';

export function complete(
  ctx: ServiceContext,
  doc: LpreqDocument,
  offset: number,
  options: CompletionOptions = {},
): CompletionEntry[] {
  const ref = blockAt(doc, offset);
  if (!ref) return [];
  const base = ref.start;
  const block = ref.block;
  const rel = offset - base;
  if (rel < 0 || rel > block.text.length) return [];
  const line = lineAt(block, rel);
  const col = rel - line.start;
  const before = line.text.slice(0, col);
  const out: CompletionEntry[] = [];
  const abs = (n: number) => base + line.start + n;
  // In the indentation before what a line holds: nothing is typed there, and any edit would land after the cursor.
  if (
    line.region !== 'json' &&
    /^\s*$/.test(before) &&
    line.text.slice(col).trim() !== '' &&
    /^\s/.test(line.text.slice(col))
  )
    return out;

  // Scripts, redirections and a body file line of other clients: nothing of the API to complete there.
  if (/^\s*(>|<[>@\s]|<$)/.test(line.text) || insideScript(block.text, rel)) return out;
  if (!opensCompletion(options.triggerCharacter, before, line.region)) return out;
  // Inside an unclosed `{{`: variables, wherever the cursor is.
  const open = before.lastIndexOf('{{');
  if (open !== -1 && before.indexOf('}}', open) === -1) {
    // Not the variable this line defines (`@x = {{`), nor the request it stands in (it cannot wait for its own response).
    const defining = /^\s*@([A-Za-z_][\w.-]*)\s*=/.exec(line.text)?.[1];
    completeVariables(ctx, doc, line.text, open + 2, col, abs, out, { defining, request: requestName(block) }, block);
    return out;
  }
  switch (line.region) {
    case 'separator':
      return out;
    case 'path':
      // A path line of JetBrains' client (`    /items`): its segments are not completed.
      return out;
    case 'assertion':
      completeAssertion(ctx, block, line.text, col, abs, out);
      return out;
    case 'json':
      if (block.jsonBody) completeJson(ctx, block, rel, base, out, options);
      return out;
    case 'preamble': {
      // The options and paths of a `# @snapshot` line.
      if (completeSnapshotLine(ctx, block, line.text, col, abs, out)) return out;
      // `# @` above the request line: the metadata lpreq reads.
      const meta = /^\s*(?:#|\/\/)\s*@([\w-]*)$/.exec(before);
      if (meta) {
        const from = before.length - meta[1].length;
        completeMetadata(abs(from), abs(from + /^[\w-]*/.exec(line.text.slice(from))![0].length), out);
        return out;
      }
      const t = before.trimStart();
      if (/^[A-Za-z]*$/.test(t) && !/^\s*(#|\/\/|@)/.test(line.text)) {
        completeMethods(abs(before.length - t.length), abs(wordEnd(line.text, col)), out);
        // A whole request to start from, where one begins: a word alone on its line, nothing after it.
        if (t.length > 0 && line.text.slice(col).trim() === '')
          completeTemplates(abs(before.length - t.length), abs(wordEnd(line.text, col)), out);
      }
      return out;
    }
    case 'request': {
      completeRequestLine(ctx, block, line.start, line.text, col, abs, out);
      // A word alone on the line where a request begins (`get`, `modules`): a whole request to start from.
      const word = /^(\s*)([A-Za-z]+)$/.exec(before);
      if (word && line.text.slice(col).trim() === '')
        completeTemplates(abs(word[1].length), abs(wordEnd(line.text, col)), out);
      return out;
    }
    case 'query': {
      const s = line.text.search(/[?&]/);
      if (s !== -1 && s < col) completeQuery(ctx, block, line.text, s + 1, col, abs, out, line.start);
      return out;
    }
    case 'headers': {
      const colon = before.indexOf(':');
      if (colon !== -1) {
        completeHeaderValue(before.slice(0, colon).trim(), line.text, colon + 1, col, abs, out);
        return out;
      }
      completeHeaderNames(ctx, block, line.text, col, abs, out);
      if (line.text.trim() === '' && block.bodyStart === line.start) {
        // The blank line that ends the headers stays blank: a parameter or a body goes on a line of its own below it.
        const first = out.length;
        const endpoint = matchedEndpoint(ctx, block);
        if (endpoint?.jsonBody && options.triggerCharacter === undefined)
          out.push(bodySkeleton(endpoint.jsonBody, abs(col), abs(col)));
        completeParameterNames(ctx, block, '', abs(col), abs(col), 'body', false, -1, out);
        for (let i = first; i < out.length; i++)
          out[i] = {
            ...out[i],
            insertText: `\n${out[i].insertText}`,
            ...(out[i].plain !== undefined ? { plain: `\n${out[i].plain}` } : {}),
          };
      }
      return out;
    }
    case 'body': {
      const endpoint = line.text.trim() === '' ? matchedEndpoint(ctx, block) : undefined;
      if (endpoint?.jsonBody) {
        // An endpoint that takes JSON: its body, with what it requires, to fill in (asked for, never opened by a key).
        if (options.triggerCharacter === undefined) out.push(bodySkeleton(endpoint.jsonBody, abs(col), abs(col)));
        return out;
      }
      completeBodyLine(ctx, block, line.text, col, abs, line.start, out, options);
      return out;
    }
  }
}

/**
 * Whether a typed character opens completion here: `{` only when it makes `{{` (a variable),
 * and in a JSON body neither a bracket nor a space, as in a JSON file, so that the Enter that
 * follows `{` or `[` is a new line, not the first key accepted.
 */
function opensCompletion(typed: string | undefined, before: string, region: string): boolean {
  if (typed === undefined) return true;
  if (typed === '{') return before.endsWith('{{');
  if (region === 'json') return typed !== '[' && typed !== ' ';
  return true;
}

/** Whether `rel` stands inside a `{% ... %}` script of the block. */
function insideScript(text: string, rel: number): boolean {
  let open = text.lastIndexOf('{%', rel - 1);
  // `{{%name}}` is a variable, not a script.
  while (open > 0 && text.charCodeAt(open - 1) === 123) open = text.lastIndexOf('{%', open - 2);
  if (open === -1) return false;
  const close = text.indexOf('%}', open + 2);
  return close === -1 || close >= rel;
}
