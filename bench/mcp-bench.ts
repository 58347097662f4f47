/**
 * `npm run bench mcp` (issue 31): `lpreq mcp` as an agent meets it, over stdio through the
 * SDK's own client. The server's start (spawn to the answer of `initialize`) against
 * `node -e ""` started the same way, in turns; every tool but send_request and run_tests on
 * every documented path (or resource, or the search table's questions), each call's round
 * trip against a `ping` of the same session; and the size of describe_endpoint's answers.
 * Medians and ratios, all measured in this run. Loopback only; bounded.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { bundledCatalog } from '../server/src/catalogData';

const ROOT = join(import.meta.dirname, '..');
const BIN = join(ROOT, 'bin', 'lpreq.js');
const STARTS = 9;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? NaN : s[Math.floor(s.length / 2)];
};
const p95 = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))];
};

/** Milliseconds from spawn to the first line on standard output (the answer of `initialize`), or to exit for the reference. */
function timeStart(args: string[], firstLine: boolean): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['pipe', 'pipe', 'ignore'] });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error('a start took over 20 s'));
    }, 20_000);
    child.on('error', reject);
    if (firstLine) {
      child.stdout.once('data', () => {
        const ms = performance.now() - started;
        clearTimeout(timer);
        child.stdin.end();
        child.on('exit', () => resolve(ms));
      });
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } })}\n`,
      );
    } else {
      child.stdout.resume();
      child.on('exit', () => {
        clearTimeout(timer);
        resolve(performance.now() - started);
      });
    }
  });
}

export interface McpBench {
  start: { server: number; reference: number };
  ping: number;
  tools: { name: string; calls: number; median: number; p95: number; max: number }[];
  describeBytes: { median: number; max: number; structuredMedian: number };
}

export async function runMcpBench(): Promise<McpBench> {
  const server: number[] = [];
  const reference: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    reference.push(await timeStart(['-e', ''], false));
    server.push(await timeStart([BIN, 'mcp'], true));
  }
  const workspace = mkdtempSync(join(tmpdir(), 'lpreq-mcp-bench-'));
  const catalog = bundledCatalog();
  const paths = catalog.endpoints.flatMap((e) => e.paths.map((p) => ({ endpoint: e, template: p.template })));
  const concrete = (template: string) => template.replace(/\{\*?[^{}]+\}/g, '1');
  writeFileSync(
    join(workspace, 'all.lpreq'),
    paths.map((p) => `### ${p.endpoint.id}\n${p.endpoint.method} {{base_url}}${concrete(p.template)}\n`).join('\n'),
  );
  writeFileSync(join(workspace, 'http-client.env.json'), JSON.stringify({ dev: { base_url: 'http://127.0.0.1:9' } }));
  const client = new Client({ name: 'lpreq-bench', version: '1' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', '--root', workspace], cwd: workspace }),
  );
  try {
    const { QUERIES } = await import('../test/mcp/searchQueries');
    const timeCall = async (
      name: string,
      args: Record<string, unknown>,
    ): Promise<{ ms: number; bytes: number; structured: number }> => {
      const t = performance.now();
      const result = await client.callTool({ name, arguments: args });
      const ms = performance.now() - t;
      if (result.isError) throw new Error(`${name}: ${JSON.stringify(result.content)}`);
      return { ms, bytes: JSON.stringify(result).length, structured: JSON.stringify(result.structuredContent).length };
    };
    const pings: number[] = [];
    for (let i = 0; i < 50; i++) {
      const t = performance.now();
      await client.ping();
      pings.push(performance.now() - t);
    }
    const calls: [string, Record<string, unknown>][] = [
      ...QUERIES.map(([query]): [string, Record<string, unknown>] => ['search_endpoints', { query }]),
      ...paths.map((p): [string, Record<string, unknown>] => [
        'describe_endpoint',
        { method: p.endpoint.method, path: p.template },
      ]),
      ...[...catalog.resources.keys()].map((name): [string, Record<string, unknown>] => [
        'describe_resource',
        { name },
      ]),
      ...paths.map((p): [string, Record<string, unknown>] => [
        'check_request',
        { text: `${p.endpoint.method} {{base_url}}${concrete(p.template)}\n`, environment: 'dev' },
      ]),
      ...paths.map((p): [string, Record<string, unknown>] => [
        'type_response',
        {
          method: p.endpoint.method,
          path: p.template,
          status: p.endpoint.successStatus ?? 200,
          body: p.endpoint.returns?.endsWith('[]') ? [{ id: 1, undocumented: true }] : { id: 1, undocumented: true },
        },
      ]),
      ...Array.from({ length: 30 }, (): [string, Record<string, unknown>] => [
        'check_file',
        { path: 'all.lpreq', environment: 'dev' },
      ]),
    ];
    const times = new Map<string, number[]>();
    const describeBytes: number[] = [];
    const describeStructured: number[] = [];
    for (const [name, args] of calls) {
      const r = await timeCall(name, args);
      times.set(name, [...(times.get(name) ?? []), r.ms]);
      if (name === 'describe_endpoint') {
        describeBytes.push(r.bytes);
        describeStructured.push(r.structured);
      }
    }
    return {
      start: { server: median(server), reference: median(reference) },
      ping: median(pings),
      tools: [...times].map(([name, ms]) => ({
        name,
        calls: ms.length,
        median: median(ms),
        p95: p95(ms),
        max: Math.max(...ms),
      })),
      describeBytes: {
        median: median(describeBytes),
        max: Math.max(...describeBytes),
        structuredMedian: median(describeStructured),
      },
    };
  } finally {
    await client.close();
    rmSync(workspace, { recursive: true, force: true });
  }
}

export function formatMcpBench(r: McpBench): string {
  const ms = (x: number) => `${x.toFixed(1)} ms`;
  const lines = [
    `server start (spawn to the answer of initialize), median of ${STARTS}: ${ms(r.start.server)}; node -e "" ${ms(r.start.reference)} (${(r.start.server / r.start.reference).toFixed(2)}x); target 300 ms`,
    `ping round trip, median: ${ms(r.ping)}`,
    '',
    '| tool | calls | median | p95 | max | median / ping | target |',
    '|---|---|---|---|---|---|---|',
    ...r.tools.map(
      (t) =>
        `| ${t.name} | ${t.calls} | ${ms(t.median)} | ${ms(t.p95)} | ${ms(t.max)} | ${(t.median / r.ping).toFixed(1)}x | ${t.max < 50 ? 'every call under 50 ms' : t.p95 < 50 ? 'p95 under 50 ms' : 'OVER 50 ms'} |`,
    ),
    '',
    `describe_endpoint answers over the 152 paths: median ${r.describeBytes.median} bytes (structuredContent alone ${r.describeBytes.structuredMedian}), largest ${r.describeBytes.max}; target: median under 4 KB`,
  ];
  return lines.join('\n');
}
