/**
 * OAuth 2.0 in the language server, over stdio as an editor drives it (issue 33, part 2): a
 * client secret in the shared environment file is a diagnostic on that file (gone once the
 * secret moves to the private file); sending from an environment with an authorization code
 * configuration opens the browser through the editor (`window/showDocument`, external), signs
 * in through the loopback redirect, and sends the token to base_url, written nowhere.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { LspClient, ROOT } from '../lsp/rpc';
import { json, startServer, type TestServer } from '../sender/server';
import { tempDir } from '../helpers';
import { browse, CLIENT_ID, CLIENT_SECRET, startAuthServer, writeEnvironments, type AuthServer } from './authServer';

let auth: AuthServer;
let api: TestServer;

before(async () => {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT });
  auth = await startAuthServer();
  api = await startServer((req, res) => {
    const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    if (bearer === undefined || !auth.issued.includes(bearer)) return json(res, 401, { errors: [{ message: 'no' }] });
    return json(res, 200, [{ id: 1, name: String(req.headers.authorization) }]);
  });
});
after(async () => {
  await auth.close();
  await api.close();
});

async function withServer(dir: string, run: (c: LspClient, browsed: Promise<unknown>[]) => Promise<void>) {
  const c = new LspClient(undefined, undefined, { env: { PATH: process.env.PATH ?? '' } });
  const browsed: Promise<unknown>[] = [];
  // The editor opens an external address in the browser: here, a browser that follows the sign-in's redirects.
  c.answer = (m) => {
    const params = m.params as { uri: string; external?: boolean };
    if (m.method === 'window/showDocument' && params.external === true) browsed.push(browse(params.uri));
    return m.method === 'window/showDocument' ? { success: true } : null;
  };
  const timer = setTimeout(() => c.kill(), 60_000);
  try {
    await c.initialize({ environment: 'dev' }, pathToFileURL(dir).href, {}, { showDocument: { support: true } });
    await run(c, browsed);
    await c.shutdown();
  } finally {
    clearTimeout(timer);
    c.kill();
  }
}

test('a client secret in the shared environment file is an error on that file, gone when it moves to the private file', async () => {
  const dir = tempDir('lsp-oauth-secret');
  const settings = {
    Type: 'OAuth2',
    'Grant Type': 'Client Credentials',
    'Token URL': `${api.origin}/login/oauth2/token`,
    'Client ID': CLIENT_ID,
  };
  const shared = (secret: boolean) => ({
    dev: {
      base_url: api.origin,
      Security: { Auth: { lms: { ...settings, ...(secret ? { 'Client Secret': CLIENT_SECRET } : {}) } } },
    },
    staging: { base_url: 'https://staging.example.edu' },
  });
  writeEnvironments(dir, shared(true));
  const envUri = pathToFileURL(join(dir, 'http-client.env.json')).href;
  const uri = pathToFileURL(join(dir, 'r.lpreq')).href;
  await withServer(dir, async (c) => {
    const published = c.diagnostics(envUri);
    c.notify('textDocument/didOpen', {
      textDocument: { uri, languageId: 'lpreq', version: 1, text: 'GET {{base_url}}/api/v1/courses\n' },
    });
    const first = await published;
    assert.deepEqual(
      first.diagnostics.map((d) => d.code),
      ['client-secret-in-shared-file'],
    );
    const line = readFileSync(fileURLToPath(envUri), 'utf8').split('\n')[first.diagnostics[0].range.start.line];
    assert.match(line, /"Client Secret"/);
    assert.ok(!JSON.stringify(first).includes(CLIENT_SECRET), 'the diagnostic does not quote the secret');

    writeEnvironments(dir, shared(false), { dev: { Security: { Auth: { lms: { 'Client Secret': CLIENT_SECRET } } } } });
    const cleared = c.diagnostics(envUri);
    c.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: envUri, type: 2 }] });
    assert.deepEqual((await cleared).diagnostics, []);
  });
});

test('sending signs in in the browser the editor opens, and the token goes to base_url, kept out of the response file', async () => {
  const dir = tempDir('lsp-oauth-send');
  writeEnvironments(
    dir,
    {
      dev: {
        base_url: api.origin,
        Security: {
          Auth: {
            lms: {
              Type: 'OAuth2',
              'Grant Type': 'Authorization Code',
              'Auth URL': auth.authUrl,
              'Token URL': auth.tokenUrl,
              'Client ID': CLIENT_ID,
              Scope: 'openid',
            },
          },
        },
      },
      staging: { base_url: 'https://staging.example.edu' },
    },
    { dev: { Security: { Auth: { lms: { 'Token URL': auth.tokenUrl } } } } },
  );
  const file = join(dir, 'r.lpreq');
  writeFileSync(file, 'GET {{base_url}}/api/v1/courses\n');
  const uri = pathToFileURL(file).href;
  await withServer(dir, async (c, browsed) => {
    c.notify('textDocument/didOpen', {
      textDocument: { uri, languageId: 'lpreq', version: 1, text: readFileSync(file, 'utf8') },
    });
    const result = await c.request<{ ok: boolean; status: number; responseUri: string }>(
      'workspace/executeCommand',
      { command: 'lpreq.send', arguments: [uri, 0] },
      20_000,
    );
    assert.equal(result.status, 200, JSON.stringify(result));
    assert.equal(browsed.length, 1, 'the browser was opened once');
    assert.equal(((await browsed[0]) as { status: number }).status, 200);
    const sent = String(api.received.at(-1)?.headers.authorization).slice('Bearer '.length);
    assert.ok(auth.issued.includes(sent));
    const text = readFileSync(fileURLToPath(result.responseUri), 'utf8');
    assert.ok(!text.includes(sent), 'the token is not in the response file');
    // Sent again: the sign-in is kept for the server's life, no browser this time.
    const again = await c.request<{ status: number }>(
      'workspace/executeCommand',
      { command: 'lpreq.send', arguments: [uri, 0] },
      20_000,
    );
    assert.equal(again.status, 200);
    assert.equal(browsed.length, 1);
    for (const s of [...auth.issued]) assert.ok(!c.stderr.includes(s), 'no token in the server log');
  });
});
