/**
 * What `lpreq send` and `lpreq test` decide the same way before anything is sent: which
 * environment, which token (and whether it can be kept secret), which values prompts get,
 * what `.env` holds, and how a protected environment, a `# @note` and a `# @prompt` are
 * confirmed or answered at a terminal, or refused without one.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { own } from '../core/index';
import { type EnvironmentFiles, readTextFileSync } from '../node/index';
import { MIN_SECRET_LENGTH, parseDotenv, type SendBlockOptions } from '../sender/index';
import { flagValue, UsageError, type ParsedArgs } from './args';
import type { Io } from './check';

/** A flag's value as a whole number from 1 to 2^31 - 1 (Node's timers fire at once beyond it), or undefined when not given. */
export function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1) throw new UsageError(`--${flag} needs a positive whole number, not '${value}'`);
  if (Number(value) > 2147483647) throw new UsageError(`--${flag} is at most 2147483647, not ${value}`);
  return Number(value);
}

export function safeUrl(text: string): URL | undefined {
  try {
    return new URL(text);
  } catch {
    return undefined;
  }
}

/** `--proxy URL`, checked. */
export function proxyFlag(args: ParsedArgs): string | undefined {
  const proxy = flagValue(args, 'proxy');
  if (proxy !== undefined && !/^https?:$/.test(safeUrl(proxy)?.protocol ?? '')) {
    throw new UsageError(`--proxy needs an http(s) URL such as http://proxy.example:3128, not '${proxy}'`);
  }
  return proxy;
}

/** `--prompt NAME=VALUE`, as many as given. */
export function promptFlags(args: ParsedArgs): Map<string, string> {
  const prompts = new Map<string, string>();
  for (const given of args.lists.get('prompt') ?? []) {
    const eq = given.indexOf('=');
    if (eq < 1) throw new UsageError(`--prompt takes NAME=VALUE (the value of a # @prompt variable), not '${given}'`);
    prompts.set(given.slice(0, eq), given.slice(eq + 1));
  }
  return prompts;
}

/**
 * The environment to send with: the one named, else `local`, else the only one. With several
 * and none called local, which base_url (and so who gets the token) must not depend on the
 * order of a file: the user chooses.
 */
export function chooseEnvironment(files: EnvironmentFiles, requested: string | undefined): string | undefined {
  const names = Object.keys(files.environments);
  if (requested !== undefined) {
    if (!names.includes(requested)) {
      throw new UsageError(
        names.length === 0
          ? `--env ${requested}: no http-client.env.json or http-client.private.env.json was found beside the file or above it`
          : `--env ${requested}: no such environment; the environments are ${names.join(', ')}`,
      );
    }
    return requested;
  }
  if (names.includes('local')) return 'local';
  if (names.length > 1) {
    throw new UsageError(`there are several environments (${names.join(', ')}) and none is called local: choose one with --env`);
  }
  return names.length === 1 ? names[0] : undefined;
}

export interface TokenChoice {
  /** What is sent: LPREQ_TOKEN, else the chosen environment's private `token`. */
  token: string | undefined;
  /** The private file's token of the chosen environment, kept out of output even when LPREQ_TOKEN is sent instead. */
  privateToken: string | undefined;
  tokenFrom: 'LPREQ_TOKEN' | 'private' | undefined;
}

/** The token to send, refused when it could not be kept secret (a line break in it, too short to be told from other text). */
export function chooseToken(io: Io, files: EnvironmentFiles, selected: string | undefined): TokenChoice {
  const privateToken = selected !== undefined && own(files.privateNames, selected)?.has('token') ? own(own(files.environments, selected), 'token') : undefined;
  const token = io.env.LPREQ_TOKEN && io.env.LPREQ_TOKEN.length > 0 ? io.env.LPREQ_TOKEN : privateToken;
  const tokenSource = token === privateToken ? `the token of ${selected} in http-client.private.env.json` : 'LPREQ_TOKEN';
  // A token cannot go in a header with a space or a line break (often a copied newline): say so, without showing it.
  if (token !== undefined && [...token].some((c) => /\s/.test(c) || c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
    throw new UsageError(`${tokenSource} contains whitespace or a control character (a line break at the end?); remove it and try again`);
  }
  if (token !== undefined && token.length < MIN_SECRET_LENGTH) {
    throw new UsageError(
      `${tokenSource} is shorter than ${MIN_SECRET_LENGTH} characters: lpreq could not tell it from other text to keep it out of output and away from other hosts; use a longer one`,
    );
  }
  return { token, privateToken, tokenFrom: token === undefined ? undefined : token === io.env.LPREQ_TOKEN ? 'LPREQ_TOKEN' : 'private' };
}

/** Whether an environment says `"$protected": true`. */
export function isProtected(files: EnvironmentFiles, selected: string | undefined): boolean {
  return selected !== undefined && String(own(own(files.environments, selected), '$protected')).toLowerCase() === 'true';
}

/** The `.env` file of a folder, for `{{$dotenv NAME}}`; one that cannot be read is said on standard error. */
export function readDotenv(folder: string, io: Io): Record<string, string> {
  const file = join(folder, '.env');
  if (!existsSync(file)) return {};
  const read = readTextFileSync(file);
  if (read.problem === undefined) return parseDotenv(read.text);
  io.stderr(`lpreq: ${file}: ${read.problem}; {{$dotenv ...}} stays unresolved\n`);
  return {};
}

/**
 * How the flow asks before it sends: a `# @note` and each POST, PUT, PATCH and DELETE to a
 * protected environment are confirmed at a terminal; without one a note is taken as decided
 * (a script that sends has decided) and a change to a protected environment is refused unless
 * `--yes`. A `# @prompt` variable is asked at a terminal, or taken from `--prompt`, or refused.
 */
export function confirmations(
  io: Io,
  protection: { protectedEnv: boolean; yes: boolean; environment: string | undefined },
): Pick<SendBlockOptions, 'confirmNote' | 'confirmChange' | 'ask'> {
  const { protectedEnv, yes, environment } = protection;
  return {
    confirmNote: io.ask
      ? async (q) => /^\s*y(es)?\s*$/i.test((await io.ask?.(`${q.request} is marked # @note${q.note ? ` (${q.note})` : ''}. Send it? [y/N] `, false)) ?? '')
      : undefined,
    confirmChange:
      protectedEnv && !yes
        ? async (q) => {
            const what = q.request.startsWith(`${q.method} `) ? q.request : `${q.method} ${q.request}`;
            if (io.ask) return /^\s*y(es)?\s*$/i.test((await io.ask(`${environment} is protected: send ${what}? [y/N] `, false)) ?? '');
            io.stderr(`lpreq: ${environment} is a protected environment: ${what} is sent only when confirmed; add --yes to send it without a terminal\n`);
            return false;
          }
        : undefined,
    ask: async (q) => {
      if (io.ask) return await io.ask(`${q.request} asks for {{${q.name}}}${q.description ? ` (${q.description})` : ''}: `, q.secret);
      io.stderr(`lpreq: ${q.request} asks for {{${q.name}}} (# @prompt ${q.name}): give it with --prompt ${q.name}=VALUE\n`);
      return undefined;
    },
  };
}
