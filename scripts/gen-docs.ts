// Writes what the documents say of the diagnostic codes from their one table
// (server/src/core/codes.ts): docs/codes.md, and the README's table between
// `<!-- codes:start -->` and `<!-- codes:end -->`. Run: npm run docs.
// test/core/generatedDocs.test.ts fails when a committed document differs from what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CODE_NAMES, CODES, type CodeName } from '../server/src/core/codes';

export const ROOT = join(import.meta.dirname, '..');
export const START = '<!-- codes:start -->';
export const END = '<!-- codes:end -->';

const SHOWN: Record<string, string> = { deprecated: 'struck through', unnecessary: 'faded' };

function note(code: CodeName): string {
  const entry = CODES[code];
  const parts: string[] = [entry.severity];
  if (entry.checkOnly) parts.push('`lpreq check` only');
  if (entry.environmentFile) parts.push('on the environment file');
  for (const tag of entry.tags ?? []) parts.push(`editors show it ${SHOWN[tag]}`);
  return parts.join('; ');
}

/** docs/codes.md. */
export function codesPage(): string {
  const own = CODE_NAMES.filter((c) => !CODES[c].format && !CODES[c].checkOnly).map((c) => `\`${c}\``);
  const sections = [
    ...new Set(CODE_NAMES.map((c) => CODES[c].format).filter((f): f is string => f !== undefined)),
  ].sort();
  const sectionText =
    sections.length > 1
      ? `sections ${sections.slice(0, -1).join(', ')} and ${sections[sections.length - 1]}`
      : `section ${sections[0]}`;
  const checkOnly = CODE_NAMES.filter((c) => CODES[c].checkOnly).map((c) => `\`${c}\``);
  const lines = [
    '# Diagnostic codes',
    '',
    '<!-- Written by scripts/gen-docs.ts from server/src/core/codes.ts (npm run docs): edit there. -->',
    '',
    `Every diagnostic of \`lpreq check\` and of the language server has one of these codes (LPREQ-FORMAT ${sectionText}, plus ${own.join(', ')}; ${checkOnly.join(', ')} is \`lpreq check\`'s alone). Tests and CI match on codes, never on messages. Severities are the defaults.`,
  ];
  for (const code of CODE_NAMES) {
    const entry = CODES[code];
    lines.push('', `## ${code}`, '', `**${entry.title}** (${note(code)}). ${entry.help}`);
  }
  return `${lines.join('\n')}\n`;
}

/** The README's table of codes, markers included. */
export function readmeTable(): string {
  const rows = CODE_NAMES.map((code) => `| \`${code}\` | ${CODES[code].severity} | ${CODES[code].when} |`);
  return [START, '| code | severity | when |', '|---|---|---|', ...rows, END].join('\n');
}

/** The README with its table of codes written anew; undefined when it has no markers. */
export function readmeWithTable(readme: string): string | undefined {
  const start = readme.indexOf(START);
  const end = readme.indexOf(END, start);
  if (start === -1 || end === -1) return undefined;
  return readme.slice(0, start) + readmeTable() + readme.slice(end + END.length);
}

if (process.argv[1] === import.meta.filename) {
  writeFileSync(join(ROOT, 'docs', 'codes.md'), codesPage());
  const readmePath = join(ROOT, 'README.md');
  const readme = readmeWithTable(readFileSync(readmePath, 'utf8'));
  if (readme === undefined) {
    console.error(`README.md has no ${START} ... ${END}: put them where the table of codes goes`);
    process.exitCode = 1;
  } else writeFileSync(readmePath, readme);
}
