/**
 * The MCP server's stdio transport, in-process: a message a line, a line over the limit
 * dropped as it arrives and answered with an error, a line that is not JSON-RPC answered
 * with a parse error, and every message written through the scrubber it is given.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ScrubbedStdioTransport } from '../../server/src/mcp/transport';

function transport(limit: number) {
  const input = new PassThrough();
  const output = new PassThrough();
  let written = '';
  output.on('data', (d: Buffer) => (written += d.toString()));
  const t = new ScrubbedStdioTransport(
    { input, output },
    (m) => JSON.parse(JSON.stringify(m).replaceAll('s3cret-value', '***')) as JSONRPCMessage,
    limit,
  );
  const received: JSONRPCMessage[] = [];
  t.onmessage = (m) => received.push(m);
  return {
    t,
    input,
    received,
    written: () =>
      written
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('messages a line, in any chunks; an oversized line dropped with an error; the next line read', async () => {
  const { t, input, received, written } = transport(100);
  await t.start();
  input.write('{"jsonrpc":"2.0","id":1,"met');
  input.write('hod":"ping"}\r\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n');
  input.write(`{"jsonrpc":"2.0","id":2,"method":"ping","params":{"pad":"${'x'.repeat(60)}`);
  input.write(`${'y'.repeat(60)}"}}\n{"jsonrpc":"2.0","id":3,"method":"ping"}\n`);
  input.write('not json\n\n');
  await tick();
  assert.deepEqual(received, [
    { jsonrpc: '2.0', id: 1, method: 'ping' },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 3, method: 'ping' },
  ]);
  const errors = written() as { id: null; error: { code: number; message: string } }[];
  assert.deepEqual(
    errors.map((e) => [e.id, e.error.code]),
    [
      [null, -32600],
      [null, -32700],
    ],
  );
  assert.match(errors[0].error.message, /over 100 bytes/);
  await t.close();
});

test('every message sent passes the scrubber; nothing is written after close', async () => {
  const { t, written } = transport(1000);
  await t.start();
  await t.send({ jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'the token s3cret-value' }] } });
  await t.close();
  await t.send({ jsonrpc: '2.0', id: 2, result: {} });
  await tick();
  assert.deepEqual(written(), [
    { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'the token ***' }] } },
  ]);
});
