/**
 * `lpreq mcp` through the SDK's own client over stdio (issue 31): every tool with valid input
 * (its answer held to its outputSchema), each kind of bad input answered as a tool error
 * that names the argument (missing, wrong type, unknown endpoint, a path outside the
 * workspace, prototype names such as `__proto__`), the catalog as resources, the prompts,
 * and malformed messages answered plainly, the server going on.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../helpers';
import { json, startServer, type TestServer } from '../sender/server';
import { startMcp, textOf, type McpSession } from './mcpClient';
import { makeWorkspace } from './mcpWorkspace';

let mcp: McpSession;
let root: string;
let instance: TestServer;

before(async () => {
  // The dev and staging environments' instance: a list of 2,000 modules for any request.
  const modules = Array.from({ length: 2000 }, (_, i) => ({ id: i + 1, name: `Week ${i + 1}`, position: i + 1 }));
  instance = await startServer((req, res) => json(res, 200, req.method === 'GET' ? modules : modules[0]));
  root = makeWorkspace(instance.origin);
  writeFileSync(join(root, 'requests', 'list.lpreq'), 'GET {{base_url}}/api/v1/courses/{{course_id}}/modules\n');
  writeFileSync(join(root, 'requests', 'notes.txt'), 'not a request file\n');
  mkdirSync(join(root, 'empty'));
  mcp = await startMcp(root);
});
after(async () => {
  await mcp.close();
  await instance.close();
});

/** A tool error, whose text names the argument. */
async function refused(name: string, args: Record<string, unknown>, argument: string | RegExp): Promise<string> {
  const result = await mcp.call(name, args);
  assert.equal(result.isError, true, `${name} ${JSON.stringify(args)} should be a tool error: ${textOf(result)}`);
  const text = textOf(result);
  if (typeof argument === 'string') assert.match(text, new RegExp(`\\b${argument.replace(/[[\]]/g, '\\$&')}\\b`), text);
  else assert.match(text, argument);
  return text;
}

test('the tools, each with a description and input and output schemas', () => {
  assert.deepEqual(
    [...mcp.tools.keys()].sort(),
    [
      'check_file',
      'check_request',
      'describe_endpoint',
      'describe_resource',
      'run_tests',
      'search_endpoints',
      'send_request',
      'type_response',
    ].sort(),
  );
  for (const tool of mcp.tools.values()) {
    assert.ok(tool.description && tool.description.length > 20, tool.name);
    assert.equal(tool.inputSchema.type, 'object', tool.name);
    assert.equal(tool.outputSchema?.type, 'object', tool.name);
  }
});

test('search_endpoints: ranked endpoints; bad input is a tool error naming the argument', async () => {
  const r = await mcp.call('search_endpoints', { query: 'add a quiz to a module', limit: 3 });
  const found = r.structuredContent as { endpoints: { id: string }[] };
  assert.equal(found.endpoints.length, 3);
  assert.equal(found.endpoints[0].id, 'module_items.create');
  assert.match(textOf(r), /POST \/api\/v1\/courses\/\{course_id\}\/modules\/\{module_id\}\/items/);
  await refused('search_endpoints', {}, 'query');
  await refused('search_endpoints', { query: 42 }, 'query');
  await refused('search_endpoints', { query: 'modules', limit: 0 }, 'limit');
  await refused('search_endpoints', { query: 'x'.repeat(501) }, 'query');
  const none = await mcp.call('search_endpoints', { query: '__proto__ constructor' });
  assert.deepEqual((none.structuredContent as { endpoints: unknown[] }).endpoints, []);
});

