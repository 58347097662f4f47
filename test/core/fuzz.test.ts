/**
 * Robustness: 20,000 random and mutated documents through the parser and the checker, with
 * zero exceptions. Seeded (fast-check), so a failure reproduces; the seed is printed on failure.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { parseDocument } from '../../server/src/core/parser';
import type { Environments } from '../../server/src/core/checker';
import { sharedChecker, SHARED, ROOT } from '../helpers';

const corpus = [
  ...readdirSync(join(SHARED, 'conformance', 'invalid')).filter((n) => n.endsWith('.lpreq')).map((n) => join(SHARED, 'conformance', 'invalid', n)),
  join(SHARED, 'conformance', 'valid', 'a-modules.lpreq'),
  ...readdirSync(join(ROOT, 'test', 'fixtures', 'diagnostics')).filter((n) => n.endsWith('.lpreq')).map((n) => join(ROOT, 'test', 'fixtures', 'diagnostics', n)),
].map((f) => readFileSync(f, 'utf8'));

const pieces = ['###', '\n', '\r\n', '{{', '}}', '{', '}', '[', ']', '=', '&', '?', ':', '#', '@', '//', '/api/v1/', 'GET ', 'POST ', '\t', ' ', '\uFEFF', '\0', '🎓', 'course_', 'sis_course_id:', '%', '%ZZ', 'include[]', '"', '{"a":', '{course_id}', 'HTTP/1.1'];

/** A mutation: insert, delete or replace a slice of a corpus document. */
const mutated = fc
  .tuple(
    fc.constantFrom(...corpus),
    fc.array(fc.tuple(fc.nat(), fc.nat({ max: 40 }), fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 12 }), fc.string({ unit: 'binary', maxLength: 6 }))), { maxLength: 6 }),
  )
  .map(([doc, edits]) => {
    let text = doc;
    for (const [at, len, insert] of edits) {
      const i = at % (text.length + 1);
      text = text.slice(0, i) + insert + text.slice(i + len);
    }
    return text;
  });

const random = fc.array(fc.oneof(fc.constantFrom(...pieces), fc.string({ maxLength: 20 }), fc.string({ unit: 'grapheme', maxLength: 8 })), { maxLength: 60 }).map((a) => a.join(''));

test('20,000 random and mutated documents: parser and checker never throw', () => {
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
    { numRuns: 20_000, seed: 20261121 },
  );
  assert.equal(runs, 20_000);
});

test('lpreq check diagnoses without keeping the tree and finds exactly what the editor finds, on 5,000 documents', () => {
  const checker = sharedChecker();
  const envs: Environments[] = [
    { environments: {} },
    { environments: { local: { base_url: 'http://127.0.0.1:4010/prefix', course: '1' } }, selected: 'local' },
  ];
  // Variables defined late, in bodies, in JSON bodies and after headers; names referred to before they are given.
  const scoped = fc.constantFrom(
    'GET {{base}}/api/v1/courses/{{c}}/modules?x={{first.response.body.$.id}}\n\n### one\n# @name first\nPOST /api/v1/courses/1/modules\n\nmodule[name] = a\n@c = 2\n@base = http://h/p\n',
    '@base = http://h\n###\nPOST {{base}}/api/v1/courses/1/modules\nX-A: {{v}}\n@v = 1\n\n{\n"module": {"name": "{{v}}"}\n}\n@v = 3\n### x\n// @name   \n@v=2\nGET {{base}}/api/v1/courses/1/modules\n',
    // A block checked again for a late variable sees the requests named above it, not those below.
    '### a\n# @name a\nGET /api/v1/courses/1\n\n### b\nGET {{base}}/api/v1/courses/{{a.response.body.$.id}}/modules?x={{later.response.body.$.id}}\n\n### c\n@base = http://h\n# @name later\nGET /api/v1/courses/2\n### d\n# @name a\nGET {{later.response.body.$.id}}/api/v1/courses/3\n',
  );
  let runs = 0;
  fc.assert(
    fc.property(fc.oneof({ weight: 3, arbitrary: mutated }, { weight: 1, arbitrary: random }, { weight: 1, arbitrary: scoped }), fc.nat({ max: 1 }), (text, e) => {
      runs++;
      assert.deepEqual(checker.diagnose(text, envs[e]), checker.checkDocument(parseDocument(text), envs[e]));
    }),
    { numRuns: 5_000, seed: 20261122 },
  );
  assert.equal(runs, 5_000);
});
