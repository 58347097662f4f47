/**
 * Annotated fixtures (rust-analyzer style): each test/fixtures/diagnostics/*.lpreq states the
 * diagnostics it expects on comment lines under the line they concern:
 *
 *     module_item[type] = Video
 *     #                   ^^^^^ error invalid-enum
 *
 * The carets give the start column and length on the line above (the nearest line that is not
 * an annotation); a single caret compares only the start, and `#^` stands for column 1 (for
 * diagnostics about the whole request line). Error and warning diagnostics must match exactly, in any order.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { sharedChecker, ROOT } from '../helpers';
import { LineIndex } from '../../server/src/core/index';
import { environmentScopes, loadEnvironmentFiles } from '../../server/src/node/environments';

const dir = join(ROOT, 'test', 'fixtures', 'diagnostics');
/** One fixture a rule kind, named by the kind (`required.lpreq`). */
const rulesDir = join(ROOT, 'test', 'fixtures', 'rules');
const ANNOTATION = /^(\s*#\s*?)(\^+)\s+(error|warning|info)\s+([a-z-]+)\s*$/;

interface Expected {
  line: number;
  column: number;
  length: number;
  severity: string;
  code: string;
}

function expectations(text: string): Expected[] {
  const lines = text.split(/\r?\n/);
  const out: Expected[] = [];
  let target = -1;
  lines.forEach((line, i) => {
    const m = ANNOTATION.exec(line);
    if (!m) {
      target = i;
      return;
    }
    // `#^` marks a diagnostic that starts at column 1 (a caret cannot stand under the '#').
    const atStart = m[1] === '#' && m[2].length === 1;
    out.push({
      line: target + 1,
      column: atStart ? 1 : m[1].length + 1,
      length: m[2].length,
      severity: m[3],
      code: m[4],
    });
  });
  return out;
}

/** The fixtures of a folder, and of the folders in it (a fixture that needs environment files of its own, `scopes/`). */
function fixturesIn(d: string): string[] {
  if (!existsSync(d)) return [];
  const entries = readdirSync(d, { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1));
  return entries.flatMap((e) =>
    e.isDirectory() ? fixturesIn(join(d, e.name)) : e.name.endsWith('.lpreq') ? [join(d, e.name)] : [],
  );
}

const fixtures = [dir, rulesDir].flatMap(fixturesIn);

for (const file of fixtures) {
  // The first fixtures keep their names; a rule kind's is `rules/<kind>.lpreq`.
  const name = file.startsWith(rulesDir) ? relative(join(ROOT, 'test', 'fixtures'), file) : relative(dir, file);
  test(`diagnostics fixture ${name}`, () => {
    const text = readFileSync(file, 'utf8');
    const env = loadEnvironmentFiles(dirname(file));
    const { diagnostics } = sharedChecker().checkText(text, {
      environments: env.environments,
      scopes: environmentScopes(env).scopes,
    });
    const index = new LineIndex(text);
    const found = diagnostics
      .filter((d) => d.severity !== 'info')
      .map((d) => {
        const s = index.at(d.start);
        const e = index.at(d.end);
        return {
          line: s.line,
          column: s.column,
          length: e.line === s.line ? e.column - s.column : -1,
          severity: d.severity,
          code: d.code,
        };
      });
    const wanted = expectations(text);
    const render = (
      x: { line: number; column: number; length: number; severity: string; code: string },
      exact: boolean,
    ) => `${x.line}:${x.column}${exact ? `+${x.length}` : ''} ${x.severity} ${x.code}`;
    const exactOf = (w: Expected) => w.length > 1;
    const foundRendered = found
      .map((f) => {
        const w = wanted.find((x) => x.line === f.line && x.column === f.column && x.code === f.code);
        return render(f, w ? exactOf(w) : true);
      })
      .sort();
    assert.deepEqual(foundRendered, wanted.map((w) => render(w, exactOf(w))).sort());
  });
}
