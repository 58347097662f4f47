/**
 * The typed comparison of snapshots (snapshotCompare.ts): each kind of difference exactly at
 * its JSONPath, timestamps, ids and URLs by type and presence, lists of resources by id, the
 * options `ignore=` and `exact=`, the scrubber's `***`, and bodies deep or wide.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { bundledCatalog } from '../../server/src/catalogData';
import { parseSnapshotOptions } from '../../server/src/core/index';
import { scrubSecrets } from '../../server/src/sender/secrets';
import { compareResponses, type CompareOptions, type ComparedResponse } from '../../server/src/sender/snapshotCompare';
import {
  parseSnapshot,
  prettyJson,
  safeFileName,
  snapshotNames,
  snapshotText,
} from '../../server/src/sender/snapshotFile';
import { parseDocument } from '../../server/src/core/index';

const catalog = bundledCatalog();

const json = (body: unknown, status = 200): ComparedResponse => ({ status, body, json: true });

/** The differences as `kind path`, in order. */
function diff(
  returns: string | null,
  before: unknown,
  after: unknown,
  options: string | CompareOptions = {},
): string[] {
  const opts =
    typeof options === 'string'
      ? (() => {
          const read = parseSnapshotOptions(options);
          assert.deepEqual(read.problems, []);
          return {
            ignore: read.paths.filter((p) => p.option === 'ignore').map((p) => p.path.segments),
            exact: read.paths.filter((p) => p.option === 'exact').map((p) => p.path.segments),
          };
        })()
      : options;
  const result = compareResponses(catalog, returns, json(before), json(after), opts);
  for (const d of result.differences) assert.ok(d.message.length > 0);
  return result.differences.map((d) => `${d.kind} ${d.path}`);
}

const module = (id: number, name: string, extra: Record<string, unknown> = {}) => ({
  id,
  workflow_state: 'active',
  position: 1,
  name,
  unlock_at: '2026-09-14T08:00:00Z',
  require_sequential_progress: false,
  prerequisite_module_ids: [id - 1],
  items_count: 2,
  items_url: `http://127.0.0.1:4010/api/v1/courses/42/modules/${id}/items`,
  ...extra,
});

