/**
 * The catalog against the documentation: every endpoint the docs document (listed by hand in
 * test/fixtures/documented-endpoints.txt) is in the catalog and nothing else is; every entry
 * cites a document and a section heading that exists in that document; the data is consistent.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, SHARED } from '../../helpers';
import { bundledCatalog } from '../../../server/src/catalogData';
import { lintCatalog } from '../../../server/src/core/catalog/lint';
import { CatalogError, loadCatalog } from '../../../server/src/core/catalog/catalog';
import { CODES } from '../../../server/src/core/index';

const catalog = bundledCatalog();
const docsDir = join(SHARED, 'api-docs');
const docs: Record<string, string> = {};
for (const name of readdirSync(docsDir)) docs[name[0]] = readFileSync(join(docsDir, name), 'utf8');
const headings = (doc: string) => new Set([...docs[doc].matchAll(/^#{2,4}\s+(.+?)\s*$/gm)].map((m) => m[1].trim()));

test('every documented endpoint is in the catalog, and the catalog adds none', () => {
  const listed = readFileSync(join(ROOT, 'test', 'fixtures', 'documented-endpoints.txt'), 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const normalise = (s: string) => s.replace(/\{\*?[^}]+\}/g, '{}');
  const inCatalog = new Set(
    catalog.endpoints.flatMap((e) => e.paths.map((p) => normalise(`${e.method} ${p.template}`))),
  );
  const documented = new Set(listed.map(normalise));
  const missing = [...documented].filter((e) => !inCatalog.has(e));
  const extra = [...inCatalog].filter((e) => !documented.has(e));
  assert.deepEqual(missing, [], 'documented but not in the catalog');
  assert.deepEqual(extra, [], 'in the catalog but not documented');
  assert.ok(documented.size >= 150);
});

test('every endpoint and resource cites its document and an existing section', () => {
  const cache: Record<string, Set<string>> = {};
  const entries = [
    ...catalog.endpoints.map((e) => ({ what: `endpoint ${e.id}`, source: e.source })),
    ...[...catalog.resources.values()].map((r) => ({ what: `resource ${r.name}`, source: r.source })),
    ...[...catalog.externalResources].map(([name, source]) => ({ what: `external ${name}`, source })),
    ...[...catalog.resources.values()].flatMap((r) =>
      r.fields.flatMap((f) =>
        f.visibility ? [{ what: `visibility ${r.name}.${f.name}`, source: f.visibility.source }] : [],
      ),
    ),
    ...catalog.endpoints.flatMap((e) =>
      [...(e.visibility?.access ?? []), ...(e.visibility?.rows ? [e.visibility.rows] : [])].map((v) => ({
        what: `visibility ${e.id}`,
        source: v.source,
      })),
    ),
    ...(catalog.permissions ? [{ what: 'permissions', source: catalog.permissions.table.source }] : []),
  ];
  const bad = entries.filter(({ source }) => !(cache[source.doc] ??= headings(source.doc)).has(source.section));
  assert.deepEqual(
    bad.map((b) => `${b.what}: ${b.source.doc} / ${b.source.section}`),
    [],
  );
});

test('every path of document A, B and C appears in the catalog with its method', () => {
  // The docs write paths in backticks or table cells; each /api/... path string in them must match a catalog path.
  const templates = new Set(
    catalog.endpoints.flatMap((e) => e.paths.map((p) => p.template.replace(/\{\*?[^}]+\}/g, '{}'))),
  );
  for (const [doc, text] of Object.entries(docs)) {
    const written = [...text.matchAll(/`(\/api\/[^`\s]+)`/g)].flatMap((m) => {
      // `{courses|users|groups}` stands for three literal segments.
      const alt = /\{([a-z]+(?:\|[a-z]+)+)\}/.exec(m[1]);
      return alt ? alt[1].split('|').map((a) => m[1].replace(alt[0], a)) : [m[1]];
    });
    for (const original of written) {
      const m = [original, original];
      const path = m[1].replace(/\{[^}]+\}/g, '{}');
      if (path.includes('...')) continue;
      // A path is an endpoint's, or the common prefix the docs state for a section ("All paths start with").
      const known = templates.has(path) || [...templates].some((t) => t.startsWith(`${path}/`));
      assert.ok(known, `document ${doc} path ${m[1]} is not in the catalog`);
    }
  }
});

test('the catalog is consistent: rules name parameters, returned types exist', () => {
  assert.deepEqual(lintCatalog(catalog), []);
});

test('the lint reads the visibility statements: an unknown permission, parameter or placeholder, a table that disagrees', () => {
  const files = Object.fromEntries(
    ['A', 'B', 'C'].map((d) => [
      `${d}.endpoints.json`,
      JSON.parse(readFileSync(join(ROOT, 'schemas', `${d}.endpoints.json`), 'utf8')) as {
        endpoints: { id: string; visibility?: unknown; rules?: { kind: string; table?: Record<string, string[]> }[] }[];
        permissions?: { course: Record<string, string> };
      },
    ]),
  );
  const a = files['A.endpoints.json'];
  const upload = a.endpoints.find((e) => e.id === 'files.upload');
  assert.ok(upload && a.permissions);
  upload.visibility = {
    access: [
      {
        when: { anyOf: [{ permission: 'manage_filez' }, { self: 'user_id' }] },
        text: 'x',
        source: { doc: 'A', section: 'Files and folders' },
      },
    ],
  };
  const quizStart = files['B.endpoints.json'].endpoints.find((e) => e.id === 'quiz_submissions.create');
  assert.ok(quizStart);
  quizStart.visibility = {
    access: [
      {
        when: { role: ['TeacherEnrollment'] },
        if: { param: 'nope' },
        text: 'x',
        source: { doc: 'B', section: 'Quiz submissions' },
      },
    ],
  };
  a.permissions.course.read_sis = 'Ta';
  const broken = loadCatalog({
    endpointFiles: files,
    resourceFile: JSON.parse(readFileSync(join(ROOT, 'schemas', 'resources.json'), 'utf8')) as unknown,
  });
  const problems = lintCatalog(broken);
  assert.ok(
    problems.some((p) => p.includes('manage_filez')),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => p.includes('placeholder user_id')),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => p.includes('nope is not a parameter')),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => p.includes('permission read_sis applies to')),
    problems.join('\n'),
  );
});

test('every endpoint states its purpose in the docs words', () => {
  for (const e of catalog.endpoints) assert.ok(e.purpose.length > 0, `${e.id} has a purpose`);
});

test('scope strings are url:METHOD|path for every path, the path as the docs write it (document A, conventions 1 and 8)', () => {
  const modules = catalog.endpointById.get('modules.list');
  assert.equal(modules?.paths[0].scope, 'url:GET|/api/v1/courses/{course_id}/modules');
  // The rest of a path is written {full_path} in the docs, as any placeholder.
  const byPath = catalog.endpointById.get('folders.resolve_path');
  assert.equal(byPath?.paths[0].scope, 'url:GET|/api/v1/courses/{id}/folders/by_path/{full_path}');
  for (const e of catalog.endpoints)
    for (const p of e.paths) assert.match(p.scope, /^url:(GET|POST|PUT|DELETE|PATCH)\|\/api\//);
});

test('docs/codes.md explains every diagnostic code (the language server links there)', () => {
  const text = readFileSync(join(ROOT, 'docs', 'codes.md'), 'utf8');
  for (const code of Object.keys(CODES)) assert.match(text, new RegExp(`^## ${code}$`, 'm'), code);
});

test('zod checks the resources when they are first asked for, and a broken resource file fails there', () => {
  const endpointFiles = Object.fromEntries(
    ['A', 'B', 'C'].map((d) => [
      `${d}.endpoints.json`,
      JSON.parse(readFileSync(join(ROOT, 'schemas', `${d}.endpoints.json`), 'utf8')) as unknown,
    ]),
  );
  let reads = 0;
  const broken = loadCatalog({
    endpointFiles,
    resourceFile: () => {
      reads++;
      return { resources: [{ name: 'Thing', fields: 'not a list' }], externalResources: [] };
    },
  });
  assert.equal(broken.endpoints.length, catalog.endpoints.length);
  assert.equal(reads, 0, 'loading the endpoints does not read the resources');
  assert.throws(() => broken.resources, CatalogError);
  const good = loadCatalog({
    endpointFiles,
    resourceFile: JSON.parse(readFileSync(join(ROOT, 'schemas', 'resources.json'), 'utf8')) as unknown,
  });
  assert.equal(good.resources.size, catalog.resources.size);
  assert.equal(good.resources, good.resources, 'indexed once');
});

test('a resource is inline exactly when the docs describe it in an endpoint section, not among the resources', () => {
  const endpointSections = (doc: string) => {
    const text = docs[doc];
    const from = text.indexOf('\n## Endpoints');
    const to = text.indexOf('\n## ', from + 1);
    return new Set([...text.slice(from, to === -1 ? undefined : to).matchAll(/^###\s+(.+?)\s*$/gm)].map((m) => m[1]));
  };
  const wrong = [...catalog.resources.values()]
    .filter((r) => (r.inline === true) !== endpointSections(r.source.doc).has(r.source.section))
    .map((r) => `${r.name} (${r.source.doc}, ${r.source.section}) inline: ${String(r.inline)}`);
  assert.deepEqual(wrong, []);
});
