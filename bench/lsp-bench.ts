/**
 * Language server benchmark over the stdio protocol, against the real server process
 * (`node bin/lpreq.js lsp --stdio`), on a generated document of 10,000 realistic requests.
 *
 *   node scripts/build.mjs && node --import tsx bench/lsp-bench.ts [--requests N]
 */
import { bundledCatalog } from '../server/src/catalogData';
import type { CatalogParameter, Endpoint } from '../server/src/core/catalog/catalog';
import { LspClient } from '../test/lsp/rpc';
import { readFileSync } from 'node:fs';

export interface LspBenchOptions {
  requests?: number;
  /** Edits measured for re-diagnosis (the median is reported). */
  edits?: number;
  completions?: number;
  debounceMs?: number;
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
}

function sampleValue(p: CatalogParameter, i: number): string {
  if (p.enum && p.enum.length > 0) return p.enum[i % p.enum.length];
  if (p.format === 'context_code' || p.format === 'id_or_context_code') return `${p.contextTypes?.[0] ?? 'course'}_${100 + (i % 50)}`;
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

/** Realistic requests across the catalog, about 8 lines each. Returns the text and where values stand. */
export function generateDocument(requests: number): { text: string; valueLines: number[]; nameLines: number[] } {
  const catalog = bundledCatalog();
  const endpoints: Endpoint[] = catalog.endpoints.filter((e) => e.body !== 'json' && !e.paths[0].template.includes('{*'));
  const lines = ['@base_url = https://lms.example.edu', '@course = 42', ''];
  const valueLines: number[] = [];
  const nameLines: number[] = [];
  for (let i = 0; i < requests; i++) {
    const e = endpoints[i % endpoints.length];
    const path = e.paths[0].template.replace(/\{(\w+)\}/g, (_all, name: string) => (name === 'course_id' ? '{{course}}' : String(10 + (i % 90))));
    lines.push(`### ${e.purpose.slice(0, 40).replace(/\n/g, ' ')} ${i}`);
    if (i % 10 === 0) lines.push(`# @name req${i}`);
    lines.push(`${e.method} {{base_url}}${path}`);
    lines.push('Accept: application/json');
    lines.push('');
    const chosen = [...e.params.filter((p) => p.required && !p.isPattern), ...e.params.filter((p) => !p.required && !p.isPattern && !p.deprecated)].slice(0, 3);
    for (const p of chosen) {
      nameLines.push(lines.length);
      if (p.type === 'string' && !p.enum && !p.format) valueLines.push(lines.length);
      lines.push(`${p.name} = ${sampleValue(p, i)}`);
    }
    lines.push('');
  }
  return { text: lines.join('\n'), valueLines, nameLines };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? 0 : s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const round = (x: number) => Math.round(x * 100) / 100;

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
  const debounceMs = options.debounceMs ?? 50;
  const { text, valueLines, nameLines } = generateDocument(requests);
  const uri = 'untitled:bench.lpreq';
  const t0 = performance.now();
  const client = new LspClient();
  const guard = setTimeout(() => client.kill(), 300000);
  try {
    await client.initialize({ debounceMs });
    const startToInitializeMs = performance.now() - t0;

    const open = client.diagnostics(uri, 1, 60000);
    const t1 = performance.now();
    client.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text } });
    const first = await open;
    const openToDiagnosticsMs = performance.now() - t1;

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
    for (let k = 0; k < n; k++) {
      const line = nameLines[Math.floor(((k + 0.5) * nameLines.length) / n)];
      const lineText = text.split('\n', line + 1)[line] ?? '';
      const character = k % 2 === 0 ? 0 : lineText.length;
      const t = performance.now();
      const result = await client.request<{ items: unknown[] } | null>('textDocument/completion', { textDocument: { uri }, position: { line, character } });
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
    };
  } finally {
    clearTimeout(guard);
    client.kill();
  }
}

if (require.main === module) {
  const at = process.argv.indexOf('--requests');
  runLspBench({ requests: at !== -1 ? Number(process.argv[at + 1]) : undefined }).then(
    (figures) => console.log(JSON.stringify(figures, null, 2)),
    (e: unknown) => {
      console.error(e);
      process.exitCode = 1;
    },
  );
}
