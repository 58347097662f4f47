/**
 * The response tree: a send result turned into nodes for the Response view, without
 * VS Code. Every body node carries its field name, its value and the type the docs give
 * it (from describeAt); the issues of the typed check are matched to nodes by JSON path.
 *
 * Children are built only when asked for, from the parsed value, and long arrays are cut
 * into ranges of at most CHUNK elements, so a very large body opens at once.
 */
import {
  type ExchangeResult,
  formatJsonPath,
  parseJsonPath,
  type DocumentedType,
  type ResponseIssue,
  type Timing,
} from '../../../server/src/sender/index';
import { own } from '../../../server/src/core/index';
import { documentationMarkdown } from './format';
import { markdownCode } from './markdown';

export { copyText, documentationMarkdown } from './format';

export const CHUNK = 100;

/** Finds the documented type at a JSON path of this response (describeAt with catalog and type bound). */
export type Describe = (jsonPath: string) => DocumentedType | undefined;

/** What the tree needs of a send result: the sender's exchange result plus the typed check. */
export type ResponseSummary = Pick<
  ExchangeResult,
  'status' | 'statusText' | 'headers' | 'body' | 'bodyText' | 'bodyKind' | 'contentType' | 'bytes' | 'durationMs'
> & {
  method: string;
  url: string;
  /** The documented type of the body (`Module[]`), or null. */
  resource: string | null;
  issues: ResponseIssue[];
  error?: { kind: string; message: string };
  /** The API's own error message, for 4xx and 5xx bodies that carry one. */
  apiError?: string;
  /** The same messages one by one, the response view lists them first. */
  apiErrors?: string[];
  truncated?: { file: string; bytes: number; limit: number };
  pages?: number;
  incomplete?: string;
  /** One page of several (a `Link: rel="next"` or an `EndKey`): which page, when known. */
  morePages?: { page?: number };
  warnings?: string[];
  /** How long each part of the exchange took. */
  timing?: Timing;
  /** The redirects followed, in order. */
  redirects?: { status: number; from: string; to: string }[];
  /** Whether the access token went with the request that answered (undefined: not known, as for history). */
  tokenSent?: boolean;
  /** The request carried an Authorization header of its own. */
  authorizationWritten?: boolean;
  /** The request as it was sent, the token left out. */
  sent?: { headers: [string, string][]; body?: string; contentType?: string };
  /** The request's assertions evaluated on this response (the runner's evaluation), when it has any. */
  assertions?: {
    line: number;
    text: string;
    passed: boolean;
    expected?: string;
    actual: string | null;
    message: string;
  }[];
};

export type NodeKind = 'status' | 'error' | 'message' | 'section' | 'header' | 'issue' | 'value' | 'range' | 'text';
export type NodeIcon =
  'pass' | 'error' | 'warning' | 'info' | 'headers' | 'body' | 'field' | 'array' | 'object' | 'issues' | 'text';

export interface ResponseNode {
  id: string;
  kind: NodeKind;
  label: string;
  description?: string;
  /** Markdown: documentation, issues, the whole value for long strings; whatever the server sent in it is code (markdown.ts). */
  tooltip?: string;
  collapsible: 'none' | 'collapsed' | 'expanded';
  icon?: NodeIcon;
  /** `value` for nodes with a value to copy, `documented` when the docs describe it. */
  contextValue: string;
  jsonPath?: string;
  documented?: DocumentedType;
  /** Issues at this very node. */
  issues: ResponseIssue[];
  /** Issues at this node or below it. */
  issueCount: number;
  /** For value, range and section nodes: what their children are built from. */
  value?: unknown;
  segments?: (string | number)[];
  range?: { start: number; end: number };
  section?: 'headers' | 'issues' | 'text';
}

interface IndexedIssue {
  issue: ResponseIssue;
  segments: (string | number)[];
}

const KB = 1024;

function formatBytes(bytes: number): string {
  if (bytes < KB) return `${bytes} B`;
  if (bytes < KB * KB) return `${(bytes / KB).toFixed(1)} KB`;
  return `${(bytes / KB / KB).toFixed(1)} MB`;
}

function formatDuration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
}

