/**
 * The variables a run against the mock offers (`lpreq test --mock`, the editor's mock run):
 * one for each id placeholder of the documented paths, so that a repository's files run
 * against the mock whatever its environments are called. A placeholder is named as the docs
 * write it (`course_id`, `module_id`, `user_id`); a path's `{id}` after the collection it names
 * (`/modules/{id}` is `module_id`; under a collection that is not a context, with that one's
 * name before it: `/quizzes/{quiz_id}/submissions/{id}` is `quiz_submission_id`). Each takes a
 * row of the seed's table of that name, tied to the rows chosen before it (the module of the
 * course, the item of the module); `user_id` is the token's user, the seed's `self_user_id`.
 * docs/mock.md lists them, written from here (scripts/gen-docs.ts).
 */
import { own, type Catalog } from '../core';
import type { ParsedSeed } from './seed';

export interface MockVariable {
  name: string;
  value: string;
  /** The seed's table the value comes from. */
  table: string;
}

/** Collections whose `{id}` names a context, not a parent of what follows (`/courses/{course_id}/modules`). */
const CONTEXTS = new Set(['courses', 'accounts', 'groups', 'users', 'sections']);

function singular(word: string): string {
  if (word.endsWith('zzes')) return word.slice(0, -3);
  if (word.endsWith('ies')) return `${word.slice(0, -3)}y`;
  return word.endsWith('s') ? word.slice(0, -1) : word;
}

function plural(word: string): string {
  if (word.endsWith('z')) return `${word}zes`;
  if (word.endsWith('y')) return `${word.slice(0, -1)}ies`;
  return `${word}s`;
}

/** The variable names the documented paths' id placeholders give, in the order they first appear. */
function placeholderVariables(catalog: Pick<Catalog, 'endpoints'>): string[] {
  const names: string[] = [];
  const add = (name: string) => {
    if (!names.includes(name)) names.push(name);
  };
  for (const endpoint of catalog.endpoints) {
    for (const path of endpoint.paths) {
      const segments = path.template.split('/');
      segments.forEach((segment, i) => {
        const placeholder = /^\{([a-z_]+)\}$/.exec(segment)?.[1];
        if (placeholder === undefined) return;
        if (placeholder !== 'id') {
          if (placeholder.endsWith('_id')) add(placeholder);
          return;
        }
        const collection = segments[i - 1];
        if (collection === undefined || collection.startsWith('{')) return;
        const parent = segments[i - 3];
        const owner = /^\{[a-z_]+\}$/.test(segments[i - 2] ?? '') && parent && !CONTEXTS.has(parent) ? parent : '';
        add(`${owner ? `${singular(owner)}_` : ''}${singular(collection)}_id`);
      });
    }
  }
  return names;
}

/** The seed's table a variable's value comes from: its stem in the plural, else the one table named after its last word. */
function tableOf(seed: ParsedSeed, name: string): string | undefined {
  const stem = name.replace(/_id$/, '');
  const tables = Object.keys(seed).filter((k) => Array.isArray(own(seed as Record<string, unknown>, k)));
  const exact = plural(stem);
  if (tables.includes(exact)) return exact;
  const last = plural(stem.slice(stem.lastIndexOf('_') + 1));
  const matching = tables.filter((t) => t === last || t.endsWith(`_${last}`));
  return matching.length === 1 ? matching[0] : undefined;
}

type Row = Record<string, unknown>;

function rowsOf(seed: ParsedSeed, table: string): Row[] {
  const rows = own(seed as Record<string, unknown>, table);
  return Array.isArray(rows) ? (rows as Row[]) : [];
}

/** The keys of a row that tie it to another variable: `course_id`, and a context (`context_type` Course, `context_id` 42) as `course_id`. */
function ties(row: Row): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(row)) {
    if (key !== 'id' && key.endsWith('_id') && (typeof value === 'number' || typeof value === 'string'))
      out.set(key, String(value));
  }
  const type = row.context_type ?? row.ContextType;
  const id = row.context_id ?? row.ContextId;
  if (typeof type === 'string' && (typeof id === 'number' || typeof id === 'string'))
    out.set(`${type.toLowerCase()}_id`, String(id));
  return out;
}

/** The variables of a mock run over this seed: each placeholder that has a table, with the row tied best to those before it. */
export function mockVariables(catalog: Pick<Catalog, 'endpoints'>, seed: ParsedSeed): MockVariable[] {
  const wanted = placeholderVariables(catalog)
    .map((name) => ({ name, table: tableOf(seed, name) }))
    .filter((v): v is { name: string; table: string } => v.table !== undefined && rowsOf(seed, v.table).length > 0);
  const chosen = new Map<string, string>();
  const out: MockVariable[] = [];
  const take = (name: string, table: string, value: string) => {
    chosen.set(name, value);
    out.push({ name, value, table });
  };
  const names = new Set(wanted.map((w) => w.name));
  let pending = wanted.filter((w) => {
    if (w.name !== 'user_id') return true;
    take(w.name, w.table, String(seed.self_user_id));
    return false;
  });
  while (pending.length > 0) {
    // A variable is chosen after those its rows tie to, so that a module is one of the chosen course.
    const ready = pending.filter((w) =>
      rowsOf(seed, w.table).every((row) =>
        [...ties(row).keys()].every((k) => k === w.name || !names.has(k) || chosen.has(k)),
      ),
    );
    const next = ready.length > 0 ? ready : pending.slice(0, 1);
    for (const w of next) {
      let best: Row | undefined;
      let bestScore = -1;
      for (const row of rowsOf(seed, w.table)) {
        let score = 0;
        for (const [k, v] of ties(row)) if (chosen.get(k) === v) score++;
        if (score > bestScore) {
          best = row;
          bestScore = score;
        }
      }
      if (best !== undefined && (typeof best.id === 'number' || typeof best.id === 'string'))
        take(w.name, w.table, String(best.id));
    }
    pending = pending.filter((w) => !next.includes(w));
  }
  const order = wanted.map((w) => w.name);
  return out.sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
}

/** The ids the seed holds for a variable's table (the first `limit`), for the message of a variable no run gives. */
export function seededIds(seed: ParsedSeed, name: string, limit = 12): { table: string; ids: string[] } | undefined {
  const table = tableOf(seed, name);
  if (table === undefined) return undefined;
  const ids = rowsOf(seed, table)
    .map((r) => r.id)
    .filter((id): id is number | string => typeof id === 'number' || typeof id === 'string')
    .map(String);
  return ids.length > 0 ? { table, ids: ids.slice(0, limit) } : undefined;
}
