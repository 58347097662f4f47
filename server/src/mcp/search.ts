/**
 * `search_endpoints`: the documented operations ranked for a question in plain words, by
 * BM25 over the words the docs give each one: its purpose, its section heading, the literal
 * segments of its paths, the resource it returns (and that resource's description), its
 * parameters' names, descriptions and documented values, its rules and notes. Fields count
 * by weight (a word of the purpose or the path counts more than one of a parameter's
 * description). A verb of the question (create, update, delete, list) leans towards the
 * operations of that method, and the usual synonyms of those verbs are read as them.
 */
import { own, type Catalog, type Endpoint } from '../core/index';

/** Words that say nothing about which operation is meant. */
const STOP = new Set(
  (
    'a an the of to for in on at by with from into and or is are be it its this that these those as ' +
    'i me my we our you your how do does can could should would will want need api v1 lti which what ' +
    'all some any each every one get'
  ).split(' '),
);

/** Words of a question read as the docs' word (after stemming): `add` is `create`. */
const SYNONYMS: Record<string, string> = Object.assign(Object.create(null) as Record<string, string>, {
  add: 'create',
  new: 'create',
  make: 'create',
  post: 'create',
  remov: 'delete',
  eras: 'delete',
  destroy: 'delete',
  edit: 'update',
  chang: 'update',
  modify: 'update',
  modifi: 'update',
  renam: 'update',
  fetch: 'show',
  retriev: 'show',
  read: 'show',
  view: 'show',
  look: 'show',
  enumerat: 'list',
  index: 'list',
  browse: 'list',
  upload: 'upload',
  mark: 'grade',
  score: 'score',
  webhook: 'subscription',
  teacher: 'grader',
  class: 'course',
  lesson: 'module',
  deactivat: 'delete',
});

/** The method a verb of a question points to. */
const VERB_METHOD: Record<string, Endpoint['method'][]> = Object.assign(
  Object.create(null) as Record<string, Endpoint['method'][]>,
  {
    create: ['POST'],
    submit: ['POST'],
    start: ['POST'],
    copy: ['POST'],
    reactivat: ['POST'],
    activat: ['POST'],
    update: ['PUT', 'PATCH'],
    set: ['PUT'],
    delete: ['DELETE'],
    list: ['GET'],
    show: ['GET'],
    find: ['GET'],
    search: ['GET'],
  },
);

/** A light stemmer: enough to make `modules`/`module`, `requires`/`required`/`requirement` meet. */
function stem(word: string): string {
  let w = word;
  if (w.length > 4 && w.endsWith('ies')) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(ss|x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith('s') && !w.endsWith('ss') && !w.endsWith('us')) w = w.slice(0, -1);
  for (const suffix of ['ments', 'ment', 'ing', 'ed', 'ion', 'e']) {
    if (w.length - suffix.length >= 4 && w.endsWith(suffix)) {
      w = w.slice(0, -suffix.length);
      break;
    }
  }
  return w;
}

/** The words of a text: camelCase and snake_case split, lower-cased, stemmed, stop words out. */
export function words(text: string): string[] {
  const out: string[] = [];
  const spaced = text.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  for (const raw of spaced.split(/[^a-z0-9]+/)) {
    if (raw.length < 2 || STOP.has(raw) || /^\d+$/.test(raw)) continue;
    out.push(stem(raw));
  }
  return out;
}

/** A question's words, with the synonyms read as the docs' words. */
function queryWords(text: string): string[] {
  return words(text).map((w) => own(SYNONYMS, w) ?? w);
}

interface IndexedEndpoint {
  endpoint: Endpoint;
  /** Weighted term frequencies. */
  tf: Map<string, number>;
  length: number;
}

export interface SearchHit {
  endpoint: Endpoint;
  score: number;
}

const K1 = 1.2;
const B = 0.6;

export class EndpointSearch {
  private readonly indexed: IndexedEndpoint[] = [];
  private readonly df = new Map<string, number>();
  private readonly averageLength: number;

  constructor(catalog: Catalog) {
    for (const endpoint of catalog.endpoints) {
      const tf = new Map<string, number>();
      const add = (text: string | undefined, weight: number) => {
        if (!text) return;
        for (const w of words(text)) tf.set(w, (tf.get(w) ?? 0) + weight);
      };
      add(endpoint.purpose, 3);
      add(endpoint.source.section, 2);
      for (const p of endpoint.paths)
        for (const s of p.segments) if (s.kind === 'literal') add(s.text, 3 / endpoint.paths.length);
      if (endpoint.returns) {
        add(endpoint.returns, 2);
        add(catalog.resources.get(endpoint.returns.replace(/\[\]$/, ''))?.description, 0.5);
      }
      for (const param of endpoint.params) {
        add(param.name, 1);
        add(param.description, 0.5);
        for (const v of param.enum ?? []) add(v, 0.5);
        for (const d of Object.values(param.enumDescriptions ?? {})) add(d, 0.25);
      }
      for (const rule of endpoint.rules) add(rule.text, 0.5);
      for (const note of endpoint.notes ?? []) add(note, 0.5);
      let length = 0;
      for (const [w, n] of tf) {
        length += n;
        this.df.set(w, (this.df.get(w) ?? 0) + 1);
      }
      this.indexed.push({ endpoint, tf, length });
    }
    this.averageLength = this.indexed.reduce((sum, e) => sum + e.length, 0) / Math.max(1, this.indexed.length);
  }

  /** The operations for a question, best first; those that share no word with it are left out. */
  search(query: string, limit: number): SearchHit[] {
    const terms = [...new Set(queryWords(query))];
    const methods = new Set(terms.flatMap((t) => own(VERB_METHOD, t) ?? []));
    const n = this.indexed.length;
    const hits: SearchHit[] = [];
    for (const entry of this.indexed) {
      let score = 0;
      for (const term of terms) {
        const f = entry.tf.get(term);
        if (f === undefined) continue;
        const df = this.df.get(term) ?? 0;
        const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
        score += (idf * f * (K1 + 1)) / (f + K1 * (1 - B + (B * entry.length) / this.averageLength));
      }
      if (score === 0) continue;
      // The verb of the question picks among the operations of one resource (create, not list, modules).
      if (methods.size > 0 && methods.has(entry.endpoint.method)) score *= 1.35;
      hits.push({ endpoint: entry.endpoint, score });
    }
    hits.sort((a, b) => b.score - a.score || a.endpoint.id.localeCompare(b.endpoint.id));
    return hits.slice(0, limit);
  }
}
