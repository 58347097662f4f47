/**
 * Prism (`@stoplight/prism-cli`, a dev dependency) serving the exported document on
 * 127.0.0.1: it starts on it, answers as the document says (200 for a valid request, 422 for
 * an invalid body or path, 401 without a token), and is stopped whatever happens.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { request } from 'undici';
import { bundledCatalog } from '../../server/src/catalogData';
import { catalogToOpenApi, type JsonObject } from '../../server/src/core/index';
import { tempDir } from '../helpers';

/** The JavaScript file of Prism's command, found through its package (never a shell shim). */
function prismBin(): string {
  const require = createRequire(__filename);
  const manifest = require.resolve('@stoplight/prism-cli/package.json');
  const bin = (require(manifest) as { bin: Record<string, string> }).bin.prism;
  return join(dirname(manifest), bin);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts Prism on the document and resolves once it answers HTTP (it says nothing on
 * listening below the info log level); rejects after 30 s or if it exits first.
 */
async function startPrism(document: string, port: number): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [prismBin(), 'mock', '-h', '127.0.0.1', '-p', String(port), '-v', 'warn', document],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  child.stderr?.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-4000)));
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Prism exited with ${child.exitCode} before it listened:\n${output}`);
    try {
      const r = await request(`http://127.0.0.1:${port}/`, { method: 'GET', headersTimeout: 2000, bodyTimeout: 2000 });
      await r.body.text();
      return child;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`Prism did not listen within 30 s:\n${output}`);
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

test('Prism serves the exported document and answers as it says', { timeout: 90_000 }, async () => {
  const doc = catalogToOpenApi(bundledCatalog(), { version: '0.1.0' });
  const file = join(tempDir('prism'), 'openapi.json');
  writeFileSync(file, JSON.stringify(doc));
  const port = await freePort();
  const prism = await startPrism(file, port);
  // Whatever the assertions do, the process goes: a test never leaves Prism running.
  const guard = setTimeout(() => prism.kill('SIGKILL'), 80_000);
  try {
    const base = `http://127.0.0.1:${port}/api/v1`;
    const auth = { authorization: 'Bearer prism-test' };
    const form = { ...auth, 'content-type': 'application/x-www-form-urlencoded' };
    const call = async (
      method: 'GET' | 'POST' | 'PUT',
      path: string,
      headers: Record<string, string>,
      body?: string,
    ) => {
      const r = await request(`${base}${path}`, { method, headers, body });
      const text = await r.body.text();
      return { status: r.statusCode, headers: r.headers, json: text ? (JSON.parse(text) as unknown) : undefined };
    };
    const schemas = (doc.components as JsonObject).schemas as Record<string, { properties: Record<string, unknown> }>;
    const fieldsOf = (name: string) => new Set(Object.keys(schemas[name].properties));

    // A paginated list: an array of Modules, with the Link header the document promises.
    const list = await call('GET', '/courses/42/modules?per_page=10&student_id=1001', auth);
    assert.equal(list.status, 200);
    assert.ok(Array.isArray(list.json) && list.json.length > 0);
    for (const module of list.json as Record<string, unknown>[]) {
      assert.ok(Object.keys(module).every((k) => fieldsOf('Module').has(k)));
      assert.equal(typeof module.id, 'number');
    }
    assert.ok(list.headers.link);

    // A module item: a valid form body is a ModuleItem; a body without the Required type, or
    // with a type outside the documented set, is a 422 naming the parameter.
    const valid = await call(
      'POST',
      '/courses/42/modules/7/items',
      form,
      'module_item[type]=Assignment&module_item[content_id]=305&module_item[title]=Read%20me&module_item[position]=2',
    );
    assert.equal(valid.status, 200);
    assert.ok(Object.keys(valid.json as object).every((k) => fieldsOf('ModuleItem').has(k)));
    const missing = await call('POST', '/courses/42/modules/7/items', form, 'module_item[title]=No%20type');
    assert.equal(missing.status, 422);
    assert.match(JSON.stringify(missing.json), /module_item\[type\]/);
    const outside = await call('POST', '/courses/42/modules/7/items', form, 'module_item[type]=Folder');
    assert.equal(outside.status, 422);
    assert.match(JSON.stringify(outside.json), /module_item\[type\]/);
    const notInteger = await call(
      'POST',
      '/courses/42/modules/7/items',
      form,
      'module_item[type]=SubHeader&module_item[position]=second',
    );
    assert.equal(notInteger.status, 422);

    // Path placeholders take their documented forms: an id or sis_course_id:..., not a word.
    assert.equal((await call('GET', '/courses/sis_course_id:MATH101/modules', auth)).status, 200);
    assert.equal((await call('GET', '/courses/math/modules', auth)).status, 422);

    // The one JSON body of the catalog: its shape is checked too, and a missing attempt is
    // answered with the 400 the docs list for it ("attempt missing or invalid").
    const json = { ...auth, 'content-type': 'application/json' };
    const scored = await call(
      'PUT',
      '/courses/42/quizzes/9/submissions/3',
      json,
      JSON.stringify({
        quiz_submissions: [{ attempt: 1, fudge_points: null, questions: { '17': { score: 2, comment: null } } }],
      }),
    );
    assert.equal(scored.status, 200);
    assert.ok(Array.isArray((scored.json as { quiz_submissions?: unknown }).quiz_submissions));
    assert.equal(
      (
        await call(
          'PUT',
          '/courses/42/quizzes/9/submissions/3',
          json,
          JSON.stringify({ quiz_submissions: [{ fudge_points: 1 }] }),
        )
      ).status,
      400,
    );

    // Bearer authentication is required; an undocumented path is not found.
    assert.equal((await call('GET', '/courses/42/modules', {})).status, 401);
    assert.equal((await call('GET', '/courses/42/nothing_here', auth)).status, 404);
  } finally {
    clearTimeout(guard);
    await stop(prism);
  }
});
