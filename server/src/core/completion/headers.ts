/**
 * Completion of headers (names, and the values of the common ones) and of the request
 * metadata lpreq reads (`# @name`, `# @timeout`, ...).
 */
import { md, code } from '../describe';
import type { ServiceContext } from '../documentIndex';
import { METADATA } from '../metadata';
import type { Block } from '../parser';
import { matchedEndpoint, rank, wordEnd, type CompletionEntry } from './items';

const HEADERS: { name: string; description: string; values: string[] }[] = [
  {
    name: 'Accept',
    description: 'The media types the client accepts; the API answers `application/json`.',
    values: ['application/json', '*/*'],
  },
  {
    name: 'Content-Type',
    description: 'The media type of the body. lpreq sets it from the body (form or JSON) when absent.',
    values: ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'],
  },
  {
    name: 'Authorization',
    description:
      'The access token. lpreq sends it from secret storage or LPREQ_TOKEN; never write the token itself here.',
    values: ['Bearer {{$processEnv LPREQ_TOKEN}}', 'Bearer {{token}}'],
  },
  { name: 'User-Agent', description: 'The client name.', values: ['lpreq'] },
  { name: 'If-None-Match', description: 'An ETag for a conditional request.', values: [] },
];

export function completeHeaderNames(
  ctx: ServiceContext,
  block: Block,
  text: string,
  col: number,
  abs: (n: number) => number,
  out: CompletionEntry[],
) {
  let s = 0;
  while (s < text.length && /\s/.test(text[s])) s++;
  if (text[s] === '#' || text.startsWith('//', s)) return;
  if (col < s || !/^[A-Za-z0-9-]*$/.test(text.slice(s, col))) return;
  const end = wordEnd(text, col);
  // The name being typed, or written over, is not "already present"; a colon already there is kept.
  const own = text.slice(s, end).toLowerCase();
  const present = new Set(block.headers.map((h) => h.name.text.toLowerCase()).filter((n) => n !== own));
  const colonFollows = /^\s*:/.test(text.slice(end));
  const endpoint = matchedEndpoint(ctx, block);
  const all = [
    ...HEADERS,
    ...(endpoint?.headers ?? []).map((h) => ({ name: h.name, description: h.description, values: [] as string[] })),
  ];
  all.forEach((h, i) => {
    if (present.has(h.name.toLowerCase())) return;
    out.push({
      label: h.name,
      kind: 'header',
      documentation: md(h.description),
      insertText: colonFollows ? h.name : `${h.name}: `,
      snippet: false,
      start: abs(s),
      end: abs(end),
      sortText: rank(5, i),
      retrigger: h.values.length > 0 && !colonFollows,
      detail: 'header',
    });
  });
}

export function completeHeaderValue(
  name: string,
  text: string,
  from: number,
  col: number,
  abs: (n: number) => number,
  out: CompletionEntry[],
) {
  const h = HEADERS.find((x) => x.name.toLowerCase() === name.toLowerCase());
  if (!h) return;
  let s = from;
  while (s < col && text[s] === ' ') s++;
  h.values.forEach((v, i) => {
    out.push({
      label: v,
      kind: 'value',
      documentation: `A value of ${code(h.name)}: ${md(h.description)}`,
      insertText: v,
      snippet: false,
      start: abs(s),
      end: abs(Math.max(col, text.trimEnd().length)),
      sortText: rank(0, i),
      detail: `${h.name} value`,
    });
  });
}

export function completeMetadata(start: number, end: number, out: CompletionEntry[]) {
  METADATA.forEach((m, i) => {
    out.push({
      label: `@${m.key}`,
      filterText: m.key,
      kind: 'metadata',
      detail: 'request metadata',
      documentation: m.doc,
      insertText: m.insert,
      snippet: true,
      start,
      end,
      sortText: rank(0, i),
    });
  });
}
