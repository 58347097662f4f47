/**
 * Robustness: 20,000 random and mutated documents through the parser and the checker, with
 * zero exceptions. Seeded (fast-check), so a failure reproduces; the seed is printed on failure.
 * `LPREQ_FUZZ_RUNS` sets the number of documents of each test (test/fuzzRuns.ts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseDocument, type Environments } from '../../server/src/core/index';
import { bundledCatalog } from '../../server/src/catalogData';
import { sharedChecker, SHARED, ROOT } from '../helpers';
import { count, fuzzRuns } from '../fuzzRuns';

/** Runs of each test below. */
const FUZZ_RUNS = fuzzRuns(3_000);
const ROBUSTNESS_RUNS = fuzzRuns(20_000);
const DIAGNOSE_RUNS = fuzzRuns(5_000);

const corpus = [
  ...readdirSync(join(SHARED, 'conformance', 'invalid'))
    .filter((n) => n.endsWith('.lpreq'))
    .map((n) => join(SHARED, 'conformance', 'invalid', n)),
  join(SHARED, 'conformance', 'valid', 'a-modules.lpreq'),
  ...readdirSync(join(ROOT, 'test', 'fixtures', 'diagnostics'))
    .filter((n) => n.endsWith('.lpreq'))
    .map((n) => join(ROOT, 'test', 'fixtures', 'diagnostics', n)),
].map((f) => readFileSync(f, 'utf8'));

/** Every name of Object.prototype: a name a user gives must find only what the catalog, a file or an environment defines (issue 17). */
const PROTO_NAMES = Object.getOwnPropertyNames(Object.prototype);

const pieces = [
  ...PROTO_NAMES,
  '###',
  '\n',
  '\r\n',
  '{{',
  '}}',
  '{',
  '}',
  '[',
  ']',
  '=',
  '&',
  '?',
  ':',
  '#',
  '@',
  '//',
  '/api/v1/',
  'GET ',
  'POST ',
  '\t',
  ' ',
  '\uFEFF',
  '\0',
  '🎓',
  'course_',
  'sis_course_id:',
  '%',
  '%ZZ',
  'include[]',
  '"',
  '{"a":',
  '{course_id}',
  'HTTP/1.1',
  // Assertion lines (section 6) and their parts.
  '?? ',
  '??',
  '\n?? status == 200\n',
  '\n?? body $.name == x\n',
  '?? body $[*].items[0].type == Page',
  '?? header content-type includes json',
  'body ',
  '$.',
  '$[*]',
  '[0]',
  "['__proto__']",
  '.constructor',
  ' == ',
  ' >= ',
  ' includes ',
  ' !exists',
  ' matches /(/',
  '"quoted"',
  ' null',
];

/** A mutation: insert, delete or replace a slice of a corpus document. */
const mutated = fc
  .tuple(
    fc.constantFrom(...corpus),
    fc.array(
      fc.tuple(
        fc.nat(),
        fc.nat({ max: 40 }),
        fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 6 })),
      ),
      { maxLength: 6 },
    ),
  )
  .map(([doc, edits]) => {
    let text = doc;
    for (const [at, len, insert] of edits) {
      const i = at % (text.length + 1);
      text = text.slice(0, i) + insert + text.slice(i + len);
    }
    return text;
  });

const random = fc
  .array(
    fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 20 }), fc.string({ unit: 'grapheme', maxLength: 8 })),
    { maxLength: 60 },
  )
  .map((a) => a.join(''));

const protoName = fc.constantFrom(...PROTO_NAMES);

/**
 * A request to a documented endpoint whose path values, parameter names (their bracket keys
 * and pattern segments), values, JSON keys, variables, request references and system-variable
 * arguments are names of Object.prototype: every table of the catalog a sent name or value
 * indexes (rules, enums, patterns, JSON shapes, placeholders) is reached with one.
 */