test('describe_endpoint: parameters with their rules, the resource, paging, scope and section', async () => {
  const r = await mcp.call('describe_endpoint', { method: 'post', path: '/api/v1/courses/42/modules/7/items' });
  const d = r.structuredContent as {
    id: string;
    path: string;
    scope: string;
    parameters: {
      name: string;
      required: boolean;
      conditionallyRequired?: boolean;
      enum?: string[];
      rules?: string[];
    }[];
    returns: { resource: string; fields: string[] };
    section: { document: string; heading: string };
  };
  assert.equal(d.id, 'module_items.create');
  assert.equal(d.path, '/api/v1/courses/{course_id}/modules/{module_id}/items');
  assert.equal(d.scope, 'url:POST|/api/v1/courses/{course_id}/modules/{module_id}/items');
  const contentId = d.parameters.find((p) => p.name === 'module_item[content_id]');
  assert.equal(contentId?.conditionallyRequired, true);
  assert.ok(contentId?.rules?.some((t) => /ExternalUrl/.test(t)));
  assert.ok(d.parameters.find((p) => p.name === 'module_item[type]')?.enum?.includes('Assignment'));
  assert.equal(d.returns.resource, 'ModuleItem');
  assert.ok(d.returns.fields.some((f) => f.startsWith('content_id')));
  assert.deepEqual(d.section, { document: 'A', heading: 'Modules' });
  const list = await mcp.call('describe_endpoint', { method: 'GET', path: '/api/v1/courses/{course}/modules' });
  assert.equal((list.structuredContent as { paging?: string }).paging, 'link');
  await refused('describe_endpoint', { method: 'GET' }, 'path');
  await refused('describe_endpoint', { path: '/api/v1/courses' }, 'method');
  await refused('describe_endpoint', { method: 'GET', path: ['/api/v1/courses'] }, 'path');
  const unknown = await refused('describe_endpoint', { method: 'GET', path: '/api/v1/coursez/1/modules' }, 'path');
  assert.match(unknown, /did you mean \/api\/v1\/courses\/\{course_id\}\/modules/);
  await refused('describe_endpoint', { method: 'PATCH', path: '/api/v1/courses/1/modules' }, 'method');
  await refused('describe_endpoint', { method: 'GET', path: '/api/v1/__proto__' }, 'path');
  await refused('describe_endpoint', { method: 'GET', path: 'courses' }, 'path');
});

test('describe_resource: fields, enums, nullability and where it is returned; any case; unknown names', async () => {
  const r = await mcp.call('describe_resource', { name: 'moduleitem' });
  const d = r.structuredContent as {
    name: string;
    fields: { name: string; enum?: string[] }[];
    returnedBy: { id: string }[];
  };
  assert.equal(d.name, 'ModuleItem');
  assert.ok(d.fields.find((f) => f.name === 'type')?.enum?.includes('Quiz'));
  assert.ok(d.returnedBy.some((e) => e.id === 'module_items.create'));
  const wrapped = await mcp.call('describe_resource', { name: 'GradingPeriod' });
  assert.ok(
    (wrapped.structuredContent as { returnedBy: { id: string }[] }).returnedBy.some(
      (e) => e.id === 'grading_periods.list',
    ),
  );
  for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty'])
    await refused('describe_resource', { name }, 'name');
  await refused('describe_resource', { name: 'Modul' }, /did you mean Module\b/);
  await refused('describe_resource', {}, 'name');
});

