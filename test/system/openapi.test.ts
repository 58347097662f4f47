/**
 * `lpreq export openapi`: the catalog as OpenAPI 3.1. The document is checked by a
 * maintained validator (Redocly's), its schemas by Ajv's JSON Schema 2020-12 meta-schema,
 * its coverage of the catalog as data, and its response schemas against the typed check on
 * the 145 recorded real responses.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { bundledCatalog } from '../../server/src/catalogData';
import {
  catalogToOpenApi,
  type JsonObject,
  EndpointMatcher,
  targetPath,
  isDate,
  isDateTime,
  loadCatalog,
  type CatalogParameter,
  type Endpoint,
} from '../../server/src/core/index';
import { checkResponse } from '../../server/src/sender/typed';
import { run as runExport } from '../../server/src/cli/exportCommand';
import { ROOT, SHARED, tempDir } from '../helpers';
import { captureIo } from '../io';

const catalog = bundledCatalog();
const doc = catalogToOpenApi(catalog, { version: '0.1.0' });

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is walked as plain JSON */
type Operation = any;
const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** Every operation of the document with its path and method. */
function operations(): { path: string; method: string; op: Operation }[] {
  const out: { path: string; method: string; op: Operation }[] = [];
  for (const [path, item] of Object.entries(doc.paths as Record<string, Record<string, Operation>>)) {
    for (const method of METHODS) if (item[method]) out.push({ path, method, op: item[method] });
  }
  return out;
}

/** The operations generated from one catalog endpoint. */
function operationsOf(endpoint: Endpoint) {
  return operations().filter((o) => o.op['x-lpreq-endpoint'] === endpoint.id);
}

/** A path template reduced to its shape: placeholders' names do not matter to OpenAPI. */
const shape = (path: string) => path.replace(/\{\*?\w+\}/g, '{}');

test('the document is valid OpenAPI 3.1 for Redocly: no errors, and only the warnings the API itself causes', async () => {
  const { lintFromString, createConfig } = await import('@redocly/openapi-core');
  const config = await createConfig({ extends: ['recommended'] });
  const problems = await lintFromString({
    source: JSON.stringify(doc),
    absoluteRef: join(ROOT, 'openapi.json'),
    config,
  });
  const errors = problems
    .filter((p) => p.severity === 'error')
    .map((p) => `${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`);
  assert.deepEqual(errors, []);
  // What is left are warnings about the API, not about the export: the docs give no license
  // and no 4xx for most operations, two documented channel paths are ambiguous, and some
  // resources are described but returned by no endpoint.
  const warnings = new Set(problems.map((p) => p.ruleId));
  assert.deepEqual([...warnings].sort(), [
    'info-license',
    'no-ambiguous-paths',
    'no-unused-components',
    'operation-4xx-response',
  ]);
});

test('every schema is valid JSON Schema 2020-12', () => {
  const ajv = new Ajv2020({ strict: false });
  const schemas: [string, unknown][] = Object.entries((doc.components as JsonObject).schemas as JsonObject).map(
    ([name, s]) => [`components.schemas.${name}`, s],
  );
  for (const { path, method, op } of operations()) {
    for (const p of op.parameters ?? []) schemas.push([`${method} ${path} ${p.in} ${p.name}`, p.schema]);
    for (const [media, content] of Object.entries<any>(op.requestBody?.content ?? {}))
      schemas.push([`${method} ${path} body ${media}`, content.schema]);
    for (const [status, response] of Object.entries<any>(op.responses)) {
      for (const content of Object.values<any>(response.content ?? {}))
        schemas.push([`${method} ${path} ${status}`, content.schema]);
    }
  }
  assert.ok(schemas.length > 500);
  const invalid = schemas
    .filter(([, s]) => !ajv.validateSchema(s as object))
    .map(([where]) => `${where}: ${ajv.errorsText()}`);
  assert.deepEqual(invalid, []);
});

