/**
 * OAuth 2.0 sign-in (issue 33, part 2) against a real authorization server on 127.0.0.1
 * (oauth2-mock-server): the authorization code with PKCE (the browser step driven by a client
 * that follows the redirect), client credentials, refresh before expiry and after a 401, a
 * wrong state, a redirect to another port or path, a token endpoint on another origin, a
 * revoked refresh token; and the configuration read from the environment files as JetBrains'
 * HTTP Client writes it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadEnvironmentFiles } from '../../server/src/node/environments';
import {
  EnvironmentAuth,
  MemoryStore,
  OAuthError,
  OAuthTokens,
  resolveAuthConfig,
  sendBlock,
  type OAuthConfig,
  type OAuthHost,
  type SendEnvironments,
} from '../../server/src/sender/index';
import { tempDir } from '../helpers';
import { browse, CLIENT_ID, CLIENT_SECRET, startAuthServer, writeEnvironments, type AuthServer } from './authServer';
import { doc, json, startServer, testChecker, type TestServer } from '../sender/server';

let auth: AuthServer;
/** The API: 200 for a token the authorization server issued and that is not refused, 401 otherwise. */
let api: TestServer;
const refusedTokens = new Set<string>();

before(async () => {
  auth = await startAuthServer();
  api = await startServer((req, res) => {
    const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1];
    if (bearer === undefined || !auth.issued.includes(bearer) || refusedTokens.has(bearer))
      return json(res, 401, { errors: [{ message: 'Invalid access token.' }] });
    return json(res, 200, [{ id: 1, name: 'Course' }]);
  });
});
after(async () => {
  await auth.close();
  await api.close();
});

/** The environments of a folder with `dev` (base_url the API) and these auth settings, shared and private. */
function environments(
  shared: Record<string, unknown>,
  priv?: Record<string, unknown>,
  extra: Record<string, unknown> = {},
): SendEnvironments {
  const dir = tempDir('oauth-env');
  writeEnvironments(
    dir,
    { dev: { base_url: api.origin, ...extra, Security: { Auth: { lms: shared } } } },
    priv === undefined ? undefined : { dev: { Security: { Auth: { lms: priv } } } },
  );
  const files = loadEnvironmentFiles(dir);
  return { ...files, selected: 'dev' };
}

/** The usual code configuration: the token endpoint named in the private file (it is on another origin than the API). */
function codeSettings(extra: Record<string, unknown> = {}) {
  return {
    shared: {
      Type: 'OAuth2',
      'Grant Type': 'Authorization Code',
      'Auth URL': auth.authUrl,
      'Token URL': auth.tokenUrl,
      'Client ID': CLIENT_ID,
      Scope: 'openid url:GET|/api/v1/courses',
      ...extra,
    },
    priv: { 'Token URL': auth.tokenUrl },
  };
}

function clientCredentials(extra: Record<string, unknown> = {}) {
  return {
    shared: {
      Type: 'OAuth2',
      'Grant Type': 'Client Credentials',
      'Token URL': auth.tokenUrl,
      'Client ID': CLIENT_ID,
      ...extra,
    },
    priv: { 'Token URL': auth.tokenUrl, 'Client Secret': CLIENT_SECRET },
  };
}

function configOf(envs: SendEnvironments, system = {}): OAuthConfig {
  const read = resolveAuthConfig(envs, 'lms', system);
  assert.ok('config' in read, 'problem' in read ? read.problem : '');
  return read.config;
}

/** A host whose browser follows the redirects (tampered, when asked); it records what it was told and opened. */
function host(o: Partial<OAuthHost> & { tamper?: (u: URL) => void } = {}) {
  const opened: string[] = [];
  const told: string[] = [];
  const browsed: Promise<unknown>[] = [];
  const h: OAuthHost = {
    store: new MemoryStore(),
    openBrowser: (url) => {
      opened.push(url);
      browsed.push(browse(url, o.tamper));
      return Promise.resolve(true);
    },
    tell: (m) => told.push(m),
    interactive: true,
    signInAgain: false,
    waitMs: 5000,
    ...o,
  };
  return { h, opened, told, browsed };
}

