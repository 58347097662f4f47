/**
 * What `lpreq send` and `lpreq test` read from their flags the same way (the environment,
 * token, chain and `.env` are the sender's SendSession), and how a protected environment, a
 * `# @note` and a `# @prompt` are confirmed or answered at a terminal, or refused without one.
 */
import type { SessionHost } from '../sender/index';
import { parseByteSize } from '../core/index';
import { flagValue, UsageError, type ParsedArgs } from './args';
import type { Io } from './check';

/** A flag's value as a whole number from 1 to 2^31 - 1 (Node's timers fire at once beyond it), or undefined when not given. */
export function positiveInt(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new UsageError(`--${flag} needs a positive whole number, not '${value}'`);
  if (Number(value) > 2147483647) throw new UsageError(`--${flag} is at most 2147483647, not ${value}`);
  return Number(value);
}

/** A size flag: bytes, or a number with a unit (`10MB`, `512 KiB`), as the editor's settings take it. */
export function byteSize(value: string | undefined, flag: string): number | undefined {
  if (value === undefined) return undefined;
  const read = parseByteSize(value);
  if ('problem' in read) throw new UsageError(`--${flag}: ${read.problem}`);
  return read.bytes;
}

function safeUrl(text: string): URL | undefined {
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
 * The command line's part of a send session (the sender's SendSession decides the rest): the
 * process environment and its LPREQ_TOKEN, `--env` as the way to choose, and how the flow asks
 * before it sends. A `# @note` and each POST, PUT, PATCH and DELETE to a protected environment
 * are confirmed at a terminal; without one a note is taken as decided (a script that sends has
 * decided) and a change to a protected environment is refused unless `--yes`. A `# @prompt`
 * variable is asked at a terminal, or taken from `--prompt`, or refused.
 */
export function cliSessionHost(
  io: Io,
  o: { yes: boolean; tokenOrigin?: string; history?: SessionHost['history']; signIns?: SessionHost['signIns'] },
): SessionHost {
  return {
    env: io.env,
    chooseWith: '--env',
    tokenOrigin: o.tokenOrigin,
    history: o.history,
    // The process's OAuth 2.0 sign-ins (signIn.ts): an environment with Security.Auth of its own signs in once a run.
    signIns: o.signIns,
    confirmNote: io.ask
      ? async (q) =>
          /^\s*y(es)?\s*$/i.test(
            (await io.ask?.(`${q.request} is marked # @note${q.note ? ` (${q.note})` : ''}. Send it? [y/N] `, false)) ??
              '',
          )
      : undefined,
    confirmChange: o.yes
      ? undefined
      : async (q) => {
          const what = q.request.startsWith(`${q.method} `) ? q.request : `${q.method} ${q.request}`;
          if (io.ask)
            return /^\s*y(es)?\s*$/i.test(
              (await io.ask(`${q.environment} is protected: send ${what}? [y/N] `, false)) ?? '',
            );
          io.stderr(
            `lpreq: ${q.environment} is a protected environment: ${what} is sent only when confirmed; add --yes to send it without a terminal\n`,
          );
          return false;
        },
    ask: async (q) => {
      if (io.ask)
        return await io.ask(
          `${q.request} asks for {{${q.name}}}${q.description ? ` (${q.description})` : ''}: `,
          q.secret,
        );
      io.stderr(
        `lpreq: ${q.request} asks for {{${q.name}}} (# @prompt ${q.name}): give it with --prompt ${q.name}=VALUE\n`,
      );
      return undefined;
    },
  };
}
