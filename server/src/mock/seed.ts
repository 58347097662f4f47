/**
 * The mock's data set: one array of stored rows per table, checked by zod when loaded.
 * Rows hold the documented fields of their resource plus the keys that tie them together
 * (course_id, module_id, folder_id...); the responses are built from the catalog, so a row
 * need not carry every documented field.
 */
import * as z from 'zod';
import defaultSeedJson from './seed.json';
import { own } from '../core';

const id = z.number().int().positive();
/** A DateTime (ISO 8601 with Z or an offset) or a Date of the docs; the materializer would replace anything else silently. */
const dateTime = z
  .union([z.iso.datetime({ offset: true }), z.iso.date()], {
    error: 'expected a DateTime such as 2026-09-05T10:00:00Z or a Date such as 2026-09-05',
  })
  .nullable()
  .optional();
const refId = id.nullable().optional();
const integer = z.number().int().optional();
const number = z.number().nullable().optional();
const boolean = z.boolean().optional();
/**
 * Typed fields any row may carry, checked wherever they appear: a wrong value would otherwise
 * be replaced by a generated one when a response is built, or break the keys that tie rows together.
 */
const typedFields = {
  created_at: dateTime,
  updated_at: dateTime,
  unlock_at: dateTime,
  lock_at: dateTime,
  due_at: dateTime,
  start_at: dateTime,
  end_at: dateTime,
  started_at: dateTime,
  finished_at: dateTime,
  submitted_at: dateTime,
  graded_at: dateTime,
  submitted_or_assessed_at: dateTime,
  todo_date: dateTime,
  start_date: dateTime,
  end_date: dateTime,
  close_date: dateTime,
  completed_at: dateTime,
  account_id: refId,
  course_id: refId,
  user_id: refId,
  module_id: refId,
  assignment_id: refId,
  quiz_id: refId,
  folder_id: refId,
  parent_folder_id: refId,
  channel_id: refId,
  column_id: refId,
  section_id: refId,
  submission_id: refId,
  grader_id: refId,
  assessor_id: refId,
  asset_id: refId,
  content_id: refId,
  context_id: refId,
  outcome_id: refId,
  module_item_id: refId,
  appointment_group_id: refId,
  enrollment_term_id: refId,
  linked_object_id: refId,
  root_account_id: refId,
  parent_account_id: refId,
  position: integer,
  attempt: integer,
  allowed_attempts: integer,
  time_limit: integer,
  time_spent: integer,
  size: integer,
  members_count: integer,
  max_appointments_per_participant: integer,
  min_appointments_per_participant: integer,
  participants_per_appointment: integer,
  points_possible: number,
  score: number,
  kept_score: number,
  percent: number,
  weight: number,
  published: boolean,
  preview: boolean,
  hidden: boolean,
  is_public: boolean,
  new_tab: boolean,
  read_only: boolean,
  require_sequential_progress: boolean,
  privacy_level: z.enum(['anonymous', 'name_only', 'public']).optional(),
};
const row = <T extends z.ZodRawShape>(shape: T) => z.looseObject({ id, ...typedFields, ...shape });
const contextType = z.enum(['Course', 'User', 'Group', 'Account']);

