/**
 * `lpreq test [--env NAME | --mock] [--reporter text|json|junit|tap|github] [--bail] [--grep TEXT]
 * [--timeout MS] [--proxy URL] [--prompt NAME=VALUE]... [--yes] [--snapshot] [--update-snapshots] [--ci]
 * PATH...` (LPREQ-FORMAT section 7; docs/testing.md). Sends every request of the files and folders
 * given (folders walked as `lpreq check` walks them, less what a `.lpreqtestignore` leaves out)
 * through the sender's runner and prints what held. `--mock` starts the built-in mock in this
 * process, with a token of its own, and sends only to it. Snapshots are kept beside each file
 * (the sender's snapshotFiles). Bundled to dist/test.js. Exit status: 0 every request
 * passed, 1 at least one failed, 2 the command could not run (bad arguments, a file that
 * could not be read, a run cancelled).
 */
import { dirname, resolve } from 'node:path';
import { bundledCatalog } from '../catalogData';
import { Checker, type Environments } from '../core/index';
import { startMockRun, type MockRun } from '../mockRun';
import {
  runTests,
  scrubSecrets,
  snapshotFiles,
  sendSetup,
  SetupError,
  type RunOptions,
  type SendSetup,
  type TestSource,
} from '../sender/index';
import { flagValue, parseArgs, UsageError } from './args';
import { collectInputs, readInput, type Input, type Io } from './check';
import { HELP_FLAG, helpText, type CommandHelp } from './help';
import { confirmations, positiveInt, promptFlags, proxyFlag } from './sendSetup';
import { TestIgnore, walkedFrom } from '../node/index';
import { createReporter, REPORTERS, type ReporterName } from './testReporters';
import { noWorkflowCommands, printableErrors } from './terminalText';

