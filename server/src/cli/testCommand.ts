/**
 * `lpreq test [--env NAME] [--mock [--faults FILE]] [--reporter text|json|junit|tap|github] [--bail] [--grep TEXT]
 * [--timeout MS] [--proxy URL] [--prompt NAME=VALUE]... [--yes] [--snapshot] [--update-snapshots] [--ci]
 * PATH...` (LPREQ-FORMAT section 7; docs/testing.md). Sends every request of the files and folders
 * given (folders walked as `lpreq check` walks them, less what a `.lpreqtestignore` leaves out)
 * through the sender's runner and prints what held. `--mock` starts the built-in mock in this
 * process, with a token of its own, and sends only to it. Snapshots are kept beside each file
 * (the send session's test source). Bundled to dist/test.js. Exit status: 0 every request
 * passed, 1 at least one failed, 2 the command could not run (bad arguments, a file that
 * could not be read, a run cancelled).
 */
import { resolve } from 'node:path';
import { bundledCatalog } from '../catalogData';
import { Checker } from '../core/index';
import { FaultsFileError, startMockRun, type MockRun } from '../mockRun';
import {
  runTests,
  scrubSecrets,
  SendSession,
  SetupError,
  type FileSetup,
  type RunOptions,
  type SnapshotMode,
  type TestSource,
} from '../sender/index';
import { flagValue, parseArgs, UsageError, type ParsedArgs } from './args';
import { collectInputs, readInput, type Input, type Io } from './check';
import { HELP_FLAG, helpText, type CommandHelp } from './help';
import { cliSessionHost, positiveInt, promptFlags, proxyFlag } from './sendSetup';
import { commandLineSignIns } from './signIn';
import { TestIgnore, walkedFrom } from '../node/index';
import { createReporter, REPORTERS, type ReporterName } from './testReporters';
import { noWorkflowCommands, printableErrors } from './terminalText';

export const TEST_HELP: CommandHelp = {
  usage:
    'usage: lpreq test [--env NAME] [--mock [--faults FILE]] [--reporter text|json|junit|tap|github] [--bail] [--grep TEXT] [--timeout MS] [--proxy URL] [--prompt NAME=VALUE]... [--yes] [--token-origin ORIGIN] [--snapshot] [--update-snapshots] [--ci] PATH...',
  summary:
    'Sends every request of the files and folders and evaluates its ?? assertions (a request without any passes on a 2xx); exits with 1 when one fails.',
  flags: {
    env: {
      value: true,
      arg: 'NAME',
      help: 'the environment to send to (its variables and base_url); without it the one chosen for the project (lpreq env), the only one, or local',
    },
    mock: {
      help: 'start the built-in mock API in this process and send every request to it (no server, no network); with --env, that environment lends its variables',
    },
    faults: {
      value: true,
      arg: 'FILE',
      help: 'with --mock: the mock answers with the faults of FILE (statuses, delays, resets; lpreq mock --help, docs/mock.md)',
    },
    reporter: {
      value: true,
      choices: [...REPORTERS],
      help: 'text (the default), json, junit (XML), tap (version 14) or github (annotations)',
    },
    bail: { help: 'stop after the first request that fails; the rest are reported skipped' },
    grep: {
      value: true,
      arg: 'TEXT',
      help: 'only the requests whose title, @name or request line contains TEXT (any case)',
    },
    timeout: {
      value: true,
      arg: 'MS',
      help: 'how long to wait for each whole response, in milliseconds (default 30000)',
    },
    proxy: { value: true, arg: 'URL', help: 'send through this http(s) proxy' },
    prompt: { value: true, arg: 'NAME=VALUE', repeat: true, help: 'the answer to every # @prompt NAME (repeatable)' },
    yes: { help: 'send POST, PUT, PATCH and DELETE to a protected environment without asking' },
    'token-origin': {
      value: true,
      arg: 'ORIGIN',
      help: "run nothing unless the environment's base_url is on ORIGIN, the token's (for CI; LPREQ_TOKEN_ORIGIN says the same)",
    },
    snapshot: {
      help: 'every request has a snapshot, as if marked # @snapshot: its response is kept as __snapshots__/<file>/<request>.json beside the file on the first run, and later ones are compared with it, typed by the docs',
    },
    'update-snapshots': { help: 'write the response over each snapshot it differs from (or that cannot be read)' },
    ci: { help: "write no new snapshot: a request whose snapshot is missing fails (for CI, as Jest's --ci)" },
    help: HELP_FLAG,
  },
  operands: { 'PATH...': 'files and folders, folders for their *.lpreq files (a .lpreqtestignore leaves some out)' },
  examples: [
    'lpreq test --mock requests/',
    'lpreq test --env staging --reporter junit requests/ > lpreq-junit.xml',
    'lpreq test --env staging --snapshot --ci requests/',
  ],
};

