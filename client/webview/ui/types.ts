/** The documented types of the body's path patterns, asked of the host in batches as rows need them. */
import type { TypeInfo } from '../model/protocol';
import { page, post } from './page';

const types = new Map<string, TypeInfo | null>();
const asked = new Set<string>();
let askTimer: ReturnType<typeof setTimeout> | undefined;
let pendingAsk: string[] = [];

export function typeOf(pattern: string): TypeInfo | null | undefined {
  return types.get(pattern);
}

export function askTypes(patterns: string[]): void {
  if (!page.view) return;
  for (const p of patterns) {
    if (asked.has(p)) continue;
    asked.add(p);
    pendingAsk.push(p);
  }
  if (askTimer || pendingAsk.length === 0) return;
  askTimer = setTimeout(() => {
    askTimer = undefined;
    if (page.view) post({ type: 'describe', id: page.view.id, patterns: pendingAsk.slice(0, 500) });
    pendingAsk = pendingAsk.slice(500);
  }, 0);
}

export function addTypes(entries: [string, TypeInfo | null][]): void {
  for (const [pattern, info] of entries) types.set(pattern, info);
}

/** A new response: nothing is known of its types. */
export function forgetTypes(): void {
  types.clear();
  asked.clear();
  pendingAsk = [];
}
