/**
 * The typed comparison of a response with a snapshot (or with an earlier response), read by
 * the documentation: a byte diff of two JSON answers is noise, since ids, timestamps, URLs and
 * the order of a list change on every run. Here:
 *
 * - a field the docs type as a timestamp (DateTime), an id (`id`, `uuid`, `*_id`, `*_ids`,
 *   `*_uuid`) or a URL (`url`, `*_url`) compares by type and presence, not value, unless an
 *   `exact=` path names it;
 * - a list of a resource that has an `id` pairs its elements by id when most ids are the same
 *   in both (the same data, perhaps reordered; an element left over pairs with one alike but
 *   for its id, timestamps and URLs), otherwise by position (the same data made again, with
 *   new ids);
 * - each difference has a JSONPath and a kind: a field changed value, disappeared, appeared
 *   (documented or not), changed type, or holds an enum value outside the docs.
 *
 * Pure and iterative (a stack of its own, no recursion): a body nested thousands deep or a
 * list of 20 MB is walked within a budget of visited values, and at most `maxDifferences`
 * differences are listed (the rest counted).
 */
import { type Catalog, type Field, type JsonPathSegment, isDateTime, own } from '../core/index';
import { describeValue, formatJsonPath } from './typed';

export type SnapshotDifferenceKind =
  /** A field's value is not what it was (a documented field, or one the docs do not show inside). */
  | 'value-changed'
  /** A field, or an element of a list, that the snapshot has is not in the response. */
  | 'removed'
  /** A documented field, or an element of a list, that the snapshot lacks. */
  | 'added'
  /** A field the docs do not document appeared. */
  | 'undocumented-field'
  /** A value is of another type (string for integer, null for an object, a text that is no longer a timestamp). */
  | 'type-changed'
  /** A value outside the documented values of an enum appeared. */
  | 'unknown-enum-value';

export interface SnapshotDifference {
  kind: SnapshotDifferenceKind;
  /**
   * Where: `status` for the status, else a JSONPath into the body (`$[2].name`), with the
   * response's indexes; for an element or field only the snapshot has, the snapshot's.
   */
  path: string;
  /** The value in the snapshot and in the response, described (`string "Week 5"`, `an object`); absent where there is none. */
  before?: string;
  after?: string;
  /** The documented type of the place, when the docs give one (`integer`, `DateTime`, `Module`). */
  type?: string;
  /** A sentence for people. */
  message: string;
}

export interface SnapshotComparison {
  /** The differences found, in the order of the response (the removed after what stands beside them), at most `maxDifferences`. */
  differences: SnapshotDifference[];
  /** Differences found beyond those listed. */
  more: number;
  /** The walk stopped at its budget of values: what is beyond was not compared. */
  incomplete: boolean;
}

/** What is compared: a status, and a body parsed as JSON or kept as text. */
export interface ComparedResponse {
  status: number | null;
  /** Parsed JSON when `json`, the text otherwise (null for an empty body). */
  body: unknown;
  json: boolean;
}

export interface CompareOptions {
  /** Places left out of the comparison (with what is below them), as paths of section 6 (`[*]` is any index or key). */
  ignore?: readonly (readonly JsonPathSegment[])[];
  /** Places compared by value, with what is below them, whatever the docs type them as. */
  exact?: readonly (readonly JsonPathSegment[])[];
  /**
   * The scrubber the snapshot was written through: a string of the response that differs from
   * the snapshot's is the same when scrubbed it equals it (the snapshot holds `***` for a secret).
   */
  scrub?: (text: string) => string;
  /** Differences listed; more are counted. Default 100. */
  maxDifferences?: number;
  /** Values visited at most. Default 50 million (a 20 MB list holds about 2 million). */
  maxValues?: number;
}

type Role = 'timestamp' | 'id' | 'url';

/** Where a value stands: a linked path, formatted only when a difference is reported. */
interface PathNode {
  parent: PathNode | undefined;
  key: string | number;
}

/**
 * What the docs say about the values at a place: built lazily from the catalog's resources
 * (a resource may hold itself), once per type, role and enum.
 */
