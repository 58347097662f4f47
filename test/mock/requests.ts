/**
 * A request to every GET endpoint of the catalog, each documented path form, with ids of the
 * bundled seed (and the queries that make a list show what it can), and creates and updates
 * of most resources, for the tests that walk every endpoint's responses.
 */
import type { Catalog } from '../../server/src/core/index';

/** Seeded ids and values for path placeholders, so that a request reaches its handler. */
export const DEFAULTS: Record<string, string> = {
  course_id: '42',
  account_id: '1',
  group_id: '60',
  user_id: '1001',
  section_id: '420',
  module_id: '7',
  quiz_id: '9',
  assignment_id: '7',
  folder_id: '301',
  dest_folder_id: '302',
  external_tool_id: '17',
  communication_channel_id: '15',
  type: 'email',
  address: 'elena.vasquez@northwind.example.edu',
  notification: 'new_announcement',
  date: '2026-09-12',
  grader_id: '7',
  submission_id: '501',
  full_path: 'handouts/week 1',
};

/** The `{id}` of each GET endpoint, and values that depend on the path form. */
function bindingsFor(id: string, template: string): Record<string, string> {
  const b: Record<string, string> = { ...DEFAULTS };
  const ids: Record<string, string> = {
    'modules.show': '7',
    'module_items.show': '31',
    'appointment_groups.show': '80',
    'appointment_groups.users': '80',
    'appointment_groups.groups': '80',
    'files.public_url': '4410',
    'files.show': '4410',
    'files.list': '301',
    'folders.list': '301',
    'folders.show': '301',
    'roles.show': '10',
    'quiz_submissions.show': '3',
    'quiz_submissions.time': '3',
    'quiz_questions.show': '101',
    'custom_gradebook_column_data.list': '70',
    'grading_periods.show': '5',
    'planner_notes.show': '120',
    'webhook_subscriptions.show': 'b1e9a1d2-0001-4c7a-9a51-5f3f0c2a0001',
  };
  if (ids[id]) b.id = ids[id];
  if (template.startsWith('/api/v1/users/')) {
    b.user_id = '7';
    if (id === 'files.show') b.id = '4414';
    if (id === 'folders.show') b.id = '310';
    if (id === 'folders.resolve_path') b.id = '7';
  }
  if (template.startsWith('/api/v1/groups/')) {
    if (id === 'files.show') b.id = '4415';
    if (id === 'folders.show') b.id = '320';
    if (id === 'folders.resolve_path') b.id = '60';
  }
  if (id === 'folders.resolve_path' && template.startsWith('/api/v1/courses/')) b.id = '42';
  if (id === 'submissions.show') b.user_id = '1001';
  if (template.startsWith('/api/v1/accounts/')) b.external_tool_id = '18';
  if (template.startsWith('/api/v1/groups/')) b.external_tool_id = '19';
  if (id === 'folders.resolve_path' && !template.startsWith('/api/v1/courses/')) b.full_path = '';
  return b;
}

function fill(template: string, b: Record<string, string>): string {
  return template
    .replace(/\{\*?(\w+)\}/g, (_, name: string) =>
      name === 'full_path'
        ? b[name].split('/').map(encodeURIComponent).join('/')
        : encodeURIComponent(b[name] ?? `missing-${name}`),
    )
    .replace(/\/$/, '');
}

const QUERIES: Record<string, string> = {
  'modules.list': '?include[]=items&include[]=content_details',
  'modules.show': '?include[]=items&include[]=content_details',
  'external_tools.sessionless_launch': '?id=17',
  'appointment_groups.list':
    '?scope=manageable&include[]=appointments&include[]=participant_count&include[]=reserved_times',
  'submissions.list_for_students': '?student_ids[]=all',
  'outcome_results.list': '?include[]=users&include[]=outcomes&include[]=alignments',
  'outcome_rollups.list': '?include[]=users&include[]=courses',
  'courses.list': '?include[]=term&include[]=sections',
};

