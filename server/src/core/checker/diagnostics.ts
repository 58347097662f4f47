/** Diagnostics: what the checker reports, and the helpers that make and move them. */
import { CODES, type DiagnosticCode, type Severity } from '../codes';

export type { DiagnosticCode, Severity };

/** What a quick fix needs to know, carried with the diagnostic. */
export interface DiagnosticData {
  /** Replace the diagnostic's range with this text (closest name or value). */
  replacement?: string;
  /** With no close match, the documented values to choose from (a short enum). */
  choices?: string[];
  /** Missing parameter names, to add with placeholders. */
  missing?: string[];
  /** The parameter line the diagnostic is about (offsets like the diagnostic's). */
  lineStart?: number;
  lineEnd?: number;
  endpointId?: string;
  /** `scope-not-granted`: the scope the request needs, and the environments whose `$scopes` lack it. */
  scope?: string;
  grantTo?: readonly string[];
}

export interface Diagnostic {
  code: DiagnosticCode;
  severity: Severity;
  /** One short sentence (at most 120 characters): what is wrong and, where there is one, the fix. */
  message: string;
  /**
   * What stands behind the message: the endpoint, the documentation's words, the documented
   * row. An editor shows them as relatedInformation, `lpreq check --format json` as `detail`;
   * never in the message.
   */
  related?: string[];
  /** Offsets: relative to the block from checkBlock, absolute from checkDocument. */
  start: number;
  end: number;
  data?: DiagnosticData;
}

export function byPosition(a: Diagnostic, b: Diagnostic): number {
  return a.start - b.start || a.end - b.end;
}

/** The diagnostics of a block that has none (never added to). */
export const NO_DIAGNOSTICS: Diagnostic[] = [];

export function diag(
  code: DiagnosticCode,
  message: string,
  start: number,
  end: number,
  data?: DiagnosticData,
  related?: (string | undefined)[],
): Diagnostic {
  const d: Diagnostic = { code, severity: CODES[code].severity, message, start, end };
  if (data) d.data = data;
  const facts = related?.filter((r): r is string => r !== undefined && r !== '');
  if (facts && facts.length > 0) d.related = facts;
  return d;
}

/** A diagnostic moved by `by` characters, with the line offsets of its data (block-relative to absolute). */
export function shiftDiagnostic(d: Diagnostic, by: number): Diagnostic {
  if (by === 0) return d;
  const data =
    d.data && (d.data.lineStart !== undefined || d.data.lineEnd !== undefined)
      ? {
          ...d.data,
          lineStart: d.data.lineStart !== undefined ? d.data.lineStart + by : undefined,
          lineEnd: d.data.lineEnd !== undefined ? d.data.lineEnd + by : undefined,
        }
      : d.data;
  return { ...d, start: d.start + by, end: d.end + by, ...(data ? { data } : {}) };
}
