/**
 * "Copy as cURL": a prepared request as one curl command for a POSIX shell, an option a line,
 * that sends what the sender would send (the same outgoing plan, outgoing.ts: a request the
 * sender refuses is not copied, a header it leaves out is left out). No secret is written into
 * it unless the caller asks in so many words (`includeToken: true`): by default the command
 * reads the token from `$LPREQ_TOKEN` when it runs, and every other secret the request carries
 * (PrepareResult's secrets: a password prompt's answer, another environment's token) is
 * written `***`.
 */
import type { TlsSettings } from '../node/index';
import { planCopy } from './outgoing';
import type { PreparedRequest } from './prepare';
import { carriesSecret, cutAtSecrets, type SecretPlace } from './secrets';

export interface CurlOptions {
  /** Write the request as it is sent, the token and every secret in it. Default false. */
  includeToken?: boolean;
  /** The token: written only with `includeToken: true`; otherwise its place reads `$LPREQ_TOKEN`. */
  token?: string;
  /** Secrets that go where the token goes (PrepareResult's `secrets`): `***` unless `includeToken`. */
  secrets?: (string | undefined)[];
  /** Secrets that go nowhere (PrepareResult's `foreignSecrets`, the other environments' tokens): `***` unless `includeToken`. */
  foreignSecrets?: (string | undefined)[];
  /** What the command leaves out as the sender would (a header that carries a secret, the token), in words, pushed here. */
  notes?: string[];
  /**
   * The environment's `$tls` (its paths absolute): written as curl's options when the request
   * goes to base_url's origin over https, where the sender applies them, and nowhere else.
   */
  tls?: TlsSettings;
}

/** Quotes a word for a POSIX shell: `'...'` with `'` written as `'\''`. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * A text through the one scrubber, cut where the token stands as it is (a place the shell
 * reads from `$LPREQ_TOKEN`); any other spelling of it, and any other secret, is `***`. With
 * `includeToken`, the text as it is.
 */
function wordParts(
  word: string,
  options: CurlOptions,
  named: readonly (readonly [string, string])[] = [],
): (string | SecretPlace)[] {
  if (options.includeToken === true) return [word];
  return cutAtSecrets(
    word,
    [[options.token, 'LPREQ_TOKEN'], ...named],
    [...(options.secrets ?? []), ...(options.foreignSecrets ?? [])],
  );
}

/** A word of the command for the shell, through the one scrubber (wordParts). */
function quoted(word: string, options: CurlOptions, named: readonly (readonly [string, string])[] = []): string {
  const parts = wordParts(word, options, named);
  if (parts.length === 0) return "''";
  // Double quotes so that the shell expands the variable when the command runs.
  return parts.map((p) => (typeof p === 'string' ? shellQuote(p) : `"$${p.variable}"`)).join('');
}

/**
 * The command, one option a line (`\` continues it), as REST Client and browsers copy it: a
 * long request reads and edits line by line, and a POSIX shell runs it as it is.
 */
export function toCurl(prepared: PreparedRequest, options: CurlOptions = {}): string {
  // --globoff: a `[1-5]` or `{a,b}` in the URL is sent as it is, not as five requests (each with the token).
  const first: string[] = ['curl', '--globoff'];
  if (prepared.method === 'HEAD') first.push('--head');
  else if (prepared.method !== 'GET' || prepared.body) first.push('-X', quoted(prepared.method, options));
  first.push(quoted(prepared.url, options));
  const lines: string[][] = [first];
  // The request's own `# @timeout` and `# @connection-timeout`, in curl's seconds.
  if (prepared.connectTimeoutMs !== undefined)
    lines.push(['--connect-timeout', String(prepared.connectTimeoutMs / 1000)]);
  if (prepared.timeoutMs !== undefined) lines.push(['--max-time', String(prepared.timeoutMs / 1000)]);
  lines.push(...tlsOptions(prepared, options));
  // Throws CopyRefused where the sender would send nothing.
  const plan = planCopy(prepared, options);
  options.notes?.push(...plan.warnings);
  for (const [name, value] of plan.headers) {
    const masked =
      name.toLowerCase() === 'authorization' && options.includeToken !== true
        ? maskedAuthorization(value, [options.token, ...(options.secrets ?? []), ...(options.foreignSecrets ?? [])])
        : undefined;
    // A header of the private file's `$defaultHeaders` is read from its environment variable when the command runs.
    const named = privateHeader(prepared, name, value);
    lines.push([
      '-H',
      masked !== undefined && named.length === 0
        ? shellQuote(`${name}: ${masked}`)
        : quoted(`${name}: ${value}`, options, named),
    ]);
  }
  // The token where the sender adds it: to base_url's origin, connected to as itself, when the request writes no Authorization.
  if (plan.addToken) {
    if (options.includeToken === true && options.token) {
      lines.push(['-H', shellQuote(`Authorization: Bearer ${options.token}`)]);
    } else {
      lines.push(['-H', '"Authorization: Bearer $LPREQ_TOKEN"']);
    }
  }
  let input: string | undefined;
  if (prepared.body) {
    if (!plan.headers.some(([n]) => n.toLowerCase() === 'content-type')) {
      lines.push(['-H', quoted(`Content-Type: ${prepared.body.contentType}`, options)]);
    }
    const body = bodyOptions(prepared.body, options);
    lines.push(body.option);
    input = body.input;
  }
  const command = lines.map((words, i) => `${i === 0 ? '' : '  '}${words.join(' ')}`).join(' \\\n');
  return input === undefined ? command : `${input} | ${command}`;
}

