/**
 * SARIF 2.1.0 of lpreq's findings, shared by `lpreq check --format sarif` (results at lines
 * of request files) and `lpreq proxy --report x.sarif` (results about exchanges): one rule
 * per code, each result pointing at its rule by id and index.
 */
import { CODE_NAMES, CODES } from '../core/index';
import { VERSION } from '../version';

export interface SarifRule {
  id: string;
  title: string;
  help: string;
  severity: string;
}

export interface SarifResult {
  ruleId: string;
  severity: string;
  message: string;
  locations: unknown[];
  properties?: Record<string, unknown>;
}

/** The rules of the checker's codes (docs/codes.md), in the table's order. */
export function diagnosticRules(): SarifRule[] {
  return CODE_NAMES.map((code) => ({
    id: code,
    title: CODES[code].title,
    help: CODES[code].help,
    severity: CODES[code].severity,
  }));
}

/** SARIF's level of a severity: `info` and `note` are notes. */
function level(severity: string): string {
  return severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'note';
}

export function sarifLog(run: {
  rules: SarifRule[];
  results: SarifResult[];
  invocation: Record<string, unknown>;
  extra?: Record<string, unknown>;
}) {
  const index = new Map(run.rules.map((r, i) => [r.id, i]));
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'lpreq',
            informationUri: 'https://github.com/lpreq/lpreq',
            version: VERSION,
            rules: run.rules.map((r) => ({
              id: r.id,
              name: r.title.replace(/[^A-Za-z]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : '')),
              shortDescription: { text: r.title },
              fullDescription: { text: r.help },
              help: { text: r.help, markdown: r.help },
              helpUri: `https://github.com/lpreq/lpreq/blob/main/docs/codes.md#${r.id}`,
              defaultConfiguration: { level: level(r.severity) },
            })),
          },
        },
        invocations: [run.invocation],
        ...run.extra,
        results: run.results.map((r) => ({
          ruleId: r.ruleId,
          ...(index.has(r.ruleId) ? { ruleIndex: index.get(r.ruleId) } : {}),
          level: level(r.severity),
          message: { text: r.message },
          locations: r.locations,
          ...(r.properties ? { properties: r.properties } : {}),
        })),
      },
    ],
  };
}
