/**
 * Every diagnostic code, once: its default severity, its title and help (SARIF rules, hovers,
 * docs/codes.md), when it is reported (the README's table), and how editors show it. The
 * `DiagnosticCode` type, the severities the checker gives, the SARIF rules of `lpreq check`,
 * the language server's tags, docs/codes.md and the README's table are all derived from this
 * table (`npm run docs` writes the two documents; a test holds them to it).
 */

export type Severity = 'error' | 'warning' | 'info';

/** How an editor shows a diagnostic beside its severity (LSP DiagnosticTag). */
export type CodeTag = 'deprecated' | 'unnecessary';

export interface CodeEntry {
  readonly severity: Severity;
  readonly title: string;
  /** What the code means, in full (SARIF, hovers, docs/codes.md). */
  readonly help: string;
  /** When it is reported, in a line (the README's table). */
  readonly when: string;
  /** The section of LPREQ-FORMAT that defines the code; lpreq's own codes have none. */
  readonly format?: string;
  /** Shown struck through (`deprecated`) or faded (`unnecessary`). */
  readonly tags?: readonly CodeTag[];
  /** Reported by `lpreq check` alone, about a file it could not read, never by the checker. */
  readonly checkOnly?: true;
  /** Reported on an environment file (by `lpreq check` and the language server), never by the checker of a request file. */
  readonly environmentFile?: true;
}