test('every catalog endpoint is an operation on each of its documented paths', () => {
  let count = 0;
  for (const endpoint of catalog.endpoints) {
    const ops = operationsOf(endpoint);
    assert.equal(ops.length, endpoint.paths.length, endpoint.id);
    for (const path of endpoint.paths) {
      const found = ops.filter((o) => shape(o.path) === shape(path.template));
      assert.equal(found.length, 1, `${endpoint.id} ${path.template}`);
      const { path: key, method, op } = found[0];
      count++;
      assert.equal(method, endpoint.method.toLowerCase(), endpoint.id);
      assert.equal(shape(key), shape(path.template), endpoint.id);
      assert.equal(op['x-lpreq-scope'], path.scope);
      assert.deepEqual(op.tags, [endpoint.source.section]);
      assert.deepEqual(op['x-lpreq-source'], endpoint.source);
      assert.equal(op.deprecated === true, endpoint.deprecated === true || path.deprecated, endpoint.id);
      assert.ok(op.summary.length > 0 && endpoint.purpose.startsWith(op.summary), endpoint.id);
      // The rules OpenAPI cannot express travel as the catalog's own data (as JSON: the catalog's tables have no prototype).
      assert.deepEqual(
        op['x-lpreq-rules'],
        endpoint.rules.length > 0 ? JSON.parse(JSON.stringify(endpoint.rules)) : undefined,
        endpoint.id,
      );
      // Every placeholder is a required path parameter.
      const placeholders = [...key.matchAll(/\{(\w+)\}/g)].map((m) => m[1]);
      const pathParams = (op.parameters ?? []).filter((p: any) => p.in === 'path');
      assert.deepEqual(
        pathParams.map((p: any) => p.name),
        placeholders,
        `${endpoint.id} ${key}`,
      );
      assert.ok(pathParams.every((p: any) => p.required === true && p['x-lpreq-forms'].length > 0));
    }
  }
  assert.equal(count, operations().length, 'no operation without a catalog endpoint');
  const ids = operations().map((o) => o.op.operationId);
  assert.equal(new Set(ids).size, ids.length, 'operation ids are unique');
  const tags = new Set(((doc.tags as JsonObject[]) ?? []).map((t) => t.name));
  assert.deepEqual([...tags].sort(), [...new Set(catalog.endpoints.map((e) => e.source.section))].sort());
});

/** The schema of one value of a parameter: the items of an array. */
function valueOf(schema: any): any {
  return schema.type === 'array' ? schema.items : schema;
}

/** A name a pattern parameter stands for: `permissions[manage_files][enabled]`, `question[answers][0][answer_text]`. */
function instanceOf(p: CatalogParameter): string {
  const [head, ...rest] = p.parsedName.segments;
  return (
    head +
    rest
      .map((segment, i) => {
        const pattern = p.parsedName.patternAt.get(i + 1);
        if (pattern === undefined) return `[${segment}]`;
        const spec = p.patterns?.[pattern];
        return `[${spec?.values?.[0] ?? (spec?.index ? '0' : 'some_name')}]`;
      })
      .join('')
  );
}

test('every parameter: in the query or the form body, by its bracket name, with its required marker, enum and array-ness', () => {
  for (const endpoint of catalog.endpoints) {
    for (const { op } of operationsOf(endpoint)) {
      const pathNames = new Set(
        (op.parameters ?? []).filter((p: any) => p.in === 'path').map((p: any) => p['x-lpreq-placeholder'] ?? p.name),
      );
      const query = new Map<string, any>(
        (op.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => [p.name, p]),
      );
      const form = op.requestBody?.content?.['application/x-www-form-urlencoded']?.schema;
      if (endpoint.body === 'json') {
        assert.ok(op.requestBody.content['application/json'].schema, endpoint.id);
        assert.equal(op.requestBody.required, true);
        continue;
      }
      const inQuery = ['GET', 'DELETE', 'HEAD'].includes(endpoint.method);
      for (const p of endpoint.params) {
        if (pathNames.has(p.inPath ?? p.name) || pathNames.has(p.name)) continue;
        if (p.isPattern) {
          assert.ok(!inQuery, `${endpoint.id} ${p.name}: a pattern in a query`);
          const patterns = Object.keys(form.patternProperties ?? {});
          const matching = patterns.filter((re) => new RegExp(re).test(instanceOf(p)));
          assert.equal(matching.length, 1, `${endpoint.id} ${p.name} ${instanceOf(p)}`);
          assert.ok(!new RegExp(matching[0]).test(`${instanceOf(p)}x`));
          continue;
        }
        const schema = inQuery ? query.get(p.name)?.schema : form?.properties?.[p.name];
        assert.ok(schema, `${endpoint.id}: ${p.name} is missing`);
        const required = inQuery ? query.get(p.name).required === true : (form.required ?? []).includes(p.name);
        assert.equal(required, p.required === true, `${endpoint.id} ${p.name} required`);
        assert.equal(schema.type === 'array', p.isArray, `${endpoint.id} ${p.name} array`);
        if (p.isArray && !inQuery)
          assert.deepEqual(op.requestBody.content['application/x-www-form-urlencoded'].encoding[p.name], {
            style: 'form',
            explode: true,
          });
        const value = valueOf(schema);
        if (p.enum && !p.enumOpen)
          assert.deepEqual(
            value.enum,
            p.type === 'string' ? p.enum : p.enum.map(Number),
            `${endpoint.id} ${p.name} enum`,
          );
        if (p.enumOpen) assert.equal(value.enum, undefined);
        assert.equal(
          (inQuery ? query.get(p.name) : schema).deprecated === true,
          Boolean(p.deprecated),
          `${endpoint.id} ${p.name} deprecated`,
        );
      }
      // Nothing the catalog does not list.
      const listed = new Set(endpoint.params.map((p) => p.name));
      for (const name of query.keys()) assert.ok(listed.has(name), `${endpoint.id}: ${name}`);
      for (const name of Object.keys(form?.properties ?? {})) assert.ok(listed.has(name), `${endpoint.id}: ${name}`);
    }
  }
});

