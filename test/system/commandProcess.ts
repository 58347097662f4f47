/** A long-running lpreq command (mock, proxy) as a process: its address read from standard output, what it printed, and a stop by signal. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers';

export interface RunningCommand {
  child: ChildProcess;
  /** The first `http://127.0.0.1:N` the command printed. */
  url: string;
  stdout(): string;
  stderr(): string;
  /** Sends the signal and waits for the exit code (null when it had to be killed after 15 s). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `lpreq <argv>` and waits until it prints its address (or exits, or 20 s pass: then it throws with what it printed). */
export function startCommand(
  argv: string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<RunningCommand> {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'lpreq.js'), ...argv], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, NO_COLOR: '1', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout?.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail('it printed no address within 20 s'), 20_000);
    const fail = (why: string) => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(new Error(`lpreq ${argv.join(' ')}: ${why}\nstdout: ${out}\nstderr: ${err}`));
    };
    let started = false;
    child.once('exit', (code) => {
      if (!started) fail(`it exited with ${code}`);
    });
    child.stdout?.on('data', () => {
      const m = /http:\/\/127\.0\.0\.1:\d+/.exec(out);
      if (!m || started) return;
      started = true;
      clearTimeout(timer);
      resolve({
        child,
        url: m[0],
        stdout: () => out,
        stderr: () => err,
        stop: async (signal = 'SIGINT') => {
          if (child.exitCode !== null) return child.exitCode;
          child.kill(signal);
          const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          const code = await exited;
          clearTimeout(killer);
          return code;
        },
      });
    });
  });
}

/** Waits until `ready()` holds, checking every 20 ms, for at most 10 s. */
export async function until(ready: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 10_000;
  while (!ready()) {
    if (Date.now() > end) throw new Error(`waited 10 s for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}
