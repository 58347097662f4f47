// Writes what the documents say of the diagnostic codes from their one table
// (server/src/core/codes.ts): docs/codes.md, and the README's table between
// `<!-- codes:start -->` and `<!-- codes:end -->`; from the catalog, docs/sending.md's list
// of the answers whose type is a union or an inline object, between `<!-- typed-names:start -->`
// and `<!-- typed-names:end -->`; and docs/mock.md's list of the variables a mock run offers
// (server/src/mock/variables.ts), between `<!-- mock-variables:start -->` and
// `<!-- mock-variables:end -->`. Run: npm run docs.
// test/core/generatedDocs.test.ts fails when a committed document differs from what this writes.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundledCatalog } from '../server/src/catalogData';
import { CODE_NAMES, CODES, type CodeName } from '../server/src/core/codes';
import type { Catalog } from '../server/src/core/catalog/catalog';
import { defaultSeed } from '../server/src/mock/seed';
import { mockVariables } from '../server/src/mock/variables';

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

export const TYPED_START = '<!-- typed-names:start -->';
export const TYPED_END = '<!-- typed-names:end -->';

/**
 * The endpoints whose answer is a union of types or an object the docs describe inline, with
 * how the answer is named: by the request where the docs say it decides (`returnsBy`), by the
 * answer's shape for another union, by the catalog's name for an inline object.
 */
export function typedNamesTable(catalog: Catalog = bundledCatalog()): string {
  const base = (t: string) => t.trim().replace(/\[\]$/, '');
  const inline = (t: string) => catalog.resources.get(base(t))?.inline === true;
  const rows: string[] = [];
  for (const e of catalog.endpoints) {
    const returns = e.returns;
    if (!returns) continue;
    const alternatives = returns.split('|').map((t) => t.trim());
    if (alternatives.length === 1 && !inline(returns)) continue;
    let how: string;
    if (e.returnsBy) {
      const cases = e.returnsBy.cases.map((c) => {
        const when = c.when.present
          ? `\`${c.when.param}\` sent`
          : c.when.in
            ? `\`${c.when.param}\` one of ${c.when.in.join(', ')}`
            : `\`${c.when.param}\` not one of ${(c.when.notIn ?? []).join(', ')}`;
        return `${when}: \`${c.returns}\``;
      });
      how = `by the request: ${cases.join('; ')}; otherwise \`${e.returnsBy.otherwise}\` (${e.source.doc}, ${e.source.section}: "${e.returnsBy.text}")`;
    } else if (alternatives.length > 1) how = "by the answer's shape: the first alternative it fits";
    else {
      const resource = catalog.resources.get(base(returns));
      how = `an object described in the endpoint's text (${resource?.source.doc ?? e.source.doc}, ${resource?.source.section ?? e.source.section}), named by the catalog: ${resource?.fields.map((f) => f.name).join(', ') ?? ''}`;
    }
    const paths = e.paths.map((p) => `\`${e.method} ${p.template}\``).join('<br>');
    // A pipe inside a table cell is escaped, in code too.
    rows.push(`| \`${e.id}\` | ${paths} | \`${returns.replace(/\|/g, '\\|')}\` | ${how} |`);
  }
  return [
    TYPED_START,
    '| endpoint | paths | documented type | how an answer is named |',
    '|---|---|---|---|',
    ...rows,
    TYPED_END,
  ].join('\n');
}

/** docs/sending.md with its list written anew; undefined when it has no markers. */
export function sendingWithTypedNames(text: string): string | undefined {
  const start = text.indexOf(TYPED_START);
  const end = text.indexOf(TYPED_END, start);
  if (start === -1 || end === -1) return undefined;
  return text.slice(0, start) + typedNamesTable() + text.slice(end + TYPED_END.length);
}

export const MOCK_START = '<!-- mock-variables:start -->';
export const MOCK_END = '<!-- mock-variables:end -->';

/** docs/mock.md's table of the variables a mock run offers, markers included. */
export function mockVariablesTable(): string {
  const rows = mockVariables(bundledCatalog(), defaultSeed()).map(
    (v) => `| \`{{${v.name}}}\` | ${v.value} | \`${v.table}\` |`,
  );
  return [MOCK_START, "| variable | value | from the seed's |", '|---|---|---|', ...rows, MOCK_END].join('\n');
}

/** docs/mock.md with its table of variables written anew; undefined when it has no markers. */
export function mockPageWithVariables(page: string): string | undefined {
  const start = page.indexOf(MOCK_START);
  const end = page.indexOf(MOCK_END, start);
  if (start === -1 || end === -1) return undefined;
  return page.slice(0, start) + mockVariablesTable() + page.slice(end + MOCK_END.length);
}

if (process.argv[1] === import.meta.filename) {
  const sendingPath = join(ROOT, 'docs', 'sending.md');
  const sending = sendingWithTypedNames(readFileSync(sendingPath, 'utf8'));
  if (sending === undefined) {
    console.error(`docs/sending.md has no ${TYPED_START} ... ${TYPED_END}`);
    process.exitCode = 1;
  } else writeFileSync(sendingPath, sending);
  const mockPath = join(ROOT, 'docs', 'mock.md');
  const mockPage = mockPageWithVariables(readFileSync(mockPath, 'utf8'));
  if (mockPage === undefined) {
    console.error(`docs/mock.md has no ${MOCK_START} ... ${MOCK_END}`);
    process.exitCode = 1;
  } else writeFileSync(mockPath, mockPage);
  writeFileSync(join(ROOT, 'docs', 'codes.md'), codesPage());
  const readmePath = join(ROOT, 'README.md');
  const readme = readmeWithTable(readFileSync(readmePath, 'utf8'));
  if (readme === undefined) {
    console.error(`README.md has no ${START} ... ${END}: put them where the table of codes goes`);
    process.exitCode = 1;
  } else writeFileSync(readmePath, readme);
}
