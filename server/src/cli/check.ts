/** `lpreq check [--env NAME] [--format text|json|sarif|github] PATH...` (LPREQ-FORMAT section 5). */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Checker, type Diagnostic, type DiagnosticCode, DEFAULT_SEVERITY } from '../core/checker';
import { CODE_HELP } from '../core/codes';
import { LineIndex } from '../core/positions';
import { loadEnvironmentFiles } from '../node/environments';
import { flagValue, parseArgs, UsageError } from './args';
import { hasOwn } from '../core/own';

export const CHECK_USAGE = 'usage: lpreq check [--env NAME] [--format text|json|sarif|github] PATH...';

/** Files larger than this are reported, not checked (a request file is a few kilobytes). */
const MAX_FILE_BYTES = 64 * 1024 * 1024;

export interface FileDiagnostic {
  file: string;
  line: number;
  column: number;
  endLine: number;
  endColumn: number;
  severity: Diagnostic['severity'];
  code: DiagnosticCode;
  message: string;
}

export interface Io {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  readStdin: () => string;
  isTTY: boolean;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Asks the person at the terminal (on standard error); absent when standard input is not a terminal. Undefined: cancelled. */
  ask?: (question: string, secret: boolean) => Promise<string | undefined>;
}

interface Input {
  /** The path as shown in the output. */
  display: string;
  /** The absolute path, or undefined for standard input. */
  absolute?: string;
}

