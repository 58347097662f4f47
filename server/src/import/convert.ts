/**
 * Requests read from another format, written in lpreq's: the host becomes `{{base_url}}`,
 * ids in documented placeholders become `{{variables}}` named after the placeholder, query
 * and form parameters become the parameter block, a JSON body stays JSON, and every
 * credential of the session the source came from is left out (credentials.ts). A request
 * that matches no documented endpoint is kept, under a comment that says so. Pure: the text
 * and what it needs (environment entries, the secrets to scrub) are returned, nothing is
 * written.
 */
import {
  EndpointMatcher,
  METHODS,
  dict,
  hasOwn,
  own,
  setOwn,
  targetPath,
  type Endpoint,
  type MatchResult,
} from '../core/index';
import { isCredentialHeader, isCredentialParameter, isSecretVariable, secretPieces, SecretValues } from './credentials';
import { decodeFormPart, splitForm } from './forms';
import { isJsonText, layOutJson } from './jsonText';
import type { ImportFormat, SourceCollection, SourceRequest } from './model';

/** What a request came to: the documented endpoint it matches, or why none. */
export type MatchSummary =
  | { kind: 'matched'; endpoint: Endpoint; template: string }
  | { kind: 'method-not-allowed'; allowed: string[]; templates: string[] }
  | { kind: 'unknown-endpoint'; near?: string }
  | { kind: 'not-checked' };

export interface ConvertedRequest {
  /** The title written on its `###` line. */
  title: string;
  method: string;
  /** The target as written in the file. */
  target: string;
  match: MatchSummary;
  /** False when the request could not be written as one (a method lpreq does not send): it stands in comments. */
  written: boolean;
  /** What was left out or changed, in words (never a value). */
  notes: string[];
}

export interface Converted {
  text: string;
  requests: ConvertedRequest[];
  /** Environment entries the file needs (base_url, the source's variables): environment name to variables. */
  environments: Record<string, Record<string, string>>;
  /** Values the import left out as credentials: the host scrubs them from every byte it writes. */
  secrets: string[];
  notes: string[];
}

export interface ConvertOptions {
  /** The source's name, for the file's first comment. */
  sourceName: string;
  /**
   * Variables the environments of the file's folder define: an id whose placeholder is named
   * so is written as that variable, with no file variable (which would win over every
   * environment's value: the dev environment's course would be the captured one).
   */
  environmentVariables?: ReadonlySet<string>;
  /**
   * Text to paste into a document (the editor's "Paste as lpreq Request"): no file comment,
   * and the variables inside the first request's block, under its `###` line, so that the
   * text stands on its own wherever it is pasted.
   */
  paste?: boolean;
}

const FORMAT_NAMES: Record<ImportFormat, string> = {
  curl: 'cURL',
  har: 'HAR',
  postman: 'Postman',
  http: '.http',
};

/** Headers a browser or client adds on its own, or that lpreq's sender sets: not part of what a request means. */
const NOISE_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'keep-alive',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'accept-encoding',
  'accept-language',
  'user-agent',
  'origin',
  'referer',
  'priority',
  'pragma',
  'cache-control',
  'dnt',
  'upgrade-insecure-requests',
  'x-requested-with',
  'if-none-match',
  'if-modified-since',
  'purpose',
  'postman-token',
]);

function isNoiseHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return NOISE_HEADERS.has(lower) || lower.startsWith('sec-') || lower.startsWith('x-client-');
}

/** Methods whose parameters lpreq sends in the query string; the others send them as a form body. */
const QUERY_METHODS = new Set(['GET', 'DELETE', 'HEAD', 'OPTIONS']);

const KNOWN_METHODS = new Set<string>(METHODS);