class Shape {
  private fieldMap: Map<string, Shape> | undefined;
  private elementShape: Shape | null | undefined;
  private valueShape: Shape | null | undefined;
  private closedKnown: boolean | undefined;

  constructor(
    private readonly shapes: Shapes,
    /** The documented type (`Module[]`, `integer|string`), or '' where the docs show nothing. */
    readonly type: string,
    readonly role: Role | undefined,
    readonly enumValues: ReadonlySet<string> | undefined,
    /** The name of what holds the fields here, for messages (`Module`). */
    readonly label: string,
  ) {}

  private alternatives(): string[] {
    return this.type
      .split('|')
      .map((t) => t.trim())
      .filter((t) => t.length > 0);
  }

  /** The documented fields of an object here (of every resource alternative). */
  fields(): Map<string, Shape> {
    if (this.fieldMap) return this.fieldMap;
    const map = new Map<string, Shape>();
    for (const alt of this.alternatives()) {
      const resource = this.shapes.catalog.resources.get(alt);
      if (!resource) continue;
      for (const field of resource.fields) if (!map.has(field.name)) map.set(field.name, this.shapes.field(field, alt));
    }
    this.fieldMap = map;
    return map;
  }

  /** The shape of a map's values (a resource documented as a map of names to values). */
  values(): Shape | undefined {
    if (this.valueShape === undefined) {
      this.valueShape = null;
      for (const alt of this.alternatives()) {
        const resource = this.shapes.catalog.resources.get(alt);
        if (resource?.valueType !== undefined) {
          this.valueShape = this.shapes.of(resource.valueType, undefined, undefined, alt);
          break;
        }
      }
    }
    return this.valueShape ?? undefined;
  }

  /** Whether a key outside the documented fields is undocumented: every alternative is a resource whose fields are all shown. */
  closed(): boolean {
    if (this.closedKnown === undefined) {
      const alts = this.alternatives().filter((a) => !a.endsWith('[]'));
      this.closedKnown =
        alts.length > 0 &&
        alts.every((a) => {
          const r = this.shapes.catalog.resources.get(a);
          return r !== undefined && !r.openKeys && r.valueType === undefined;
        });
    }
    return this.closedKnown;
  }

  /** The shape of a list's elements (they keep the role and the enum of the field that documents the list). */
  element(): Shape | undefined {
    if (this.elementShape === undefined) {
      const elements = this.alternatives()
        .filter((a) => a.endsWith('[]'))
        .map((a) => a.slice(0, -2));
      this.elementShape =
        elements.length > 0 ? this.shapes.of(elements.join('|'), this.role, this.enumValues, this.label) : null;
    }
    return this.elementShape ?? undefined;
  }

  /** Whether the elements of a list here are resources with a documented `id`. */
  pairsById(): boolean {
    const element = this.element();
    return element !== undefined && element.fields().has('id');
  }
}

/** The shapes of one catalog. */
class Shapes {
  private readonly byKey = new Map<string, Shape>();
  private readonly fieldShapes = new Map<Field, Shape>();
  readonly any: Shape;

  constructor(readonly catalog: Catalog) {
    this.any = new Shape(this, '', undefined, undefined, '');
  }

  of(type: string, role: Role | undefined, enumValues: ReadonlySet<string> | undefined, label: string): Shape {
    if (enumValues !== undefined) return new Shape(this, type, role, enumValues, label);
    const key = `${type}\u0000${role ?? ''}`;
    let shape = this.byKey.get(key);
    if (!shape) {
      shape = new Shape(this, type, role, undefined, type.replace(/\[\]/g, '') || label);
      this.byKey.set(key, shape);
    }
    return shape;
  }

  field(field: Field, owner: string): Shape {
    let shape = this.fieldShapes.get(field);
    if (!shape) {
      const closed = field.enum && field.enum.length > 0 && !field.enumOpen ? new Set(field.enum) : undefined;
      shape = this.of(field.type, roleOf(field), closed, owner);
      this.fieldShapes.set(field, shape);
    }
    return shape;
  }
}

