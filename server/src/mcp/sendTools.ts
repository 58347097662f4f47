/**
 * `send_request` and `run_tests`: a request of a workspace file sent, or files run as tests,
 * through the sender's one send setup (the session: the environment given or the mock, the
 * token for it, the chain, the mock run) and its one runner, as `lpreq test` runs them. The
 * built-in mock unless the call names an environment of the workspace's files; a protected
 * environment only when the call confirms it by name. The token is never in an answer: it
 * goes to the session's origin only, and every answer leaves through the scrubber with every
 * token of the workspace. A response is cut to a budget, with `select` for a part of it.
 */
import { readdirSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import * as z from 'zod';
import { parseDocument, parseJsonPath, requestName, type LpreqDocument } from '../core/index';
import { startMockRun, type MockRun } from '../mockRun';
import {
  blockAtLine,
  blockNamed,
  isSecretPrompt,
  memoryInProcess,
  MemoryStore,
  OAuthTokens,
  requestBlocks,
  runTests,
  selectValues,
  SendSession,
  SetupError,
  type FileSetup,
  type RequestResult,
  type RunOptions,
  type SendResult,
  type TestSource,
} from '../sender/index';
import { ToolInputError } from './errors';
import type { ToolContext } from './toolContext';

/** The most characters of a response body in an answer. */
const BODY_BUDGET = 20_000;
/** How long one send may take, dependencies included; a run of tests. */
const SEND_LIMIT_MS = 120_000;
const RUN_LIMIT_MS = 300_000;
/** How long one exchange may take. */
const EXCHANGE_TIMEOUT_MS = 30_000;
/** The most request files a run reads. */
const MAX_FILES = 500;

const name = z.string().min(1).max(1000);
const answers = z
  .unknown()
  .optional()
  .meta({
    type: 'object',
    description:
      'answers to the `# @prompt NAME` variables of the requests, by name (a secret one is kept out of every answer)',
    additionalProperties: { type: 'string' },
  });
const environment = name
  .optional()
  .describe(
    "an environment of the workspace's http-client.env.json to send to; without one the request goes to lpreq's built-in mock",
  );
const confirm = z
  .string()
  .max(1000)
  .optional()
  .describe('the name of a protected environment (or of the environment of a request marked # @note), to send there');

const SEND_INPUT = {
  file: z.string().min(1).max(4096).describe('a .lpreq file inside the workspace'),
  name: name.optional().describe('the request by its # @name (or give line)'),
  line: z.number().int().min(1).optional().describe('the request that holds this 1-based line (or give name)'),
  environment,
  confirm,
  answers,
  select: z
    .string()
    .max(1000)
    .optional()
    .describe(
      'a JSONPath of the part of the response body to return ($.items[*].id, $[0].name), as assertions write it',
    ),
};

const assertion = z.object({
  line: z.number(),
  text: z.string(),
  passed: z.boolean(),
  actual: z.string().nullable(),
  expected: z.string().optional(),
  message: z.string(),
});
const requestResult = {
  name: z.string(),
  line: z.number(),
  passed: z.boolean(),
  skipped: z.boolean(),
  sent: z.boolean(),
  status: z.number().nullable(),
  durationMs: z.number(),
  failure: z.object({ kind: z.string(), message: z.string() }).optional(),
  assertions: z.array(assertion),
  diagnostics: z.array(z.object({ line: z.number(), column: z.number(), code: z.string(), message: z.string() })),
  warnings: z.array(z.string()),
};

const SEND_OUTPUT = {
  file: z.string(),
  /** The environment sent to, or `mock`. */
  target: z.string(),
  ...requestResult,
  response: z
    .object({
      status: z.number().nullable(),
      url: z.string(),
      headers: z.record(z.string(), z.string()),
      resource: z.string().nullable(),
      issues: z.array(z.object({ path: z.string(), code: z.string(), message: z.string() })),
      /** The whole body's size, in characters of its text, and its items when it is a list. */
      size: z.object({ characters: z.number(), items: z.number().optional() }),
      select: z.string().optional(),
      /** Values the select found. */
      selected: z.number().optional(),
      /** The body (or the selected part) as text, cut to the budget. */
      body: z.string(),
      cut: z.boolean(),
    })
    .optional(),
  dependencies: z.array(z.object({ name: z.string(), status: z.number().nullable(), ok: z.boolean() })),
};

const RUN_INPUT = {
  path: z.string().min(1).max(4096).describe('a .lpreq file or a folder of them inside the workspace'),
  mock: z
    .boolean()
    .optional()
    .describe(
      'run against the built-in mock (the default when no environment is given); an environment given then lends its variables',
    ),
  environment,
  confirm,
  grep: z.string().max(1000).optional().describe('only the requests whose title, name or request line holds this text'),
  answers,
};

const RUN_OUTPUT = {
  target: z.string(),
  passed: z.number(),
  failed: z.number(),
  skipped: z.number(),
  files: z.array(
    z.object({
      file: z.string(),
      problem: z.string().optional(),
      requests: z.array(z.object(requestResult)),
    }),
  ),
  notes: z.array(z.string()),
};

type AnswersOf = Map<string, string>;

/** The answers argument, own names only (a record schema would drop `__proto__` unseen). */
function answersOf(value: unknown, book: { add(values: string[]): void }): AnswersOf {
  const out = new Map<string, string>();
  if (value === undefined) return out;
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new ToolInputError('answers', 'give an object of prompt names and their answers');
  for (const key of Object.keys(value)) {
    const v: unknown = Object.getOwnPropertyDescriptor(value, key)?.value;
    if (typeof v !== 'string') throw new ToolInputError('answers', `the answer to ${key} must be a string`);
    out.set(key, v);
    // The answer of a secret-looking prompt (a password) is a secret from the start, as the sender keeps it.
    if (isSecretPrompt(key)) book.add([v]);
  }
  return out;
}

export function registerSendTools(ctx: ToolContext): void {
  const { workspace, options } = ctx;
  const session = new SendSession(
    {
      env: options.env,
      chooseWith: 'the environment argument',
      // The server neither reads nor changes the choice an editor remembers for the project.
      memory: memoryInProcess(),
      // An environment that signs in (Security.Auth) gets its token as on the command line, kept
      // in this process's memory: client credentials sign in silently; no browser is opened for
      // an agent (an authorization code sign-in is refused with what to do instead).
      signIns: new OAuthTokens({
        store: new MemoryStore(),
        openBrowser: () => Promise.resolve(false),
        tell: (message) => options.log(workspace.secrets.text(`lpreq mcp: ${message}`)),
        interactive: false,
        signInAgain: false,
        requests: { env: options.env },
      }),
    },
    () => ctx.service().checker,
  );

  /** The setup of a file, the run's mock, and the checks before anything is sent. */
  async function prepare(
    file: { absolute: string; display: string; text: string },
    o: { environment?: string; mock: MockRun | undefined; confirm?: string; blocks?: ReadonlySet<number> },
  ): Promise<{ source: TestSource; setup: FileSetup }> {
    let made;
    try {
      made = await session.testSource(file.absolute, {
        display: file.display,
        text: file.text,
        environment: o.environment,
        mock: o.mock,
        ...(o.blocks ? { blocks: o.blocks } : {}),
      });
    } catch (e) {
      if (e instanceof SetupError) throw new ToolInputError('environment', e.message);
      throw e;
    }
    const { setup } = made;
    workspace.secrets.add([setup.token, setup.privateToken, ...setup.foreignTokens, o.mock?.token]);
    workspace.secrets.addEnvironments(setup.files);
    if (!o.mock && setup.protectedEnvironment && o.confirm !== setup.selected)
      throw new ToolInputError(
        'confirm',
        `${setup.selected ?? 'the environment'} is a protected environment: nothing was sent; call again with confirm: "${setup.selected ?? ''}" to send to it`,
      );
    return made;
  }

  /** What a run sends with: the session's options, this call's answers and confirmation, its signal. */
  function runOptions(
    setups: FileSetup[],
    mock: MockRun | undefined,
    o: { confirmed: boolean; answers: AnswersOf; signal: AbortSignal },
  ): RunOptions {
    return {
      ...session.runOptions(setups, mock),
      timeoutMs: EXCHANGE_TIMEOUT_MS,
      env: mock ? {} : options.env,
      signal: o.signal,
      prompts: o.answers,
      // Asked only where an answer was not given: the request is not sent, and the failure says which.
      ask: (q) => {
        if (q.secret) workspace.secrets.add([o.answers.get(q.name)]);
        return Promise.resolve(undefined);
      },
      // A protected environment was confirmed by name before anything was sent (prepare).
      confirmChange: undefined,
      confirmNote: () => Promise.resolve(mock !== undefined || o.confirmed),
    };
  }

  const sending: Sending = { session, prepare, runOptions };
  registerSendRequest(ctx, sending);
  registerRunTests(ctx, sending);
}

/** What the two sending tools share: the host's session, a file's setup with its checks, a run's options. */
interface Sending {
  session: SendSession;
  prepare: (
    file: { absolute: string; display: string; text: string },
    o: { environment?: string; mock: MockRun | undefined; confirm?: string; blocks?: ReadonlySet<number> },
  ) => Promise<{ source: TestSource; setup: FileSetup }>;
  runOptions: (
    setups: FileSetup[],
    mock: MockRun | undefined,
    o: { confirmed: boolean; answers: AnswersOf; signal: AbortSignal },
  ) => RunOptions;
}

/** send_request: one request of a workspace file (and what it refers to), through the one runner. */
function registerSendRequest(ctx: ToolContext, { prepare, runOptions }: Sending): void {
  const { workspace, tool } = ctx;
  tool(
    'send_request',
    {
      title: 'Send a request',
      description:
        "Sends one request of a .lpreq file of the workspace (and the requests it refers to) through lpreq's sender, " +
        'to the built-in mock unless an environment is given; evaluates its ?? assertions and types the response. ' +
        'The token never appears in the answer; the body is cut to 20,000 characters (select picks a part).',
      input: SEND_INPUT,
      output: SEND_OUTPUT,
      readOnly: false,
      openWorld: true,
    },
    async (args, signal) => {
      const answers = answersOf(args.answers, workspace.secrets);
      const read = workspace.read(args.file, 'file');
      const file = { absolute: read.absolute, display: workspace.display(read.absolute), text: read.text };
      const document = parseDocument(file.text);
      const blockIndex = chooseBlock(document, args.name, args.line);
      const segments = args.select === undefined ? undefined : selectPath(args.select);
      const mock = args.environment === undefined ? await startMockRun('lpreq mcp') : undefined;
      try {
        const { source, setup } = await prepare(file, {
          environment: args.environment,
          mock,
          confirm: args.confirm,
          blocks: new Set([blockIndex]),
        });
        let exchange: SendResult | undefined;
        const run = await runTests([source], {
          ...runOptions([setup], mock, { confirmed: args.confirm === setup.selected, answers, signal }),
          events: {
            requestSent: (_file, request, sent) => {
              if (request.blockIndex === blockIndex) exchange = sent;
            },
          },
        });
        // The sign-ins' tokens a $auth reference took during the run are secrets of every answer too.
        workspace.secrets.add([...(setup.auth?.secrets() ?? []), ...(setup.auth?.foreignSecrets() ?? [])]);
        const result = run.files[0]?.requests.find((r) => r.blockIndex === blockIndex);
        if (!result) throw new ToolInputError(args.name !== undefined ? 'name' : 'line', 'no request was run');
        const data = {
          file: file.display,
          target: mock ? 'mock' : (setup.selected ?? 'none'),
          ...requestData(result),
          ...(exchange?.response && exchange.response.status !== null
            ? { response: responseData(exchange, args.select, segments) }
            : {}),
          dependencies: (exchange?.dependencies ?? []).map((d) => ({ name: d.name, status: d.status, ok: d.ok })),
        };
        return { text: sendText(data), data };
      } finally {
        await mock?.close();
      }
    },
    SEND_LIMIT_MS,
  );
}

/** run_tests: a file or folder's requests as lpreq test runs them. */
function registerRunTests(ctx: ToolContext, { session, prepare, runOptions }: Sending): void {
  const { workspace, tool } = ctx;
  tool(
    'run_tests',
    {
      title: 'Run requests as tests',
      description:
        'Runs the requests of a .lpreq file or folder of the workspace and evaluates their ?? assertions, as lpreq test ' +
        'does: against the built-in mock by default, or an environment of the workspace.',
      input: RUN_INPUT,
      output: RUN_OUTPUT,
      readOnly: false,
      openWorld: true,
    },
    async (args, signal) => {
      const answers = answersOf(args.answers, workspace.secrets);
      const files = requestFiles(workspace.resolve(args.path, 'path'), workspace.root);
      const useMock = args.mock === true || args.environment === undefined;
      if (args.mock === false && args.environment === undefined)
        throw new ToolInputError('environment', 'without the mock, name the environment to run against');
      const mock = useMock ? await startMockRun('lpreq mcp') : undefined;
      try {
        const sources: TestSource[] = [];
        const setups: FileSetup[] = [];
        for (const absolute of files) {
          const display = workspace.display(absolute);
          let text: string;
          try {
            text = workspace.read(absolute, 'path').text;
          } catch (e) {
            sources.push({ file: display, problem: (e as Error).message });
            continue;
          }
          const made = await prepare(
            { absolute, display, text },
            { environment: args.environment, mock, confirm: args.confirm },
          );
          sources.push(made.source);
          setups.push(made.setup);
        }
        const notes = mock ? session.missingFromMock(sources, mock) : [];
        const confirmed = setups.length > 0 && setups.every((s) => args.confirm === s.selected);
        const run = await runTests(sources, {
          ...runOptions(setups, mock, { confirmed, answers, signal }),
          grep: args.grep,
        });
        for (const setup of setups)
          workspace.secrets.add([...(setup.auth?.secrets() ?? []), ...(setup.auth?.foreignSecrets() ?? [])]);
        const data = {
          target: mock
            ? args.environment
              ? `mock (variables of ${args.environment})`
              : 'mock'
            : (args.environment ?? ''),
          passed: run.passed,
          failed: run.failed,
          skipped: run.skipped,
          files: run.files.map((f) => ({
            file: f.file,
            ...(f.problem ? { problem: f.problem } : {}),
            requests: f.requests.map(requestData),
          })),
          notes,
        };
        return { text: runText(data), data };
      } finally {
        await mock?.close();
      }
    },
    RUN_LIMIT_MS,
  );
}

/** The block of the request a call names: by `# @name`, by a line it holds, or the only one. */
function chooseBlock(document: LpreqDocument, name: string | undefined, line: number | undefined): number {
  if (name !== undefined && line !== undefined) throw new ToolInputError('name', 'give name or line, not both');
  if (name !== undefined) {
    const index = blockNamed(document, name);
    if (index === -1) throw new ToolInputError('name', `no request of the file is named ${name}${namesOf(document)}`);
    return index;
  }
  const requests = requestBlocks(document);
  if (line !== undefined) {
    const index = blockAtLine(document, line);
    if (!requests.includes(index)) throw new ToolInputError('line', `line ${line} is not in a request of the file`);
    return index;
  }
  if (requests.length === 1) return requests[0];
  throw new ToolInputError(
    'name',
    requests.length === 0
      ? 'the file has no request'
      : `the file has ${requests.length} requests: give name or line${namesOf(document)}`,
  );
}

function namesOf(document: LpreqDocument): string {
  const names = document.blocks.map((b) => requestName(b.block)).filter((n): n is string => n !== undefined);
  return names.length > 0 ? ` (its named requests: ${names.join(', ')})` : '';
}

function selectPath(text: string) {
  const parsed = parseJsonPath(text.trim(), 0);
  if ('problem' in parsed)
    throw new ToolInputError('select', `not a JSONPath ($.items[*].id): ${parsed.problem.message}`);
  return parsed.path.segments;
}

function requestData(r: RequestResult) {
  return {
    name: r.name,
    line: r.line,
    passed: r.passed,
    skipped: r.skipped,
    sent: r.sent,
    status: r.status,
    durationMs: Math.round(r.durationMs),
    ...(r.failure ? { failure: { kind: r.failure.kind, message: r.failure.message } } : {}),
    assertions: r.assertions.map((a) => ({
      line: a.line,
      text: a.text,
      passed: a.passed,
      actual: a.actual,
      ...(a.expected !== undefined ? { expected: a.expected } : {}),
      message: a.message,
    })),
    diagnostics: r.diagnostics.map((d) => ({ line: d.line, column: d.column, code: d.code, message: d.message })),
    warnings: r.warnings,
  };
}

/** The response as an answer holds it: the body (or the part `select` picks) as text within the budget, its whole size stated. */
function responseData(
  sent: SendResult,
  select: string | undefined,
  segments: ReturnType<typeof selectPath> | undefined,
) {
  const r = sent.response!;
  const whole = r.bodyKind === 'json' ? JSON.stringify(r.body, null, 1) : r.bodyText;
  let shown = whole;
  let selected: number | undefined;
  if (segments !== undefined && r.bodyKind === 'json') {
    const values = selectValues(r.body, segments).map((v) => v.value);
    selected = values.length;
    shown = JSON.stringify(values.length === 1 ? values[0] : values, null, 1) ?? '';
  }
  const cut = shown.length > BODY_BUDGET;
  return {
    status: r.status,
    url: r.url,
    headers: { ...r.headers },
    resource: sent.resource,
    issues: sent.issues.slice(0, 200).map((i) => ({ path: i.path, code: i.code, message: i.message })),
    size: { characters: whole.length, ...(Array.isArray(r.body) ? { items: r.body.length } : {}) },
    ...(select !== undefined ? { select } : {}),
    ...(selected !== undefined ? { selected } : {}),
    body: cut ? shown.slice(0, BODY_BUDGET) : shown,
    cut,
  };
}

/** The request files of a file or folder inside the workspace: `*.lpreq`, links out of it not followed. */
function requestFiles(absolute: string, root: string): string[] {
  let stat;
  try {
    stat = statSync(absolute);
  } catch {
    throw new ToolInputError('path', `${relative(root, absolute) || '.'}: no such file or folder in the workspace`);
  }
  if (stat.isFile()) return [absolute];
  if (!stat.isDirectory()) throw new ToolInputError('path', 'not a file or folder');
  const out: string[] = [];
  const walk = (dir: string, depth: number) => {
    if (depth > 20 || out.length >= MAX_FILES) return;
    for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path, depth + 1);
      else if (entry.isFile() && entry.name.endsWith('.lpreq') && out.length < MAX_FILES) out.push(path);
    }
  };
  walk(absolute, 0);
  const real = realpathSync(root);
  const inside = out.filter((f) => {
    const rel = relative(real, realpathSync(f));
    return !rel.startsWith(`..${sep}`) && rel !== '..';
  });
  if (inside.length === 0) throw new ToolInputError('path', 'no .lpreq file in this folder or below it');
  return inside;
}

