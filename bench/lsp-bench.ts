/**
 * Language server benchmark over the stdio protocol, against the real server process
 * (`node bin/lpreq.js lsp --stdio`), on a generated document of 10,000 realistic requests.
 * Several sessions, each from a fresh process; every figure is the median over the
 * sessions. The reference, measured in the same run: a bare node process that answers
 * `initialize` and nothing else, the floor for any server written for node.
 *
 *   node scripts/build.mjs && node --import tsx bench/lsp-bench.ts [--requests N] [--sessions N] [--lenses-first]
 *
 * With --lenses-first, the first request after the first diagnostics is the code lenses (then
 * every 25th, as without it): the first answer at the earliest moment an editor may ask.
 */
import { bundledCatalog } from '../server/src/catalogData';
import type { CatalogParameter, Endpoint } from '../server/src/core/index';
import { LspClient } from '../test/lsp/rpc';
import { getLanguageService, TextDocument as JsonTextDocument } from 'vscode-json-languageservice';
import { jsonSchemaFor, toJson, type GeneratedRequest } from './generate';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Requests answered right after a large document is opened, while its cache fills (issue 20). */
export interface AfterOpenFigures {
  /** The first six completions after the first diagnostics, in order. */
  firstCompletionsMs: number[];
  completionP50Ms: number;
  completionMaxMs: number;
  hoverP50Ms: number;
  hoverMaxMs: number;
  /** Code actions at a parameter line (quick fixes and refactorings); absent in figures of a bench that asked none. */
  codeActionP50Ms?: number;
  codeActionMaxMs?: number;
  /** The document's code lenses (every request's), asked for among them, to the whole answer read; absent for a server without them. */
  codeLensP50Ms?: number;
  codeLensMaxMs?: number;
  /** The same, to the answer's first byte: the server's part (the rest is the transfer and the client's JSON parse of megabytes). */
  codeLensOutP50Ms?: number;
  codeLensOutMaxMs?: number;
  codeLensCount?: number;
  requests: number;
}

export interface LspBenchOptions {
  requests?: number;
  /** Edits measured for re-diagnosis (the median is reported). */
  edits?: number;
  completions?: number;
  debounceMs?: number;
  /** Fresh server processes measured (medians are reported). */
  sessions?: number;
  /** How long requests are sent right after the document opens, in milliseconds. */
  afterOpenMs?: number;
  /** Another build's `bin/lpreq.js` (LPREQ_BENCH_BASE): its sessions alternate with this build's, for the figures after open. */
  baseBin?: string;
  /** The code lenses are the first request after the first diagnostics (else the 13th). */
  lensesFirst?: boolean;
}

export interface LspBenchFigures {
  requests: number;
  documentBytes: number;
  documentLines: number;
  startToInitializeMs: number;
  openToDiagnosticsMs: number;
  diagnosticsPublished: number;
  debounceMs: number;
  editToDiagnosticsMedianMs: number;
  editToDiagnosticsMaxMs: number;
  /** The median above without the debounce delay: the work itself. */
  editWorkMedianMs: number;
  completionMedianMs: number;
  completionMaxMs: number;
  completionItemsMedian: number;
  rssMb: number;
  /** Over every session: the slowest completion and the slowest re-diagnosis work. */
  completionWorstMs: number;
  editWorkWorstMedianMs: number;
  sessions: number;
  /** A bare node process answering `initialize`: start to reply. */
  bareNodeInitializeMs: number;
  /** vscode-json-languageservice completing in the same requests as JSON, in-process (median). */
  jsonServiceCompletionMs: number;
  /** Right after open, per session (this build's, and the base build's when given, alternating). */
  afterOpen: AfterOpenFigures[];
  baseAfterOpen?: AfterOpenFigures[];
  /** The base build's open to first diagnostics and resident memory (medians), measured in the same turns. */
  baseOpenToDiagnosticsMs?: number;
  baseRssMb?: number;
}

