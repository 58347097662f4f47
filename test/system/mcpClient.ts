/**
 * The MCP server as an agent meets it: `node bin/lpreq.js mcp` started over stdio by the
 * SDK's own client, in a workspace the test makes. The client checks every structured
 * answer against its tool's outputSchema itself; `call` checks it once more with ajv, and
 * keeps every text the server wrote (answers and its standard error) for the leak checks.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult, Tool } from '@modelcontextprotocol/sdk/types.js';
import { Ajv } from 'ajv';
import { ROOT } from '../helpers';

export interface McpSession {
  client: Client;
  tools: Map<string, Tool>;
  /** Calls a tool; a structured answer is held to the tool's outputSchema. */
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** Every answer and every line of standard error so far, as text. */
  written(): string;
  /** Keeps an answer that was not a tool's (a prompt, a resource, an error) among those `written` gives. */
  record(answer: unknown): void;
  close(): Promise<void>;
}

const ajv = new Ajv({ strict: false, allErrors: true });

export async function startMcp(root: string, env: Record<string, string> = {}): Promise<McpSession> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [join(ROOT, 'bin', 'lpreq.js'), 'mcp', '--root', root],
    cwd: root,
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client({ name: 'lpreq-test', version: '1.0.0' });
  await client.connect(transport);
  const tools = new Map((await client.listTools()).tools.map((t) => [t.name, t]));
  const answers: string[] = [];
  return {
    client,
    tools,
    async call(name, args) {
      const result = (await client.callTool({ name, arguments: args }, undefined, {
        timeout: 120_000,
      })) as CallToolResult;
      answers.push(JSON.stringify(result));
      const schema = tools.get(name)?.outputSchema;
      if (!result.isError && schema) {
        const validate = ajv.compile(schema);
        assert.ok(validate(result.structuredContent), `${name}: ${ajv.errorsText(validate.errors)}`);
        assert.equal(result.content[0]?.type, 'text');
      }
      return result;
    },
    written: () => `${answers.join('\n')}\n${stderr}`,
    record: (answer) => answers.push(typeof answer === 'string' ? answer : JSON.stringify(answer)),
    close: () => client.close(),
  };
}

/** The text of a tool's answer. */
export function textOf(result: CallToolResult): string {
  return result.content.map((c) => (c.type === 'text' ? c.text : '')).join('\n');
}
