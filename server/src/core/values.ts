/** Checks of parameter values against documented types and formats (LPREQ-FORMAT section 3). */
import type { ParamType } from './catalog/schema';

const INTEGER = /^[+-]?\d+$/;
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;
/** ISO 8601's basic format, without separators: only with a time (eight digits alone read as a number). */
const DATE_TIME_BASIC = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(?:(\d{2})(?:[.,]\d+)?)?(Z|[+-]\d{2}(?:\d{2})?)?$/;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

function isCalendarDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  if (m === 2 && d === 29) return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
  return d <= DAYS_IN_MONTH[m - 1];
}

export function isDate(value: string): boolean {
  const m = DATE.exec(value);
  return m !== null && isCalendarDate(+m[1], +m[2], +m[3]);
}

/**
 * ISO 8601: a date, or a date and time joined by `T` with an optional offset (a date alone is
 * ISO 8601 too; a space instead of `T` is not ISO 8601), in the extended or the basic format.
 */
export function isDateTime(value: string): boolean {
  const m = DATE_TIME.exec(value) ?? DATE_TIME_BASIC.exec(value);
  if (!m || !isCalendarDate(+m[1], +m[2], +m[3])) return false;
  if (m[4] !== undefined) {
    if (+m[4] > 24 || +m[5] > 59 || (m[6] !== undefined && +m[6] > 60)) return false;
    if (+m[4] === 24 && (+m[5] !== 0 || (m[6] !== undefined && +m[6] !== 0))) return false;
  }
  return true;
}

/**
 * The instant an ISO 8601 value stands for, in milliseconds since the epoch (UTC where it
 * gives no offset; a date alone is its first moment), or undefined when it is not one.
 */
export function dateTimeMillis(value: string): number | undefined {
  if (!isDateTime(value)) return undefined;
  const m = (DATE_TIME.exec(value) ?? DATE_TIME_BASIC.exec(value)) as RegExpExecArray;
  const fraction = /[.,](\d+)/.exec(value);
  let ms = Date.UTC(
    +m[1],
    +m[2] - 1,
    +m[3],
    +(m[4] ?? 0),
    +(m[5] ?? 0),
    +(m[6] ?? 0),
    fraction ? Math.floor(Number(`0.${fraction[1]}`) * 1000) : 0,
  );
  const zone = m[7];
  if (zone && zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    ms -= (zone[0] === '-' ? -1 : 1) * (+digits.slice(0, 2) * 60 + +(digits.slice(2) || 0)) * 60_000;
  }
  return ms;
}

const BOOLEAN_VALUES = ['true', 'false', '1', '0'];

/** Returns what the value should have been, or null when it fits the type. */
export function typeProblem(type: ParamType, value: string, sisForms?: string[]): string | null {
  switch (type) {
    case 'integer':
      if (INTEGER.test(value)) return null;
      if (sisForms?.some((f) => value.startsWith(`${f}:`) && value.length > f.length + 1)) return null;
      return sisForms?.length ? `an integer or ${sisForms.map((f) => `${f}:...`).join(', ')}` : 'an integer';
    case 'number':
      return NUMBER.test(value) ? null : 'a number';
    case 'boolean':
      return BOOLEAN_VALUES.includes(value) ? null : 'a boolean (true, false, 1 or 0)';
    case 'Date':
      return isDate(value) ? null : 'a Date (yyyy-mm-dd, a real calendar date)';
    case 'DateTime':
      return isDateTime(value) ? null : 'a DateTime (ISO 8601, for example 2026-09-14T08:00:00Z)';
    case 'string':
    case 'any':
      return null;
  }
}

const CONTEXT_CODE = /^([a-z]+(?:_[a-z]+)*?)_(\d+|self|sis_[a-z_]+:.+)$/;
const CONTEXT_TYPES = ['course_section', 'group_category', 'course', 'group', 'user', 'account', 'section'];

