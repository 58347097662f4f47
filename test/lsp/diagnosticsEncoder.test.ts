import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import type { Message } from 'vscode-languageserver/node';
import { encodeMessage as encodeBytes, JsonText, markReusable } from '../../server/src/lsp/diagnosticsEncoder';
import { fuzzRuns } from '../fuzzRuns';

const encodeMessage = (m: Message) => encodeBytes(m).toString('utf8');

const publish = (uri: string, diagnostics: unknown[]) =>
  ({
    jsonrpc: '2.0',
    method: 'textDocument/publishDiagnostics',
    params: { uri, version: 3, diagnostics },
  }) as unknown as Message;

test('encoder: a publishDiagnostics message reads back as the message, whatever its diagnostics and URI hold', () => {
  const odd = {
    range: { start: { line: 0, character: 0 }, end: { line: 1, character: 2 } },
    severity: 1,
    code: 'invalid-enum',
    source: 'lpreq',
    message: 'quote " backslash \\ newline \n NUL \u0000 é 😀 \uD800',
    data: { replacement: '"x"', missing: ['a[]'] },
  };
  const mark = JSON.parse(JSON.stringify('\u0000lpreq:diagnostics\u0000')) as string;
  const plain = { ...odd };
  markReusable(odd);
  for (const message of [
    publish('file:///plain.lpreq', [plain, odd]),
    publish('file:///a.lpreq', [odd, odd, null, 3, 'text']),
    publish(mark, [odd]),
    publish('file:///empty.lpreq', []),
  ]) {
    assert.deepEqual(JSON.parse(encodeMessage(message)), JSON.parse(JSON.stringify(message)));
  }
});

test('encoder: other messages are JSON.stringify, and a diagnostic serialised once gives the same text again', () => {
  const request = { jsonrpc: '2.0', id: 1, result: { items: [{ label: 'a' }] } } as unknown as Message;
  assert.equal(encodeMessage(request), JSON.stringify(request));
  const notDiagnostics = {
    jsonrpc: '2.0',
    method: 'textDocument/publishDiagnostics',
    params: { uri: 'x', diagnostics: 'none' },
  } as unknown as Message;
  assert.equal(encodeMessage(notDiagnostics), JSON.stringify(notDiagnostics));
  const d = {
    range: { start: { line: 4, character: 1 }, end: { line: 4, character: 9 } },
    code: 'unknown-parameter',
    message: 'm',
  };
  markReusable(d);
  const first = encodeMessage(publish('file:///a', [d]));
  assert.equal(encodeMessage(publish('file:///a', [d])), first);
  assert.equal(first, JSON.stringify(publish('file:///a', [d])));
});

test('encoder: the bytes are the UTF-8 of the JSON, with characters beyond ASCII', () => {
  const d = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, message: 'é 😀 ü' };
  markReusable(d);
  const message = publish('file:///ü.lpreq', [d, d]);
  assert.deepEqual(encodeBytes(message), Buffer.from(JSON.stringify(message), 'utf8'));
  assert.deepEqual(encodeBytes(message), Buffer.from(JSON.stringify(message), 'utf8'));
});

test('encoder: random diagnostics and URIs read back as JSON.stringify gives them', () => {
  const diagnostic = fc.record({
    range: fc.record({
      start: fc.record({ line: fc.nat(), character: fc.nat() }),
      end: fc.record({ line: fc.nat(), character: fc.nat() }),
    }),
    severity: fc.integer({ min: 1, max: 4 }),
    code: fc.string(),
    message: fc.string({ unit: 'binary' }),
    data: fc.option(fc.jsonValue(), { nil: undefined }),
  });
  fc.assert(
    fc.property(
      fc.string({ unit: 'binary' }),
      fc.array(diagnostic, { maxLength: 8 }),
      fc.boolean(),
      (uri, diagnostics, reuse) => {
        if (reuse) for (const d of diagnostics) markReusable(d);
        const message = publish(uri, diagnostics);
        assert.deepEqual(JSON.parse(encodeMessage(message)), JSON.parse(JSON.stringify(message)));
      },
    ),
    { numRuns: fuzzRuns(500), seed: 20261122 },
  );
});

test('encoder: the bytes of a reusable diagnostic are kept with it; a diagnostic published once is not kept', () => {
  const kept = { range: { start: { line: 1, character: 0 }, end: { line: 1, character: 2 } }, message: 'before' };
  const once = { range: { start: { line: 2, character: 0 }, end: { line: 2, character: 2 } }, message: 'before' };
  markReusable(kept);
  encodeMessage(publish('file:///k', [kept]));
  encodeMessage(publish('file:///o', [once]));
  // Published diagnostics are never changed; changing them here shows what was kept.
  kept.message = 'after';
  once.message = 'after';
  assert.match(encodeMessage(publish('file:///k', [kept])), /"before"/);
  assert.match(encodeMessage(publish('file:///o', [once])), /"after"/);
});

test('encoder: a result written as JSON text is written as it is, and reads as the same value through any other encoder', () => {
  const lenses = [
    {
      range: { start: { line: 3, character: 0 }, end: { line: 3, character: 0 } },
      command: { title: 'Send Request', command: 'lpreq.send', arguments: ['file:///é 😀.lpreq', 3] },
    },
  ];
  // One answer sent again and again (the server keeps the lenses of a version): each message is whole and its own,
  // also when it is written around the answer's bytes in the room left before them (codeLens.ts), and when an id does not fit there.
  const kept = new JsonText(JSON.stringify(lenses));
  const body = Buffer.from(JSON.stringify(lenses));
  const room = Buffer.alloc(40 + body.length + 1, 0x21);
  body.copy(room, 40);
  const framed = new JsonText(room, 40);
  for (const id of [7, 'a "quoted" id', null, 8, 123456, 'an id far too long for the room left before the answer', 9]) {
    const result =
      id === 8
        ? new JsonText(JSON.stringify(lenses))
        : typeof id === 'number' && id > 8
          ? framed
          : typeof id === 'string' && id.length > 20
            ? framed
            : kept;
    const message = { jsonrpc: '2.0', id, result } as unknown as Message;
    assert.equal(encodeMessage(message), JSON.stringify({ jsonrpc: '2.0', id, result: lenses }));
    // The library's own encoder (VS Code's IPC) is JSON.stringify: toJSON gives the value.
    assert.equal(JSON.stringify(message), encodeMessage(message));
  }
});
