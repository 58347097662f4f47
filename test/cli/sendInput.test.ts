/**
 * `lpreq send` reads its request file as `lpreq check` does (one reader: size limit, UTF-16,
 * binary files named), and never writes control characters from a response, a file or a
 * prompt to the terminal as they are. In-process, against a server on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { run as runSend } from '../../server/src/cli/sendCommand';
import { tempDir } from '../helpers';
import { captureIo } from '../io';
import { startServer, type TestServer } from '../sender/server';

/** A control character a terminal acts on (C0 but line feed, tab and CR before LF; DEL; C1), or a bidirectional override. */
// eslint-disable-next-line no-control-regex -- control characters are what the tests look for
const RAW_CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202e]|\r(?!\n)/;
let api: TestServer;
let dir: string;

async function send(
  args: string[],
  ask?: (q: string) => string | undefined,
): Promise<{ code: number; stdout: string; stderr: string; questions: string[] }> {
  const out = captureIo({ cwd: dir, env: { PATH: process.env.PATH ?? '' }, ask });
  const code = await runSend([...args, '--no-history'], out.io);
  return { code, stdout: out.stdout, stderr: out.stderr, questions: out.questions };
}

before(async () => {
  api = await startServer((_req, res) => {
    // A hostile or broken server: escape sequences in a header value and in a text body.
    res.writeHead(200, {
      'content-type': 'text/plain',
      'x-note': Buffer.from('a\u009b2Jb', 'latin1').toString('latin1'),
    });
    res.end('line one\r\n\u001b]0;pwned\u0007\u001b[2J\rover\u202eline two\n\ttabbed\n');
  });
  dir = tempDir('send-input');
  writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { base_url: api.origin } }));
});

after(() => api.close());

test('a UTF-16 request file with a byte order mark is read as text', async () => {
  const text = 'GET {{base_url}}/api/v1/courses/1/modules\n';
  writeFileSync(join(dir, 'le.lpreq'), Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
  // A line outside every request: the answer lists the requests the file holds, so nothing is sent.
  const r = await send(['le.lpreq', '--line', '9']);
  assert.equal(r.code, 2);
  // The request decoded from UTF-16: its line and request line, as the list gives them.
  assert.match(r.stderr, /--line 1 +line 1: GET \{\{base_url\}\}\/api\/v1\/courses\/1\/modules$/m);
});

test('a binary request file is refused with its name and exit 2', async () => {
  writeFileSync(join(dir, 'bin.lpreq'), Buffer.from([0x47, 0x45, 0x54, 0x00, 0x01]));
  const r = await send(['bin.lpreq']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^lpreq send: bin\.lpreq: a binary file, not a request file\n$/);
  assert.equal(api.received.length, 0);
});

test('control characters of a response are printed escaped; line breaks and tabs of the body stay', async () => {
  writeFileSync(join(dir, 'esc.lpreq'), 'GET {{base_url}}/anything\n');
  const text = await send(['esc.lpreq']);
  assert.equal(text.code, 0, text.stderr);
  assert.doesNotMatch(text.stdout, RAW_CONTROL);
  assert.match(text.stdout, /^x-note: a\\x9b2Jb$/m);
  assert.match(text.stdout, /line one\r?\n\\x1b\]0;pwned\\x07\\x1b\[2J\\rover\\u202eline two\n\ttabbed\n/);

  const json = await send(['esc.lpreq', '--format', 'json']);
  assert.doesNotMatch(json.stdout, RAW_CONTROL);
  const parsed = JSON.parse(json.stdout);
  assert.equal(parsed.headers['x-note'], 'a\u009b2Jb');
  assert.ok(parsed.body.includes('\u001b]0;pwned\u0007'));
});

test("a prompt's question and the messages on standard error carry no raw control character", async () => {
  writeFileSync(
    join(dir, 'prompt.lpreq'),
    '# @name p\u001b[5m\n# @prompt id the \u001b]0;x\u0007 id\nGET {{base_url}}/x/{{id}}\n',
  );
  const asked = await send(['prompt.lpreq'], () => undefined);
  assert.equal(asked.questions.length, 1);
  assert.doesNotMatch(asked.questions[0], RAW_CONTROL);
  const unasked = await send(['prompt.lpreq']);
  assert.match(unasked.stderr, /--prompt id=VALUE/);
  assert.doesNotMatch(unasked.stderr, RAW_CONTROL);
  assert.doesNotMatch(unasked.stdout, RAW_CONTROL);
});