/** Splits a context code into its type and id, or null when it is not `<type>_<id>`. */
function parseContextCode(value: string): { type: string; id: string } | null {
  for (const type of CONTEXT_TYPES) {
    if (value.startsWith(`${type}_`)) {
      const id = value.slice(type.length + 1);
      if (/^\d+$/.test(id) || /^sis_[a-z_]+:.+/.test(id) || id === 'self') return { type, id };
    }
  }
  const m = CONTEXT_CODE.exec(value);
  return m ? { type: m[1], id: m[2] } : null;
}

/** Schemes that never stand for a host name before a port. */
const NON_HTTP_SCHEMES = new Set([
  'mailto',
  'javascript',
  'data',
  'file',
  'tel',
  'ftp',
  'sftp',
  'ssh',
  'urn',
  'about',
  'blob',
]);

/** Returns what the value should look like, or null when the format is met. */
export function formatProblem(format: string, value: string, contextTypes?: string[]): string | null {
  const allowed = contextTypes?.length ? contextTypes : undefined;
  const describe = () =>
    allowed ? allowed.map((t) => `${t}_<id>`).join(' or ') : '<type>_<id>, for example course_42';
  switch (format) {
    case 'context_code': {
      const code = parseContextCode(value);
      if (!code) return `a context code ${describe()}`;
      if (allowed && !allowed.includes(code.type)) return `a context code ${describe()}`;
      return null;
    }
    case 'id_or_context_code': {
      if (/^\d+$/.test(value)) return null;
      const code = parseContextCode(value);
      if (!code) return `an id or a context code ${describe()}`;
      if (allowed && !allowed.includes(code.type)) return `an id or a context code ${describe()}`;
      return null;
    }
    case 'url':
      return /^[a-z][a-z0-9+.-]*:\/\/\S+$/i.test(value) ? null : 'an absolute URL (https://...)';
    case 'http_url': {
      // http or https, or no scheme at all (http is assumed); `example.com:8080/x` has none.
      const scheme = /^([a-z][a-z0-9+.-]*):(\/\/)?/i.exec(value);
      if (!scheme) return null;
      const name = scheme[1].toLowerCase();
      if (name === 'http' || name === 'https') return null;
      const isScheme = scheme[2] !== undefined || NON_HTTP_SCHEMES.has(name);
      return isScheme ? `an http or https URL (or one without a scheme, read as http), not ${name}:` : null;
    }
    default:
      return null;
  }
}

const BYTE_UNITS: ReadonlyMap<string, number> = new Map([
  ['', 1],
  ['b', 1],
  ['kb', 1e3],
  ['mb', 1e6],
  ['gb', 1e9],
  ['kib', 1024],
  ['mib', 1024 ** 2],
  ['gib', 1024 ** 3],
]);

/**
 * A size in bytes as a setting or a flag gives it: a whole number of bytes, or a number with a
 * unit (`10MB`, `512 KB`, `1.5 GiB`; KB, MB, GB count in thousands, KiB, MiB, GiB in 1024s,
 * any case). A value that is not one gets a message that says what is accepted.
 */
export function parseByteSize(value: unknown): { bytes: number } | { problem: string } {
  const accepted =
    'a number of bytes, or a number with a unit: B, KB, MB, GB (1000s) or KiB, MiB, GiB (1024s), e.g. 10MB or 512 KiB';
  if (typeof value === 'number')
    return Number.isSafeInteger(value) && value >= 0 ? { bytes: value } : { problem: `${value} is not ${accepted}` };
  if (typeof value !== 'string') return { problem: `expected ${accepted}` };
  const m = /^\s*(\d+(?:\.\d+)?)\s*([A-Za-z]*)\s*$/.exec(value);
  const unit = m ? BYTE_UNITS.get(m[2].toLowerCase()) : undefined;
  if (!m || unit === undefined) return { problem: `'${value}' is not ${accepted}` };
  const bytes = Math.round(Number(m[1]) * unit);
  if (!Number.isSafeInteger(bytes)) return { problem: `'${value}' is too large` };
  if (unit === 1 && m[1].includes('.')) return { problem: `'${value}' is not a whole number of bytes` };
  return { bytes };
}
