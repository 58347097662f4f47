/**
 * `lpreq send PATH [--name NAME | --line N] [--env NAME] [--all-pages] [--timeout MS]
 * [--format text|json] [--history DIR | --no-history] [--resend-dependencies] [--proxy URL]
 * [--max-pages N] [--max-body-size SIZE] [--prompt NAME=VALUE]... [--yes]`
 * (LPREQ-FORMAT section 5; --prompt answers a `# @prompt NAME` variable, asked at the terminal otherwise).
 * Every exchange goes to a history (`.lpreq/history` in the folder of the environment files by
 * default), and a request that refers to another reads that one's last response from it.
 * Bundled to dist/send.js; `run` is what dist/lpreq.js calls. Exit status: 0 for a 2xx,
 * 1 for any other status or a failed exchange, 2 for bad arguments.
 */
import { resolve } from 'node:path';
import { bundledCatalog } from '../catalogData';
import {
  Checker,
  LineIndex,
  lineOfOffset,
  lineStarts,
  parseDocument,
  requestName,
  requestTarget,
  type LpreqDocument,
  setOwn,
} from '../core/index';
import { readTextInput } from '../node/index';
import {
  stringifyExact,
  HistoryStore,
  scrubSecrets,
  shellQuote,
  blockAtLine,
  blockNamed,
  projectStore,
  requestBlocks,
  SendSession,
  SetupError,
  tokenNotes,
  wasSent,
  type FileSetup,
  type SendResult,
} from '../sender/index';
import { flagValue, parseArgs, UsageError, type ParsedArgs } from './args';
import { HELP_FLAG, helpText, type CommandHelp } from './help';
import type { Io } from './check';
import { byteSize, cliSessionHost, positiveInt, promptFlags, proxyFlag } from './sendSetup';
import { commandLineSignIns } from './signIn';
import { noWorkflowCommands, printable, printableErrors, printableJson } from './terminalText';

export const SEND_HELP: CommandHelp = {
  usage:
    'usage: lpreq send PATH [--name NAME | --line N] [--env NAME] [--all-pages] [--timeout MS] [--format text|json] [--history DIR | --no-history] [--resend-dependencies] [--proxy URL] [--max-pages N] [--max-body-size SIZE] [--prompt NAME=VALUE]... [--yes] [--token-origin ORIGIN]',
  summary:
    'Sends one request of a file (the named one, the one at a line, or the only one) and prints the response, checked against the documented type. Without --name or --line in a file of several, it lists them, and on a terminal asks which.',
  flags: {
    name: { value: true, arg: 'NAME', help: 'the request whose # @name is NAME' },
    line: { value: true, arg: 'N', help: 'the request that holds line N' },
    env: {
      value: true,
      arg: 'NAME',
      help: 'the environment of http-client.env.json to send to (its base_url, its token); default local, or the only one',
    },
    'all-pages': { help: 'follow the Link: rel="next" pages of a list and print them merged' },
    timeout: {
      value: true,
      arg: 'MS',
      help: 'how long to wait for the whole response, in milliseconds (default 30000)',
    },
    format: {
      value: true,
      choices: ['text', 'json'],
      help: 'text (the default) or json: status, headers, body, durationMs, resource, issues',
    },
    history: { value: true, arg: 'DIR', help: 'keep the history of exchanges in DIR (default .lpreq/history)' },
    'no-history': { help: 'keep no history: a request another refers to is sent again' },
    'resend-dependencies': { help: 'send again the requests this one refers to, instead of reading their last answer' },
    proxy: { value: true, arg: 'URL', help: 'send through this http(s) proxy' },
    'max-pages': { value: true, arg: 'N', help: 'with --all-pages, stop after N pages (default 100)' },
    'max-body-size': {
      value: true,
      arg: 'SIZE',
      help: 'the largest response body read (10MB, 512 KiB; default 10485760, 10 MiB); a larger one is cut and kept in a file',
    },
    prompt: {
      value: true,
      arg: 'NAME=VALUE',
      repeat: true,
      help: 'the answer to a # @prompt NAME of the request (repeatable)',
    },
    yes: { help: 'send POST, PUT, PATCH and DELETE to a protected environment without asking' },
    'token-origin': {
      value: true,
      arg: 'ORIGIN',
      help: "send nothing unless the environment's base_url is on ORIGIN, the token's (LPREQ_TOKEN_ORIGIN says the same)",
    },
    help: HELP_FLAG,
  },
  operands: { PATH: 'the request file' },
  examples: [
    'lpreq send requests/modules.lpreq --name createModule --env staging',
    'lpreq send requests/files.lpreq --line 12 --all-pages --format json',
  ],
};