type SessionFigures = Omit<
  LspBenchFigures,
  | 'completionWorstMs'
  | 'editWorkWorstMedianMs'
  | 'sessions'
  | 'bareNodeInitializeMs'
  | 'jsonServiceCompletionMs'
  | 'afterOpen'
  | 'baseAfterOpen'
  | 'baseOpenToDiagnosticsMs'
  | 'baseRssMb'
> & { afterOpen: AfterOpenFigures };

const BARE_SERVER = `let buf = Buffer.alloc(0);
const send = (m) => { const b = Buffer.from(JSON.stringify(m)); process.stdout.write('Content-Length: ' + b.length + '\\r\\n\\r\\n'); process.stdout.write(b); };
process.stdin.on('data', (d) => {
  buf = Buffer.concat([buf, d]);
  for (;;) {
    const h = buf.indexOf('\\r\\n\\r\\n');
    if (h === -1) return;
    const n = Number(/Content-Length: (\\d+)/i.exec(buf.subarray(0, h).toString())[1]);
    if (buf.length < h + 4 + n) return;
    const m = JSON.parse(buf.subarray(h + 4, h + 4 + n).toString());
    buf = buf.subarray(h + 4 + n);
    if (m.method === 'exit') process.exit(0);
    if (m.id !== undefined) send({ jsonrpc: '2.0', id: m.id, result: m.method === 'initialize' ? { capabilities: {} } : null });
  }
});
`;

/** Start to `initialize` reply of a node process that does nothing else: the floor. */
async function bareNodeInitialize(): Promise<number> {
  const dir = join(import.meta.dirname, '.data');
  mkdirSync(dir, { recursive: true });
  const script = join(dir, 'bare-lsp.cjs');
  writeFileSync(script, BARE_SERVER);
  const t0 = performance.now();
  const client = new LspClient([script]);
  try {
    await client.initialize();
    const ms = performance.now() - t0;
    await client.shutdown();
    return ms;
  } finally {
    client.kill();
  }
}

function sampleValue(p: CatalogParameter, i: number): string {
  if (p.enum && p.enum.length > 0) return p.enum[i % p.enum.length];
  if (p.format === 'context_code' || p.format === 'id_or_context_code')
    return `${p.contextTypes?.[0] ?? 'course'}_${100 + (i % 50)}`;
  switch (p.type) {
    case 'integer':
      return String(1 + (i % 500));
    case 'number':
      return '1.5';
    case 'boolean':
      return i % 2 === 0 ? 'true' : 'false';
    case 'Date':
      return '2026-01-15';
    case 'DateTime':
      return '2026-01-15T08:00:00Z';
    default:
      return `value ${i}`;
  }
}

/** Realistic requests across the catalog, about 8 lines each. Returns the text, where values stand, and the requests as data. */
export function generateDocument(requests: number): {
  text: string;
  valueLines: number[];
  nameLines: number[];
  generated: GeneratedRequest[];
} {
  const catalog = bundledCatalog();
  const endpoints: Endpoint[] = catalog.endpoints.filter(
    (e) => e.body !== 'json' && !e.paths[0].template.includes('{*'),
  );
  const lines = ['@base_url = https://lms.example.edu', '@course = 42', ''];
  const valueLines: number[] = [];
  const nameLines: number[] = [];
  const generated: GeneratedRequest[] = [];
  for (let i = 0; i < requests; i++) {
    const e = endpoints[i % endpoints.length];
    const path = e.paths[0].template.replace(/\{(\w+)\}/g, (_all, name: string) =>
      name === 'course_id' ? '{{course}}' : name === 'date' ? '2026-01-15' : String(10 + (i % 90)),
    );
    lines.push(`### ${e.purpose.slice(0, 40).replace(/\n/g, ' ')} ${i}`);
    if (i % 10 === 0) lines.push(`# @name req${i}`);
    lines.push(`${e.method} {{base_url}}${path}`);
    lines.push('Accept: application/json');
    lines.push('');
    const chosen = [
      ...e.params.filter((p) => p.required && !p.isPattern),
      ...e.params.filter((p) => !p.required && !p.isPattern && !p.deprecated),
    ].slice(0, 3);
    for (const p of chosen) {
      nameLines.push(lines.length);
      if (p.type === 'string' && !p.enum && !p.format) valueLines.push(lines.length);
      lines.push(`${p.name} = ${sampleValue(p, i)}`);
    }
    lines.push('');
    generated.push({
      endpoint: e.id,
      method: e.method,
      path: path.replace('{{course}}', '42'),
      params: chosen.map((p) => [p.name, sampleValue(p, i)]),
    });
  }
  return { text: lines.join('\n'), valueLines, nameLines, generated };
}