describe('each kind at its JSONPath', () => {
  test('the same data made again, with new ids, timestamps and URLs, gives no difference', () => {
    const before = module(7, 'Week 1');
    const after = {
      ...module(10231, 'Week 1'),
      unlock_at: '2027-01-02T10:11:12+02:00',
      items_url: 'https://lms.example.edu/api/v1/courses/58213/modules/10231/items',
    };
    assert.deepEqual(diff('Module', before, after), []);
  });

  test('a renamed module (its name changed value)', () => {
    assert.deepEqual(diff('Module', module(7, 'Week 1'), module(7, 'Week 2')), ['value-changed $.name']);
  });

  test('a renamed field: the old one disappeared and an undocumented one appeared', () => {
    const before = module(7, 'Week 1');
    const { name, ...rest } = before;
    assert.deepEqual(diff('Module', before, { ...rest, title: name }), [
      'undocumented-field $.title',
      'removed $.name',
    ]);
  });

  test('a removed field', () => {
    const before = module(7, 'Week 1');
    const { position: _position, ...after } = before;
    assert.deepEqual(diff('Module', before, after), ['removed $.position']);
  });

  test('an undocumented field', () => {
    assert.deepEqual(diff('Module', module(7, 'Week 1'), module(7, 'Week 1', { x_rank: 3 })), [
      'undocumented-field $.x_rank',
    ]);
  });

  test('a documented field that appeared is added, not undocumented', () => {
    assert.deepEqual(diff('Module', module(7, 'Week 1'), module(7, 'Week 1', { published: true })), [
      'added $.published',
    ]);
  });

  test('a type change', () => {
    assert.deepEqual(diff('Module', module(7, 'Week 1'), module(7, 'Week 1', { position: '1' })), [
      'type-changed $.position',
    ]);
    // A timestamp that is no longer one is a type change too, though both are strings.
    assert.deepEqual(diff('Module', module(7, 'Week 1'), module(7, 'Week 1', { unlock_at: 'soon' })), [
      'type-changed $.unlock_at',
    ]);
    // An id of another type: by type and presence.
    assert.deepEqual(diff('Module', module(7, 'Week 1'), { ...module(7, 'Week 1'), id: '7' }), ['type-changed $.id']);
  });

  test('a new enum value', () => {
    assert.deepEqual(diff('Module', module(7, 'Week 1'), module(7, 'Week 1', { workflow_state: 'archived' })), [
      'unknown-enum-value $.workflow_state',
    ]);
    // A documented value that changed is a changed value.
    assert.deepEqual(diff('Module', module(7, 'Week 1'), module(7, 'Week 1', { workflow_state: 'deleted' })), [
      'value-changed $.workflow_state',
    ]);
  });

  test('an id or a timestamp that disappeared is a difference: presence counts', () => {
    const { unlock_at: _u, ...after } = module(7, 'Week 1');
    assert.deepEqual(diff('Module', module(7, 'Week 1'), after), ['removed $.unlock_at']);
    assert.deepEqual(diff('Module', module(7, 'Week 1'), { ...module(7, 'Week 1'), unlock_at: null }), [
      'type-changed $.unlock_at',
    ]);
  });

  test('the status, and a body that is text', () => {
    const r = compareResponses(catalog, 'Module', json(module(7, 'a'), 200), json(module(7, 'a'), 201));
    assert.deepEqual(
      r.differences.map((d) => `${d.kind} ${d.path}`),
      ['value-changed status'],
    );
    const text = compareResponses(
      catalog,
      null,
      { status: 200, body: 'ok', json: false },
      { status: 200, body: 'not ok', json: false },
    );
    assert.deepEqual(
      text.differences.map((d) => `${d.kind} ${d.path}`),
      ['value-changed $'],
    );
    const kind = compareResponses(catalog, null, { status: 200, body: 'ok', json: false }, json({ ok: true }));
    assert.deepEqual(
      kind.differences.map((d) => `${d.kind} ${d.path}`),
      ['type-changed $'],
    );
  });

  test('inside a value the docs do not show, every key compares by value', () => {
    // ExternalTool.custom_fields is an object the docs do not detail.
    const tool = { id: 1, name: 't', custom_fields: { a: '1' } };
    assert.deepEqual(diff('ExternalTool', tool, { ...tool, custom_fields: { a: '2', b: '3' } }), [
      'value-changed $.custom_fields.a',
      'added $.custom_fields.b',
    ]);
  });
});

describe('lists', () => {
  const list = [module(5, 'Week 1'), module(6, 'Week 2'), module(7, 'Week 3')];

  test('the same resources in another order pair by id', () => {
    assert.deepEqual(diff('Module[]', list, [list[2], list[0], list[1]]), []);
  });

  test('a resource that disappeared is at its index in the snapshot; one that changed at its index now', () => {
    const after = [list[0], { ...list[2], name: 'Week 3 (new)' }];
    assert.deepEqual(diff('Module[]', list, after), ['value-changed $[1].name', 'removed $[1]']);
  });

  test('the same data made again with new ids pairs by position', () => {
    const again = list.map((m, i) => ({ ...m, id: 900 + i, prerequisite_module_ids: [899 + i] }));
    assert.deepEqual(diff('Module[]', list, again), []);
    // Ids shifted so that one of them meets an old one: still by position, most ids are new.
    const shifted = list.map((m, i) => ({ ...m, id: 7 + i }));
    assert.deepEqual(diff('Module[]', list, shifted), []);
  });

  test('one element made again among stable ones pairs with the one it replaced', () => {
    const after = [list[0], list[1], { ...list[2], id: 12 }];
    assert.deepEqual(diff('Module[]', list, after), []);
  });

  test('a new element among the same ones appeared, and one that fell off the page disappeared: no pair unalike', () => {
    const after = [list[0], { ...module(20, 'Week 9'), position: 2 }, list[1]];
    assert.deepEqual(diff('Module[]', list, after), ['added $[1]', 'removed $[2]']);
  });

  test('an element appended, or a list of values shorter', () => {
    assert.deepEqual(diff('Module[]', list, [...list, module(8, 'Week 4')]), ['added $[3]']);
    assert.deepEqual(diff('Module', module(7, 'a'), { ...module(7, 'a'), prerequisite_module_ids: [] }), [
      'removed $.prerequisite_module_ids[0]',
    ]);
  });

  test('a list inside a wrapper pairs by id too', () => {
    const sub = (id: number, score: number) => ({ id, quiz_id: 9, user_id: 1001, score, workflow_state: 'complete' });
    assert.deepEqual(
      diff(
        'QuizSubmissionList',
        { quiz_submissions: [sub(1, 5), sub(2, 7)] },
        { quiz_submissions: [sub(2, 7), sub(1, 6)] },
      ),
      ['value-changed $.quiz_submissions[1].score'],
    );
  });
});