/** The requests of a file, a line each: its number, title, how to choose it, its line and request line. */
function describeRequests(document: LpreqDocument, indexes: number[]): string {
  const starts = lineStarts(document.text);
  const rows = indexes.map((i, n) => {
    const { start, block } = document.blocks[i];
    const line = lineOfOffset(starts, start + (block.request?.start ?? 0)) + 1;
    const name = requestName(block);
    const title = block.title?.text.trim() || '(no title)';
    const request = block.request ? `${block.request.method.text} ${requestTarget(block.request)}` : '';
    return [
      `${n + 1}`,
      title.length > 48 ? `${title.slice(0, 47)}…` : title,
      name ? `--name ${name}` : `--line ${line}`,
      `line ${line}: ${request}`,
    ];
  });
  const widths = [0, 1, 2].map((c) => Math.max(...rows.map((r) => r[c].length)));
  return rows
    .map((r) => `  ${r[0].padStart(widths[0])}  ${r[1].padEnd(widths[1])}  ${r[2].padEnd(widths[2])}  ${r[3]}`)
    .join('\n');
}

/** A request chosen by its number in the list, or by its @name; undefined for an answer that is neither. */
function pickedFrom(document: LpreqDocument, requests: number[], answer: string): number | undefined {
  const text = answer.trim().replace(/^@/, '');
  if (/^\d+$/.test(text)) return requests[Number(text) - 1];
  const named = blockNamed(document, text);
  return named !== -1 && requests.includes(named) ? named : undefined;
}

async function chooseBlock(
  document: LpreqDocument,
  name: string | undefined,
  line: number | undefined,
  path: string,
  io: Io,
): Promise<number | undefined> {
  const requests = requestBlocks(document);
  if (requests.length === 0) throw new UsageError(`${path}: there is no request in this file`);
  if (name !== undefined) {
    const index = blockNamed(document, name);
    if (index === -1 || !document.blocks[index].block.request) {
      throw new UsageError(
        `${path}: no request is named '${name}'; the requests are:\n${describeRequests(document, requests)}`,
      );
    }
    return index;
  }
  if (line !== undefined) {
    const index = blockAtLine(document, line);
    if (index === -1 || !document.blocks[index].block.request) {
      throw new UsageError(
        `${path}: line ${line} is not inside a request; the requests are:\n${describeRequests(document, requests)}`,
      );
    }
    return index;
  }
  if (requests.length === 1) return requests[0];
  const list = describeRequests(document, requests);
  // At a terminal the person picks one; a script names it.
  if (!io.ask)
    throw new UsageError(`${path} holds ${requests.length} requests; choose one with --name or --line:\n${list}`);
  io.stderr(`${path} holds ${requests.length} requests:\n${list}\n`);
  for (;;) {
    const answer = await io.ask(`Send which request? (1-${requests.length} or a name; Enter to cancel) `, false);
    if (answer === undefined || answer.trim() === '') return undefined;
    const picked = pickedFrom(document, requests, answer);
    if (picked !== undefined) return picked;
    io.stderr(`lpreq: '${answer.trim()}' is neither a number from 1 to ${requests.length} nor a request's @name\n`);
  }
}

export async function run(argv: string[], given: Io): Promise<number> {
  // Messages and questions quote the request file and the server: no control character reaches the terminal as it is.
  const io = printableErrors(given);
  // This bundle has its own UsageError class: report it here, not in dist/lpreq.js.
  try {
    return await runSend(argv, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`lpreq send: ${e.message}\n`);
      return 2;
    }
    io.stderr(`lpreq send: internal error: ${(e as Error)?.message ?? String(e)}\n`);
    return 2;
  }
}