/**
 * The issue's reference: vscode-json-languageservice completing inside the same requests
 * written as JSON (one object a request, checked by an equivalent JSON Schema), in-process
 * and without the protocol, at 100 parameter names spread through the document.
 */
export async function jsonCompletionReference(generated: GeneratedRequest[], positions = 100): Promise<number> {
  const catalog = bundledCatalog();
  const used = new Set(generated.map((r) => r.endpoint));
  const schema = jsonSchemaFor(catalog, (e) => used.has(e.id));
  const service = getLanguageService({});
  service.configure({ validate: true, schemas: [{ uri: 'lpreq://bench-schema', fileMatch: ['*.json'], schema }] });
  const text = toJson(generated);
  const document = JsonTextDocument.create('file:///bench.json', 'json', 1, text);
  const parsed = service.parseJSONDocument(document);
  const keys: number[] = [];
  for (let at = text.indexOf('"params": {'); at !== -1; at = text.indexOf('"params": {', at + 1)) {
    const key = text.indexOf('"', at + '"params": {'.length);
    if (key !== -1 && key < text.indexOf('}', at)) keys.push(key + 1);
  }
  const times: number[] = [];
  for (let k = 0; k < positions; k++) {
    const offset = keys[Math.floor(((k + 0.5) * keys.length) / positions)];
    const t = performance.now();
    await service.doComplete(document, document.positionAt(offset), parsed);
    times.push(performance.now() - t);
  }
  return median(times);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (x: number) => Math.round(x * 100) / 100;

/**
 * With --expose-gc (npm run bench), the client collects its own garbage (the diagnostics it
 * received) before the timed completions, so that its collections are not counted as the server's time.
 */
function collectClientGarbage() {
  (globalThis as { gc?: () => void }).gc?.();
}

function rssMb(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? round(Number(m[1]) / 1024) : -1;
  } catch {
    return -1;
  }
}

export async function runLspBench(options: LspBenchOptions = {}): Promise<LspBenchFigures> {
  const requests = options.requests ?? 10000;
  const document = generateDocument(requests);
  const sessions: SessionFigures[] = [];
  const base: SessionFigures[] = [];
  const bare: number[] = [];
  for (let k = 0; k < (options.sessions ?? 5); k++) {
    bare.push(await bareNodeInitialize());
    // This build and the base in turns, each from a fresh process, so that the machine's moods fall on both.
    if (options.baseBin && k % 2 === 1) base.push(await runSession(options, requests, document, options.baseBin));
    sessions.push(await runSession(options, requests, document));
    if (options.baseBin && k % 2 === 0) base.push(await runSession(options, requests, document, options.baseBin));
  }
  const mid = (pick: (f: SessionFigures) => number) => round(median(sessions.map(pick)));
  return {
    requests,
    documentBytes: sessions[0].documentBytes,
    documentLines: sessions[0].documentLines,
    startToInitializeMs: mid((f) => f.startToInitializeMs),
    openToDiagnosticsMs: mid((f) => f.openToDiagnosticsMs),
    diagnosticsPublished: sessions[0].diagnosticsPublished,
    debounceMs: sessions[0].debounceMs,
    editToDiagnosticsMedianMs: mid((f) => f.editToDiagnosticsMedianMs),
    editToDiagnosticsMaxMs: mid((f) => f.editToDiagnosticsMaxMs),
    editWorkMedianMs: mid((f) => f.editWorkMedianMs),
    completionMedianMs: mid((f) => f.completionMedianMs),
    completionMaxMs: mid((f) => f.completionMaxMs),
    completionItemsMedian: mid((f) => f.completionItemsMedian),
    rssMb: mid((f) => f.rssMb),
    completionWorstMs: round(Math.max(...sessions.map((f) => f.completionMaxMs))),
    editWorkWorstMedianMs: round(Math.max(...sessions.map((f) => f.editWorkMedianMs))),
    sessions: sessions.length,
    bareNodeInitializeMs: round(median(bare)),
    jsonServiceCompletionMs: round(await jsonCompletionReference(document.generated)),
    afterOpen: sessions.map((f) => f.afterOpen),
    ...(options.baseBin
      ? {
          baseAfterOpen: base.map((f) => f.afterOpen),
          baseOpenToDiagnosticsMs: round(median(base.map((f) => f.openToDiagnosticsMs))),
          baseRssMb: round(median(base.map((f) => f.rssMb))),
        }
      : {}),
  };
}

