/** `lpreq check [--env NAME] [--format text|json|sarif|github] PATH...` (LPREQ-FORMAT section 5). */
import { lstatSync, readdirSync, readlinkSync, realpathSync, statSync, type Dirent } from 'node:fs';
import { dirname, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Checker, CODES, type Diagnostic, type CodeName, LineIndex, hasOwn } from '../core/index';
import {
  environmentScopes,
  loadEnvironmentFiles,
  readTextInput,
  readTextStream,
  sharedClientSecrets,
  type Io,
  type TextRead,
} from '../node/index';
import { flagValue, parseArgs, UsageError } from './args';
import { HELP_FLAG, helpText, type CommandHelp } from './help';
import { diagnosticRules, sarifLog } from './sarif';
import { noWorkflowCommands, printable, printableJson } from './terminalText';

export const CHECK_HELP: CommandHelp = {
  usage: 'usage: lpreq check [--env NAME] [--format text|json|sarif|github] [PATH...]',
  summary:
    'Checks request files against the API documentation, as the editor does, and exits with 1 when one has an error (2 when the command could not run).',
  flags: {
    env: {
      value: true,
      arg: 'NAME',
      help: 'the environment whose variables count as defined (default: a variable of any environment counts)',
    },
    format: {
      value: true,
      choices: ['text', 'json', 'sarif', 'github'],
      help: 'text (a line a diagnostic, the default), json, sarif, or github (workflow annotations)',
    },
    help: HELP_FLAG,
  },
  operands: {
    'PATH...': 'files and folders to check, folders for their *.lpreq files below them (default: this folder)',
  },
  examples: ['lpreq check', 'lpreq check requests/ --env staging', 'lpreq check --format github .'],
};

/**
 * The code of an input that could not be checked (binary, too large, unreadable, a link to
 * nothing): the command line's own, beside the checker's, so that every format reports it
 * where CI looks, at line 1 of that file. Such a run exits with 2.
 */
const UNREADABLE_FILE = 'unreadable-file' satisfies CodeName;
const CLIENT_SECRET_CODE = 'client-secret-in-shared-file' satisfies CodeName;

export interface FileDiagnostic {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: Diagnostic['severity'];
  code: CodeName;
  /** One short sentence (what is wrong, and the fix). */
  message: string;
  /** What stands behind it, a fact a line: the endpoint, the documentation's words, the documented row. */
  detail?: string;
}

// The commands' Io is the node helpers' (node/io.ts, which `lpreq lsp` takes too); the command line's files name it from here.
export type { Io };

export interface Input {
  /** The path as shown in the output. */
  display: string;
  /** The absolute path, or undefined for standard input. */
  absolute?: string;
  /** Why it cannot be read, when that is known from walking the folder. */
  problem?: string;
}

/** What a walk has met: each folder and each file by its real path, so a link loop ends and a file is checked once. */
interface Seen {
  /** Each folder walked, with the count of request files met at or below it (0 while it is being walked). */
  folders: Map<string, number>;
  files: Set<string>;
  /** Things skipped that the user should hear of (on standard error). */
  notes: string[];
}

/** The path with every link resolved (one system call), or the path itself when that fails. */
function realPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}

/** Why a path that stat cannot follow is unusable: a link to nothing, a loop, or no permission. */
function brokenPath(absolute: string, e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ELOOP') return 'a symbolic link that leads back to itself';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be reached (permission denied)';
  try {
    if (lstatSync(absolute).isSymbolicLink())
      return `a symbolic link to ${readlinkSync(absolute)}, which does not exist`;
  } catch {
    // Not there at all.
  }
  return 'no such file or folder';
}

function isRequestFile(name: string): boolean {
  return name.endsWith('.lpreq');
}

/**
 * The inputs a path stands for: itself for a file (or a pipe: `<(command)`), the `*.lpreq`
 * files below it for a folder, symbolic links followed. A path that does not exist, or a
 * folder without one request file, is a usage error: in CI it is a wrong path.
 */
