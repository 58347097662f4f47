/** The server's chunked document answers as vscode-languageserver-textdocument's TextDocument does, edit after edit. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { EditableDocument } from '../../server/src/lsp/editableDocument';
import { getService } from './helpers';
import { fuzzRuns } from '../fuzzRuns';

/** Text made of pieces that stress line breaks, separators and chunk edges. */
const piece = fc.constantFrom(
  'a',
  'bc',
  '\n',
  '\r\n',
  '\r',
  '###',
  ' x = 1',
  'GET /api/v1/courses/1/modules',
  'é',
  '😀',
  '\uFEFF',
  '',
);
const textArb = fc.array(piece, { maxLength: 60 }).map((p) => p.join(''));

interface Edit {
  startLine: number;
  startChar: number;
  endLine: number;
  endChar: number;
  text: string;
  full: boolean;
}

const editArb: fc.Arbitrary<Edit> = fc.record({
  startLine: fc.integer({ min: -1, max: 12 }),
  startChar: fc.integer({ min: -1, max: 40 }),
  endLine: fc.integer({ min: -1, max: 12 }),
  endChar: fc.integer({ min: -1, max: 40 }),
  text: textArb,
  full: fc.boolean().map((b) => b && Math.random() < 0.05),
});

function same(mine: EditableDocument, theirs: TextDocument, probe: number) {
  const text = theirs.getText();
  assert.equal(mine.getText(), text);
  assert.equal(mine.lineCount, theirs.lineCount);
  assert.equal(mine.version, theirs.version);
  // lineAt: the line of positionAt, also looked for from an earlier line (offsets in order) and from a wrong one.
  let last = 0;
  for (let offset = -2; offset <= text.length + 2; offset += 1 + (probe % 3)) {
    const position = theirs.positionAt(offset);
    assert.deepEqual(mine.positionAt(offset), position, `positionAt ${offset}`);
    assert.equal(mine.lineAt(offset, last), position.line, `lineAt ${offset} from ${last}`);
    assert.equal(mine.lineAt(offset, position.line + 1 + probe), position.line, `lineAt ${offset} from a later line`);
    last = position.line;
  }
  for (let line = -1; line <= theirs.lineCount + 1; line++) {
    assert.deepEqual(mine.getLineRange(line), theirs.getLineRange(line), `getLineRange ${line}`);
    assert.equal(mine.getEOLCharacters(line), theirs.getEOLCharacters(line), `getEOLCharacters ${line}`);
    for (const character of [-1, 0, 1, 2, 5, 40]) {
      const position = { line, character };
      assert.equal(mine.offsetAt(position), theirs.offsetAt(position), `offsetAt ${line}:${character}`);
    }
  }
}

test('a range past the end is clamped to the text', () => {
  const doc = new EditableDocument('u', 'lpreq', 1, '', 2);
  doc.update([{ range: { start: { line: 2, character: 0 }, end: { line: 3, character: 0 } }, text: '\n' }], 2);
  doc.update([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, text: '' }], 3);
  // The second range ends inside the line break, so it is empty (as in TextDocument).
  assert.equal(doc.getText(), '\n');
  assert.equal(doc.lineCount, 2);
  assert.deepEqual(doc.positionAt(5), { line: 1, character: 0 });
  assert.equal(doc.offsetAt({ line: 4, character: -1 }), 1);
});

test('edit after edit, positions, offsets, lines and text are those of TextDocument (chunks of 1 to 7 characters)', () => {
  fc.assert(
    fc.property(
      textArb,
      fc.array(editArb, { maxLength: 12 }),
      fc.integer({ min: 1, max: 7 }),
      (initial, edits, chunk) => {
        const mine = new EditableDocument('u', 'lpreq', 1, initial, chunk);
        const theirs = TextDocument.create('u', 'lpreq', 1, initial);
        same(mine, theirs, 0);
        let version = 1;
        for (const e of edits) {
          version++;
          // Lines within the document (TextDocument takes a range past the end as it is, and its
          // line table gets holes); characters past a line's end are clamped alike by both.
          const n = theirs.lineCount;
          const line = (l: number) => ((l % n) + n) % n;
          const range = {
            start: { line: line(e.startLine), character: e.startChar },
            end: { line: line(e.endLine), character: e.endChar },
          };
          const change = e.full ? { text: e.text } : { range, text: e.text };
          mine.update([change], version);
          TextDocument.update(theirs, [change], version);
          // Reads between edits only sometimes: most edits come one after another, unjoined.
          if (version % 3 === 0) same(mine, theirs, version);
          assert.equal(mine.slice(1, 9), theirs.getText().slice(1, 9));
          assert.equal(mine.charCodeAt(2), theirs.getText().charCodeAt(2));
        }
        same(mine, theirs, 1);
      },
    ),
    { numRuns: fuzzRuns(400), seed: 20261122 },
  );
});

test('the re-parse reads the edited document around the edit and gives the parse of its text', () => {
  fc.assert(
    fc.property(
      textArb,
      fc.array(editArb, { maxLength: 10 }),
      fc.integer({ min: 1, max: 9 }),
      (initial, edits, chunk) => {
        const doc = new EditableDocument('u', 'lpreq', 1, initial, chunk);
        let parsed = getService().parse(initial);
        let version = 1;
        for (const e of edits) {
          const range = {
            start: { line: Math.max(0, e.startLine), character: Math.max(0, e.startChar) },
            end: { line: Math.max(0, e.endLine), character: Math.max(0, e.endChar) },
          };
          let start = doc.offsetAt(range.start);
          let end = doc.offsetAt(range.end);
          if (start > end) [start, end] = [end, start];
          const ordered = { start: doc.positionAt(start), end: doc.positionAt(end) };
          doc.update([{ range: ordered, text: e.text }], ++version);
          parsed = getService().reparse(parsed, doc, start, end, e.text.length).document;
          const full = getService().parse(doc.getText());
          assert.deepEqual(
            parsed.blocks.map((b) => [b.start, b.block.text]),
            full.blocks.map((b) => [b.start, b.block.text]),
          );
          assert.equal(parsed.text, doc.getText());
        }
      },
    ),
    { numRuns: fuzzRuns(400), seed: 7 },
  );
});

test('a paste of 200,000 lines in the middle of a document keeps lines and offsets right', () => {
  const base = 'GET /a\n'.repeat(1000);
  const paste = 'x = 1\n'.repeat(200_000);
  const mine = new EditableDocument('u', 'lpreq', 1, base);
  const theirs = TextDocument.create('u', 'lpreq', 1, base);
  const change = { range: { start: { line: 500, character: 0 }, end: { line: 500, character: 0 } }, text: paste };
  mine.update([change], 2);
  TextDocument.update(theirs, [change], 2);
  assert.equal(mine.lineCount, theirs.lineCount);
  for (const offset of [0, 3500, 3501, 1_203_500, 1_203_507, mine.length])
    assert.deepEqual(mine.positionAt(offset), theirs.positionAt(offset));
  assert.equal(mine.offsetAt({ line: 150_000, character: 2 }), theirs.offsetAt({ line: 150_000, character: 2 }));
  assert.equal(mine.getText(), theirs.getText());
});
