/**
 * No secret in any answer or log line of `lpreq mcp` (issue 31): the token of every
 * environment (the private file's), `LPREQ_TOKEN` and a secret prompt's answer, sent by
 * send_request and run_tests to a loopback server that echoes them back in every spelling
 * the scrubber knows (in the body, header values and names, a field of the wrong type and
 * undocumented keys, so typed issues quote them), and given as arguments to every tool and
 * prompt (errors quote arguments), never appear in what the server writes: every answer
 * (text and structured), every error, every resource and prompt, and standard error. Leaks
 * are looked for with the secret property's own decoder (test/leaks.ts), in any spelling.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { leaks, SPELLINGS, uEscape } from '../leaks';
import { startServer, type TestServer } from '../sender/server';
import { startMcp, type McpSession } from './mcpClient';
import { makeWorkspace, TOKENS } from './mcpWorkspace';

let echo: TestServer;
let mcp: McpSession;
let root: string;

before(async () => {
  echo = await startServer((req, res) => {
    const seen = [req.url, ...req.rawHeaders, req.body].join(' ');
    const spelled = Object.values(SPELLINGS).map((f) => f(seen));
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    spelled.forEach((s, i) => (headers[`x-echo-${i}`] = encodeURIComponent(s).slice(0, 4000)));
    for (const v of req.rawHeaders) if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,200}$/.test(v)) headers[`x-e-${v}`] = '1';
    const item: Record<string, unknown> = { id: seen, name: uEscape(seen), position: spelled };
    for (const s of spelled) item[s.slice(0, 300)] = s;
    res.writeHead(200, headers);
    res.end(JSON.stringify([item, { id: 1, name: spelled.join('|') }]));
  });
  root = makeWorkspace(echo.origin);
  writeFileSync(
    join(root, 'requests', 'echo.lpreq'),
    `### Echo
# @name echo
# @prompt password
GET {{base_url}}/api/v1/courses/{{course_id}}/modules?search_term={{password}}
X-Env-Token: {{token}}
X-Pass: {{password}}
?? status == 200
?? body $[0].name == {{token}}
`,
  );
  mcp = await startMcp(root, { LPREQ_TOKEN: TOKENS.process });
});
after(async () => {
  await mcp.close();
  await echo.close();
});

const SECRETS: [string, string][] = [
  ['the dev token', TOKENS.dev],
  ['the staging token', TOKENS.staging],
  ['LPREQ_TOKEN', TOKENS.process],
  ['a secret prompt answer', TOKENS.prompt],
];

async function asArguments(secrets: string[]): Promise<void> {
  for (const secret of secrets) {
    await mcp.call('describe_resource', { name: secret });
    await mcp.call('search_endpoints', { query: secret });
    await mcp.call('describe_endpoint', { method: 'GET', path: `/api/v1/courses/${secret}/modules` });
    await mcp.call('describe_endpoint', { method: secret.slice(0, 16), path: '/api/v1/courses' });
    await mcp.call('check_request', {
      method: 'GET',
      url: `/api/v1/courses/1/modules?include[]=${secret}`,
      params: { [secret]: secret },
    });
    await mcp.call('check_request', {
      text: `GET /api/v1/courses/1/modules\nAuthorization: Bearer ${secret}\n\ninclude[] = ${secret}\n`,
    });
    await mcp.call('type_response', {
      method: 'GET',
      path: '/api/v1/courses/1/modules/2',
      status: 200,
      body: { id: secret, [secret]: 1, workflow_state: secret },
    });
    await mcp.call('check_file', { path: `requests/${secret}.lpreq` });
    await mcp.call('send_request', { file: 'requests/echo.lpreq', environment: secret });
    await mcp.client
      .getPrompt({ name: 'explain_diagnostic', arguments: { code: secret, message: secret } })
      .then((p) => mcp.record(p));
    await mcp.client.readResource({ uri: `lpreq://resources/${secret}` }).then(
      (r) => mcp.record(r),
      (e: Error) => mcp.record(e.message),
    );
  }
}

test('no token of any environment, LPREQ_TOKEN or secret prompt answer in any answer or log line, in any spelling', async () => {
  const answers = { password: TOKENS.prompt };
  // The secrets the server knows from the start as arguments, before any file is read: errors and echoes quote them.
  await asArguments([TOKENS.dev, TOKENS.staging, TOKENS.process]);
  // Sent to the echo, which writes them back in every spelling.
  const sent = await mcp.call('send_request', {
    file: 'requests/echo.lpreq',
    name: 'echo',
    environment: 'dev',
    answers,
  });
  assert.ok(!sent.isError, JSON.stringify(sent));
  assert.equal((sent.structuredContent as { status: number }).status, 200);
  assert.ok(
    echo.received.some((r) => r.rawHeaders.includes(TOKENS.dev)),
    'the dev token went to the echo',
  );
  assert.ok(
    echo.received.some((r) => r.rawHeaders.includes(`Bearer ${TOKENS.process}`)),
    'LPREQ_TOKEN went to the echo',
  );
  await mcp.call('send_request', {
    file: 'requests/echo.lpreq',
    name: 'echo',
    environment: 'dev',
    answers,
    select: '$[0]',
  });
  await mcp.call('send_request', {
    file: 'requests/echo.lpreq',
    name: 'echo',
    environment: 'dev',
    answers,
    select: '$[*].position[*]',
  });
  await mcp.call('send_request', {
    file: 'requests/echo.lpreq',
    name: 'echo',
    environment: 'staging',
    confirm: 'staging',
    answers,
  });
  assert.ok(
    echo.received.some((r) => r.rawHeaders.includes(TOKENS.staging)),
    'the staging token went to the echo',
  );
  await mcp.call('run_tests', { path: 'requests', environment: 'dev', answers });
  await mcp.call('run_tests', { path: 'requests/echo.lpreq', answers });
  await mcp.call('check_file', { path: 'requests/echo.lpreq', environment: 'dev' });
  await mcp.call('send_request', { file: 'requests/echo.lpreq', name: 'echo', environment: 'dev' });

  // And every secret, the prompt's answer once given, as arguments again.
  await asArguments(SECRETS.map(([, secret]) => secret));

  const written = mcp.written();
  assert.ok(written.length > 10_000, 'the answers were kept');
  for (const [what, secret] of SECRETS) assert.ok(!leaks(written, secret), `${what} is in an answer or a log line`);
});
