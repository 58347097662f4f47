/**
 * The OAuth 2.0 sign-in is the send session's (server/src/sender/session.ts), for every host:
 * a host gives only where its sign-ins are kept (`signIns`), and the session decides which
 * token a send gets. Against a real authorization server on 127.0.0.1 (oauth2-mock-server) and
 * an API that answers only the tokens it issued: the command line's kind of host and the
 * editor's kind get the same sign-in's token for `dev`; `staging` keeps its pasted token;
 * LPREQ_TOKEN wins where the host keeps no tokens; a mock run and a copy sign no one in; a 401
 * renews the token for the setup's later sends; a test run's requests read `$auth`.
 */
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parseDocument } from '../../server/src/core';
import {
  memoryInProcess,
  MemoryStore,
  OAuthTokens,
  runTests,
  SendSession,
  type SessionHost,
} from '../../server/src/sender';
import { tempDir } from '../helpers';
import { json, startServer, testChecker, type TestServer } from '../sender/server';
import { CLIENT_ID, CLIENT_SECRET, startAuthServer, writeEnvironments, type AuthServer } from './authServer';

let auth: AuthServer;
let api: TestServer;
const STAGING_TOKEN = 'staging-pasted-token-0123456789';
const refused = new Set<string>();

before(async () => {
  auth = await startAuthServer();
  api = await startServer((req, res) => {
    const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''))?.[1] ?? '';
    const known = auth.issued.includes(bearer) || bearer === STAGING_TOKEN;
    if (!known || refused.has(bearer)) return json(res, 401, { errors: [{ message: 'Invalid access token.' }] });
    return json(res, 200, [{ id: 1, name: 'Module', position: 1, items_count: 0 }]);
  });
});
after(async () => {
  await auth.close();
  await api.close();
});

/** A repository as a user's: `dev` signs in with client credentials, `staging` has a pasted token; no `local`. */
function project(): { dir: string; file: string } {
  const dir = tempDir('oauth-session');
  const settings = {
    Type: 'OAuth2',
    'Grant Type': 'Client Credentials',
    'Token URL': auth.tokenUrl,
    'Client ID': CLIENT_ID,
  };
  writeEnvironments(
    dir,
    {
      dev: { base_url: api.origin, Security: { Auth: { lms: settings } } },
      staging: { base_url: api.origin.replace('127.0.0.1', 'localhost') },
    },
    {
      dev: { Security: { Auth: { lms: { 'Token URL': auth.tokenUrl, 'Client Secret': CLIENT_SECRET } } } },
      staging: { token: STAGING_TOKEN },
    },
  );
  mkdirSync(join(dir, '.git'));
  const file = join(dir, 'modules.lpreq');
  writeFileSync(file, 'GET {{base_url}}/api/v1/courses/1/modules\n');
  return { dir, file };
}

function signIns(): OAuthTokens {
  return new OAuthTokens({
    store: new MemoryStore(),
    openBrowser: () => Promise.resolve(false),
    tell: () => undefined,
    interactive: false,
    signInAgain: false,
  });
}

/** The command line's kind of host: no token store (LPREQ_TOKEN or the private file), its sign-ins in memory. */
function commandLineHost(env: NodeJS.ProcessEnv = {}): SessionHost {
  return { env, chooseWith: '--env', memory: memoryInProcess(), signIns: signIns() };
}

/** The editor's kind of host: a token store (its pasted tokens), its sign-ins in its own store; it records what it is asked. */
function editorHost() {
  const asked: string[] = [];
  const host: SessionHost = {
    env: { LPREQ_TOKEN: 'a-process-token-the-editor-ignores' },
    chooseWith: 'lpreq: Select Environment',
    memory: memoryInProcess(),
    signIns: signIns(),
    token: (environment) => {
      asked.push(environment);
      return Promise.resolve({ token: environment === 'staging' ? STAGING_TOKEN : 'a-pasted-dev-token-never-sent' });
    },
  };
  return { host, asked };
}

const tokenRequests = () => auth.tokens.filter((t) => t.grant === 'client_credentials').length;

