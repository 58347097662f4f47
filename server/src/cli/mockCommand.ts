/**
 * `lpreq mock [--port 4010] [--host 127.0.0.1] [--seed FILE] [--token TOKEN] [--user-token USER_ID=TOKEN]... [--scopes FILE] [--faults FILE] [--quiet]`
 * (bundled to dist/mock.js): runs the mock API until SIGINT or SIGTERM, a line per request on
 * standard error unless `--quiet`.
 */
import { BlockList, isIP } from 'node:net';
import { resolve } from 'node:path';
import {
  parseSeed,
  SeedError,
  startMock,
  unmatchedNote,
  type FaultPlan,
  type RequestLogEntry,
  type SeedData,
} from '../mock/index';
import { readTextFileSync } from '../node/index';
import { FaultsFileError, readFaultsFile } from '../mockRun';
import { bundledCatalog } from '../catalogData';
import { flagValue, parseArgs, UsageError } from './args';
import type { Io } from './check';
import { HELP_FLAG, helpText, type CommandHelp } from './help';
import { requestLine } from './requestLog';
import { readScopesOption } from './scopeList';
import { printable, printableErrors } from './terminalText';

export const MOCK_HELP: CommandHelp = {
  usage:
    'usage: lpreq mock [--port 4010] [--host 127.0.0.1] [--seed FILE] [--token TOKEN] [--user-token USER_ID=TOKEN]... [--scopes FILE] [--faults FILE] [--quiet]',
  summary:
    'Runs the mock API, answered from the documentation and a data set, until Ctrl-C; what the checker calls an error it answers with 400.',
  flags: {
    port: { value: true, arg: 'PORT', help: 'the port to listen on (default 4010; 0 picks a free one)' },
    host: {
      value: true,
      arg: 'HOST',
      help: 'the address to listen on (default 127.0.0.1; another is reachable by other machines)',
    },
    seed: { value: true, arg: 'FILE', help: 'another data set of the shape of the built-in one (checked)' },
    token: { value: true, arg: 'TOKEN', help: 'accept only this bearer token (default: print one, accept any)' },
    'user-token': {
      value: true,
      arg: 'USER_ID=TOKEN',
      repeat: true,
      help: "requests with TOKEN are the data set's user USER_ID (repeatable)",
    },
    scopes: {
      value: true,
      arg: 'FILE',
      help: 'limit the token to the scopes a JSON array in FILE lists (403 for the rest)',
    },
    faults: {
      value: true,
      arg: 'FILE',
      help: 'answer some requests with faults: statuses, delays, resets, cut bodies (the format below)',
    },
    quiet: { help: 'no line per request on standard error' },
    help: HELP_FLAG,
  },
  examples: ['lpreq mock', 'lpreq mock --port 0 --token s3cret --quiet', 'lpreq mock --faults faults.txt'],
  notes: [
    'the faults file, one rule a line (docs/mock.md, "Faults on demand"):',
    '  seed 7',
    '  METHOD|* /path/pattern [user=ID] FAULT rate=R|count=N',
    'FAULT: status=NNN [retry-after=S], delay=250ms|2s, reset, cut=BYTES (a delay goes with the others);',
    'in a pattern * is one segment, ** any number, {name} one segment; # starts a comment.',
    'A request may also ask for a documented error itself: Prefer: code=404.',
  ],
};

function readJson(path: string, cwd: string, what: string): unknown {
  const read = readTextFileSync(resolve(cwd, path));
  if (read.problem !== undefined) throw new UsageError(`${what} ${path}: ${read.problem}`);
  try {
    return JSON.parse(read.text);
  } catch (e) {
    throw new UsageError(`${what} ${path} is not valid JSON: ${(e as Error).message}`);
  }
}

