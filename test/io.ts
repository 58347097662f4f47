/**
 * The one in-memory Io of the tests: a command run in this process (`run(argv, captured.io)`)
 * with what it writes captured, standard input given as text, and the questions it asks at
 * the terminal recorded and answered by `ask`.
 */
import type { Io } from '../server/src/node/index';

export interface CaptureOptions {
  /** The command's folder (its `cwd`). */
  cwd: string;
  /** Its environment; none by default (so no LPREQ_TOKEN of the machine running the tests). */
  env?: NodeJS.ProcessEnv;
  /** Standard input, as text. */
  stdin?: string;
  isTTY?: boolean;
  /** Answers a question asked at the terminal (undefined: cancelled); without it the command cannot ask. */
  ask?: (question: string, secret: boolean) => string | undefined;
}

export interface CapturedIo {
  io: Io;
  /** What the command wrote to standard output and standard error so far. */
  readonly stdout: string;
  readonly stderr: string;
  /** The questions it asked, in order. */
  readonly questions: string[];
}

export function captureIo(options: CaptureOptions): CapturedIo {
  let stdout = '';
  let stderr = '';
  const questions: string[] = [];
  const { ask } = options;
  const io: Io = {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    readStdin: () => options.stdin ?? '',
    isTTY: options.isTTY ?? false,
    env: options.env ?? {},
    cwd: options.cwd,
    ...(ask && {
      ask: (question: string, secret: boolean) => {
        questions.push(question);
        return Promise.resolve(ask(question, secret));
      },
    }),
  };
  return {
    io,
    get stdout() {
      return stdout;
    },
    get stderr() {
      return stderr;
    },
    questions,
  };
}
