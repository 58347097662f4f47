import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertionsOf } from '../../server/src/core/index';
import { getService, serviceDocument } from './helpers';
import { fuzzRuns } from '../fuzzRuns';
// The benchmarks' seeded generator (mulberry32), so that a failure can be replayed.
import { random } from '../../bench/generate';

const SEEDS = [
  '@base = http://x\n### Create\n# @name made\nPOST {{base}}/api/v1/courses/42/modules/7/items\nAccept: application/json\n\nmodule_item[type] = Page\nmodule_item[page_url] = p\n',
  'GET /api/v1/courses/1/files?sort=size&order=desc\n  &include[]=user\n\n',
  'PUT /api/v1/accounts/1/roles/3\n\npermissions[manage_courses][enabled] = true\nlabel = x\n###\nPOST /api/v1/courses/1/quizzes/2/questions\n\n{"question": {"question_type": "essay_question"}}\n',
  '### x\nGET /api/v1/courses/{course_id}/modules/{{made.response.body.$.id}}\n',
  // Names of Object.prototype wherever a name goes (issue 17): parameters, bracket keys, values, variables, system-variable arguments, JSON keys.
  '@valueOf = 1\n# @name constructor\nPOST /api/v1/courses/1/modules/2/items?include[]=toString\n__proto__: {{$processEnv constructor}}\n\nmodule_item[type] = Page\nmodule_item[completion_requirement][type] = constructor\nmodule_item[__proto__] = {{valueOf}}\n###\nPOST /api/v1/accounts/1/roles\n\npermissions[constructor][enabled] = {{$timestamp 1 __proto__}}\nhasOwnProperty = {{constructor.response.body.$.toString}}\n###\nPUT /api/v1/courses/1/quizzes/2/submissions/3\n\n{"quiz_submissions": [{"constructor": 1, "questions": {"__proto__": {"score": 1}}}]}\n',
  // Assertion lines (section 6), with names of Object.prototype in paths and values, inside a JSON body too.
  'GET /api/v1/courses/1/modules?include[]=items\n?? status == 200\n?? body $[*].items[0].completion_requirement.type == must_submit\n?? body $[0].constructor exists\n?? body $[\'__proto__\'][*].toString != {{valueOf}}\n?? header content-type includes json\n?? duration < 2000\n###\nGET /api/v1/accounts/1/roles/3\n?? body $.permissions.hasOwnProperty.enabled == true\n?? body $.workflow_state == constructor\n###\nPUT /api/v1/courses/1/quizzes/2/submissions/3\n\n{"quiz_submissions": [\n?? body $.quiz_submissions[0].attempt >= 1\n{"attempt": 1}]}\n',
];
/** Every name of Object.prototype (issue 17): a name a user gives must find only what the catalog, a file or an environment defines. */
const PROTO_NAMES = Object.getOwnPropertyNames(Object.prototype);
const PIECES = [
  ...PROTO_NAMES,
  '{{',
  '}}',
  '[',
  ']',
  '=',
  '&',
  '?',
  '/',
  '\n',
  '###',
  ' ',
  '\r\n',
  '{',
  '}',
  '@',
  '# @name ',
  'GET ',
  'POST /api/v1/',
  '\u0000',
  '\uD800',
  'é',
  '%',
  '%zz',
  '?? ',
  '??',
  '\n?? body $.',
  '$[*].',
  '[0]',
  "['__proto__']",
  '.constructor',
  ' == ',
  ' >= ',
  ' !exists',
];

function mutate(text: string, r: () => number): string {
  let out = text;
  const n = 1 + Math.floor(r() * 6);
  for (let i = 0; i < n; i++) {
    const at = Math.floor(r() * (out.length + 1));
    const kind = r();
    if (kind < 0.4) out = out.slice(0, at) + PIECES[Math.floor(r() * PIECES.length)] + out.slice(at);
    else if (kind < 0.7) out = out.slice(0, at) + out.slice(at + Math.floor(r() * 8));
    else if (kind < 0.85) out = out.slice(0, at) + String.fromCharCode(Math.floor(r() * 0x10000)) + out.slice(at);
    else out = out.slice(0, at) + out.slice(Math.floor(r() * out.length));
  }
  return out;
}