describe('the session signs in for every host', () => {
  test("the command line's host and the editor's get the sign-in's token for dev, and send it; staging keeps its pasted token", async () => {
    const { file } = project();
    for (const host of [commandLineHost(), editorHost().host]) {
      const session = new SendSession(host, testChecker());
      const setup = await session.setup(file, { environment: 'dev' });
      assert.equal(setup.tokenFrom, 'oauth2');
      assert.equal(setup.oauth2, 'lms');
      assert.ok(setup.token !== undefined && auth.issued.includes(setup.token));
      assert.ok(setup.auth, 'the sends get the sign-ins');
      const document = parseDocument('GET {{base_url}}/api/v1/courses/1/modules\n');
      const { result } = await session.send(document, 0, { file, setup });
      assert.equal(result.response?.status, 200);
      assert.equal(api.received.at(-1)?.headers.authorization, `Bearer ${setup.token}`);

      const staging = await session.setup(file, { environment: 'staging' });
      assert.notEqual(staging.tokenFrom, 'oauth2');
      assert.equal(staging.token, STAGING_TOKEN);
    }
  });

  test("the editor's pasted token of dev is not asked for: the sign-in is bound to base_url's origin by its key", async () => {
    const { file } = project();
    const { host, asked } = editorHost();
    const session = new SendSession(host, testChecker());
    const setup = await session.setup(file, { environment: 'dev' });
    assert.equal(setup.tokenFrom, 'oauth2', 'the process LPREQ_TOKEN does not win where the host keeps tokens');
    assert.deepEqual(asked, []);
    await session.setup(file, { environment: 'staging' });
    assert.deepEqual(asked, ['staging']);
  });

  test("one sign-in for a session's sends: the next setups take the kept token", async () => {
    const { file } = project();
    const session = new SendSession(commandLineHost(), testChecker());
    const before = tokenRequests();
    const first = await session.setup(file, { environment: 'dev' });
    const second = await session.setup(file, { environment: 'dev' });
    assert.equal(tokenRequests(), before + 1);
    assert.equal(second.token, first.token);
  });

  test('LPREQ_TOKEN wins where the host keeps no tokens; a mock run and a copy sign no one in', async () => {
    const { file } = project();
    const before = tokenRequests();
    const explicit = await new SendSession(
      commandLineHost({ LPREQ_TOKEN: 'explicit-token-0123456789' }),
      testChecker(),
    ).setup(file, { environment: 'dev' });
    assert.equal(explicit.tokenFrom, 'LPREQ_TOKEN');
    assert.equal(explicit.token, 'explicit-token-0123456789');
    const session = new SendSession(commandLineHost(), testChecker());
    const mock = await session.setup(file, { environment: 'dev', forMock: true });
    assert.notEqual(mock.tokenFrom, 'oauth2');
    const copy = await session.setup(file, { environment: 'dev', signIn: false });
    assert.notEqual(copy.tokenFrom, 'oauth2');
    assert.equal(tokenRequests(), before, 'no token was asked for');
  });

  test("a 401 to the sign-in's token renews it, and the setup's later sends (Send All) take the new one", async () => {
    const { file } = project();
    const session = new SendSession(commandLineHost(), testChecker());
    const setup = await session.setup(file, { environment: 'dev' });
    const old = setup.token as string;
    refused.add(old);
    const document = parseDocument('GET {{base_url}}/api/v1/courses/1/modules\n');
    const { result } = await session.send(document, 0, { file, setup });
    assert.equal(result.response?.status, 200);
    assert.ok(setup.token !== undefined && setup.token !== old && auth.issued.includes(setup.token));
    const before = api.received.length;
    const again = await session.send(document, 0, { file, setup });
    assert.equal(again.result.response?.status, 200);
    assert.equal(api.received.length, before + 1, 'sent once: the renewed token was taken at once');
    assert.equal(api.received.at(-1)?.headers.authorization, `Bearer ${setup.token}`);
  });

  test('a test run through the session: its requests send the sign-in\'s token and read {{$auth.token("lms")}}', async () => {
    const { file } = project();
    const session = new SendSession(commandLineHost(), testChecker());
    const text = [
      'GET {{base_url}}/api/v1/courses/1/modules',
      '',
      '###',
      'GET {{base_url}}/api/v1/courses/1/modules',
      'X-Also: {{$auth.token("lms")}}',
      '',
    ].join('\n');
    const { source, setup } = await session.testSource(file, { display: 'modules.lpreq', text, environment: 'dev' });
    assert.ok(source.auth);
    const before = api.received.length;
    const run = await runTests([source], { ...session.runOptions([setup]), checker: testChecker() });
    assert.equal(run.failed, 0, JSON.stringify(run.files?.[0] ?? run).slice(0, 500));
    const sent = api.received.slice(before);
    assert.equal(sent.length, 2);
    assert.equal(sent[1].headers['x-also'], setup.token);
  });
});
