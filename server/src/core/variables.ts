/** Variables of LPREQ-FORMAT section 4: system variables and request references. */

/** System variables of REST Client and the JetBrains HTTP client, with a one-line description. */
export const SYSTEM_VARIABLES: { name: string; insert: string; description: string }[] = [
  { name: '$guid', insert: '$guid', description: 'A new RFC 4122 v4 UUID (REST Client)' },
  { name: '$uuid', insert: '$uuid', description: 'A new v4 UUID (JetBrains)' },
  { name: '$random.uuid', insert: '$random.uuid', description: 'A new v4 UUID (JetBrains)' },
  {
    name: '$timestamp',
    insert: '$timestamp',
    description: 'The current UTC Unix timestamp in seconds; `$timestamp -1 d` offsets it',
  },
  { name: '$isoTimestamp', insert: '$isoTimestamp', description: 'The current UTC time, ISO 8601 (JetBrains)' },
  {
    name: '$datetime',
    insert: '$datetime iso8601',
    description:
      'The current time as `rfc1123`, `iso8601` or a custom format; an offset may follow (`$datetime iso8601 1 d`)',
  },
  {
    name: '$localDatetime',
    insert: '$localDatetime iso8601',
    description: 'The current local time, formatted like $datetime',
  },
  {
    name: '$randomInt',
    insert: '$randomInt 1 100',
    description: 'A random integer between min (inclusive) and max (exclusive)',
  },
  { name: '$random.integer', insert: '$random.integer(1, 100)', description: 'A random integer (JetBrains)' },
  {
    name: '$processEnv',
    insert: '$processEnv NAME',
    description: 'The value of an environment variable of the process',
  },
  { name: '$dotenv', insert: '$dotenv NAME', description: 'A value from the .env file beside the request file' },
  {
    name: '$env.',
    insert: '$env.NAME',
    description: 'The value of an environment variable of the process (JetBrains)',
  },
  {
    name: '$aadToken',
    insert: '$aadToken',
    description:
      'An Azure Active Directory token (REST Client); lpreq does not sign in to Azure AD, so it cannot send one',
  },
  {
    name: '$aadV2Token',
    insert: '$aadV2Token',
    description:
      'A Microsoft identity platform token (REST Client); lpreq does not sign in to it, so it cannot send one',
  },
  {
    name: '$oidcAccessToken',
    insert: '$oidcAccessToken',
    description: 'An OpenID Connect access token (REST Client); lpreq does not sign in, so it cannot send one',
  },
  {
    name: '$exampleServer',
    insert: '$exampleServer',
    description: "The JetBrains client's example server; lpreq does not provide it",
  },
  {
    name: '$auth.token',
    insert: '$auth.token("name")',
    description:
      "The OAuth 2.0 access token of the environment's Security.Auth configuration of that name (JetBrains' shape): lpreq signs in when needed and sends it only to base_url's origin. An environment with one configuration gets its token without writing this (docs/oauth2.md)",
  },
  {
    name: '$auth.idToken',
    insert: '$auth.idToken("name")',
    description:
      "The OpenID Connect ID token of the environment's Security.Auth configuration of that name (ask for the openid scope); sent only to base_url's origin",
  },
  {
    name: '$projectRoot',
    insert: '$projectRoot',
    description:
      "The project's root folder (JetBrains): for lpreq, the folder of the environment file, or of the request file when there is none",
  },
  {
    name: '$historyFolder',
    insert: '$historyFolder',
    description: "JetBrains' folder of request history; lpreq keeps its own history, so it cannot give this one",
  },
];

const WITH_ARGUMENTS = new Set([
  '$datetime',
  '$localDatetime',
  '$randomInt',
  '$processEnv',
  '$dotenv',
  '$timestamp',
  '$aadToken',
  '$aadV2Token',
  '$oidcAccessToken',
]);

/** JetBrains' `$env.NAME`: an environment variable of the process. */
export const ENV_VARIABLE = /^\$env\.([A-Za-z_][\w.-]*)$/;

export function isSystemVariable(expression: string): boolean {
  const [head] = expression.split(/\s+/, 1);
  if (head.startsWith('$random.')) return true;
  // JetBrains' `$auth.token("lms")` and `$auth.idToken("lms")`: the argument in parentheses.
  if (/^\$auth\.(token|idToken)\(\s*(?:"[^"]*"|'[^']*')\s*\)$/.test(expression)) return true;
  if (ENV_VARIABLE.test(expression)) return true;
  if (SYSTEM_VARIABLES.some((v) => v.name === head)) {
    return expression === head || WITH_ARGUMENTS.has(head);
  }
  return false;
}

export interface RequestReference {
  name: string;
  part: 'request' | 'response';
  source: 'body' | 'headers';
  /** `$.id` for a body, `Location` for a header, `*` for the whole body. */
  selector: string;
}

/** Parses `name.response.body.$.path` or `name.response.headers.Name`. */
export function parseRequestReference(expression: string): RequestReference | undefined {
  const m = /^([A-Za-z_][\w-]*)\.(request|response)\.(body|headers)(?:\.(.*))?$/.exec(expression);
  if (!m) return undefined;
  return {
    name: m[1],
    part: m[2] as 'request' | 'response',
    source: m[3] as 'body' | 'headers',
    selector: m[4] ?? '*',
  };
}
