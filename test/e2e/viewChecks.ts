/**
 * The response view's end-to-end checks of issue 27 (items 2 to 4), run by run.ts in the same
 * editor: a history entry sent again from its view, the history searched by two words, nginx's
 * 157-byte 502 shown as a page, the Request tab's method on one line beside a long URL, a page
 * of several with Fetch All Pages, a long string opened whole, a 401 sent without a token ->
 * Set Access Token -> Send Again, and Send All as one run view. Screenshots to look at go to
 * test/.tmp/e2e-screenshots/ (`--screenshots`).
 */
import type { Frame, Page } from 'playwright-core';
import { LONG_DESCRIPTION, REQUEST_FILE, TOKEN, VIEW_FILE, type FakeApi } from './fixture';

export interface ViewCheckContext {
  page: Page;
  api: FakeApi;
  check(name: string, run: () => Promise<void>): Promise<void>;
  shot(page: Page, name: string, lookOnly?: boolean): Promise<void>;
  responseFrame(page: Page, status: string | RegExp, timeout?: number, facts?: RegExp): Promise<Frame>;
  runCommand(page: Page, title: string): Promise<void>;
  sendLine(page: Page, text: string): Promise<void>;
}

/** A row of the body's list, as the checks read it (the test project has no DOM types). */
interface RowElement {
  dataset: Record<string, string | undefined>;
  querySelector(selector: string): { textContent: string | null } | null;
}

/** What the checks read of an element's box. */
interface Box {
  scrollWidth: number;
  clientWidth: number;
}

/** Opens a file of the workspace through Quick Open, asked again when the key press is lost (the focus moving). */
async function openFile(page: Page, name: string): Promise<void> {
  // Open already: its tab.
  const tab = page.locator('.tabs-container .tab', { hasText: name }).first();
  if ((await tab.count()) > 0) {
    await tab.click();
    await page.locator('.tabs-container .tab.active', { hasText: name }).waitFor();
    return;
  }
  const input = page.locator('.quick-input-widget input');
  for (let attempt = 1; ; attempt++) {
    await page.keyboard.press('Control+P');
    const opened = await input.waitFor({ state: 'visible', timeout: 5_000 }).then(
      () => true,
      () => false,
    );
    if (opened) break;
    if (attempt >= 3) throw new Error('Quick Open does not open');
    await page.keyboard.press('Escape');
  }
  await input.fill(name);
  // A click on its row: Enter could take the row that was first before the list was filtered.
  await page.locator('.quick-input-widget .monaco-list-row', { hasText: name }).first().click();
  await page.locator('.tabs-container .tab.active', { hasText: name }).waitFor();
}

/** The requests the fake API got since `from` whose address starts with `path`. */
const since = (api: FakeApi, from: number, path: string) =>
  api.received.slice(from).filter((r) => r.url.startsWith(path));

async function waitUntil(page: Page, ready: () => boolean, what: string, timeout = 20_000): Promise<void> {
  const deadline = Date.now() + timeout;
  while (!ready()) {
    if (Date.now() > deadline) throw new Error(what);
    await page.waitForTimeout(200);
  }
}

