/**
 * The mock's state: tables of plain rows in memory, filled from a seed. Every change is
 * synchronous, so concurrent requests never see a half-made write.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { ParsedSeed, TableName } from './seed';
import { own, setOwn } from '../core';

export type Row = Record<string, unknown>;

const TABLES: TableName[] = [
  'accounts',
  'users',
  'terms',
  'courses',
  'sections',
  'enrollments',
  'admins',
  'groups',
  'assignments',
  'submissions',
  'external_tools',
  'modules',
  'module_items',
  'appointment_groups',
  'calendar_events',
  'folders',
  'files',
  'roles',
  'quizzes',
  'quiz_submissions',
  'quiz_questions',
  'custom_columns',
  'column_data',
  'grading_periods',
  'peer_reviews',
  'planner_notes',
  'webhook_subscriptions',
  'communication_channels',
  'notification_preferences',
  'outcomes',
  'outcome_links',
  'outcome_results',
  'requirements_met',
  'course_events',
  'error_reports',
];

/**
 * Keys rows are looked up by often enough to index: the items of a module are read by every
 * module view and by every item created (issue 22: a create filtered the whole table).
 */
const INDEXED_KEYS: readonly (readonly [TableName, string])[] = [
  ['module_items', 'module_id'],
  // Who a caller is (visibility.ts): their enrollments and administrations, read for every row a statement concerns.
  ['enrollments', 'user_id'],
  ['admins', 'user_id'],
];

export class MockState {
  readonly tables = new Map<TableName, Map<string, Row>>();
  /** `table -> key -> value -> rows by id`, for the keys of INDEXED_KEYS; kept by insert, remove and setKey. */
  private readonly indexes = new Map<TableName, Map<string, Map<unknown, Map<string, Row>>>>();
  readonly institution: string;
  readonly selfUserId: number;
  private readonly clockStart: number;
  private readonly startedAt = Date.now();
  private nextNumericId: number;
  /** Rows added since the mock started, and the bytes of the request bodies that changed its data (limits.ts). */
  created = 0;
  keptBytes = 0;
  /** Uploads waiting for their last step (upload.ts). */
  readonly uploads = new Uploads();

  constructor(seed: ParsedSeed) {
    this.institution = seed.institution;
    this.selfUserId = seed.self_user_id;
    this.clockStart = Date.parse(seed.now);
    let maxId = 0;
    for (const name of TABLES) {
      const table = new Map<string, Row>();
      for (const row of seed[name] as Row[]) {
        table.set(String(row.id), structuredClone(row));
        if (typeof row.id === 'number') maxId = Math.max(maxId, row.id);
      }
      this.tables.set(name, table);
    }
    for (const [name, key] of INDEXED_KEYS) {
      const byValue = new Map<unknown, Map<string, Row>>();
      this.indexes.set(name, new Map([[key, byValue]]));
      for (const [id, row] of this.table(name)) indexRow(byValue, own(row, key), id, row);
    }
    this.nextNumericId = Math.max(10000, maxId + 1);
  }

  /** The data set's clock: its `now`, advanced by the real time since the mock started. */
  now(): string {
    return new Date(this.clockStart + (Date.now() - this.startedAt)).toISOString().replace(/\.\d{3}Z$/, 'Z');
  }

  table(name: TableName): Map<string, Row> {
    const t = this.tables.get(name);
    if (!t) throw new Error(`no table ${name}`);
    return t;
  }

  get(name: TableName, id: string | number): Row | undefined {
    return this.table(name).get(String(id));
  }

  rows(name: TableName, where?: (row: Row) => boolean): Row[] {
    const all = [...this.table(name).values()];
    return where ? all.filter(where) : all;
  }

  /** The rows whose `key` is `value`: from the index when the key is indexed, in insertion order. */
  rowsWith(name: TableName, key: string, value: unknown): Row[] {
    const byValue = this.indexes.get(name)?.get(key);
    if (byValue) return [...(byValue.get(value)?.values() ?? [])];
    return this.rows(name, (row) => own(row, key) === value);
  }

  /** How many rows have `key` equal to `value` (no copy when the key is indexed). */
  countWith(name: TableName, key: string, value: unknown): number {
    const byValue = this.indexes.get(name)?.get(key);
    return byValue ? (byValue.get(value)?.size ?? 0) : this.rowsWith(name, key, value).length;
  }

  /** Sets a key of a stored row, keeping the index of that key, if any, true. */
  setKey(name: TableName, row: Row, key: string, value: unknown): void {
    const byValue = this.indexes.get(name)?.get(key);
    const id = String(row.id);
    if (byValue) {
      byValue.get(own(row, key))?.delete(id);
      indexRow(byValue, value, id, row);
    }
    setOwn(row, key, value);
  }

  find(name: TableName, where: (row: Row) => boolean): Row | undefined {
    for (const row of this.table(name).values()) if (where(row)) return row;
    return undefined;
  }

  /** Adds a row with a new id (numeric, or a UUID for tables keyed by strings). */
  insert(name: TableName, row: Row, stringId = false): Row {
    const id = stringId ? randomUUID() : this.nextNumericId++;
    const stored = { ...row, id };
    this.table(name).set(String(id), stored);
    this.created++;
    for (const [key, byValue] of this.indexes.get(name) ?? []) indexRow(byValue, own(stored, key), String(id), stored);
    return stored;
  }

  remove(name: TableName, id: string | number): boolean {
    const row = this.table(name).get(String(id));
    if (!row) return false;
    for (const [key, byValue] of this.indexes.get(name) ?? []) byValue.get(own(row, key))?.delete(String(id));
    return this.table(name).delete(String(id));
  }

  /** Counts of every table, for the load test's consistency check and for logs. */
  counts(): Record<string, number> {
    return Object.fromEntries([...this.tables].map(([k, v]) => [k, v.size]));
  }
}

function indexRow(byValue: Map<unknown, Map<string, Row>>, value: unknown, id: string, row: Row) {
  let rows = byValue.get(value);
  if (!rows) {
    rows = new Map();
    byValue.set(value, rows);
  }
  rows.set(id, row);
}

/** An upload whose first step was answered: where the file goes, and what its last step must send. */
export interface PendingUpload {
  folderId: number;
  /** The user who asked for the address: the file is theirs, and it is shown as they see it. */
  userId: number;
  /** The name from the first step (else the file part's). */
  name?: string;
  contentType?: string;
  onDuplicate: 'overwrite' | 'rename';
  /** The upload_params handed out: the last step must send them back unchanged. */
  params: Record<string, string>;
  /** Bytes the context may still take (quota), when a quota applies. */
  room?: number;
}

/** Uploads waiting for their last step, at most: the oldest is forgotten first. */
const MAX_PENDING_UPLOADS = 1_000;

/** The uploads waiting for their last step, by the token of their address. */
class Uploads {
  private readonly pending = new Map<string, PendingUpload>();

  /** Registers an upload; the token of its one-time address. */
  offer(upload: PendingUpload): string {
    const token = randomBytes(18).toString('base64url');
    this.pending.set(token, upload);
    if (this.pending.size > MAX_PENDING_UPLOADS) this.pending.delete(this.pending.keys().next().value as string);
    return token;
  }

  take(token: string): PendingUpload | undefined {
    return this.pending.get(token);
  }

  done(token: string): void {
    this.pending.delete(token);
  }
}
