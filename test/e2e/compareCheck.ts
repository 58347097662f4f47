/**
 * The end-to-end check of Compare with Snapshot and Compare with Previous Response (issue 32):
 * in code-server, a request marked `# @snapshot` is sent, its response written as the snapshot
 * from the Compare tab (Update Snapshot), sent again (a new name each time), and compared: the
 * Compare tab lists exactly the name that changed, typed, not a text diff; then the same
 * against the previous response from the history. Called from run.ts with its helpers.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';

export interface CompareCheckHelpers {
  page: Page;
  workspace: string;
  token: string;
  mod: string;
  check(name: string, run: () => Promise<void>): Promise<void>;
  responseFrame(page: Page, status: string | RegExp, timeout?: number, facts?: RegExp): Promise<Frame>;
  runCommand(page: Page, title: string): Promise<void>;
  shot(page: Page, name: string, lookOnly?: boolean): Promise<void>;
}

const FILE = [
  '### A module to keep',
  '# @snapshot ignore=$.position',
  'POST {{base_url}}/api/v1/courses/1/modules',
  '',
  'module[name] = Week {{$guid}}',
  'module[position] = 1',
  '',
].join('\n');

/** The Compare tab's rows as `kind path` (code run in the page is written as text: the tests have no DOM types). */
async function rowsOf(frame: Frame): Promise<string[]> {
  return (await frame.evaluate(
    "[...document.querySelectorAll('.panel-compare .compare-row')].map((e) => e.dataset.kind + ' ' + e.dataset.path)",
  )) as string[];
}

export async function compareChecks(o: CompareCheckHelpers): Promise<void> {
  const { page } = o;
  await o.check(
    'Compare with Snapshot: Update Snapshot writes the response beside the file; sent again, the Compare tab lists exactly the field that changed, typed; Compare with Previous the same from the history',
    async () => {
      const dir = join(o.workspace, 'snap');
      mkdirSync(dir, { recursive: true });
      const file = join(dir, 'keep.lpreq');
      writeFileSync(file, FILE);
      // By its path: Quick Open's list of the workspace's files was made before the file was.
      await page.keyboard.press(`${o.mod}+P`);
      await page.locator('.quick-input-widget input').fill(file);
      await page.locator('.quick-input-widget .monaco-list-row', { hasText: 'keep.lpreq' }).first().waitFor();
      await page.keyboard.press('Enter');
      await page.locator('.tabs-container .tab.active', { hasText: 'keep.lpreq' }).waitFor();

      const responseId = async (frame: Frame) =>
        await frame.evaluate('document.body.dataset.responseId').catch(() => undefined);
      /** Sends the request and returns the view's page once it shows a response newer than `after`. */
      const send = async (after?: unknown): Promise<Frame> => {
        // By the keyboard, not a click on the line: an editor scrolled sideways puts the line's start under its margin.
        await page.locator('.tabs-container .tab', { hasText: 'keep.lpreq' }).first().click();
        await page.keyboard.press('Control+Home');
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('ArrowDown');
        await page.keyboard.press('Control+Alt+R');
        const deadline = Date.now() + 30_000;
        for (;;) {
          // Other views may show a 200 too (a list of modules): this one answers with one Module.
          const frame = await o.responseFrame(page, /^200/, 30_000, /· Module ·/);
          if (after === undefined || (await responseId(frame)) !== after) return frame;
          if (Date.now() > deadline) throw new Error('the second response did not come');
          await page.waitForTimeout(200);
        }
      };
      const summary = (frame: Frame) => frame.locator('.panel-compare .compare-summary');

      let frame = await send();
      // From the command palette (the view's title menu runs the same command).
      await o.runCommand(page, 'lpreq: Compare with Snapshot');
      await summary(frame).filter({ hasText: 'No snapshot yet' }).waitFor({ timeout: 15_000 });
      await frame.locator('.panel-compare button', { hasText: 'Update Snapshot' }).click();
      await summary(frame).filter({ hasText: 'No difference' }).waitFor({ timeout: 15_000 });
      const snapshot = join(dir, '__snapshots__', 'keep.lpreq', 'A-module-to-keep.json');
      if (!existsSync(snapshot)) throw new Error(`no snapshot at ${snapshot}`);
      const written = readFileSync(snapshot, 'utf8');
      if (written.includes(o.token)) throw new Error('the snapshot holds the token');
      if (!/"lpreq": "snapshot"/.test(written)) throw new Error(`not a snapshot:\n${written}`);

      frame = await send(await responseId(frame));
      await o.runCommand(page, 'lpreq: Compare with Snapshot');
      await summary(frame).filter({ hasText: '1 difference' }).waitFor({ timeout: 15_000 });
      const rows = frame.locator('.panel-compare .compare-row');
      const listed = await rowsOf(frame);
      if (listed.join() !== 'value-changed $.name') throw new Error(`the Compare tab lists ${listed.join(', ')}`);
      const options = await frame.locator('.panel-compare .compare-options').innerText();
      if (!options.includes('ignore $.position')) throw new Error(`options shown: ${options}`);
      await o.runCommand(page, 'Notifications: Clear All Notifications').catch(() => undefined);
      await o.shot(page, 'compare-with-snapshot.png');

      await frame.locator('.panel-compare button', { hasText: 'Compare with Previous' }).click();
      await frame
        .locator('.panel-compare .compare-title', { hasText: 'the previous response in ' })
        .waitFor({ timeout: 15_000 });
      await summary(frame).filter({ hasText: '1 difference' }).waitFor({ timeout: 15_000 });
      const previous = await rowsOf(frame);
      if (previous.join() !== 'value-changed $.name')
        throw new Error(`against the previous response: ${previous.join(', ')}`);
      // A click on the path shows the field in the Body tab.
      await rows.first().locator('button.path').click();
      await frame.locator('.panel-body').waitFor({ state: 'visible', timeout: 5_000 });
    },
  );
}
