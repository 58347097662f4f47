/**
 * `--help` of every command, made from the flags the command parses: each option on one line
 * with what it does, then examples. A flag without a line of help is a mistake the tests find.
 */
import type { FlagSpec } from './args';

export interface CommandHelp {
  /** The usage line: `usage: lpreq check [--env NAME] ... [PATH...]`. */
  usage: string;
  /** What the command does, in a sentence or two. */
  summary: string;
  /** The flags it parses, each with its `help` (and `arg`, the name of its value). */
  flags: Record<string, FlagSpec>;
  /** What follows the options (`PATH...`), each with one line. */
  operands?: Record<string, string>;
  /** Whole command lines to copy. */
  examples: string[];
  /** Lines printed after the options as written (a file format a flag reads). */
  notes?: string[];
}

/** `--env NAME`, `--format text|json`, `--yes`. */
export function flagLabel(name: string, spec: FlagSpec): string {
  if (!spec.value) return `--${name}`;
  return `--${name} ${spec.arg ?? (spec.choices ? spec.choices.join('|') : 'VALUE')}`;
}

/** Rows of a label and its one line, the lines aligned. */
function table(rows: [string, string][]): string[] {
  const width = Math.max(...rows.map(([l]) => l.length));
  return rows.map(([l, h]) => `  ${l.padEnd(width)}  ${h}`);
}

/** Text broken into lines of at most `width` characters, at spaces. */
function wrap(text: string, width = 92): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

export function helpText(help: CommandHelp): string {
  const options = Object.entries(help.flags).map(([name, spec]): [string, string] => [
    flagLabel(name, spec),
    spec.help ?? '',
  ]);
  return [
    help.usage,
    '',
    ...wrap(help.summary),
    ...(help.operands ? ['', 'arguments:', ...table(Object.entries(help.operands))] : []),
    '',
    'options:',
    ...table(options),
    ...(help.notes ? ['', ...help.notes] : []),
    '',
    'examples:',
    ...help.examples.map((e) => `  ${e}`),
    '',
  ].join('\n');
}

/** The flag every command takes. */
export const HELP_FLAG: FlagSpec = { help: 'print this help and exit' };
