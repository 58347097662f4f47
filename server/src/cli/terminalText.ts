/**
 * What the command line prints comes partly from others: file names, values a message
 * quotes, a server's response. A terminal acts on control characters in it (ESC starts
 * sequences that set the title, clear the screen or rewrite what was printed; C1's CSI does
 * the same in one character; CR and BS overwrite) and shows text out of order after a
 * bidirectional override. Every text the command line writes passes `printable`; JSON passes
 * `printableJson`, which keeps it JSON.
 */
import type { Io } from '../node/index';

/** C0, DEL, C1 and the bidirectional embeddings, overrides and isolates. */
// eslint-disable-next-line no-control-regex -- control characters are what this finds
const UNPRINTABLE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
/** The same, but the line feed, the tab and a CR before a line feed, which lay text out and move nothing back. */
const UNPRINTABLE_IN_LINES =
  // eslint-disable-next-line no-control-regex -- control characters are what this finds
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]|\r(?!\n)/g;
/** What JSON.stringify leaves as it is: DEL, C1 and the bidirectional controls. */
const UNPRINTABLE_IN_JSON = /[\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const NAMED = new Map([
  ['\n', '\\n'],
  ['\r', '\\r'],
  ['\t', '\\t'],
]);

function escape(c: string): string {
  const code = c.charCodeAt(0);
  return (
    NAMED.get(c) ??
    (code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`)
  );
}

/**
 * `s` with every control character written as an escape (`\x1b`, `\n`, `\u202e`): for a value
 * inside one line of output, such as a file name or a message. With `lines`, line feeds,
 * tabs and CR LF stay, for text of many lines (a response body, a usage message).
 */
export function printable(s: string, options: { lines?: boolean } = {}): string {
  const pattern = options.lines ? UNPRINTABLE_IN_LINES : UNPRINTABLE;
  pattern.lastIndex = 0;
  return pattern.test(s) ? s.replace(pattern, escape) : s;
}

/** JSON text with DEL, C1 and bidirectional controls as `\u` escapes: the same JSON value, safe on a terminal. */
export function printableJson(json: string): string {
  UNPRINTABLE_IN_JSON.lastIndex = 0;
  return UNPRINTABLE_IN_JSON.test(json)
    ? json.replace(UNPRINTABLE_IN_JSON, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
    : json;
}

/**
 * GitHub's runner reads a line of a job's log whose first characters after any blanks are
 * `::` as a workflow command (`::warning`, `::add-mask::`, `::stop-commands::`).
 */
const COMMAND_START = /(^|\n)([ \t]*):(?=:)/g;

/**
 * Output text in which no line starts with `::`: the first colon of such a line is written
 * `\x3a`, as printable writes what a terminal would act on. For every text output whose lines
 * may start with data (a file name, a title, a message, a body); never for `--format github`,
 * whose lines are the commands.
 */
export function noWorkflowCommands(text: string): string {
  COMMAND_START.lastIndex = 0;
  return COMMAND_START.test(text) ? text.replace(COMMAND_START, '$1$2\\x3a') : text;
}

/** The same streams, with what goes to standard error and each question asked made printable. */
export function printableErrors(io: Io): Io {
  const ask = io.ask;
  return {
    ...io,
    stderr: (s) => io.stderr(noWorkflowCommands(printable(s, { lines: true }))),
    ask: ask && ((question, secret) => ask(printable(question, { lines: true }), secret)),
  };
}