test("check_request: a .lpreq text or an agent's request by its parts; the fix as edits of the text", async () => {
  const text =
    'POST /api/v1/courses/1/modules/2/items\n\nmodule_item[type] = Assignment\nmodule_item[content_id] = 3\nmodule_item[completion_requirement][type] = must_sumbit\n';
  const r = await mcp.call('check_request', { text });
  const d = r.structuredContent as {
    errors: number;
    diagnostics: { code: string; line: number; fix?: { edits: { start: number; end: number; newText: string }[] } }[];
    endpoints: string[];
  };
  assert.equal(d.errors, 1);
  assert.equal(d.diagnostics[0].code, 'invalid-enum');
  assert.equal(d.diagnostics[0].line, 5);
  assert.deepEqual(d.endpoints, ['module_items.create']);
  const edit = d.diagnostics[0].fix!.edits[0];
  const fixed = text.slice(0, edit.start) + edit.newText + text.slice(edit.end);
  const again = await mcp.call('check_request', { text: fixed });
  assert.equal((again.structuredContent as { diagnostics: unknown[] }).diagnostics.length, 0);

  const parts = await mcp.call('check_request', {
    method: 'POST',
    url: 'https://lms.example.edu/api/v1/courses/1/modules/2/items',
    params: { 'module_item[type]': 'Assignment', 'module_item[completion_requirement][type]': 'must_submit' },
  });
  const p = parts.structuredContent as { text: string; diagnostics: { code: string }[] };
  assert.match(
    p.text,
    /^POST https:\/\/lms\.example\.edu\/api\/v1\/courses\/1\/modules\/2\/items\n\nmodule_item\[type\] = Assignment\n/,
  );
  assert.deepEqual(
    p.diagnostics.map((x) => x.code),
    ['missing-required'],
  );
  const json = await mcp.call('check_request', {
    method: 'POST',
    url: '/api/lti/subscriptions',
    json: {
      subscription: {
        ContextId: '1',
        ContextType: 'course',
        EventTypes: ['submission_created'],
        Format: 'live-event',
        TransportMetadata: { Url: 'https://example.com/hook' },
        TransportType: 'https',
      },
    },
  });
  assert.equal((json.structuredContent as { endpoints: string[] }).endpoints[0], 'webhook_subscriptions.create');
  const arrays = await mcp.call('check_request', {
    method: 'GET',
    url: '/api/v1/courses/1/modules',
    params: { 'include[]': ['items', 'itemz'] },
  });
  assert.deepEqual(
    (arrays.structuredContent as { diagnostics: { code: string }[] }).diagnostics.map((x) => x.code),
    ['invalid-enum'],
  );
  // Names that are prototype names are parameters like any other (unknown to the docs).
  const proto = await mcp.call('check_request', {
    method: 'GET',
    url: '/api/v1/courses/1/modules',
    params: JSON.parse('{"__proto__": "x", "constructor": "y"}') as unknown,
  });
  assert.ok(!proto.isError, textOf(proto));
  assert.deepEqual(
    (proto.structuredContent as { diagnostics: { code: string }[] }).diagnostics.map((x) => x.code).sort(),
    ['unknown-parameter', 'unknown-parameter'],
  );

  await refused('check_request', {}, 'text');
  await refused('check_request', { text: 7 }, 'text');
  await refused('check_request', { method: 'POST' }, 'url');
  await refused('check_request', { text: 'GET /x', method: 'GET', url: '/y' }, 'text');
  await refused('check_request', { method: 'FETCH', url: '/api/v1/courses' }, 'method');
  await refused('check_request', { method: 'GET', url: '/api/v1/courses', params: { a: 'b\nc' } }, 'params');
  await refused('check_request', { method: 'GET', url: '/api/v1/courses', params: { a: { b: 1 } } }, 'params');
  await refused(
    'check_request',
    { text: 'GET /api/v1/courses\n', environment: 'prod' },
    /environment: no environment 'prod'; the environments are dev, staging/,
  );
  await refused('check_request', { text: 'GET /api/v1/courses\n', environment: '__proto__' }, 'environment');
});

test('check_file: a file of the workspace, with its environments; nothing outside the workspace is read', async () => {
  const r = await mcp.call('check_file', { path: 'requests/mistake.lpreq', environment: 'dev' });
  const d = r.structuredContent as { file: string; diagnostics: { code: string }[] };
  assert.equal(d.file, 'requests/mistake.lpreq');
  assert.deepEqual(
    d.diagnostics.map((x) => x.code),
    ['invalid-enum'],
  );
  const clean = await mcp.call('check_file', { path: join(root, 'requests', 'modules.lpreq'), environment: 'staging' });
  assert.deepEqual((clean.structuredContent as { diagnostics: unknown[] }).diagnostics, []);
  await refused('check_file', { path: '../outside.lpreq' }, /path: \.\.\/outside\.lpreq is outside the workspace/);
  await refused('check_file', { path: '/etc/passwd' }, /path: \/etc\/passwd is outside the workspace/);
  await refused('check_file', { path: 'requests/linked.lpreq' }, /path: .*outside the workspace/);
  await refused('check_file', { path: 'requests/none.lpreq' }, 'path');
  await refused('check_file', { path: '__proto__' }, 'path');
  await refused('check_file', { path: 'requests' }, 'path');
  await refused('check_file', {}, 'path');
});

