/**
 * search_endpoints ranks by the docs' words (issue 31): questions written from the docs'
 * sentences, as an agent would ask them, each with the operation the docs mean; at least
 * 90% must have it among the first three.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bundledCatalog } from '../../server/src/catalogData';
import { EndpointSearch, words } from '../../server/src/mcp/search';

/** [question, endpoint id]: the question in plain words, the operation the docs mean. */
export const QUERIES: [string, string][] = [
  ['create a module item that requires a minimum score', 'module_items.create'],
  ['add a quiz to a module', 'module_items.create'],
  ['files/quota', 'files.quota'],
  ["how much of the storage quota a course's files use", 'files.quota'],
  ['list the external tools of a course', 'external_tools.list'],
  ['get a sessionless launch URL for an external tool', 'external_tools.sessionless_launch'],
  ['install an LTI tool with a consumer key and shared secret', 'external_tools.create'],
  ['create a module in a course', 'modules.create'],
  ['reset module progressions to locked and recalculate from current requirements', 'modules.relock'],
  ['rename a module or publish it', 'modules.update'],
  ['list the items of a module', 'module_items.list'],
  ['appointment groups the user can reserve or manage', 'appointment_groups.list'],
  ['the next appointment to sign up for', 'appointment_groups.next_appointment'],
  ['delete an appointment group with a cancel reason', 'appointment_groups.delete'],
  ['student group participants of an appointment group', 'appointment_groups.groups'],
  ['public url of a file for inline preview', 'files.public_url'],
  ['move a file to another folder or rename it', 'files.update'],
  ['copy a file into a folder', 'folders.copy_file'],
  ['first step of uploading a file into a folder', 'files.upload'],
  ['folders from the root folder down to a folder path', 'folders.resolve_path'],
  ['remove a folder that is not empty with force', 'folders.delete'],
  ['set usage rights of course files', 'usage_rights.set'],
  ['deactivate a custom role', 'roles.deactivate'],
  ['change the permissions of a role', 'roles.update'],
  ['active courses of the current user', 'courses.list'],
  ['submit an assignment as a student', 'submissions.create'],
  ['grade a submission or comment on it', 'submissions.update'],
  ['upload a file to a submission as a student', 'submissions.upload_file'],
  ['start a quiz-taking session', 'quiz_submissions.create'],
  ['turn in and grade a quiz submission', 'quiz_submissions.complete'],
  ['how much time is left on a quiz submission', 'quiz_submissions.time'],
  ['add a question to a quiz', 'quiz_questions.create'],
  ['dates of the gradebook history with graders and assignments', 'gradebook_history.days'],
  ['uncollated submission versions feed of the gradebook history', 'gradebook_history.feed'],
  ['reorder custom gradebook columns', 'custom_gradebook_columns.reorder'],
  ["set a student's content in a custom gradebook column", 'custom_gradebook_column_data.update'],
  ['grading periods of an account', 'grading_periods.list'],
  ['assign a peer review to a submission', 'peer_reviews.create'],
  ['create a planner note for the current user', 'planner_notes.create'],
  ['planner items of the current user with their override', 'planner_items.list'],
  ['outcome rollups of a course', 'outcome_rollups.list'],
  ['subscribe a webhook to an event type', 'webhook_subscriptions.create'],
  ['notification preference categories of a communication channel', 'notification_preferences.list_categories'],
  ['change several notification preferences at once', 'notification_preferences.update_multiple'],
  ['course change events of the audit log', 'course_audit_log.list'],
  ['report a problem as an error report', 'error_reports.create'],
  ['search valid message recipients', 'search.recipients'],
  ['courses visible in the public index', 'search.all_courses'],
  ['submissions of several students for several assignments', 'submissions.list_for_students'],
  ['delete a question of a quiz', 'quiz_questions.delete'],
];

const search = new EndpointSearch(bundledCatalog());

test('at least 40 questions, each naming a documented operation', () => {
  assert.ok(QUERIES.length >= 40);
  const ids = new Set(bundledCatalog().endpoints.map((e) => e.id));
  for (const [, id] of QUERIES) assert.ok(ids.has(id), id);
});

test('the operation the docs mean is in the first three for at least 90% of the questions', () => {
  const missed: string[] = [];
  for (const [query, id] of QUERIES) {
    const top = search.search(query, 3).map((h) => h.endpoint.id);
    if (!top.includes(id)) missed.push(`${query} -> ${top.join(', ')} (expected ${id})`);
  }
  const rate = (QUERIES.length - missed.length) / QUERIES.length;
  assert.ok(rate >= 0.9, `${Math.round(rate * 100)}% in the first three; missed:\n${missed.join('\n')}`);
});

test('a question of no documented words finds nothing; the limit holds', () => {
  assert.deepEqual(search.search('zzz qqq', 5), []);
  assert.deepEqual(search.search('', 5), []);
  assert.equal(search.search('course', 4).length, 4);
});

test('words are split, lower-cased and stemmed alike in questions and docs', () => {
  assert.deepEqual(words('ModuleItems'), words('module items'));
  assert.deepEqual(words('module_item[completion_requirement]'), words('module item completion requirements'));
  assert.deepEqual(words('__proto__ constructor'), ['proto', 'constructor']);
});
