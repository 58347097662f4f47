/**
 * cURL commands to requests, read by curlconverter's parser (its bash tokenizer over
 * tree-sitter's grammar, and its table of every curl option). A command written for
 * Windows' cmd.exe is first read into its arguments (cmdLine.ts), which curlconverter then
 * takes as an argument list. Several commands in one text (a browser's "Copy all as cURL")
 * are several requests.
 */
import { parse as parseCurl, COMMON_SUPPORTED_ARGS } from 'curlconverter/dist/src/parse.js';
import type { Request as CurlRequest } from 'curlconverter/dist/src/Request.js';
import type { Word } from 'curlconverter/dist/src/shell/Word.js';
import { cmdArguments, looksLikeCmd } from './cmdLine';
import { ImportError, type SourceBody, type SourceCollection, type SourceRequest } from './model';
import { splitForm } from './forms';

/** The options read without a warning: curlconverter's common ones and those that change nothing lpreq writes. */
const SUPPORTED = new Set([
  ...COMMON_SUPPORTED_ARGS,
  'form',
  'form-string',
  'compressed',
  'insecure',
  'location',
  'include',
  'silent',
  'verbose',
  'max-time',
  'connect-timeout',
  'http1.1',
  'http2',
  'output',
]);

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Bash reads `\xc3\xa9` in `$'...'` as two bytes (UTF-8 for é); curlconverter gives two
 * characters, U+00C3 U+00A9. A run of such characters that is valid UTF-8 as bytes is read so.
 */
function bytesAsUtf8(s: string): string {
  return s.replace(/[\u0080-\u00ff]{2,}/g, (run) => {
    try {
      return UTF8.decode(Uint8Array.from(run, (c) => c.charCodeAt(0)));
    } catch {
      return run;
    }
  });
}

/** A word's text, with shell variables written as lpreq variables (`$BASE` and `${BASE}` are `{{BASE}}`). */
function text(word: Word | string | null | undefined, notes?: Set<string>): string {
  if (word === null || word === undefined) return '';
  if (typeof word === 'string') return word;
  let out = '';
  for (const token of word.tokens) {
    if (typeof token === 'string') out += hexEscapes ? bytesAsUtf8(token) : token;
    else if (token.type === 'variable') out += `{{${token.value}}}`;
    else {
      notes?.add(`a command substitution (${token.type}) is kept as written`);
      out += token.text;
    }
  }
  return out;
}

function bodyOf(request: CurlRequest, headers: [string, string][], notes: Set<string>): SourceBody | undefined {
  if (request.multipartUploads) {
    return {
      kind: 'multipart',
      parts: request.multipartUploads.map((p) =>
        'contentFile' in p
          ? { name: text(p.name), file: text(p.contentFile) }
          : { name: text(p.name), value: text(p.content) },
      ),
    };
  }
  if (request.data === undefined) return undefined;
  if (request.dataReadsFile !== undefined) {
    notes.add('the body is read from a file when sent');
    return { kind: 'file', path: request.dataReadsFile, processVariables: false };
  }
  const data = text(request.data, notes);
  const contentType = headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1].toLowerCase() ?? '';
  if (contentType.includes('json')) return { kind: 'json', text: data };
  if (contentType === '' && /^\s*[[{]/.test(data) && isJson(data)) {
    notes.add('the JSON body had no Content-Type (curl sends it as a form); imported as JSON');
    return { kind: 'json', text: data };
  }
  if (contentType === '' || contentType.includes('x-www-form-urlencoded'))
    return { kind: 'form', params: splitForm(data) };
  return { kind: 'text', text: data, contentType };
}

function isJson(s: string): boolean {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
}

/** Whether the command being read writes bytes as `\xHH` (set for the length of one readCurl). */
let hexEscapes = false;

/** The requests of one or more curl commands. */
export function readCurl(source: string): SourceCollection {
  hexEscapes = /\\x[0-9a-fA-F]{2}/.test(source);
  const notes = new Set<string>();
  const warnings: [string, string][] = [];
  let parsed: CurlRequest[];
  try {
    const input = looksLikeCmd(source) ? cmdArguments(source.trim()) : source;
    if (Array.isArray(input) && input[0]?.toLowerCase() === 'curl.exe') input[0] = 'curl';
    parsed = parseCurl(input, SUPPORTED, warnings);
  } catch (e) {
    throw new ImportError(`not a curl command that can be read: ${(e as Error).message.split('\n')[0]}`);
  }
  if (parsed.length === 0) throw new ImportError('no curl command found');
  for (const [, message] of warnings) {
    // curlconverter's warnings name options, never their values, except in its quotes of the command: keep the first line.
    const line = message.split('\n')[0];
    if (/^(unsupported|ignoring|not supported)/i.test(line) || /not supported/.test(line)) notes.add(line);
  }
  const requests: SourceRequest[] = [];
  for (const request of parsed) {
    const own = new Set<string>();
    const headers: [string, string][] = [];
    for (const [name, value] of request.headers.headers) {
      if (value !== null) headers.push([text(name), text(value, own)]);
    }
    if (request.oauth2Bearer) headers.push(['Authorization', `Bearer ${text(request.oauth2Bearer)}`]);
    const body = bodyOf(request, headers, own);
    for (const url of request.urls) {
      const requestHeaders = [...headers];
      if (url.auth) requestHeaders.push(['Authorization', `Basic ${text(url.auth[0])}:${text(url.auth[1])}`]);
      if (url.uploadFile) own.add('the file of -T is not imported');
      requests.push({
        method: text(url.method).toUpperCase(),
        url: text(url.url, own),
        headers: requestHeaders,
        ...(body ? { body } : {}),
        notes: [...own],
      });
    }
  }
  return { format: 'curl', requests, variables: [], environments: {}, notes: [...notes] };
}
