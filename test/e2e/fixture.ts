/**
 * What both end-to-end runners share: a workspace in a temporary folder, a server on
 * 127.0.0.1 that answers like the Learning Platform API, and the checks that the token
 * never reaches a file (workspace, editor data, extension storage, history, logs).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A token that looks real and appears nowhere else. */
export const TOKEN = `lpreq-e2e-token-${process.pid}-7f3a9c`;

export interface ReceivedRequest {
  method: string;
  url: string;
  /** The Host header: which of the API's addresses (127.0.0.1 or localhost, two origins) the request was sent to. */
  host?: string;
  authorization?: string;
  body: string;
}

export interface FakeApi {
  server: Server;
  baseUrl: string;
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export const MODULE = {
  id: 7,
  workflow_state: 'active',
  position: 2,
  name: 'Week 1',
  require_sequential_progress: true,
  prerequisite_module_ids: [3],
  items_count: 0,
  items_url: 'http://127.0.0.1/api/v1/courses/1/modules/7/items',
  publish_final_grade: false,
  published: false,
  // Not in the documentation: the tree marks it.
  experimental_flag: true,
};

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

/** The error page of a web server in front of the API. */
export const HTML_500_TITLE = '500 Internal Server Error';
const HTML_500 = `<!DOCTYPE html><html><head><title>${HTML_500_TITLE}</title><style>body{font-family:serif}</style></head>
<body><h1>Internal Server Error</h1><p>The server encountered an internal error and was unable to complete your request.</p>
<script>console.log("not text")</script><hr><address>nginx</address></body></html>`;

/** nginx's own 502 page, as it sends it: 157 bytes, short enough to have been taken for the API's message. */
export const NGINX_502 =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.18.0</center>\r\n</body>\r\n</html>\r\n';

/** A description longer than any row of the response view. */
export const LONG_DESCRIPTION = `Read the chapters of the week, then ${'write a short answer to each question and discuss it with your group; '.repeat(7)}END`;

/** Modules as a long list has them: complete, plus a field the docs do not describe. */
function modules(count: number, description = 0): string {
  const items: string[] = [];
  for (let i = 0; i < count; i++) {
    items.push(
      JSON.stringify({
        ...MODULE,
        id: 1000 + i,
        position: i + 1,
        name: `Week ${i + 1}: ${'reading and discussion '.repeat(description)}`.trim(),
        experimental_flag: undefined,
        x_internal_rank: i,
        // A count written as a string in every tenth, a state the docs do not list in every hundredth.
        ...(i % 10 === 9 ? { items_count: '0' } : {}),
        ...(i % 100 === 99 ? { workflow_state: 'archived' } : {}),
      }),
    );
  }
  return `[${items.join(',')}]`;
}

/**
 * The items of a module as the API lists them (ModuleItem, with content_details), about 350
 * bytes each: 57,000 make a 20 MB list, the response view's performance target (issue 27).
 */
export function moduleItems(count: number): string {
  const types = ['Assignment', 'Quiz', 'Discussion', 'File', 'Page', 'ExternalUrl'] as const;
  const items: string[] = [];
  for (let i = 0; i < count; i++) {
    const id = 50_000 + i;
    const type = types[i % types.length];
    items.push(
      JSON.stringify({
        id,
        module_id: 7 + Math.floor(i / 500),
        position: (i % 500) + 1,
        title: `Week ${Math.floor(i / 50) + 1}: ${type.toLowerCase()} ${i + 1}`,
        indent: i % 3,
        type,
        content_id: 9_000 + i,
        html_url: `https://lms.example.edu/courses/42/modules/items/${id}`,
        completion_requirement: { type: i % 2 === 0 ? 'must_submit' : 'must_view', completed: i % 5 === 0 },
        content_details: { points_possible: 10, due_at: '2026-03-01T23:59:00Z' },
        published: true,
      }),
    );
  }
  return `[${items.join(',')}]`;
}

let items: string | undefined;
/** About 20 MB of module items (57,000), made once: the list of issue 27's performance target. */
export function itemsBody(): string {
  items ??= moduleItems(57_000);
  return items;
}

/** How long course 6 takes to answer. */
export const SLOW_MS = 2500;

/** Undocumented fields in a list of this many modules (course 5). */
export const GROUPED_COUNT = 2500;
let big: string | undefined;
/** About 20 MB of modules (course 4), made once. */
export function bigBody(): string {
  big ??= modules(21_500, 30);
  return big;
}

/**
 * POST /api/v1/courses/1/modules answers a Module; GET lists two. Course 2 answers 401, course
 * 3 a web server's HTML 500 page, course 4 a list of about 20 MB (and module 7 of it 57,000 items, as large), course 5 2,500 modules with
 * an undocumented field, course 6 three modules after SLOW_MS; anything else is the API's 404.
 */
export async function startFakeApi(): Promise<FakeApi> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        host: req.headers.host,
        authorization: req.headers.authorization,
        body,
      });
      const path = (req.url ?? '').split('?')[0];
      res.setHeader('content-type', 'application/json; charset=utf-8');
      if (path === '/api/v1/courses/1/modules' && req.method === 'POST') {
        // A server that echoes the credentials it was given: the view must not show them.
        if (req.headers.authorization) res.setHeader('x-echoed-authorization', req.headers.authorization);
        const name = new URLSearchParams(body).get('module[name]') ?? MODULE.name;
        res.end(JSON.stringify({ ...MODULE, name }));
      } else if (path === '/api/v1/courses/1/modules' && req.method === 'GET') {
        res.end(JSON.stringify([MODULE, { ...MODULE, id: 8, name: 'Week 2', experimental_flag: undefined }]));
      } else if (path === '/api/v1/courses/2/modules') {
        res.statusCode = 401;
        res.end(JSON.stringify({ errors: [{ message: 'Invalid access token.' }] }));
      } else if (path === '/api/v1/courses/3/modules') {
        res.statusCode = 500;
        res.setHeader('content-type', 'text/html; charset=utf-8');
        res.end(HTML_500);
      } else if (path === '/api/v1/courses/4/modules') {
        res.end(bigBody());
      } else if (path === '/api/v1/courses/4/modules/7/items') {
        res.end(itemsBody());
      } else if (path === '/api/v1/courses/5/modules') {
        res.end(modules(GROUPED_COUNT));
      } else if (path === '/api/v1/courses/6/modules') {
        // A slow answer: long enough to see it in flight and cancel it.
        const timer = setTimeout(() => res.end(modules(3)), SLOW_MS);
        res.on('close', () => clearTimeout(timer));
      } else if (!viewAnswer(path, req.url ?? '', req.headers.authorization, res)) {
        res.statusCode = 404;
        res.end(JSON.stringify({ errors: [{ message: 'The specified resource does not exist.' }] }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    baseUrl: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The answers of the response view's own checks (VIEW_FILE): course 7 nginx's 502 page, course
 * 8 three pages of two modules (`Link: rel="next"`), course 9 a module with a long
 * description, course 20 a 401 without the token and a list with it. False for any other path.
 */
function viewAnswer(path: string, url: string, authorization: string | undefined, res: ServerResponse): boolean {
  const page = Number(new URL(url, 'http://x').searchParams.get('page') ?? '1');
  if (path === '/api/v1/courses/7/modules') {
    res.statusCode = 502;
    res.setHeader('content-type', 'text/html');
    res.end(NGINX_502);
  } else if (path === '/api/v1/courses/8/modules') {
    if (page < 3)
      res.setHeader('link', `<http://${String(res.req.headers.host)}${path}?per_page=2&page=${page + 1}>; rel="next"`);
    res.end(JSON.stringify([1, 2].map((k) => ({ ...MODULE, id: page * 10 + k, name: `Week ${(page - 1) * 2 + k}` }))));
  } else if (path === '/api/v1/courses/9/modules') {
    res.end(
      JSON.stringify([{ ...MODULE, experimental_flag: undefined, name: 'Week 1', description: LONG_DESCRIPTION }]),
    );
  } else if (path === '/api/v1/courses/20/modules') {
    if (authorization !== `Bearer ${TOKEN}`) {
      res.statusCode = 401;
      res.end(JSON.stringify({ errors: [{ message: 'Invalid access token.' }] }));
    } else res.end(JSON.stringify([{ ...MODULE, experimental_flag: undefined }]));
  } else return false;
  return true;
}

export const REQUEST_FILE = 'modules.lpreq';

/** The requests of the response view's checks (e2e/viewChecks.ts): each answered by viewAnswer. */
export const VIEW_FILE = 'view.lpreq';

export function viewFileText(): string {
  return [
    '### Behind nginx',
    'GET {{base_url}}/api/v1/courses/7/modules?include[]=items&include[]=content_details&search_term=a%20rather%20long%20search%20term%20that%20makes%20the%20address%20wrap',
    '',
    '### Modules two at a time',
    'GET {{base_url}}/api/v1/courses/8/modules?per_page=2',
    '',
    '### A module with a long description',
    'GET {{base_url}}/api/v1/courses/9/modules',
    '',
    '### Modules that need the token',
    'GET {{base_url}}/api/v1/courses/20/modules',
    '',
  ].join('\n');
}

/** The example file: one request with an error (a position that is not an integer). */
export function requestFileText(): string {
  return [
    '# Requests against the Learning Platform API, checked as you type.',
    '@course = 1',
    '',
    '### Create a module',
    '# @name createModule',
    'POST {{base_url}}/api/v1/courses/{{course}}/modules',
    '',
    'module[name] = Week 1',
    'module[position] = second',
    '',
    '### List the modules of the course',
    'GET {{base_url}}/api/v1/courses/{{course}}/modules',
    '',
    'include[] = items',
    '',
    '### A course the token may not read',
    'GET {{base_url}}/api/v1/courses/2/modules',
    '',
    '### A course behind a failing web server',
    'GET {{base_url}}/api/v1/courses/3/modules',
    '',
    '### A very long list',
    'GET {{base_url}}/api/v1/courses/4/modules/7/items',
    '',
    '### A list with an undocumented field',
    'GET {{base_url}}/api/v1/courses/5/modules',
    '',
    '### A slow list',
    'GET {{base_url}}/api/v1/courses/6/modules',
    '',
  ].join('\n');
}

export const TESTS_FILE = 'assertions.lpreq';

/**
 * Requests with assertions, for the Test Explorer: against the fake API the first passes and
 * the second fails (its second module is "Week 2", though it matches its pattern); the third
 * asks for a course only the built-in mock has, so it passes only in the run against the mock.
 * The `matches` assertions are decided off the extension host's thread (issue 26, item 7).
 */
export function testsFileText(): string {
  return [
    '@course = 1',
    '',
    '### Modules are listed',
    'GET {{base_url}}/api/v1/courses/{{course}}/modules',
    '',
    '?? status == 200',
    '?? body $[0].workflow_state == active',
    '?? body $[*].name matches ^Week \\d+$',
    '',
    '### The second module is Week 3',
    'GET {{base_url}}/api/v1/courses/1/modules',
    '',
    '?? body $[1].name matches /^week \\d$/i',
    '?? body $[1].name == Week 3',
    '',
    "### The mock's module 7 of course 42",
    'GET {{base_url}}/api/v1/courses/42/modules/7',
    '',
    '?? status == 200',
    '',
  ].join('\n');
}

export interface Workspace {
  root: string;
  workspace: string;
  userData: string;
  extensions: string;
}

/** A temporary folder with the workspace (request file, env file) and empty editor folders. */
export function makeWorkspace(baseUrl: string): Workspace {
  const root = mkdtempSync(join(tmpdir(), 'lpreq-e2e-'));
  const workspace = join(root, 'workspace');
  const userData = join(root, 'user-data');
  const extensions = join(root, 'extensions');
  for (const d of [workspace, userData, extensions, join(userData, 'User')]) mkdirSync(d, { recursive: true });
  writeFileSync(join(workspace, REQUEST_FILE), requestFileText());
  // A second file, for typing a new request into (written now, so that Quick Open has indexed it when it is wanted).
  writeFileSync(join(workspace, 'titles.lpreq'), 'GET {{base_url}}/api/lti/subscriptions\n\n');
  writeFileSync(join(workspace, TESTS_FILE), testsFileText());
  writeFileSync(join(workspace, VIEW_FILE), viewFileText());
  // As `lpreq test .` would run it, the Testing view runs every request of every file but these: they are for trying requests by hand.
  writeFileSync(
    join(workspace, '.lpreqtestignore'),
    `# Requests to try by hand, not tests (docs/testing.md)\n${REQUEST_FILE}\ntitles.lpreq\nhostile/\n${VIEW_FILE}\n`,
  );
  writeFileSync(
    join(workspace, 'http-client.env.json'),
    JSON.stringify(
      { local: { base_url: baseUrl }, production: { base_url: 'https://lms.example.edu', $protected: true } },
      null,
      2,
    ),
  );
  writeFileSync(
    join(userData, 'User', 'settings.json'),
    JSON.stringify(
      {
        'workbench.startupEditor': 'none',
        'workbench.tips.enabled': false,
        'security.workspace.trust.enabled': false,
        'extensions.autoUpdate': false,
        'extensions.autoCheckUpdates': false,
        'telemetry.telemetryLevel': 'off',
        'update.mode': 'none',
        'editor.minimap.enabled': false,
        'editor.fontSize': 14,
        'window.commandCenter': false,
        'workbench.layoutControl.enabled': false,
        'chat.disableAIFeatures': true,
        // The secondary side bar (empty here) would take a quarter of the width from the response view.
        'workbench.secondarySideBar.defaultVisibility': 'hidden',
        'workbench.colorTheme': 'Default Light Modern',
      },
      null,
      2,
    ),
  );
  return { root, workspace, userData, extensions };
}

/** A value of the user's home that the hostile folder of the workspace links to: it must never leave. */
export const HOME_SECRET = 'e2e-home-secret-4242';

/**
 * A hostile corner of the workspace (issue 26): a `.env` that links to a file of the user's
 * home beside the workspace, a body file that does too, and a `.env` that links to /dev/zero,
 * which a bare read would never finish on the extension host. Their requests go to courses
 * 77, 78 and 79, which no other check uses.
 */
export function makeHostile(w: Workspace): void {
  const outside = join(w.root, 'home');
  const hostile = join(w.workspace, 'hostile');
  mkdirSync(outside, { recursive: true });
  mkdirSync(join(hostile, 'zero'), { recursive: true });
  writeFileSync(join(outside, 'credentials'), `AWS_SECRET_ACCESS_KEY=${HOME_SECRET}\n`);
  symlinkSync(join(outside, 'credentials'), join(hostile, '.env'));
  symlinkSync(join(outside, 'credentials'), join(hostile, 'key.txt'));
  symlinkSync('/dev/zero', join(hostile, 'zero', '.env'));
  writeFileSync(
    join(hostile, 'leak.lpreq'),
    'GET {{base_url}}/api/v1/courses/77/modules?search_term={{$dotenv AWS_SECRET_ACCESS_KEY}}\n\n###\nPOST {{base_url}}/api/v1/courses/78/modules\nContent-Type: text/plain\n\n< ./key.txt\n',
  );
  writeFileSync(join(hostile, 'zero', 'zero.lpreq'), 'GET {{base_url}}/api/v1/courses/79/modules?x={{$dotenv A}}\n');
}

/** Files under `dir` whose bytes contain `needle` (binary files included). */
export function filesContaining(dir: string, needle: string): string[] {
  const bytes = Buffer.from(needle, 'utf8');
  return findFiles(dir, (p) => {
    try {
      // A regular file only: the hostile folder links /dev/zero, which would never end.
      const stat = statSync(p);
      return stat.isFile() && stat.size < 200 * 1024 * 1024 && readFileSync(p).includes(bytes);
    } catch {
      // unreadable (a socket, a file being written): skipped
      return false;
    }
  });
}

/** Every file below `dir` whose path matches. */
export function findFiles(dir: string, test: (path: string) => boolean): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    let names: string[];
    try {
      names = readdirSync(d);
    } catch {
      return;
    }
    for (const name of names) {
      const p = join(d, name);
      try {
        if (statSync(p).isDirectory()) walk(p);
        else if (test(p)) out.push(p);
      } catch {
        // gone meanwhile
      }
    }
  };
  walk(dir);
  return out;
}

/** A tiny test list with the plain closing line CI reads: `N passed, N failed`. */
export class Results {
  private readonly rows: { name: string; ok: boolean; detail?: string; ms: number }[] = [];

  async check(name: string, run: () => Promise<void>): Promise<boolean> {
    const started = Date.now();
    try {
      await run();
      this.rows.push({ name, ok: true, ms: Date.now() - started });
      console.log(`  ok   ${name} (${Date.now() - started} ms)`);
      return true;
    } catch (e) {
      const detail = e instanceof Error ? e.message : String(e);
      this.rows.push({ name, ok: false, detail, ms: Date.now() - started });
      console.log(`  FAIL ${name}: ${detail}`);
      return false;
    }
  }

  fail(name: string, detail: string): void {
    this.rows.push({ name, ok: false, detail, ms: 0 });
    console.log(`  FAIL ${name}: ${detail}`);
  }

  get failed(): number {
    return this.rows.filter((r) => !r.ok).length;
  }

  summary(): string {
    const passed = this.rows.filter((r) => r.ok).length;
    return `${passed} passed, ${this.failed} failed`;
  }
}
