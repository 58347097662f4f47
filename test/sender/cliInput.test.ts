/**
 * `lpreq send` reads its request file as `lpreq check` does (one reader: size limit, UTF-16,
 * binary files named). In-process, against a server on 127.0.0.1.
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { run as runSend } from '../../server/src/cli/sendCommand';
import { tempDir } from '../helpers';
import { startServer, type TestServer } from './server';

let api: TestServer;
let dir: string;

async function send(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runSend([...args, '--no-history'], {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    readStdin: () => '',
    isTTY: false,
    env: { PATH: process.env.PATH ?? '' },
    cwd: dir,
  });
  return { code, stdout, stderr };
}

before(async () => {
  api = await startServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('sent\n');
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
  assert.match(r.stderr, /--line 1 {2}\(line 1: GET \{\{base_url\}\}\/api\/v1\/courses\/1\/modules\)/);
});

test('a binary request file is refused with its name and exit 2', async () => {
  writeFileSync(join(dir, 'bin.lpreq'), Buffer.from([0x47, 0x45, 0x54, 0x00, 0x01]));
  const r = await send(['bin.lpreq']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /^lpreq send: bin\.lpreq: a binary file, not a request file\n$/);
  assert.equal(api.received.length, 0);
});
