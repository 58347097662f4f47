/**
 * Generates realistic request files for the benchmarks: valid requests across the catalog,
 * about 8 lines each, and the same requests as JSON objects with an equivalent JSON Schema.
 */
import type { Catalog, Endpoint, CatalogParameter } from '../server/src/core/index';

/** A small deterministic generator (mulberry32), so every run measures the same files. */
export function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function valueFor(p: CatalogParameter, rnd: () => number): string {
  if (p.enum?.length) return p.enum[Math.floor(rnd() * p.enum.length)];
  if (p.format === 'context_code') return `${p.contextTypes?.[0] ?? 'course'}_${100 + Math.floor(rnd() * 900)}`;
  if (p.format === 'id_or_context_code') return String(1000 + Math.floor(rnd() * 9000));
  switch (p.type) {
    case 'integer':
      return String(1 + Math.floor(rnd() * 500));
    case 'number':
      return (rnd() * 100).toFixed(1);
    case 'boolean':
      return rnd() < 0.5 ? 'true' : 'false';
    case 'Date':
      return `2026-0${1 + Math.floor(rnd() * 9)}-1${Math.floor(rnd() * 9)}`;
    case 'DateTime':
      return `2026-0${1 + Math.floor(rnd() * 9)}-1${Math.floor(rnd() * 9)}T08:30:00Z`;
    default:
      return ['Week 3: Cell Biology', 'Lab report', 'reading-notes', 'https://example.edu/x'][Math.floor(rnd() * 4)];
  }
}

export interface GeneratedRequest {
  endpoint: string;
  method: string;
  path: string;
  params: [string, string][];
}

/** Endpoints whose requests can be generated valid from their parameters alone (no rules to satisfy). */
function usable(e: Endpoint): boolean {
  return (
    e.body === 'form' &&
    e.rules.length === 0 &&
    !e.params.some((p) => p.required && p.isPattern) &&
    e.params.filter((p) => !p.isPattern).length >= 3
  );
}

export function generateRequests(catalog: Catalog, count: number, seed = 7): GeneratedRequest[] {
  const rnd = random(seed);
  const endpoints = catalog.endpoints.filter(usable);
  const out: GeneratedRequest[] = [];
  for (let i = 0; i < count; i++) {
    const e = endpoints[Math.floor(rnd() * endpoints.length)];
    const tpl = e.paths[Math.floor(rnd() * e.paths.length)];
    const path = tpl.segments
      .map((s) =>
        s.kind === 'literal'
          ? s.text
          : s.rest
            ? 'course files/week 1'
            : s.name === 'date'
              ? '2026-01-15'
              : String(1 + Math.floor(rnd() * 900)),
      )
      .join('/');
    const required = e.params.filter((p) => p.required && !p.isPattern);
    const optional = e.params.filter((p) => !p.required && !p.isPattern && !p.deprecated);
    const chosen = new Set(required);
    // About 8 lines a request: title, request line, a header, a blank line, up to 4 parameters, a blank line.
    while (chosen.size < Math.min(4, required.length + optional.length))
      chosen.add(optional[Math.floor(rnd() * optional.length)]);
    const params: [string, string][] = [...chosen]
      .filter((p) => !tpl.segments.some((s) => s.kind === 'placeholder' && (s.name === p.name || s.name === p.inPath)))
      .map((p) => [p.name, valueFor(p, rnd)]);
    out.push({ endpoint: e.id, method: e.method, path: `/${path}`, params });
  }
  return out;
}

/**
 * Three assertions for a request (LPREQ-FORMAT section 6), valid against the documentation:
 * its documented status, a field of the resource it returns compared as the field's type
 * allows (an enum value, a number, a boolean, a date, or a text that exists), and its duration.
 * A request whose response the docs do not show asserts on its content type instead.
 */