async function runSend(argv: string[], io: Io): Promise<number> {
  const args = parseArgs(argv, SEND_HELP.flags);
  if (args.flags.has('help')) {
    io.stdout(helpText(SEND_HELP));
    return 0;
  }
  if (args.positionals.length !== 1) throw new UsageError(`send takes one request file\n${SEND_HELP.usage}`);
  const name = flagValue(args, 'name');
  const line = positiveInt(flagValue(args, 'line'), 'line');
  if (name !== undefined && line !== undefined)
    throw new UsageError('--name and --line choose the same thing: give one of them');
  const timeoutMs = positiveInt(flagValue(args, 'timeout'), 'timeout');
  const maxPages = positiveInt(flagValue(args, 'max-pages'), 'max-pages');
  const maxBodyBytes = byteSize(flagValue(args, 'max-body-size'), 'max-body-size');
  // As the editor's lpreq.maxBodySize: at least 1 KiB.
  if (maxBodyBytes !== undefined && maxBodyBytes < 1024)
    throw new UsageError(`--max-body-size is at least 1024 (bytes), not ${maxBodyBytes}`);
  const format = flagValue(args, 'format') ?? 'text';
  const prompts = promptFlags(args);
  if (flagValue(args, 'history') !== undefined && args.flags.has('no-history'))
    throw new UsageError('--history DIR and --no-history contradict each other: give one of them');
  const proxy = proxyFlag(args);
  const path = args.positionals[0];
  const absolute = resolve(io.cwd, path);

  // The reader of `lpreq check`: the same size limit, decoding and words for a file that cannot be read.
  const read = await readTextInput(absolute);
  if (read.problem !== undefined) throw new UsageError(`${path}: ${read.problem}`);
  const text = read.text;
  const document = parseDocument(text);
  const blockIndex = await chooseBlock(document, name, line, path, io);
  if (blockIndex === undefined) {
    io.stderr('lpreq send: nothing sent\n');
    return 2;
  }

  const checker = new Checker(bundledCatalog());
  // The environment's OAuth 2.0 sign-in is the session's, once for this process (signIn.ts); Ctrl+C stops it.
  const signIns = commandLineSignIns(io, proxy);
  const session = new SendSession(
    cliSessionHost(io, {
      yes: args.flags.has('yes'),
      tokenOrigin: flagValue(args, 'token-origin'),
      history: (projectFolder) => historyStore(args, io, projectFolder),
      signIns,
    }),
    checker,
  );
  const controller = new AbortController();
  const onSigint = () => controller.abort();
  process.once('SIGINT', onSigint);
  let setup: FileSetup;
  try {
    setup = await session.setup(absolute, { environment: flagValue(args, 'env'), signal: controller.signal });
  } catch (e) {
    process.removeListener('SIGINT', onSigint);
    if (e instanceof SetupError) throw new UsageError(scrubSecrets(e.message, signIns.secrets()));
    throw e;
  }
  const { selected, environments, token, privateToken } = setup;

  const { start, block } = document.blocks[blockIndex];
  const index = new LineIndex(text);
  const errors = checker
    .checkDocument(document, environments)
    .filter((d) => d.severity === 'error' && d.start >= start && d.start < start + block.text.length);
  if (errors.length > 0) {
    io.stderr(
      `lpreq: the request has ${errors.length} error${errors.length === 1 ? '' : 's'}; they do not stop it from being sent:\n`,
    );
    for (const d of errors) {
      const at = index.at(d.start);
      io.stderr(`  ${path}:${at.line}:${at.column} error ${d.code}: ${d.message}\n`);
    }
  }

  for (const w of setup.warnings) io.stderr(`lpreq: ${w}\n`);

  let result: SendResult;
  try {
    ({ result } = await session.send(document, blockIndex, {
      file: absolute,
      setup,
      allPages: args.flags.has('all-pages'),
      maxPages,
      maxBodyBytes,
      timeoutMs,
      proxy,
      env: io.env,
      signal: controller.signal,
      // `--history DIR` and `--no-history` in place of the project's `.lpreq/history`.
      ...(args.flags.has('no-history')
        ? { history: null }
        : flagValue(args, 'history') !== undefined
          ? { history: historyStore(args, io, setup.projectFolder) }
          : {}),
      // Chaining reads the last response of a request from the history: the same POST is not repeated on every run.
      resendDependencies: args.flags.has('resend-dependencies'),
      prompts,
      onPage: (p) => {
        if (format === 'text' && io.isTTY && p.page > 1) io.stderr(`lpreq: page ${p.page}, ${p.items} items\n`);
      },
    }));
  } finally {
    process.removeListener('SIGINT', onSigint);
  }

  result.warnings.push(
    ...tokenNotes(result, { tokenFrom: setup.tokenFrom, oauth2: setup.oauth2, environment: selected }),
  );

  // The token is never printed, wherever it shows up: a URL that carries it ({{$processEnv
  // LPREQ_TOKEN}}), or a server that echoes the Authorization header back. A sign-in's tokens and secrets neither.
  const scrub = (out: string) => scrubSecrets(out, [token, privateToken, ...result.secretValues, ...signIns.secrets()]);
  // Scrubbed first, then made printable for the terminal (a server's body and headers can hold escape sequences).
  if (format === 'json') io.stdout(printableJson(scrub(`${jsonText(result)}\n`)));
  else io.stdout(noWorkflowCommands(printable(scrub(toText(result, errors.length, selected, path)), { lines: true })));
  return result.ok ? 0 : 1;
}

