/** The JSON schema the extension contributes for http-client.env.json and the private file (package.json jsonValidation). */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import { ROOT } from '../helpers';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  contributes: { jsonValidation: { fileMatch: string[]; url: string }[] };
};
const contribution = pkg.contributes.jsonValidation[0];
const schemaFile = join(ROOT, contribution.url);
const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as {
  definitions: { environment: { properties: Record<string, unknown> } };
};
const validate = new Ajv({ strict: false, allErrors: true, validateFormats: false }).compile(schema);

test('the schema is contributed for both environment files and is packaged', () => {
  assert.deepEqual([...contribution.fileMatch].sort(), ['http-client.env.json', 'http-client.private.env.json']);
  assert.ok(existsSync(schemaFile));
  const vsix = readFileSync(join(ROOT, 'client', 'tools', 'packageVsix.mjs'), 'utf8');
  assert.ok(vsix.includes(`'${contribution.url.split('/')[1]}'`), 'packageVsix stages the schema folder');
});

test('the example and fixture environment files are valid', () => {
  for (const file of [
    'examples/http-client.env.json',
    'examples/http-client.private.env.json.example',
    'test/fixtures/diagnostics/http-client.env.json',
    'test/fixtures/diagnostics/scopes/http-client.env.json',
  ]) {
    const ok = validate(JSON.parse(readFileSync(join(ROOT, file), 'utf8')));
    assert.ok(ok, `${file}: ${JSON.stringify(validate.errors)}`);
  }
});

const cases: [unknown, boolean][] = [
  [{ local: { base_url: 'http://127.0.0.1:4010', course: 42, verbose: true } }, true],
  [{ $schema: 'x', $shared: { course: '1' }, prod: { base_url: 'https://a', $protected: true } }, true],
  [{ prod: { $protected: 'true' } }, true],
  // JetBrains' settings objects are other clients' business: not an error.
  [{ dev: { Security: { Auth: {} } } }, true],
  [{ local: 'http://127.0.0.1' }, false],
  [{ local: { course: ['1'] } }, false],
  [{ local: { course: null } }, false],
  [{ $shared: { x: [] } }, false],
  [{ prod: { $protected: 'yes' } }, false],
  // $scopes: a list of scopes, or the JSON file that holds one; $shared may declare it for every environment.
  [{ dev: { $scopes: ['url:GET|/api/v1/courses/{course_id}/modules'] } }, true],
  [{ dev: { $scopes: 'scopes.json' } }, true],
  [{ $shared: { $scopes: [] } }, true],
  [{ dev: { $scopes: ['GET /api/v1/courses'] } }, false],
  [{ dev: { $scopes: [42] } }, false],
  [{ dev: { $scopes: '' } }, false],
  // JetBrains' OAuth 2.0 settings (Security.Auth), as its HTTP Client writes them: the private file holds the secret.
  [
    {
      dev: {
        base_url: 'https://lms.example.edu',
        Security: {
          Auth: {
            lms: {
              Type: 'OAuth2',
              'Grant Type': 'Authorization Code',
              'Auth URL': 'https://lms.example.edu/login/oauth2/auth',
              'Token URL': 'https://lms.example.edu/login/oauth2/token',
              'Redirect URL': 'http://127.0.0.1:8765/callback',
              'Client ID': 170000000000042,
              Scope: 'url:GET|/api/v1/courses',
              PKCE: { 'Code Challenge Method': 'SHA-256' },
              'Custom Request Parameters': { audience: { Value: 'lms', Use: 'In Token Request' } },
            },
          },
        },
      },
    },
    true,
  ],
  [{ dev: { Security: { Auth: { lms: { 'Client Secret': 'x', 'Client Credentials': 'in body' } } } } }, true],
  [{ dev: { Security: { Auth: { lms: { Type: 'OAuth1' } } } } }, false],
  [{ dev: { Security: { Auth: { lms: { PKCE: { 'Code Challenge Method': 'MD5' } } } } } }, false],
  [{ dev: { Security: { Auth: { lms: { 'Use ID Token': 'yes' } } } } }, false],
  [[], false],
];

for (const [file, valid] of cases) {
  test(`environment file ${JSON.stringify(file)} is ${valid ? 'valid' : 'invalid'}`, () =>
    assert.equal(validate(file), valid, JSON.stringify(validate.errors)));
}

test("every $-setting of an environment the sender reads is described in the schema (a new one, $tls or $defaultHeaders, goes beside '$protected')", () => {
  const readers = ['server/src/sender/setup.ts', 'server/src/node/environments.ts']
    .map((f) => readFileSync(join(ROOT, f), 'utf8'))
    .join('\n');
  const read = new Set([...readers.matchAll(/'(\$[A-Za-z]+)'/g)].map((m) => m[1]).filter((k) => k !== '$shared'));
  assert.ok(read.has('$protected'));
  for (const key of read)
    assert.ok(Object.hasOwn(schema.definitions.environment.properties, key), `${key} is read but not in the schema`);
});
