/**
 * A document just opened is kept as outlines (parser's outlineOf) until a service needs a
 * block in full (server/src/lsp/documents.ts). What may be answered from outlines must be
 * the same as from the parsed document: the scope, symbols and folding, and completion and
 * hover with only the block at the cursor parsed in full. Every example and conformance
 * file, at every offset of a sample. And what the pass that publishes a document just
 * opened tells of each block, from which the server fills its block cache, must be what
 * checking that block again would give.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  blockIndexAt,
  outlineOf,
  parseBlock,
  parseDocument,
  RequestsBefore,
  ScopeTracker,
  type Diagnostic,
  type Endpoint,
  type LpreqDocument,
} from '../../server/src/core/index';
import { getChecker, getService } from './helpers';
import { ROOT, SHARED } from '../helpers';

const files = [
  join(ROOT, 'examples'),
  join(SHARED, 'conformance', 'valid'),
  join(SHARED, 'conformance', 'invalid'),
].flatMap((dir) =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.lpreq'))
    .sort()
    .map((f) => ({ name: f, text: readFileSync(join(dir, f), 'utf8') })),
);
// Every file in one document as well: variables and request names of other blocks.
const documents = [...files, { name: 'all', text: files.map((f) => f.text).join('\n###\n') }];

/** The document as the server keeps it after `diagnose`: every block an outline. */
function outlined(parsed: LpreqDocument): LpreqDocument {
  return { text: parsed.text, blocks: parsed.blocks.map((ref) => ({ start: ref.start, block: outlineOf(ref.block) })) };
}

/** An outlined document with the block at `offset` parsed in full (Documents.quickState). */
function parsedAt(outline: LpreqDocument, offset: number): LpreqDocument {
  const blocks = outline.blocks.slice();
  const k = blockIndexAt(outline, offset);
  blocks[k] = { start: blocks[k].start, block: parseBlock(blocks[k].block.text) };
  return { text: outline.text, blocks };
}

const env = {
  environments: { local: { base_url: 'http://127.0.0.1:4010', course: '42', token: 'secret-token-value' } },
  selected: 'local',
};

test('outlines: the scope, symbols and folding of an outlined document are those of the parsed one', () => {
  for (const { name, text } of documents) {
    const parsed = parseDocument(text);
    const outline = outlined(parsed);
    const a = new ScopeTracker().update(parsed, env).scope;
    const b = new ScopeTracker().update(outline, env).scope;
    assert.deepEqual([...b.values], [...a.values], name);
    assert.deepEqual([...b.requestNames], [...a.requestNames], name);
    assert.deepEqual([...(b.scriptNames ?? [])], [...(a.scriptNames ?? [])], name);
    const service = getService();
    assert.deepEqual(service.symbols(outline), service.symbols(parsed), name);
    assert.deepEqual(service.foldingRanges(outline), service.foldingRanges(parsed), name);
  }
});

test('outlines: completion and hover with only the block at the cursor parsed equal those of the parsed document', () => {
  const service = getService();
  let compared = 0;
  for (const { name, text } of documents) {
    const parsed = parseDocument(text);
    const whole = { parsed, scope: new ScopeTracker().update(parsed, env).scope, env };
    const outline = outlined(parsed);
    // The scope the server computes once from the outline.
    const scope = new ScopeTracker().update(outline, env).scope;
    // Every offset of a small file; a sample of the large one.
    const step = text.length > 4000 ? 151 : 7;
    for (let offset = 0; offset <= text.length; offset += step) {
      const at = { parsed: parsedAt(outline, offset), scope, env };
      assert.deepEqual(
        service.complete(at, offset),
        service.complete(whole, offset),
        `${name} completion at ${offset}`,
      );
      assert.deepEqual(service.hover(at, offset), service.hover(whole, offset), `${name} hover at ${offset}`);
      compared++;
    }
  }
  assert.ok(compared > 1500, `${compared} offsets`);
});

test("outlines: what diagnose tells of each block is that block's check where it stands, and the endpoint matchBlock finds", () => {
  const checker = getChecker();
  // A variable used above its definition and defined twice (diagnose checks such blocks again at the end), and request names used above and below.
  const late = [
    'GET {{base_url}}/api/v1/courses/{{course}}/modules?per_page={{size}}',
    '###',
    '# @name first',
    'GET {{base_url}}/api/v1/courses/{{course}}/assignments',
    '###',
    '@size = 10',
    'GET {{base_url}}/api/v1/courses/{{first.response.body.$.id}}/users?per_page={{size}}',
    '###',
    '@size = 20',
    '@course = 7',
    'GET {{base_url}}/api/v1/courses/{{later.response.body.$.id}}/quizzes',
    '###',
    '# @name later',
    'GET /not/the/api',
  ].join('\n');
  let blocks = 0;
  let matched = 0;
  for (const { name, text } of [...documents, { name: 'late definitions', text: late }]) {
    const parsed = parseDocument(text);
    const before = new RequestsBefore(new ScopeTracker().update(parsed, env).scope);
    const told: { diagnostics: readonly Diagnostic[]; endpoint: Endpoint | undefined }[] = [];
    checker.diagnose(text, env, (k, diagnostics, endpoint) => {
      assert.equal(k, told.length, name);
      told.push({ diagnostics, endpoint });
    });
    assert.equal(told.length, parsed.blocks.length, name);
    for (let k = 0; k < parsed.blocks.length; k++) {
      const block = parsed.blocks[k].block;
      assert.deepEqual(
        told[k].diagnostics,
        checker.checkBlock(block, before.scope).sort((a, b) => a.start - b.start || a.end - b.end),
        `${name} block ${k}`,
      );
      const match = checker.matchBlock(block, before.scope);
      if (told[k].endpoint) {
        assert.equal(told[k].endpoint, match?.kind === 'matched' ? match.endpoint : undefined, `${name} block ${k}`);
        matched++;
      } else
        assert.notEqual(match?.kind, 'matched', `${name} block ${k}: a target with no problem that matched is told`);
      before.pass(block);
      blocks++;
    }
  }
  assert.ok(blocks > 100 && matched > 50, `${blocks} blocks, ${matched} matched`);
});
