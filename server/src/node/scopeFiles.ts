/**
 * Lists of token scopes in files: the mock's and the proxy's `--scopes FILE`, an environment's
 * `"$scopes": "scopes.json"`, and the edit that adds a scope to the list an environment
 * declares (the quick fix of `scope-not-granted`). A list is a JSON array of scope strings,
 * `["url:GET|/api/v1/courses/{course_id}/modules"]`, what `lpreq scopes --format json` prints.
 */
import { dirname, resolve } from 'node:path';
import { findNodeAtLocation, modify, parseTree, type Node } from 'jsonc-parser';
import { readScopeList, type ScopeSite } from '../core/index';
import { readConfinedText, readTextFileSync } from './textInput';

/**
 * The scopes a file lists, or why it cannot be read. With `within`, a file whose real path
 * (links followed) is outside that folder is not read: an environment file is a repository's,
 * and names only files of its own.
 */
export function readScopeFile(path: string, within?: string): { scopes: string[] } | { problem: string } {
  // The one confined reader: a link or a file outside `within` is refused with the reason.
  const read = within !== undefined ? readConfinedText(path, within) : readTextFileSync(path);
  if (read.problem !== undefined) return { problem: read.problem };
  let json: unknown;
  try {
    json = JSON.parse(read.text);
  } catch (e) {
    return { problem: `not valid JSON (${(e as Error).message})` };
  }
  return readScopeList(json);
}

/** An edit of one file: the file's text as it was read, and the changes by offsets into it. */
export interface FileEdit {
  file: string;
  text: string;
  edits: { start: number; end: number; newText: string }[];
}

/**
 * The edit that adds `scope` to the list `site` points at: in its sorted place when the list is
 * sorted, else at its end, indented as the file is. Undefined when the file cannot be read, the
 * list is not where the site says, or it holds the scope already.
 */
export function scopeAdditionEdit(site: ScopeSite, scope: string): FileEdit | undefined {
  const file = site.listFile ?? site.file;
  if (site.listFile !== undefined && 'problem' in readScopeFile(site.listFile, dirname(site.file))) return undefined;
  const read = readTextFileSync(file);
  if (read.problem !== undefined) return undefined;
  const text = read.text;
  const root = parseTree(text);
  if (!root) return undefined;
  const path = site.listFile !== undefined ? [] : [site.environment, '$scopes'];
  const list: Node | undefined = path.length === 0 ? root : findNodeAtLocation(root, path);
  if (list?.type !== 'array') return undefined;
  const items = (list.children ?? []).map((c) => (typeof c.value === 'string' ? c.value : ''));
  if (items.includes(scope)) return undefined;
  const sorted = items.every((s, i) => i === 0 || items[i - 1] <= s);
  const index = sorted ? items.filter((s) => s < scope).length : items.length;
  const indent = /^( +|\t+)"/m.exec(text)?.[1];
  const edits = modify(text, [...path, index], scope, {
    isArrayInsertion: true,
    formattingOptions: {
      insertSpaces: indent?.startsWith('\t') !== true,
      tabSize: indent && !indent.startsWith('\t') ? indent.length : 2,
      eol: text.includes('\r\n') ? '\r\n' : '\n',
    },
  });
  return {
    file: resolve(file),
    text,
    edits: edits.map((e) => ({ start: e.offset, end: e.offset + e.length, newText: e.content })),
  };
}