/**
 * The history of this run: `--history DIR`, none with `--no-history`, and otherwise
 * `.lpreq/history` in `projectFolder` (where the environment files are). The token is never
 * in it; responses are, so `.lpreq/` gets a .gitignore that keeps it out of version control.
 */
function historyStore(args: ParsedArgs, io: Io, projectFolder: string): HistoryStore | undefined {
  if (args.flags.has('no-history')) return undefined;
  const given = flagValue(args, 'history');
  if (given !== undefined) return new HistoryStore(resolve(io.cwd, given));
  try {
    return new HistoryStore(projectStore(projectFolder, 'history'), { workspace: projectFolder });
  } catch (e) {
    io.stderr(`lpreq: the exchange is not kept in history: ${(e as Error).message}\n`);
    return undefined;
  }
}

/** The `--format json` text: integers of the body beyond 2^53 as the server wrote them. */
function jsonText(result: SendResult): string {
  const out = toJson(result);
  const exact = result.response?.exactNumbers;
  if (!exact) {
    try {
      return JSON.stringify(out);
    } catch (e) {
      if (!(e instanceof RangeError) || result.response?.bodyKind !== 'json') throw e;
    }
  }
  // A placeholder no body can hold, replaced by the body's exact text.
  const mark = `lpreq-body-${Math.random().toString(36).slice(2)}`;
  return JSON.stringify({ ...out, body: mark }).replace(JSON.stringify(mark), () =>
    bodyJson(result.response as NonNullable<SendResult['response']>, 0),
  );
}

/** A JSON body as text, its big integers exact; one nested too deeply to write again (thousands of levels) as it came. */
function bodyJson(r: NonNullable<SendResult['response']>, indent: number): string {
  try {
    return stringifyExact(r.body, r.exactNumbers, indent);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    return r.bodyText;
  }
}

/** The `--format json` object of LPREQ-FORMAT section 5, with a few extra fields. */
export function toJson(result: SendResult): Record<string, unknown> {
  const r = result.response;
  return {
    status: r?.status ?? null,
    headers: r?.headers ?? {},
    body: r ? (r.bodyKind === 'empty' ? null : r.body) : null,
    durationMs: r?.durationMs ?? 0,
    resource: result.resource,
    issues: result.issues.map((i) => ({ path: i.path, code: i.code, message: i.message })),
    ok: result.ok,
    method: result.request?.method ?? null,
    url: r?.url ?? result.request?.url ?? null,
    ...(result.error
      ? {
          error: {
            kind: result.error.kind,
            message: result.error.message,
            ...(result.error.kind === 'dependency' && result.error.dependency
              ? { dependency: result.error.dependency }
              : {}),
          },
        }
      : {}),
    ...(r ? { timing: roundTiming(r.timing), pages: r.pages, bytes: r.bytes } : {}),
    ...(result.unchecked ? { unchecked: result.unchecked } : {}),
    ...(r?.truncated ? { truncated: r.truncated } : {}),
    ...(r?.bodyIncomplete ? { bodyIncomplete: true } : {}),
    ...(r?.incomplete ? { incomplete: r.incomplete } : {}),
    ...(result.warnings.length > 0 ? { warnings: result.warnings } : {}),
    ...(result.dependencies.length > 0 ? { dependencies: result.dependencies } : {}),
    ...(result.historyId ? { historyId: result.historyId } : {}),
  };
}

