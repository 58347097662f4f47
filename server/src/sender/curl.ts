/**
 * "Copy as cURL": a prepared request as one curl command for a POSIX shell. The token is
 * never written into it unless the caller asks in so many words (`includeToken: true`);
 * by default the command reads it from `$LPREQ_TOKEN` when it runs.
 */
import { tokenAllowed } from './exchange';
import type { PreparedRequest } from './prepare';

export interface CurlOptions {
  /** Write the token itself into the command. Default false: `$LPREQ_TOKEN` stands in its place. */
  includeToken?: boolean;
  /** The token, used only with `includeToken: true`. */
  token?: string;
}

/** Quotes a word for a POSIX shell: `'...'` with `'` written as `'\''`. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

export function toCurl(prepared: PreparedRequest, options: CurlOptions = {}): string {
  const parts: string[] = ['curl'];
  if (prepared.method === 'HEAD') parts.push('--head');
  else if (prepared.method !== 'GET' || prepared.body) parts.push('-X', prepared.method);
  parts.push(shellQuote(prepared.url));
  // The request's own `# @timeout` and `# @connection-timeout`, in curl's seconds.
  if (prepared.connectTimeoutMs !== undefined) parts.push('--connect-timeout', String(prepared.connectTimeoutMs / 1000));
  if (prepared.timeoutMs !== undefined) parts.push('--max-time', String(prepared.timeoutMs / 1000));
  for (const [name, value] of prepared.headers) {
    // A credential written in the file is not copied either.
    if (name.toLowerCase() === 'authorization') continue;
    parts.push('-H', shellQuote(`${name}: ${value}`));
  }
  if (tokenAllowed(prepared.url, prepared.tokenOrigin)) {
    if (options.includeToken === true && options.token) {
      parts.push('-H', shellQuote(`Authorization: Bearer ${options.token}`));
    } else {
      // Double quotes so that the shell expands the variable when the command runs.
      parts.push('-H', '"Authorization: Bearer $LPREQ_TOKEN"');
    }
  }
  if (prepared.body) {
    if (!prepared.headers.some(([n]) => n.toLowerCase() === 'content-type')) {
      parts.push('-H', shellQuote(`Content-Type: ${prepared.body.contentType}`));
    }
    // --data-binary sends the bytes as they are: the form body is already encoded. A body file
    // sent as it is stays a file (`@path`): its bytes may not survive a shell string.
    const file = prepared.body.bytes !== undefined ? prepared.body.file : undefined;
    parts.push('--data-binary', shellQuote(file !== undefined ? `@${file}` : prepared.body.text));
  }
  return parts.join(' ');
}
