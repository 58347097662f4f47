/**
 * The import's report: the written file checked by the core as `lpreq check` checks it, and
 * for each request the documented endpoint it matches (or the nearest documented path) and
 * its diagnostics, with the lines they stand on in the written file.
 */
import { lineOfOffset, lineStarts, type Environments, type LanguageService } from '../core/index';
import type { Converted, MatchSummary } from './convert';

export interface ReportDiagnostic {
  line: number;
  column: number;
  severity: 'error' | 'warning' | 'info' | 'hint';
  code: string;
  message: string;
}

export interface ReportEntry {
  title: string;
  method: string;
  target: string;
  /** The request line in the written file (1-based); undefined for a request written only in comments. */
  line: number | undefined;
  /** The documented endpoint: id, method and path template. */
  endpoint?: { id: string; method: string; path: string };
  /** Why no endpoint matched. */
  undocumented?: string;
  diagnostics: ReportDiagnostic[];
  notes: string[];
}

export interface ImportReport {
  requests: ReportEntry[];
  errors: number;
  warnings: number;
}

function undocumentedReason(match: MatchSummary, method: string): string | undefined {
  switch (match.kind) {
    case 'matched':
      return undefined;
    case 'unknown-endpoint':
      return match.near ? `no documented endpoint (nearest documented path: ${match.near})` : 'no documented endpoint';
    case 'method-not-allowed':
      return `the docs have ${match.templates.join(', ')} for ${match.allowed.join(', ')}, not ${method}`;
    case 'not-checked':
      return 'not an API path lpreq checks (/api/v1/, /api/lti/)';
  }
}

export function checkImported(converted: Converted, service: LanguageService, env: Environments): ImportReport {
  const text = converted.text;
  const parsed = service.parse(text);
  const starts = lineStarts(text);
  const perBlock = new Map<number, ReportDiagnostic[]>();
  let errors = 0;
  let warnings = 0;
  service.diagnose(text, env, (index, diagnostics) => {
    const blockStart = parsed.blocks[index]?.start ?? 0;
    const list: ReportDiagnostic[] = [];
    for (const d of diagnostics) {
      const offset = blockStart + d.start;
      const line = lineOfOffset(starts, offset);
      list.push({
        line: line + 1,
        column: offset - starts[line] + 1,
        severity: d.severity,
        code: d.code,
        message: d.message,
      });
      if (d.severity === 'error') errors++;
      else if (d.severity === 'warning') warnings++;
    }
    perBlock.set(index, list);
  });
  // The written requests, in order, are the blocks that hold a request line.
  const requestBlocks: { index: number; line: number }[] = [];
  parsed.blocks.forEach(({ start, block }, index) => {
    if (block.request) requestBlocks.push({ index, line: lineOfOffset(starts, start + block.request.start) + 1 });
  });
  let next = 0;
  const requests = converted.requests.map((r): ReportEntry => {
    const at = r.written ? requestBlocks[next++] : undefined;
    const match = r.match;
    return {
      title: r.title,
      method: r.method,
      target: r.target,
      line: at?.line,
      ...(match.kind === 'matched'
        ? { endpoint: { id: match.endpoint.id, method: match.endpoint.method, path: match.template } }
        : { undocumented: undocumentedReason(match, r.method) }),
      diagnostics: at ? (perBlock.get(at.index) ?? []) : [],
      notes: r.notes,
    };
  });
  return { requests, errors, warnings };
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** The report as text, for a terminal or an output channel. */
export function formatReport(report: ImportReport, header: string, notes: readonly string[]): string {
  const documented = report.requests.filter((r) => r.endpoint).length;
  const lines = [
    `${header}: ${plural(report.requests.length, 'request')}, ${documented} documented, ${report.requests.length - documented} undocumented; ${plural(report.errors, 'error')}, ${plural(report.warnings, 'warning')}`,
  ];
  for (const r of report.requests) {
    lines.push(`  ${r.line !== undefined ? `line ${r.line}` : 'comments'}: ${r.method} ${r.target}`);
    if (r.endpoint) lines.push(`    documented: ${r.endpoint.id} (${r.endpoint.method} ${r.endpoint.path})`);
    else lines.push(`    undocumented: ${r.undocumented}`);
    for (const d of r.diagnostics) lines.push(`    ${d.line}:${d.column} ${d.severity} ${d.code}: ${d.message}`);
    for (const n of r.notes) lines.push(`    note: ${n}`);
  }
  for (const n of notes) lines.push(`  note: ${n}`);
  return `${lines.join('\n')}\n`;
}