test('type_response: undocumented fields, wrong types, values outside an enum; error statuses by the docs', async () => {
  const r = await mcp.call('type_response', {
    method: 'GET',
    path: '/api/v1/courses/1/modules/2',
    status: 200,
    body: { id: 'one', name: 'Week 1', workflow_state: 'archived', colour: 'red' },
  });
  const d = r.structuredContent as { resource: string; issues: { path: string; code: string }[] };
  assert.equal(d.resource, 'Module');
  assert.deepEqual(d.issues.map((i) => `${i.path} ${i.code}`).sort(), [
    '$.colour undocumented-field',
    '$.id type-mismatch',
    '$.workflow_state unknown-enum-value',
  ]);
  const text = await mcp.call('type_response', {
    method: 'GET',
    path: '/api/v1/courses/1/modules',
    status: 200,
    body: '[{"id": 1, "extra": true}]',
  });
  assert.ok(
    (text.structuredContent as { issues: { code: string }[] }).issues.some((i) => i.code === 'undocumented-field'),
  );
  const error = await mcp.call('type_response', {
    method: 'DELETE',
    path: '/api/v1/folders/3',
    status: 400,
    body: { errors: [] },
  });
  assert.equal((error.structuredContent as { checked: boolean }).checked, false);
  await refused('type_response', { method: 'GET', path: '/api/v1/courses/1/modules/2', status: 200 }, 'body');
  await refused(
    'type_response',
    { method: 'GET', path: '/api/v1/courses/1/modules/2', status: '200', body: {} },
    'status',
  );
  await refused(
    'type_response',
    { method: 'GET', path: '/api/v1/courses/1/modules/2', status: 200, body: '{"id": ' },
    'body',
  );
  await refused('type_response', { method: 'GET', path: '/api/v1/nowhere', status: 200, body: {} }, 'path');
  const proto = await mcp.call('type_response', {
    method: 'GET',
    path: '/api/v1/courses/1/modules/2',
    status: 200,
    body: JSON.parse('{"__proto__": {"x": 1}, "constructor": 1}') as unknown,
  });
  assert.ok(
    (proto.structuredContent as { issues: { path: string }[] }).issues.some((i) => i.path.includes('constructor')),
  );
});

test('send_request: to the mock by default, its dependencies first, assertions evaluated, the response typed', async () => {
  const r = await mcp.call('send_request', { file: 'requests/modules.lpreq', name: 'addItem' });
  const d = r.structuredContent as {
    target: string;
    passed: boolean;
    status: number;
    assertions: { passed: boolean }[];
    dependencies: { name: string; ok: boolean }[];
    response: { resource: string; issues: unknown[]; url: string };
  };
  assert.equal(d.target, 'mock');
  assert.equal(d.passed, true, textOf(r));
  assert.equal(d.status, 200);
  assert.deepEqual(
    d.assertions.map((a) => a.passed),
    [true, true],
  );
  assert.deepEqual(
    d.dependencies.map((x) => [x.name, x.ok]),
    [['createModule', true]],
  );
  assert.equal(d.response.resource, 'ModuleItem');
  assert.match(d.response.url, /^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/courses\/\d+\/modules\/\d+\/items$/);
  assert.deepEqual(instance.received, [], "nothing went to the environments' instance");
  const byLine = await mcp.call('send_request', { file: 'requests/modules.lpreq', line: 4 });
  assert.equal((byLine.structuredContent as { name: string }).name, 'Create a module');
});

test('send_request: a response over the budget is cut to 20,000 characters with its size; select returns a part', async () => {
  const r = await mcp.call('send_request', { file: 'requests/list.lpreq', environment: 'dev' });
  const d = r.structuredContent as {
    target: string;
    response: { body: string; cut: boolean; size: { characters: number; items: number } };
  };
  assert.equal(d.target, 'dev');
  assert.equal(d.response.cut, true);
  assert.equal(d.response.body.length, 20_000);
  assert.ok(d.response.size.characters > 20_000);
  assert.equal(d.response.size.items, 2000);
  assert.match(textOf(r), /2000 items \(cut to 20,000: use select for a part\)/);
  const one = await mcp.call('send_request', {
    file: 'requests/list.lpreq',
    environment: 'dev',
    select: '$[1999].name',
  });
  const o = (one.structuredContent as { response: { body: string; selected: number; cut: boolean } }).response;
  assert.deepEqual([JSON.parse(o.body), o.selected, o.cut], ['Week 2000', 1, false]);
  const ids = await mcp.call('send_request', { file: 'requests/list.lpreq', environment: 'dev', select: '$[*].id' });
  assert.equal(
    (JSON.parse((ids.structuredContent as { response: { body: string } }).response.body) as number[]).length,
    2000,
  );
});

test('send_request: a protected environment only when confirmed by its name', async () => {
  const before = instance.received.length;
  const refusal = await refused(
    'send_request',
    { file: 'requests/modules.lpreq', name: 'createModule', environment: 'staging' },
    'confirm',
  );
  assert.match(refusal, /staging is a protected environment: nothing was sent; call again with confirm: "staging"/);
  await refused(
    'send_request',
    { file: 'requests/modules.lpreq', name: 'createModule', environment: 'staging', confirm: 'dev' },
    'confirm',
  );
  assert.equal(instance.received.length, before, 'nothing was sent');
  const sent = await mcp.call('send_request', {
    file: 'requests/modules.lpreq',
    name: 'createModule',
    environment: 'staging',
    confirm: 'staging',
  });
  assert.equal((sent.structuredContent as { status: number }).status, 200, textOf(sent));
  assert.equal(instance.received.length, before + 1);
});

