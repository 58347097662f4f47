/**
 * A scripted agent's work, the acceptance test of issue 31 (item 4), from nothing: search
 * "create a module item that requires a minimum score", describe the endpoint, write a
 * request with one mistake, check it, apply the returned fix, check again (clean), run it
 * against the mock with an assertion, type a response with an undocumented field. Once
 * through the SDK's own client over stdio, once through the MCP Inspector's command line
 * (`@modelcontextprotocol/inspector --cli`), each call a process of its own, as CI runs it;
 * both on loopback only.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tempDir } from '../helpers';
import { startMcp, textOf } from './mcpClient';

const QUESTION = 'create a module item that requires a minimum score';

/** The request an agent writes from the description, with one mistake (a value of the enum misspelled). */
function firstDraft(path: string): string {
  return [
    '### Require a minimum score on an assignment',
    '# @name requireScore',
    // The mock's seeded course, module and assignment (docs/mock.md); a path is sent to the environment's base_url, the mock's here.
    `POST ${path.replace('{course_id}', '42').replace('{module_id}', '5')}`,
    '',
    'module_item[type] = Assignment',
    'module_item[content_id] = 7',
    'module_item[completion_requirement][type] = min_scor',
    'module_item[completion_requirement][min_score] = 8',
    '?? status == 200',
    '?? body $.completion_requirement.type == min_score',
    '',
  ].join('\n');
}

type Edit = { start: number; end: number; newText: string };
interface Checked {
  errors: number;
  diagnostics: { code: string; fix?: { edits: Edit[] } }[];
}

function applyFix(text: string, edits: Edit[]): string {
  let out = text;
  for (const e of [...edits].sort((a, b) => b.start - a.start))
    out = out.slice(0, e.start) + e.newText + out.slice(e.end);
  return out;
}

/** A response of the real API with a field the docs do not have. */
const RECEIVED = {
  id: 31,
  module_id: 5,
  title: 'Essay',
  type: 'Assignment',
  content_id: 7,
  position: 1,
  published: true,
  grader_notes: 'x',
};

let workspace: string;
before(() => {
  workspace = tempDir('mcp-agent');
  mkdirSync(join(workspace, '.git'));
});

test('a scripted agent through the SDK client: search, describe, check, fix, check, run against the mock, type', async () => {
  const mcp = await startMcp(workspace);
  try {
    const found = await mcp.call('search_endpoints', { query: QUESTION, limit: 3 });
    const top = (found.structuredContent as { endpoints: { id: string; method: string; path: string }[] }).endpoints[0];
    assert.equal(top.id, 'module_items.create');

    const described = await mcp.call('describe_endpoint', { method: top.method, path: top.path });
    const minScore = (
      described.structuredContent as { parameters: { name: string; rules?: string[] }[] }
    ).parameters.find((p) => p.name === 'module_item[completion_requirement][min_score]');
    assert.ok(
      minScore?.rules?.some((r) => /min_score/.test(r)),
      'the docs say when min_score is required',
    );

    const draft = firstDraft(top.path);
    const checked = (await mcp.call('check_request', { text: draft })).structuredContent as unknown as Checked;
    assert.equal(checked.errors, 1);
    assert.equal(checked.diagnostics[0].code, 'invalid-enum');
    const fixed = applyFix(draft, checked.diagnostics[0].fix!.edits);
    assert.match(fixed, /\[type\] = min_score\n/);
    const again = (await mcp.call('check_request', { text: fixed })).structuredContent as unknown as Checked;
    assert.deepEqual(again.diagnostics, []);

    // The agent writes the file with its own tools; lpreq sends it to the mock.
    writeFileSync(join(workspace, 'require-score.lpreq'), fixed);
    const sent = await mcp.call('send_request', { file: 'require-score.lpreq' });
    const s = sent.structuredContent as {
      target: string;
      passed: boolean;
      assertions: { text: string; passed: boolean }[];
    };
    assert.equal(s.target, 'mock');
    assert.equal(s.passed, true, textOf(sent));
    assert.deepEqual(
      s.assertions.map((a) => a.passed),
      [true, true],
    );

    const typed = await mcp.call('type_response', { method: top.method, path: top.path, status: 200, body: RECEIVED });
    const issues = (typed.structuredContent as { resource: string; issues: { path: string; code: string }[] }).issues;
    assert.deepEqual(
      issues.map((i) => [i.path, i.code]),
      [['$.grader_notes', 'undocumented-field']],
    );
  } finally {
    await mcp.close();
  }
});

/** One call through the Inspector's command line: a process that starts the server, calls, prints JSON. */
function inspect(method: string, tool?: string, args: Record<string, string> = {}): Record<string, unknown> {
  const argv = [
    join(ROOT, 'node_modules', '@modelcontextprotocol', 'inspector', 'cli', 'build', 'cli.js'),
    '--cli',
    process.execPath,
    join(ROOT, 'bin', 'lpreq.js'),
    'mcp',
    '--root',
    workspace,
    '--method',
    method,
    ...(tool ? ['--tool-name', tool] : []),
    ...Object.entries(args).flatMap(([k, v]) => ['--tool-arg', `${k}=${v}`]),
  ];
  const run = spawnSync(process.execPath, argv, {
    cwd: workspace,
    encoding: 'utf8',
    timeout: 60_000,
    env: { PATH: process.env.PATH ?? '', HOME: workspace },
  });
  assert.equal(run.status, 0, `${tool ?? method}: ${run.stderr}`);
  const json = run.stdout.slice(run.stdout.indexOf('{'));
  return JSON.parse(json) as Record<string, unknown>;
}

test('the same steps through the MCP Inspector command line', () => {
  const listed = inspect('tools/list') as { tools: { name: string }[] };
  assert.ok(listed.tools.some((t) => t.name === 'send_request'));
  const found = inspect('tools/call', 'search_endpoints', { query: QUESTION, limit: '3' });
  const top = (found.structuredContent as { endpoints: { id: string; method: string; path: string }[] }).endpoints[0];
  assert.equal(top.id, 'module_items.create');
  const described = inspect('tools/call', 'describe_endpoint', { method: top.method, path: top.path });
  assert.equal((described.structuredContent as { id: string }).id, 'module_items.create');
  const draft = firstDraft(top.path);
  const checked = inspect('tools/call', 'check_request', { text: draft }).structuredContent as unknown as Checked;
  assert.equal(checked.diagnostics[0].code, 'invalid-enum');
  const fixed = applyFix(draft, checked.diagnostics[0].fix!.edits);
  const again = inspect('tools/call', 'check_request', { text: fixed }).structuredContent as unknown as Checked;
  assert.deepEqual(again.diagnostics, []);
  writeFileSync(join(workspace, 'require-score-cli.lpreq'), fixed);
  const sent = inspect('tools/call', 'send_request', { file: 'require-score-cli.lpreq' });
  assert.equal((sent.structuredContent as { passed: boolean }).passed, true, JSON.stringify(sent));
  const typed = inspect('tools/call', 'type_response', {
    method: top.method,
    path: top.path,
    status: '200',
    body: JSON.stringify(RECEIVED),
  });
  assert.deepEqual(
    (typed.structuredContent as { issues: { code: string }[] }).issues.map((i) => i.code),
    ['undocumented-field'],
  );
});
