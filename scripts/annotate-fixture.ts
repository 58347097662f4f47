// Authoring aid: writes the checker's current error and warning diagnostics into a .lpreq
// file as annotations (`#   ^^^^ error code` under the line). Review the result before
// committing it as a fixture: the annotations are the expectation.
// Run: node --import tsx scripts/annotate-fixture.ts IN.lpreq OUT.lpreq
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { bundledCatalog } from '../server/src/catalogData';
import { Checker } from '../server/src/core/checker';
import { LineIndex } from '../server/src/core/positions';
import { loadEnvironmentFiles } from '../server/src/node/environments';

const [input, output] = process.argv.slice(2);
const text = readFileSync(input, 'utf8').replace(/^\s*#\s*\^+ .*\n/gm, '');
const env = loadEnvironmentFiles(dirname(output));
const { diagnostics } = new Checker(bundledCatalog()).checkText(text, { environments: env.environments });
const index = new LineIndex(text);
const byLine = new Map<number, string[]>();
for (const d of diagnostics.filter((x) => x.severity !== 'info')) {
  const s = index.at(d.start);
  const e = index.at(d.end);
  const length = e.line === s.line ? Math.max(1, e.column - s.column) : 1;
  // Annotations start with '#'; a diagnostic at column 1 is marked from column 2 with one caret
  // less, so every annotation keeps its comment sign.
  const col = Math.max(s.column, 2);
  const carets = '^'.repeat(s.column === 1 ? 1 : length);
  const line = `#${' '.repeat(col - 2)}${carets} ${d.severity} ${d.code}`;
  byLine.set(s.line, [...(byLine.get(s.line) ?? []), line]);
}
const lines = text.split('\n');
const out: string[] = [];
lines.forEach((l, i) => {
  out.push(l);
  for (const a of byLine.get(i + 1) ?? []) out.push(a);
});
writeFileSync(output, out.join('\n'));
