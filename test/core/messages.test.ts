/**
 * Diagnostics a person reads at a glance (issue 29): every message of every fixture (the
 * annotated ones, the rules', the contract's conformance examples, the assertion lines of
 * fixtures/assertions/syntax.json) is one sentence of at most 120 characters; the longer text
 * goes to `related` (relatedInformation in an editor, `detail` in `lpreq check`'s JSON). The
 * codes and ranges are the fixtures' own annotations, checked unchanged by diagnostics.test.ts
 * and conformance.test.ts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, SHARED, runCli, sharedChecker } from '../helpers';

export const MAX_MESSAGE = 120;

/** Why a message is not one short sentence, or undefined when it is. */
export function messageProblem(message: string): string | undefined {
  if (message.length > MAX_MESSAGE) return `${message.length} characters`;
  if (/[\r\n]/.test(message)) return 'more than one line';
  // Quoted text (a value, a name, a path) is the user's or the docs': it is not read for sentences.
  const bare = message.replace(/'[^']*'|"[^"]*"|`[^`]*`|\{\{[^}]*\}\}|\?\?/g, 'x');
  if (/[.!?;]\s+\S/.test(bare)) return 'more than one sentence';
  if (/\(\s*$|^\s*\)/.test(bare)) return 'a broken parenthesis';
  return undefined;
}

const FIXTURE_FOLDERS = [join(ROOT, 'test', 'fixtures'), join(SHARED, 'conformance'), join(ROOT, 'examples')];

test('every diagnostic message of the fixtures, the conformance examples and the examples is one sentence of at most 120 characters', async () => {
  const problems: string[] = [];
  let count = 0;
  for (const folder of FIXTURE_FOLDERS) {
    const { code, stdout, stderr } = await runCli(['check', '--format', 'json', folder], { cwd: ROOT });
    assert.ok(code === 0 || code === 1, stderr);
    for (const d of JSON.parse(stdout) as { file: string; line: number; code: string; message: string }[]) {
      count++;
      const problem = messageProblem(d.message);
      if (problem) problems.push(`${d.file}:${d.line} ${d.code} (${problem}): ${d.message}`);
    }
  }
  assert.ok(count > 250, `${count} diagnostics`);
  assert.deepEqual(problems, []);
});

test('the invalid assertion lines of fixtures/assertions/syntax.json give short one-sentence messages', () => {
  const cases = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/assertions/syntax.json'), 'utf8')) as {
    invalid: { line: string }[];
  };
  const problems: string[] = [];
  for (const { line } of cases.invalid) {
    for (const d of sharedChecker().diagnose(`GET /api/v1/courses/1/modules/2\n${line}\n`)) {
      const problem = messageProblem(d.message);
      if (problem) problems.push(`${JSON.stringify(line)} ${d.code} (${problem}): ${d.message}`);
    }
  }
  assert.deepEqual(problems, []);
});

test('lpreq check --format text: one line per diagnostic, with the message of the JSON output', async () => {
  for (const folder of FIXTURE_FOLDERS.slice(0, 2)) {
    const json = JSON.parse((await runCli(['check', '--format', 'json', folder], { cwd: ROOT })).stdout) as {
      file: string;
      line: number;
      column: number;
      message: string;
    }[];
    const text = (await runCli(['check', '--format', 'text', folder], { cwd: ROOT })).stdout.trimEnd().split('\n');
    // The last line is the summary.
    assert.equal(text.length, json.length + 1);
    json.forEach((d, i) => {
      assert.ok(text[i].startsWith(`${d.file}:${d.line}:${d.column}: `), text[i]);
      assert.ok(text[i].endsWith(`: ${d.message}`), `${text[i]}\n${d.message}`);
    });
  }
});

test('the check of a message finds what it should', () => {
  assert.equal(
    messageProblem("module_item[type] 'Asignment' is not a documented value: did you mean Assignment?"),
    undefined,
  );
  assert.equal(messageProblem("'e.g. this' is quoted"), undefined);
  assert.equal(messageProblem('x is required. Add it?'), 'more than one sentence');
  assert.equal(messageProblem('one; two'), 'more than one sentence');
  assert.equal(messageProblem('x'.repeat(121)), '121 characters');
});