/** The figures after open of each session, as table rows. */
function afterOpenRows(label: string, list: AfterOpenFigures[]): string[] {
  return list.map(
    (a, i) =>
      `| ${label} ${i + 1} | ${a.firstCompletionsMs.map((x) => x.toFixed(1)).join(', ')} | ${a.completionP50Ms.toFixed(2)} / ${a.completionMaxMs.toFixed(1)} | ${a.hoverP50Ms.toFixed(2)} / ${a.hoverMaxMs.toFixed(1)} | ${
        a.codeActionP50Ms === undefined
          ? ''
          : `${a.codeActionP50Ms.toFixed(2)} / ${(a.codeActionMaxMs ?? 0).toFixed(1)}`
      } | ${
        a.codeLensP50Ms === undefined
          ? '(none)'
          : `${a.codeLensP50Ms.toFixed(1)} / ${(a.codeLensMaxMs ?? 0).toFixed(1)} (${a.codeLensCount} lenses)`
      } | ${a.codeLensOutP50Ms === undefined ? '' : `${a.codeLensOutP50Ms.toFixed(1)} / ${(a.codeLensOutMaxMs ?? 0).toFixed(1)}`} | ${a.requests} |`,
  );
}

/** Right after open (issue 20): every session, this build's and the base's. */
export function formatAfterOpen(f: LspBenchFigures, afterOpenMs: number): string {
  return [
    `Requests sent one after another for ${afterOpenMs / 1000} s from the first diagnostics of the ${f.requests.toLocaleString('en')}-request document (a completion, every 5th a hover, every 5th code actions at a parameter line, every 25th the code lenses), each session a fresh process${f.baseAfterOpen ? ', this build and the base build in turns' : ''}; in milliseconds. Targets: completion, hover and code actions under 10 at any moment; code lenses under 20.`,
    '',
    '| session | first six completions | completion p50 / max | hover p50 / max | code actions p50 / max | code lenses, whole answer read, p50 / max | code lenses, answer out (first byte), p50 / max | requests |',
    '|---|---|---:|---:|---:|---:|---:|---:|',
    ...afterOpenRows('this build', f.afterOpen),
    ...(f.baseAfterOpen ? afterOpenRows('base build', f.baseAfterOpen) : []),
  ].join('\n');
}

