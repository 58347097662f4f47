/**
 * Runs Neovim headless with a configuration taken from docs/editors.md and a plan of steps
 * carried out by harness.lua, and reads back what each step found. Used by
 * test/system/neovim.test.ts; a new kind of step is a function in harness.lua and a member
 * of `Step` here.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

export type Step =
  | { step: 'open'; path: string; timeout_ms?: number }
  | { step: 'diagnostics'; timeout_ms?: number }
  | { step: 'insert'; line: number; lines: string[] }
  | { step: 'complete'; line: number; character: number; timeout_ms?: number }
  | { step: 'command'; command: string }
  | { step: 'codelens'; timeout_ms?: number }
  | { step: 'run_lens'; line: number; title: string; answers?: string[] }
  | { step: 'answer'; answers: string[] }
  | { step: 'asked' }
  | { step: 'cursor'; line: number }
  | { step: 'response'; path: string; timeout_ms?: number }
  | { step: 'register'; name: string; contains: string; timeout_ms?: number };

export interface StepResult {
  step: string;
  ok: boolean;
  value?: unknown;
  error?: string;
}

export interface NeovimRun {
  results: StepResult[];
  /** Neovim's :messages at the end (errors of the configuration show here). */
  messages: string;
  stderr: string;
  /** The end of Neovim's LSP log (the server's standard error goes there), for failure reports. */
  lspLog: string;
}

/** A configuration block of docs/editors.md: `<!-- nvim-config VERSIONS FILE -->` and a lua fence. */
export interface ConfigBlock {
  versions: string;
  file: string;
  text: string;
}

export function configBlocks(markdown: string): ConfigBlock[] {
  const blocks: ConfigBlock[] = [];
  for (const m of markdown.matchAll(/<!-- nvim-config (\S+) (\S+) -->\n```lua\n([\s\S]*?)\n```/g)) {
    blocks.push({ versions: m[1], file: m[2], text: `${m[3]}\n` });
  }
  return blocks;
}

export type Version = [number, number, number];

/** The installed Neovim's version, or undefined when `nvim` is not on the PATH. */
export function installedNeovim(): Version | undefined {
  const r = spawnSync('nvim', ['--version'], { encoding: 'utf8', timeout: 10_000 });
  if (r.error || r.status !== 0) return undefined;
  const m = /NVIM v(\d+)\.(\d+)\.(\d+)/.exec(r.stdout);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : undefined;
}

/** Whether a version falls in a range written as `0.7-0.9` or `0.10+` (major.minor). */
export function inRange(version: Version, range: string): boolean {
  const m = /^(\d+)\.(\d+)(?:-(\d+)\.(\d+)|\+)$/.exec(range);
  if (!m) throw new Error(`docs/editors.md: bad nvim-config version range '${range}'`);
  const at = version[0] * 1000 + version[1];
  const min = Number(m[1]) * 1000 + Number(m[2]);
  const max = m[3] === undefined ? Infinity : Number(m[3]) * 1000 + Number(m[4]);
  return at >= min && at <= max;
}

/**
 * Starts `nvim --headless` as a user would start it (no -u: the configuration is read from
 * the config folder), with the blocks written under `home/config/nvim`, all of Neovim's
 * folders inside `home`, and `cwd` as its working folder. Resolves when Neovim has quit;
 * after `timeoutMs` its whole process group (the language server with it) is killed.
 */
export function runNeovim(options: {
  home: string;
  blocks: ConfigBlock[];
  steps: Step[];
  cwd: string;
  path: string;
  timeoutMs: number;
  /** More of the environment Neovim (and so the language server) runs with: LPREQ_TOKEN. */
  env?: Record<string, string>;
}): Promise<NeovimRun> {
  const { home, blocks, steps, cwd, timeoutMs } = options;
  const config = join(home, 'config');
  for (const b of blocks) {
    const file = join(config, 'nvim', b.file);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, b.text);
  }
  const resultsFile = join(home, 'results.json');
  const planFile = join(home, 'plan.json');
  writeFileSync(planFile, JSON.stringify({ results: resultsFile, steps }));
  const env: NodeJS.ProcessEnv = {
    HOME: home,
    PATH: options.path,
    XDG_CONFIG_HOME: config,
    XDG_DATA_HOME: join(home, 'data'),
    XDG_STATE_HOME: join(home, 'state'),
    XDG_CACHE_HOME: join(home, 'cache'),
    LPREQ_NVIM_PLAN: planFile,
    ...options.env,
  };
  const harness = join(import.meta.dirname, 'harness.lua');
  return new Promise((resolve, reject) => {
    const child = spawn('nvim', ['--headless', '-i', 'NONE', '-c', `luafile ${harness}`], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stderr = '';
    child.stdout.resume();
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const lspLog = () => {
      // 0.7 to 0.9 log to the cache folder, 0.10 and later to the state folder.
      for (const f of [join(home, 'state', 'nvim', 'lsp.log'), join(home, 'cache', 'nvim', 'lsp.log')])
        if (existsSync(f)) return readFileSync(f, 'utf8').slice(-4000);
      return '';
    };
    const timer = setTimeout(() => {
      killGroup(child.pid);
      reject(new Error(`Neovim did not finish its steps in ${timeoutMs} ms\nstderr: ${stderr}\nLSP log: ${lspLog()}`));
    }, timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('exit', () => {
      clearTimeout(timer);
      // The language server goes with Neovim; anything left of the group is not needed.
      killGroup(child.pid);
      if (!existsSync(resultsFile)) {
        reject(new Error(`Neovim quit without writing results\nstderr: ${stderr}\nLSP log: ${lspLog()}`));
        return;
      }
      const written = JSON.parse(readFileSync(resultsFile, 'utf8')) as {
        results: StepResult[] | Record<string, never>;
        messages: string;
      };
      // Lua's JSON writes an empty list as {}.
      resolve({
        results: Array.isArray(written.results) ? written.results : [],
        messages: written.messages,
        stderr,
        lspLog: lspLog(),
      });
    });
  });
}

function killGroup(pid: number | undefined) {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group has already gone.
  }
}
