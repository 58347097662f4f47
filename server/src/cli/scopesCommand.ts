/**
 * `lpreq scopes [--env NAME] [--format text|json] [PATH...]`: the token scopes the requests of
 * the files need (document A: `url:<METHOD>|<path pattern>` for every endpoint), each with the
 * requests that need it; the requests whose scope is unknown apart. `--format json` is the list
 * alone, what a developer key's settings, `lpreq mock --scopes` and an environment's `$scopes`
 * take.
 */
import { dirname, isAbsolute, relative } from 'node:path';
import {
  LineIndex,
  hasOwn,
  own,
  parseDocument,
  requestScopes,
  undocumentedScopes,
  type Checker,
  type ScopeNeed,
} from '../core/index';
import { environmentScopes, loadEnvironmentFiles } from '../node/index';
import { flagValue, parseArgs, UsageError } from './args';
import { collectInputs, readInput, type Io } from './check';
import { HELP_FLAG, helpText, type CommandHelp } from './help';
import { printable, printableJson } from './terminalText';

export const SCOPES_HELP: CommandHelp = {
  usage: 'usage: lpreq scopes [--env NAME] [--format text|json] [PATH...]',
  summary:
    'Lists the token scopes (url:<METHOD>|<path pattern>, document A) the requests of these files need, each with ' +
    'the requests that need it: url:GET|/api/v1/courses/{course_id}/modules for GET /api/v1/courses/42/modules. ' +
    "Exit 0: the list is complete; 1: a request's scope is unknown, or, with --env, the environment's $scopes " +
    'lacks one; 2: bad arguments or a file that cannot be read.',
  flags: {
    env: {
      value: true,
      arg: 'NAME',
      help: 'read {{variables}} from this environment, and compare the list with its "$scopes"',
    },
    format: {
      value: true,
      choices: ['text', 'json'],
      help: 'text: each scope with the requests that need it (the default); json: the sorted list alone',
    },
    help: HELP_FLAG,
  },
  operands: { 'PATH...': 'request files, and folders read recursively (default: the current folder)' },
  examples: ['lpreq scopes', 'lpreq scopes --format json requests/ > scopes.json', 'lpreq scopes --env staging'],
};

/** One request whose scope was asked for, where it stands. */
interface Found {
  file: string;
  line: number;
  method: string;
  target: string;
  need: ScopeNeed;
}

/** An environment's `$scopes`, with the scopes the files that read it need. */
interface Declared {
  label: string;
  list: readonly string[];
  needed: Set<string>;
}

