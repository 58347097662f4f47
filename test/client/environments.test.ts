import assert from 'node:assert/strict';
import { test } from 'node:test';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadEnvironmentFiles } from '../../server/src/node/environments';
import { tempDir } from '../helpers';
import {
  environmentChoices,
  isProtected,
  needsConfirmation,
  legacyTokenKey,
  statusBarText,
  tokenKey,
  tokenTooltip,
  withoutMetaKeys,
} from '../../client/src/model/environments';

test('an environment is protected by the setting or by "$protected": true in its file', () => {
  const dir = tempDir('env');
  writeFileSync(
    join(dir, 'http-client.env.json'),
    JSON.stringify({
      prod: { base_url: 'https://lms.example.edu', $protected: true },
      local: { base_url: 'http://127.0.0.1:4010' },
    }),
  );
  const files = loadEnvironmentFiles(dir, dir);
  assert.equal(isProtected('prod', files.environments.prod, []), true);
  assert.equal(isProtected('local', files.environments.local, []), false);
  assert.equal(isProtected('local', files.environments.local, ['local']), true);
  assert.equal(isProtected(undefined, undefined, ['local']), false);
  assert.deepEqual(withoutMetaKeys(files.environments).prod, { base_url: 'https://lms.example.edu' });
});

test('POST, PUT, PATCH and DELETE ask in a protected environment, GET never', () => {
  for (const m of ['POST', 'PUT', 'PATCH', 'DELETE']) assert.equal(needsConfirmation(m, true), true, m);
  for (const m of ['GET', 'HEAD', 'OPTIONS']) assert.equal(needsConfirmation(m, true), false, m);
  assert.equal(needsConfirmation('DELETE', false), false);
});

test('the picker lists every environment by name, then no environment', () => {
  const choices = environmentChoices(
    { prod: { base_url: 'https://x', $protected: 'true' }, dev: { base_url: 'http://d', a: '1' } },
    { selected: 'dev', protectedSetting: [], withToken: new Set(['prod']) },
  );
  assert.deepEqual(
    choices.map((c) => c.name),
    ['dev', 'prod', undefined],
  );
  assert.equal(choices[0].picked, true);
  assert.match(choices[0].description, /2 variables/);
  assert.equal(choices[1].protected, true);
  assert.match(choices[1].description, /token set/);
  assert.match(choices[1].description, /1 variable\b/);
  assert.equal(choices[2].picked, false);
});

test('status bar and secret keys', () => {
  assert.equal(statusBarText('prod', true, 'send'), '$(lock) prod $(key)');
  assert.equal(statusBarText('staging', false, 'confirm'), '$(server-environment) staging $(key)$(warning)');
  assert.equal(statusBarText(undefined, false, 'none'), '$(server-environment) no environment');
  assert.equal(statusBarText(undefined, false, 'none', true), '$(server-environment) choose environment');
  assert.notEqual(tokenKey('prod'), tokenKey('dev'));
  assert.notEqual(tokenKey(undefined), tokenKey('undefined'));
  // A token kept before tokens were bound is found under the old key, which the new one is not.
  assert.equal(legacyTokenKey('prod'), 'lpreq.token.prod');
  assert.notEqual(tokenKey('prod'), legacyTokenKey('prod'));
});

test('"$shared" variables are in every environment, each layer overridden by the more specific one', () => {
  const dir = tempDir('env');
  writeFileSync(
    join(dir, 'http-client.env.json'),
    JSON.stringify({
      $shared: { course: '42', base_url: 'http://shared' },
      local: { base_url: 'http://127.0.0.1:4010' },
      prod: { course: '7' },
    }),
  );
  writeFileSync(
    join(dir, 'http-client.private.env.json'),
    JSON.stringify({ $shared: { token: 'secret', course: '99' }, prod: { token: 'prod-secret' } }),
  );
  const files = loadEnvironmentFiles(dir, dir);
  assert.deepEqual(Object.keys(files.environments).sort(), ['local', 'prod']);
  assert.deepEqual(files.environments.local, { course: '99', base_url: 'http://127.0.0.1:4010', token: 'secret' });
  assert.deepEqual(files.environments.prod, { course: '7', base_url: 'http://shared', token: 'prod-secret' });
  assert.deepEqual([...files.privateNames.local].sort(), ['course', 'token']);
  assert.deepEqual([...files.privateNames.prod], ['token']);
});

test('a file with only "$shared" still defines its variables', () => {
  const dir = tempDir('env');
  writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ $shared: { course: '42' } }));
  assert.deepEqual(loadEnvironmentFiles(dir, dir).environments, { $shared: { course: '42' } });
});

test("other clients' settings in an environment file are left out, not an error: JetBrains' Security objects, Kulala's $schema and default headers", () => {
  const dir = tempDir('env-others');
  writeFileSync(
    join(dir, 'http-client.env.json'),
    JSON.stringify({
      $schema: 'https://example.com/kulala.schema.json',
      $kulalaDefaultHeaders: { Accept: 'application/json' },
      local: {
        base_url: 'http://127.0.0.1:4010',
        course: 42,
        Security: { Auth: { lms: { Type: 'OAuth2' } } },
        nothing: null,
      },
    }),
  );
  const files = loadEnvironmentFiles(dir);
  assert.deepEqual(Object.keys(files.environments), ['local']);
  assert.deepEqual(files.environments.local, { base_url: 'http://127.0.0.1:4010', course: '42' });
  writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: 'not an environment' }));
  assert.throws(() => loadEnvironmentFiles(dir), /at local/);
});

test("the tooltip names the origins a token is bound to, and says when base_url's is not one of them", () => {
  const staging = 'https://staging.example.edu';
  const clone = 'https://lms.attacker.example';
  assert.match(
    tokenTooltip({ kind: 'send', token: 't', origin: staging }, [staging]),
    /bound to https:\/\/staging\.example\.edu: it goes to/,
  );
  const unconfirmed = tokenTooltip({ kind: 'confirm', token: 't', origin: clone, boundTo: [staging] }, [staging]);
  assert.ok(unconfirmed.includes(staging) && unconfirmed.includes(clone), unconfirmed);
  assert.match(unconfirmed, /not sent there until you confirm/);
  assert.match(
    tokenTooltip({ kind: 'confirm', token: 't', origin: clone, boundTo: [] }, []),
    /kept before lpreq bound tokens/,
  );
  assert.match(tokenTooltip({ kind: 'nowhere', token: 't' }, [staging]), /no base_url/);
  assert.equal(tokenTooltip({ kind: 'none' }, []), 'No access token is set.');
});