const prototypeNamed = fc
  .record({
    endpoint: fc.constantFrom(...bundledCatalog().endpoints),
    path: fc.nat(),
    pathValues: fc.array(fc.oneof(fc.constant('1'), protoName), { minLength: 4, maxLength: 4 }),
    params: fc.array(fc.tuple(fc.nat(), fc.nat(), protoName, fc.oneof(protoName, fc.nat()), fc.nat({ max: 4 })), {
      maxLength: 6,
    }),
    json: fc.boolean(),
    extras: fc.array(fc.tuple(fc.nat({ max: 9 }), protoName, protoName), { maxLength: 3 }),
  })
  .map(({ endpoint, path, pathValues, params, json, extras }) => {
    const template = endpoint.paths[path % endpoint.paths.length].template;
    let k = 0;
    const target = template.replace(/\{\*?\w+\}/g, () => pathValues[k++ % pathValues.length]);
    const pairs: [string, string][] = params.map(([which, segment, name, value, how]) => {
      const param = endpoint.params.length > 0 ? endpoint.params[which % endpoint.params.length] : undefined;
      let segments = param ? [...param.parsedName.segments] : [name];
      // A pattern segment (`permissions[{X}][enabled]`) filled with the name; or one segment replaced by it.
      segments = segments.map((s) => (/^\{\w+\}$/.test(s) ? name : s));
      if (how === 0) segments[segment % segments.length] = name;
      if (how === 1) segments.push(name);
      const written =
        segments[0] +
        segments
          .slice(1)
          .map((s) => `[${s}]`)
          .join('');
      const documented = param?.enum ?? [];
      const v =
        typeof value === 'number'
          ? documented.length > 0
            ? documented[value % documented.length]
            : String(value)
          : value;
      return [written, how === 2 ? `{{${v}}}` : v];
    });
    const head: string[] = [];
    const headers: string[] = [];
    const assertions: string[] = [];
    for (const [kind, a, b] of extras) {
      if (kind === 0) head.push(`@${a} = ${b}`);
      else if (kind === 1) head.push(`# @name ${a}`);
      else if (kind === 2) head.push(`# @${a} ${b}`);
      else if (kind === 3) headers.push(`${a}: {{${b}}}`);
      else if (kind === 4) headers.push(`X-A: {{$processEnv ${a}}} {{$dotenv ${b}}} {{$env.${a}}}`);
      else if (kind === 5)
        headers.push(`X-B: {{$timestamp 1 ${a}}} {{$datetime iso8601 1 ${b}}} {{$localDatetime ${a}}}`);
      else if (kind === 6) headers.push(`X-C: {{${a}.response.body.$.${b}}} {{${a}.response.headers.${b}}}`);
      else if (kind === 7) headers.push(`X-D: {{%${a}}}`);
      else if (kind === 8) {
        // Assertion lines whose paths, header names and values are names of Object.prototype.
        assertions.push(
          `?? body $.${a} exists`,
          `?? body $['${b}'][*].${a} == ${b}`,
          `?? body $[0].${a}.${b} != {{${a}}}`,
          `?? header ${a} includes ${b}`,
        );
      } else head.push(`# @prompt ${a}`);
    }
    const body = json
      ? JSON.stringify(
          Object.fromEntries(pairs.map(([n, v]) => [n.replace(/\[.*$/, ''), Object.fromEntries([[n, v]])])),
        )
      : pairs.map(([n, v]) => `${n} = ${v}`).join('\n');
    return `${head.join('\n')}\n${endpoint.method} ${target}\n${headers.join('\n')}${headers.length ? '\n' : ''}\n${body}\n${assertions.map((x) => `${x}\n`).join('')}`;
  });

test('Object.prototype names in every place a name goes: the checker never throws, and diagnose equals checkDocument', () => {
  const checker = sharedChecker();
  // Environments named like Object.prototype's members, and variables too (as JSON.parse gives them: `__proto__` an own key).
  const environments = JSON.parse(
    `{${PROTO_NAMES.map((n) => `${JSON.stringify(n)}: {"base_url": "http://127.0.0.1:4010", ${JSON.stringify(n)}: "1"}`).join(', ')}, "local": {"toString": "x", "__proto__": "y"}}`,
  ) as Environments['environments'];
  const envs: (Environments | undefined)[] = [
    undefined,
    { environments },
    ...[...PROTO_NAMES, 'local', 'missing'].map((selected) => ({ environments, selected })),
  ];
  let runs = 0;
  fc.assert(
    fc.property(
      fc.oneof({ weight: 3, arbitrary: prototypeNamed }, { weight: 1, arbitrary: mutated }),
      fc.nat(),
      (text, e) => {
        runs++;
        const env = envs[e % envs.length];
        const diagnostics = checker.checkDocument(parseDocument(text), env);
        for (const d of diagnostics)
          assert.ok(d.start >= 0 && d.end >= d.start && d.end <= text.length, JSON.stringify(d));
        assert.deepEqual(checker.diagnose(text, env), diagnostics);
      },
    ),
    { numRuns: FUZZ_RUNS, seed: 20261123 },
  );
  assert.equal(runs, FUZZ_RUNS);
});

test(`${count(ROBUSTNESS_RUNS)} random and mutated documents: parser and checker never throw`, () => {
  const checker = sharedChecker();
  const env = { environments: { local: { base_url: 'http://127.0.0.1:4010' } } };
  let runs = 0;
  fc.assert(
    fc.property(fc.oneof({ weight: 3, arbitrary: mutated }, { weight: 1, arbitrary: random }), (text) => {
      runs++;
      const doc = parseDocument(text);
      const diagnostics = checker.checkDocument(doc, env);
      for (const d of diagnostics) {
        if (!(d.start >= 0 && d.end >= d.start && d.end <= text.length)) return false;
      }
      return true;
    }),
    { numRuns: ROBUSTNESS_RUNS, seed: 20261121 },
  );
  assert.equal(runs, ROBUSTNESS_RUNS);
});

test(`lpreq check diagnoses without keeping the tree and finds exactly what the editor finds, on ${count(DIAGNOSE_RUNS)} documents`, () => {
  const checker = sharedChecker();
  const envs: Environments[] = [
    { environments: {} },
    { environments: { local: { base_url: 'http://127.0.0.1:4010/prefix', course: '1' } }, selected: 'local' },
    // Token scopes: the one granted, and every other scope-not-granted, alike both ways.
    {
      environments: { dev: { base: 'http://h/lms' }, staging: {} },
      scopes: {
        dev: ['url:GET|/api/v1/courses/{course_id}/modules'],
        staging: ['url:POST|/api/v1/courses/{course_id}/modules'],
      },
    },
  ];
  // Variables defined late, in bodies, in JSON bodies and after headers; names referred to before they are given.
  const scoped = fc.constantFrom(
    'GET {{base}}/api/v1/courses/{{c}}/modules?x={{first.response.body.$.id}}\n\n### one\n# @name first\nPOST /api/v1/courses/1/modules\n\nmodule[name] = a\n@c = 2\n@base = http://h/p\n',
    '@base = http://h\n###\nPOST {{base}}/api/v1/courses/1/modules\nX-A: {{v}}\n@v = 1\n\n{\n"module": {"name": "{{v}}"}\n}\n@v = 3\n### x\n// @name   \n@v=2\nGET {{base}}/api/v1/courses/1/modules\n',
    // A block checked again for a late variable sees the requests named above it, not those below.
    '### a\n# @name a\nGET /api/v1/courses/1\n\n### b\nGET {{base}}/api/v1/courses/{{a.response.body.$.id}}/modules?x={{later.response.body.$.id}}\n\n### c\n@base = http://h\n# @name later\nGET /api/v1/courses/2\n### d\n# @name a\nGET {{later.response.body.$.id}}/api/v1/courses/3\n',
    // Variables in assertions' EXPECTED: defined later, requests named above and below.
    '### a\n# @name a\nGET /api/v1/courses/1/modules/2\n?? body $.name == {{late}}\n?? body $.id == {{a.response.body.$.id}}\n### b\nGET /api/v1/courses/1/modules\n?? body $[0].id == {{a.response.body.$.id}}\n?? body $[*].workflow_state != {{later.response.body.$.x}}\n?? body $[0].nmae exists\n### c\n@late = x\n# @name later\nGET /api/v1/courses/2/modules/3\n?? status == {{late}}\n',
  );
  let runs = 0;
  fc.assert(
    fc.property(
      fc.oneof({ weight: 3, arbitrary: mutated }, { weight: 1, arbitrary: random }, { weight: 1, arbitrary: scoped }),
      fc.nat({ max: envs.length - 1 }),
      (text, e) => {
        runs++;
        assert.deepEqual(checker.diagnose(text, envs[e]), checker.checkDocument(parseDocument(text), envs[e]));
      },
    ),
    { numRuns: DIAGNOSE_RUNS, seed: 20261122 },
  );
  assert.equal(runs, DIAGNOSE_RUNS);
});

test('Object.prototype names in an assertion path are undocumented fields of a resource, any key of a map, and nothing where the docs show nothing', () => {
  const checker = sharedChecker();
  for (const name of PROTO_NAMES) {
    const codes = (text: string) => checker.diagnose(text).map((d) => d.code);
    // A resource's fields are its documented ones only, dotted or in brackets, under every operator.
    assert.deepEqual(
      codes(`GET /api/v1/courses/1/modules/2\n?? body $.${name} exists\n?? body $['${name}'] !exists\n`),
      ['unknown-field', 'unknown-field'],
      name,
    );
    assert.deepEqual(
      codes(`GET /api/v1/courses/1/modules\n?? body $[*].items[0].completion_requirement.${name} == x\n`),
      ['unknown-field'],
      name,
    );
    // A map takes any key, and its values have the documented fields.
    assert.deepEqual(
      codes(`GET /api/v1/accounts/1/roles/3\n?? body $.permissions.${name}.enabled == true\n`),
      [],
      name,
    );
    assert.deepEqual(
      codes(`GET /api/v1/accounts/1/roles/3\n?? body $.permissions.${name}.${name} exists\n`),
      ['unknown-field'],
      name,
    );
    // Where the docs do not show the fields: nothing.
    assert.deepEqual(
      codes(`GET /api/v1/courses/1/external_tools/5\n?? body $.custom_fields.${name} exists\n`),
      [],
      name,
    );
    // An enum field compared with the name, and the name as a header.
    assert.deepEqual(
      codes(`GET /api/v1/courses/1/modules/2\n?? body $.workflow_state == ${name}\n?? header ${name} == ${name}\n`),
      ['invalid-enum'],
      name,
    );
  }
});
