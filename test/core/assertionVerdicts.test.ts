/**
 * A checker keeps what it found of each assertion line, and of each block's assertion lines
 * together, by their text (checker/assertions.ts): a text it has seen is neither read nor
 * checked again. These tests hold its answers to those of a checker that has seen nothing:
 * the same sections of assertion lines under requests to endpoints that return other
 * resources, to other documented paths of one endpoint (whose messages name the path), to
 * no documented endpoint, in every order, in one file and across files.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Checker } from '../../server/src/core/index';
import { bundledCatalog } from '../../server/src/library';
import { random } from '../../bench/generate';

const catalog = bundledCatalog();

const TARGETS = [
  'GET /api/v1/courses/42/modules/7',
  'GET /api/v1/courses/42/modules',
  'GET /api/v1/courses/42/modules/7/items/3',
  'GET /api/v1/courses/42/external_tools/5',
  'GET /api/v1/accounts/1/external_tools/5',
  'GET /api/v2/nothing/documented',
  'GETT /api/v1/courses/42/modules',
];

const SECTIONS = [
  '?? status == 200\n?? duration < 2000',
  '?? status == 200\n?? body $.workflow_state == active\n?? body $.items_count >= 0\n?? duration < 2000',
  '?? body $.workflow_state == draft\n?? body $.name exists',
  '?? body $[*].workflow_state == active\n?? body $[0].nmae exists',
  '?? body $.privacy_level == public\n?? body $.url startsWith https',
  '?? status == ok\n# a comment between them\n?? body $.position < soon',
  '?? header content-type > 3\n?? body <= 2\n?? nonsense',
  '?? body $.workflow_state == active',
];

/** The diagnostics of a text, each as one comparable line (offsets, code, severity, message, data). */
function shown(checker: Checker, text: string): string[] {
  return checker.diagnose(text, { environments: {} }).map((d) => JSON.stringify(d));
}

function blockText(target: string, section: string): string {
  return `### ${target}\n${target}\n\n${section}\n\n`;
}

test('a checker that has seen the lines gives what a fresh one gives, under every request', () => {
  const blocks = TARGETS.flatMap((t) => SECTIONS.map((s) => blockText(t, s)));
  const rnd = random(19);
  for (let round = 0; round < 4; round++) {
    // Another order each round; the shared checker keeps its tables from round to round.
    const order = blocks
      .map((b) => [rnd(), b] as const)
      .sort((x, y) => x[0] - y[0])
      .map(([, b]) => b);
    const text = order.join('');
    const shared = new Checker(catalog);
    const expected: string[] = [];
    let offset = 0;
    for (const b of order) {
      // Each block alone, by a checker that has seen nothing, moved to where it stands.
      for (const d of new Checker(catalog).diagnose(b, { environments: {} })) {
        expected.push(JSON.stringify({ ...d, start: d.start + offset, end: d.end + offset }));
      }
      offset += b.length;
    }
    assert.ok(expected.length > 20, 'the sections give diagnostics under some requests');
    assert.deepEqual(shown(shared, text), expected);
    assert.deepEqual(shown(shared, text), expected, 'and again, from its tables');
  }
});

test('the same lines give their diagnostics at each place they stand', () => {
  const checker = new Checker(catalog);
  const block = blockText('GET /api/v1/courses/42/modules', '?? body $.workflow_state == active');
  const once = checker.diagnose(block, { environments: {} });
  assert.equal(once.length, 1);
  const twice = checker.diagnose(block + block, { environments: {} });
  assert.deepEqual(
    twice.map((d) => [d.code, d.start, d.end]),
    [
      [once[0].code, once[0].start, once[0].end],
      [once[0].code, once[0].start + block.length, once[0].end + block.length],
    ],
  );
  // Each diagnostic is an object of its own: a host may change what it is given.
  assert.notEqual(twice[0], twice[1]);
  assert.notEqual(checker.diagnose(block, { environments: {} })[0], once[0]);
});
