/**
 * `lpreq mcp` and an environment that signs in (issue 33's Security.Auth, issue 31's host): the
 * MCP server is a host of the one send session, so a `send_request` to `dev`, which signs in with
 * client credentials, carries the sign-in's token as `lpreq send` would, and no token, refresh
 * token or client secret appears in any answer or in the log. An authorization code sign-in
 * opens no browser for an agent: it is refused with what to do instead.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';
import { json, startServer, type TestServer } from '../sender/server';
import { CLIENT_ID, CLIENT_SECRET, startAuthServer, writeEnvironments, type AuthServer } from './authServer';
import { startMcp, textOf, type McpSession } from './mcpClient';

let auth: AuthServer;
let api: TestServer;
let mcp: McpSession;

before(async () => {
  auth = await startAuthServer();
  api = await startServer((req, res) => {
    const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    if (!auth.issued.includes(bearer)) return json(res, 401, { errors: [{ message: 'Invalid access token.' }] });
    return json(res, 200, [{ id: 1, name: 'Week 1', position: 1 }]);
  });
  const root = tempDir('mcp-sign-in');
  mkdirSync(join(root, '.git'));
  const lms = {
    Type: 'OAuth2',
    'Grant Type': 'Client Credentials',
    'Token URL': auth.tokenUrl,
    'Client ID': CLIENT_ID,
  };
  const code = { ...lms, 'Grant Type': 'Authorization Code', 'Auth URL': auth.authUrl, PKCE: true };
  writeEnvironments(
    root,
    {
      dev: { base_url: api.origin, Security: { Auth: { lms } } },
      staging: { base_url: api.origin, Security: { Auth: { lms: code } } },
    },
    {
      dev: { Security: { Auth: { lms: { 'Token URL': auth.tokenUrl, 'Client Secret': CLIENT_SECRET } } } },
      staging: { Security: { Auth: { lms: { 'Token URL': auth.tokenUrl, 'Client Secret': CLIENT_SECRET } } } },
    },
  );
  writeFileSync(join(root, 'list.lpreq'), 'GET {{base_url}}/api/v1/courses/7/modules\n\n?? status == 200\n');
  mcp = await startMcp(root);
});
after(async () => {
  await mcp.close();
  await api.close();
  await auth.close();
});

test('send_request to an environment that signs in with client credentials carries the sign-in token', async () => {
  const before = api.received.length;
  const r = await mcp.call('send_request', { file: 'list.lpreq', line: 1, environment: 'dev' });
  assert.equal(r.isError ?? false, false, textOf(r));
  const sent = api.received.slice(before);
  assert.equal(sent.length, 1);
  const bearer = String(sent[0].headers.authorization ?? '').replace(/^Bearer /, '');
  assert.ok(auth.issued.includes(bearer), 'the request carried a token the authorization server issued');
  assert.equal((r.structuredContent as { status?: number }).status, 200);
  const again = await mcp.call('run_tests', { path: 'list.lpreq', environment: 'dev' });
  assert.equal((again.structuredContent as { passed: number }).passed, 1, textOf(again));
  assert.equal(auth.tokens.length, 1, 'one sign-in for the server, kept for the next call');
});

test('an authorization code sign-in opens no browser for an agent: refused, nothing sent', async () => {
  const before = api.received.length;
  const r = await mcp.call('send_request', { file: 'list.lpreq', line: 1, environment: 'staging', confirm: 'staging' });
  assert.equal(r.isError, true, textOf(r));
  assert.equal(api.received.length, before, 'nothing was sent');
});

test('no issued token and no client secret in any answer or in the log', () => {
  const written = mcp.written();
  for (const secret of [...auth.issued, CLIENT_SECRET]) assert.ok(!written.includes(secret), 'a secret was written');
});