function sendText(d: {
  target: string;
  name: string;
  status: number | null;
  passed: boolean;
  failure?: { message: string };
  assertions: { passed: boolean; text: string; message: string }[];
  response?: { resource: string | null; issues: unknown[]; size: { characters: number; items?: number }; cut: boolean };
}): string {
  const lines = [
    `${d.name} -> ${d.target}: ${d.status ?? 'no response'}${d.passed ? '' : ` (failed${d.failure ? `: ${d.failure.message}` : ''})`}`,
  ];
  for (const a of d.assertions)
    lines.push(`${a.passed ? 'pass' : 'FAIL'} ${a.text}${a.passed ? '' : `: ${a.message}`}`);
  if (d.response) {
    lines.push(
      `body: ${d.response.size.characters} characters${d.response.size.items !== undefined ? `, ${d.response.size.items} items` : ''}${d.response.cut ? ' (cut to 20,000: use select for a part)' : ''}; ${d.response.resource ?? 'no documented resource'}, ${d.response.issues.length} typed issue${d.response.issues.length === 1 ? '' : 's'}`,
    );
  }
  return lines.join('\n');
}

function runText(d: {
  target: string;
  passed: number;
  failed: number;
  skipped: number;
  files: {
    file: string;
    requests: { name: string; passed: boolean; skipped: boolean; failure?: { message: string } }[];
  }[];
}): string {
  const lines = [
    `${d.passed} passed, ${d.failed} failed${d.skipped > 0 ? `, ${d.skipped} skipped` : ''} (${d.target})`,
  ];
  for (const f of d.files)
    for (const r of f.requests)
      if (!r.passed && !r.skipped) lines.push(`${f.file}: ${r.name}: ${r.failure?.message ?? 'failed'}`);
  return lines.slice(0, 50).join('\n');
}