/** `{ id, url }` of every GET endpoint's every path, but the account path of a sessionless launch (the seeded tool is a course tool). */
export function getRequests(catalog: Catalog): { id: string; returns: string | null; url: string }[] {
  const out = [];
  for (const endpoint of catalog.endpoints) {
    if (endpoint.method !== 'GET') continue;
    for (const path of endpoint.paths) {
      if (endpoint.id === 'external_tools.sessionless_launch' && path.template.includes('/accounts/')) continue;
      out.push({
        id: endpoint.id,
        returns: endpoint.returns,
        url: fill(path.template, bindingsFor(endpoint.id, path.template)) + (QUERIES[endpoint.id] ?? ''),
      });
    }
  }
  return out;
}

/** `[endpoint id, path, form]` of a create or update that the bundled seed accepts. */
export const CREATES: [string, string, Record<string, string | string[]>, unknown?][] = [
  ['modules.create', '/api/v1/courses/42/modules', { 'module[name]': 'Week 10' }],
  [
    'module_items.create',
    '/api/v1/courses/42/modules/7/items',
    {
      'module_item[type]': 'ExternalUrl',
      'module_item[title]': 'Link',
      'module_item[external_url]': 'https://example.com',
    },
  ],
  [
    'external_tools.create',
    '/api/v1/courses/42/external_tools',
    {
      name: 'Tool',
      privacy_level: 'public',
      consumer_key: 'k',
      shared_secret: 's',
      url: 'https://tool.example.com/launch',
    },
  ],
  [
    'appointment_groups.create',
    '/api/v1/appointment_groups',
    {
      'appointment_group[context_codes][]': 'course_42',
      'appointment_group[title]': 'Advising',
      'appointment_group[publish]': 'true',
    },
  ],
  ['folders.create', '/api/v1/courses/42/folders', { name: 'exams' }],
  ['folders.copy_file', '/api/v1/folders/302/copy_file', { source_file_id: '4411' }],
  ['folders.copy_folder', '/api/v1/folders/302/copy_folder', { source_folder_id: '301' }],
  [
    'roles.create',
    '/api/v1/accounts/1/roles',
    {
      label: 'Proctor',
      base_role_type: 'TaEnrollment',
      'permissions[manage_grades][explicit]': '1',
      'permissions[manage_grades][enabled]': '1',
    },
  ],
  ['quiz_submissions.create', '/api/v1/courses/42/quizzes/55/submissions', {}],
  [
    'quiz_questions.create',
    '/api/v1/courses/42/quizzes/9/questions',
    {
      'question[question_name]': 'Q',
      'question[question_type]': 'multiple_choice_question',
      'question[answers][0][answer_text]': 'A',
      'question[answers][0][answer_weight]': '100',
    },
  ],
  ['custom_gradebook_columns.create', '/api/v1/courses/42/custom_gradebook_columns', { 'column[title]': 'Attendance' }],
  ['peer_reviews.create', '/api/v1/courses/42/assignments/7/submissions/503/peer_reviews', { user_id: '1001' }],
  ['planner_notes.create', '/api/v1/planner_notes', { title: 'Prepare lab', todo_date: '2026-09-20' }],
  [
    'webhook_subscriptions.create',
    '/api/lti/subscriptions',
    {
      'submission[ContextId]': '42',
      'subscription[ContextType]': 'course',
      'subscription[EventTypes][]': 'GRADE_CHANGE',
      'subscription[Format]': 'caliper',
      'subscription[TransportMetadata][Url]': 'https://hooks.example.com/x',
      'subscription[TransportType]': 'https',
    },
  ],
  [
    'custom_gradebook_column_data.update',
    '/api/v1/courses/42/custom_gradebook_columns/70/data/1002',
    { 'column_data[content]': 'Needs follow-up' },
  ],
  [
    'grading_periods.update',
    '/api/v1/courses/42/grading_periods/5',
    {
      'grading_periods[][start_date]': '2026-08-24',
      'grading_periods[][end_date]': '2026-10-16',
      'grading_periods[][weight]': '40',
    },
  ],
];
