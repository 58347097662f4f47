/**
 * Requests a client should not send, answered plainly: parameters in undocumented shapes,
 * very many parameters, deep JSON (broken HTTP framing, answered at a timeout:
 * test/system/mockTimeouts.test.ts). Never a 500, never a stalled mock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bundledCatalog } from '../../server/src/catalogData';
import { MAX_PARAMETERS } from '../../server/src/mock/index';
import { flatten } from '../../server/src/http';
import { errorsOf, withMock } from './mockClient';
import { DEFAULTS } from './requests';

type Obj = Record<string, unknown>;

test('many unknown parameters are answered quickly, and other clients meanwhile; too many are a 400', () =>
  withMock(async (call) => {
    const form = (n: number) => {
      const pairs: [string, string][] = [['module[name]', 'x']];
      for (let i = 0; i < n; i++) pairs.push(['zz', '1']);
      return pairs;
    };
    const deadline = <T>(p: Promise<T>, what: string) =>
      Promise.race([
        p,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`${what}: no answer within 10 s`)), 10_000).unref(),
        ),
      ]);
    const many = deadline(
      call('POST', '/api/v1/courses/42/modules', { form: form(50_000) }),
      'the form of 50,000 parameters',
    );
    const tooMany = deadline(
      call('POST', '/api/v1/courses/42/modules', { form: form(MAX_PARAMETERS + 50_000) }),
      'the form over the limit',
    );
    const other = deadline(call('GET', '/api/v1/courses/42/modules/7'), 'the concurrent GET');
    const [manyAnswer, tooManyAnswer, otherAnswer] = await Promise.all([many, tooMany, other]);
    assert.equal(manyAnswer.status, 200);
    assert.equal(tooManyAnswer.status, 400);
    assert.equal(errorsOf(tooManyAnswer)[0].code, 'too-many-parameters');
    assert.equal(otherAnswer.status, 200);
  }));

test('a JSON body of too many parameters is a 400 too, refused before it is spelled out as pairs', () =>
  withMock(async (call) => {
    const tooMany = await call('POST', '/api/v1/courses/42/modules', {
      json: { module: { name: 'x' }, a: new Array(MAX_PARAMETERS + 10).fill(0) },
    });
    assert.equal(tooMany.status, 400);
    assert.equal(errorsOf(tooMany)[0].code, 'too-many-parameters');
    // Spelling a 10 MB body out first took seconds and a gigabyte: flatten stops past its limit.
    const pairs = flatten({ a: new Array(1_000_000).fill(0), b: { c: [1, 2, 3] } }, '', [], 10);
    assert.equal(pairs.length, 11);
  }));

/** A documented create, and undocumented shapes of its parameters to add to it. */
const SHAPES: [string, string, Record<string, string>, [string, string][]][] = [
  [
    'POST',
    '/api/v1/courses/42/modules',
    { 'module[name]': 'x' },
    [
      ['module[prerequisite_module_ids]', '5'],
      ['module[prerequisite_module_ids][0]', '5'],
      ['module[prerequisite_module_ids][x]', '1'],
    ],
  ],
  [
    'POST',
    '/api/v1/appointment_groups',
    { 'appointment_group[context_codes][]': 'course_42', 'appointment_group[title]': 'A' },
    [
      ['appointment_group[sub_context_codes]', 'course_section_420'],
      ['appointment_group[new_appointments]', 'x'],
      ['appointment_group[new_appointments][0]', 'x'],
    ],
  ],
  [
    'POST',
    '/api/v1/courses/42/quizzes/9/questions',
    { 'question[question_name]': 'Q' },
    [
      ['question[answers]', 'x'],
      ['question[answers][x]', 'y'],
    ],
  ],
  [
    'POST',
    '/api/lti/subscriptions',
    {
      'submission[ContextId]': '42',
      'subscription[ContextType]': 'course',
      'subscription[EventTypes][]': 'GRADE_CHANGE',
      'subscription[Format]': 'caliper',
      'subscription[TransportMetadata][Url]': 'https://hooks.example.com/x',
      'subscription[TransportType]': 'https',
    },
    [
      ['subscription[EventTypes]', 'GRADE_CHANGE'],
      ['subscription[TransportMetadata]', 'x'],
    ],
  ],
  [
    'POST',
    '/api/v1/accounts/1/roles',
    { label: 'Proctor' },
    [
      ['permissions', 'x'],
      ['permissions[manage_grades]', 'x'],
    ],
  ],
  [
    'PUT',
    '/api/v1/courses/42/grading_periods/5',
    { 'grading_periods[][weight]': '40' },
    [
      ['grading_periods', 'x'],
      ['grading_periods[x]', 'y'],
    ],
  ],
  [
    'POST',
    '/api/v1/courses/42/external_tools',
    {
      name: 'Tool',
      privacy_level: 'public',
      consumer_key: 'k',
      shared_secret: 's',
      url: 'https://tool.example.com/launch',
    },
    [
      ['custom_fields', 'x'],
      ['course_navigation', 'x'],
    ],
  ],
  [
    'GET',
    '/api/v1/courses/42/modules',
    {},
    [
      ['include', 'items'],
      ['include[x]', 'items'],
    ],
  ],
];