test('every resource is a schema: its fields, enums as the catalog lists them, null where the docs allow it', () => {
  const schemas = (doc.components as JsonObject).schemas as Record<string, any>;
  const names = new Set([...catalog.resources.keys(), ...catalog.externalResources.keys()]);
  assert.deepEqual(Object.keys(schemas).sort(), [...names].sort());
  const ajv = new Ajv2020({ strict: false });
  ajv.addSchema({ $id: 'lpreq:openapi', components: doc.components as JsonObject });
  for (const resource of catalog.resources.values()) {
    const schema = schemas[resource.name];
    const validate = ajv.compile({ $ref: `lpreq:openapi#/components/schemas/${resource.name}` });
    assert.deepEqual(
      Object.keys(schema.properties),
      resource.fields.map((f) => f.name),
      resource.name,
    );
    for (const field of resource.fields) {
      const property = schema.properties[field.name];
      const enumOf = (s: any): unknown[] | undefined =>
        s.enum ?? (s.items ? enumOf(s.items) : s.anyOf?.map(enumOf).find(Boolean));
      if (field.enum && !field.enumOpen) {
        const values = enumOf(property)?.filter((v) => v !== null);
        assert.deepEqual(
          values,
          field.type.startsWith('integer') ? field.enum.map(Number) : field.enum,
          `${resource.name}.${field.name}`,
        );
      } else {
        assert.equal(enumOf(property), undefined, `${resource.name}.${field.name}`);
      }
      // Null is accepted exactly where the docs say "or null".
      assert.equal(
        validate({ [field.name]: null }),
        field.nullable === true || field.type === 'any',
        `${resource.name}.${field.name} null`,
      );
    }
  }
});

test('the response schemas accept exactly the real responses the typed check accepts (145 recorded exchanges)', () => {
  const exchanges = JSON.parse(readFileSync(join(SHARED, 'real-world', 'canvasapi-exchanges.json'), 'utf8')) as {
    id: string;
    method: string;
    path: string;
    body: unknown;
  }[];
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  // Formats as lpreq reads them: the same truth on both sides, so only the shapes are compared.
  ajv.addFormat('date-time', isDateTime);
  ajv.addFormat('date', isDate);
  ajv.addSchema({ $id: 'lpreq:openapi', components: doc.components as JsonObject });
  const matcher = new EndpointMatcher(catalog);
  const disagreements: string[] = [];
  let validated = 0;
  for (const e of exchanges) {
    const target = targetPath(e.path, () => undefined);
    assert.ok(target);
    const match = matcher.match(target, e.method);
    assert.equal(match.kind, 'matched', e.id);
    if (match.kind !== 'matched') continue;
    const typedOk = checkResponse(catalog, match.endpoint.returns, e.body).issues.length === 0;
    const [{ op }] = operationsOf(match.endpoint);
    const success = Object.entries<any>(op.responses).find(([status]) => status.startsWith('2'))?.[1];
    const schema = success?.content?.['application/json']?.schema;
    let schemaOk = true;
    if (schema) {
      validated++;
      const rebased = JSON.parse(
        JSON.stringify(schema).replaceAll('"#/components/', '"lpreq:openapi#/components/'),
      ) as object;
      schemaOk = ajv.validate(rebased, e.body);
    }
    if (schemaOk !== typedOk)
      disagreements.push(
        `${e.id}: schema ${schemaOk ? 'accepts' : 'rejects'}, typed check ${typedOk ? 'accepts' : 'rejects'}`,
      );
  }
  assert.equal(exchanges.length, 145);
  assert.ok(validated > 120);
  assert.deepEqual(disagreements, []);
});

test('security, servers, and the same document for the same catalog', () => {
  assert.equal(doc.openapi, '3.1.0');
  assert.deepEqual(doc.security, [{ bearerAuth: [] }]);
  assert.deepEqual(((doc.components as JsonObject).securitySchemes as JsonObject).bearerAuth, {
    type: 'http',
    scheme: 'bearer',
    description: 'The access token, sent as `Authorization: Bearer <token>`.',
  });
  assert.equal(((doc.servers as JsonObject[])[0].variables as any).base_url.default, 'http://127.0.0.1:4010');
  assert.equal(JSON.stringify(catalogToOpenApi(catalog, { version: '0.1.0' })), JSON.stringify(doc));
});

