/**
 * The token scopes of examples/, written by hand: each request line of the examples, read with
 * its method and path, and the documented path it names found in documents A, B and C, written
 * as document A says a scope is written (`url:<METHOD>|<path pattern>`, convention 8; the path
 * pattern as the docs write paths, from /api/v1 with `{name}` placeholders, convention 1). The
 * docs' tables give a prefix ("All paths start with ...") and the rest of each path; both are
 * copied from the docs below. Nothing here is computed by lpreq.
 */

// Document A, "Modules": All paths start with `/api/v1/courses/{course_id}`.
const MODULES = '/api/v1/courses/{course_id}/modules';
// Document A, "Roles": All under `/api/v1/accounts/{account_id}/roles`.
const ROLES = '/api/v1/accounts/{account_id}/roles';
// Document B, "Quiz submissions": All paths start with `/api/v1/courses/{course_id}/quizzes/{quiz_id}`.
const QUIZ = '/api/v1/courses/{course_id}/quizzes/{quiz_id}';
// Document B, "Quiz questions": Paths start with `/api/v1/courses/{course_id}/quizzes/{quiz_id}/questions`.
const QUESTIONS = '/api/v1/courses/{course_id}/quizzes/{quiz_id}/questions';
// Document B, "Gradebook history": Paths start with `/api/v1/courses/{course_id}/gradebook_history`.
const HISTORY = '/api/v1/courses/{course_id}/gradebook_history';
// Document B, "Custom gradebook columns": Paths start with `/api/v1/courses/{course_id}/custom_gradebook_columns`.
const COLUMNS = '/api/v1/courses/{course_id}/custom_gradebook_columns';
// Document C, "Notification preferences": the GET paths name {user_id}, the PUT paths `self`.
const CHANNEL = '/api/v1/users/{user_id}/communication_channels';
const MY_CHANNEL = '/api/v1/users/self/communication_channels';

