/**
 * What sending from the language server adds to the exchange (issue 20): the same request
 * (a course's modules) to the mock on loopback, in turns, through
 *   - a bare undici request (the exchange itself: the request, the body read and parsed),
 *   - `lpreq send` in-process (the command line's whole flow: the file read and parsed, the
 *     environment and token found, the request prepared, sent, typed, stored in history and
 *     printed),
 *   - the language server's `lpreq.send` command over stdio (the same flow, plus the response
 *     file written and its diagnostics published), timed from the request to its answer.
 * Medians over the rounds; the differences from the bare request are what each adds.
 *
 *   node scripts/build.mjs && node --import tsx bench/send-bench.ts [--rounds N]
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { request } from 'undici';
import { run as runSend } from '../server/src/cli/sendCommand';
import { startMock } from '../server/src/mock/index';
import { LspClient } from '../test/lsp/rpc';

const TOKEN = 'bench-send-token-0123456789';
const REQUEST = '### modules\n# @name modules\nGET {{base_url}}/api/v1/courses/42/modules\nAccept: application/json\n';

export interface SendBenchFigures {
  rounds: number;
  bodyBytes: number;
  undiciMs: number;
  cliMs: number;
  lspMs: number;
  /** What each adds to the bare exchange (median of the differences within each round). */
  cliAddsMs: number;
  lspAddsMs: number;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (x: number) => Math.round(x * 100) / 100;

export async function runSendBench(options: { rounds?: number } = {}): Promise<SendBenchFigures> {
  const rounds = options.rounds ?? 60;
  const mock = await startMock({ port: 0, token: TOKEN });
  const dir = mkdtempSync(join(tmpdir(), 'lpreq-send-bench-'));
  const client = new LspClient(undefined, undefined, { env: { PATH: process.env.PATH ?? '', LPREQ_TOKEN: TOKEN } });
  const guard = setTimeout(() => client.kill(), 300_000);
  try {
    mkdirSync(join(dir, 'requests'));
    writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local: { base_url: mock.url } }));
    const file = join(dir, 'requests', 'modules.lpreq');
    writeFileSync(file, REQUEST);
    const url = `${mock.url}/api/v1/courses/42/modules`;
    const headers = { accept: 'application/json', authorization: `Bearer ${TOKEN}` };
    let bodyBytes = 0;
    const undiciOnce = async () => {
      const t = performance.now();
      const r = await request(url, { headers });
      const text = await r.body.text();
      JSON.parse(text);
      bodyBytes = Buffer.byteLength(text);
      return performance.now() - t;
    };
    const io = {
      stdout: () => undefined,
      stderr: () => undefined,
      readStdin: () => '',
      isTTY: false,
      env: { LPREQ_TOKEN: TOKEN },
      cwd: dir,
    };
    const cliOnce = async () => {
      const t = performance.now();
      const code = await runSend([file], io);
      if (code !== 0) throw new Error(`lpreq send exited with ${code}`);
      return performance.now() - t;
    };
    // An editor without progress or showDocument: the answer comes when the send is done.
    await client.initialize({}, pathToFileURL(dir).href, {}, {});
    const uri = pathToFileURL(file).href;
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text: REQUEST } });
    const lspOnce = async () => {
      const t = performance.now();
      const result = await client.request<{ ok: boolean }>(
        'workspace/executeCommand',
        { command: 'lpreq.send', arguments: [uri, 2] },
        30_000,
      );
      if (!result.ok) throw new Error(`lpreq.send: ${JSON.stringify(result)}`);
      return performance.now() - t;
    };
    // Warm-up: connections, code, the catalog in each.
    for (let k = 0; k < 10; k++) {
      await undiciOnce();
      await cliOnce();
      await lspOnce();
    }
    const undici: number[] = [];
    const cli: number[] = [];
    const lsp: number[] = [];
    for (let k = 0; k < rounds; k++) {
      // The order turns each round, so that none is always first after a pause.
      const order = [undiciOnce, cliOnce, lspOnce];
      for (let i = 0; i < k % 3; i++) order.push(order.shift()!);
      const times = new Map<unknown, number>();
      for (const once of order) times.set(once, await once());
      undici.push(times.get(undiciOnce)!);
      cli.push(times.get(cliOnce)!);
      lsp.push(times.get(lspOnce)!);
    }
    return {
      rounds,
      bodyBytes,
      undiciMs: round(median(undici)),
      cliMs: round(median(cli)),
      lspMs: round(median(lsp)),
      cliAddsMs: round(median(cli.map((c, i) => c - undici[i]))),
      lspAddsMs: round(median(lsp.map((l, i) => l - undici[i]))),
    };
  } finally {
    clearTimeout(guard);
    await client.shutdown().catch(() => client.kill());
    await mock.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatSendBench(f: SendBenchFigures): string {
  const row = (what: string, value: number, target = '') => `| ${what} | ${value.toFixed(2)} | ${target} |`;
  return [
    `GET a course's modules from the mock on loopback (${f.bodyBytes.toLocaleString('en')} bytes of JSON), ${f.rounds} rounds, the three in turns; medians in milliseconds.`,
    '',
    '| measure | result | target |',
    '|---|---:|---:|',
    row('bare undici request (the exchange: request, body read and parsed)', f.undiciMs),
    row('`lpreq send`, in-process', f.cliMs),
    row("the language server's `lpreq.send`, request to answer over stdio", f.lspMs),
    row('what `lpreq send` adds to the exchange', f.cliAddsMs),
    row('what the language server adds to the exchange', f.lspAddsMs, '5'),
  ].join('\n');
}

if (require.main === module) {
  const at = process.argv.indexOf('--rounds');
  runSendBench({ rounds: at !== -1 ? Number(process.argv[at + 1]) : undefined }).then(
    (f) => console.log(formatSendBench(f)),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
