/**
 * What both end-to-end runners share: a workspace in a temporary folder, a server on
 * 127.0.0.1 that answers like the Learning Platform API, and the checks that the token
 * never reaches a file (workspace, editor data, extension storage, history, logs).
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A token that looks real and appears nowhere else. */
export const TOKEN = `lpreq-e2e-token-${process.pid}-7f3a9c`;

export interface ReceivedRequest {
  method: string;
  url: string;
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

/** POST /api/v1/courses/1/modules answers a Module; GET lists two; anything else is the API's 404. */
export async function startFakeApi(): Promise<FakeApi> {
  const received: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    void readBody(req).then((body) => {
      received.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
      const path = (req.url ?? '').split('?')[0];
      res.setHeader('content-type', 'application/json; charset=utf-8');
      if (path === '/api/v1/courses/1/modules' && req.method === 'POST') {
        const name = new URLSearchParams(body).get('module[name]') ?? MODULE.name;
        res.end(JSON.stringify({ ...MODULE, name }));
      } else if (path === '/api/v1/courses/1/modules' && req.method === 'GET') {
        res.end(JSON.stringify([MODULE, { ...MODULE, id: 8, name: 'Week 2', experimental_flag: undefined }]));
      } else {
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

export const REQUEST_FILE = 'modules.lpreq';

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
  writeFileSync(
    join(workspace, 'http-client.env.json'),
    JSON.stringify({ local: { base_url: baseUrl }, production: { base_url: 'https://lms.example.edu', $protected: true } }, null, 2),
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
        'workbench.colorTheme': 'Default Light Modern',
      },
      null,
      2,
    ),
  );
  return { root, workspace, userData, extensions };
}

/** Files under `dir` whose bytes contain `needle` (binary files included). */
export function filesContaining(dir: string, needle: string): string[] {
  const bytes = Buffer.from(needle, 'utf8');
  return findFiles(dir, (p) => {
    try {
      return statSync(p).size < 200 * 1024 * 1024 && readFileSync(p).includes(bytes);
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