/** The figures and their targets (issue 3), as a table. */
export function formatLspBench(f: LspBenchFigures): string {
  const row = (what: string, value: string, target: string) => `| ${what} | ${value} | ${target} |`;
  return [
    `${f.requests.toLocaleString('en')} requests, ${(f.documentBytes / 1048576).toFixed(2)} MB, ${f.documentLines.toLocaleString('en')} lines, ${f.diagnosticsPublished} diagnostics; medians over ${f.sessions} server processes, in milliseconds.`,
    '',
    '| measure | result | target |',
    '|---|---:|---:|',
    row('completion, median', f.completionMedianMs.toFixed(2), '2'),
    row(
      'reference: vscode-json-languageservice completing in the same requests as JSON, in-process, median',
      f.jsonServiceCompletionMs.toFixed(2),
      '',
    ),
    row(
      'completion, slowest (median of the sessions; worst of all)',
      `${f.completionMaxMs.toFixed(1)}; ${f.completionWorstMs.toFixed(1)}`,
      '10',
    ),
    row(`edit to republished diagnostics (debounce ${f.debounceMs} ms)`, f.editToDiagnosticsMedianMs.toFixed(1), '100'),
    row(
      're-diagnosis work after an edit (the above without the debounce; worst session)',
      `${f.editWorkMedianMs.toFixed(1)}; ${f.editWorkWorstMedianMs.toFixed(1)}`,
      '20',
    ),
    row('open to first diagnostics', f.openToDiagnosticsMs.toFixed(0), '300'),
    row('start to initialize reply', f.startToInitializeMs.toFixed(0), '150'),
    row('reference: a bare node process answering initialize', f.bareNodeInitializeMs.toFixed(0), ''),
    row('resident memory, MB', f.rssMb.toFixed(0), '150'),
    ...(f.baseOpenToDiagnosticsMs !== undefined
      ? [
          row(
            'base build (LPREQ_BENCH_BASE), in turns with this one: open to first diagnostics',
            f.baseOpenToDiagnosticsMs.toFixed(0),
            '',
          ),
          row('base build: resident memory, MB', (f.baseRssMb ?? 0).toFixed(0), ''),
        ]
      : []),
  ].join('\n');
}

/** Completions, hovers, code actions and code lenses one after another from the first diagnostics on, for `ms`. */
async function afterOpen(
  client: LspClient,
  uri: string,
  nameLines: number[],
  ms: number,
  lenses: boolean,
  lensesFirst = false,
): Promise<AfterOpenFigures> {
  const completion: number[] = [];
  const hover: number[] = [];
  const codeAction: number[] = [];
  const codeLens: number[] = [];
  const codeLensOut: number[] = [];
  let count = 0;
  const start = performance.now();
  for (let k = 0; performance.now() - start < ms; k++) {
    const line = nameLines[(k * 7919) % nameLines.length];
    if (lenses && k % 25 === (lensesFirst ? 0 : 12)) {
      const t = performance.now();
      const found = await client.request<unknown[]>('textDocument/codeLens', { textDocument: { uri } });
      codeLens.push(performance.now() - t);
      codeLensOut.push(client.lastMessageStartedAt - t);
      count = found.length;
      // Parsing 4 MB leaves the client 20 to 30 MB of garbage, whose collection on the other core
      // took the server's CPU during the next request (7 to 9 ms in the server's own handler, 0.2
      // without it): collected here, outside the timed requests, as before the completions below.
      collectClientGarbage();
    } else if (k % 5 === 3) {
      const t = performance.now();
      await client.request('textDocument/hover', { textDocument: { uri }, position: { line, character: 1 } });
      hover.push(performance.now() - t);
    } else if (k % 5 === 1) {
      const t = performance.now();
      await client.request('textDocument/codeAction', {
        textDocument: { uri },
        range: { start: { line, character: 0 }, end: { line, character: 40 } },
        context: { diagnostics: [] },
      });
      codeAction.push(performance.now() - t);
    } else {
      const t = performance.now();
      await client.request('textDocument/completion', { textDocument: { uri }, position: { line, character: 0 } });
      completion.push(performance.now() - t);
    }
  }
  return {
    firstCompletionsMs: completion.slice(0, 6).map(round),
    completionP50Ms: round(median(completion)),
    completionMaxMs: round(Math.max(...completion)),
    hoverP50Ms: round(median(hover)),
    hoverMaxMs: round(Math.max(...hover)),
    codeActionP50Ms: round(median(codeAction)),
    codeActionMaxMs: round(Math.max(...codeAction)),
    ...(codeLens.length > 0
      ? {
          codeLensP50Ms: round(median(codeLens)),
          codeLensMaxMs: round(Math.max(...codeLens)),
          codeLensOutP50Ms: round(median(codeLensOut)),
          codeLensOutMaxMs: round(Math.max(...codeLensOut)),
          codeLensCount: count,
        }
      : {}),
    requests: completion.length + hover.length + codeAction.length + codeLens.length,
  };
}

