/**
 * What an import never writes: credentials of the session the source was captured in. lpreq
 * adds the token itself (LPREQ_TOKEN, the editor's secret storage), so an Authorization
 * header, a cookie, a CSRF token or a session id in a capture is only a leak waiting to be
 * committed. Names are matched; values are collected so that the host can scrub every byte
 * it writes of them (a CSRF token copied into a JSON body, a session id in a URL).
 */

/** Headers that carry a credential or a session, by name (any case). */
const CREDENTIAL_HEADERS = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-csrf-token',
  'x-xsrf-token',
  'x-csrftoken',
  'csrf-token',
  'x-auth-token',
  'x-access-token',
  'x-api-key',
  'api-key',
  'x-session-id',
  'x-session-token',
]);

/** Any other header whose name says it carries one. */
const CREDENTIAL_HEADER_WORDS = /(^|-)(auth|token|csrf|xsrf|session|cookie|secret|api-?key|password)(-|$)/i;

export function isCredentialHeader(name: string): boolean {
  const lower = name.toLowerCase();
  return CREDENTIAL_HEADERS.has(lower) || CREDENTIAL_HEADER_WORDS.test(lower);
}

/** Query, form and JSON names of credentials: tokens, CSRF tokens, session ids. */
const CREDENTIAL_PARAMS =
  /^(access_token|refresh_token|id_token|bearer|authenticity_token|_?csrf(_?token)?|_?xsrf(_?token)?|csrfmiddlewaretoken|_?session(_?id)?|sessionid|session_token|jsessionid|phpsessid|sid|client_secret|api_?key|password)$/i;

export function isCredentialParameter(name: string): boolean {
  return CREDENTIAL_PARAMS.test(name);
}

/** Variables (environment entries, file variables, Postman variables) whose name says they hold a secret. */
const SECRET_VARIABLE =
  /(^|[_.-])(token|secret|password|passwd|pwd|api_?key|apikey|session|sessionid|cookie|csrf|xsrf|authorization|auth|bearer|credentials?)($|[_.-])/i;

export function isSecretVariable(name: string): boolean {
  // camelCase names (accessToken, clientSecret) are split into words first.
  return SECRET_VARIABLE.test(name.replace(/([a-z0-9])([A-Z])/g, '$1_$2'));
}

/** The secret pieces of a credential header's value: the whole value, a scheme's credentials, each cookie's value. */
export function secretPieces(headerName: string, value: string): string[] {
  const out = [value.trim()];
  const lower = headerName.toLowerCase();
  if (lower === 'cookie' || lower === 'set-cookie') {
    for (const part of value.split(';')) {
      const eq = part.indexOf('=');
      if (eq !== -1) out.push(part.slice(eq + 1).trim());
    }
  } else {
    const space = value.trim().indexOf(' ');
    if (space !== -1)
      out.push(
        value
          .trim()
          .slice(space + 1)
          .trim(),
      );
  }
  return out.filter((s) => s.length > 0);
}

/** Collects the secrets of one import, to be scrubbed from every byte written. */
export class SecretValues {
  private readonly values = new Set<string>();

  add(...values: (string | undefined)[]): void {
    for (const v of values) {
      // A variable reference is a name, not a secret (`Bearer {{token}}`).
      if (v !== undefined && v.length > 0 && !/^\{\{[^{}]*\}\}$/.test(v)) this.values.add(v);
    }
  }

  list(): string[] {
    return [...this.values];
  }
}