test('send_request and run_tests: each kind of bad input is a tool error naming the argument', async () => {
  const file = 'requests/modules.lpreq';
  await refused('send_request', {}, 'file');
  await refused('send_request', { file: 12 }, 'file');
  await refused('send_request', { file: '../x.lpreq' }, /file: \.\.\/x\.lpreq is outside the workspace/);
  await refused('send_request', { file: 'requests/linked.lpreq' }, /file: .*outside the workspace/);
  await refused('send_request', { file: 'requests/none.lpreq' }, 'file');
  await refused(
    'send_request',
    { file },
    /name: the file has 2 requests: give name or line \(its named requests: createModule, addItem\)/,
  );
  await refused('send_request', { file, name: 'createModule', line: 3 }, 'name');
  await refused('send_request', { file, line: 200 }, 'line');
  await refused('send_request', { file, line: 0 }, 'line');
  for (const name of ['__proto__', 'constructor', 'nope']) await refused('send_request', { file, name }, 'name');
  for (const environment of ['prod', '__proto__', 'toString'])
    await refused('send_request', { file, name: 'createModule', environment }, 'environment');
  await refused('send_request', { file, name: 'createModule', answers: 'password' }, 'answers');
  await refused('send_request', { file, name: 'createModule', answers: { password: 3 } }, 'answers');
  const proto = await mcp.call('send_request', {
    file,
    name: 'createModule',
    answers: JSON.parse('{"__proto__": "x"}') as unknown,
  });
  assert.ok(!proto.isError, textOf(proto));
  await refused('send_request', { file, name: 'createModule', select: 'items[' }, 'select');
  await refused('run_tests', {}, 'path');
  await refused('run_tests', { path: '/etc' }, /path: \/etc is outside the workspace/);
  await refused('run_tests', { path: 'requests', mock: false }, 'environment');
  await refused('run_tests', { path: 'requests', environment: 'staging' }, 'confirm');
  await refused('run_tests', { path: 'requests', environment: '__proto__' }, 'environment');
  await refused('run_tests', { path: 'empty' }, /path: no \.lpreq file/);
  await refused('run_tests', { path: 'nowhere' }, 'path');
  await refused('run_tests', { path: 'requests', mock: 'yes' }, 'mock');
});

test('run_tests: a folder against the mock, as lpreq test runs it; an environment lends its variables', async () => {
  const r = await mcp.call('run_tests', { path: 'requests', grep: 'module' });
  const d = r.structuredContent as {
    target: string;
    passed: number;
    failed: number;
    files: { file: string; requests: { name: string; passed: boolean; failure?: { kind: string } }[] }[];
  };
  assert.equal(d.target, 'mock');
  // The link out of the workspace is not run.
  assert.deepEqual(
    d.files.map((f) => f.file),
    ['requests/list.lpreq', 'requests/mistake.lpreq', 'requests/modules.lpreq'],
  );
  const modules = d.files.find((f) => f.file === 'requests/modules.lpreq')!;
  assert.deepEqual(
    modules.requests.map((x) => x.passed),
    [true, true],
  );
  assert.equal(d.files.find((f) => f.file === 'requests/mistake.lpreq')?.requests[0].failure?.kind, 'invalid');
  const lent = await mcp.call('run_tests', { path: 'requests/modules.lpreq', mock: true, environment: 'dev' });
  assert.equal((lent.structuredContent as { target: string }).target, 'mock (variables of dev)');
  // dev's course_id, 7, over the mock's: the mock has no course 7.
  assert.equal((lent.structuredContent as { failed: number }).failed, 2, textOf(lent));
  assert.match(textOf(lent), /answered 404/);
  const real = await mcp.call('run_tests', { path: 'requests/list.lpreq', environment: 'dev' });
  assert.equal((real.structuredContent as { passed: number }).passed, 1, textOf(real));
});

