/**
 * `lpreq env [NAME | --none] [--format text|json]` (bundled to dist/env.js): the environment of the project in the working folder, as every
 * host finds it (the sender's environment rule: the one remembered for the project, else the
 * only one, else `local`, else none chosen), and a new choice remembered for it in
 * `.lpreq/environment.json`, where the editor's status bar and the language server read it too.
 */
import { loadEnvironmentFiles, EnvironmentFileError } from '../node/index';
import { projectMemory, SendSession } from '../sender/index';
import { bundledCatalog } from '../catalogData';
import { Checker, closest, describeAnswer } from '../core/index';
import { flagValue, parseArgs, UsageError } from './args';
import type { Io } from './check';
import { HELP_FLAG, helpText, type CommandHelp } from './help';
import { printableErrors } from './terminalText';
import { join, relative } from 'node:path';

export const ENV_HELP: CommandHelp = {
  usage: 'usage: lpreq env [NAME | --none] [--format text|json]',
  summary:
    'Shows the environment lpreq send, lpreq test and the editor use in this project (the folder of http-client.env.json above the working folder), or remembers another for all of them.',
  flags: {
    none: { help: 'remember "no environment": nothing is sent to an environment until one is chosen' },
    format: { value: true, choices: ['text', 'json'], help: 'text (the default) or json' },
    help: HELP_FLAG,
  },
  operands: { NAME: 'remember NAME for this project (in .lpreq/environment.json)' },
  examples: ['lpreq env', 'lpreq env staging', 'lpreq env --none'],
};

export async function run(argv: string[], given: Io): Promise<number> {
  const io = printableErrors(given);
  // This bundle has its own UsageError class: report it here, not in dist/lpreq.js.
  try {
    return await runEnv(argv, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`lpreq env: ${e.message}\n`);
      return 2;
    }
    io.stderr(`lpreq env: internal error: ${(e as Error)?.message ?? String(e)}\n`);
    return 2;
  }
}

async function runEnv(argv: string[], io: Io): Promise<number> {
  const args = parseArgs(argv, ENV_HELP.flags);
  if (args.flags.has('help')) {
    io.stdout(helpText(ENV_HELP));
    return 0;
  }
  if (args.positionals.length > 1) throw new UsageError(`env takes at most one environment's name\n${ENV_HELP.usage}`);
  const name = args.positionals[0];
  if (name !== undefined && args.flags.has('none'))
    throw new UsageError('a name and --none choose two different things: give one of them');
  let files;
  try {
    files = loadEnvironmentFiles(io.cwd);
  } catch (e) {
    if (e instanceof EnvironmentFileError) throw new UsageError(e.message);
    throw e;
  }
  if (!files.shared && !files.private)
    throw new UsageError(
      'no http-client.env.json or http-client.private.env.json was found in this folder or above it: there is no environment to choose',
    );
  // The same session every host builds, with the choice written where every host reads it.
  const session = new SendSession(
    { env: io.env, chooseWith: 'lpreq env', memory: projectMemory },
    new Checker(bundledCatalog()),
  );
  const before = session.answer(io.cwd, files);
  const where = relative(io.cwd, join(before.projectFolder, '.lpreq', 'environment.json')) || '.lpreq/environment.json';
  if (name !== undefined || args.flags.has('none')) {
    if (name !== undefined && !before.names.includes(name)) {
      const near = closest(name, before.names);
      throw new UsageError(
        `there is no environment '${name}'${near ? `; did you mean ${near}?` : ''} The environments are ${before.names.join(', ') || '(none)'}`,
      );
    }
    const kept = session.remember(before.projectFolder, name ?? null);
    if (!kept.written) {
      io.stderr(`lpreq env: the choice could not be kept in ${where}: ${kept.problem ?? 'unknown error'}\n`);
      return 1;
    }
  }
  // Read back from the file, as the next command will read it.
  session.forgetChoices();
  const answer = session.answer(io.cwd, files);
  if (flagValue(args, 'format') === 'json') {
    io.stdout(
      `${JSON.stringify({
        environments: answer.names,
        environment: answer.state === 'chosen' ? answer.name : null,
        state: answer.state,
        why: 'why' in answer ? answer.why : null,
        project: answer.projectFolder,
      })}\n`,
    );
    return 0;
  }
  io.stdout(`environments: ${answer.names.join(', ') || '(none)'}\n`);
  io.stdout(`environment: ${describeAnswer(answer)}\n`);
  if (answer.state === 'ask')
    io.stdout(
      `lpreq send and lpreq test ask for --env; the editor asks when you send. Remember one with: ${answer.names.map((n) => `lpreq env ${n}`).join(' or ')}\n`,
    );
  else if (answer.state === 'chosen' && answer.why === 'remembered') io.stdout(`kept in ${where}\n`);
  return 0;
}
