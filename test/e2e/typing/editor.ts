/**
 * The typing sequences (sequences.ts) in the real editor: a fresh repository whose
 * environments are `dev` and `staging` is opened in code-server, `dev` is chosen, and each
 * sequence is typed into one request file: its text set, the cursor put where `|` is, the keys
 * typed and the items accepted in the suggest widget as a person does, then the text and the
 * cursor read back (the text through the clipboard, the cursor from the status bar).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { SEQUENCES, TYPING_ENVIRONMENTS, type TypingSequence, type TypingStep } from './sequences';

export const TYPING_FILE = 'typing.lpreq';

/** The fresh repository, beside the main workspace: its environment files and an empty request file. */
export function makeTypingRepository(root: string): string {
  const dir = join(root, 'typing-repo');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify(TYPING_ENVIRONMENTS.shared, null, 2));
  writeFileSync(join(dir, 'http-client.private.env.json'), JSON.stringify(TYPING_ENVIRONMENTS.private, null, 2));
  writeFileSync(join(dir, '.gitignore'), 'http-client.private.env.json\n');
  writeFileSync(join(dir, TYPING_FILE), '');
  return dir;
}

function split(marked: string): { text: string; line: number; column: number } {
  const at = marked.indexOf('|');
  const text = marked.slice(0, at) + marked.slice(at + 1);
  const lines = marked.slice(0, at).split('\n');
  return { text, line: lines.length, column: lines[lines.length - 1].length + 1 };
}

const suggestVisible = (page: Page) => page.locator('.editor-widget.suggest-widget.visible');

/** The label of the focused row of the suggest widget, or undefined when no list is open. */
async function focusedLabel(page: Page): Promise<string | undefined> {
  const row = page.locator('.suggest-widget.visible .monaco-list-row.focused .label-name').first();
  return (await row.textContent({ timeout: 300 }).catch(() => null)) ?? undefined;
}

/** Opens the list when none is open (Ctrl+Space), moves to the item of this label and accepts it with Tab. */
async function accept(page: Page, label: string): Promise<void> {
  let seen: string[] = [];
  for (let attempt = 0; attempt < 2; attempt++) {
    if (!(await suggestVisible(page).isVisible())) await page.keyboard.press('Control+Space');
    const opened = await page
      .locator('.suggest-widget.visible .monaco-list-row.focused')
      .first()
      .waitFor({ timeout: 5_000 })
      .then(
        () => true,
        () => false,
      );
    seen = [];
    for (let i = 0; opened && i < 150; i++) {
      const current = await focusedLabel(page);
      if (current === undefined) break;
      if (current === label) {
        await page.keyboard.press('Tab');
        await page.waitForTimeout(350);
        return;
      }
      if (seen.includes(current)) break;
      seen.push(current);
      await page.keyboard.press('ArrowDown');
    }
    // The list may have been one opened by the last key, without the item: ask for it once
    // (Escape closes the list only; without a list it would leave the snippet's tab stops).
    if (await suggestVisible(page).isVisible()) await page.keyboard.press('Escape');
  }
  throw new Error(`no item '${label}' in the suggest widget; it showed ${seen.length ? seen.join(', ') : 'no list'}`);
}

async function step(page: Page, s: TypingStep): Promise<void> {
  if ('type' in s) {
    await page.keyboard.type(s.type, { delay: 70 });
    await page.waitForTimeout(250);
  } else if ('key' in s) {
    await page.keyboard.press(s.key);
    await page.waitForTimeout(250);
  } else if ('accept' in s) {
    await accept(page, s.accept);
  } else {
    // Asked for by hand (Ctrl+Space): the widget says it has nothing, or does not open.
    if (!(await suggestVisible(page).isVisible())) await page.keyboard.press('Control+Space');
    await page.waitForTimeout(1200);
    const rows = await page.locator('.suggest-widget.visible .monaco-list-row .label-name').allTextContents();
    if (rows.length > 0) throw new Error(`the suggest widget offers ${rows.join(', ')}`);
    if (await suggestVisible(page).isVisible()) await page.keyboard.press('Escape');
  }
}

/** The editor's text (copied whole) and cursor (from the status bar), with the cursor marked `|`. */
async function readBack(page: Page): Promise<string> {
  const status = await page.locator('#status\\.editor\\.selection').first().innerText();
  const m = /Ln (\d+), Col (\d+)(.*)/.exec(status);
  if (!m) throw new Error(`the status bar says '${status}'`);
  if (/selected/.test(m[3])) throw new Error(`text is selected at the end: ${status}`);
  await page.keyboard.press('Escape');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Control+C');
  await page.waitForTimeout(150);
  const text = String(await page.evaluate('navigator.clipboard.readText()')).replace(/\r\n/g, '\n');
  const lines = text.split('\n');
  const line = Number(m[1]);
  const column = Number(m[2]);
  lines[line - 1] = `${lines[line - 1].slice(0, column - 1)}|${lines[line - 1].slice(column - 1)}`;
  return lines.join('\n');
}

/** Sets the editor's text and cursor as `marked` says. */
export async function setUp(page: Page, marked: string): Promise<void> {
  const { text, line, column } = split(marked);
  await page.keyboard.press('Escape');
  await page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(text)})`);
  await page.keyboard.press('Control+A');
  await page.keyboard.press(text === '' ? 'Delete' : 'Control+V');
  await page.waitForTimeout(150);
  await page.keyboard.press('Control+G');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: 10_000 });
  await input.fill(`:${line}:${column}`);
  await page.waitForTimeout(150);
  await page.keyboard.press('Enter');
  await input.waitFor({ state: 'hidden', timeout: 10_000 });
  // The pasted text reaches the language server before the first key does; a moment for its diagnostics.
  await page.waitForTimeout(300);
  const status = await page.locator('#status\\.editor\\.selection').first().innerText();
  if (!status.startsWith(`Ln ${line}, Col ${column}`))
    throw new Error(`the cursor is at '${status}', not ${line}:${column}`);
}

/** Types one sequence; throws with both texts when the result is not the expected one. */
export async function typeSequence(
  page: Page,
  sequence: TypingSequence,
  typed: () => Promise<void> = async () => undefined,
): Promise<void> {
  await setUp(page, sequence.before);
  for (const s of sequence.steps) await step(page, s);
  await typed();
  const result = await readBack(page);
  if (result !== sequence.after)
    throw new Error(`expected ${JSON.stringify(sequence.after)}\n        got      ${JSON.stringify(result)}`);
}

export { SEQUENCES };