describe('client credentials', () => {
  test("a token is asked for with the client authenticated by Basic, and goes to base_url as the environment's token", async () => {
    const envs = environments(clientCredentials().shared, clientCredentials().priv);
    const tokens = new OAuthTokens(host().h);
    const before = auth.tokens.length;
    const environmentAuth = new EnvironmentAuth(tokens, envs, {});
    const token = await environmentAuth.environmentToken();
    assert.ok(token !== undefined && auth.issued.includes(token));
    const seen = auth.tokens.slice(before);
    assert.equal(seen.length, 1);
    assert.equal(seen[0].grant, 'client_credentials');
    assert.equal(seen[0].authorization, `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`);
    assert.equal(seen[0].body.client_secret, undefined, 'the secret is not in the body as well');
    // A second token() is the kept one: signed in once.
    assert.equal(await environmentAuth.environmentToken(), token);
    assert.equal(auth.tokens.length, before + 1);
    const result = await sendBlock(doc('GET /api/v1/courses'), 0, {
      checker: testChecker(),
      environments: envs,
      token,
      auth: environmentAuth,
    });
    assert.equal(result.response?.status, 200);
    assert.equal(api.received.at(-1)?.headers.authorization, `Bearer ${token}`);
  });

  test('"Client Credentials": "in body" sends the secret in the form instead', async () => {
    const { shared, priv } = clientCredentials({ 'Client Credentials': 'in body' });
    const config = configOf(environments(shared, priv));
    const before = auth.tokens.length;
    await new OAuthTokens(host().h).token(config);
    const seen = auth.tokens[before];
    assert.equal(seen.authorization, undefined);
    assert.equal(seen.body.client_secret, CLIENT_SECRET);
    assert.equal(seen.body.client_id, CLIENT_ID);
  });

  test("a wrong secret is the server's refusal, in words, without the secret", async () => {
    const { shared } = clientCredentials();
    const config = configOf(environments(shared, { 'Token URL': auth.tokenUrl, 'Client Secret': 'wrong-secret-42' }));
    await assert.rejects(new OAuthTokens(host().h).token(config), (e: OAuthError) => {
      assert.equal(e.kind, 'refused');
      assert.match(e.message, /invalid_client/);
      assert.doesNotMatch(e.message, /wrong-secret-42/);
      return true;
    });
  });
});