function collect(path: string, cwd: string, seen: Seen): Input[] {
  if (path === '-') {
    if (seen.files.has('-')) return [];
    seen.files.add('-');
    return [{ display: '-' }];
  }
  const absolute = resolve(cwd, path);
  let stat;
  try {
    stat = statSync(absolute);
  } catch (e) {
    throw new UsageError(`${path}: ${brokenPath(absolute, e)}`);
  }
  if (stat.isFile() || stat.isFIFO() || stat.isCharacterDevice()) {
    const real = realPath(absolute);
    if (seen.files.has(real)) return [];
    seen.files.add(real);
    return [{ display: path, absolute }];
  }
  if (!stat.isDirectory()) throw new UsageError(`${path}: not a file or folder`);
  const out: Input[] = [];
  // Files met count even when they were checked under another name already (a folder named twice is not empty).
  if (walk(absolute, path.replace(/[\\/]+$/, '') || path, seen, out) === 0)
    throw new UsageError(`${path}: no .lpreq file in this folder or below it`);
  return out;
}

/** Adds the request files at or below `dir` to `out`; returns how many it met, new or not. */
function walk(dir: string, shown: string, seen: Seen, out: Input[]): number {
  const real = realPath(dir);
  const known = seen.folders.get(real);
  if (known !== undefined) return known;
  seen.folders.set(real, 0);
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch (e) {
    // Its files are unknown, so it counts as an input that could not be read.
    out.push({
      display: shown,
      absolute: dir,
      problem: `cannot read the folder (${(e as NodeJS.ErrnoException).code ?? 'error'})`,
    });
    seen.folders.set(real, 1);
    return 1;
  }
  let met = 0;
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name === 'node_modules' || entry.name === '.git') continue;
    const full = join(dir, entry.name);
    const display = shown === '.' ? entry.name : join(shown, entry.name);
    let kind: 'file' | 'folder' | 'other' = entry.isDirectory() ? 'folder' : entry.isFile() ? 'file' : 'other';
    // Without a link, the real path is the folder's joined with the name: no system call per file.
    let key = join(real, entry.name);
    if (entry.isSymbolicLink()) {
      let target;
      try {
        target = statSync(full);
      } catch (e) {
        const why = brokenPath(full, e);
        if (isRequestFile(entry.name)) {
          out.push({ display, absolute: full, problem: why });
          met++;
        }
        // A link to nothing under another name might have led to a folder of requests: say it was skipped.
        else seen.notes.push(`${display}: ${why}; skipped`);
        continue;
      }
      kind = target.isDirectory() ? 'folder' : target.isFile() ? 'file' : 'other';
      key = realPath(full);
    }
    if (kind === 'folder') met += walk(full, display, seen, out);
    else if (isRequestFile(entry.name)) {
      met++;
      if (seen.files.has(key)) continue;
      seen.files.add(key);
      // A pipe or device found in a folder is not read: it could block the run for ever.
      out.push(
        kind === 'file'
          ? { display, absolute: full }
          : {
              display,
              absolute: full,
              problem: 'not a regular file (a pipe, socket or device); name it on the command line to read it',
            },
      );
    }
  }
  seen.folders.set(real, met);
  return met;
}

/**
 * The request files that paths stand for, in the order `lpreq check` and `lpreq test` take
 * them (files as named, each folder's `*.lpreq` below it in path order, links followed, each
 * file once), and notes for standard error on what was skipped. A path that does not exist, or
 * a folder without a request file, is a usage error.
 */
export function collectInputs(paths: string[], cwd: string): { inputs: Input[]; notes: string[] } {
  const seen: Seen = { folders: new Map(), files: new Set(), notes: [] };
  const inputs = paths.flatMap((p) => collect(p, cwd, seen));
  return { inputs, notes: seen.notes };
}

export function readInput(input: Input, io: Io): Promise<TextRead> | TextRead {
  if (input.problem !== undefined) return { problem: input.problem };
  if (input.absolute !== undefined) return readTextInput(input.absolute);
  const stdin = io.readStdin();
  return readTextStream(typeof stdin === 'string' ? [stdin] : stdin);
}

/** The request files of the folder the command runs in; without one, a usage error that says what to give. */
function collectHere(cwd: string): { inputs: Input[]; notes: string[] } {
  try {
    return collectInputs(['.'], cwd);
  } catch (e) {
    if (e instanceof UsageError && / no \.lpreq file/.test(e.message))
      throw new UsageError('no .lpreq file in this folder or below it: give the files or folders to check');
    throw e;
  }
}

