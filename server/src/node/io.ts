/**
 * The process a command runs in, as the command sees it: its streams, its environment and its
 * folder. bin/lpreq.js gives each command's `run(argv, io)` the real ones; tests give an
 * in-memory one. Every command of the command line and `lpreq lsp` take it.
 */
export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  /** Standard input: the process's stream, read as it arrives; the whole text when a test gives it. */
  readStdin: () => string | AsyncIterable<Uint8Array | string>;
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Asks the person at the terminal (on standard error); absent when standard input is not a terminal. Undefined: cancelled. */
  ask?: (question: string, secret: boolean) => Promise<string | undefined>;
}
