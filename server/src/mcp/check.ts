/**
 * `check_request` and `check_file`: lpreq's diagnostics of a request, through the language
 * service as every host gets them (the checker's `diagnose`, the code actions' fixes), with
 * positions an agent can use: 1-based lines and columns, and offsets for each edit of a fix.
 * A request an agent's code would make (method, URL, parameters, a JSON body) is written as
 * the `.lpreq` text it stands for, and that text is checked and returned.
 */
import { LineIndex, type Diagnostic, type Environments, type LanguageService } from '../core/index';
import { ToolInputError } from './errors';

/** At most this many diagnostics in one answer; the rest are counted. */
const MAX_DIAGNOSTICS = 200;

export interface EditOut {
  /** Offsets in the text checked: replace [start, end) with newText. */
  start: number;
  end: number;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  newText: string;
}

export interface DiagnosticOut {
  code: string;
  severity: 'error' | 'warning' | 'info' | 'hint';
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  message: string;
  /** What stands behind it: the endpoint, the docs' words, the documented values. */
  detail?: string;
  /** The preferred quick fix, as edits of the text checked. */
  fix?: { title: string; edits: EditOut[] };
}

export interface CheckAnswer {
  /** The text checked (a request given as method and URL is checked as this `.lpreq` text). */
  text?: string;
  errors: number;
  warnings: number;
  diagnostics: DiagnosticOut[];
  /** Diagnostics left out of the answer past its limit. */
  omitted?: number;
  /** The endpoint each request matched, in order (null: none). */
  endpoints: (string | null)[];
}

/** The diagnostics of a `.lpreq` text, each with its preferred fix. */
export function checkText(service: LanguageService, text: string, env?: Environments): CheckAnswer {
  const endpoints: (string | null)[] = [];
  const diagnostics = service.diagnose(text, env, (_index, _diagnostics, endpoint) => {
    endpoints.push(endpoint?.id ?? null);
  });
  const index = new LineIndex(text);
  const parsed = service.parse(text);
  const doc = { parsed, scope: service.scope(parsed, env) };
  const position = (offset: number) => index.at(offset);
  const out: DiagnosticOut[] = [];
  for (const d of diagnostics.slice(0, MAX_DIAGNOSTICS)) {
    const s = position(d.start);
    const e = position(Math.max(d.end, d.start));
    const fix = fixOf(service, doc, d, position);
    out.push({
      code: d.code,
      severity: d.severity,
      line: s.line,
      column: s.column,
      endLine: e.line,
      endColumn: e.column,
      message: d.message,
      ...(d.related && d.related.length > 0 ? { detail: d.related.join('\n') } : {}),
      ...(fix ? { fix } : {}),
    });
  }
  return {
    errors: diagnostics.filter((d) => d.severity === 'error').length,
    warnings: diagnostics.filter((d) => d.severity === 'warning').length,
    diagnostics: out,
    ...(diagnostics.length > MAX_DIAGNOSTICS ? { omitted: diagnostics.length - MAX_DIAGNOSTICS } : {}),
    endpoints,
  };
}

function fixOf(
  service: LanguageService,
  doc: Parameters<LanguageService['codeActions']>[0],
  d: Diagnostic,
  position: (offset: number) => { line: number; column: number },
): DiagnosticOut['fix'] {
  const actions = service
    .codeActions(doc, d.start, d.end, ['quickfix'])
    .filter(
      (a) =>
        a.edits.length > 0 && a.diagnostics.some((x) => x.code === d.code && x.start === d.start && x.end === d.end),
    );
  const action = actions.find((a) => a.isPreferred) ?? actions[0];
  if (!action) return undefined;
  return {
    title: action.title,
    edits: action.edits.map((edit) => {
      const s = position(edit.start);
      const e = position(edit.end);
      return {
        start: edit.start,
        end: edit.end,
        line: s.line,
        column: s.column,
        endLine: e.line,
        endColumn: e.column,
        newText: edit.newText,
      };
    }),
  };
}

export interface RequestParts {
  method: string;
  url: string;
  /** Form or query parameters: a name and its value, or its values (sent repeated); checked here. */
  params?: unknown;
  /** A JSON body. */
  json?: unknown;
}

/** At most this many parameter values. */
const MAX_PARAMS = 10_000;

/** The parameters as name and value lines: own names only, so that `__proto__` is a name like any other. */
function parameterLines(params: unknown): string[] {
  if (params === null || typeof params !== 'object' || Array.isArray(params))
    throw new ToolInputError('params', 'give an object of parameter names and their values');
  const lines: string[] = [];
  for (const name of Object.keys(params)) {
    const value: unknown = Object.getOwnPropertyDescriptor(params, name)?.value;
    if (name.trim() === '' || /[\r\n=]/.test(name))
      throw new ToolInputError('params', `the name '${name}' cannot be written as a parameter line`);
    for (const v of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
        throw new ToolInputError(
          'params',
          `the value of ${name} must be a string, number or boolean, or an array of them`,
        );
      const text = String(v);
      if (/[\r\n]/.test(text))
        throw new ToolInputError('params', `the value of ${name} holds a line break, which a parameter line cannot`);
      lines.push(`${name} = ${text}`);
      if (lines.length > MAX_PARAMS) throw new ToolInputError('params', `more than ${MAX_PARAMS} values`);
    }
  }
  return lines;
}

const METHODS = new Set(['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS']);

/**
 * The `.lpreq` text of a request an agent's code makes: the request line, then the
 * parameters one a line (a repeated name for an array), or the JSON body. A value the format
 * cannot hold on one line is a ToolInputError naming it.
 */
export function requestText(parts: RequestParts): string {
  const method = parts.method.trim().toUpperCase();
  if (!METHODS.has(method))
    throw new ToolInputError('method', `'${parts.method}' is not one of ${[...METHODS].join(', ')}`);
  const url = parts.url.trim();
  if (url === '' || /[\s]/.test(url))
    throw new ToolInputError('url', 'give one URL or path without spaces or line breaks');
  if (parts.params !== undefined && parts.json !== undefined)
    throw new ToolInputError('json', 'give parameters or a JSON body, not both');
  const lines = [`${method} ${url}`];
  if (parts.params !== undefined) {
    const params = parameterLines(parts.params);
    if (params.length > 0) lines.push('', ...params);
  }
  if (parts.json !== undefined) {
    let body: string;
    try {
      body = JSON.stringify(parts.json, null, 2);
    } catch {
      throw new ToolInputError('json', 'the body is nested too deeply to be written as a request');
    }
    lines.push('Content-Type: application/json', '', body);
  }
  return `${lines.join('\n')}\n`;
}

/** A short text of a check's answer. */
export function checkAnswerText(answer: CheckAnswer, what: string): string {
  if (answer.diagnostics.length === 0) return `${what}: no problems found`;
  const lines = [
    `${what}: ${answer.errors} error${answer.errors === 1 ? '' : 's'}, ${answer.warnings} warning${answer.warnings === 1 ? '' : 's'}`,
  ];
  for (const d of answer.diagnostics.slice(0, 20)) {
    lines.push(`${d.line}:${d.column} ${d.severity} ${d.code}: ${d.message}${d.fix ? ` (fix: ${d.fix.title})` : ''}`);
  }
  if (answer.diagnostics.length > 20)
    lines.push(`... and ${answer.diagnostics.length - 20} more in the structured answer`);
  return lines.join('\n');
}