function roundTiming(t: NonNullable<SendResult['response']>['timing']): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [k, v] of Object.entries(t)) if (typeof v === 'number') setOwn(out, k, Math.round(v * 10) / 10);
  return out;
}

function toText(result: SendResult, errorCount: number, environment: string | undefined, path: string): string {
  const lines: string[] = [];
  const r = result.response;
  const req = result.request;
  for (const dep of result.dependencies) {
    if (dep.historyTime !== undefined)
      lines.push(
        `(used the response of '${dep.name}' from the history, sent at ${dep.historyTime}: ${dep.status}; --resend-dependencies sends it again)`,
      );
    else if (dep.notSent) lines.push(`(did not send '${dep.name}', which this request refers to: see the error below)`);
    else
      lines.push(
        `(sent '${dep.name}' first: ${dep.status ?? 'no response'}${dep.historyUnusable ? `; its last exchange in the history ${dep.historyUnusable}` : ''})`,
      );
  }
  if (req) lines.push(`${req.method} ${req.url}${environment ? `  [env ${environment}]` : ''}`);
  // Each redirect followed, so that the answer below is not taken for that of the URL above.
  for (const hop of r?.redirects ?? []) lines.push(`-> ${hop.status} to ${hop.to}`);
  const checkerErrors = `${errorCount} checker error${errorCount === 1 ? '' : 's'}, listed on stderr`;
  if (errorCount > 0) lines.push(wasSent(result) ? `(sent with ${checkerErrors})` : `(not sent; ${checkerErrors})`);
  if (r && r.status !== null) {
    const t = r.timing;
    const parts = [`${r.durationMs} ms`];
    if (t.firstByteMs !== undefined) parts.push(`first byte ${Math.round(t.firstByteMs)} ms`);
    if (r.pages > 1) parts.push(`${r.pages} pages`);
    lines.push(`HTTP ${r.status} ${r.statusText}  (${parts.join(', ')})`);
    for (const [k, v] of Object.entries(r.headers)) lines.push(`${k}: ${v}`);
    lines.push('');
    if (r.bodyKind === 'json') lines.push(bodyJson(r, 2));
    else if (r.bodyKind !== 'empty') lines.push(r.bodyText);
    else if (!r.bodyIncomplete) lines.push('(empty body)');
    if (r.bodyIncomplete)
      lines.push(
        `(the body is incomplete: ${r.bytes} byte${r.bytes === 1 ? '' : 's'} arrived before the exchange failed)`,
      );
  }
  if (result.error)
    lines.push(...(lines.length > 0 ? [''] : []), `error (${result.error.kind}): ${result.error.message}`);
  // The action a chain's message asks for, as a command.
  const dependency = result.error?.kind === 'dependency' ? result.error.dependency : undefined;
  if (dependency)
    lines.push(
      `hint: lpreq send ${shellQuote(path)} --name ${shellQuote(dependency.name)}${environment ? ` --env ${shellQuote(environment)}` : ''} sends it alone and shows its response`,
    );
  for (const w of result.warnings) lines.push(`warning: ${w}`);
  if (result.resource) {
    lines.push('');
    if (result.unchecked)
      lines.push(
        `${result.resource}: not checked against the documentation (${result.unchecked === 'truncated' ? 'the body is truncated' : 'the body is not JSON'})`,
      );
    else if (result.issues.length === 0) lines.push(`${result.resource}: the body matches the documentation`);
    else {
      lines.push(
        `${result.resource}: ${result.issues.length} difference${result.issues.length === 1 ? '' : 's'} from the documentation`,
      );
      for (const i of result.issues) lines.push(`  ${i.path}  ${i.code}: ${i.message}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
