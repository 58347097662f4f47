/** What each diagnostic code means, for SARIF rules, hovers and documentation links. */
import type { DiagnosticCode } from './checker';

export const CODE_HELP: Record<DiagnosticCode, { title: string; help: string }> = {
  syntax: { title: 'Syntax error', help: 'A request line or parameter line that cannot be read. A request line is `METHOD TARGET` (GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS, upper case); a parameter line is `name = value`.' },
  'unknown-endpoint': { title: 'Unknown endpoint', help: 'No documented path of the API matches the request path. Check the spelling of each segment against the documentation.' },
  'method-not-allowed': { title: 'Method not documented for this path', help: 'The path is documented, but not for this HTTP method.' },
  'unfilled-placeholder': { title: 'Unfilled path placeholder', help: 'A `{name}` placeholder copied from the documentation is left in the path. Replace it with an id, a documented SIS form or a `{{variable}}`.' },
  'unresolved-variable': { title: 'Unresolved variable', help: 'A `{{name}}` is defined nowhere: not as a file variable (`@name = value`), not in http-client.env.json or http-client.private.env.json, not a system variable and not a named request.' },
  'missing-required': { title: 'Missing required parameter', help: 'A parameter the documentation marks Required is absent, or one that is required under a condition that holds for this request.' },
  'conflicting-parameters': { title: 'Conflicting parameters', help: 'Parameters that the documentation says must not be sent together.' },
  'invalid-enum': { title: 'Value outside the documented set', help: 'The value is not one of the documented values of the parameter.' },
  'invalid-type': { title: 'Value of the wrong type', help: 'The value is not of the documented type: integer, number, boolean (true, false, 1, 0), DateTime (ISO 8601) or Date (yyyy-mm-dd, a real calendar date).' },
  'invalid-format': { title: 'Value in the wrong format', help: 'A documented format is not met, for example a context code that is not `<type>_<id>`, or a SIS id form the path does not accept; also a `# @timeout` or `# @connection-timeout` that is not a duration.' },
  'json-body-expected': { title: 'JSON body expected', help: 'The endpoint takes a JSON body; form parameters are not read.' },
  'unknown-parameter': { title: 'Undocumented parameter', help: 'The endpoint does not document this parameter; it is probably misspelt or belongs to another endpoint.' },
  'duplicate-parameter': { title: 'Parameter given more than once', help: 'A parameter that takes one value is given more than once. Only arrays (`name[]`) repeat.' },
  'ignored-parameter': { title: 'Parameter ignored', help: 'The documentation says this parameter is ignored in this combination.' },
  deprecated: { title: 'Deprecated', help: 'The parameter or endpoint is deprecated; the message names its successor where the documentation does.' },
  'token-in-file': { title: 'Access token in a request file', help: 'An access token is written in the file. lpreq sends the token from the editor\'s secret storage or LPREQ_TOKEN; never commit it.' },
};
