/**
 * Postman collections (v2.0 and v2.1) and environments to requests and environment entries,
 * read by Postman's own SDK, `postman-collection`: its model resolves the two URL forms (a
 * string, or the object of host, path, query and path variables), disabled headers and query
 * parameters, and the body modes. Folders become groups (`Folder / Subfolder`), collection
 * variables entries of `$shared`, an environment export's values entries of that environment.
 * Auth blocks, at any level, are left out: lpreq adds the token.
 */
import { Collection, ItemGroup, type Item, type Request as PostmanRequest } from 'postman-collection';
import { dict, own, setOwn } from '../core/index';
import { postmanKind } from './detect';
import { ImportError, type SourceBody, type SourceCollection, type SourceRequest } from './model';

function record(v: unknown): Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
}

function bodyOf(request: PostmanRequest, headers: [string, string][]): SourceBody | undefined {
  const body = request.body;
  if (!body || body.isEmpty()) return undefined;
  const enabled = <T extends { disabled?: boolean }>(list: { all(): T[] } | undefined): T[] =>
    (list?.all() ?? []).filter((p) => !p.disabled);
  switch (body.mode) {
    case 'urlencoded':
      return {
        kind: 'form',
        params: enabled(body.urlencoded).map((p): [string, string] => [p.key ?? '', String(p.value ?? '')]),
      };
    case 'formdata':
      return {
        kind: 'multipart',
        parts: enabled(body.formdata).map((p) => {
          const part = p as unknown as { key: string; value?: unknown; type?: string; src?: unknown };
          return part.type === 'file'
            ? { name: part.key, file: Array.isArray(part.src) ? part.src.join(', ') : String(part.src ?? '') }
            : { name: part.key, value: String(part.value ?? '') };
        }),
      };
    case 'file':
      return { kind: 'file', path: String(body.file?.src ?? ''), processVariables: false };
    case 'raw': {
      const raw = body.raw ?? '';
      const language = String(record(record(record(body.toJSON()).options).raw).language ?? '');
      const contentType = headers.find(([n]) => n.toLowerCase() === 'content-type')?.[1].toLowerCase() ?? '';
      if (language === 'json' || contentType.includes('json')) return { kind: 'json', text: raw };
      if (contentType.includes('x-www-form-urlencoded')) {
        return { kind: 'text', text: raw, contentType };
      }
      return { kind: 'text', text: raw, contentType: contentType || (language ? `text/${language}` : 'text/plain') };
    }
    default:
      return { kind: 'text', text: '', contentType: `Postman ${String(body.mode)} body` };
  }
}

/** The URL as Postman would send it, with `:name` path variables given their values (or `{{name}}`). */
function urlOf(request: PostmanRequest): string {
  const url = request.url;
  const pathVariables = new Map<string, string>();
  for (const v of url.variables.all()) if (v.key) pathVariables.set(v.key, String(v.value ?? ''));
  const protocol = url.protocol ? `${url.protocol}://` : '';
  const host = url.getHost();
  const port = url.port ? `:${url.port}` : '';
  const path = (url.path ?? [])
    .map((segment) => {
      if (!segment.startsWith(':')) return segment;
      const value = pathVariables.get(segment.slice(1));
      return value !== undefined && value !== '' ? value : `{{${segment.slice(1)}}}`;
    })
    .join('/');
  const query = url.query
    .all()
    .filter((q) => !q.disabled && q.key !== null)
    .map((q) => (q.value === null || q.value === undefined ? String(q.key) : `${String(q.key)}=${String(q.value)}`))
    .join('&');
  return `${protocol}${host}${port}${path ? `/${path}` : ''}${query ? `?${query}` : ''}`;
}

function variablesOf(
  list: { key?: unknown; value?: unknown; disabled?: unknown; enabled?: unknown; type?: unknown }[],
): {
  vars: Record<string, string>;
  secret: number;
  secrets: string[];
} {
  const vars = dict<string>();
  let secret = 0;
  const secrets: string[] = [];
  for (const v of list) {
    if (typeof v.key !== 'string' || v.disabled === true || v.enabled === false) continue;
    const value =
      typeof v.value === 'string' ? v.value : v.value === undefined || v.value === null ? '' : JSON.stringify(v.value);
    if (v.type === 'secret') {
      secret++;
      secrets.push(value);
      continue;
    }
    setOwn(vars, v.key, value);
  }
  return { vars, secret, secrets };
}

