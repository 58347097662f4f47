/**
 * The tables the core keeps from one check to the next (the kinds of `{{expressions}}`, the
 * verdicts of assertion lines, the matcher's path shapes and base addresses) keep no document
 * alive. V8 makes a slice of a long string a view that keeps the whole string; a key, a
 * value or a message made of a slice of a document would keep that document, and an editor
 * checks a new version of a large document at every keystroke. Tables keep copies
 * (core/tableKey.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers';

/** What each document holds of its own (`N` is its number), before 1 MB of comments. */
const CASES: Record<string, string> = {
  'a variable': '@name_of_a_variable_N = 1\nGET /api/v1/courses/{{name_of_a_variable_N}}/modules\n',
  'a request reference':
    '# @name first\nGET /api/v1/courses/1/modules\n\n###\nGET /api/v1/courses/{{first.response.body.$[0].id_number_N}}/modules\n',
  'a base address':
    '@base_url = https://lms-number-N.example.edu/base/path\nGET {{base_url}}/api/v1/courses/1/modules\n',
  'a path segment': 'GET /api/v1/courses/segment-number-long-N/modules\n',
  'assertion lines':
    'GET /api/v1/courses/1/modules\n\n?? header x-request-id == request-number-N\n?? body $[*].name == module-number-N\n?? body $[*].nmae_N exists\n',
};

// In a process of its own, with the collector at hand: 40 documents of 1 MB checked by one
// checker and dropped; what the heap kept of them, in MB.
const CHILD = `
const L = require(${JSON.stringify(join(ROOT, 'dist', 'library.js'))});
const checker = L.defaultChecker();
const head = process.argv[1];
const filler = '\\n# ' + 'x'.repeat(98) + '\\n';
const check = (i) => checker.diagnose(head.replaceAll('N', String(i)) + filler.repeat(10000), { environments: {} });
check(-1);
global.gc();
const before = process.memoryUsage().heapUsed;
for (let i = 0; i < 40; i++) check(i);
global.gc();
process.stdout.write(String((process.memoryUsage().heapUsed - before) / 1024 / 1024));
`;

for (const [label, head] of Object.entries(CASES)) {
  test(`the checker keeps no document alive: ${label}`, () => {
    const r = spawnSync(process.execPath, ['--expose-gc', '-e', CHILD, head], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    const grownMb = Number(r.stdout);
    // 40 documents of 1 MB kept alive would be 40 MB; the tables' entries are a few kilobytes.
    assert.ok(grownMb < 8, `the heap grew by ${grownMb.toFixed(1)} MB`);
  });
}
