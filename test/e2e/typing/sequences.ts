/**
 * Typing sequences (issue 29): what a person ends up with after typing in a `.lpreq` file.
 * Each is the text and cursor (`|`) before, the keys typed and the completion items accepted,
 * and the text and cursor after. They run in code-server (test/e2e/run.ts: the real editor,
 * its snippets and auto-closing) and through a client without snippet support against the
 * language server alone (test/lsp/typing.test.ts), in a fresh repository whose environments
 * are `dev` (chosen) and `staging`.
 *
 * Steps: `type` types the text key by key; `key` presses Enter, Tab or Escape; `accept` takes
 * the completion item of that label (from the list already open, else from one asked for with
 * Ctrl+Space); `noSuggestions` says that no completion list is open (none asked for by hand).
 *
 * `plain` is the result in a client without snippets and without auto-closing where it
 * differs (its cursor ends after the inserted text, a tab stop keeps its default, `{` is one
 * character); `plain: null` marks a sequence about the editor's own typing (snippet tab stops,
 * auto-closing), which that client does not have. `failedBefore` names the item of issue 29
 * a sequence reproduced before the fix (it failed in code-server, in the client without
 * snippets, or in both, typed against this branch's base).
 */
export type TypingStep =
  { type: string } | { key: 'Enter' | 'Tab' | 'Escape' } | { accept: string } | { noSuggestions: true };

export interface TypingSequence {
  name: string;
  before: string;
  steps: TypingStep[];
  after: string;
  plain?: string | null;
  failedBefore?: 1 | 2 | 3;
}

/** The fresh repository's environments: `dev` (the one chosen) defines course_id, `staging` another. */
export const TYPING_ENVIRONMENTS = {
  shared: {
    dev: { base_url: 'http://127.0.0.1:4010', course_id: '42' },
    staging: { base_url: 'https://staging.lms.example.edu', course_id: '1042', user_id: 'self' },
  },
  private: { dev: { token: 'dev-token-not-real' }, staging: { token: 'staging-token-not-real' } },
  chosen: 'dev',
};

const ITEMS = 'POST /api/v1/courses/{{course_id}}/modules/7/items\n\n';
const QUIZ_SUBMISSION = 'PUT /api/v1/courses/{{course_id}}/quizzes/3/submissions/9\nContent-Type: application/json\n\n';
const SUBSCRIPTION = 'POST /api/lti/subscriptions\nContent-Type: application/json\n\n';
const MODULE_JSON = 'POST /api/v1/courses/{{course_id}}/modules\nContent-Type: application/json\n\n';
const MODULES = 'GET /api/v1/courses/{{course_id}}/modules\n';

