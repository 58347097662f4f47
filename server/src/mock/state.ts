/**
 * The mock's state: tables of plain rows in memory, filled from a seed. Every change is
 * synchronous, so concurrent requests never see a half-made write.
 */
import { randomUUID } from 'node:crypto';
import type { ParsedSeed, TableName } from './seed';

export type Row = Record<string, unknown>;

const TABLES: TableName[] = [
  'accounts',
  'users',
  'terms',
  'courses',
  'sections',
  'enrollments',
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
  'outcome_results',
  'course_events',
  'error_reports',
];

export class MockState {
  readonly tables = new Map<TableName, Map<string, Row>>();
  readonly institution: string;
  readonly selfUserId: number;
  private readonly clockStart: number;
  private readonly startedAt = Date.now();
  private nextNumericId: number;

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

  find(name: TableName, where: (row: Row) => boolean): Row | undefined {
    for (const row of this.table(name).values()) if (where(row)) return row;
    return undefined;
  }

  /** Adds a row with a new id (numeric, or a UUID for tables keyed by strings). */
  insert(name: TableName, row: Row, stringId = false): Row {
    const id = stringId ? randomUUID() : this.nextNumericId++;
    const stored = { ...row, id };
    this.table(name).set(String(id), stored);
    return stored;
  }

  remove(name: TableName, id: string | number): boolean {
    return this.table(name).delete(String(id));
  }

  /** Counts of every table, for the load test's consistency check and for logs. */
  counts(): Record<string, number> {
    return Object.fromEntries([...this.tables].map(([k, v]) => [k, v.size]));
  }
}