/** 127.0.0.0/8, ::1 (also IPv4-mapped) and localhost: addresses only this machine reaches. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  const v4 = /^(?:::ffff:)?(\d+)\.\d+\.\d+\.\d+$/.exec(h);
  if (v4 && isIP(h.replace(/^::ffff:/, '')) === 4) return v4[1] === '127';
  return isIP(h) === 6 && LOOPBACK_V6.check(h, 'ipv6');
}

const LOOPBACK_V6 = new BlockList();
LOOPBACK_V6.addAddress('::1', 'ipv6');

export async function run(argv: string[], given: Io): Promise<number> {
  // Messages quote paths and the seed file's values: printable on a terminal.
  const io: Io = { ...printableErrors(given), stdout: (s) => given.stdout(printable(s, { lines: true })) };
  try {
    const args = parseArgs(argv, MOCK_HELP.flags);
    if (args.flags.has('help')) {
      io.stdout(helpText(MOCK_HELP));
      return 0;
    }
    if (args.positionals.length > 0)
      throw new UsageError(`unexpected argument '${args.positionals[0]}'\n${MOCK_HELP.usage}`);
    const portText = flagValue(args, 'port') ?? '4010';
    const port = /^\d+$/.test(portText) ? Number(portText) : NaN;
    if (!(port >= 0 && port <= 65535))
      throw new UsageError(`--port must be a port number (0 to 65535), not '${portText}'`);
    const host = flagValue(args, 'host') ?? '127.0.0.1';
    const token = flagValue(args, 'token');
    if (token !== undefined && token.trim() === '') throw new UsageError('--token must not be empty');
    // `1001=TOKEN`: requests with TOKEN are user 1001's (a student of the seed submits).
    const userTokens = (args.lists.get('user-token') ?? []).map((given) => {
      const m = /^(\d+)=(\S+)$/.exec(given);
      if (!m)
        throw new UsageError(
          `--user-token must be USER_ID=TOKEN (a user id of the seed, then the token), not '${given.replace(/=.*/, '=...')}'`,
        );
      return { userId: Number(m[1]), token: m[2] };
    });
    let seed: SeedData | undefined;
    const seedPath = flagValue(args, 'seed');
    if (seedPath !== undefined) {
      try {
        seed = parseSeed(readJson(seedPath, io.cwd, 'the seed file'), seedPath);
      } catch (e) {
        if (e instanceof SeedError) throw new UsageError(e.message);
        throw e;
      }
    }
    const scopesPath = flagValue(args, 'scopes');
    const scopes =
      scopesPath === undefined
        ? undefined
        : readScopesOption(scopesPath, io.cwd, bundledCatalog(), (m) => io.stderr(`lpreq mock: warning: ${m}\n`));
    const faultsPath = flagValue(args, 'faults');
    let faults: FaultPlan | undefined;
    if (faultsPath !== undefined) {
      try {
        faults = readFaultsFile(faultsPath, io.cwd);
      } catch (e) {
        if (e instanceof FaultsFileError) throw new UsageError(e.message);
        throw e;
      }
    }
    // Before listening, so that it is said even when the address turns out to be unusable.
    if (!isLoopback(host)) {
      io.stderr(
        `lpreq mock: warning: --host ${host} is not a loopback address: the mock is reachable from other machines${token === undefined ? ' and accepts any token (give --token)' : ''}\n`,
      );
    }
    let mock;
    try {
      // One line per request on standard error: the request log (requestLog.ts says what it may show).
      const onRequest = args.flags.has('quiet')
        ? undefined
        : (e: RequestLogEntry) =>
            given.stderr(requestLine({ ...e, problems: e.warnings }, 'warnings', e.fault ? ` fault: ${e.fault}` : ''));
      mock = await startMock({ port, host, seed, token, userTokens, scopes, faults, onRequest });
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new UsageError(
        code === 'EADDRINUSE'
          ? `port ${port} on ${host} is already in use (try --port 0 or another port)`
          : code !== undefined
            ? `cannot listen on ${host}:${port}: ${(e as Error).message}`
            : (e as Error).message,
      );
    }
    io.stdout(`lpreq mock: the Learning Platform API of ${mock.state.institution} at ${mock.url}\n`);
    io.stdout(
      token === undefined
        ? `token: ${mock.token} (any non-empty bearer token is accepted)\n`
        : 'token: the one given with --token\n',
    );
    if (userTokens.length > 0)
      io.stdout(`user tokens: ${userTokens.map((u) => `user ${u.userId}`).join(', ')} (given with --user-token)\n`);
    if (scopes) io.stdout(`scopes: ${scopes.length} scope(s) from ${scopesPath ?? ''}\n`);
    if (faults) io.stdout(`faults: ${faults.rules.length} rule(s) from ${faultsPath ?? ''}, seed ${faults.seed}\n`);
    io.stdout(
      `try: curl -H "Authorization: Bearer ${token === undefined ? mock.token : '<token>'}" ${mock.url}/api/v1/courses\n`,
    );
    io.stdout('stop with Ctrl-C\n');
    await new Promise<void>((done) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        mock.close().then(done, done);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    for (const rule of mock.unmatchedFaults()) io.stderr(`lpreq mock: ${unmatchedNote(faultsPath ?? '', rule)}\n`);
    io.stdout('lpreq mock: stopped\n');
    return 0;
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`lpreq mock: ${e.message}\n`);
      return 2;
    }
    io.stderr(`lpreq mock: internal error: ${(e as Error).message}\n`);
    return 2;
  }
}