describe('the authorization code with PKCE', () => {
  test('the browser signs in, the answer comes back to the loopback redirect, and the code is exchanged with the verifier', async () => {
    const { shared, priv } = codeSettings();
    const config = configOf(environments(shared, priv));
    const { h, opened, told, browsed } = host();
    const before = auth.tokens.length;
    const token = await new OAuthTokens(h).token(config);
    assert.ok(auth.issued.includes(token));
    assert.equal(opened.length, 1);
    const asked = new URL(opened[0]);
    assert.equal(asked.origin + asked.pathname, auth.authUrl);
    assert.equal(asked.searchParams.get('code_challenge_method'), 'S256');
    assert.match(asked.searchParams.get('code_challenge') ?? '', /^[A-Za-z0-9_-]{43}$/);
    assert.match(asked.searchParams.get('redirect_uri') ?? '', /^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    assert.equal(asked.searchParams.get('client_id'), CLIENT_ID);
    assert.ok((asked.searchParams.get('state') ?? '').length >= 43);
    // The address is told too, for a machine without a browser.
    assert.ok(told.some((t) => t.includes(opened[0])));
    const exchange = auth.tokens.slice(before);
    assert.equal(exchange.length, 1);
    assert.equal(exchange[0].grant, 'authorization_code');
    // oauth2-mock-server checks the verifier against the challenge: the token came, so it matched.
    assert.match(String(exchange[0].body.code_verifier), /^[A-Za-z0-9_-]{43}$/);
    assert.equal(exchange[0].body.redirect_uri, asked.searchParams.get('redirect_uri'));
    const page = (await browsed[0]) as { status: number };
    assert.equal(page.status, 200);
  });

  test('a configured Redirect URL is listened on at its port and path, and sent as written', async () => {
    const port = await freePort();
    const { shared, priv } = codeSettings({ 'Redirect URL': `http://localhost:${port}/lpreq/cb` });
    const { h, opened } = host();
    await new OAuthTokens(h).token(configOf(environments(shared, priv)));
    assert.equal(new URL(opened[0]).searchParams.get('redirect_uri'), `http://localhost:${port}/lpreq/cb`);
  });

  test('an answer with another state is refused: no code is exchanged', async () => {
    const { shared, priv } = codeSettings();
    const { h } = host({ tamper: (u) => u.searchParams.set('state', 'forged-state-from-elsewhere') });
    const before = auth.tokens.length;
    await assert.rejects(new OAuthTokens(h).token(configOf(environments(shared, priv))), (e: OAuthError) => {
      assert.equal(e.kind, 'state');
      return true;
    });
    assert.equal(auth.tokens.length, before, 'no token request was made');
  });

  test('a redirect to another port or another path is not taken: the sign-in ends when its time runs out, with nothing exchanged', async () => {
    const { shared, priv } = codeSettings();
    const config = configOf(environments(shared, priv));
    const other = await freePort();
    for (const tamper of [
      (u: URL) => {
        u.port = String(other);
      },
      (u: URL) => {
        u.pathname = '/elsewhere';
      },
    ]) {
      const { h, browsed } = host({ tamper, waitMs: 400 });
      const before = auth.tokens.length;
      await assert.rejects(new OAuthTokens(h).token(config), (e: OAuthError) => {
        assert.equal(e.kind, 'timeout');
        assert.match(e.message, /no answer came back/);
        return true;
      });
      assert.equal(auth.tokens.length, before);
      const page = (await browsed[0]) as { status?: number; error?: string };
      // Another port: nothing answers; another path: lpreq's listener says not found and goes on waiting.
      assert.ok(page.error !== undefined || page.status === 404, JSON.stringify(page));
    }
  });

  test('a request to the loopback port that names another host is not read', async () => {
    const { shared, priv } = codeSettings();
    let answered: Promise<number> | undefined;
    const { h } = host({
      openBrowser: (url) => {
        const redirect = new URL(new URL(url).searchParams.get('redirect_uri') ?? '');
        const state = new URL(url).searchParams.get('state') ?? '';
        // A page of another site (DNS rebinding) can make the browser ask this port, with its own Host.
        answered = new Promise((resolve) => {
          const req = request(
            {
              host: '127.0.0.1',
              port: redirect.port,
              path: `${redirect.pathname}?code=x&state=${state}`,
              headers: { host: `evil.example:${redirect.port}` },
            },
            (res) => {
              res.resume();
              resolve(res.statusCode ?? 0);
            },
          );
          req.on('error', () => resolve(0));
          req.end();
        });
        return Promise.resolve(true);
      },
      waitMs: 400,
    });
    const before = auth.tokens.length;
    await assert.rejects(new OAuthTokens(h).token(configOf(environments(shared, priv))), /no answer came back/);
    assert.equal(await answered, 400);
    assert.equal(auth.tokens.length, before);
  });

  test("the authorization server's refusal (error=access_denied) ends the sign-in in words", async () => {
    const { shared, priv } = codeSettings();
    const { h } = host({
      tamper: (u) => {
        u.searchParams.delete('code');
        u.searchParams.set('error', 'access_denied');
        u.searchParams.set('error_description', 'The user said no');
      },
    });
    await assert.rejects(
      new OAuthTokens(h).token(configOf(environments(shared, priv))),
      /did not grant access: access_denied: The user said no/,
    );
  });

  test('in CI no browser sign-in starts: the message says what to do instead', async () => {
    const { shared, priv } = codeSettings();
    const { h, opened } = host({ interactive: false });
    await assert.rejects(new OAuthTokens(h).token(configOf(environments(shared, priv))), /LPREQ_TOKEN/);
    assert.equal(opened.length, 0);
  });

  test('the ID token is sent instead with "Use ID Token", and $auth.idToken gives it', async () => {
    const { shared, priv } = codeSettings({ 'Use ID Token': true });
    const envs = environments(shared, priv);
    const environmentAuth = new EnvironmentAuth(new OAuthTokens(host().h), envs, {});
    const token = await environmentAuth.environmentToken();
    assert.ok(token !== undefined && token.split('.').length === 3, 'a JWT');
    assert.equal(await environmentAuth.ready([{ kind: 'idToken', id: 'lms' }]), undefined);
    assert.deepEqual(environmentAuth.value('idToken', 'lms'), { value: token });
  });
});

describe('$auth in a body file', () => {
  test('a sign-in asked for only in a body file with variables is signed in, and the request sent with its token', async () => {
    const { shared, priv } = clientCredentials();
    const dir = tempDir('oauth-env');
    // Two configurations: neither is the environment's own, so nothing is signed in before the request asks.
    writeEnvironments(
      dir,
      { dev: { base_url: api.origin, Security: { Auth: { lms: shared, other: shared } } } },
      { dev: { Security: { Auth: { lms: priv, other: priv } } } },
    );
    const envs: SendEnvironments = { ...loadEnvironmentFiles(dir), selected: 'dev' };
    const environmentAuth = new EnvironmentAuth(new OAuthTokens(host().h), envs, {});
    const document = doc('POST /api/v1/courses\nContent-Type: text/plain\n\n<@ ./body.txt\n');
    const before = { api: api.received.length, tokens: auth.tokens.length };
    const result = await sendBlock(document, 0, {
      checker: testChecker(),
      environments: envs,
      auth: environmentAuth,
      readFile: () => ({ text: 'token {{$auth.token("lms")}}' }),
    });
    // Sent, with the sign-in's token (the API answers 401 to a request without its Authorization header, and the
    // request is sent once more with a new token).
    assert.notEqual(result.error?.kind, 'prepare', result.error?.message);
    assert.ok(auth.tokens.length > before.tokens, 'signed in');
    const bodies = api.received.slice(before.api).map((r) => r.body);
    assert.ok(bodies.length > 0);
    for (const body of bodies) assert.ok(auth.issued.includes(body.slice('token '.length)), body);
  });
});

describe('refresh', () => {
  test('a token about to expire is refreshed before it is sent, and the status says until when', async () => {
    const { shared, priv } = codeSettings();
    const config = configOf(environments(shared, priv));
    let now = Date.now();
    auth.expiresIn = 600;
    try {
      const tokens = new OAuthTokens(host({ now: () => now }).h);
      const first = await tokens.token(config);
      const status = await tokens.status(config);
      assert.ok(status.signedIn && status.expiresAt === now + 600_000 && status.who === 'johndoe');
      now += 500_000;
      assert.equal(await tokens.token(config), first, 'still good for more than a minute');
      const before = auth.tokens.length;
      now += 60_000;
      const second = await tokens.token(config);
      assert.notEqual(second, first);
      assert.deepEqual(
        auth.tokens.slice(before).map((t) => t.grant),
        ['refresh_token'],
      );
    } finally {
      auth.expiresIn = undefined;
    }
  });

  test("a 401 to a sign-in's token gets a new token, and the request is sent once more with it", async () => {
    const { shared, priv } = codeSettings();
    const envs = environments(shared, priv);
    const environmentAuth = new EnvironmentAuth(new OAuthTokens(host().h), envs, {});
    const token = (await environmentAuth.environmentToken()) as string;
    refusedTokens.add(token);
    const before = api.received.length;
    const result = await sendBlock(doc('GET /api/v1/courses'), 0, {
      checker: testChecker(),
      environments: envs,
      token,
      auth: environmentAuth,
    });
    assert.equal(result.response?.status, 200);
    const sent = api.received.slice(before).map((r) => r.headers.authorization);
    assert.equal(sent.length, 2);
    assert.equal(sent[0], `Bearer ${token}`);
    assert.ok(result.renewedToken !== undefined && sent[1] === `Bearer ${result.renewedToken}`);
    assert.ok(result.warnings.some((w) => /401.*sent the request once more/.test(w)));
    assert.equal(auth.tokens.at(-1)?.grant, 'refresh_token');
  });

  test('$auth.token("id") in a header is renewed after a 401 as well', async () => {
    const { shared, priv } = codeSettings();
    const envs = environments(shared, priv);
    const environmentAuth = new EnvironmentAuth(new OAuthTokens(host().h), envs, {});
    const document = doc('GET /api/v1/courses\nAuthorization: Bearer {{$auth.token("lms")}}');
    const first = await sendBlock(document, 0, { checker: testChecker(), environments: envs, auth: environmentAuth });
    assert.equal(first.response?.status, 200);
    const used = String(api.received.at(-1)?.headers.authorization).slice(7);
    refusedTokens.add(used);
    const second = await sendBlock(document, 0, { checker: testChecker(), environments: envs, auth: environmentAuth });
    assert.equal(second.response?.status, 200);
    assert.notEqual(String(api.received.at(-1)?.headers.authorization).slice(7), used);
  });

  test('a revoked refresh token: the command line stops with an error that says to sign in again; the editor signs in again', async () => {
    const { shared, priv } = codeSettings();
    const config = configOf(environments(shared, priv));
    let now = Date.now();
    auth.expiresIn = 120;
    try {
      const cli = host({ now: () => now, signInAgain: false });
      const tokens = new OAuthTokens(cli.h);
      await tokens.token(config);
      const kept = await tokens.current(config);
      auth.revoked.add(kept?.refreshToken ?? '');
      now += 119_000;
      await assert.rejects(tokens.token(config), (e: OAuthError) => {
        assert.equal(e.kind, 'revoked');
        assert.match(e.message, /invalid_grant.*sign in again/);
        return true;
      });
      assert.equal(await tokens.current(config), undefined, 'the refused sign-in is forgotten');

      const editor = host({ now: () => now, signInAgain: true });
      const editorTokens = new OAuthTokens(editor.h);
      await editorTokens.token(config);
      auth.revoked.add((await editorTokens.current(config))?.refreshToken ?? '');
      now += 119_000;
      const again = await editorTokens.token(config);
      assert.ok(auth.issued.includes(again));
      assert.equal(editor.opened.length, 2, 'the browser opened again');
    } finally {
      auth.expiresIn = undefined;
    }
  });

  test('Sign Out forgets the sign-in; the next token signs in again', async () => {
    const { shared, priv } = clientCredentials();
    const config = configOf(environments(shared, priv));
    const tokens = new OAuthTokens(host().h);
    const first = await tokens.token(config);
    assert.equal(await tokens.signOut(config), true);
    assert.deepEqual(await tokens.status(config), { signedIn: false });
    assert.notEqual(await tokens.token(config), first);
  });
});

describe('the token endpoint', () => {
  test("a redirect from the token endpoint is not followed with the client's secrets", async () => {
    const hops: string[] = [];
    const redirecting = await startServer((req, res) => {
      hops.push(req.url);
      res.writeHead(307, { location: `${auth.tokenUrl}` });
      res.end();
    });
    try {
      const tokenUrl = `${redirecting.origin}/token`;
      const { shared } = clientCredentials({ 'Token URL': tokenUrl });
      const config = configOf(environments(shared, { 'Token URL': tokenUrl, 'Client Secret': CLIENT_SECRET }));
      const before = auth.tokens.length;
      await assert.rejects(new OAuthTokens(host().h).token(config), /redirect, which lpreq does not follow/);
      assert.equal(auth.tokens.length, before);
      assert.deepEqual(hops, ['/token']);
    } finally {
      await redirecting.close();
    }
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
