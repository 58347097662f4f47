/**
 * What every part of the response view's page shares: the channel to the extension host, the
 * page's root element, and the view shown now with the state around it (the tab in front, a
 * request in flight).
 */
import type { ViewAction, ViewData, WebviewMessage } from '../model/protocol';
import { button } from './dom';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
export const post = (m: WebviewMessage) => vscode.postMessage(m);

export type Tab = 'body' | 'tree' | 'headers' | 'request' | 'timing' | 'issues' | 'assertions';

export const app = document.getElementById('app') as HTMLElement;

/** The view shown now, the tab in front, and the text of a request in flight. */
export const page: { view: ViewData | undefined; tab: Tab; sendingText: string | undefined } = {
  view: undefined,
  tab: 'body',
  sendingText: undefined,
};

/** A button that asks the host to act (Send Again, Copy as cURL, ...). */
export function action(a: ViewAction, cls = 'button secondary'): HTMLButtonElement {
  const b = button(a.label, () => post({ type: 'action', action: a.id }), { title: a.title, class: cls });
  b.dataset.action = a.id;
  return b;
}