/** Runs `lpreq check`; `makeChecker` is called once the arguments and paths are known to be good. */
export async function runCheck(argv: string[], io: Io, makeChecker: () => Checker): Promise<number> {
  const args = parseArgs(argv, CHECK_HELP.flags);
  if (args.flags.has('help')) {
    io.stdout(helpText(CHECK_HELP));
    return 0;
  }
  // No path: the folder the command runs in, walked as any folder.
  const here = args.positionals.length === 0;
  if (here) args.positionals.push('.');
  const format = flagValue(args, 'format') ?? 'text';
  const envName = flagValue(args, 'env');
  // A file reached twice (named and inside a folder given too, or through a link) is checked once, where it first comes.
  const { inputs, notes } = here ? collectHere(io.cwd) : collectInputs(args.positionals, io.cwd);
  let checker: Checker | undefined;
  const results: FileDiagnostic[] = [];
  let envSeen = envName === undefined;
  let unreadable = 0;
  const problems: string[] = [];
  const envProblems = new Set<string>();
  /** The shared environment files met: each is checked once for what it must not hold (a client secret). */
  const sharedFiles = new Set<string>();
  for (const input of inputs) {
    const read = await readInput(input, io);
    if (read.problem !== undefined) {
      unreadable++;
      results.push({
        file: input.display,
        line: 1,
        column: 1,
        endLine: 1,
        endColumn: 1,
        severity: 'error',
        code: UNREADABLE_FILE,
        message: read.problem,
      });
      continue;
    }
    // The reader skipped a byte order mark: columns count from after it, as editors show them.
    const text = read.text;
    // A broken environment file is told once; its files are checked without its variables, as the editor does.
    const envFiles = loadEnvironmentFiles(input.absolute ? dirname(input.absolute) : io.cwd, undefined, (e) =>
      envProblems.add(e.message),
    );
    if (envName !== undefined && hasOwn(envFiles.environments, envName)) envSeen = true;
    if (envFiles.shared !== undefined) sharedFiles.add(envFiles.shared);
    checker ??= makeChecker();
    const diagnostics = checker.diagnose(text, {
      environments: envFiles.environments,
      selected: envName,
      scopes: environmentScopes(envFiles).scopes,
    });
    const index = new LineIndex(text);
    for (const d of diagnostics) {
      const s = index.at(d.start);
      const e = index.at(Math.max(d.end, d.start));
      results.push({
        file: input.display,
        line: s.line,
        column: s.column,
        endLine: e.line,
        endColumn: e.column,
        severity: d.severity,
        code: d.code,
        message: d.message,
        ...(d.related ? { detail: d.related.join('\n') } : {}),
      });
    }
  }
  for (const file of sharedFiles) results.push(...environmentFindings(file, io.cwd));
  if (!envSeen) {
    const unread = [...envProblems].map((p) => `\n${p}`).join('');
    throw new UsageError(
      `no environment named '${envName}' in http-client.env.json or http-client.private.env.json${unread}`,
    );
  }
  for (const p of envProblems) problems.push(`${p}; its environments are not used until it is fixed`);
  problems.push(...notes);
  const couldNotRead = `${unreadable} file${unreadable === 1 ? '' : 's'} could not be read`;
  switch (format) {
    case 'json':
      io.stdout(`${printableJson(JSON.stringify(results))}\n`);
      break;
    case 'sarif':
      io.stdout(`${printableJson(JSON.stringify(toSarif(results, io.cwd), null, 2))}\n`);
      break;
    case 'github':
      for (const r of results) io.stdout(`${toGithub(r)}\n`);
      break;
    default:
      io.stdout(
        noWorkflowCommands(
          toText(
            results,
            inputs.length - unreadable,
            unreadable > 0 ? couldNotRead : undefined,
            io.isTTY && !io.env.NO_COLOR,
          ),
        ),
      );
  }
  // The text summary says it; the other formats list the files, and a person reading the log hears it here.
  if (unreadable > 0 && format !== 'text') problems.push(`${couldNotRead} (code ${UNREADABLE_FILE} in the output)`);
  for (const p of problems) io.stderr(`lpreq: ${p}\n`);
  // An input left unchecked is worse than an error found: nothing is known about it.
  if (unreadable > 0) return 2;
  return results.some((r) => r.severity === 'error') ? 1 : 0;
}