describe('options', () => {
  test('ignore= leaves a place out, presence included; [*] is any index', () => {
    const before = [module(5, 'a'), module(6, 'b')];
    const after = [module(5, 'a', { items_count: 9 }), { ...module(6, 'b'), items_count: undefined }];
    delete (after[1] as Record<string, unknown>).items_count;
    assert.deepEqual(diff('Module[]', before, after), ['value-changed $[0].items_count', 'removed $[1].items_count']);
    assert.deepEqual(diff('Module[]', before, after, 'ignore=$[*].items_count'), []);
    assert.deepEqual(diff('Module[]', before, after, 'ignore=$[0].items_count'), ['removed $[1].items_count']);
  });

  test('exact= compares an id, a timestamp or a URL by value, and with ids exact a list pairs by id only', () => {
    assert.deepEqual(diff('Module', module(7, 'a'), module(8, 'a'), 'exact=$.id'), ['value-changed $.id']);
    assert.deepEqual(
      diff('Module', module(7, 'a'), { ...module(7, 'a'), unlock_at: '2026-09-15T08:00:00Z' }, 'exact=$.unlock_at'),
      ['value-changed $.unlock_at'],
    );
    const list = [module(5, 'a'), module(6, 'b')];
    assert.deepEqual(diff('Module[]', list, [module(5, 'a'), module(9, 'b')], 'exact=$[*].id'), [
      'added $[1]',
      'removed $[1]',
    ]);
  });

  test('exact=$ compares the whole body by value', () => {
    assert.deepEqual(diff('Module', module(7, 'a'), module(8, 'a'), 'exact=$'), [
      'value-changed $.id',
      'value-changed $.prerequisite_module_ids[0]',
      'value-changed $.items_url',
    ]);
  });

  test('options that cannot be read are problems', () => {
    assert.equal(parseSnapshotOptions('ignore=').problems.length, 1);
    assert.equal(parseSnapshotOptions('skip=$.a').problems.length, 1);
    assert.equal(parseSnapshotOptions('ignore=$').problems.length, 1);
    assert.equal(parseSnapshotOptions('ignore=name').problems.length, 1);
    assert.equal(parseSnapshotOptions('ignore=$.a,,$.b').problems.length, 1);
    assert.equal(parseSnapshotOptions('ignore=$[x]').problems.length, 1);
    const read = parseSnapshotOptions(`ignore=$.a,$["b, c"] exact=$[*].id`);
    assert.deepEqual(read.problems, []);
    assert.deepEqual(
      read.paths.map((p) => `${p.option} ${p.path.text}`),
      ['ignore $.a', 'ignore $["b, c"]', 'exact $[*].id'],
    );
  });
});