export async function run(argv: string[], given: Io): Promise<number> {
  // Messages quote paths, request files and servers: printable on a terminal.
  const io = printableErrors(given);
  try {
    return await runTest(argv, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`lpreq test: ${e.message}\n`);
      return 2;
    }
    io.stderr(`lpreq test: internal error: ${(e as Error)?.message ?? String(e)}\n`);
    return 2;
  }
}

async function runTest(argv: string[], io: Io): Promise<number> {
  const args = parseArgs(argv, TEST_HELP.flags);
  if (args.flags.has('help')) {
    io.stdout(helpText(TEST_HELP));
    return 0;
  }
  if (args.positionals.length === 0) throw new UsageError(`no path given\n${TEST_HELP.usage}`);
  const envName = flagValue(args, 'env');
  const mock = args.flags.has('mock');
  const faults = flagValue(args, 'faults');
  if (faults !== undefined && !mock) throw new UsageError("--faults goes with --mock: the faults are the mock's");
  const proxy = proxyFlag(args);
  if (mock && proxy !== undefined)
    throw new UsageError('--proxy and --mock do not go together: the mock runs in this process, on this machine');
  const grep = flagValue(args, 'grep');
  if (grep !== undefined && grep.trim() === '') throw new UsageError('--grep needs some text to look for');
  const reporterName = (flagValue(args, 'reporter') ?? 'text') as ReporterName;
  const timeoutMs = positiveInt(flagValue(args, 'timeout'), 'timeout');
  const prompts = promptFlags(args);
  const snapshots = snapshotFlags(args);

  // The files, less those an ignore file leaves out of a folder that was walked.
  const { inputs: found, notes } = collectInputs(args.positionals, io.cwd);
  const ignore = new TestIgnore();
  const inputs: Input[] = [];
  const ignored: string[] = [];
  for (const input of found) {
    const root = input.absolute === undefined ? undefined : walkedFrom(input.absolute, args.positionals, io.cwd);
    const by =
      root !== undefined && input.absolute !== undefined ? ignore.ignoring(input.absolute, root, io.cwd) : undefined;
    if (by !== undefined) ignored.push(`${input.display} (${by})`);
    else inputs.push(input);
  }
  notes.push(...ignore.notes);
  if (ignored.length > 0) notes.push(`left out, as their .lpreqtestignore says: ${ignored.join(', ')}`);
  if (inputs.length === 0)
    throw new UsageError(
      `no request file to run in ${args.positionals.join(' ')}: ${ignored.length > 0 ? 'every one is left out by .lpreqtestignore' : 'none found'}`,
    );

  const checker = new Checker(bundledCatalog());
  // The environment's OAuth 2.0 sign-in is the session's, once for the run (signIn.ts; a mock run sends its own token).
  const signIns = commandLineSignIns(io, proxy);
  const session = new SendSession(
    cliSessionHost(io, { yes: args.flags.has('yes'), tokenOrigin: flagValue(args, 'token-origin'), signIns }),
    checker,
  );
  let running: MockRun | undefined;
  if (mock) {
    try {
      running = await startMockRun('--mock', { faults, cwd: io.cwd });
    } catch (e) {
      if (e instanceof FaultsFileError) throw new UsageError(e.message);
      throw new UsageError(`the built-in mock could not start: ${(e as Error).message}`);
    }
  }
  try {
    return await runWith(session, running, {
      io,
      args,
      inputs,
      notes,
      envName,
      reporterName,
      timeoutMs,
      proxy,
      grep,
      prompts,
      snapshots,
      signIns,
    });
  } finally {
    await running?.close();
  }
}

/** What `lpreq test` was asked for, read from its arguments. */
interface TestRun {
  io: Io;
  args: ReturnType<typeof parseArgs>;
  inputs: Input[];
  notes: string[];
  envName: string | undefined;
  reporterName: ReporterName;
  timeoutMs: number | undefined;
  proxy: string | undefined;
  grep: string | undefined;
  prompts: ReturnType<typeof promptFlags>;
  snapshots: SnapshotMode;
  signIns: ReturnType<typeof commandLineSignIns>;
}