const ID_NAME = /(?:^|_)(?:id|ids|uuid)$/;
const URL_NAME = /(?:^|_)url$/;

/** What the docs make of a field's value: a timestamp by its type, an id or a URL by its documented name. */
function roleOf(field: Field): Role | undefined {
  const types = field.type.split('|').map((t) => t.trim().replace(/\[\]$/, ''));
  if (types.includes('DateTime')) return 'timestamp';
  if (ID_NAME.test(field.name)) return 'id';
  if (URL_NAME.test(field.name)) return 'url';
  return undefined;
}

const shapesByCatalog = new WeakMap<Catalog, Shapes>();

function shapesOf(catalog: Catalog): Shapes {
  let shapes = shapesByCatalog.get(catalog);
  if (!shapes) {
    shapes = new Shapes(catalog);
    shapesByCatalog.set(catalog, shapes);
  }
  return shapes;
}

/** One pattern of `ignore=` or `exact=` being matched: which, and how many of its segments are behind. */
interface Active {
  pattern: number;
  at: number;
}

const NO_ACTIVE: Active[] = [];
const ABSENT = Symbol('absent');
type Slot = unknown | typeof ABSENT;

/** One place to compare. */
interface Frame {
  before: Slot;
  after: Slot;
  shape: Shape;
  path: PathNode | undefined;
  exact: boolean;
  active: Active[];
  /** The object this place is a field of, for a field that appears: documented or not. */
  parent: Shape | undefined;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** The type a value is compared by: JSON's, with a timestamp apart from other text where the docs type one. */
function typeOf(v: unknown, role: Role | undefined): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  const t = typeof v;
  if (t === 'string' && role === 'timestamp') return isDateTime(v as string) ? 'timestamp' : 'string';
  return t;
}

function pathText(node: PathNode | undefined): string {
  const keys: (string | number)[] = [];
  for (let n = node; n !== undefined; n = n.parent) keys.push(n.key);
  return formatJsonPath(keys.reverse());
}

interface Pattern {
  segments: readonly JsonPathSegment[];
  ignore: boolean;
}

/**
 * Compares a response with a snapshot (`before`) by the documented type `returns` of the
 * response. Never throws.
 */
export function compareResponses(
  catalog: Catalog,
  returns: string | null,
  before: ComparedResponse,
  after: ComparedResponse,
  options: CompareOptions = {},
): SnapshotComparison {
  return new Comparison(shapesOf(catalog), options).run(returns, before, after);
}

class Comparison {
  private readonly result: SnapshotComparison = { differences: [], more: 0, incomplete: false };
  private readonly patterns: Pattern[];
  private readonly max: number;
  private readonly budget: number;
  private readonly scrub: ((text: string) => string) | undefined;
  private readonly stack: Frame[] = [];

  constructor(
    private readonly shapes: Shapes,
    options: CompareOptions,
  ) {
    this.max = options.maxDifferences ?? 100;
    this.budget = options.maxValues ?? 50_000_000;
    this.scrub = options.scrub;
    const strip = (p: readonly JsonPathSegment[]) => p.filter((s) => s.kind !== 'root');
    this.patterns = [
      ...(options.ignore ?? []).map((p) => ({ segments: strip(p), ignore: true })),
      ...(options.exact ?? []).map((p) => ({ segments: strip(p), ignore: false })),
    ];
  }

  private show(v: unknown): string {
    return describeValue(v, this.scrub);
  }

  /** A value that appeared or disappeared: an object by its id and name, when it has them (`an object, id 12, name "Week 5"`). */
  private whole(v: unknown): string {
    if (!isObject(v)) return this.show(v);
    const parts = ['an object'];
    for (const key of ['id', 'name', 'title']) {
      const x = Object.hasOwn(v, key) ? own(v, key) : undefined;
      if (typeof x === 'number' || typeof x === 'string')
        parts.push(`${key} ${this.show(x).replace(/^(string|integer|number) /, '')}`);
    }
    return parts.join(', ');
  }

  private report(d: SnapshotDifference): void {
    if (this.result.differences.length < this.max) this.result.differences.push(d);
    else this.result.more++;
  }