test('the catalog as resources, two prompts', async () => {
  const listed = await mcp.client.listResources();
  assert.equal(listed.resources.filter((r) => r.uri.startsWith('lpreq://endpoints/')).length, 152);
  assert.ok(listed.resources.some((r) => r.uri === 'lpreq://resources/ModuleItem'));
  const templates = await mcp.client.listResourceTemplates();
  assert.deepEqual(templates.resourceTemplates.map((t) => t.uriTemplate).sort(), [
    'lpreq://endpoints/{method}/{+path}',
    'lpreq://resources/{name}',
  ]);
  const endpoint = await mcp.client.readResource({
    uri: 'lpreq://endpoints/POST/api/v1/courses/%7Bcourse_id%7D/modules/%7Bmodule_id%7D/items',
  });
  assert.equal(
    (JSON.parse((endpoint.contents[0] as { text: string }).text) as { id: string }).id,
    'module_items.create',
  );
  const concrete = await mcp.client.readResource({ uri: 'lpreq://endpoints/GET/api/v1/files/5' });
  assert.equal((JSON.parse((concrete.contents[0] as { text: string }).text) as { id: string }).id, 'files.show');
  const resource = await mcp.client.readResource({ uri: 'lpreq://resources/Module' });
  assert.equal((JSON.parse((resource.contents[0] as { text: string }).text) as { name: string }).name, 'Module');
  await assert.rejects(mcp.client.readResource({ uri: 'lpreq://resources/__proto__' }), /name: no documented resource/);
  const prompts = await mcp.client.listPrompts();
  assert.deepEqual(prompts.prompts.map((p) => p.name).sort(), ['explain_diagnostic', 'write_request']);
  const write = await mcp.client.getPrompt({ name: 'write_request', arguments: { task: 'add a quiz to a module' } });
  assert.match(JSON.stringify(write.messages), /add a quiz to a module/);
  const explain = await mcp.client.getPrompt({ name: 'explain_diagnostic', arguments: { code: 'missing-required' } });
  assert.match(JSON.stringify(explain.messages), /required parameter/i);
  const proto = await mcp.client.getPrompt({ name: 'explain_diagnostic', arguments: { code: '__proto__' } });
  assert.match(JSON.stringify(proto.messages), /not a code of lpreq/);
});

test('malformed and oversized messages are answered with an error, and the server goes on', async () => {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'lpreq.js'), 'mcp', '--root', root], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  let buffer = '';
  child.stdout.on('data', (d: Buffer) => {
    buffer += d.toString();
    for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
      lines.push(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
  });
  const answered = (n: number) =>
    new Promise<void>((resolve, reject) => {
      const timer = setInterval(() => {
        if (lines.length >= n) {
          clearInterval(timer);
          resolve();
        }
      }, 10);
      setTimeout(() => {
        clearInterval(timer);
        reject(new Error(`${lines.length} answers of ${n}: ${lines.join('\n')}`));
      }, 30_000);
    });
  child.stdin.write('{not json\n');
  await answered(1);
  // Over the limit of 16 MB, in pieces: dropped as it arrives.
  const piece = 'x'.repeat(1024 * 1024);
  child.stdin.write('{"jsonrpc":"2.0","id":5,"method":"ping","params":{"pad":"');
  for (let i = 0; i < 17; i++) child.stdin.write(piece);
  child.stdin.write('"}}\n');
  await answered(2);
  child.stdin.write(
    `${JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } } })}\n`,
  );
  await answered(3);
  // JSON 30,000 levels deep (a line a client's JSON.stringify could not even write): answered, the server going on.
  const deep = `${'{"a":'.repeat(30_000)}1${'}'.repeat(30_000)}`;
  child.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  child.stdin.write(
    `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"check_request","arguments":{"method":"POST","url":"/api/v1/courses/1/modules","json":${deep}}}}\n`,
  );
  child.stdin.write(
    `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"type_response","arguments":{"method":"GET","path":"/api/v1/courses/1/modules/2","status":200,"body":${deep}}}}\n`,
  );
  await answered(5);
  child.stdin.end();
  await new Promise((resolve) => child.on('exit', resolve));
  const [first, second, third] = lines.map(
    (l) => JSON.parse(l) as { id: unknown; error?: { code: number; message: string }; result?: unknown },
  );
  assert.equal(first.id, null);
  assert.equal(first.error?.code, -32700);
  assert.equal(second.id, null);
  assert.match(second.error?.message ?? '', /over 16777216 bytes/);
  assert.equal(third.id, 9);
  assert.ok(third.result);
  const [checked, typed] = lines
    .slice(3)
    .map((l) => JSON.parse(l) as { id: number; result: { isError?: boolean; content: { text: string }[] } });
  assert.equal(checked.id, 10);
  assert.equal(checked.result.isError, true);
  assert.match(checked.result.content[0].text, /^json: the body is nested too deeply/);
  assert.equal(typed.id, 11);
  assert.match(typed.result.content[0].text, /undocumented-field/);
});