async function runSession(
  options: LspBenchOptions,
  requests: number,
  { text, valueLines, nameLines }: { text: string; valueLines: number[]; nameLines: number[] },
  bin = join(import.meta.dirname, '..', 'bin', 'lpreq.js'),
): Promise<SessionFigures> {
  const debounceMs = options.debounceMs ?? 50;
  // A saved file: the server offers code lenses only for one (there is nothing to send from otherwise).
  const uri = 'file:///bench/bench.lpreq';
  const t0 = performance.now();
  const client = new LspClient([bin, 'lsp', '--stdio']);
  const guard = setTimeout(() => client.kill(), 300000);
  try {
    await client.initialize({ debounceMs });
    const startToInitializeMs = performance.now() - t0;

    const open = client.diagnostics(uri, 1, 60000);
    const t1 = performance.now();
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text } });
    const first = await open;
    const openToDiagnosticsMs = performance.now() - t1;
    const lenses =
      (client.initializeResult as { capabilities: { codeLensProvider?: unknown } }).capabilities.codeLensProvider !==
      undefined;
    const opened = await afterOpen(client, uri, nameLines, options.afterOpenMs ?? 2000, lenses, options.lensesFirst);

    // One-character edits in string values spread through the document.
    const editTimes: number[] = [];
    const edits = options.edits ?? 9;
    let version = 1;
    for (let k = 0; k < edits; k++) {
      const line = valueLines[Math.floor(((k + 0.5) * valueLines.length) / edits)] ?? 3;
      version++;
      const published = client.diagnostics(uri, version, 60000);
      const t = performance.now();
      client.notify('textDocument/didChange', {
        textDocument: { uri, version },
        contentChanges: [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: 'x' }],
      });
      await published;
      editTimes.push(performance.now() - t);
    }

    // Completion at positions spread through the document: parameter names and values.
    const completionTimes: number[] = [];
    const counts: number[] = [];
    const n = options.completions ?? 100;
    // Split once, and collect what the edits left behind: the client's own garbage must not
    // land inside the timed requests.
    const lines = text.split('\n');
    collectClientGarbage();
    for (let k = 0; k < n; k++) {
      const line = nameLines[Math.floor(((k + 0.5) * nameLines.length) / n)];
      const lineText = lines[line] ?? '';
      const character = k % 2 === 0 ? 0 : lineText.length;
      const t = performance.now();
      const result = await client.request<{ items: unknown[] } | null>('textDocument/completion', {
        textDocument: { uri },
        position: { line, character },
      });
      completionTimes.push(performance.now() - t);
      counts.push(result?.items.length ?? 0);
    }
    const rss = rssMb(client.process.pid ?? 0);
    await client.shutdown();
    const editMedian = median(editTimes);
    return {
      requests,
      documentBytes: Buffer.byteLength(text),
      documentLines: text.split('\n').length,
      startToInitializeMs: round(startToInitializeMs),
      openToDiagnosticsMs: round(openToDiagnosticsMs),
      diagnosticsPublished: first.diagnostics.length,
      debounceMs,
      editToDiagnosticsMedianMs: round(editMedian),
      editToDiagnosticsMaxMs: round(Math.max(...editTimes)),
      editWorkMedianMs: round(editMedian - debounceMs),
      completionMedianMs: round(median(completionTimes)),
      completionMaxMs: round(Math.max(...completionTimes)),
      completionItemsMedian: median(counts),
      rssMb: rss,
      afterOpen: opened,
    };
  } finally {
    clearTimeout(guard);
    client.kill();
  }
}

if (require.main === module) {
  const at = process.argv.indexOf('--requests');
  const sessionsAt = process.argv.indexOf('--sessions');
  runLspBench({
    requests: at !== -1 ? Number(process.argv[at + 1]) : undefined,
    sessions: sessionsAt !== -1 ? Number(process.argv[sessionsAt + 1]) : undefined,
    baseBin: process.env.LPREQ_BENCH_BASE,
    lensesFirst: process.argv.includes('--lenses-first'),
  }).then(
    (figures) => console.log(`${formatLspBench(figures)}\n\n${formatAfterOpen(figures, 2000)}`),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