/**
 * The environment variable a copy reads a header of the private file's `$defaultHeaders`
 * from (`X-Api-Key`: `LPREQ_HEADER_X_API_KEY`), as it reads the token from LPREQ_TOKEN.
 */
export function privateHeaderVariable(name: string): string {
  return `LPREQ_HEADER_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/** `[value, variable]` of a header when its value is the private file's (see privateHeaderVariable); none otherwise. */
export function privateHeader(prepared: PreparedRequest, name: string, value: string): [string, string][] {
  return prepared.privateHeaders?.includes(name.toLowerCase()) === true && value.length > 0
    ? [[value, privateHeaderVariable(name)]]
    : [];
}

/**
 * A written Authorization header's value as a copy writes it when it carries no secret lpreq
 * knows (credentials written in the file itself): `***` after the scheme, the credentials not
 * copied. Undefined when it carries a known secret: then it is written as any header is, the
 * token read from the environment and other secrets `***`.
 */
export function maskedAuthorization(value: string, known: readonly (string | undefined)[]): string | undefined {
  if (carriesSecret(value, known)) return undefined;
  const scheme = /^\s*([!#$%&'*+.^_`|~0-9A-Za-z-]+)\s+\S/.exec(value)?.[1];
  return `${scheme ? `${scheme} ` : ''}***`;
}

/**
 * The body as curl sends exactly the bytes the sender sends. Text goes as `--data-raw`, which
 * never reads a file (`--data-binary @/etc/passwd` would upload it, `@-` read standard
 * input). Bytes that are not text (a binary body file, sent as it is) are read from the file
 * the sender read, which its reader confined to the workspace. What a shell word cannot hold
 * (a NUL) is written with printf's octal escapes and given on standard input (`@-`).
 */
function bodyOptions(
  body: NonNullable<PreparedRequest['body']>,
  options: CurlOptions,
): { option: string[]; input?: string } {
  const text = body.bytes !== undefined ? exactText(body.bytes) : body.text;
  if (text !== undefined && !text.includes('\u0000')) return { option: ['--data-raw', quoted(text, options)] };
  if (text === undefined && body.file !== undefined) return { option: ['--data-binary', shellQuote(`@${body.file}`)] };
  return { option: ['--data-binary', '@-'], input: printfOf(text ?? '', body.bytes, options) };
}

/** The bytes as a string that encodes back to exactly them (UTF-8, its byte order mark kept), or undefined. */
function exactText(bytes: Uint8Array): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * `printf FORMAT [ARG...]` writing the body's bytes: every byte outside printable ASCII as an
 * octal escape, `%` and `\` escaped; where the token stood in a text, `%s` with the argument
 * `"$LPREQ_TOKEN"` (other secrets are `***`, as elsewhere in the command).
 */
function printfOf(text: string, bytes: Uint8Array | undefined, options: CurlOptions): string {
  const escape = (b: Uint8Array) =>
    [...b]
      .map((x) =>
        x === 0x25
          ? '%%'
          : x === 0x5c
            ? '\\\\'
            : x >= 0x20 && x < 0x7f
              ? String.fromCharCode(x)
              : `\\${x.toString(8).padStart(3, '0')}`,
      )
      .join('');
  if (bytes !== undefined) return `printf ${shellQuote(escape(bytes))}`;
  const parts = wordParts(text, options);
  const format = parts.map((p) => (typeof p === 'string' ? escape(Buffer.from(p, 'utf8')) : '%s')).join('');
  const args = parts.flatMap((p) => (typeof p === 'string' ? [] : [` "$${p.variable}"`]));
  return `printf ${shellQuote(format)}${args.join('')}`;
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