/** `modules` to `module`, `quizzes` to `quiz`, `categories` to `category`. */
function singular(word: string): string {
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  if (word.endsWith('zzes')) return word.slice(0, -3);
  if (/(ss|x|ch|sh)es$/.test(word)) return word.slice(0, -2);
  if (word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** An id the API gives a path: digits, or a documented SIS form (`sis_course_id:A1`). */
function isIdValue(segment: string): boolean {
  return /^\d+$/.test(segment) || /^sis_[a-z_]+:.+$/.test(segment);
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, ' ').trim();
}

/** Where a URL's base ends and its API path begins. */
interface SplitUrl {
  /** The scheme and authority and any path before the API (`https://lms.example.edu`), or a leading `{{variable}}`. */
  base: string | undefined;
  baseVariable?: string;
  /** The path from the first `/` after the base, without query or fragment. */
  path: string;
  /** The query string without `?` ('' for none). */
  query: string;
}

function splitUrl(url: string): SplitUrl {
  let rest = url.trim();
  const hash = rest.indexOf('#');
  if (hash !== -1) rest = rest.slice(0, hash);
  const q = rest.indexOf('?');
  const query = q === -1 ? '' : rest.slice(q + 1);
  if (q !== -1) rest = rest.slice(0, q);
  const variable = /^\{\{\s*([^{}\s]+)\s*\}\}/.exec(rest);
  if (variable) {
    const path = rest.slice(variable[0].length);
    return { base: variable[0], baseVariable: variable[1], path: path.startsWith('/') ? path : `/${path}`, query };
  }
  const absolute = /^([a-z][a-z0-9+.-]*:\/\/[^/]*)(.*)$/i.exec(rest);
  if (absolute) {
    // Userinfo (`user:password@`) is a credential: the base keeps only the host.
    const authority = absolute[1].replace(/\/\/[^/@]*@/, '//');
    return withApiPrefix(authority, absolute[2] || '/', query);
  }
  if (rest.startsWith('/')) return { base: undefined, path: rest, query };
  // A host without a scheme (`lms.example.edu/api/v1/...`), as curl and Postman take it.
  const slash = rest.indexOf('/');
  return withApiPrefix(
    `http://${slash === -1 ? rest : rest.slice(0, slash)}`,
    slash === -1 ? '/' : rest.slice(slash),
    query,
  );
}

/** A base whose own path comes before the API (`https://host/lms/api/v1/...`): the base keeps `/lms`. */
function withApiPrefix(origin: string, path: string, query: string): SplitUrl {
  const at = path.search(/\/api\/(v1|lti)(\/|$)/);
  if (at > 0) return { base: origin + path.slice(0, at), path: path.slice(at), query };
  return { base: origin, path, query };
}

function summarise(result: MatchResult | undefined): MatchSummary {
  if (!result) return { kind: 'not-checked' };
  switch (result.kind) {
    case 'matched':
      return { kind: 'matched', endpoint: result.endpoint, template: result.path.template };
    case 'method-not-allowed':
      return { kind: 'method-not-allowed', allowed: result.allowed, templates: result.templates };
    case 'unknown-endpoint':
      return { kind: 'unknown-endpoint', ...(result.near ? { near: result.near } : {}) };
    default:
      return { kind: 'not-checked' };
  }
}

/** The comment a request that matches no documented endpoint stands under. */
function undocumentedComment(method: string, match: MatchSummary): string | undefined {
  switch (match.kind) {
    case 'unknown-endpoint':
      return `Undocumented: no documented endpoint has this path${match.near ? ` (the nearest is ${match.near})` : ''}.`;
    case 'method-not-allowed':
      return `Undocumented: the docs have this path for ${match.allowed.join(', ')}, not ${method}.`;
    case 'not-checked':
      return 'Not checked: lpreq checks only paths under /api/v1/ and /api/lti/.';
    default:
      return undefined;
  }
}

/** A parameter line `name = value` that reads back as the same name and value, or why it cannot be one. */
function parameterLine(name: string, value: string): { line: string } | { problem: string } {
  if (name.length === 0) return { problem: 'a parameter without a name' };
  if (/[\r\n]/.test(name) || /[\r\n]/.test(value)) return { problem: `parameter ${oneLine(name)} has a line break` };
  if (name.includes('=')) return { problem: `parameter ${name} has "=" in its name` };
  if (/^\s|\s$/.test(name) || /^(#|\/\/|\?\?|&|@|<)/.test(name))
    return { problem: `parameter ${name.trim()} cannot start a parameter line as it is` };
  if (value !== value.trim()) return { problem: `the spaces around the value of ${name} are dropped`, ...{} };
  return { line: value.length === 0 ? `${name} =` : `${name} = ${value}` };
}

/** The state of one conversion: variables made from ids, the base address, the secrets seen. */
class Conversion {
  readonly secrets = new SecretValues();
  /** Variables the file defines: from the source's `@name = value` lines and from ids in paths. */
  readonly fileVariables = new Map<string, string>();
  readonly environments: Record<string, Record<string, string>> = dict();
  readonly notes = new Set<string>();
  private baseLiteral: string | undefined;
  private readonly sourceValues: (name: string) => string | undefined;
  droppedSomething = false;

  constructor(
    private readonly matcher: EndpointMatcher,
    sources: SourceCollection[],
    private readonly environmentVariables: ReadonlySet<string> = new Set(),
  ) {
    for (const source of sources) {
      for (const [name, value] of source.variables) {
        if (isSecretVariable(name)) {
          this.secrets.add(value);
          this.notes.add(`the file variable ${name} holds a secret and was left out`);
          continue;
        }
        this.fileVariables.set(name, value);
      }
      for (const [env, vars] of Object.entries(source.environments)) {
        for (const [name, value] of Object.entries(vars)) {
          if (isSecretVariable(name)) {
            this.secrets.add(value);
            this.notes.add(
              `the variable ${name} of ${env} holds a secret and was left out: lpreq adds the token itself`,
            );
            continue;
          }
          this.setEntry(env, name, value);
        }
      }
    }
    this.sourceValues = (name) => {
      if (this.fileVariables.has(name)) return this.fileVariables.get(name);
      const shared = own(own(this.environments, '$shared'), name);
      if (shared !== undefined) return shared;
      for (const vars of Object.values(this.environments)) {
        const v = own(vars, name);
        if (v !== undefined) return v;
      }
      return undefined;
    };
  }

  private setEntry(env: string, name: string, value: string): void {
    let vars = own(this.environments, env);
    if (!vars) {
      vars = dict();
      setOwn(this.environments, env, vars);
    }
    setOwn(vars, name, value);
  }

  /** A name for an id's variable: the placeholder's, or a numbered one when that name holds another value. */
  private idVariable(name: string, value: string): string {
    if (this.environmentVariables.has(name) && !this.fileVariables.has(name)) {
      this.notes.add(`{{${name}}} is your environments' own (the source had ${value})`);
      return name;
    }
    for (let n = 1; ; n++) {
      const candidate = n === 1 ? name : `${name}_${n}`;
      const existing = this.fileVariables.get(candidate) ?? (n === 1 ? this.sourceValues(candidate) : undefined);
      if (existing === undefined) {
        this.fileVariables.set(candidate, value);
        return candidate;
      }
      if (existing === value) return candidate;
    }
  }

  /** The value of a variable in an environment (undefined: the file's own), its `{{variables}}` read through; undefined when any is unknown. */
  private resolve(name: string, env: string | undefined, depth = 0): string | undefined {
    if (depth > 8) return undefined;
    const value =
      this.fileVariables.get(name) ??
      (env === undefined ? undefined : own(own(this.environments, env), name)) ??
      own(own(this.environments, '$shared'), name);
    if (value === undefined || !value.includes('{{')) return value;
    let unknown = false;
    const expanded = value.replace(/\{\{\s*([^{}\s]+)\s*\}\}/g, (_, inner: string) => {
      const v = this.resolve(inner, env, depth + 1);
      if (v === undefined) unknown = true;
      return v ?? '';
    });
    return unknown ? undefined : expanded;
  }

  /** The API path a leading variable's value carries (`https://host/api/v1`), by variable; undefined when its value is unknown. */
  private readonly baseVariables = new Map<string, string | undefined>();

  /**
   * A leading `{{variable}}` (`{{host}}/api/v1/...`) becomes `{{base_url}}`: each environment
   * that gives the variable an address gets that address as its base_url, the variable itself
   * (it stood only for the base) is dropped, and the path its value held goes back into the
   * path.
   */
  private baseFromVariable(name: string): string | undefined {
    if (this.baseVariables.has(name)) return this.baseVariables.get(name);
    let pathPrefix: string | undefined;
    const note = (value: string | undefined, env: string) => {
      if (value === undefined) return;
      const inner = splitUrl(value);
      if (inner.base === undefined || inner.baseVariable !== undefined) return;
      if (!hasOwn(own(this.environments, env), 'base_url')) this.setEntry(env, 'base_url', inner.base);
      pathPrefix ??= inner.path === '/' ? '' : inner.path.replace(/\/$/, '');
    };
    for (const env of Object.keys(this.environments)) note(this.resolve(name, env), env);
    const fileValue = this.fileVariables.has(name) ? this.resolve(name, undefined) : undefined;
    if (fileValue !== undefined && !this.hasBaseEntry()) note(fileValue, '$shared');
    else if (fileValue !== undefined) pathPrefix ??= splitUrl(fileValue).path.replace(/\/$/, '');
    this.fileVariables.delete(name);
    for (const vars of Object.values(this.environments)) if (hasOwn(vars, name)) Reflect.deleteProperty(vars, name);
    if (pathPrefix === undefined)
      this.notes.add(
        `{{${name}}} became {{base_url}} (its value is set nowhere here): base_url is the address lpreq sends the token to`,
      );
    this.baseVariables.set(name, pathPrefix);
    return pathPrefix;
  }

  /** `{{base_url}}` for a base: the first literal base met, or a leading variable. */
  private baseTarget(split: SplitUrl, notes: string[]): { prefix: string; path: string } {
    if (split.base === undefined) return { prefix: '{{base_url}}', path: split.path };
    if (split.baseVariable !== undefined) {
      if (split.baseVariable === 'base_url') return { prefix: '{{base_url}}', path: split.path };
      return { prefix: '{{base_url}}', path: (this.baseFromVariable(split.baseVariable) ?? '') + split.path };
    }
    if (this.baseLiteral === undefined) {
      this.baseLiteral = split.base;
      if (!this.hasBaseEntry()) this.setEntry('$shared', 'base_url', split.base);
    }
    if (split.base !== this.baseLiteral) {
      notes.push('another host than base_url: the address is kept as written, and the token is not sent there');
      return { prefix: split.base, path: split.path };
    }
    return { prefix: '{{base_url}}', path: split.path };
  }

  private hasBaseEntry(): boolean {
    return Object.values(this.environments).some((vars) => hasOwn(vars, 'base_url'));
  }

  /** Ids in documented placeholders to variables; the path's match. */
  private placeholders(method: string, path: string): { path: string; match: MatchSummary } {
    const target = targetPath(path, () => undefined);
    if (!target) return { path, match: { kind: 'not-checked' } };
    const result = this.matcher.match(target, KNOWN_METHODS.has(method) ? method : 'GET');
    const match = summarise(result);
    if (result.kind !== 'matched') return { path, match };
    // The raw segments, by the same count the matcher read (empty segments are not segments).
    const raw = path.split('/');
    const at: number[] = [];
    raw.forEach((s, i) => {
      if (s.length > 0) at.push(i);
    });
    const template = result.path.segments;
    for (let i = 0; i < template.length && i < at.length; i++) {
      const t = template[i];
      if (t.kind !== 'placeholder' || t.rest) continue;
      const segment = decodeFormPart(raw[at[i]]);
      if (!isIdValue(segment)) continue;
      const previous = i > 0 ? template[i - 1] : undefined;
      const name = t.name === 'id' && previous?.kind === 'literal' ? `${singular(previous.text)}_id` : t.name;
      raw[at[i]] = `{{${this.idVariable(name, segment)}}}`;
    }
    return { path: raw.join('/'), match };
  }

  /** The headers kept: credentials out (their values kept as secrets to scrub, their names in `dropped`), noise out; the content type apart. */
  private headersOf(
    sourceHeaders: SourceRequest['headers'],
    dropped: Set<string>,
  ): { headers: [string, string][]; contentType: string } {
    const headers: [string, string][] = [];
    let contentType = '';
    for (const [name, value] of sourceHeaders) {
      if (isCredentialHeader(name)) {
        this.secrets.add(...secretPieces(name, value));
        const basic = /^basic\s+([^:]*):(.*)$/i.exec(value.trim());
        if (basic) this.secrets.add(basic[2]);
        dropped.add(name.toLowerCase() === 'set-cookie' ? 'cookie' : name.toLowerCase());
        continue;
      }
      if (name.toLowerCase() === 'content-type') {
        contentType = value;
        continue;
      }
      if (isNoiseHeader(name)) continue;
      if (name.toLowerCase() === 'accept' && value.trim() === '*/*') continue;
      headers.push([name, value]);
    }
    return { headers, contentType };
  }

  /** One request in lpreq's format: its lines, and what the report says of it. */
  request(source: SourceRequest): { lines: string[]; converted: ConvertedRequest } {
    const notes = [...(source.notes ?? [])];
    const method = source.method.toUpperCase();
    const dropped = new Set<string>();

    const { headers, contentType } = this.headersOf(source.headers, dropped);

    // The URL: base, path (ids to variables), query.
    const split = splitUrl(source.url);
    const base = this.baseTarget(split, notes);
    const { path, match } = this.placeholders(method, base.path);
    const queryPairs: [string, string][] = [];
    const queryRaw: string[] = [];
    for (const part of split.query.split('&')) {
      if (part.length === 0) continue;
      const [pair] = splitForm(part);
      if (isCredentialParameter(pair[0])) {
        this.secrets.add(pair[1], part.slice(part.indexOf('=') + 1));
        dropped.add(pair[0]);
        continue;
      }
      queryPairs.push(pair);
      queryRaw.push(part);
    }

    // The body, and the parameters of the block.
    const params: [string, string][] = [];
    const bodyLines: string[] = [];
    const body = source.body;
    const inQuery = QUERY_METHODS.has(method);
    if (inQuery) params.push(...queryPairs);
    let keepContentType = false;
    if (body) {
      switch (body.kind) {
        case 'form':
          for (const [name, value] of body.params) {
            if (isCredentialParameter(name)) {
              this.secrets.add(value);
              dropped.add(name);
            } else params.push([name, value]);
          }
          if (inQuery && body.params.length > 0 && method !== 'GET')
            notes.push(`lpreq sends the parameters of ${method} in the query string, not as a form body`);
          break;
        case 'multipart':
          for (const part of body.parts) {
            if (part.file !== undefined) {
              notes.push(
                `the file field ${part.name} was left out: lpreq sends parameters or JSON, not multipart files`,
              );
            } else if (isCredentialParameter(part.name)) {
              this.secrets.add(part.value);
              dropped.add(part.name);
            } else params.push([part.name, part.value ?? '']);
          }
          notes.push('the multipart form is sent as a urlencoded form, which the API reads alike');
          break;
        case 'json': {
          const json = withoutCredentialKeys(body.text, this.secrets, dropped);
          bodyLines.push(...layOutJson(json).split('\n'));
          if (!isJsonText(json) && !json.includes('{{')) notes.push('the JSON body does not parse as JSON');
          break;
        }
        case 'file':
          bodyLines.push(`${body.processVariables ? '<@' : '<'} ${body.path}`);
          keepContentType = true;
          break;
        case 'text':
          if (body.text.length > 0)
            notes.push(
              `the ${body.contentType || 'text'} body (${body.text.length} characters) was left out: lpreq sends parameters or a JSON body`,
            );
          break;
      }
    }
    if (keepContentType && contentType) headers.unshift(['Content-Type', contentType]);

    // The target: the query stays on it where the parameters go in a body.
    const query = !inQuery && queryRaw.length > 0 ? `?${queryRaw.join('&')}` : '';
    const target = `${base.prefix}${path}${query}`;

    // A title of the source's own, else the documented endpoint's id (`modules.create`), else the request line.
    const title = oneLine(source.title ?? (match.kind === 'matched' ? match.endpoint.id : `${method} ${split.path}`));
    const comments: string[] = [];
    for (const c of source.comments ?? []) comments.push(c.length === 0 ? '#' : `# ${c}`);
    const undocumented = undocumentedComment(method, match);
    if (undocumented) comments.push(`# ${undocumented}`);
    if (dropped.size > 0) {
      this.droppedSomething = true;
      comments.push(`# Left out: ${[...dropped].join(', ')} (lpreq adds the access token itself).`);
    }

    const paramLines: string[] = [];
    for (const [name, value] of params) {
      const line = parameterLine(name, value);
      if ('line' in line) paramLines.push(line.line);
      else {
        notes.push(line.problem);
        if (line.problem.startsWith('the spaces')) paramLines.push(`${name} = ${value.trim()}`);
      }
    }
    for (const n of notes) comments.push(`# Note: ${n}.`);

    const written = KNOWN_METHODS.has(method);
    const lines: string[] = [`### ${title}`, ...comments];
    const requestLines: string[] = [];
    if (source.name) requestLines.push(`# @name ${source.name}`);
    for (const [key, value] of source.metadata ?? []) requestLines.push(value ? `# @${key} ${value}` : `# @${key}`);
    requestLines.push(`${method} ${target}`);
    for (const [name, value] of headers) requestLines.push(`${name}: ${value}`);
    if (paramLines.length > 0 || bodyLines.length > 0) requestLines.push('', ...bodyLines, ...paramLines);
    if (source.assertions && source.assertions.length > 0) requestLines.push('', ...source.assertions);
    if (written) lines.push(...requestLines);
    else {
      lines.push(`# Not imported as a request: lpreq sends ${METHODS.join(', ')}, not ${method}.`);
      lines.push(...requestLines.map((l) => (l ? `# ${l}` : '#')));
    }
    lines.push('');
    return { lines, converted: { title, method, target, match, written, notes } };
  }
}

/** A JSON body's credential members (`authenticity_token`, at the top level) left out. */
function withoutCredentialKeys(text: string, secrets: SecretValues, dropped: Set<string>): string {
  if (!isJsonText(text)) return text;
  const value: unknown = JSON.parse(text);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return text;
  const keys = Object.keys(value).filter(isCredentialParameter);
  if (keys.length === 0) return text;
  const kept: Record<string, unknown> = dict();
  for (const [k, v] of Object.entries(value)) {
    if (keys.includes(k)) {
      secrets.add(typeof v === 'string' ? v : JSON.stringify(v));
      dropped.add(k);
    } else setOwn(kept, k, v);
  }
  return JSON.stringify(kept);
}

export function convert(sources: SourceCollection[], matcher: EndpointMatcher, options: ConvertOptions): Converted {
  const conversion = new Conversion(matcher, sources, options.environmentVariables);
  const blocks: string[] = [];
  const requests: ConvertedRequest[] = [];
  let group: string | undefined;
  for (const source of sources) {
    for (const request of source.requests) {
      if (request.group !== group) {
        group = request.group;
        if (group !== undefined) {
          const heading = source.format === 'har' ? `Page: ${oneLine(group)}` : `Folder: ${oneLine(group)}`;
          blocks.push(`### ${heading}\n`);
        }
      }
      const { lines, converted } = conversion.request(request);
      blocks.push(lines.join('\n'));
      requests.push(converted);
    }
    for (const note of source.notes) conversion.notes.add(note);
  }
  const formats = [...new Set(sources.map((s) => FORMAT_NAMES[s.format]))].join(', ');
  const head = [`# Imported by lpreq import from ${oneLine(options.sourceName)} (${formats}).`];
  if (conversion.droppedSomething)
    head.push(
      '# Authorization headers, cookies, CSRF tokens and session ids were left out: lpreq adds the access token.',
    );
  const variables = [...conversion.fileVariables].map(([name, value]) => `@${name} = ${value}`);
  let text: string;
  if (options.paste && blocks.length > 0) {
    const [first, ...rest] = blocks;
    const eol = first.indexOf('\n');
    const withVariables =
      variables.length === 0 ? first : `${first.slice(0, eol + 1)}${variables.join('\n')}\n${first.slice(eol + 1)}`;
    text = `${[withVariables, ...rest].join('\n').replace(/\n+$/, '')}\n`;
  } else {
    const preamble = [...head, ...(variables.length > 0 ? ['', ...variables] : []), ''].join('\n');
    text = `${[preamble, ...blocks].join('\n').replace(/\n+$/, '')}\n`;
  }
  return {
    text,
    requests,
    environments: conversion.environments,
    secrets: conversion.secrets.list(),
    notes: [...conversion.notes],
  };
}