function collect(path: string, cwd: string): Input[] {
  if (path === '-') return [{ display: '-' }];
  const absolute = resolve(cwd, path);
  let stat;
  try {
    stat = statSync(absolute);
  } catch {
    throw new UsageError(`${path}: no such file or folder`);
  }
  if (stat.isFile()) return [{ display: path, absolute }];
  if (!stat.isDirectory()) throw new UsageError(`${path}: not a file or folder`);
  const out: Input[] = [];
  const walk = (dir: string, shown: string) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch (e) {
      throw new UsageError(`${shown}: cannot read the folder (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (entry.name === 'node_modules' || entry.name === '.git') continue;
      const full = join(dir, entry.name);
      const display = shown === '.' ? entry.name : join(shown, entry.name);
      if (entry.isDirectory()) walk(full, display);
      else if (entry.isFile() && entry.name.endsWith('.lpreq')) out.push({ display, absolute: full });
    }
  };
  walk(absolute, path.replace(/[\\/]+$/, '') || path);
  return out;
}

function readInput(input: Input, io: Io): string {
  if (!input.absolute) return io.readStdin();
  let size: number;
  try {
    size = statSync(input.absolute).size;
  } catch {
    throw new UsageError(`${input.display}: no such file`);
  }
  if (size > MAX_FILE_BYTES) throw new UsageError(`${input.display}: ${Math.round(size / 1048576)} MB is too large for a request file (limit 64 MB)`);
  let buffer: Buffer;
  try {
    buffer = readFileSync(input.absolute);
  } catch (e) {
    throw new UsageError(`${input.display}: cannot be read (${(e as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  if (buffer.subarray(0, 8192).includes(0)) throw new UsageError(`${input.display}: a binary file, not a request file`);
  return buffer.toString('utf8');
}

/** Runs `lpreq check`; `makeChecker` is called once the arguments and paths are known to be good. */
export function runCheck(argv: string[], io: Io, makeChecker: () => Checker): number {
  const args = parseArgs(argv, {
    env: { value: true },
    format: { value: true, choices: ['text', 'json', 'sarif', 'github'] },
    help: {},
  });
  if (args.flags.has('help')) {
    io.stdout(`${CHECK_USAGE}\n`);
    return 0;
  }
  if (args.positionals.length === 0) throw new UsageError(`no path given\n${CHECK_USAGE}`);
  const format = flagValue(args, 'format') ?? 'text';
  const envName = flagValue(args, 'env');
  // A file named twice (itself and inside a folder given too) is checked once, where it first comes.
  const seenPaths = new Set<string>();
  const inputs = args.positionals.flatMap((p) => collect(p, io.cwd)).filter((i) => i.absolute === undefined || (!seenPaths.has(i.absolute) && !!seenPaths.add(i.absolute)));
  let checker: Checker | undefined;
  const results: FileDiagnostic[] = [];
  let envSeen = envName === undefined;
  const problems: string[] = [];
  const envProblems = new Set<string>();
  for (const input of inputs) {
    // A byte order mark is not a character of the first line: columns count from after it, as editors show them.
    const raw = readInput(input, io);
    const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
    // A broken environment file is told once; its files are checked without its variables, as the editor does.
    const envFiles = loadEnvironmentFiles(input.absolute ? dirname(input.absolute) : io.cwd, undefined, (e) => envProblems.add(e.message));
    if (envName !== undefined && hasOwn(envFiles.environments, envName)) envSeen = true;
    checker ??= makeChecker();
    const diagnostics = checker.diagnose(text, { environments: envFiles.environments, selected: envName });
    const index = new LineIndex(text);
    for (const d of diagnostics) {
      const s = index.at(d.start);
      const e = index.at(Math.max(d.end, d.start));
      results.push({ file: input.display, line: s.line, column: s.column, endLine: e.line, endColumn: e.column, severity: d.severity, code: d.code, message: d.message });
    }
  }
  if (!envSeen) {
    const unread = [...envProblems].map((p) => `\n${p}`).join('');
    throw new UsageError(`no environment named '${envName}' in http-client.env.json or http-client.private.env.json${unread}`);
  }
  for (const p of envProblems) problems.push(`${p}; its environments are not used until it is fixed`);
  if (inputs.length === 0) problems.push('no .lpreq files found');
  switch (format) {
    case 'json':
      io.stdout(`${JSON.stringify(results)}\n`);
      break;
    case 'sarif':
      io.stdout(`${JSON.stringify(toSarif(results, io.cwd), null, 2)}\n`);
      break;
    case 'github':
      for (const r of results) io.stdout(`${toGithub(r)}\n`);
      break;
    default:
      io.stdout(toText(results, inputs.length, io.isTTY && !io.env.NO_COLOR));
  }
  for (const p of problems) io.stderr(`lpreq: ${p}\n`);
  return results.some((r) => r.severity === 'error') ? 1 : 0;
}

function toText(results: FileDiagnostic[], files: number, colour: boolean): string {
  const paint = (code: string, s: string) => (colour ? `\x1b[${code}m${s}\x1b[0m` : s);
  const lines = results.map((r) => {
    const sev = r.severity === 'error' ? paint('31', 'error') : r.severity === 'warning' ? paint('33', 'warning') : paint('36', r.severity);
    return `${paint('1', `${r.file}:${r.line}:${r.column}`)}: ${sev} ${paint('2', r.code)}: ${r.message}`;
  });
  const errors = results.filter((r) => r.severity === 'error').length;
  const warnings = results.filter((r) => r.severity === 'warning').length;
  const summary = `${files} file${files === 1 ? '' : 's'} checked: ${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`;
  return `${lines.join('\n')}${lines.length ? '\n' : ''}${summary}\n`;
}

function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function toGithub(r: FileDiagnostic): string {
  const level = r.severity === 'error' ? 'error' : r.severity === 'warning' ? 'warning' : 'notice';
  const props = [
    `file=${escapeProperty(r.file)}`,
    `line=${r.line}`,
    `col=${r.column}`,
    `endLine=${r.endLine}`,
    `endColumn=${r.endColumn}`,
    `title=${escapeProperty(`lpreq ${r.code}`)}`,
  ];
  return `::${level} ${props.join(',')}::${escapeData(r.message)}`;
}

function toSarif(results: FileDiagnostic[], cwd: string) {
  const codes = Object.keys(CODE_HELP) as DiagnosticCode[];
  const level = (s: string) => (s === 'error' ? 'error' : s === 'warning' ? 'warning' : 'note');
  return {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: {
          driver: {
            name: 'lpreq',
            informationUri: 'https://github.com/lpreq/lpreq',
            version: '0.1.0',
            rules: codes.map((code) => ({
              id: code,
              name: CODE_HELP[code].title.replace(/[^A-Za-z]+(.)?/g, (_, c: string | undefined) => (c ? c.toUpperCase() : '')),
              shortDescription: { text: CODE_HELP[code].title },
              fullDescription: { text: CODE_HELP[code].help },
              help: { text: CODE_HELP[code].help, markdown: CODE_HELP[code].help },
              helpUri: `https://github.com/lpreq/lpreq/blob/main/docs/codes.md#${code}`,
              defaultConfiguration: { level: level(DEFAULT_SEVERITY[code]) },
            })),
          },
        },
        columnKind: 'utf16CodeUnits',
        // URIs, not paths: spaces, `#` and `%` in folder and file names are percent-encoded.
        originalUriBaseIds: { '%SRCROOT%': { uri: `${pathToFileURL(cwd).href.replace(/\/?$/, '/')}` } },
        results: results.map((r) => ({
          ruleId: r.code,
          ruleIndex: codes.indexOf(r.code),
          level: level(r.severity),
          message: { text: r.message },
          locations: [
            {
              physicalLocation: {
                artifactLocation: { uri: relative(cwd, resolve(cwd, r.file)).split(sep).map(encodeURIComponent).join('/'), uriBaseId: '%SRCROOT%' },
                region: { startLine: r.line, startColumn: r.column, endLine: r.endLine, endColumn: r.endColumn },
              },
            },
          ],
        })),
      },
    ],
  };
}