export const SEQUENCES: TypingSequence[] = [
  // Paths: a placeholder whose variable is defined is filled with it; another is a tab stop.
  {
    name: 'a path whose placeholder the chosen environment defines gets {{course_id}}',
    before: 'GET |',
    steps: [{ accept: '/api/v1/courses/{course_id}/modules' }],
    after: 'GET /api/v1/courses/{{course_id}}/modules|',
    failedBefore: 1,
  },
  {
    name: 'a path with a defined and an undefined placeholder: the undefined one is a tab stop typed over',
    before: 'GET |',
    steps: [{ accept: '/api/v1/courses/{course_id}/modules/{id}' }, { type: '7' }],
    after: 'GET /api/v1/courses/{{course_id}}/modules/7|',
    plain: 'GET /api/v1/courses/{{course_id}}/modules/{id}7|',
    failedBefore: 1,
  },
  {
    name: 'typing {{ over a placeholder tab stop and picking a file variable, then Tab to the next one',
    before: '@quiz = 3\n\nGET |',
    steps: [
      { accept: '/api/v1/courses/{course_id}/quizzes/{quiz_id}/submissions/{id}' },
      { type: '{{' },
      { accept: 'quiz' },
      { key: 'Tab' },
      { type: '9' },
    ],
    after: '@quiz = 3\n\nGET /api/v1/courses/{{course_id}}/quizzes/{{quiz}}/submissions/9|',
    plain: null,
    failedBefore: 1,
  },
  {
    name: 'typing {{quiz}} by hand over a placeholder tab stop in the middle of the path',
    before: '@quiz = 3\n\nGET |',
    steps: [{ accept: '/api/v1/courses/{course_id}/quizzes/{quiz_id}/submissions' }, { type: '{{quiz}}' }],
    after: '@quiz = 3\n\nGET /api/v1/courses/{{course_id}}/quizzes/{{quiz}}|/submissions',
    plain: null,
    failedBefore: 1,
  },
  {
    name: 'typing {{ over a placeholder at the end of the line and picking the variable',
    before: '@file = 5\n\nGET /api/v1/courses/{{course_id}}/|',
    steps: [{ accept: 'files/{id}' }, { type: '{{' }, { accept: 'file' }],
    after: '@file = 5\n\nGET /api/v1/courses/{{course_id}}/files/{{file}}|',
    plain: null,
    failedBefore: 1,
  },
  {
    name: 'a file variable named as the placeholder fills it',
    before: '@user_id = self\n\nGET |',
    steps: [{ accept: '/api/v1/users/{user_id}/files/quota' }],
    after: '@user_id = self\n\nGET /api/v1/users/{{user_id}}/files/quota|',
    failedBefore: 1,
  },
  {
    name: 'a variable of another environment than the chosen one does not fill the placeholder',
    before: 'GET |',
    steps: [{ accept: '/api/v1/users/{user_id}/files/quota' }, { type: 'self' }],
    after: 'GET /api/v1/users/self|/files/quota',
    plain: 'GET /api/v1/users/{user_id}/files/quotaself|',
  },
  {
    name: 'a path segment by segment, then the variable the placeholder takes',
    before: 'GET /api/v1/cou|',
    steps: [{ accept: 'courses/' }, { accept: '{{course_id}}' }],
    after: 'GET /api/v1/courses/{{course_id}}|',
  },
  // Variables: the closing braces once, the cursor after them.
  {
    name: 'typing {{ after / and picking a variable',
    before: 'GET /api/v1/courses/|',
    steps: [{ type: '{{' }, { accept: 'course_id' }],
    after: 'GET /api/v1/courses/{{course_id}}|',
    failedBefore: 2,
  },
  {
    name: 'typing {{ before / and picking a variable',
    before: 'GET |/api/v1/courses',
    steps: [{ type: '{{' }, { accept: 'base_url' }],
    after: 'GET {{base_url}}|/api/v1/courses',
  },
  {
    name: 'GET {{, base_url, then the path typed on: it goes after the closing braces',
    before: '|',
    steps: [{ type: 'GET {{' }, { accept: 'base_url' }, { type: '/api/v1/courses' }],
    after: 'GET {{base_url}}/api/v1/courses|',
    failedBefore: 2,
  },
  {
    name: 'a variable completed inside braces already closed: the cursor goes after them',
    before: 'GET {{ba|}}/api/v1/courses',
    steps: [{ accept: 'base_url' }],
    after: 'GET {{base_url}}|/api/v1/courses',
    failedBefore: 2,
  },
  {
    name: 'one closing brace already there is reused, not doubled',
    before: 'GET {{|}',
    steps: [{ accept: 'base_url' }],
    after: 'GET {{base_url}}|',
    failedBefore: 2,
  },
  {
    name: 'a variable in a header value',
    before: `${MODULES}Authorization: Bearer |`,
    steps: [{ type: '{{' }, { accept: 'token' }],
    after: `${MODULES}Authorization: Bearer {{token}}|`,
    failedBefore: 2,
  },
  {
    name: 'a system variable in a query value',
    before: 'GET /api/v1/courses?search_term=|',
    steps: [{ type: '{{$g' }, { accept: '$guid' }],
    after: 'GET /api/v1/courses?search_term={{$guid}}|',
    failedBefore: 2,
  },
  {
    name: "a named request's response: the cursor waits in the path, before the braces",
    before:
      '# @name make\nPOST /api/v1/courses/{{course_id}}/modules\n\n###\nGET /api/v1/courses/{{course_id}}/modules/|',
    steps: [{ type: '{{' }, { accept: 'make.response.body.$.' }, { type: 'id' }],
    after:
      '# @name make\nPOST /api/v1/courses/{{course_id}}/modules\n\n###\nGET /api/v1/courses/{{course_id}}/modules/{{make.response.body.$.id|}}',
    plain:
      '# @name make\nPOST /api/v1/courses/{{course_id}}/modules\n\n###\nGET /api/v1/courses/{{course_id}}/modules/{{make.response.body.$.}}id|',
  },
  {
    name: 'a variable inside a JSON string',
    before: `${SUBSCRIPTION}{"subscription": {"ContextId": "|"}}`,
    steps: [{ type: '{{' }, { accept: 'course_id' }],
    after: `${SUBSCRIPTION}{"subscription": {"ContextId": "{{course_id}}|"}}`,
  },
  // Parameters and their values: `name = value`, the same with and without snippets.
  {
    name: 'a parameter name, then its enum value',
    before: `${ITEMS}module_item[ty|`,
    steps: [{ accept: 'module_item[type]' }, { accept: 'Assignment' }],
    after: `${ITEMS}module_item[type] = Assignment|`,
  },
  {
    name: 'a nested bracket name level by level, then its value',
    before: `${ITEMS}module_item[|`,
    steps: [
      { accept: 'module_item[completion_requirement][' },
      { accept: 'module_item[completion_requirement][type]' },
      { accept: 'must_submit' },
    ],
    after: `${ITEMS}module_item[completion_requirement][type] = must_submit|`,
  },
  {
    name: 'an enum value right after = gets its space',
    before: `${ITEMS}module_item[type] =|`,
    steps: [{ accept: 'Assignment' }],
    after: `${ITEMS}module_item[type] = Assignment|`,
    failedBefore: 1,
  },
  {
    name: 'an enum value typed over replaces the whole value',
    before: `${ITEMS}module_item[type] = Assig|nmnet`,
    steps: [{ accept: 'Assignment' }],
    after: `${ITEMS}module_item[type] = Assignment|`,
  },
  {
    name: 'a parameter name before an = already written keeps the value',
    before: `${ITEMS}module_item[tit| = Week 1`,
    steps: [{ accept: 'module_item[title]' }],
    after: `${ITEMS}module_item[title]| = Week 1`,
  },
  {
    name: 'a query parameter and its value, then a second one after &',
    before: 'GET /api/v1/courses/{{course_id}}/files?|',
    steps: [{ accept: 'sort' }, { accept: 'size' }, { type: '&' }, { accept: 'order' }, { accept: 'desc' }],
    after: 'GET /api/v1/courses/{{course_id}}/files?sort=size&order=desc|',
  },
  // JSON bodies: `{`, `[` and Enter as in a JSON file; keys and values from the documentation.
  {
    name: '{ then Enter at the start of a JSON body opens an object on its own lines',
    before: `${QUIZ_SUBMISSION}|`,
    steps: [{ type: '{' }, { key: 'Enter' }],
    after: `${QUIZ_SUBMISSION}{\n  |\n}`,
    plain: `${QUIZ_SUBMISSION}{\n|`,
    failedBefore: 3,
  },
  {
    name: '[ then Enter inside the body opens an array on its own lines',
    before: `${QUIZ_SUBMISSION}{\n  "quiz_submissions": |\n}`,
    steps: [{ type: '[' }, { key: 'Enter' }],
    after: `${QUIZ_SUBMISSION}{\n  "quiz_submissions": [\n    |\n  ]\n}`,
    plain: `${QUIZ_SUBMISSION}{\n  "quiz_submissions": [\n  |\n}`,
  },
  {
    name: 'a documented key typed in quotes, with its value to fill',
    before: `${QUIZ_SUBMISSION}{\n  |\n}`,
    steps: [{ type: '"q' }, { accept: 'quiz_submissions' }],
    after: `${QUIZ_SUBMISSION}{\n  "quiz_submissions": [|]\n}`,
    plain: `${QUIZ_SUBMISSION}{\n  "quiz_submissions": []|\n}`,
  },
  {
    name: 'an object in an array: { and Enter, then a documented key',
    before: `${QUIZ_SUBMISSION}{\n  "quiz_submissions": [|]\n}`,
    steps: [{ type: '{' }, { key: 'Enter' }, { type: '"at' }, { accept: 'attempt' }, { type: '1' }],
    after: `${QUIZ_SUBMISSION}{\n  "quiz_submissions": [{\n    "attempt": 1|\n  }]\n}`,
    plain: `${QUIZ_SUBMISSION}{\n  "quiz_submissions": [{\n  "attempt": 1|]\n}`,
    failedBefore: 3,
  },
  {
    name: "a form endpoint's JSON body: the enum values of a key",
    before: `${ITEMS.replace('\n\n', '\nContent-Type: application/json\n\n')}{"module_item": {"type": "|"}}`,
    steps: [{ accept: '"Assignment"' }],
    after: `${ITEMS.replace('\n\n', '\nContent-Type: application/json\n\n')}{"module_item": {"type": "Assignment"|}}`,
  },
  {
    name: 'inside an array of enum values: the documented values, no words of the document',
    before: `${SUBSCRIPTION}{"subscription": {"EventTypes": [|]}}`,
    steps: [{ type: '"GRA' }, { accept: '"GRADE_CHANGE"' }],
    after: `${SUBSCRIPTION}{"subscription": {"EventTypes": ["GRADE_CHANGE"|]}}`,
    failedBefore: 3,
  },
  {
    name: 'inside an array of strings without documented values nothing is suggested, no words of the document',
    before: `### hand over\n${MODULE_JSON}{"module": {"prerequisite_module_ids": ["12", |]}}`,
    steps: [{ type: '"a' }, { noSuggestions: true }],
    after: `### hand over\n${MODULE_JSON}{"module": {"prerequisite_module_ids": ["12", "a|"]}}`,
    plain: `### hand over\n${MODULE_JSON}{"module": {"prerequisite_module_ids": ["12", "a|]}}`,
    failedBefore: 3,
  },
  {
    name: "a space and Enter where a body starts: the documented body's skeleton is not taken",
    before: `${QUIZ_SUBMISSION}|`,
    steps: [{ type: ' ' }, { key: 'Enter' }],
    after: `${QUIZ_SUBMISSION} \n|`,
    plain: `${QUIZ_SUBMISSION} \n |`,
    failedBefore: 3,
  },
  {
    name: "the documented body's skeleton where the body starts, when asked for",
    before: `${QUIZ_SUBMISSION}|`,
    steps: [{ accept: 'JSON body' }, { type: '1' }],
    after: `${QUIZ_SUBMISSION}{\n  "quiz_submissions": [\n    {\n      "attempt": 1|\n    }\n  ]\n}`,
    plain: `${QUIZ_SUBMISSION}{\n  "quiz_submissions": [\n    {\n      "attempt": \n    }\n  ]\n}1|`,
    failedBefore: 3,
  },
  // Headers, assertions, metadata, methods.
  {
    name: 'a header name, then its value',
    before: `${MODULES}Acc|`,
    steps: [{ accept: 'Accept' }, { accept: 'application/json' }],
    after: `${MODULES}Accept: application/json|`,
  },
  {
    name: 'an assertion on a response field, its operator and value',
    before: `${MODULES}\n?? body $[0].|`,
    steps: [{ accept: 'workflow_state' }, { type: ' ' }, { accept: '==' }, { accept: 'active' }],
    after: `${MODULES}\n?? body $[0].workflow_state == active|`,
  },
  {
    name: 'an assertion on the status',
    before: `${MODULES}\n?? |`,
    steps: [{ accept: 'status' }, { accept: '==' }, { type: '200' }],
    after: `${MODULES}\n?? status == 200|`,
  },
  {
    name: '# @name with its value typed over',
    before: `# @na|\n${MODULES}`,
    steps: [{ accept: '@name' }, { type: 'listModules' }],
    after: `# @name listModules|\n${MODULES}`,
    plain: `# @name requestlistModules|\n${MODULES}`,
  },
  {
    name: 'a metadata line without a value',
    before: `# @no-r|\n${MODULES}`,
    steps: [{ accept: '@no-redirect' }],
    after: `# @no-redirect|\n${MODULES}`,
  },
  {
    name: 'a method, then a path',
    before: 'P|',
    steps: [{ accept: 'POST' }, { accept: '/api/v1/courses/{course_id}/modules' }],
    after: 'POST /api/v1/courses/{{course_id}}/modules|',
    failedBefore: 1,
  },
];