/** `file:line` of each request line of examples/, and the scope its request needs. */
export const EXAMPLE_SCOPES: [string, string][] = [
  // Document A, "Appointment groups".
  ['appointment-groups.lpreq:6', 'url:GET|/api/v1/appointment_groups'],
  ['appointment-groups.lpreq:12', 'url:GET|/api/v1/appointment_groups'],
  ['appointment-groups.lpreq:27', 'url:POST|/api/v1/appointment_groups'],
  ['appointment-groups.lpreq:53', 'url:POST|/api/v1/appointment_groups'],
  ['appointment-groups.lpreq:70', 'url:GET|/api/v1/appointment_groups/{id}'],
  ['appointment-groups.lpreq:78', 'url:PUT|/api/v1/appointment_groups/{id}'],
  ['appointment-groups.lpreq:89', 'url:GET|/api/v1/appointment_groups/{id}/users'],
  ['appointment-groups.lpreq:94', 'url:GET|/api/v1/appointment_groups/{id}/groups'],
  ['appointment-groups.lpreq:99', 'url:GET|/api/v1/appointment_groups/next_appointment'],
  ['appointment-groups.lpreq:108', 'url:DELETE|/api/v1/appointment_groups/{id}'],
  // Document B, "Courses" (`/users/self/courses` is `{user_id}` = self); document C, "Course audit log".
  ['courses.lpreq:5', 'url:GET|/api/v1/courses'],
  ['courses.lpreq:18', 'url:GET|/api/v1/courses'],
  ['courses.lpreq:29', 'url:GET|/api/v1/courses'],
  ['courses.lpreq:42', 'url:GET|/api/v1/courses'],
  ['courses.lpreq:51', 'url:GET|/api/v1/courses'],
  ['courses.lpreq:58', 'url:GET|/api/v1/users/{user_id}/courses'],
  ['courses.lpreq:66', 'url:GET|/api/v1/users/{user_id}/courses'],
  ['courses.lpreq:69', 'url:GET|/api/v1/audit/course/courses/{course_id}'],
  // Document A, "External tools".
  ['external-tools.lpreq:6', 'url:GET|/api/v1/courses/{course_id}/external_tools'],
  ['external-tools.lpreq:14', 'url:GET|/api/v1/accounts/{account_id}/external_tools'],
  ['external-tools.lpreq:19', 'url:GET|/api/v1/groups/{group_id}/external_tools'],
  ['external-tools.lpreq:22', 'url:GET|/api/v1/courses/{course_id}/external_tools/{external_tool_id}'],
  ['external-tools.lpreq:29', 'url:POST|/api/v1/courses/{course_id}/external_tools'],
  ['external-tools.lpreq:59', 'url:GET|/api/v1/courses/{course_id}/external_tools/sessionless_launch'],
  ['external-tools.lpreq:68', 'url:POST|/api/v1/courses/{course_id}/external_tools'],
  ['external-tools.lpreq:82', 'url:POST|/api/v1/accounts/{account_id}/external_tools'],
  ['external-tools.lpreq:94', 'url:POST|/api/v1/accounts/{account_id}/external_tools'],
  ['external-tools.lpreq:119', 'url:GET|/api/v1/accounts/{account_id}/external_tools/sessionless_launch'],
  ['external-tools.lpreq:122', 'url:GET|/api/v1/courses/{course_id}/external_tools/sessionless_launch'],
  ['external-tools.lpreq:128', 'url:GET|/api/v1/courses/{course_id}/external_tools/sessionless_launch'],
  // Document A, "Modules".
  ['failing-assertions.lpreq:11', `url:GET|${MODULES}/{id}`],
  ['failing-assertions.lpreq:19', `url:GET|${MODULES}/{id}`],
  // Document A, "Files and folders" (`root` is a folder {id}; by_path takes the rest of the path as {full_path}).
  ['files-and-folders.lpreq:7', 'url:GET|/api/v1/courses/{course_id}/files/quota'],
  ['files-and-folders.lpreq:13', 'url:GET|/api/v1/users/{user_id}/files/quota'],
  ['files-and-folders.lpreq:17', 'url:GET|/api/v1/courses/{course_id}/files'],
  ['files-and-folders.lpreq:26', 'url:GET|/api/v1/courses/{course_id}/files'],
  ['files-and-folders.lpreq:33', 'url:GET|/api/v1/folders/{id}/files'],
  ['files-and-folders.lpreq:39', 'url:GET|/api/v1/groups/{group_id}/files'],
  ['files-and-folders.lpreq:42', 'url:GET|/api/v1/courses/{course_id}/folders/{id}'],
  ['files-and-folders.lpreq:48', 'url:GET|/api/v1/users/{user_id}/folders/{id}'],
  ['files-and-folders.lpreq:51', 'url:GET|/api/v1/courses/{id}/folders/by_path/{full_path}'],
  ['files-and-folders.lpreq:57', 'url:GET|/api/v1/groups/{id}/folders/by_path'],
  ['files-and-folders.lpreq:62', 'url:GET|/api/v1/courses/{course_id}/folders'],
  ['files-and-folders.lpreq:65', 'url:GET|/api/v1/folders/{id}/folders'],
  ['files-and-folders.lpreq:70', 'url:POST|/api/v1/courses/{course_id}/folders'],
  ['files-and-folders.lpreq:81', 'url:POST|/api/v1/folders/{folder_id}/folders'],
  ['files-and-folders.lpreq:92', 'url:POST|/api/v1/courses/{course_id}/folders'],
  ['files-and-folders.lpreq:104', 'url:PUT|/api/v1/folders/{id}'],
  ['files-and-folders.lpreq:114', 'url:GET|/api/v1/courses/{course_id}/files/{id}'],
  ['files-and-folders.lpreq:120', 'url:GET|/api/v1/files/{id}/public_url'],
  ['files-and-folders.lpreq:126', 'url:PUT|/api/v1/files/{id}'],
  ['files-and-folders.lpreq:136', 'url:PUT|/api/v1/files/{id}'],
  ['files-and-folders.lpreq:145', 'url:POST|/api/v1/folders/{dest_folder_id}/copy_file'],
  ['files-and-folders.lpreq:153', 'url:POST|/api/v1/folders/{dest_folder_id}/copy_folder'],
  ['files-and-folders.lpreq:158', 'url:DELETE|/api/v1/files/{id}'],
  ['files-and-folders.lpreq:161', 'url:DELETE|/api/v1/folders/{id}'],
  // Document B, "Gradebook history", "Custom gradebook columns", "Grading periods".
  ['gradebook.lpreq:6', `url:GET|${HISTORY}/days`],
  ['gradebook.lpreq:11', `url:GET|${HISTORY}/{date}`],
  ['gradebook.lpreq:14', `url:GET|${HISTORY}/{date}/graders/{grader_id}/assignments/{assignment_id}/submissions`],
  ['gradebook.lpreq:17', `url:GET|${HISTORY}/feed`],
  ['gradebook.lpreq:26', `url:GET|${COLUMNS}`],
  ['gradebook.lpreq:32', `url:POST|${COLUMNS}`],
  ['gradebook.lpreq:45', `url:POST|${COLUMNS}`],
  ['gradebook.lpreq:51', `url:PUT|${COLUMNS}/{id}`],
  ['gradebook.lpreq:61', `url:POST|${COLUMNS}/reorder`],
  ['gradebook.lpreq:67', `url:PUT|${COLUMNS}/{id}/data/{user_id}`],
  ['gradebook.lpreq:74', `url:PUT|${COLUMNS}/{id}/data/{user_id}`],
  ['gradebook.lpreq:79', `url:GET|${COLUMNS}/{id}/data`],
  ['gradebook.lpreq:87', `url:DELETE|${COLUMNS}/{id}`],
  ['gradebook.lpreq:92', 'url:GET|/api/v1/accounts/{account_id}/grading_periods'],
  ['gradebook.lpreq:95', 'url:GET|/api/v1/courses/{course_id}/grading_periods'],
  ['gradebook.lpreq:100', 'url:GET|/api/v1/courses/{course_id}/grading_periods/{id}'],
  ['gradebook.lpreq:103', 'url:PUT|/api/v1/courses/{course_id}/grading_periods/{id}'],
  ['gradebook.lpreq:113', 'url:DELETE|/api/v1/courses/{course_id}/grading_periods/{id}'],
  ['gradebook.lpreq:118', 'url:DELETE|/api/v1/accounts/{account_id}/grading_periods/{id}'],
  // Mistakes, each on its documented path but the two that have none (MISTAKES_UNKNOWN).
  ['mistakes.lpreq:9', `url:POST|${MODULES}/{module_id}/items`],
  ['mistakes.lpreq:18', 'url:POST|/api/v1/planner_notes'],
  ['mistakes.lpreq:28', 'url:GET|/api/v1/courses/{course_id}/files'],
  ['mistakes.lpreq:35', 'url:POST|/api/v1/courses/{course_id}/folders'],
  ['mistakes.lpreq:44', `url:POST|${ROLES}`],
  ['mistakes.lpreq:53', 'url:POST|/api/v1/courses/{course_id}/assignments/{assignment_id}/submissions'],
  ['mistakes.lpreq:62', 'url:PUT|/api/v1/courses/{course_id}/grading_periods/{id}'],
  ['mistakes.lpreq:71', `url:POST|${MODULES}`],
  ['mistakes.lpreq:79', 'url:POST|/api/v1/appointment_groups'],
  ['mistakes.lpreq:99', `url:GET|${MODULES}`],
  ['mistakes.lpreq:104', `url:GET|${COLUMNS}`],
  ['mistakes.lpreq:109', `url:PUT|${QUIZ}/submissions/{id}`],
  // Document C, "Search": the deprecated path has a scope of its own.
  ['mistakes.lpreq:117', 'url:GET|/api/v1/conversations/find_recipients'],
  // Document A, "Modules".
  ['modules-and-items.lpreq:12', `url:GET|${MODULES}`],
  ['modules-and-items.lpreq:23', `url:GET|${MODULES}`],
  ['modules-and-items.lpreq:32', `url:GET|${MODULES}`],
  ['modules-and-items.lpreq:42', `url:GET|${MODULES}/{id}`],
  ['modules-and-items.lpreq:55', `url:POST|${MODULES}`],
  ['modules-and-items.lpreq:76', `url:POST|${MODULES}/{module_id}/items`],
  ['modules-and-items.lpreq:91', `url:POST|${MODULES}/{module_id}/items`],
  ['modules-and-items.lpreq:103', `url:POST|${MODULES}/{module_id}/items`],
  ['modules-and-items.lpreq:114', `url:POST|${MODULES}/{module_id}/items`],
  ['modules-and-items.lpreq:124', `url:POST|${MODULES}/{module_id}/items`],
  ['modules-and-items.lpreq:131', `url:POST|${MODULES}/{module_id}/items`],
  ['modules-and-items.lpreq:141', `url:POST|${MODULES}/{module_id}/items`],
  ['modules-and-items.lpreq:151', `url:POST|${MODULES}/{module_id}/items`],
  ['modules-and-items.lpreq:163', `url:GET|${MODULES}/{module_id}/items`],
  ['modules-and-items.lpreq:173', `url:GET|${MODULES}/{module_id}/items/{id}`],
  ['modules-and-items.lpreq:179', `url:PUT|${MODULES}/{module_id}/items/{id}`],
  ['modules-and-items.lpreq:194', `url:PUT|${MODULES}/{id}`],
  ['modules-and-items.lpreq:204', `url:PUT|${MODULES}/{id}`],
  ['modules-and-items.lpreq:212', `url:PUT|${MODULES}/{id}/relock`],
  ['modules-and-items.lpreq:215', `url:DELETE|${MODULES}/{id}`],
  // Document C, "Notification preferences" (an e-mail address is the type/address form).
  ['notification-preferences.lpreq:7', `url:GET|${CHANNEL}/{communication_channel_id}/notification_preferences`],
  ['notification-preferences.lpreq:12', `url:GET|${CHANNEL}/{type}/{address}/notification_preferences`],
  [
    'notification-preferences.lpreq:15',
    `url:GET|${CHANNEL}/{communication_channel_id}/notification_preference_categories`,
  ],
  [
    'notification-preferences.lpreq:19',
    `url:GET|${CHANNEL}/{communication_channel_id}/notification_preferences/{notification}`,
  ],
  [
    'notification-preferences.lpreq:24',
    `url:PUT|${MY_CHANNEL}/{communication_channel_id}/notification_preferences/{notification}`,
  ],
  [
    'notification-preferences.lpreq:31',
    `url:PUT|${MY_CHANNEL}/{type}/{address}/notification_preferences/{notification}`,
  ],
  [
    'notification-preferences.lpreq:36',
    `url:PUT|${MY_CHANNEL}/{communication_channel_id}/notification_preference_categories/{category}`,
  ],
  ['notification-preferences.lpreq:41', `url:PUT|${MY_CHANNEL}/{communication_channel_id}/notification_preferences`],
  // Document C, "Outcome results".
  ['outcomes.lpreq:6', 'url:GET|/api/v1/courses/{course_id}/outcome_results'],
  ['outcomes.lpreq:19', 'url:GET|/api/v1/courses/{course_id}/outcome_results'],
  ['outcomes.lpreq:25', 'url:GET|/api/v1/courses/{course_id}/outcome_rollups'],
  ['outcomes.lpreq:35', 'url:GET|/api/v1/courses/{course_id}/outcome_rollups'],
  ['outcomes.lpreq:43', 'url:GET|/api/v1/courses/{course_id}/outcome_rollups'],
  // Document B, "Peer reviews": under /api/v1/courses/{course_id} and /api/v1/sections/{section_id}.
  ['peer-reviews.lpreq:6', 'url:GET|/api/v1/courses/{course_id}/assignments/{assignment_id}/peer_reviews'],
  [
    'peer-reviews.lpreq:16',
    'url:GET|/api/v1/courses/{course_id}/assignments/{assignment_id}/submissions/{submission_id}/peer_reviews',
  ],
  ['peer-reviews.lpreq:19', 'url:GET|/api/v1/sections/{section_id}/assignments/{assignment_id}/peer_reviews'],
  [
    'peer-reviews.lpreq:22',
    'url:POST|/api/v1/courses/{course_id}/assignments/{assignment_id}/submissions/{submission_id}/peer_reviews',
  ],
  [
    'peer-reviews.lpreq:30',
    'url:POST|/api/v1/sections/{section_id}/assignments/{assignment_id}/submissions/{submission_id}/peer_reviews',
  ],
  [
    'peer-reviews.lpreq:37',
    'url:DELETE|/api/v1/courses/{course_id}/assignments/{assignment_id}/submissions/{submission_id}/peer_reviews',
  ],
  // Document C, "Planner notes", "Planner items".
  ['planner.lpreq:6', 'url:GET|/api/v1/planner_notes'],
  ['planner.lpreq:17', 'url:GET|/api/v1/planner_notes'],
  ['planner.lpreq:24', 'url:POST|/api/v1/planner_notes'],
  ['planner.lpreq:40', 'url:POST|/api/v1/planner_notes'],
  ['planner.lpreq:51', 'url:POST|/api/v1/planner_notes'],
  ['planner.lpreq:59', 'url:GET|/api/v1/planner_notes/{id}'],
  ['planner.lpreq:63', 'url:PUT|/api/v1/planner_notes/{id}'],
  ['planner.lpreq:72', 'url:PUT|/api/v1/planner_notes/{id}'],
  ['planner.lpreq:79', 'url:DELETE|/api/v1/planner_notes/{id}'],
  ['planner.lpreq:83', 'url:GET|/api/v1/planner/items'],
  ['planner.lpreq:91', 'url:GET|/api/v1/planner/items'],
  // Document B, "Quiz questions".
  ['quiz-questions.lpreq:6', `url:GET|${QUESTIONS}`],
  ['quiz-questions.lpreq:12', `url:GET|${QUESTIONS}`],
  ['quiz-questions.lpreq:16', `url:GET|${QUESTIONS}/{id}`],
  ['quiz-questions.lpreq:22', `url:POST|${QUESTIONS}`],
  ['quiz-questions.lpreq:44', `url:POST|${QUESTIONS}`],
  ['quiz-questions.lpreq:60', `url:POST|${QUESTIONS}`],
  ['quiz-questions.lpreq:73', `url:POST|${QUESTIONS}`],
  ['quiz-questions.lpreq:89', `url:POST|${QUESTIONS}`],
  ['quiz-questions.lpreq:101', `url:POST|${QUESTIONS}`],
  ['quiz-questions.lpreq:114', `url:PUT|${QUESTIONS}/{id}`],
  ['quiz-questions.lpreq:123', `url:DELETE|${QUESTIONS}/{id}`],
  // Document B, "Quiz submissions".
  ['quiz-submissions.lpreq:7', `url:GET|${QUIZ}/submissions`],
  ['quiz-submissions.lpreq:16', `url:GET|${QUIZ}/submission`],
  ['quiz-submissions.lpreq:21', `url:POST|${QUIZ}/submissions`],
  ['quiz-submissions.lpreq:29', `url:POST|${QUIZ}/submissions`],
  ['quiz-submissions.lpreq:37', `url:GET|${QUIZ}/submissions/{id}`],
  ['quiz-submissions.lpreq:40', `url:GET|${QUIZ}/submissions/{id}/time`],
  ['quiz-submissions.lpreq:45', `url:POST|${QUIZ}/submissions/{id}/complete`],
  ['quiz-submissions.lpreq:56', `url:PUT|${QUIZ}/submissions/{id}`],
  ['quiz-submissions.lpreq:76', `url:PUT|${QUIZ}/submissions/{id}`],
  // Document A, "Roles" (a role name such as StudentEnrollment stands for {id}).
  ['roles.lpreq:7', `url:GET|${ROLES}`],
  ['roles.lpreq:15', `url:GET|${ROLES}/{id}`],
  ['roles.lpreq:20', `url:POST|${ROLES}`],
  ['roles.lpreq:38', `url:POST|${ROLES}`],
  ['roles.lpreq:54', `url:POST|${ROLES}`],
  ['roles.lpreq:63', `url:PUT|${ROLES}/{id}`],
  ['roles.lpreq:73', `url:PUT|${ROLES}/{id}`],
  ['roles.lpreq:81', `url:DELETE|${ROLES}/{id}`],
  ['roles.lpreq:85', `url:POST|${ROLES}/{id}/activate`],
  // Document C, "Search" and "Error reports".
  ['search.lpreq:7', 'url:GET|/api/v1/search/recipients'],
  ['search.lpreq:13', 'url:GET|/api/v1/search/recipients'],
  ['search.lpreq:25', 'url:GET|/api/v1/search/recipients'],
  ['search.lpreq:33', 'url:GET|/api/v1/search/recipients'],
  ['search.lpreq:37', 'url:GET|/api/v1/search/all_courses'],
  ['search.lpreq:45', 'url:POST|/api/v1/error_reports'],
  ['search.lpreq:55', 'url:POST|/api/v1/error_reports'],
  // Document B, "Assignment submissions": under /api/v1/courses/{course_id} and /api/v1/sections/{section_id}.
  ['submissions.lpreq:10', 'url:POST|/api/v1/courses/{course_id}/assignments/{assignment_id}/submissions'],
  ['submissions.lpreq:22', 'url:POST|/api/v1/sections/{section_id}/assignments/{assignment_id}/submissions'],
  ['submissions.lpreq:33', 'url:POST|/api/v1/courses/{course_id}/assignments/{assignment_id}/submissions'],
  ['submissions.lpreq:43', 'url:POST|/api/v1/courses/{course_id}/assignments/{assignment_id}/submissions'],
  ['submissions.lpreq:51', 'url:POST|/api/v1/courses/{course_id}/assignments/{assignment_id}/submissions'],
  ['submissions.lpreq:58', 'url:GET|/api/v1/courses/{course_id}/assignments/{assignment_id}/submissions'],
  ['submissions.lpreq:68', 'url:GET|/api/v1/courses/{course_id}/assignments/{assignment_id}/submissions'],
  ['submissions.lpreq:71', 'url:GET|/api/v1/courses/{course_id}/students/submissions'],
  ['submissions.lpreq:84', 'url:GET|/api/v1/courses/{course_id}/students/submissions'],
  ['submissions.lpreq:94', 'url:GET|/api/v1/sections/{section_id}/students/submissions'],
  ['submissions.lpreq:101', 'url:GET|/api/v1/courses/{course_id}/assignments/{assignment_id}/submissions/{user_id}'],
  ['submissions.lpreq:112', 'url:PUT|/api/v1/courses/{course_id}/assignments/{assignment_id}/submissions/{user_id}'],
  ['submissions.lpreq:121', 'url:PUT|/api/v1/courses/{course_id}/assignments/{assignment_id}/submissions/{user_id}'],
  ['submissions.lpreq:128', 'url:PUT|/api/v1/sections/{section_id}/assignments/{assignment_id}/submissions/{user_id}'],
  ['submissions.lpreq:135', 'url:PUT|/api/v1/courses/{course_id}/assignments/{assignment_id}/submissions/{user_id}'],
  // Document C, "Webhook subscriptions": under /api/lti/subscriptions.
  ['webhooks.lpreq:8', 'url:POST|/api/lti/subscriptions'],
  ['webhooks.lpreq:24', 'url:POST|/api/lti/subscriptions'],
  ['webhooks.lpreq:38', 'url:GET|/api/lti/subscriptions'],
  ['webhooks.lpreq:47', 'url:GET|/api/lti/subscriptions'],
  ['webhooks.lpreq:55', 'url:GET|/api/lti/subscriptions'],
  ['webhooks.lpreq:59', 'url:GET|/api/lti/subscriptions'],
  ['webhooks.lpreq:63', 'url:GET|/api/lti/subscriptions/{id}'],
  ['webhooks.lpreq:67', 'url:PUT|/api/lti/subscriptions/{id}'],
  ['webhooks.lpreq:81', 'url:DELETE|/api/lti/subscriptions/{id}'],
];

/**
 * The two requests of mistakes.lpreq whose scope is unknown: a misspelt path (no documented
 * endpoint), and PUT on an external tool (document A: "Update and delete of external tools: not shown").
 */
export const EXAMPLE_UNKNOWN = ['mistakes.lpreq:87', 'mistakes.lpreq:92'];