/** A one-line preview of a value: strings quoted and cut, containers by size. */
export function previewValue(value: unknown, max = 80): string {
  if (value === null) return 'null';
  if (Array.isArray(value))
    return value.length === 0 ? '[]' : `[${value.length} ${value.length === 1 ? 'item' : 'items'}]`;
  if (typeof value === 'object') {
    const n = Object.keys(value as object).length;
    return n === 0 ? '{}' : `{${n} ${n === 1 ? 'field' : 'fields'}}`;
  }
  if (typeof value === 'string') {
    const quoted = JSON.stringify(value);
    return quoted.length > max ? `${quoted.slice(0, max - 2)}…"` : quoted;
  }
  return String(value);
}

function isContainer(value: unknown): value is object {
  return (
    typeof value === 'object' &&
    value !== null &&
    (Array.isArray(value) ? value.length > 0 : Object.keys(value).length > 0)
  );
}

function startsWith(path: (string | number)[], prefix: (string | number)[]): boolean {
  if (path.length < prefix.length) return false;
  for (let i = 0; i < prefix.length; i++) if (path[i] !== prefix[i]) return false;
  return true;
}

/**
 * The tree of one response. Nodes are plain objects; `children(node)` builds a node's
 * children from its value when the view asks for them.
 */
export class ResponseTree {
  private readonly issues: IndexedIssue[];
  private readonly byPath = new Map<string, ResponseIssue[]>();
  private readonly belowPath = new Map<string, number>();

  constructor(
    readonly response: ResponseSummary,
    private readonly describe: Describe,
    private readonly idPrefix = 'r',
  ) {
    this.issues = response.issues.map((issue) => ({ issue, segments: parseJsonPath(issue.path) ?? [] }));
    for (const { issue, segments } of this.issues) {
      const list = this.byPath.get(issue.path) ?? [];
      list.push(issue);
      this.byPath.set(issue.path, list);
      for (let k = 0; k <= segments.length; k++) {
        const p = formatJsonPath(segments.slice(0, k));
        this.belowPath.set(p, (this.belowPath.get(p) ?? 0) + 1);
      }
    }
  }

  get issueCount(): number {
    return this.response.issues.length;
  }

  /** The view's description: status, documented type and how many issues. */
  summary(): string {
    const r = this.response;
    const parts: string[] = [];
    parts.push(
      r.status === null
        ? r.error?.kind === 'cancelled'
          ? 'cancelled'
          : r.error
            ? `failed: ${r.error.kind}`
            : 'no response'
        : `${r.status}`,
    );
    if (r.resource) parts.push(r.resource);
    if (this.issueCount > 0) parts.push(`${this.issueCount} ${this.issueCount === 1 ? 'issue' : 'issues'}`);
    return parts.join(' · ');
  }

  roots(): ResponseNode[] {
    const r = this.response;
    const out: ResponseNode[] = [];
    const timing = `${formatDuration(r.durationMs)} · ${formatBytes(r.bytes)}`;
    if (r.status === null) {
      out.push(
        this.plain(
          'status',
          'error',
          r.error ? `${labelOfFailure(r.error.kind)}` : 'No response',
          r.error?.message ?? '',
          // A cancelled request did not fail: it is not marked as an error.
          r.error?.kind === 'cancelled' ? 'info' : 'error',
          `${r.method} ${r.url}\n\n${r.error?.message ?? ''}`,
        ),
      );
    } else {
      const ok = r.status >= 200 && r.status < 300;
      out.push(
        this.plain(
          'status',
          'status',
          `${r.status} ${r.statusText}`.trim(),
          timing,
          ok ? 'pass' : 'error',
          `${r.method} ${r.url}`,
        ),
      );
      if (r.error && r.error.kind !== 'http')
        out.push(this.plain('failure', 'error', labelOfFailure(r.error.kind), r.error.message, 'error'));
    }
    if (r.apiError) out.push(this.plain('api-error', 'error', 'API error', r.apiError, 'error', r.apiError));
    if (r.pages !== undefined) {
      const more = r.incomplete ? ` (stopped: ${r.incomplete})` : '';
      out.push(
        this.plain(
          'pages',
          'message',
          `${r.pages} ${r.pages === 1 ? 'page' : 'pages'}`,
          `merged into one body${more}`,
          r.incomplete ? 'warning' : 'info',
        ),
      );
    }
    if (r.truncated) {
      out.push(
        this.plain(
          'truncated',
          'message',
          'Body cut off',
          `${formatBytes(r.truncated.bytes)} is over the limit of ${formatBytes(r.truncated.limit)}; all of it is in ${r.truncated.file}`,
          'warning',
        ),
      );
    }
    for (const [i, w] of (r.warnings ?? []).entries())
      out.push(this.plain(`warning-${i}`, 'message', 'Warning', w, 'warning', w));
    if (r.status !== null) {
      const names = Object.keys(r.headers);
      out.push({
        ...this.plain('headers', 'section', 'Headers', `${names.length}`, 'headers'),
        collapsible: names.length > 0 ? 'collapsed' : 'none',
        section: 'headers',
      });
    }
    if (this.issueCount > 0) {
      out.push({
        ...this.plain(
          'issues',
          'section',
          'Issues',
          `${this.issueCount} · differences from the documentation`,
          'issues',
        ),
        collapsible: 'collapsed',
        section: 'issues',
        issueCount: this.issueCount,
      });
    }
    if (r.bodyKind === 'json') out.push(this.bodyNode());
    else if (r.bodyKind === 'text') {
      const firstLine = r.bodyText.split('\n', 1)[0];
      out.push({
        ...this.plain(
          'text',
          'section',
          'Body (not JSON)',
          previewValue(firstLine),
          'text',
          r.contentType ? `Content-Type: ${r.contentType}` : undefined,
        ),
        collapsible: r.bodyText.length > 0 ? 'collapsed' : 'none',
        section: 'text',
        contextValue: 'value',
        value: r.bodyText,
      });
    } else if (r.bodyKind === 'binary')
      out.push(this.plain('binary', 'message', 'Body', `binary, ${formatBytes(r.bytes)}`, 'info'));
    else if (r.status !== null) out.push(this.plain('empty', 'message', 'Body', 'empty', 'info'));
    return out;
  }