  run(returns: string | null, before: ComparedResponse, after: ComparedResponse): SnapshotComparison {
    if (before.status !== after.status) {
      this.report({
        kind: 'value-changed',
        path: 'status',
        before: before.status === null ? 'no response' : String(before.status),
        after: after.status === null ? 'no response' : String(after.status),
        message: `the status was ${before.status ?? 'none'}, now ${after.status ?? 'none'}`,
      });
    }
    if (!before.json || !after.json) {
      if (before.json !== after.json) {
        this.report({
          kind: 'type-changed',
          path: '$',
          message: `the body was ${before.json ? 'JSON' : 'text'}, now ${after.json ? 'JSON' : 'text'}`,
        });
      } else if (!sameText(before.body, after.body, this.scrub)) {
        this.report({ kind: 'value-changed', path: '$', message: 'the body (text) changed' });
      }
      return this.result;
    }
    const shapes = this.shapes;
    const rootShape =
      returns !== null && returns.trim() !== '' ? shapes.of(returns.trim(), undefined, undefined, returns) : shapes.any;
    this.stack.push({
      before: before.body,
      after: after.body,
      shape: rootShape,
      path: undefined,
      exact: this.patterns.some((p) => !p.ignore && p.segments.length === 0),
      active: this.patterns.flatMap((p, i) => (p.segments.length > 0 ? [{ pattern: i, at: 0 }] : [])),
      parent: undefined,
    });
    this.walk();
    return this.result;
  }

  private walk(): void {
    const { stack, shapes } = this;
    let visited = 0;
    while (stack.length > 0) {
      if (++visited > this.budget) {
        this.result.incomplete = true;
        return;
      }
      const frame = stack.pop() as Frame;
      const { before: b, after: a, shape } = frame;
      const typed = shape.type !== '' ? shape.type : undefined;
      if (b === ABSENT) {
        const parent = frame.parent;
        const undocumented = parent !== undefined && shape === shapes.any && parent.closed();
        this.report({
          kind: undocumented ? 'undocumented-field' : 'added',
          path: pathText(frame.path),
          after: this.show(a),
          ...(typed ? { type: typed } : {}),
          message: undocumented
            ? `not a documented field of ${parent.label}, and not in the snapshot: ${this.whole(a)}`
            : `not in the snapshot: ${this.whole(a)}`,
        });
        continue;
      }
      if (a === ABSENT) {
        this.report({
          kind: 'removed',
          path: pathText(frame.path),
          before: this.show(b),
          ...(typed ? { type: typed } : {}),
          message: `in the snapshot (${this.whole(b)}), not in the response`,
        });
        continue;
      }
      const tb = typeOf(b, shape.role);
      const ta = typeOf(a, shape.role);
      if (tb !== ta) {
        this.report({
          kind: 'type-changed',
          path: pathText(frame.path),
          before: this.show(b),
          after: this.show(a),
          ...(typed ? { type: typed } : {}),
          message: `was ${this.show(b)}, now ${this.show(a)}${typed ? ` (documented as ${typed})` : ''}`,
        });
        continue;
      }
      if (ta === 'array') {
        this.pushArray(frame, b as unknown[], a as unknown[]);
        continue;
      }
      if (ta === 'object') {
        this.pushObject(frame, b as Record<string, unknown>, a as Record<string, unknown>);
        continue;
      }
      // A timestamp, an id or a URL is the same by type and presence.
      if (!frame.exact && shape.role !== undefined) continue;
      if (b === a || (ta === 'string' && sameText(b, a, this.scrub))) continue;
      const enumValues = shape.enumValues;
      if (enumValues !== undefined && !enumValues.has(String(a))) {
        this.report({
          kind: 'unknown-enum-value',
          path: pathText(frame.path),
          before: this.show(b),
          after: this.show(a),
          ...(typed ? { type: typed } : {}),
          message: `${this.show(a)} is not one of the documented values (${[...enumValues].join(', ')}); it was ${this.show(b)}`,
        });
        continue;
      }
      this.report({
        kind: 'value-changed',
        path: pathText(frame.path),
        before: this.show(b),
        after: this.show(a),
        ...(typed ? { type: typed } : {}),
        message: `was ${this.show(b)}, now ${this.show(a)}`,
      });
    }
  }

