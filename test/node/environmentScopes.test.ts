/**
 * An environment's `$scopes`: read (a list, or a JSON file beside the environment file),
 * layered like the other settings, given to the checker as data, and the edit that adds a
 * scope where the list is written (the quick fix of scope-not-granted).
 */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { grantedScopes } from '../../server/src/core/index';
import {
  EnvironmentFileError,
  environmentScopes,
  loadEnvironmentFiles,
  scopeAdditionEdit,
} from '../../server/src/node/index';
import { applyEdits } from '../lsp/helpers';
import { tempDir } from '../helpers';

const MODULES = 'url:GET|/api/v1/courses/{course_id}/modules';
const ITEMS = 'url:GET|/api/v1/courses/{course_id}/modules/{module_id}/items';
const CREATE = 'url:POST|/api/v1/courses/{course_id}/modules';

function folder(files: Record<string, unknown>): string {
  const dir = tempDir('env-scopes');
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(join(dir, name, '..'), { recursive: true });
    writeFileSync(join(dir, name), typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  }
  return dir;
}

test('a list, a file beside the environment file, $shared for every environment, the private file over the shared one', () => {
  const dir = folder({
    'http-client.env.json': {
      $shared: { $scopes: [MODULES] },
      dev: { base_url: 'http://127.0.0.1:4010', $scopes: [MODULES, ITEMS] },
      staging: { base_url: 'https://staging.example.edu', $scopes: 'keys/staging.json' },
      ci: { base_url: 'https://ci.example.edu' },
    },
    'keys/staging.json': [CREATE],
    'http-client.private.env.json': { dev: { token: 't', $scopes: [CREATE] } },
  });
  const files = loadEnvironmentFiles(dir, dir);
  const { scopes, scopeSites } = environmentScopes(files);
  assert.deepEqual({ ...scopes }, { dev: [CREATE], staging: [CREATE], ci: [MODULES] });
  assert.deepEqual(
    { ...scopeSites },
    {
      dev: { file: join(dir, 'http-client.private.env.json'), environment: 'dev' },
      staging: {
        file: join(dir, 'http-client.env.json'),
        environment: 'staging',
        listFile: join(dir, 'keys', 'staging.json'),
      },
      ci: { file: join(dir, 'http-client.env.json'), environment: '$shared' },
    },
  );
  // A list is not a variable.
  assert.equal(Object.hasOwn(files.environments.dev, '$scopes'), false);
});

test('the checker takes them as data: the chosen environment, or with none chosen a scope any grants, once every one declares', () => {
  const environments = { dev: {}, staging: {} };
  assert.deepEqual(grantedScopes({ environments, selected: 'dev', scopes: { dev: [MODULES] } })?.environments, ['dev']);
  assert.equal(grantedScopes({ environments, selected: 'staging', scopes: { dev: [MODULES] } }), undefined);
  assert.equal(grantedScopes({ environments, scopes: { dev: [MODULES] } }), undefined);
  const both = grantedScopes({ environments, scopes: { dev: [MODULES], staging: [ITEMS] } });
  assert.deepEqual([...(both?.scopes ?? [])], [MODULES, ITEMS]);
  assert.deepEqual(both?.environments, ['dev', 'staging']);
  assert.equal(grantedScopes({ environments }), undefined);
});