test('parameters in undocumented shapes are never a 500; the handler reads only the documented form', () =>
  withMock(async (call) => {
    const failures: string[] = [];
    for (const [method, path, form, extras] of SHAPES) {
      for (const extra of extras) {
        const pairs: [string, string][] = [...Object.entries(form), extra];
        const answer =
          method === 'GET'
            ? await call(method, `${path}?${new URLSearchParams(pairs).toString()}`)
            : await call(method, path, { form: pairs });
        if (answer.status >= 500)
          failures.push(`${method} ${path} ${extra.join('=')}: ${answer.status} ${JSON.stringify(answer.body)}`);
      }
    }
    assert.deepEqual(failures, []);
    const created = await call('POST', '/api/v1/courses/42/modules', {
      form: { 'module[name]': 'x', 'module[prerequisite_module_ids]': '5' },
    });
    assert.equal(created.status, 200);
    assert.deepEqual((created.body as Obj).prerequisite_module_ids, []);
  }));

test('every documented array parameter sent as a scalar or an object is never a 500', () =>
  withMock(async (call) => {
    const failures: string[] = [];
    const catalog = bundledCatalog();
    const creates = [
      ['modules.create', '/api/v1/courses/42/modules', { 'module[name]': 'x' }],
      [
        'appointment_groups.create',
        '/api/v1/appointment_groups',
        { 'appointment_group[context_codes][]': 'course_42', 'appointment_group[title]': 'A' },
      ],
      ['quiz_questions.create', '/api/v1/courses/42/quizzes/9/questions', { 'question[question_name]': 'Q' }],
    ] as const;
    for (const [id, path, form] of creates) {
      const endpoint = catalog.endpointById.get(id);
      assert.ok(endpoint, id);
      for (const p of endpoint.params) {
        const at = p.name.indexOf('[]');
        if (at < 0) continue;
        const base = p.name.slice(0, at);
        for (const extra of [
          [base, '5'],
          [`${base}[0]`, '5'],
          [`${base}[x]`, '1'],
        ] as [string, string][]) {
          const answer = await call(endpoint.method, path, { form: [...Object.entries(form), extra] });
          if (answer.status >= 500)
            failures.push(`${id} ${extra.join('=')}: ${answer.status} ${JSON.stringify(answer.body)}`);
        }
      }
    }
    assert.deepEqual(failures, []);
  }));

test('a JSON body nested very deep is a 400 invalid-json', () =>
  withMock(async (call) => {
    const depth = 500_000;
    const body = `{"module":${'['.repeat(depth)}${']'.repeat(depth)}}`;
    const answer = await call('POST', '/api/v1/courses/42/modules', { body, contentType: 'application/json' });
    assert.equal(answer.status, 400);
    assert.equal(errorsOf(answer)[0].code, 'invalid-json');
    const jsonEndpoint = await call('PUT', '/api/v1/courses/42/quizzes/9/submissions/3', {
      body: `{"quiz_submissions":${'['.repeat(depth)}${']'.repeat(depth)}}`,
      contentType: 'application/json',
    });
    assert.equal(jsonEndpoint.status, 400);
    assert.equal(errorsOf(jsonEndpoint)[0].code, 'invalid-json');
    assert.equal((await call('GET', '/api/v1/courses/42/modules/7')).status, 200);
  }));

/** Every name of Object.prototype: a name a client sends finds only what the catalog and the mock's data define (issue 17). */
const PROTO_NAMES = Object.getOwnPropertyNames(Object.prototype);

/** Seeded ids for path placeholders, so that most requests reach their handler. */
const SEEDED: Record<string, string> = { ...DEFAULTS, full_path: 'handouts', id: '7', category: 'x' };