/** The run: each file's environment settled, the tests run and reported; the exit code. */
async function runWith(session: SendSession, running: MockRun | undefined, run: TestRun): Promise<number> {
  const { io, args, inputs, notes, envName, reporterName, timeoutMs, proxy, grep, prompts, snapshots, signIns } = run;
  // Each file's environment is settled before anything is sent, as `lpreq send` settles it
  // (all it finds depends on the folder of the file): a broken environment file, an unknown
  // --env, several environments and none chosen, or an unusable token stops the run here.
  const sources: TestSource[] = [];
  const setups: FileSetup[] = [];
  for (const input of inputs) {
    const read = await readInput(input, io);
    if (read.problem !== undefined) {
      sources.push({ file: input.display, problem: read.problem });
      continue;
    }
    try {
      // Standard input has no file: its environment is the working folder's.
      const made = await session.testSource(input.absolute ?? resolve(io.cwd, '-'), {
        display: input.display,
        text: read.text,
        environment: envName,
        mock: running,
      });
      if (input.absolute === undefined) {
        delete made.source.readFile;
        delete made.source.snapshots;
      }
      if (!setups.some((s) => s.projectFolder === made.setup.projectFolder && s.selected === made.setup.selected)) {
        setups.push(made.setup);
        for (const w of made.setup.warnings) io.stderr(`lpreq: ${w}\n`);
      }
      sources.push(made.source);
    } catch (e) {
      if (e instanceof SetupError) throw new UsageError(scrubSecrets(e.message, signIns.secrets()));
      throw e;
    }
  }
  if (running) notes.push(...session.missingFromMock(sources, running));
  // Everything printed passes the one scrubber with every token of the run, besides what the runner scrubbed.
  const tokens = [
    running?.token,
    io.env.LPREQ_TOKEN,
    ...setups.flatMap((s) => [s.token, s.privateToken, ...s.foreignTokens]),
  ];
  // A sign-in's tokens and client secrets too (a token renewed after a 401 during the run among them).
  const scrub = (text: string) => scrubSecrets(text, [...tokens, ...signIns.secrets()]);
  // Every format but github's own commands: no line of data may read as a workflow command in a CI log.
  const write = (text: string) => io.stdout(reporterName === 'github' ? scrub(text) : noWorkflowCommands(scrub(text)));

  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  const reporter = createReporter(reporterName, {
    write,
    colour: io.isTTY && !io.env.NO_COLOR,
    skipReason: () =>
      controller.signal.aborted ? 'the run was cancelled' : 'not run: --bail stopped the run at the first failure',
  });

  const options: RunOptions = {
    ...session.runOptions(setups, running),
    timeoutMs,
    proxy,
    env: running ? {} : io.env,
    signal: controller.signal,
    bail: args.flags.has('bail'),
    snapshots,
    grep,
    prompts,
    events: {
      ...reporter.events,
      // The text reporter says why a request failed; the others have no place for a reason that is not an assertion.
      requestFinished: (file, r) => {
        reporter.events.requestFinished?.(file, r);
        if (
          reporterName === 'text' ||
          r.passed ||
          r.skipped ||
          r.failure === undefined ||
          r.failure.kind === 'assertion'
        )
          return;
        io.stderr(`lpreq test: ${file}:${r.line}: ${r.name}: ${r.failure.message}\n`);
        for (const d of r.diagnostics) io.stderr(`  ${file}:${d.line}:${d.column}: error ${d.code}: ${d.message}\n`);
      },
    },
  };
  const started = performance.now();
  let result;
  try {
    result = await runTests(sources, options);
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
  reporter.finish(result, performance.now() - started);

  for (const note of [...notes, ...(running?.notes() ?? [])]) io.stderr(`lpreq: ${note}\n`);
  const total = result.passed + result.failed + result.skipped;
  if (reporterName !== 'text') {
    io.stderr(
      `lpreq test: ${result.passed} passed, ${result.failed} failed${result.skipped > 0 ? `, ${result.skipped} skipped` : ''}\n`,
    );
  }
  if (result.cancelled) {
    io.stderr('lpreq test: cancelled\n');
    return 2;
  }
  if (result.unreadable > 0) {
    io.stderr(`lpreq test: ${result.unreadable} file${result.unreadable === 1 ? '' : 's'} could not be read\n`);
    return 2;
  }
  if (total === 0) {
    io.stderr(`lpreq test: no request to run${grep !== undefined ? ` matches --grep ${grep}` : ''}\n`);
    return 2;
  }
  return result.failed > 0 ? 1 : 0;
}

/** `--snapshot`, `--update-snapshots` and `--ci`, as the runner takes them; the last two refuse each other. */
function snapshotFlags(args: ParsedArgs): SnapshotMode {
  const snapshots = {
    all: args.flags.has('snapshot'),
    update: args.flags.has('update-snapshots'),
    ci: args.flags.has('ci'),
  };
  if (snapshots.update && snapshots.ci)
    throw new UsageError('--update-snapshots writes snapshots and --ci writes none: give one of them');
  return snapshots;
}
