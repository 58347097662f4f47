/**
 * The response of a request the server sent, as a file any editor can show: one file per
 * request in the project's `.lpreq/responses/` (beside `.lpreq/history`, git-ignored the
 * same way), written again at each send. A JSON body is a `.jsonc` file: the status line,
 * the request, the headers and the typed check's summary as `//` comments above the body
 * printed with two spaces, so that every editor highlights it as JSON and a JSON reader
 * skips the comments; any other body is a `.txt` file with the same comments. The whole
 * text passes the one scrubber with every secret of the exchange, as the command line's
 * output does; the file is the user's alone and read-only (0400, in a 0700 folder). Each
 * typed issue (an undocumented field, a value of the wrong type, an unknown enum value)
 * becomes a diagnostic at the field it is about, found in the written text by jsonc-parser.
 */
import { rmSync } from 'node:fs';
import { basename, extname, join, relative } from 'node:path';
import { findNodeAtLocation, parseTree, type Node } from 'jsonc-parser';
import { lineOfOffset, lineStarts } from '../core/index';
import { writeConfinedFile } from '../node/index';
import { parseJsonPath, projectStore, stringifyExact, type ResponseIssue, type SendResult } from '../sender/index';

/** What the header of a response file says besides the exchange. */
export interface ResponseContext {
  /** The request file, and the 1-based line of its request line. */
  requestFile: string;
  line: number;
  environment: string | undefined;
  /** Checker errors of the request (it was sent anyway, as by `lpreq send`). */
  errors: number;
  /** Notes on the token (setup.ts tokenNotes) and other warnings, besides the result's own. */
  notes: readonly string[];
  /** When the exchange ended (ISO 8601). */
  time: string;
}

/** A response file's text, before scrubbing, and its extension. */
export function responseText(
  result: SendResult,
  context: ResponseContext,
): { text: string; extension: '.jsonc' | '.txt' } {
  const r = result.response;
  const request = result.request;
  const lines: string[] = [];
  const comment = (text: string) => {
    // A header value, a message or a URL of one line each; a line break in one would end the comment.
    for (const part of text.split(/\r\n|\r|\n/)) lines.push(`// ${part}`.trimEnd());
  };
  comment(
    `lpreq: the response to ${basename(context.requestFile)}:${context.line}, received ${context.time} (read-only; sent again, it is written again)`,
  );
  for (const dep of result.dependencies) {
    if (dep.historyTime !== undefined)
      comment(`used the response of '${dep.name}' from the history (sent ${dep.historyTime}: ${dep.status})`);
    else if (dep.notSent) comment(`did not send '${dep.name}', which this request refers to`);
    else comment(`sent '${dep.name}' first: ${dep.status ?? 'no response'}`);
  }
  if (request)
    comment(`${request.method} ${request.url}${context.environment ? `  [env ${context.environment}]` : ''}`);
  for (const hop of r?.redirects ?? []) comment(`-> ${hop.status} to ${hop.to}`);
  if (context.errors > 0)
    comment(`sent with ${context.errors} checker error${context.errors === 1 ? '' : 's'} in the request`);
  if (r && r.status !== null) {
    const parts = [`${r.durationMs} ms`];
    if (r.pages > 1) parts.push(`${r.pages} pages merged`);
    comment(`HTTP ${r.status} ${r.statusText}  (${parts.join(', ')})`);
    for (const [name, value] of Object.entries(r.headers)) comment(`${name}: ${value}`);
  }
  if (result.error) comment(`error (${result.error.kind}): ${result.error.message}`);
  for (const w of [...result.warnings, ...context.notes]) comment(`warning: ${w}`);
  if (result.resource) {
    if (result.unchecked)
      comment(
        `${result.resource}: not checked against the documentation (${result.unchecked === 'truncated' ? 'the body is truncated' : 'the body is not JSON'})`,
      );
    else if (result.issues.length === 0) comment(`${result.resource}: the body matches the documentation`);
    else
      comment(
        `${result.resource}: ${result.issues.length} difference${result.issues.length === 1 ? '' : 's'} from the documentation, marked where they are`,
      );
  }
  if (!r || r.status === null) return { text: `${lines.join('\n')}\n`, extension: '.txt' };
  if (r.bodyKind === 'json') return { text: `${lines.join('\n')}\n${bodyJson(r)}\n`, extension: '.jsonc' };
  if (r.bodyKind === 'empty') {
    comment(r.bodyIncomplete ? 'the body is incomplete: the exchange failed before it arrived' : '(empty body)');
    return { text: `${lines.join('\n')}\n`, extension: '.jsonc' };
  }
  if (r.bodyKind === 'binary') {
    comment(
      `a binary body of ${r.bytes} bytes, not shown${r.truncated ? `; it is kept whole in ${r.truncated.file}` : ''}`,
    );
    return { text: `${lines.join('\n')}\n`, extension: '.txt' };
  }
  if (r.truncated) comment(`the body is cut at ${r.truncated.limit} bytes; it is kept whole in ${r.truncated.file}`);
  if (r.bodyIncomplete) comment(`the body is incomplete: ${r.bytes} bytes arrived before the exchange failed`);
  return { text: `${lines.join('\n')}\n\n${r.bodyText}${r.bodyText.endsWith('\n') ? '' : '\n'}`, extension: '.txt' };
}

