/** The tab bar of the response view, and which panel is in front. */
import type { ViewData } from '../model/protocol';
import { button, h } from './dom';
import { app, page, type Tab } from './page';

/** What a panel does when it comes in front (the body draws its rows, the tree asks for its roots). */
const onShown = new Map<Tab, () => void>();

export function whenShown(id: Tab, run: () => void): void {
  onShown.set(id, run);
}

export function tabs(v: ViewData): HTMLElement {
  const entries: [Tab, string][] = [
    ['body', v.bodyLabel],
    ['tree', 'Tree'],
    ['headers', `Headers (${v.headers.length})`],
    ['request', 'Request'],
    ['timing', 'Timing'],
    ['issues', v.issues.length > 0 ? `Issues (${v.issues.length.toLocaleString('en-US')})` : 'Issues'],
  ];
  const failed = v.assertions.filter((a) => !a.passed).length;
  if (v.assertions.length > 0)
    entries.push(['assertions', `Assertions (${v.assertions.length - failed}/${v.assertions.length})`]);
  const nav = h('nav', { class: 'tabs', attrs: { role: 'tablist' } });
  for (const [id, label] of entries) {
    const b = button(label, () => selectTab(id), { class: `tab${id === page.tab ? ' active' : ''}` });
    b.setAttribute('role', 'tab');
    b.setAttribute('aria-selected', String(id === page.tab));
    b.dataset.tab = id;
    if (id === 'issues' && v.issues.length > 0) b.classList.add('warn');
    if (id === 'assertions' && failed > 0) b.classList.add('fail');
    nav.append(b);
  }
  return nav;
}

export function selectTab(id: Tab): void {
  page.tab = id;
  for (const b of app.querySelectorAll<HTMLElement>('.tab')) {
    const on = b.dataset.tab === id;
    b.classList.toggle('active', on);
    b.setAttribute('aria-selected', String(on));
  }
  for (const p of app.querySelectorAll<HTMLElement>('.panel')) p.hidden = p.dataset.panel !== id;
  onShown.get(id)?.();
}

export function panel(id: Tab, ...children: (Node | string | undefined | false)[]): HTMLElement {
  const p = h('section', { class: `panel panel-${id}`, attrs: { role: 'tabpanel' } }, ...children);
  p.dataset.panel = id;
  p.hidden = id !== page.tab;
  return p;
}