export async function responseViewChecks(c: ViewCheckContext): Promise<void> {
  const { page, api, check, shot, responseFrame } = c;

  await check("a history entry's view has Send Again, which sends the entry again", async () => {
    const f = await responseFrame(page, /^\d{3}/, 20_000);
    if ((await f.locator('.banner', { hasText: 'From the history' }).count()) === 0)
      throw new Error('the view in front is not a history entry');
    const before = api.received.length;
    await f.locator('.toolbar [data-action="sendAgain"]').click();
    await waitUntil(
      page,
      () => since(api, before, '/api/v1/courses/1/modules').length === 1,
      'Send Again of the history entry sent nothing',
    );
    const again = await responseFrame(page, '200 OK', 20_000);
    await again.locator('.banner', { hasText: 'From the history' }).waitFor({ state: 'detached', timeout: 10_000 });
    // The new answer is an entry too: its view can send it again.
    await again.locator('.toolbar [data-action="sendAgain"]').waitFor();
    await shot(page, 'history-send-again.png', true);
  });

  await check(
    'the history pick finds an entry by every word given ("local 401"), its status with its reason',
    async () => {
      await page.keyboard.press('Control+Alt+H');
      const pick = page.locator('.quick-input-widget');
      await pick.locator('.monaco-list-row').first().waitFor({ timeout: 10_000 });
      await pick.locator('input').fill('local 401');
      const row = pick.locator('.monaco-list-row', { hasText: 'A course the token may not read' }).first();
      await row.waitFor({ timeout: 10_000 });
      if (!(await row.innerText()).includes('401 Unauthorized')) throw new Error(`entry: ${await row.innerText()}`);
      // The pick lists only entries that hold both words, once it has read them.
      const deadline = Date.now() + 10_000;
      let rows = await pick.locator('.monaco-list-row').allInnerTexts();
      while (rows.some((r) => !/401/.test(r) || !/local/.test(r))) {
        if (Date.now() > deadline) throw new Error(`listed: ${rows.join(' | ')}`);
        await page.waitForTimeout(250);
        rows = await pick.locator('.monaco-list-row').allInnerTexts();
      }
      await shot(page, 'history-search.png', true);
      await page.keyboard.press('Escape');
    },
  );

  // The view file opens where the request file is (the first group): its answers open beside it, as the others do.
  const openViewFile = async () => {
    // A click on the request file's tab: the focus settles in the first group before Quick Open opens.
    await page.locator('.tabs-container .tab', { hasText: REQUEST_FILE }).first().click();
    await page.waitForTimeout(300);
    await openFile(page, VIEW_FILE);
  };
  await check('the view file opens beside the response views', openViewFile);

  await check(
    "nginx's 157-byte 502 is a page, not the API's message; the Request tab keeps the method on one line",
    async () => {
      await c.sendLine(page, 'courses/7/modules');
      const f = await responseFrame(page, '502 Bad Gateway');
      if ((await f.locator('.tab[data-tab="body"]').innerText()) !== 'Error page (HTML)')
        throw new Error('the 502 page is not called an HTML error page');
      await f.locator('.html-title', { hasText: '502 Bad Gateway' }).waitFor();
      await f.locator('.page-text p', { hasText: 'nginx/1.18.0' }).waitFor();
      if ((await f.locator('.api-errors').count()) > 0)
        throw new Error(`the page is quoted as the API's message: ${await f.locator('.api-errors').innerText()}`);
      if (!(await page.locator('.tabs-container .tab', { hasText: 'Behind nginx · 502' }).count()))
        throw new Error('the view is not named by the request title');
      await shot(page, 'response-nginx-502.png', true);
      await f.locator('.tab[data-tab="request"]').click();
      const method = await f.locator('.request-line .method').boundingBox();
      const url = await f.locator('.request-line .url').boundingBox();
      if (!method || !url) throw new Error('no request line');
      if (method.height > url.height / 2)
        throw new Error(`the method is ${method.height} px tall beside a URL of ${url.height}`);
      if (method.width < 20) throw new Error(`the method is squeezed to ${method.width} px`);
      await shot(page, 'response-request-long-url.png', true);
      await f.locator('.tab[data-tab="body"]').click();
    },
  );

  await check('a page of several says "page 1, more pages", and Fetch All Pages beside it merges them', async () => {
    await c.sendLine(page, 'courses/8/modules');
    const f = await responseFrame(page, '200 OK', 30_000, /Module\[\]/);
    await f.locator('.paging .paging-text', { hasText: 'page 1, more pages' }).waitFor({ timeout: 10_000 });
    await shot(page, 'response-paging.png', true);
    const before = api.received.length;
    await f.locator('.paging [data-action="fetchAllPages"]').click();
    const all = await responseFrame(page, '200 OK', 30_000, /3 pages/);
    await all.locator('.facts', { hasText: '6 items' }).waitFor();
    if ((await all.locator('.paging').count()) > 0) throw new Error('merged pages still say more pages');
    if (since(api, before, '/api/v1/courses/8/modules').length !== 3)
      throw new Error('Fetch All Pages did not read 3 pages');
  });

  await check('a long string cut at the row opens whole on a click, wrapped on the rows under it', async () => {
    await c.sendLine(page, 'courses/9/modules');
    const f = await responseFrame(page, '200 OK', 30_000, /Module\[\]/);
    const row = f.locator('.row[data-path="$[0].description"]');
    await row.waitFor();
    const [scroll, client] = await row.locator('.row-main').evaluate((el: Box) => [el.scrollWidth, el.clientWidth]);
    if (scroll <= client)
      throw new Error(`the description fits its row (${scroll} of ${client} px): the check needs a longer one`);
    // At its start: the value is wider than the list, its middle out of sight.
    await row.locator('.value').click({ position: { x: 12, y: 4 } });
    await f.locator('.row.wrap-more').nth(2).waitFor({ timeout: 10_000 });
    // The rows on screen in their order (the list moves a pool of row elements: their order in the page is not the rows').
    const parts = await f
      .locator('.row:not([hidden])[data-path="$[0].description"]')
      .evaluateAll((els: RowElement[]) =>
        els.map((e) => [Number(e.dataset.index), e.querySelector('.value')?.textContent ?? ''] as const),
      );
    const shown = parts
      .sort((a, b) => a[0] - b[0])
      .map((p) => p[1])
      .join('');
    if (shown !== JSON.stringify(LONG_DESCRIPTION)) throw new Error(`the rows hold: ${shown.slice(0, 200)}…`);
    const clipped = await f
      .locator('.row.wrap-more .row-main')
      .first()
      .evaluate((el: Box) => el.scrollWidth > el.clientWidth + 1);
    if (clipped) throw new Error('a continuation row is cut');
    await shot(page, 'response-long-string.png', true);
    await f
      .locator('.row.wrap-more .value')
      .first()
      .click({ position: { x: 12, y: 4 } });
    await f.locator('.row.wrap-more:not([hidden])').first().waitFor({ state: 'detached', timeout: 10_000 });
  });

  await check(
    'a 401 sent without a token -> Set Access Token: the banner clears and Send Again sends it with the token',
    async () => {
      await c.runCommand(page, 'lpreq: Clear Access Token');
      await page.locator('.notification-toast', { hasText: 'cleared' }).first().waitFor({ timeout: 10_000 });
      await openViewFile();
      await c.sendLine(page, 'courses/20/modules');
      const f = await responseFrame(page, '401 Unauthorized');
      await f.locator('.banner', { hasText: 'Sent without an access token' }).waitFor();
      await f.locator('.banner [data-action="setToken"]').first().click();
      const input = page.locator('.quick-input-widget input[type="password"]');
      await input.waitFor({ timeout: 10_000 });
      await input.fill(TOKEN);
      await page.keyboard.press('Enter');
      await f.locator('.banner', { hasText: 'An access token is set' }).waitFor({ timeout: 10_000 });
      if ((await f.locator('.banner', { hasText: 'Sent without' }).count()) > 0) throw new Error('the banner stays');
      if ((await f.locator('.banner [data-action="setToken"]').count()) > 0)
        throw new Error('Set Access Token is offered again');
      await shot(page, 'response-token-set.png', true);
      const before = api.received.length;
      await f.locator('.banner [data-action="sendAgain"]').click();
      await responseFrame(page, '200 OK', 20_000, /Module\[\]/);
      const sent = since(api, before, '/api/v1/courses/20/modules');
      if (sent.length !== 1 || sent[0].authorization !== `Bearer ${TOKEN}`)
        throw new Error('not sent again with the token');
    },
  );

  await check(
    'Send All shows one run view: each exchange chosen in its list (status, typed issues, body), no view per request',
    async () => {
      const views = async () => page.locator('.tabs-container .tab', { hasText: ' · ' }).count();
      const before = await views();
      await openViewFile();
      await c.runCommand(page, 'lpreq: Send All Requests in File');
      const f = await responseFrame(page, /of 4 passed/, 60_000);
      const entries = f.locator('.run .run-entry');
      await entries.nth(4).waitFor();
      const labels = await f.locator('.run .run-label').allInnerTexts();
      if (
        labels.slice(1).join(' | ') !==
        'Behind nginx | Modules two at a time | A module with a long description | Modules that need the token'
      )
        throw new Error(`the run lists: ${labels.join(' | ')}`);
      const opened = (await views()) - before;
      if (opened > 1) throw new Error(`Send All opened ${opened} views`);
      await shot(page, 'send-all-run.png');
      await f.locator('.run .run-entry', { hasText: 'A module with a long description' }).click();
      const one = await responseFrame(page, '200 OK', 20_000);
      await one.locator('.row[data-path="$[0].description"]').waitFor({ timeout: 10_000 });
      await one.locator('.run .run-entry.selected', { hasText: 'A module with a long description' }).waitFor();
      await shot(page, 'send-all-exchange.png', true);
      await one.locator('.run .run-entry', { hasText: 'Behind nginx' }).click();
      const page502 = await responseFrame(page, '502 Bad Gateway', 20_000);
      await page502.locator('.html-title', { hasText: '502 Bad Gateway' }).waitFor();
    },
  );

  // The view file closed, as the checks after these expect the editors.
  const tab = page.locator('.tabs-container .tab', { hasText: VIEW_FILE }).first();
  if (await tab.count()) {
    await tab.hover();
    await tab.locator('.tab-actions .action-label').first().click();
  }
}