describe('secrets, budgets and files', () => {
  test("a string the scrubber wrote *** in is the same as the response's with the secret", () => {
    const secret = 'sekret-token-0123456789';
    const scrub = (t: string) => scrubSecrets(t, [secret]);
    const before = { id: 1, name: 'Bearer ***', description: 'x' };
    const after = { id: 1, name: `Bearer ${secret}`, description: 'x' };
    assert.deepEqual(compareResponses(catalog, null, json(before), json(after), { scrub }).differences, []);
    // Without the scrubber they differ, and a message never shows the secret.
    const plain = compareResponses(catalog, null, json(before), json(after), { scrub });
    assert.ok(!JSON.stringify(plain).includes(secret));
    const other = compareResponses(catalog, null, json({ a: 'x' }), json({ a: secret }), { scrub });
    assert.equal(other.differences.length, 1);
    assert.ok(!JSON.stringify(other).includes(secret));
  });

  test('at most maxDifferences are listed, the rest counted', () => {
    const before = Array.from({ length: 50 }, (_, i) => ({ n: i }));
    const after = before.map((x) => ({ n: x.n + 1 }));
    const r = compareResponses(catalog, null, json(before), json(after), { maxDifferences: 10 });
    assert.equal(r.differences.length, 10);
    assert.equal(r.more, 40);
    assert.equal(r.differences[0].path, '$[0].n');
  });

  test('a body nested 30,000 deep is compared without recursion, and written and read back', () => {
    const deep = (leaf: unknown) => {
      let v: unknown = leaf;
      for (let i = 0; i < 30_000; i++) v = { a: v };
      return v;
    };
    const r = compareResponses(catalog, null, json(deep(1)), json(deep(2)));
    assert.equal(r.differences.length, 1);
    assert.equal(r.differences[0].kind, 'value-changed');
    assert.ok(r.differences[0].path.endsWith('.a.a'));
    const text = snapshotText({ request: 'GET /x', resource: null, status: 200, body: deep(1), json: true });
    const read = parseSnapshot(text);
    assert.ok('record' in read);
  });

  test('the walk stops at its budget of values and says so', () => {
    const body = Array.from({ length: 1000 }, (_, i) => i);
    const r = compareResponses(catalog, null, json(body), json(body), { maxValues: 100 });
    assert.equal(r.incomplete, true);
  });

  test('a snapshot is pretty-printed as JSON.stringify would, and read back', () => {
    const body = [{ a: 1, b: [true, null, 'x'], c: {}, d: [] }, 'é"\\'];
    assert.equal(prettyJson(body), JSON.stringify(body, null, 2));
    const text = snapshotText({ request: 'GET /x', resource: 'Module[]', status: 200, body, json: true });
    assert.deepEqual(parseSnapshot(text), {
      record: { request: 'GET /x', resource: 'Module[]', status: 200, body, json: true },
    });
    assert.ok('problem' in parseSnapshot('{"lpreq": "other"}'));
    assert.ok('problem' in parseSnapshot('not json'));
    assert.ok('problem' in parseSnapshot('{"lpreq": "snapshot", "version": 1, "status": 200}'));
  });
});

describe('snapshot names', () => {
  test("a request's @name, else its title, else its line; safe as a file name and unique in the file whatever the case", () => {
    const text = [
      '# @name createModule',
      'POST /api/v1/courses/1/modules',
      '### List modules',
      'GET /api/v1/courses/1/modules',
      '### list  MODULES!',
      'GET /api/v1/courses/1/modules',
      '### List modules',
      'GET /api/v1/courses/1/modules',
      '###',
      'GET /api/v1/courses/1/modules',
      '### ../../x',
      'GET /api/v1/courses/1/modules',
      '### con',
      'GET /api/v1/courses/1/modules',
      '### ---',
      'GET /api/v1/courses/1/modules',
    ].join('\n');
    assert.deepEqual(
      [...snapshotNames(parseDocument(text)).values()],
      ['createModule', 'List-modules', 'list-MODULES-2', 'List-modules-3', 'line-10', 'x', 'con_', 'line-16'],
    );
    assert.equal(safeFileName('..'), undefined);
    assert.equal(safeFileName('.hidden'), 'hidden');
    assert.equal(safeFileName('a/b\\c:d'), 'a-b-c-d');
    assert.equal(safeFileName('Semaine été'), 'Semaine-été');
    assert.equal([...(safeFileName('x'.repeat(200)) ?? '')].length, 80);
  });
});