const TABLE = {
  syntax: {
    severity: 'error',
    title: 'Syntax error',
    help: 'A request line or parameter line that cannot be read. A request line is `METHOD TARGET` (GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS, upper case); a parameter line is `name = value`.',
    when: 'a request line or parameter line that cannot be read',
    format: '3',
  },
  'unknown-endpoint': {
    severity: 'error',
    title: 'Unknown endpoint',
    help: 'No documented path of the API matches the request path. Check the spelling of each segment against the documentation.',
    when: "no documented path matches (the message names the nearest documented path); a word in an id's place that is close to a literal documented there (`files/quotas`, `external_tools/sessionless-launch`) is a misspelt literal and matches none",
    format: '3',
  },
  'method-not-allowed': {
    severity: 'error',
    title: 'Method not documented for this path',
    help: 'The path is documented, but not for this HTTP method.',
    when: 'the path is documented, but not for this method',
    format: '3',
  },
  'unfilled-placeholder': {
    severity: 'error',
    title: 'Unfilled path placeholder',
    help: 'A `{name}` placeholder copied from the documentation is left in the path. Replace it with an id, a documented SIS form or a `{{variable}}`.',
    when: 'a literal `{course_id}` is left in the path',
    format: '3',
  },
  'unresolved-variable': {
    severity: 'error',
    title: 'Unresolved variable',
    help: 'A `{{name}}` is defined nowhere: not as a file variable (`@name = value`), not in http-client.env.json or http-client.private.env.json, not a system variable and not a named request. When the chosen environment lacks a name that other environments define, the message names them: choose one of those, or add the name to the chosen one.',
    when: '`{{name}}` is defined nowhere, or `{{req.response...}}` names no request above it (a request can only use the response of an earlier one)',
    format: '3',
  },
  'missing-required': {
    severity: 'error',
    title: 'Missing required parameter',
    help: 'A parameter the documentation marks Required is absent, or one that is required under a condition that holds for this request.',
    when: 'a required parameter is absent, including conditional requirements',
    format: '3',
  },
  'conflicting-parameters': {
    severity: 'error',
    title: 'Conflicting parameters',
    help: 'Parameters that the documentation says must not be sent together.',
    when: 'parameters the docs say must not be sent together',
    format: '3',
  },
  'invalid-enum': {
    severity: 'error',
    title: 'Value outside the documented set',
    help: 'The value is not one of the documented values of the parameter, or an assertion compares a documented enum field of the response with such a value (`==`, `!=`, `includes`).',
    when: 'a value outside the documented set (the closest value is suggested); in an assertion, an enum field compared with one',
    format: '3',
  },
  'invalid-type': {
    severity: 'error',
    title: 'Value of the wrong type',
    help: 'The value is not of the documented type: integer, number, boolean (true, false, 1, 0), DateTime (ISO 8601) or Date (yyyy-mm-dd, a real calendar date). In an assertion: EXPECTED cannot be a value of the field (`?? body $.position == first`, `1.5` for an integer, `null` for a field that is not nullable, `?? status == ok`), or `<`, `<=`, `>`, `>=` on a field that is not a number, integer, DateTime or Date.',
    when: 'not an integer, number, boolean, DateTime (ISO 8601) or Date (a real yyyy-mm-dd); in an assertion, an EXPECTED the field cannot hold, or `<` on what is not a number or a date',
    format: '3',
  },
  'invalid-format': {
    severity: 'error',
    title: 'Value in the wrong format',
    help: 'A documented format is not met, for example a context code that is not `<type>_<id>`, or a SIS id form the path does not accept; also a `# @timeout` or `# @connection-timeout` that is not a duration.',
    when: 'a context code that is not `<type>_<id>`; in a path, an id form the placeholder does not take (a SIS prefix of another kind, `self`, `root`, `12abc`, `abc`, an impossible date): the path still matches, so its parameters are checked',
    format: '3',
  },
  'json-body-expected': {
    severity: 'error',
    title: 'JSON body expected',
    help: 'The endpoint takes a JSON body; form parameters are not read.',
    when: 'form parameters sent to an endpoint that takes a JSON body',
    format: '3',
  },
  'unknown-parameter': {
    severity: 'warning',
    title: 'Undocumented parameter',
    help: 'The endpoint does not document this parameter; it is probably misspelt or belongs to another endpoint.',
    when: 'a parameter the endpoint does not document (the closest name is suggested)',
    format: '3',
  },
  'duplicate-parameter': {
    severity: 'warning',
    title: 'Parameter given more than once',
    help: 'A parameter that takes one value is given more than once. Only arrays (`name[]`) repeat.',
    when: 'a parameter that takes one value, given more than once',
    format: '3',
  },
  'ignored-parameter': {
    severity: 'warning',
    title: 'Parameter ignored',
    help: 'The documentation says this parameter is ignored in this combination.',
    when: 'a documented parameter the docs say is ignored in this combination',
    format: '3',
    tags: ['unnecessary'],
  },
  deprecated: {
    severity: 'warning',
    title: 'Deprecated',
    help: 'The parameter or endpoint is deprecated; the message names its successor where the documentation does.',
    when: 'a deprecated parameter or endpoint',
    format: '3',
    tags: ['deprecated'],
  },
  'invalid-assertion': {
    severity: 'error',
    title: 'Assertion that cannot be read',
    help: 'An assertion line (`?? FIELD OPERATOR [EXPECTED]`, LPREQ-FORMAT section 6) that cannot be read: an unknown field or operator, EXPECTED missing or given where none is taken, or a PATH or a regular expression that does not parse. FIELD is `status`, `duration`, `header NAME`, `body` or `body PATH`.',
    when: 'an assertion line (`?? FIELD OPERATOR [EXPECTED]`) that cannot be read: unknown field or operator, EXPECTED missing or extra, a PATH or regular expression that does not parse',
    format: '6',
  },
  'unknown-field': {
    severity: 'warning',
    title: 'Field the response does not document',
    help: 'An assertion PATH names a field the resource the endpoint returns does not document (the closest documented field is suggested), steps into a list by name or into an object by index. Not reported inside an object whose fields the documentation does not show, nor for a request that matches no documented endpoint.',
    when: 'an assertion PATH names a field the returned resource does not document (the closest field is suggested)',
    format: '6',
  },
  'scope-not-granted': {
    severity: 'warning',
    title: 'Token scope not granted',
    help: "The request needs a token scope (`url:<METHOD>|<path pattern>`, document A) that the environment's `$scopes` does not list: a token limited to that list is refused. With no environment chosen, it is reported only when every environment declares `$scopes` and none lists it. The quick fix adds the scope to the environment's `$scopes` (docs/scopes.md).",
    when: "the request needs a token scope the environment's `$scopes` does not list",
  },
  'token-in-file': {
    severity: 'warning',
    title: 'Access token in a request file',
    help: "An access token is written in the file. lpreq sends the token from the editor's secret storage or LPREQ_TOKEN; never commit it.",
    when: 'an access token written in a request file (lpreq sends it for you)',
  },
  'client-secret-in-shared-file': {
    severity: 'error',
    title: 'Client secret in the shared environment file',
    help: 'An OAuth 2.0 `"Client Secret"` (`Security.Auth`, docs/oauth2.md) is written in http-client.env.json, which the repository shares. lpreq never uses it: signing in with that configuration is refused until the secret is in http-client.private.env.json under the same key, or the shared file refers to one instead (`"{{$processEnv LMS_CLIENT_SECRET}}"`, or a variable of the private file). A secret that was committed is no longer secret: have it replaced.',
    when: 'an OAuth 2.0 client secret written in the shared http-client.env.json (it goes in the private file); reported on that file, and signing in with it is refused',
    environmentFile: true,
  },
  'unreadable-file': {
    severity: 'error',
    title: 'File that could not be checked',
    help: 'The file could not be read as a request file: it is binary, larger than 64 MB, not readable, UTF-16 without a byte order mark, or a symbolic link to nothing. It is reported at line 1; the other files are checked, and the run exits with 2.',
    when: 'a file `lpreq check` could not read (binary, over 64 MB, unreadable, a link to nothing): the run exits with 2',
    checkOnly: true,
  },
} as const satisfies Record<string, CodeEntry>;

/** Every code: the checker's and those of `lpreq check` alone. */
export type CodeName = keyof typeof TABLE;

/** The codes the checker reports. */
export type DiagnosticCode = {
  [K in CodeName]: (typeof TABLE)[K] extends { checkOnly: true } | { environmentFile: true } ? never : K;
}[CodeName];

export const CODES: Readonly<Record<CodeName, CodeEntry>> = TABLE;

/** Every code, in the order of the table (SARIF numbers its rules in this order). */
export const CODE_NAMES = Object.keys(CODES) as CodeName[];
