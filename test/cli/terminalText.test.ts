/** The one escaping of control characters for the terminal: over every character of the Basic Multilingual Plane. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { printable, printableJson } from '../../server/src/cli/terminalText';

/** What a terminal acts on or reorders by: C0, DEL, C1, bidirectional controls. */
function isControl(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

const every: string[] = [];
for (let c = 0; c < 0x10000; c++) if (c < 0xd800 || c > 0xdfff) every.push(String.fromCharCode(c));

test('printable leaves no control character and changes nothing else', () => {
  for (const ch of every) {
    const out = printable(`a${ch}b`);
    const code = ch.charCodeAt(0);
    if (isControl(code)) {
      assert.ok(![...out].some((c) => isControl(c.charCodeAt(0))), `U+${code.toString(16)}`);
      assert.match(out, /^a\\(x[0-9a-f]{2}|u[0-9a-f]{4}|[nrt])b$/);
    } else assert.equal(out, `a${ch}b`);
  }
});

test('printable for lines keeps line feeds, tabs and CR LF, and escapes a CR that would overwrite a line', () => {
  assert.equal(printable('one\r\ntwo\n\tthree', { lines: true }), 'one\r\ntwo\n\tthree');
  assert.equal(printable('safe\rfake', { lines: true }), 'safe\\rfake');
  assert.equal(printable('\u001b[2J\u009b1m\u202e', { lines: true }), '\\x1b[2J\\x9b1m\\u202e');
  assert.equal(printable('a\nb'), 'a\\nb');
});

test('printableJson keeps every value the same JSON value, with no control character left raw', () => {
  const value = { text: every.join(''), [every.slice(0, 0x300).join('')]: every.slice(0x2000, 0x2100) };
  const out = printableJson(JSON.stringify(value, null, 2));
  assert.deepEqual(JSON.parse(out), value);
  for (const line of out.split('\n')) assert.ok(![...line].some((c) => isControl(c.charCodeAt(0))));
});