test('fuzz: mutated and random documents through every service at random offsets, zero exceptions', () => {
  const r = random(20260301);
  const service = getService();
  // Environments and their variables named like Object.prototype's members (`__proto__` an own key, as JSON.parse gives it).
  const environments = JSON.parse(
    `{${PROTO_NAMES.map((n) => `${JSON.stringify(n)}: {${JSON.stringify(n)}: "1", "base_url": "http://h"}`).join(', ')}}`,
  ) as Record<string, Record<string, string>>;
  const privateNames = Object.fromEntries(PROTO_NAMES.slice(0, 3).map((n) => [n, new Set([n])]));
  const envs = [
    undefined,
    { environments, privateNames },
    ...PROTO_NAMES.map((selected) => ({ environments, privateNames, selected })),
  ];
  const documents = fuzzRuns(400);
  let runs = 0;
  for (let i = 0; i < documents; i++) {
    const text =
      i % 10 === 9
        ? Array.from({ length: 200 }, () => String.fromCharCode(Math.floor(r() * 0x10000))).join('')
        : mutate(SEEDS[i % SEEDS.length], r);
    const env = envs[i % envs.length];
    const doc = serviceDocument(text, env);
    const parsed = doc.parsed;
    service.diagnose(text, env);
    service.checker.checkDocument(parsed, env);
    for (let k = 0; k < 5; k++) {
      const offset = Math.floor(r() * (text.length + 1));
      const replay = JSON.stringify({ i, text, offset });
      try {
        service.complete(doc, offset);
        service.hover(doc, offset);
        service.codeActions(doc, offset, Math.min(text.length, offset + Math.floor(r() * 10)));
        service.definition(parsed, offset);
        service.references(parsed, offset, true);
        service.highlights(parsed, offset);
        service.prepareRename(parsed, offset);
        service.rename(doc, offset, 'renamed');
        service.selectionRanges(parsed, [offset, text.length - offset]);
        runs++;
      } catch (e) {
        assert.fail(`${(e as Error).stack}\nreplay: ${replay}`);
      }
    }
    service.symbols(parsed);
    service.foldingRanges(parsed);
    service.format(parsed);
    // Semantic tokens: sorted, on one line, inside their block, never overlapping.
    const names = service.fileVariableNames(parsed);
    for (const { block } of parsed.blocks) {
      let previousEnd = 0;
      for (const t of service.semanticTokens(doc, block, names)) {
        const replay = JSON.stringify({ i, text });
        assert.ok(t.start >= previousEnd && t.end > t.start && t.end <= block.text.length, replay);
        assert.ok(!/[\r\n]/.test(block.text.slice(t.start, t.end)), replay);
        previousEnd = t.end;
      }
    }
  }
  assert.equal(runs, documents * 5);
});

test('fuzz: formatting never changes a value and is idempotent', () => {
  const r = random(7);
  const documents = fuzzRuns(300);
  for (let i = 0; i < documents; i++) {
    const text = mutate(SEEDS[i % SEEDS.length], r);
    const doc = getService().parse(text);
    const edits = getService().format(doc);
    let out = text;
    for (const e of [...edits].sort((a, b) => b.start - a.start))
      out = out.slice(0, e.start) + e.newText + out.slice(e.end);
    const values = (d: typeof doc) => [
      ...d.blocks.flatMap((b) => b.block.params.map((p) => p.value.text)),
      // An assertion keeps its meaning: its field, header name, path, operator and EXPECTED as written.
      ...d.blocks.flatMap((b) =>
        assertionsOf(b.block).map((x) => {
          const a = x.assertion;
          if (!a) return `problem: ${x.problem.message}`;
          const f = a.field;
          return JSON.stringify([
            f.kind,
            f.kind === 'header' ? f.name : f.kind === 'body' ? f.path?.text : '',
            a.operator,
            a.expected?.raw,
          ]);
        }),
      ),
    ];
    const again = getService().parse(out);
    assert.deepEqual(values(again), values(doc), JSON.stringify(text));
    assert.deepEqual(getService().format(again), [], JSON.stringify(text));
  }
});

test('incremental re-parse after an edit equals a full parse', async () => {
  const service = getService();
  const reparseEdit = service.reparse;
  const parseDocument = (text: string) => service.parse(text);
  const r = random(99);
  const base = SEEDS.join('###\n') + '\n### t\nGET /x\n';
  let text = base;
  let doc = parseDocument(text);
  const edits = fuzzRuns(2000);
  for (let i = 0; i < edits; i++) {
    const start = Math.floor(r() * (text.length + 1));
    const end = Math.min(text.length, start + Math.floor(r() * 12));
    const inserted = r() < 0.3 ? PIECES[Math.floor(r() * PIECES.length)] : r() < 0.5 ? '\n###' : '';
    const next = text.slice(0, start) + inserted + text.slice(end);
    const { document } = reparseEdit(doc, next, start, end, inserted.length);
    const full = parseDocument(next);
    assert.deepEqual(
      document.blocks.map((b) => [b.start, b.block.text]),
      full.blocks.map((b) => [b.start, b.block.text]),
      JSON.stringify({ text, start, end, inserted }),
    );
    text = next.length > 4000 ? base : next;
    doc = text === next ? document : parseDocument(text);
  }
});
