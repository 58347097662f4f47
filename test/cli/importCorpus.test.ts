/**
 * The import corpus (test/fixtures/import/): cURL commands as Chromium and Firefox copy them
 * (bash and Windows cmd), curl with every flag the importer reads, quoting traps, a HAR a
 * browser recorded of a visit to the mock and one written by hand, Postman collections and an
 * environment, REST Client's, JetBrains' and httpYac's .http files. Each input is imported by
 * the built command (dist/import.js: what users run, curl read by the bundled WebAssembly
 * grammar) into a fresh folder, and the written file and environment entries are compared
 * with the expected ones beside the input (`INPUT.lpreq`, `INPUT.env.json`; `INPUT.args` holds
 * options and other sources imported with it). Every value the
 * inputs mark S3CRET must be absent from everything written and printed.
 *
 *   LPREQ_UPDATE=1 node --import tsx --test test/cli/importCorpus.test.ts   rewrites the expected files (review them)
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ROOT, tempDir } from '../helpers';
import { importBundle, runImport } from './importHelpers';

const CORPUS = join(ROOT, 'test', 'fixtures', 'import');
const INPUT = /\.(curl|har|http|rest|postman_collection\.json|postman_environment\.json)$/;
const update = process.env.LPREQ_UPDATE === '1';

function inputs(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) inputs(path, out);
    else if (INPUT.test(name)) out.push(path);
  }
  return out;
}

const cases = inputs(CORPUS);

test('the corpus has at least 40 inputs, of every format', () => {
  assert.ok(cases.length >= 40, `${cases.length} inputs`);
  for (const ext of ['.curl', '.har', '.http', '.postman_collection.json', '.postman_environment.json'])
    assert.ok(
      cases.some((c) => c.endsWith(ext)),
      ext,
    );
});

for (const input of cases) {
  const name = relative(CORPUS, input);
  test(`import ${name}`, async () => {
    importBundle();
    const dir = tempDir('import-corpus');
    const out = join(dir, 'imported.lpreq');
    const argsFile = `${input}.args`;
    // Options, and other sources imported with the input (`{dir}` is the input's folder).
    const args = existsSync(argsFile)
      ? readFileSync(argsFile, 'utf8').trim().replaceAll('{dir}', dirname(input)).split(/\s+/)
      : [];
    const result = await runImport(['--out', out, input, ...args], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    const text = readFileSync(out, 'utf8');
    const envFile = join(dir, 'http-client.env.json');
    const env = existsSync(envFile) ? readFileSync(envFile, 'utf8') : undefined;

    // Nothing the input marks secret reaches the file, the environment file or the report.
    const sources = [input, ...args.filter((a) => !a.startsWith('--'))];
    const secrets = [...new Set(sources.flatMap((f) => readFileSync(f, 'utf8').match(/S3CRET[\w-]*/g) ?? []))];
    for (const [what, written] of [
      ['the file', text],
      ['http-client.env.json', env ?? ''],
      ['the report', result.stderr],
      ['standard output', result.stdout],
    ] as const) {
      for (const s of secrets) assert.ok(!written.includes(s), `${s} is in ${what}`);
      assert.ok(!written.includes('S3CRET'), `a secret's start is in ${what}`);
    }

    // The report names every request the file holds, on the line it stands.
    const requestLines = text
      .split('\n')
      .map((l, i) => ({ l, i: i + 1 }))
      .filter(({ l }) => /^(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) /.test(l));
    for (const { l, i } of requestLines) assert.ok(result.stderr.includes(`line ${i}: ${l}`), `report: line ${i}`);

    const expectedText = `${input}.lpreq`;
    const expectedEnv = `${input}.env.json`;
    if (update) {
      writeFileSync(expectedText, text);
      if (env !== undefined) writeFileSync(expectedEnv, env);
      return;
    }
    assert.equal(text, readFileSync(expectedText, 'utf8'));
    if (env === undefined) assert.ok(!existsSync(expectedEnv), 'environment entries were expected');
    else assert.deepEqual(JSON.parse(env), JSON.parse(readFileSync(expectedEnv, 'utf8')));
  });
}