export async function runScopes(argv: string[], io: Io, makeChecker: () => Checker): Promise<number> {
  const args = parseArgs(argv, SCOPES_HELP.flags);
  if (args.flags.has('help')) {
    io.stdout(helpText(SCOPES_HELP));
    return 0;
  }
  const format = flagValue(args, 'format') ?? 'text';
  const envName = flagValue(args, 'env');
  const paths = args.positionals.length > 0 ? args.positionals : ['.'];
  const { inputs, notes } = collectInputs(paths, io.cwd);
  const checker = makeChecker();
  const found: Found[] = [];
  const problems: string[] = [];
  const envProblems = new Set<string>();
  const declared = new Map<string, Declared>();
  const undeclared = new Set<string>();
  let envSeen = envName === undefined;
  let unreadable = 0;
  for (const input of inputs) {
    const read = await readInput(input, io);
    if (read.problem !== undefined) {
      unreadable++;
      problems.push(`${input.display}: ${read.problem}`);
      continue;
    }
    const files = loadEnvironmentFiles(input.absolute ? dirname(input.absolute) : io.cwd, undefined, (e) =>
      envProblems.add(e.message),
    );
    if (envName !== undefined && hasOwn(files.environments, envName)) envSeen = true;
    const scopes = environmentScopes(files);
    let list: Declared | undefined;
    const site = envName === undefined ? undefined : own(scopes.scopeSites, envName);
    if (envName !== undefined && !site && hasOwn(files.environments, envName))
      undeclared.add(
        `the environment ${envName} declares no $scopes (${shownPath(files.shared ?? files.private ?? '', io.cwd)}): nothing to compare the list with`,
      );
    if (envName !== undefined && site) {
      const key = `${site.file}\n${site.environment}\n${site.listFile ?? ''}`;
      list = declared.get(key);
      if (!list) {
        const where = shownPath(site.listFile ?? site.file, io.cwd);
        list = {
          label: `the $scopes of ${envName}${site.environment === envName ? '' : ` (from ${site.environment})`} in ${where}`,
          list: own(scopes.scopes, envName) ?? [],
          needed: new Set(),
        };
        declared.set(key, list);
      }
    }
    const index = new LineIndex(read.text);
    const env = { environments: files.environments, selected: envName };
    for (const r of requestScopes(checker, parseDocument(read.text), env)) {
      found.push({
        file: input.display,
        line: index.at(r.start).line,
        method: r.method,
        // The query is left out of what is shown: a value there may be anything, a credential too.
        target: r.target.replace(/[?#][\s\S]*$/, ''),
        need: r.need,
      });
      if (list && r.need.kind === 'scope') list.needed.add(r.need.scope);
    }
  }
  if (!envSeen)
    throw new UsageError(
      `no environment named '${envName}' in http-client.env.json or http-client.private.env.json${[...envProblems].map((p) => `\n${p}`).join('')}`,
    );
  for (const p of envProblems) problems.push(`${p}; its environments are not used until it is fixed`);
  problems.push(...undeclared, ...notes);

  const byScope = new Map<string, Found[]>();
  for (const f of found) {
    if (f.need.kind !== 'scope') continue;
    const list = byScope.get(f.need.scope);
    if (list) list.push(f);
    else byScope.set(f.need.scope, [f]);
  }
  const scopes = [...byScope.keys()].sort();
  const unknown = found.filter((f) => f.need.kind === 'unmatched' || f.need.kind === 'unreadable');
  const outside = found.filter((f) => f.need.kind === 'not-checked');
  const comparisons = [...declared.values()].map((d) => compare(d, checker));
  const missing = comparisons.some((c) => c.missing.length > 0);

  if (format === 'json') {
    io.stdout(`${printableJson(JSON.stringify(scopes))}\n`);
    // The list alone on standard output; what makes it incomplete, for the person reading the log.
    for (const f of unknown) problems.push(`${where(f)}: ${reason(f.need)}: its scope is unknown`);
    for (const c of comparisons) problems.push(...c.lines.map((l) => l.trim()));
  } else {
    io.stdout(textReport(scopes, byScope, unknown, outside, comparisons, found.length, inputs.length - unreadable));
  }
  for (const p of problems) io.stderr(`lpreq: ${printable(p)}\n`);
  if (unreadable > 0) return 2;
  return unknown.length > 0 || missing ? 1 : 0;
}

/** A file as the report names it: relative to the current folder when it is inside it. */
function shownPath(file: string, cwd: string): string {
  const rel = relative(cwd, file);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : file;
}

function where(f: Found): string {
  return `${f.file}:${f.line}`;
}

function reason(need: ScopeNeed): string {
  switch (need.kind) {
    case 'unmatched':
    case 'unreadable':
      return need.reason;
    case 'not-checked':
      return `${need.path} is outside /api/v1/ and /api/lti/`;
    case 'scope':
      return need.scope;
  }
}

/** What an environment's `$scopes` lacks and holds beyond what its files need. */
function compare(d: Declared, checker: Checker): { missing: string[]; lines: string[] } {
  const granted = new Set(d.list);
  const missing = [...d.needed].filter((s) => !granted.has(s)).sort();
  const undocumented = undocumentedScopes(checker.catalog, d.list);
  const strange = new Set(undocumented.map((u) => u.scope));
  const extra = [...granted].filter((s) => !d.needed.has(s) && !strange.has(s)).sort();
  const lines = [`compared with ${d.label}:`];
  for (const s of missing) lines.push(`  missing: ${s}`);
  for (const s of extra) lines.push(`  not needed: ${s}`);
  for (const u of undocumented)
    lines.push(
      `  not a documented scope: ${u.scope}${u.suggestion !== undefined ? ` (did you mean ${u.suggestion}?)` : ''}`,
    );
  if (lines.length === 1) lines.push('  the same scopes');
  return { missing, lines };
}

function textReport(
  scopes: string[],
  byScope: Map<string, Found[]>,
  unknown: Found[],
  outside: Found[],
  comparisons: { lines: string[] }[],
  requests: number,
  files: number,
): string {
  const out: string[] = [];
  for (const scope of scopes) {
    out.push(scope);
    for (const f of byScope.get(scope) ?? []) {
      const need = f.need as Extract<ScopeNeed, { kind: 'scope' }>;
      let note = '';
      if (need.path.deprecated) {
        const preferred = need.endpoint.paths.find((p) => !p.deprecated);
        note = preferred
          ? `  (a deprecated path: ${preferred.template} needs ${preferred.scope})`
          : '  (a deprecated path)';
      } else if (need.endpoint.deprecated) note = '  (a deprecated endpoint)';
      out.push(`  ${printable(where(f))}${note}`);
    }
  }
  if (unknown.length > 0) {
    out.push('', 'requests that match no documented endpoint (their scopes are unknown):');
    for (const f of unknown)
      out.push(`  ${printable(where(f))}  ${printable(`${f.method} ${f.target}`)}: ${printable(reason(f.need))}`);
  }
  if (outside.length > 0) {
    out.push('', 'requests outside the API (/api/v1/ and /api/lti/), which need no scope of it:');
    for (const f of outside) out.push(`  ${printable(where(f))}  ${printable(`${f.method} ${f.target}`)}`);
  }
  for (const c of comparisons) out.push('', ...c.lines.map((l) => printable(l)));
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  out.push(
    '',
    `${plural(scopes.length, 'scope')} for ${plural(requests, 'request')} in ${plural(files, 'file')}${unknown.length > 0 ? `; ${plural(unknown.length, 'request')} of unknown scope` : ''}`,
  );
  if (scopes.length === 0 && out[0] === '') out.shift();
  return `${out.join('\n')}\n`;
}