  children(node: ResponseNode): ResponseNode[] {
    if (node.section === 'headers') {
      return Object.entries(this.response.headers).map(([name, value]) => ({
        ...this.plain(`h:${name}`, 'header', name, value, undefined, `${name}: ${value}`),
        contextValue: 'value',
        value,
      }));
    }
    if (node.section === 'issues') {
      return this.response.issues.map((issue, i) => ({
        ...this.plain(`i:${i}`, 'issue', issue.path, issue.message, 'warning'),
        tooltip: `**${issue.code}** at ${markdownCode(issue.path)}\n\n${markdownCode(issue.message)}`,
        contextValue: 'value',
        jsonPath: issue.path,
        value: issue.path,
        issues: [issue],
        issueCount: 1,
      }));
    }
    if (node.section === 'text') {
      const lines = this.response.bodyText.split('\n');
      const shown: ResponseNode[] = lines.slice(0, 500).map((line, i) => ({
        ...this.plain(`t:${i}`, 'text', line.length > 0 ? line : ' ', undefined),
        contextValue: 'value',
        value: line,
      }));
      if (lines.length > 500)
        shown.push(
          this.plain(
            't:more',
            'message',
            `… ${lines.length - 500} more lines`,
            'open the raw body to see them',
            'info',
          ),
        );
      return shown;
    }
    const segments = node.segments;
    if (!segments) return [];
    const value = node.value;
    if (Array.isArray(value)) {
      const { start, end } = node.range ?? { start: 0, end: value.length };
      const length = end - start;
      if (length > CHUNK) {
        let step = CHUNK;
        while (step * CHUNK < length) step *= CHUNK;
        const out: ResponseNode[] = [];
        for (let s = start; s < end; s += step) out.push(this.rangeNode(value, segments, s, Math.min(end, s + step)));
        return out;
      }
      const out: ResponseNode[] = [];
      for (let i = start; i < end; i++) out.push(this.valueNode([...segments, i], value[i], `[${i}]`));
      return out;
    }
    if (typeof value === 'object' && value !== null) {
      return Object.entries(value as Record<string, unknown>).map(([k, v]) => this.valueNode([...segments, k], v, k));
    }
    return [];
  }

  /** The body as the root of the value tree, labelled with its documented type. */
  private bodyNode(): ResponseNode {
    // The label is the documented type already: the description does not repeat it.
    // An error body is not the documented resource, whatever the request was documented to return.
    const error = this.response.status !== null && this.response.status >= 400;
    const label = error ? 'Error body' : (this.response.resource ?? 'Body');
    const node = this.valueNode([], this.response.body, label, !error && this.response.resource !== null);
    node.collapsible = isContainer(this.response.body) ? 'expanded' : 'none';
    node.icon = 'body';
    return node;
  }