/** What a shared environment file must not hold (a client secret), as diagnostics on that file, named relative to `cwd`. */
function environmentFindings(file: string, cwd: string): FileDiagnostic[] {
  const read = sharedClientSecrets(file, dirname(file));
  if (read.text === undefined) return [];
  const index = new LineIndex(read.text);
  const shown = relative(cwd, file);
  return read.findings.map((f) => {
    const s = index.at(f.start);
    const e = index.at(f.end);
    return {
      file: shown.startsWith('..') || isAbsolute(shown) ? file : shown,
      line: s.line,
      column: s.column,
      endLine: e.line,
      endColumn: e.column,
      severity: CODES[CLIENT_SECRET_CODE].severity,
      code: CLIENT_SECRET_CODE,
      message: `the Client Secret of Security.Auth.${f.id} of '${f.environment}' is written in the shared environment file: lpreq never uses it; move it to http-client.private.env.json under the same key`,
    };
  });
}

function toText(results: FileDiagnostic[], files: number, unreadable: string | undefined, colour: boolean): string {
  const paint = (code: string, s: string) => (colour ? `\x1b[${code}m${s}\x1b[0m` : s);
  // File names and messages (which quote the file's values) are the only text not written here: made printable.
  const lines = results.map((r) => {
    const sev =
      r.severity === 'error'
        ? paint('31', 'error')
        : r.severity === 'warning'
          ? paint('33', 'warning')
          : paint('36', r.severity);
    return `${paint('1', `${printable(r.file)}:${r.line}:${r.column}`)}: ${sev} ${paint('2', r.code)}: ${printable(r.message)}`;
  });
  const checked = results.filter((r) => r.code !== UNREADABLE_FILE);
  const errors = checked.filter((r) => r.severity === 'error').length;
  const warnings = checked.filter((r) => r.severity === 'warning').length;
  const summary = `${files} file${files === 1 ? '' : 's'} checked: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}${unreadable ? `; ${unreadable}` : ''}`;
  return `${lines.join('\n')}${lines.length ? '\n' : ''}${summary}\n`;
}

/** A workflow command's message, escaped as GitHub reads it. */
export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** A workflow command's property value (`file=`, `title=`), escaped as GitHub reads it. */
export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function toGithub(r: FileDiagnostic): string {
  const level = r.severity === 'error' ? 'error' : r.severity === 'warning' ? 'warning' : 'notice';
  const props = [
    `file=${escapeProperty(printable(r.file))}`,
    `line=${r.line}`,
    `col=${r.column}`,
    `endLine=${r.endLine}`,
    `endColumn=${r.endColumn}`,
    `title=${escapeProperty(`lpreq ${r.code}`)}`,
  ];
  return `::${level} ${props.join(',')}::${escapeData(printable(r.message))}`;
}

function toSarif(results: FileDiagnostic[], cwd: string) {
  const unread = results.filter((r) => r.code === UNREADABLE_FILE);
  const location = (r: FileDiagnostic) => ({
    physicalLocation: {
      artifactLocation: {
        uri: relative(cwd, resolve(cwd, r.file)).split(sep).map(encodeURIComponent).join('/'),
        uriBaseId: '%SRCROOT%',
      },
      region: { startLine: r.line, startColumn: r.column, endLine: r.endLine, endColumn: r.endColumn },
    },
  });
  return sarifLog({
    rules: diagnosticRules(),
    // A file that could not be read makes the run incomplete: SARIF says so here, besides the result on the file.
    invocation: {
      executionSuccessful: unread.length === 0,
      ...(unread.length > 0
        ? {
            toolExecutionNotifications: unread.map((r) => ({
              level: 'error',
              message: { text: `${r.file}: ${r.message}` },
              locations: [location(r)],
            })),
          }
        : {}),
    },
    extra: {
      columnKind: 'utf16CodeUnits',
      // URIs, not paths: spaces, `#` and `%` in folder and file names are percent-encoded.
      originalUriBaseIds: { '%SRCROOT%': { uri: `${pathToFileURL(cwd).href.replace(/\/?$/, '/')}` } },
    },
    results: results.map((r) => ({
      ruleId: r.code,
      severity: r.severity,
      message: r.message,
      locations: [location(r)],
    })),
  });
}
