/**
 * `.http` files of REST Client and JetBrains' HTTP Client (and httpYac) to requests. Their
 * syntax is lpreq's own (LPREQ-FORMAT keeps to it), so the blocks are read by the core's
 * parser, the one maintained parser of that syntax here; only a body that is not JSON is
 * read again from the text, as those clients send it: the lines as they are, a form body
 * joined (`a=1` and `&b=2` on their own lines are one form), by its Content-Type.
 * Their environments (`http-client.env.json`, REST Client's `rest-client.environmentVariables`)
 * are read by the host and given here.
 */
import { METADATA, parseDocument, requestTarget, type Block } from '../core/index';
import { splitForm } from './forms';
import type { SourceBody, SourceCollection, SourceRequest } from './model';

/** Metadata of those clients that lpreq reads too; others (`@no-log`, `@no-cookie-jar`) mean nothing here. */
const KEPT_METADATA = new Set(METADATA.map((m) => m.key).filter((k) => k !== 'name'));

function lineRanges(text: string, from: number): [number, number][] {
  const out: [number, number][] = [];
  let start = from;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    out.push([start, end]);
    start = end + 1;
  }
  return out;
}

/** The body's lines as written, without assertion lines, scripts, response redirections and comments. */
function rawBodyLines(block: Block): string[] {
  if (block.bodyStart === undefined) return [];
  const text = block.text;
  const assertions = block.assertionLines;
  const lines: string[] = [];
  let inScript = false;
  for (const [start, end] of lineRanges(text, block.bodyStart)) {
    let isAssertion = false;
    for (let i = 0; i < assertions.length; i += 2) if (assertions[i] === start) isAssertion = true;
    if (isAssertion) continue;
    const line = text.slice(start, end).replace(/\r$/, '');
    const trimmed = line.trim();
    if (inScript) {
      if (trimmed.includes('%}')) inScript = false;
      continue;
    }
    if (/^<?>\s*\{%/.test(trimmed) || /^<\s*\{%/.test(trimmed)) {
      inScript = !trimmed.includes('%}');
      continue;
    }
    if (/^>>!?\s/.test(trimmed) || /^>\s/.test(trimmed) || /^<>\s/.test(trimmed)) continue;
    if (trimmed.startsWith('#') || trimmed.startsWith('//')) continue;
    lines.push(line);
  }
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  while (lines.length > 0 && lines[0].trim() === '') lines.shift();
  return lines;
}

function bodyOf(block: Block, headers: [string, string][]): SourceBody | undefined {
  if (block.fileBody)
    return { kind: 'file', path: block.fileBody.path.text, processVariables: block.fileBody.processVariables };
  if (block.jsonBody) return { kind: 'json', text: block.jsonBody.text };
  const lines = rawBodyLines(block);
  if (lines.length === 0) return undefined;
  const contentType = headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1].toLowerCase() ?? '';
  if (contentType.includes('x-www-form-urlencoded'))
    return { kind: 'form', params: splitForm(lines.map((l) => l.trim()).join('')) };
  if (contentType.includes('json')) return { kind: 'json', text: lines.join('\n') };
  // Already lpreq's parameter lines (`name = value`), as some teams write them in .http files too.
  if (contentType === '' && block.params.length > 0 && block.params.every((p) => p.source !== 'json'))
    return {
      kind: 'form',
      params: block.params.filter((p) => p.source === 'body').map((p) => [p.decodedName, p.decodedValue]),
    };
  return { kind: 'text', text: lines.join('\n'), contentType };
}

/** The query continuation lines (`?a=1`, `&b=2`) joined onto the target. */
function fullTarget(block: Block): string {
  let target = requestTarget(block.request!);
  for (const q of block.queryLines) {
    const line = block.text.slice(q.start, q.end).trim();
    target += target.includes('?') && line.startsWith('?') ? `&${line.slice(1)}` : line;
  }
  return target;
}

export function readHttpFile(
  source: string,
  options: { environments?: Record<string, Record<string, string>> } = {},
): SourceCollection {
  const doc = parseDocument(source);
  const variables: [string, string][] = [];
  const requests: SourceRequest[] = [];
  const notes = new Set<string>();
  for (const { block } of doc.blocks) {
    for (const v of block.variables) variables.push([v.name.text, v.value.text]);
    if (!block.request) continue;
    const headers = block.headers.map((h): [string, string] => [h.name.text, h.value.text]);
    const own: string[] = [];
    let name: string | undefined;
    const metadata: [string, string][] = [];
    for (const m of block.metadata) {
      if (m.key.text === 'name') name = m.value.text || undefined;
      else if (KEPT_METADATA.has(m.key.text)) metadata.push([m.key.text, m.value.text]);
    }
    if (block.text.includes('{%')) own.push('its scripts were left out (lpreq does not run them)');
    const assertions: string[] = [];
    for (let i = 0; i < block.assertionLines.length; i += 2)
      assertions.push(block.text.slice(block.assertionLines[i], block.assertionLines[i + 1]).trim());
    const body = bodyOf(block, headers);
    requests.push({
      method: block.request.method.text,
      url: fullTarget(block),
      headers,
      ...(body ? { body } : {}),
      ...(block.title && block.title.text.trim() ? { title: block.title.text.trim() } : {}),
      ...(name ? { name } : {}),
      ...(metadata.length > 0 ? { metadata } : {}),
      ...(assertions.length > 0 ? { assertions } : {}),
      notes: own,
    });
  }
  return { format: 'http', requests, variables, environments: options.environments ?? {}, notes: [...notes] };
}