export interface PostmanRead extends SourceCollection {
  /** Values of variables Postman itself marks secret, and of auth blocks: scrubbed from what is written. */
  secrets: string[];
}

function authSecrets(auth: unknown, out: string[]): boolean {
  const a = record(auth);
  if (typeof a.type !== 'string' || a.type === 'noauth') return false;
  const params = own(a, a.type);
  for (const p of Array.isArray(params) ? params : []) {
    const v = record(p).value;
    if (typeof v === 'string' && v.length > 0) out.push(v);
  }
  return true;
}

export function readPostman(source: string): PostmanRead {
  let json: unknown;
  try {
    json = JSON.parse(source);
  } catch (e) {
    throw new ImportError(`not a Postman file: ${(e as Error).message}`);
  }
  const kind = postmanKind(json);
  const notes: string[] = [];
  const secrets: string[] = [];
  if (kind === 'environment') {
    const o = record(json);
    const { vars, secret, secrets: found } = variablesOf(Array.isArray(o.values) ? o.values.map(record) : []);
    secrets.push(...found);
    if (secret > 0) notes.push(`${secret} secret variable(s) of the environment left out`);
    const name = typeof o.name === 'string' && o.name.trim() ? o.name.trim() : 'postman';
    return { format: 'postman', requests: [], variables: [], environments: { [name]: vars }, notes, secrets };
  }
  if (kind !== 'collection') throw new ImportError('not a Postman collection (v2.0 or v2.1) or environment export');
  const raw = record(json);
  if (typeof record(raw.info).schema === 'string' && /v1\.0\.0/.test(String(record(raw.info).schema)))
    throw new ImportError('a Postman collection v1: export it again as v2.1 from Postman');
  let collection: Collection;
  try {
    collection = new Collection(raw as ConstructorParameters<typeof Collection>[0]);
  } catch (e) {
    throw new ImportError(`not a Postman collection that can be read: ${(e as Error).message}`);
  }
  const requests: SourceRequest[] = [];
  let auths = authSecrets(raw.auth, secrets) ? 1 : 0;
  const walk = (items: (Item | ItemGroup<Item>)[], path: string[], rawItems: unknown[]) => {
    items.forEach((item, i) => {
      const rawItem = record(rawItems[i]);
      if (authSecrets(rawItem.auth, secrets) || authSecrets(record(rawItem.request).auth, secrets)) auths++;
      if (ItemGroup.isItemGroup(item)) {
        const group = item as ItemGroup<Item>;
        walk(group.items.all(), [...path, group.name], Array.isArray(rawItem.item) ? rawItem.item : []);
        return;
      }
      const request = (item as Item).request;
      const headers = request.headers
        .all()
        .filter((h) => !h.disabled)
        .map((h): [string, string] => [h.key, String(h.value ?? '')]);
      const body = bodyOf(request, headers);
      requests.push({
        method: (request.method || 'GET').toUpperCase(),
        url: urlOf(request),
        headers,
        ...(body ? { body } : {}),
        title: item.name,
        ...(path.length > 0 ? { group: path.join(' / ') } : {}),
        notes: [],
      });
    });
  };
  walk(collection.items.all(), [], Array.isArray(raw.item) ? raw.item : []);
  if (auths > 0) notes.push(`Postman's auth settings (${auths}) left out: lpreq adds the token`);
  const { vars, secret, secrets: found } = variablesOf(Array.isArray(raw.variable) ? raw.variable.map(record) : []);
  secrets.push(...found);
  if (secret > 0) notes.push(`${secret} secret collection variable(s) left out`);
  const environments: Record<string, Record<string, string>> = Object.keys(vars).length > 0 ? { $shared: vars } : {};
  return { format: 'postman', requests, variables: [], environments, notes, secrets };
}