test('a catalog of one made-up endpoint: the export follows the data, and any name is a plain key', () => {
  const small = loadCatalog({
    endpointFiles: {
      'X.endpoints.json': {
        doc: 'A',
        endpoints: [
          {
            id: 'widgets.create',
            source: { doc: 'A', section: 'Widgets' },
            method: 'POST',
            paths: ['/api/v1/widgets/{widget_id}/parts'],
            purpose: 'create a part. Returns Widget',
            returns: 'Widget',
            params: [
              {
                name: '__proto__',
                type: 'string',
                required: true,
                description: 'a name no object should take for its prototype',
              },
              { name: 'part[kind]', type: 'string', enum: ['a', 'b'], description: 'kind' },
              { name: 'part[tags][]', type: 'integer', description: 'tags' },
            ],
            rules: [{ kind: 'conflicts', params: ['__proto__', 'part[kind]'], text: 'not both' }],
          },
        ],
      },
    },
    resourceFile: {
      resources: [
        {
          name: 'Widget',
          source: { doc: 'A', section: 'Widget' },
          description: 'w',
          fields: [{ name: '__proto__', type: 'integer', nullable: true }],
        },
      ],
      externalResources: [],
    },
  });
  const out = catalogToOpenApi(small, { version: 'test' }) as any;
  const op = out.paths['/api/v1/widgets/{widget_id}/parts'].post;
  assert.equal(op.operationId, 'widgets.create');
  assert.equal(op.summary, 'create a part');
  assert.deepEqual(
    op.parameters.map((p: any) => [p.name, p.in, p.schema]),
    [['widget_id', 'path', { type: 'integer', minimum: 0 }]],
  );
  const body = op.requestBody.content['application/x-www-form-urlencoded'];
  assert.deepEqual(Object.keys(body.schema.properties), ['__proto__', 'part[kind]', 'part[tags][]']);
  assert.ok(Object.hasOwn(body.schema.properties, '__proto__'));
  assert.deepEqual(body.schema.required, ['__proto__']);
  assert.deepEqual(body.schema.properties['part[tags][]'], {
    type: 'array',
    items: { type: 'integer' },
    description: 'tags',
  });
  assert.deepEqual(body.encoding, { 'part[tags][]': { style: 'form', explode: true } });
  assert.deepEqual(op['x-lpreq-rules'], [{ kind: 'conflicts', params: ['__proto__', 'part[kind]'], text: 'not both' }]);
  assert.ok(Object.hasOwn(out.components.schemas.Widget.properties, '__proto__'));
  assert.deepEqual(JSON.parse(JSON.stringify(out.components.schemas.Widget.properties)), {
    ['__proto__']: { type: ['integer', 'null'] },
  });
  assert.deepEqual(out.tags, [{ name: 'Widgets', description: 'Document A, section "Widgets".' }]);
});

test('lpreq export openapi: standard output or --out FILE', async () => {
  const dir = tempDir('export');
  const toStdout = captureIo({ cwd: dir });
  assert.equal(await runExport(['openapi'], toStdout.io), 0);
  assert.deepEqual(JSON.parse(toStdout.stdout), doc);
  const toFile = captureIo({ cwd: dir });
  assert.equal(await runExport(['openapi', '--out', 'api.json'], toFile.io), 0);
  assert.equal(toFile.stdout, '');
  assert.equal(readFileSync(join(dir, 'api.json'), 'utf8'), toStdout.stdout);
});

const badArguments: [string, string[]][] = [
  ['nothing to export', []],
  ['an unknown format', ['yaml']],
  ['an extra argument', ['openapi', 'more']],
  ['--out without a value', ['openapi', '--out']],
  ['--out given twice', ['openapi', '--out', 'a.json', '--out', 'b.json']],
  ['an empty --out', ['openapi', '--out=']],
  ['an unknown option', ['openapi', '--format', 'yaml']],
  ['a folder that does not exist', ['openapi', '--out', join('no', 'such', 'folder', 'api.json')]],
];
for (const [what, argv] of badArguments) {
  test(`lpreq export: ${what} exits 2 with a message and writes nothing`, async () => {
    const out = captureIo({ cwd: tempDir('export-bad') });
    assert.equal(await runExport(argv, out.io), 2);
    assert.equal(out.stdout, '');
    assert.match(out.stderr, /^lpreq export: \S/);
  });
}

test('the built command line runs export (bin/lpreq.js)', () => {
  const ok = spawnSync(process.execPath, [join(ROOT, 'bin', 'lpreq.js'), 'export', 'openapi'], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(ok.status, 0, ok.stderr);
  assert.deepEqual(JSON.parse(ok.stdout), doc);
  const bad = spawnSync(process.execPath, [join(ROOT, 'bin', 'lpreq.js'), 'export'], { encoding: 'utf8' });
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /usage: lpreq export openapi/);
});