export const TEST_HELP: CommandHelp = {
  usage:
    'usage: lpreq test [--env NAME | --mock] [--reporter text|json|junit|tap|github] [--bail] [--grep TEXT] [--timeout MS] [--proxy URL] [--prompt NAME=VALUE]... [--yes] [--token-origin ORIGIN] [--snapshot] [--update-snapshots] [--ci] PATH...',
  summary:
    'Sends every request of the files and folders and evaluates its ?? assertions (a request without any passes on a 2xx); exits with 1 when one fails.',
  flags: {
    env: { value: true, arg: 'NAME', help: 'the environment of http-client.env.json to send to' },
    mock: {
      help: 'start the built-in mock API in this process and send every request to it (no server, no environment, no network)',
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

/** What sending the requests of one folder's files takes: the sender's setup, with the mock's environments when it runs. */
interface FolderSetup {
  setup: SendSetup;
  environments: Environments;
  /** Tokens that must not go anywhere in this run (a real one, when the mock gets its own). */
  foreign: string[];
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
  if (mock && envName !== undefined)
    throw new UsageError('--env and --mock both say where the requests go: give one of them');
  const proxy = proxyFlag(args);
  if (mock && proxy !== undefined)
    throw new UsageError('--proxy and --mock do not go together: the mock runs in this process, on this machine');
  const grep = flagValue(args, 'grep');
  if (grep !== undefined && grep.trim() === '') throw new UsageError('--grep needs some text to look for');
  const reporterName = (flagValue(args, 'reporter') ?? 'text') as ReporterName;
  const timeoutMs = positiveInt(flagValue(args, 'timeout'), 'timeout');
  const prompts = promptFlags(args);
  const snapshots = {
    all: args.flags.has('snapshot'),
    update: args.flags.has('update-snapshots'),
    ci: args.flags.has('ci'),
  };
  if (snapshots.update && snapshots.ci)
    throw new UsageError('--update-snapshots writes snapshots and --ci writes none: give one of them');

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

  // Each folder's environment is settled before anything is sent, as `lpreq send` settles it
  // (all it finds depends on the folder of the file): a broken environment file, an unknown
  // --env or an unusable token stops the run here.
  const setups = new Map<string, FolderSetup>();
  const folderOf = (input: Input) => dirname(input.absolute ?? resolve(io.cwd, '-'));
  for (const input of inputs) {
    const folder = folderOf(input);
    if (setups.has(folder)) continue;
    let setup: SendSetup;
    try {
      // Standard input has no file: its environment is the working folder's.
      setup = sendSetup(input.absolute ?? resolve(io.cwd, '-'), {
        environment: envName,
        env: io.env,
        chooseWith: '--env',
        forMock: mock,
        tokenOrigin: flagValue(args, 'token-origin'),
      });
    } catch (e) {
      if (e instanceof SetupError) throw new UsageError(e.message);
      throw e;
    }
    for (const w of setup.warnings) io.stderr(`lpreq: ${w}\n`);
    const foreign = mock
      ? [setup.token, setup.privateToken, io.env.LPREQ_TOKEN].filter(
          (t): t is string => typeof t === 'string' && t.length > 0,
        )
      : [];
    setups.set(folder, { setup, environments: setup.environments, foreign });
  }

  let running: MockRun | undefined;
  if (mock) {
    try {
      running = await startMockRun('--mock');
    } catch (e) {
      throw new UsageError(`the built-in mock could not start: ${(e as Error).message}`);
    }
    for (const f of setups.values()) f.environments = running.environments(f.setup);
  }
  const all = [...setups.values()];
  const protectedNames = mock
    ? ''
    : [...new Set(all.filter((f) => f.setup.protectedEnvironment).map((f) => f.setup.selected))].join(', ');
  // Everything printed passes the one scrubber with every token of the run, besides what the runner scrubbed.
  const tokens = [running?.token, io.env.LPREQ_TOKEN, ...all.flatMap((f) => [f.setup.token, ...f.foreign])];
  // Every format but github's own commands: no line of data may read as a workflow command in a CI log.
  const write = (text: string) =>
    io.stdout(reporterName === 'github' ? scrubSecrets(text, tokens) : noWorkflowCommands(scrubSecrets(text, tokens)));

  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  const reporter = createReporter(reporterName, {
    write,
    colour: io.isTTY && !io.env.NO_COLOR,
    skipReason: () =>
      controller.signal.aborted ? 'the run was cancelled' : 'not run: --bail stopped the run at the first failure',
  });

  async function* sources(): AsyncGenerator<TestSource> {
    for (const input of inputs) {
      const read = await readInput(input, io);
      if (read.problem !== undefined) {
        yield { file: input.display, problem: read.problem };
        continue;
      }
      const { setup, environments } = setups.get(folderOf(input)) as FolderSetup;
      yield {
        file: input.display,
        text: read.text,
        environments,
        token: running ? running.token : setup.token,
        system: setup.system,
        readFile: input.absolute !== undefined ? setup.readFile : undefined,
        ...(input.absolute !== undefined ? { snapshots: snapshotFiles(input.absolute, input.display) } : {}),
      };
    }
  }

  const options: RunOptions = {
    checker: new Checker(bundledCatalog()),
    timeoutMs,
    proxy,
    env: io.env,
    signal: controller.signal,
    bail: args.flags.has('bail'),
    snapshots,
    grep,
    prompts,
    foreignSecrets: all.flatMap((f) => f.foreign),
    ...confirmations(io, {
      protectedEnv: protectedNames.length > 0,
      yes: args.flags.has('yes'),
      environment: protectedNames,
    }),
    // The mock's own base_url, confinement to it, and no proxy of the environment.
    ...running?.options,
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
    result = await runTests(sources(), options);
  } finally {
    process.removeListener('SIGINT', onSigint);
    await running?.close();
  }
  reporter.finish(result, performance.now() - started);

  for (const note of notes) io.stderr(`lpreq: ${note}\n`);
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
