/**
 * parseOutline reads a block's outline from its head alone; it must be the outline the whole
 * parse gives (outlineOf(parseBlock(text))), field for field, for every block the tests,
 * the examples and the conformance cases hold, and for blocks cut at random.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { blockBoundaries, outlineOf, parseBlock, parseOutline } from '../../server/src/core/index';
import { ROOT, SHARED } from '../helpers';
import { random } from '../../bench/generate';

function lpreqFiles(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...lpreqFiles(path));
    else if (name.endsWith('.lpreq')) out.push(path);
  }
  return out;
}

function blocksOf(text: string): string[] {
  const starts = blockBoundaries(text);
  return starts.map((s, k) => text.slice(s, k + 1 < starts.length ? starts[k + 1] : text.length));
}

const FILES = [join(ROOT, 'examples'), join(ROOT, 'test', 'fixtures'), join(SHARED, 'conformance')].flatMap(lpreqFiles);

test('the outline read from the head is the outline of the whole parse, for every block of the tests, examples and conformance cases', () => {
  let blocks = 0;
  for (const file of FILES) {
    for (const text of blocksOf(readFileSync(file, 'utf8'))) {
      assert.deepEqual(parseOutline(text), outlineOf(parseBlock(text)), `${file}:\n${text}`);
      blocks++;
    }
  }
  assert.ok(blocks > 200, `${blocks} blocks`);
});

test('the outline read from the head is the outline of the whole parse, for blocks cut at random', () => {
  const texts = FILES.map((f) => readFileSync(f, 'utf8'));
  const rnd = random(31);
  for (let i = 0; i < 2000; i++) {
    const text = texts[Math.floor(rnd() * texts.length)];
    const from = Math.floor(rnd() * text.length);
    const piece = text.slice(from, from + Math.floor(rnd() * 400));
    assert.deepEqual(parseOutline(piece), outlineOf(parseBlock(piece)), JSON.stringify(piece));
  }
});