function assertionsFor(catalog: Catalog, endpoint: Endpoint, rnd: () => number): string[] {
  const out = [`?? status == ${endpoint.successStatus ?? 200}`];
  const returns = endpoint.returns?.split('|')[0].trim();
  const list = returns?.endsWith('[]') === true;
  const resource = returns ? catalog.resources.get(list ? returns.slice(0, -2) : returns) : undefined;
  const fields = resource?.fields.filter((f) => !f.type.includes('|')) ?? [];
  if (resource && fields.length > 0) {
    const f = fields[Math.floor(rnd() * fields.length)];
    const path = `${list ? '$[*]' : '$'}.${f.name}`;
    if (f.enum && f.enum.length > 0 && f.type === 'string') out.push(`?? body ${path} == ${f.enum[0]}`);
    else if (f.type === 'integer' || f.type === 'number') out.push(`?? body ${path} >= 0`);
    else if (f.type === 'boolean') out.push(`?? body ${path} ${f.nullable ? '!= null' : 'isBoolean'}`);
    else if (f.type === 'DateTime' || f.type === 'Date') out.push(`?? body ${path} < 2030-01-01`);
    else out.push(`?? body ${path} exists`);
  } else out.push('?? header content-type includes json');
  out.push('?? duration < 2000');
  return out;
}

/**
 * The requests as an .lpreq file; with `catalog` and `assertions`, each request carries that
 * many assertion lines (up to three). With `distinct`, no two requests share their status and
 * duration lines (`?? status != 1000N`, `?? duration < 2000N`): a file where a checker has no
 * line it has seen before.
 */
export function toLpreq(
  requests: GeneratedRequest[],
  options: { catalog?: Catalog; assertions?: number; distinct?: boolean } = {},
): string {
  const parts: string[] = ['@base_url = http://127.0.0.1:4010\n'];
  const rnd = random(11);
  requests.forEach((r, i) => {
    parts.push(
      `### Request ${i + 1}: ${r.endpoint}\n# @name request${i + 1}\n${r.method} {{base_url}}${r.path}\nAccept: application/json\nX-Request-Id: {{$guid}}\n\n`,
    );
    for (const [k, v] of r.params) parts.push(`${k} = ${v}\n`);
    const endpoint = options.catalog?.endpointById.get(r.endpoint);
    if (endpoint && options.assertions) {
      for (const line of assertionsFor(options.catalog!, endpoint, rnd).slice(0, options.assertions)) {
        parts.push(
          `${options.distinct ? line.replace(/^\?\? status == \d+$/, `?? status != ${10000 + i}`).replace(/^\?\? duration < 2000$/, `?? duration < ${20000 + i}`) : line}\n`,
        );
      }
    }
    parts.push('\n');
  });
  return parts.join('');
}

export function toJson(requests: GeneratedRequest[]): string {
  return JSON.stringify(
    requests.map((r) => ({
      endpoint: r.endpoint,
      method: r.method,
      path: r.path,
      params: Object.fromEntries(r.params),
    })),
    null,
    1,
  );
}

/** A JSON Schema equivalent to the checks on these requests: per endpoint, the parameters' types, enums and requirements. */
export function jsonSchemaFor(catalog: Catalog, include: (e: Endpoint) => boolean = usable): object {
  const typeSchema = (p: CatalogParameter): object => {
    if (p.enum && !p.enumOpen) return { enum: p.enum };
    switch (p.type) {
      case 'integer':
        return { type: 'string', pattern: '^[+-]?\\d+$' };
      case 'number':
        return { type: 'string', pattern: '^[+-]?(\\d+(\\.\\d*)?|\\.\\d+)([eE][+-]?\\d+)?$' };
      case 'boolean':
        return { enum: ['true', 'false', '1', '0'] };
      case 'Date':
        return { type: 'string', format: 'date' };
      case 'DateTime':
        return { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}(T\\d{2}:\\d{2}(:\\d{2})?(Z|[+-]\\d{2}:?\\d{2})?)?$' };
      default:
        return { type: 'string' };
    }
  };
  return {
    type: 'array',
    items: {
      type: 'object',
      required: ['endpoint', 'method', 'path', 'params'],
      properties: {
        endpoint: { enum: catalog.endpoints.map((e) => e.id) },
        method: { enum: ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'] },
        path: { type: 'string', pattern: '^/api/' },
        params: { type: 'object' },
      },
      allOf: catalog.endpoints.filter(include).map((e) => ({
        if: { properties: { endpoint: { const: e.id } } },
        then: {
          properties: {
            params: {
              type: 'object',
              properties: Object.fromEntries(e.params.filter((p) => !p.isPattern).map((p) => [p.name, typeSchema(p)])),
              additionalProperties: false,
            },
          },
        },
      })),
    },
  };
}