export const SeedSchema = z.strictObject({
  $schema: z.string().optional(),
  institution: z.string().min(1),
  /** The user the token stands for (`self`). */
  self_user_id: id,
  /**
   * Tokens of other seeded users, valid against this mock only (a student submits with one):
   * request files read them from their `local` environment, never a real instance's token.
   */
  user_tokens: z.array(z.strictObject({ user_id: id, token: z.string().min(1) })).default([]),
  /** The clock of the data set: timestamps of new objects start here. */
  now: z.iso.datetime({ offset: true }),
  accounts: z.array(row({ name: z.string() })).min(1),
  users: z.array(row({ name: z.string(), sis_user_id: z.string().optional() })).min(1),
  terms: z.array(row({ name: z.string() })).default([]),
  courses: z.array(
    row({
      name: z.string(),
      account_id: id,
      sis_course_id: z.string().optional(),
      workflow_state: z.enum(['unpublished', 'available', 'completed', 'deleted']).optional(),
    }),
  ),
  sections: z.array(row({ course_id: id, name: z.string(), sis_section_id: z.string().optional() })).default([]),
  /**
   * Enrollments: `type` is an enrollment type of document A (StudentEnrollment...); an observer's
   * `associated_user_id` is the student observed; `enrollment_state` (active when absent) says
   * whether it is concluded (`completed`).
   */
  enrollments: z
    .array(
      row({
        course_id: id,
        user_id: id,
        type: z.enum([
          'StudentEnrollment',
          'TeacherEnrollment',
          'TaEnrollment',
          'DesignerEnrollment',
          'ObserverEnrollment',
        ]),
        associated_user_id: refId,
        enrollment_state: z.enum(['active', 'invited', 'completed', 'inactive', 'deleted']).optional(),
      }),
    )
    .default([]),
  /** Account administrators (document A, Roles: AccountAdmin): they hold every permission in the account's courses. */
  admins: z.array(row({ account_id: id, user_id: id })).default([]),
  groups: z.array(row({ name: z.string() })).default([]),
  assignments: z.array(row({ course_id: id, name: z.string() })).default([]),
  submissions: z
    .array(
      row({
        course_id: id,
        assignment_id: id,
        user_id: id,
        workflow_state: z.enum(['submitted', 'unsubmitted', 'graded', 'pending_review']).optional(),
      }),
    )
    .default([]),
  external_tools: z.array(row({ context_type: contextType, context_id: id, name: z.string() })).default([]),
  modules: z
    .array(
      row({
        course_id: id,
        name: z.string(),
        position: z.number().int(),
        workflow_state: z.enum(['active', 'deleted']).optional(),
      }),
    )
    .default([]),
  module_items: z
    .array(
      row({
        course_id: id,
        module_id: id,
        type: z.enum(['File', 'Page', 'Discussion', 'Assignment', 'Quiz', 'SubHeader', 'ExternalUrl', 'ExternalTool']),
        position: z.number().int(),
      }),
    )
    .default([]),
  appointment_groups: z
    .array(
      row({
        title: z.string(),
        context_codes: z.array(z.string()),
        workflow_state: z.enum(['pending', 'active', 'deleted']),
      }),
    )
    .default([]),
  calendar_events: z.array(row({ appointment_group_id: id })).default([]),
  folders: z
    .array(row({ context_type: contextType, context_id: id, name: z.string(), parent_folder_id: id.nullable() }))
    .default([]),
  files: z.array(row({ folder_id: id, display_name: z.string() })).default([]),
  roles: z
    .array(
      row({
        account_id: id,
        label: z.string(),
        role: z.string(),
        base_role_type: z.string(),
        workflow_state: z.enum(['active', 'inactive', 'built_in']),
      }),
    )
    .default([]),
  quizzes: z.array(row({ course_id: id, title: z.string() })).default([]),
  quiz_submissions: z
    .array(
      row({
        quiz_id: id,
        user_id: id,
        attempt: z.number().int(),
        workflow_state: z.enum(['untaken', 'pending_review', 'complete', 'settings_only', 'preview']),
      }),
    )
    .default([]),
  quiz_questions: z.array(row({ quiz_id: id, position: z.number().int() })).default([]),
  custom_columns: z.array(row({ course_id: id, title: z.string(), position: z.number().int() })).default([]),
  column_data: z.array(row({ column_id: id, user_id: id, content: z.string() })).default([]),
  grading_periods: z.array(row({ title: z.string(), course_id: id.optional(), account_id: id.optional() })).default([]),
  peer_reviews: z
    .array(
      row({
        assignment_id: id,
        asset_id: id,
        user_id: id,
        assessor_id: id,
        workflow_state: z.enum(['assigned', 'completed']).optional(),
      }),
    )
    .default([]),
  planner_notes: z.array(row({ user_id: id, title: z.string() })).default([]),
  webhook_subscriptions: z
    .array(z.looseObject({ id: z.string().min(1), ContextType: z.string(), ContextId: z.string() }))
    .default([]),
  communication_channels: z.array(row({ user_id: id, type: z.string(), address: z.string() })).default([]),
  notification_preferences: z
    .array(
      row({
        channel_id: id,
        notification: z.string(),
        category: z.string(),
        frequency: z.enum(['immediately', 'daily', 'weekly', 'never']),
      }),
    )
    .default([]),
  /** Learning outcomes, and the courses each is linked to (document C, outcome_ids[]: "error if an outcome is not linked to the context"). */
  outcomes: z.array(row({ title: z.string() })).default([]),
  outcome_links: z.array(row({ course_id: id, outcome_id: id })).default([]),
  outcome_results: z.array(row({ course_id: id, user_id: id, outcome_id: id })).default([]),
  /**
   * Completion requirements a student met by an action the API does not show (a page viewed,
   * a discussion contributed to): must_submit and min_score follow from submissions and quiz attempts.
   */
  requirements_met: z.array(row({ user_id: id, module_item_id: id, completed_at: dateTime })).default([]),
  course_events: z.array(z.looseObject({ id: z.string().min(1), course_id: id })).default([]),
  error_reports: z.array(z.looseObject({ id })).default([]),
});

export type SeedData = z.input<typeof SeedSchema>;
export type ParsedSeed = z.output<typeof SeedSchema>;
export type TableName = Exclude<keyof ParsedSeed, '$schema' | 'institution' | 'self_user_id' | 'user_tokens' | 'now'>;

export class SeedError extends Error {}

/** Checks a data set; throws SeedError with the first problems in plain words. */
export function parseSeed(json: unknown, name = 'seed'): ParsedSeed {
  const parsed = SeedSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const lines = parsed.error.issues
    .slice(0, 8)
    .map((issue) => `  ${issue.path.join('.') || '(top level)'}: ${issue.message}${valueOf(json, issue.path)}`);
  throw new SeedError(`${name} is not a valid mock data set:\n${lines.join('\n')}`);
}

/** `, not "..."`: the offending value, so the message shows what to fix. */
function valueOf(json: unknown, path: PropertyKey[]): string {
  let v: unknown = json;
  for (const key of path) {
    if (Array.isArray(v)) v = typeof key === 'number' ? (v[key] as unknown) : undefined;
    else
      v =
        v !== null && typeof v === 'object' && typeof key === 'string'
          ? own(v as Record<string, unknown>, key)
          : undefined;
  }
  if (v === undefined || (v !== null && typeof v === 'object')) return '';
  const shown = JSON.stringify(v);
  return `, not ${shown.length > 60 ? `${shown.slice(0, 57)}...` : shown}`;
}

export function defaultSeed(): ParsedSeed {
  return parseSeed(defaultSeedJson, 'the bundled seed');
}