  /** The frame of a child at `key`, or undefined when an `ignore=` path leaves it out. */
  private child(
    frame: Frame,
    key: string | number,
    b: Slot,
    a: Slot,
    shape: Shape,
    parent: Shape | undefined,
  ): Frame | undefined {
    let exact = frame.exact;
    let active = NO_ACTIVE;
    for (let i = 0; i < frame.active.length; i++) {
      const { pattern, at } = frame.active[i];
      const { segments, ignore } = this.patterns[pattern];
      const seg = segments[at];
      const matches =
        seg.kind === 'wildcard' ||
        (seg.kind === 'name' && seg.name === key) ||
        (seg.kind === 'index' && seg.index === key);
      if (!matches) continue;
      if (at + 1 === segments.length) {
        if (ignore) return undefined;
        exact = true;
      } else {
        if (active === NO_ACTIVE) active = [];
        active.push({ pattern, at: at + 1 });
      }
    }
    return { before: b, after: a, shape, path: { parent: frame.path, key }, exact, active, parent };
  }

  /** The fields of two objects, pushed so that they come off the stack in the response's order, then the removed ones. */
  private pushObject(frame: Frame, b: Record<string, unknown>, a: Record<string, unknown>): void {
    const { stack, shapes } = this;
    const shape = frame.shape;
    const fields = shape.type !== '' ? shape.fields() : undefined;
    const values = shape.type !== '' ? shape.values() : undefined;
    const start = stack.length;
    for (const key of Object.keys(a)) {
      const fieldShape = fields?.get(key) ?? values ?? shapes.any;
      const f = this.child(frame, key, Object.hasOwn(b, key) ? own(b, key) : ABSENT, own(a, key), fieldShape, shape);
      if (f) stack.push(f);
    }
    for (const key of Object.keys(b)) {
      if (Object.hasOwn(a, key)) continue;
      const fieldShape = fields?.get(key) ?? values ?? shapes.any;
      const f = this.child(frame, key, own(b, key), ABSENT, fieldShape, shape);
      if (f) stack.push(f);
    }
    reverseFrom(stack, start);
  }

  /** The elements of two lists, paired by id where the ids are mostly the same, else by position. */
  private pushArray(frame: Frame, b: unknown[], a: unknown[]): void {
    const stack = this.stack;
    const element = frame.shape.element() ?? this.shapes.any;
    const start = stack.length;
    const pairs = frame.shape.pairsById() ? pairById(b, a, this.idsExact(frame), element) : undefined;
    if (!pairs) {
      const n = Math.max(a.length, b.length);
      for (let i = 0; i < n; i++) {
        // A removed element is at the snapshot's index, which is the same here.
        const f = this.child(frame, i, i < b.length ? b[i] : ABSENT, i < a.length ? a[i] : ABSENT, element, undefined);
        if (f) stack.push(f);
      }
    } else {
      for (let i = 0; i < a.length; i++) {
        const j = pairs.of[i];
        const f = this.child(frame, i, j === -1 ? ABSENT : b[j], a[i], element, undefined);
        if (f) stack.push(f);
      }
      for (const j of pairs.unpaired) {
        const f = this.child(frame, j, b[j], ABSENT, element, undefined);
        if (f) stack.push(f);
      }
    }
    reverseFrom(stack, start);
  }

  /** Whether the ids of this list's elements are compared by value: the list is, or an `exact=` path ends at `[*].id` here. */
  private idsExact(frame: Frame): boolean {
    if (frame.exact) return true;
    for (const { pattern, at } of frame.active) {
      const { segments, ignore } = this.patterns[pattern];
      if (ignore || at + 2 !== segments.length) continue;
      const last = segments[at + 1];
      if (segments[at].kind === 'wildcard' && last.kind === 'name' && last.name === 'id') return true;
    }
    return false;
  }
}

