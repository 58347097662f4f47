/**
 * An environment's `Security.Auth` (issue 33, part 2) as JetBrains' HTTP Client writes it, read
 * from both environment files and checked before a sign-in starts: the client secret only from
 * the private file or the process, the token endpoint on base_url's origin unless the private
 * file names it, https (or this machine), a loopback redirect, the grants lpreq runs. The flows
 * themselves run against a real authorization server in test/system/oauth2Flows.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadEnvironmentFiles } from '../../server/src/node/environments';
import { resolveAuthConfig, type OAuthConfig, type SendEnvironments } from '../../server/src/sender/index';
import { tempDir } from '../helpers';
import { writeEnvironments } from '../system/authServer';

const API = 'https://lms.example.edu';
const TOKEN_URL = 'https://lms.example.edu/login/oauth2/token';
const AUTH_URL = 'https://lms.example.edu/login/oauth2/auth';
const ELSEWHERE_TOKEN_URL = 'https://sso.example.edu/oauth2/token';
const CLIENT_ID = '170000000000042';
const CLIENT_SECRET = 'cs-7fd1c0ffee-secret-Q9';
const api = { origin: API };
const auth = { tokenUrl: TOKEN_URL, authUrl: AUTH_URL };

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
  return { ...loadEnvironmentFiles(dir), selected: 'dev' };
}

function codeSettings(extra: Record<string, unknown> = {}) {
  return {
    shared: {
      Type: 'OAuth2',
      'Grant Type': 'Authorization Code',
      'Auth URL': auth.authUrl,
      'Token URL': auth.tokenUrl,
      'Client ID': CLIENT_ID,
      ...extra,
    },
    priv: {},
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
    priv: { 'Client Secret': CLIENT_SECRET },
  };
}

function configOf(envs: SendEnvironments, system = {}): OAuthConfig {
  const read = resolveAuthConfig(envs, 'lms', system);
  assert.ok('config' in read, 'problem' in read ? read.problem : '');
  return read.config;
}

function problemOf(envs: SendEnvironments, system = {}): string {
  const read = resolveAuthConfig(envs, 'lms', system);
  assert.ok('problem' in read, 'a problem was expected');
  return read.problem;
}

describe('the configuration', () => {
  test("JetBrains' settings are read from both files, the private one over the shared one, setting by setting", () => {
    const envs = environments(clientCredentials().shared, clientCredentials().priv);
    const config = configOf(envs);
    assert.equal(config.grant, 'client_credentials');
    assert.equal(config.clientSecret, CLIENT_SECRET);
    assert.equal(config.clientAuth, 'basic');
    assert.equal(config.origin, api.origin);
    assert.equal(config.tokenUrl, auth.tokenUrl);
  });

  test('a client secret written in the shared file is never used, and signing in is refused', () => {
    const { shared } = clientCredentials({ 'Client Secret': CLIENT_SECRET });
    const envs = environments(shared);
    assert.equal(JSON.stringify(envs).includes(CLIENT_SECRET), false, 'the shared secret is not even kept');
    assert.match(problemOf(envs), /written in http-client\.env\.json.*client-secret-in-shared-file/);
  });

  test('a private value of the same key wins over the shared secret; a reference in the shared file to a private or process variable is taken', () => {
    const { shared } = clientCredentials({ 'Client Secret': 'shared-literal-secret' });
    assert.equal(configOf(environments(shared, clientCredentials().priv)).clientSecret, CLIENT_SECRET);
    const dir = tempDir('oauth-ref');
    writeEnvironments(
      dir,
      {
        dev: {
          base_url: api.origin,
          Security: { Auth: { lms: { ...clientCredentials().shared, 'Client Secret': '{{lms_secret}}' } } },
        },
      },
      { dev: { lms_secret: CLIENT_SECRET } },
    );
    assert.equal(configOf({ ...loadEnvironmentFiles(dir), selected: 'dev' }).clientSecret, CLIENT_SECRET);
    const fromProcess = environments({ ...clientCredentials().shared, 'Client Secret': '{{$processEnv LMS_SECRET}}' });
    assert.equal(configOf(fromProcess, { processEnv: { LMS_SECRET: CLIENT_SECRET } }).clientSecret, CLIENT_SECRET);
    // A shared variable is the shared file's secret under another name.
    const sharedVariable = environments(
      { ...clientCredentials().shared, 'Client Secret': '{{lms_secret}}' },
      undefined,
      { lms_secret: 'committed-secret' },
    );
    assert.match(problemOf(sharedVariable), /does not define/);
  });

  test('a token endpoint on another origin than base_url is refused unless the private file names it', () => {
    const { shared } = clientCredentials({ 'Token URL': ELSEWHERE_TOKEN_URL });
    assert.match(
      problemOf(environments(shared, { 'Client Secret': CLIENT_SECRET })),
      /not the origin of base_url.*http-client\.private\.env\.json/,
    );
    // Named in the private file, it is taken.
    const named = environments(shared, { 'Client Secret': CLIENT_SECRET, 'Token URL': ELSEWHERE_TOKEN_URL });
    assert.equal(configOf(named).tokenUrl, ELSEWHERE_TOKEN_URL);
  });

  test('endpoints over plain http elsewhere than this machine, and a redirect that is not on this machine, are refused', () => {
    const plain = environments(
      { ...clientCredentials().shared, 'Token URL': 'http://auth.example.edu/token' },
      { 'Token URL': 'http://auth.example.edu/token', 'Client Secret': CLIENT_SECRET },
    );
    assert.match(problemOf(plain), /not https/);
    const { shared, priv } = codeSettings({ 'Redirect URL': 'https://app.example.edu/callback' });
    assert.match(problemOf(environments(shared, priv)), /not on this machine/);
    const authPlain = codeSettings({ 'Auth URL': 'http://login.example.edu/authorize' });
    assert.match(problemOf(environments(authPlain.shared, authPlain.priv)), /"Auth URL".*not https/);
  });

  test("grants lpreq does not run, a missing base_url, Plain PKCE and a custom parameter that is the flow's own are refused in words", () => {
    const password = { ...clientCredentials().shared, 'Grant Type': 'Password' };
    assert.match(problemOf(environments(password, clientCredentials().priv)), /not 'Password'/);
    const dir = tempDir('oauth-nobase');
    writeEnvironments(dir, { dev: { Security: { Auth: { lms: clientCredentials().shared } } } });
    assert.match(problemOf({ ...loadEnvironmentFiles(dir), selected: 'dev' }), /no http\(s\) base_url/);
    const plainPkce = codeSettings({ PKCE: { 'Code Challenge Method': 'Plain' } });
    assert.match(problemOf(environments(plainPkce.shared, plainPkce.priv)), /S256/);
    const reserved = clientCredentials({ 'Custom Request Parameters': { client_secret: 'x' } });
    assert.match(problemOf(environments(reserved.shared, reserved.priv)), /sign-in's own parameter/);
  });

  test('without a Scope, the environment\'s $scopes are asked for; custom parameters go where "Use" says', () => {
    const { shared, priv } = clientCredentials({
      'Custom Request Parameters': {
        audience: 'lms',
        resource: { Value: ['a', 'b'], Use: 'In Token Request' },
        prompt: { Value: 'consent', Use: 'In Auth Request' },
      },
    });
    const config = configOf(environments(shared, priv, { $scopes: ['url:GET|/api/v1/courses'] }));
    assert.equal(config.scope, 'url:GET|/api/v1/courses');
    assert.deepEqual(config.tokenParams, [
      ['audience', 'lms'],
      ['resource', 'a'],
      ['resource', 'b'],
    ]);
    assert.deepEqual(config.authParams, [
      ['audience', 'lms'],
      ['prompt', 'consent'],
    ]);
  });

  test('a wrong type in Security.Auth is a mistake of the file, named with its key', () => {
    const dir = tempDir('oauth-bad');
    writeEnvironments(dir, { dev: { base_url: api.origin, Security: { Auth: { lms: { 'Use ID Token': 'yes' } } } } });
    assert.throws(() => loadEnvironmentFiles(dir), /Security\.Auth\.lms\.Use ID Token: expected true or false/);
  });
});
