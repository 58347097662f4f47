import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { ForwardPositions, lineOfOffset, lineStarts } from '../../server/src/core/index';
import { fuzzRuns } from '../fuzzRuns';

const piece = fc.constantFrom('a', 'bc', '\n', '\r', '\r\n', '\n\r', 'é', '😀', ' ', '###');

test('positions: ForwardPositions places offsets as TextDocument does, in order and out of it, through a fork', () => {
  fc.assert(
    fc.property(
      fc.array(piece, { maxLength: 60 }).map((a) => a.join('')),
      fc.array(fc.nat(), { maxLength: 20 }),
      (text, raw) => {
        const doc = TextDocument.create('lpreq:t', 'lpreq', 0, text);
        const offsets = raw.map((r) => r % (text.length + 2));
        for (const list of [[...offsets].sort((a, b) => a - b), offsets]) {
          const cursor = new ForwardPositions(text);
          for (const offset of list) {
            assert.deepEqual(cursor.at(offset), doc.positionAt(offset), `offset ${offset} of ${JSON.stringify(text)}`);
            const end = offset + 3;
            assert.deepEqual(cursor.fork().at(end), doc.positionAt(end), `end ${end} of ${JSON.stringify(text)}`);
          }
        }
      },
    ),
    { numRuns: fuzzRuns(3000), seed: 20261122 },
  );
});

test('positions: lineStarts and lineOfOffset count lines as TextDocument does', () => {
  fc.assert(
    fc.property(
      fc.array(piece, { maxLength: 60 }).map((a) => a.join('')),
      (text) => {
        const doc = TextDocument.create('lpreq:t', 'lpreq', 0, text);
        const starts = lineStarts(text);
        assert.equal(starts.length, doc.lineCount, JSON.stringify(text));
        for (let offset = 0; offset <= text.length; offset++) {
          assert.equal(
            lineOfOffset(starts, offset),
            doc.positionAt(offset).line,
            `offset ${offset} of ${JSON.stringify(text)}`,
          );
        }
      },
    ),
    { numRuns: fuzzRuns(2000), seed: 20261123 },
  );
});