  private rangeNode(array: unknown[], segments: (string | number)[], start: number, end: number): ResponseNode {
    const path = formatJsonPath(segments);
    let count = 0;
    for (const { segments: s } of this.issues) {
      if (startsWith(s, segments) && s.length > segments.length) {
        const index = s[segments.length];
        if (typeof index === 'number' && index >= start && index < end) count++;
      }
    }
    return {
      id: `${this.idPrefix}:${path}[${start}..${end}]`,
      kind: 'range',
      label: `[${start} … ${end - 1}]`,
      description: count > 0 ? `${count} ${count === 1 ? 'issue' : 'issues'}` : undefined,
      collapsible: 'collapsed',
      icon: count > 0 ? 'warning' : 'array',
      contextValue: 'range',
      issues: [],
      issueCount: count,
      value: array,
      segments,
      range: { start, end },
    };
  }

  private valueNode(segments: (string | number)[], value: unknown, label: string, typeInLabel = false): ResponseNode {
    const path = formatJsonPath(segments);
    const documented = this.describe(path);
    const here = this.byPath.get(path) ?? [];
    const below = this.belowPath.get(path) ?? 0;
    const parts: string[] = [previewValue(value)];
    if (documented && !typeInLabel) {
      let type = documented.type;
      if (documented.enum && typeof value === 'string') {
        const meaning = own(documented.enumDescriptions, value);
        if (meaning) type += ` (${meaning})`;
        else if (!documented.enum.includes(value)) type += ` (not one of ${documented.enum.join(', ')})`;
      }
      parts.push(type);
    } else if (segments.length > 0 && this.response.resource !== null) {
      parts.push('undocumented');
    }
    if (here.length > 0) parts.unshift('⚠');
    else if (below > 0) parts.push(`${below} ${below === 1 ? 'issue' : 'issues'} inside`);
    const container = isContainer(value);
    const icon: NodeIcon =
      here.length > 0 ? 'warning' : Array.isArray(value) ? 'array' : container ? 'object' : 'field';
    return {
      id: `${this.idPrefix}:${path}`,
      kind: 'value',
      label,
      description: parts.join(' · '),
      tooltip:
        documentationMarkdown(path, documented, here) +
        (typeof value === 'string' && value.length > 80 ? `\n\n---\n\n${markdownCode(value.slice(0, 2000))}` : ''),
      collapsible: container ? 'collapsed' : 'none',
      icon,
      contextValue: documented ? 'value documented' : 'value',
      jsonPath: path,
      documented,
      issues: here,
      issueCount: below,
      value,
      segments,
    };
  }

  /** A node whose tooltip is plain text (a URL, a header, a message: the server's words), written as Markdown code. */
  private plain(
    id: string,
    kind: NodeKind,
    label: string,
    description?: string,
    icon?: NodeIcon,
    tooltip?: string,
  ): ResponseNode {
    return {
      id: `${this.idPrefix}:${id}`,
      kind,
      label,
      description,
      tooltip: tooltip
        ?.split(/\n{2,}/)
        .filter((part) => part.length > 0)
        .map(markdownCode)
        .join('\n\n'),
      icon,
      collapsible: 'none',
      contextValue: kind,
      issues: [],
      issueCount: 0,
    };
  }
}

export function labelOfFailure(kind: string): string {
  switch (kind) {
    case 'refused':
      return 'Connection refused';
    case 'reset':
      return 'Connection reset';
    case 'timeout':
      return 'Timed out';
    case 'cancelled':
      return 'Cancelled';
    case 'tls':
      return 'TLS error';
    case 'dns':
      return 'Host not found';
    case 'invalid-url':
      return 'Invalid URL';
    case 'too-many-redirects':
      return 'Too many redirects';
    case 'http':
      return 'HTTP error';
    // Stopped before it left: a variable, an environment to choose, a request it reads that failed, a secret bound elsewhere.
    case 'prepare':
    case 'dependency':
    case 'secret-elsewhere':
      return 'Not sent';
    default:
      return 'Network error';
  }
}

/** A failure as a line: its label, then its message (without a second "not sent"). */
export function failureLine(kind: string, message: string): string {
  const label = labelOfFailure(kind);
  return `${label}: ${label === 'Not sent' ? message.replace(/^not sent: /, '') : message}`;
}