test('a $scopes that is not a list of scopes, or names a file that is not one, outside the folder or missing, is a mistake of the file', () => {
  const outside = folder({ 'secret.json': [MODULES] });
  const cases: [unknown, RegExp][] = [
    [42, /at dev\.\$scopes: expected a JSON array of scope strings/],
    [['GET /api/v1/courses'], /at dev\.\$scopes: item 1 \('GET \/api\/v1\/courses'\) is not a scope/],
    [[MODULES, null], /item 2 \(null\) is not a scope/],
    ['', /at dev\.\$scopes: expected a list of scopes or the path of a JSON file/],
    ['missing.json', /at dev\.\$scopes: missing\.json: no such file/],
    ['broken.json', /at dev\.\$scopes: broken\.json: not valid JSON/],
    [join(outside, 'secret.json'), /outside the workspace/],
    ['../x/secret.json', /no such file|outside the workspace/],
    ['link.json', /outside the workspace/],
  ];
  for (const [value, problem] of cases) {
    const dir = folder({ 'http-client.env.json': { dev: { $scopes: value } }, 'broken.json': '[' });
    symlinkSync(join(outside, 'secret.json'), join(dir, 'link.json'));
    assert.throws(
      () => loadEnvironmentFiles(dir, dir),
      (e: unknown) => e instanceof EnvironmentFileError && problem.test(e.message),
      JSON.stringify(value),
    );
  }
});

test('the quick fix adds the scope where the list is written: in its sorted place, with the file kept as it was written', () => {
  const text =
    '{\n\t"dev": {\n\t\t"base_url": "http://127.0.0.1:4010",\n\t\t"$scopes": [\n\t\t\t"' +
    [ITEMS].join('", "') +
    '"\n\t\t]\n\t}\n}\n';
  const dir = folder({ 'http-client.env.json': text.replace(/\n/g, '\r\n') });
  const file = join(dir, 'http-client.env.json');
  const edit = scopeAdditionEdit({ file, environment: 'dev' }, CREATE);
  assert.ok(edit);
  assert.equal(edit.file, file);
  const after = applyEdits(edit.text, edit.edits);
  assert.deepEqual(JSON.parse(after).dev.$scopes, [ITEMS, CREATE].sort());
  assert.ok(!/[^\r]\n/.test(after), 'CRLF kept');
  assert.match(after, /\r\n\t\t\t"url:POST/);
  // Sorted: a scope that sorts first goes first.
  writeFileSync(file, after);
  const second = scopeAdditionEdit({ file, environment: 'dev' }, 'url:DELETE|/api/v1/courses/{course_id}/modules/{id}');
  assert.ok(second);
  assert.equal(
    JSON.parse(applyEdits(second.text, second.edits)).dev.$scopes[0],
    'url:DELETE|/api/v1/courses/{course_id}/modules/{id}',
  );
  // Already there: nothing to do.
  assert.equal(scopeAdditionEdit({ file, environment: 'dev' }, ITEMS), undefined);
  // Not a list where the site says: nothing.
  assert.equal(scopeAdditionEdit({ file, environment: 'staging' }, ITEMS), undefined);
});

test('the quick fix edits the list file an environment names, and $shared where every environment takes it from there', () => {
  const dir = folder({
    'http-client.env.json': { $shared: { $scopes: [MODULES] }, staging: { $scopes: 'staging.json' } },
    'staging.json': `[\n  "${CREATE}",\n  "${MODULES}"\n]\n`,
  });
  const env = join(dir, 'http-client.env.json');
  const listFile = join(dir, 'staging.json');
  const edit = scopeAdditionEdit({ file: env, environment: 'staging', listFile }, ITEMS);
  assert.ok(edit);
  assert.equal(edit.file, listFile);
  const after = applyEdits(edit.text, edit.edits);
  // Not sorted (POST before GET): the new one goes at the end, indented as the others.
  assert.equal(after, `[\n  "${CREATE}",\n  "${MODULES}",\n  "${ITEMS}"\n]\n`);
  writeFileSync(listFile, after);
  assert.deepEqual(environmentScopes(loadEnvironmentFiles(dir, dir)).scopes?.staging, [CREATE, MODULES, ITEMS]);
  const shared = scopeAdditionEdit({ file: env, environment: '$shared' }, CREATE);
  assert.ok(shared);
  assert.deepEqual(JSON.parse(applyEdits(shared.text, shared.edits)).$shared.$scopes, [MODULES, CREATE]);
  assert.equal(readFileSync(env, 'utf8').includes(CREATE), false, 'the edit is returned, not written');
});
