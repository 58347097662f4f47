/**
 * The one line a request gets on standard error from `lpreq mock` and `lpreq proxy`:
 * `GET /api/v1/courses/42/modules?include[]&per_page 200 1.8 ms warnings: unknown-parameter zz`.
 * What the line may show was decided before it gets here (`logTarget`: no query values,
 * never a header); here it is made printable and kept short.
 */
import { printable } from './terminalText';

export interface LoggedExchange {
  method: string;
  target: string;
  /** 0 when no answer was given (the client went away first). */
  status: number;
  ms: number;
  problems: readonly { code: string; parameter?: string; path?: string }[];
}

/** Distinct problems shown in a line; the rest are counted. */
const SHOWN = 8;

export function requestLine(entry: LoggedExchange, label: string, suffix = ''): string {
  let line = `${entry.method} ${entry.target} ${entry.status === 0 ? '-' : entry.status} ${entry.ms.toFixed(1)} ms`;
  if (entry.problems.length > 0) {
    const counts = new Map<string, number>();
    for (const p of entry.problems) {
      const where = p.parameter ?? p.path;
      const key = where === undefined ? p.code : `${p.code} ${where.length > 80 ? `${where.slice(0, 77)}...` : where}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const shown = [...counts].slice(0, SHOWN).map(([key, n]) => (n > 1 ? `${key} (x${n})` : key));
    if (counts.size > SHOWN) shown.push(`+${counts.size - SHOWN} more`);
    line += ` ${label}: ${shown.join(', ')}`;
  }
  return `${printable(line + suffix)}\n`;
}
