/**
 * "Copy as cURL": a prepared request as one curl command for a POSIX shell, an option a line. No secret is
 * written into it unless the caller asks in so many words (`includeToken: true`): by default
 * the command reads the token from `$LPREQ_TOKEN` when it runs, and every other secret the
 * request carries (PrepareResult's secrets: a password prompt's answer, another environment's
 * token) is written `***`.
 */
import type { TlsSettings } from '../node/index';
import { tokenAllowed } from './outgoing';
import type { PreparedRequest } from './prepare';
import { scrubSecrets } from './secrets';

export interface CurlOptions {
  /** Write the request as it is sent, the token and every secret in it. Default false. */
  includeToken?: boolean;
  /** The token: written only with `includeToken: true`; otherwise its place reads `$LPREQ_TOKEN`. */
  token?: string;
  /** The other secrets the request may carry (PrepareResult's `secrets` and `foreignSecrets`): `***` unless `includeToken`. */
  secrets?: (string | undefined)[];
  /**
   * The environment's `$tls` (its paths absolute): written as curl's options when the request
   * goes to base_url's origin over https, where the sender applies them, and nowhere else.
   */
  tls?: TlsSettings;
}

/** Quotes a word for a POSIX shell: `'...'` with `'` written as `'\''`. */
function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Where the token stood in a word, until the word is quoted. */
const TOKEN_PLACE = '\u0000';

/**
 * A word of the command for the shell, through the one scrubber: where the token stands as
 * it is, the shell reads `$LPREQ_TOKEN`; any other spelling of it, and any other secret, is `***`.
 */
function quoted(word: string, options: CurlOptions): string {
  if (options.includeToken === true) return shellQuote(word);
  const token = options.token;
  const text = scrubSecrets(
    scrubSecrets(word.split(TOKEN_PLACE).join(''), [token], (_, written) => (written === token ? TOKEN_PLACE : '***')),
    options.secrets ?? [],
  );
  if (!text.includes(TOKEN_PLACE)) return shellQuote(text);
  // Double quotes so that the shell expands the variable when the command runs.
  return text
    .split(TOKEN_PLACE)
    .map((part) => (part.length > 0 ? shellQuote(part) : ''))
    .join('"$LPREQ_TOKEN"');
}

/**
 * The command, one option a line (`\` continues it), as REST Client and browsers copy it: a
 * long request reads and edits line by line, and a POSIX shell runs it as it is.
 */
export function toCurl(prepared: PreparedRequest, options: CurlOptions = {}): string {
  const first: string[] = ['curl'];
  if (prepared.method === 'HEAD') first.push('--head');
  else if (prepared.method !== 'GET' || prepared.body) first.push('-X', quoted(prepared.method, options));
  first.push(quoted(prepared.url, options));
  const lines: string[][] = [first];
  // The request's own `# @timeout` and `# @connection-timeout`, in curl's seconds.
  if (prepared.connectTimeoutMs !== undefined)
    lines.push(['--connect-timeout', String(prepared.connectTimeoutMs / 1000)]);
  if (prepared.timeoutMs !== undefined) lines.push(['--max-time', String(prepared.timeoutMs / 1000)]);
  lines.push(...tlsOptions(prepared, options));
  for (const [name, value] of prepared.headers) {
    // A credential written in the file is not copied either.
    if (name.toLowerCase() === 'authorization') continue;
    lines.push(['-H', quoted(`${name}: ${value}`, options)]);
  }
  // The token goes where the sender sends it: to base_url's origin, connected to as itself (no other Host).
  if (tokenAllowed(prepared.url, prepared.tokenOrigin, prepared.headers)) {
    if (options.includeToken === true && options.token) {
      lines.push(['-H', shellQuote(`Authorization: Bearer ${options.token}`)]);
    } else {
      lines.push(['-H', '"Authorization: Bearer $LPREQ_TOKEN"']);
    }
  }
  if (prepared.body) {
    if (!prepared.headers.some(([n]) => n.toLowerCase() === 'content-type')) {
      lines.push(['-H', quoted(`Content-Type: ${prepared.body.contentType}`, options)]);
    }
    // --data-binary sends the bytes as they are: the form body is already encoded. A body file
    // sent as it is stays a file (`@path`): its bytes may not survive a shell string.
    const file = prepared.body.bytes !== undefined ? prepared.body.file : undefined;
    lines.push(['--data-binary', quoted(file !== undefined ? `@${file}` : prepared.body.text, options)]);
  }
  return lines.map((words, i) => `${i === 0 ? '' : '  '}${words.join(' ')}`).join(' \\\n');
}

/**
 * The environment's `$tls` where the sender applies it: to a request over https to
 * base_url's origin. Undefined elsewhere (another origin, plain http), as the sender applies
 * none there; a copied command and generated code follow the same rule.
 */
export function tlsFor(prepared: PreparedRequest, tls: TlsSettings | undefined): TlsSettings | undefined {
  if (!tls || !prepared.url.startsWith('https:') || prepared.tokenOrigin === undefined) return undefined;
  let origin: string;
  try {
    origin = new URL(prepared.url).origin;
  } catch {
    return undefined;
  }
  return origin === prepared.tokenOrigin ? tls : undefined;
}

/** curl's options for the environment's `$tls`, where the sender would use it. */
function tlsOptions(prepared: PreparedRequest, options: CurlOptions): string[][] {
  const tls = tlsFor(prepared, options.tls);
  if (!tls) return [];
  const lines: string[][] = [];
  if (tls.rejectUnauthorized === false) lines.push(['--insecure']);
  if (tls.ca !== undefined) lines.push(['--cacert', quoted(tls.ca, options)]);
  if (tls.cert !== undefined) lines.push(['--cert', quoted(tls.cert, options)]);
  if (tls.key !== undefined) lines.push(['--key', quoted(tls.key, options)]);
  return lines;
}