/** Whether two texts are the same, the response's as the scrubber would have written it. */
function sameText(b: unknown, a: unknown, scrub: ((text: string) => string) | undefined): boolean {
  if (b === a) return true;
  return typeof a === 'string' && typeof b === 'string' && scrub !== undefined && b.includes('***') && scrub(a) === b;
}

const idOf = (v: unknown): unknown => (isObject(v) && Object.hasOwn(v, 'id') ? own(v, 'id') : undefined);

/**
 * What an element is apart from its id, timestamps and URLs: its other fields that hold a
 * single value, as text. Two elements with the same are the same data made again.
 */
function likeness(v: unknown, element: Shape): string | undefined {
  if (!isObject(v)) return undefined;
  const fields = element.type !== '' ? element.fields() : undefined;
  const parts: string[] = [];
  for (const key of Object.keys(v).sort()) {
    if (fields?.get(key)?.role !== undefined) continue;
    const x = own(v, key);
    if (x === null || typeof x !== 'object') parts.push(`${key}\u0000${JSON.stringify(x)}`);
  }
  return parts.join('\u0001');
}

/**
 * For each element of `a`, the index of its pair in `b` (-1: none), and the elements of `b`
 * left without one. By id when at least half the elements of the longer list find theirs (the
 * same data), else undefined (data made again: by position). Of the elements left over, those
 * alike apart from their ids, timestamps and URLs pair (one element made again among the
 * same ones), unless the ids are compared by value; the rest appeared or disappeared.
 */
function pairById(
  b: unknown[],
  a: unknown[],
  exactIds: boolean,
  element: Shape,
): { of: number[]; unpaired: number[] } | undefined {
  const byId = new Map<unknown, number[]>();
  for (let j = 0; j < b.length; j++) {
    const id = idOf(b[j]);
    if (typeof id !== 'string' && typeof id !== 'number') continue;
    const list = byId.get(id);
    if (list) list.push(j);
    else byId.set(id, [j]);
  }
  if (byId.size === 0) return undefined;
  const of = new Array<number>(a.length).fill(-1);
  const taken = new Uint8Array(b.length);
  let found = 0;
  for (let i = 0; i < a.length; i++) {
    const id = idOf(a[i]);
    const list = typeof id === 'string' || typeof id === 'number' ? byId.get(id) : undefined;
    if (!list || list.length === 0) continue;
    const j = list.shift() as number;
    of[i] = j;
    taken[j] = 1;
    found++;
  }
  if (!exactIds && found * 2 < Math.max(a.length, b.length)) return undefined;
  if (!exactIds && found < Math.max(a.length, b.length)) {
    const alike = new Map<string, number[]>();
    for (let j = 0; j < b.length; j++) {
      if (taken[j]) continue;
      const key = likeness(b[j], element);
      if (key === undefined) continue;
      const list = alike.get(key);
      if (list) list.push(j);
      else alike.set(key, [j]);
    }
    for (let i = 0; i < a.length && alike.size > 0; i++) {
      if (of[i] !== -1) continue;
      const key = likeness(a[i], element);
      const list = key === undefined ? undefined : alike.get(key);
      if (!list || list.length === 0) continue;
      const j = list.shift() as number;
      of[i] = j;
      taken[j] = 1;
    }
  }
  const unpaired: number[] = [];
  for (let j = 0; j < b.length; j++) if (!taken[j]) unpaired.push(j);
  return { of, unpaired };
}

function reverseFrom(stack: Frame[], start: number): void {
  for (let i = start, j = stack.length - 1; i < j; i++, j--) {
    const t = stack[i];
    stack[i] = stack[j];
    stack[j] = t;
  }
}

/** A short phrase for the kind of a difference (reporters' words). */
export function differenceWords(kind: SnapshotDifferenceKind): string {
  switch (kind) {
    case 'value-changed':
      return 'changed value';
    case 'removed':
      return 'disappeared';
    case 'added':
      return 'appeared';
    case 'undocumented-field':
      return 'undocumented field appeared';
    case 'type-changed':
      return 'changed type';
    case 'unknown-enum-value':
      return 'enum value outside the docs';
  }
}