/** A JSON body with two spaces, its integers beyond 2^53 as the server wrote them; one nested too deeply to print again as it came. */
function bodyJson(r: NonNullable<SendResult['response']>): string {
  try {
    return stringifyExact(r.body, r.exactNumbers, 2);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return r.bodyText;
  }
}

/**
 * The name of a request's response file: the request file's path from the project folder
 * (its folders joined with `.`), and the request's `# @name` or the line of its request
 * line; anything but letters, digits, `-` and `_` becomes `_`, so that a name chosen in a
 * request file cannot reach another folder or make a hidden file.
 */
export function responseFileName(
  requestFile: string,
  projectFolder: string,
  request: { name?: string; line: number },
): string {
  const rel = relative(projectFolder, requestFile);
  const inside = rel !== '' && !rel.startsWith('..') && !rel.startsWith('/') ? rel : basename(requestFile);
  const stem = inside.slice(0, inside.length - extname(inside).length);
  const safe = (text: string) => text.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 80) || '_';
  const file = stem.split(/[\\/]/).map(safe).join('.');
  return `${file}.${request.name ? safe(request.name) : `line-${request.line}`}`;
}

/**
 * Writes a response file into `<projectFolder>/.lpreq/responses/` (made 0700, as history is)
 * through the confined writer: a new file of mode 0400 renamed over the old one, so that an
 * editor never reads half a file, and never written through a link a repository put there;
 * the same request's file of the other extension goes. Returns the file's path.
 */
export function writeResponseFile(projectFolder: string, name: string, extension: string, text: string): string {
  const folder = projectStore(projectFolder, 'responses');
  const path = writeConfinedFile(folder, `${name}${extension}`, text, { mode: 0o400, replace: true });
  for (const other of ['.jsonc', '.txt'])
    if (other !== extension) rmSync(join(folder, `${name}${other}`), { force: true });
  return path;
}

export interface IssueRange {
  issue: ResponseIssue;
  start: { line: number; character: number };
  end: { line: number; character: number };
}

/**
 * Where each typed issue stands in a response file's text: an undocumented field at its
 * key, any other issue at the value. The path is looked up in the text as written (comments
 * skipped, as jsonc-parser reads them); an issue whose path is not there (a scrubbed key)
 * stands at the start of the body.
 */
export function issueRanges(text: string, issues: readonly ResponseIssue[]): IssueRange[] {
  if (issues.length === 0) return [];
  const root = parseTree(text, [], { allowTrailingComma: false, disallowComments: false });
  const starts = lineStarts(text);
  const at = (offset: number) => {
    const line = lineOfOffset(starts, offset);
    return { line, character: offset - starts[line] };
  };
  const bodyStart = root ? root.offset : 0;
  return issues.map((issue) => {
    const path = parseJsonPath(issue.path);
    let node: Node | undefined = root && path ? findNodeAtLocation(root, path) : undefined;
    // The field's name: the first child of its property node.
    if (node && issue.code === 'undocumented-field' && node.parent?.type === 'property' && node.parent.children?.[0])
      node = node.parent.children[0];
    // A long value is marked at its first line only: an object or an array spans many.
    const start = node ? node.offset : bodyStart;
    const end = node && node.type !== 'object' && node.type !== 'array' ? node.offset + node.length : start + 1;
    return { issue, start: at(start), end: at(Math.min(end, text.length)) };
  });
}