test('Object.prototype names in path values, parameter names, bracket keys, values and JSON keys are never a 500, and change no prototype', () =>
  withMock(async (call) => {
    const catalog = bundledCatalog();
    const prototypeBefore = Object.getOwnPropertyNames(Object.prototype).sort();
    const failures: string[] = [];
    let n = 0;
    for (const endpoint of catalog.endpoints) {
      for (const path of endpoint.paths) {
        const name = PROTO_NAMES[n++ % PROTO_NAMES.length];
        const other = PROTO_NAMES[(n * 7) % PROTO_NAMES.length];
        const fill = (proto: boolean) =>
          path.template.replace(/\{\*?(\w+)\}/g, (_, p: string) =>
            encodeURIComponent(proto ? name : Object.hasOwn(SEEDED, p) ? SEEDED[p] : '1'),
          );
        const segmentsOf = (p: (typeof endpoint.params)[number]) =>
          p.parsedName.segments.map((s, i) => (p.parsedName.patternAt.has(i) ? name : s));
        const written = (segments: string[]) =>
          segments[0] +
          segments
            .slice(1)
            .map((s) => `[${s}]`)
            .join('');
        const fitting = (p: (typeof endpoint.params)[number]) =>
          p.enum?.[0] ??
          (p.type === 'integer' || p.type === 'number'
            ? '1'
            : p.type === 'boolean'
              ? 'true'
              : p.type === 'Date' || p.type === 'DateTime'
                ? '2026-09-12'
                : name);
        const documented: [string, string][] = endpoint.params.map((p) => [written(segmentsOf(p)), fitting(p)]);
        const variants: [string, [string, string][]][] = [
          ['documented names, values that fit', documented],
          ['documented names, Object.prototype values', documented.map(([k]) => [k, other])],
          [
            'Object.prototype names and keys',
            [
              [name, other],
              [`${name}[${other}]`, name],
              [`${name}[]`, other],
              ...endpoint.params
                .slice(0, 3)
                .map((p): [string, string] => [`${p.parsedName.segments[0]}[${other}]`, name]),
            ],
          ],
        ];
        const send = async (url: string, what: string, pairs: [string, string][], json?: unknown) => {
          const withQuery = endpoint.method === 'GET' || endpoint.method === 'DELETE' || endpoint.method === 'HEAD';
          const answer =
            json !== undefined
              ? await call(endpoint.method, url, { json })
              : withQuery
                ? await call(
                    endpoint.method,
                    `${url}${pairs.length ? `?${new URLSearchParams(pairs).toString()}` : ''}`,
                  )
                : await call(endpoint.method, url, { form: pairs });
          if (answer.status >= 500)
            failures.push(
              `${endpoint.id} ${endpoint.method} ${url} ${what}: ${answer.status} ${JSON.stringify(answer.body).slice(0, 300)}`,
            );
        };
        for (const [what, pairs] of variants) await send(fill(false), what, pairs);
        await send(fill(true), 'Object.prototype path values', documented);
        if (endpoint.method !== 'GET' && endpoint.method !== 'DELETE') {
          // A JSON body whose keys are Object.prototype names, at the top and inside each documented object.
          const json = Object.fromEntries([
            [name, { [other]: name }],
            ...endpoint.params.slice(0, 3).map((p) => [
              p.parsedName.segments[0],
              Object.fromEntries([
                [other, name],
                ['__proto__', { [name]: 1 }],
              ]),
            ]),
          ]);
          await send(fill(false), 'a JSON body of Object.prototype keys', [], json);
        }
      }
    }
    assert.deepEqual(failures, []);
    assert.deepEqual(Object.getOwnPropertyNames(Object.prototype).sort(), prototypeBefore);
    // A permission named `constructor` or `toString` is a permission like any other: kept, and shown back.
    // (Keys starting with `_` are the mock's own and never shown, `__proto__` among them.)
    const role = await call('POST', '/api/v1/accounts/1/roles', {
      form: [
        ['label', 'Odd names'],
        ['permissions[constructor][explicit]', 'true'],
        ['permissions[constructor][enabled]', 'true'],
        ['permissions[toString][explicit]', '1'],
        ['permissions[toString][enabled]', '0'],
        ['permissions[__proto__][enabled]', '1'],
      ],
    });
    assert.equal(role.status, 200, JSON.stringify(role.body));
    const permissions = (role.body as Obj).permissions as Record<string, Obj>;
    assert.deepEqual(
      ['constructor', 'toString'].map((n) =>
        Object.hasOwn(permissions, n) ? [permissions[n].explicit, permissions[n].enabled] : n,
      ),
      [
        [true, true],
        [true, false],
      ],
    );
  }));
