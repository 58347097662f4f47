/**
 * The response view, in the webview: the header line, the banners, the action buttons and
 * the tabs (Body, Tree, Headers, Request, Timing, Issues, Assertions), drawn from what the
 * extension host sends (../model/protocol.ts). Styled only with VS Code's theme variables
 * (response.css). This file puts the parts together and answers the host's messages; each
 * part is a file of its own.
 */
import type { HostMessage, ViewData } from '../model/protocol';
import { assertionsPanel } from './assertionsPanel';
import { banners, progressBanner } from './banners';
import { body, bodyPanel, resetBody, revealPath, setBodyModel } from './body';
import { h } from './dom';
import { header } from './header';
import { issuesPanel } from './issuesPanel';
import { app, page, post } from './page';
import { requestPanel } from './requestPanel';
import { runList, showSelected } from './runList';
import { table } from './table';
import { panel, tabs } from './tabs';
import { timingPanel } from './timingPanel';
import { tree, treePanel } from './treePanel';
import { addTypes, forgetTypes } from './types';
import { JsonBodyModel } from '../model/bodyModel';
import { inflate } from '../model/inflate';

function render(v: ViewData): void {
  const listHadFocus = (document.activeElement?.closest('.run') ?? null) !== null;
  app.textContent = '';
  resetBody();
  const content = h(
    'div',
    { class: `content${page.sendingText !== undefined ? ' busy' : ''}` },
    tabs(v),
    h(
      'div',
      { class: 'panels' },
      bodyPanel(v),
      treePanel(),
      panel('headers', table(v.headers, 'No headers.')),
      requestPanel(v),
      timingPanel(v),
      issuesPanel(v),
      assertionsPanel(v),
    ),
  );
  const parts = [header(v), banners(v, page.sendingText), content];
  // A run's list stands beside the exchange it shows.
  app.classList.toggle('with-run', v.run !== undefined);
  if (v.run) app.append(runList(v.run), h('div', { class: 'run-detail' }, ...parts));
  else app.append(...parts);
  if (v.run) showSelected(app, listHadFocus);
  body.list?.measure();
  if (page.tab === 'tree') tree.load();
}

function redrawBanners(): void {
  if (!page.view) return;
  app.querySelector('.banners')?.replaceWith(banners(page.view, page.sendingText));
  app.querySelector('.content')?.classList.toggle('busy', page.sendingText !== undefined);
}

function onState(v: ViewData): void {
  page.view = v;
  page.sendingText = undefined;
  body.text = undefined;
  body.htmlMode = 'text';
  forgetTypes();
  document.title = v.title;
  document.body.dataset.responseId = String(v.id);
  delete document.body.dataset.firstScreenMs;
  if (!v.request && page.tab === 'request') page.tab = 'body';
  if (v.assertions.length === 0 && page.tab === 'assertions') page.tab = 'body';
  render(v);
}

/** The view of the same response with more known (its typed issues): all but the body drawn again; the body's rows keep their place and get their marks. */
function onUpdate(v: ViewData): void {
  if (!page.view || v.id !== page.view.id) return;
  v.run ??= page.view.run;
  page.view = v;
  document.title = v.title;
  app.querySelector('.header')?.replaceWith(header(v));
  app.querySelector('.banners')?.replaceWith(banners(v, page.sendingText));
  if (v.assertions.length === 0 && page.tab === 'assertions') page.tab = 'body';
  app.querySelector('nav.tabs')?.replaceWith(tabs(v));
  const panels = app.querySelector('.panels');
  if (!panels) return;
  for (const p of panels.querySelectorAll<HTMLElement>('.panel')) if (p.dataset.panel !== 'body') p.remove();
  panels.append(
    ...[
      treePanel(),
      panel('headers', table(v.headers, 'No headers.')),
      requestPanel(v),
      timingPanel(v),
      issuesPanel(v),
      assertionsPanel(v),
    ].filter((p): p is HTMLElement => p !== undefined),
  );
  if (page.tab === 'tree') tree.load();
  if (body.model instanceof JsonBodyModel) body.model.setIssues(v.issues);
  body.list?.draw();
}

async function onBody(
  id: number,
  data: Uint8Array,
  sentAt: number | undefined,
  encoding: 'deflate-raw' | undefined,
): Promise<void> {
  if (!page.view || id !== page.view.id) return;
  const arrived = performance.now();
  // The host's clock and this page's are the machine's: how long the body took to come.
  const transferMs = sentAt === undefined ? undefined : Math.max(0, Date.now() - sentAt);
  const bytes = encoding === 'deflate-raw' ? await inflate(data) : data;
  if (!page.view || id !== page.view.id) return;
  body.text = new TextDecoder().decode(bytes);
  app.querySelector('.loading')?.remove();
  setBodyModel();
  // The first screen is drawn once the browser has painted it.
  requestAnimationFrame(() =>
    setTimeout(() => {
      const ms = performance.now() - arrived;
      document.body.dataset.firstScreenMs = ms.toFixed(1);
      post({ type: 'rendered', id, ms, transferMs });
    }, 0),
  );
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const m = event.data;
  switch (m.type) {
    case 'state':
      onState(m.view);
      break;
    case 'update':
      onUpdate(m.view);
      break;
    case 'body':
      void onBody(
        m.id,
        m.bytes instanceof Uint8Array ? m.bytes : new Uint8Array(m.bytes as ArrayBufferLike),
        m.sentAt,
        m.encoding,
      );
      break;
    case 'sending':
      page.sendingText = m.text;
      if (page.view) redrawBanners();
      else app.replaceChildren(h('div', { class: 'banners' }, progressBanner(m.text)));
      break;
    case 'types':
      if (!page.view || m.id !== page.view.id) return;
      addTypes(m.entries);
      body.list?.draw();
      break;
    case 'tree':
      if (page.view && m.id === page.view.id) tree.show(m.parent, m.nodes);
      break;
    case 'reveal':
      revealPath(m.path);
      break;
    case 'run':
      if (page.view && m.id === page.view.id) {
        const hadFocus = (document.activeElement?.closest('.run') ?? null) !== null;
        page.view.run = m.run;
        app.querySelector('.run')?.replaceWith(runList(m.run));
        showSelected(app, hadFocus);
      }
      break;
  }
});

window.addEventListener('keydown', (e) => {
  if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'f') {
    e.preventDefault();
    body.findBar?.show();
  } else if (e.key === 'F3' && body.findBar?.open) {
    e.preventDefault();
    body.findBar.step(e.shiftKey ? -1 : 1);
  }
});

document.addEventListener('copy', (e) => {
  // Ctrl+C with no text selected copies the selected row's value.
  if (page.tab !== 'body' || !body.list || (window.getSelection()?.toString() ?? '') !== '') return;
  const text = body.list.selectedText();
  if (text === undefined || !e.clipboardData) return;
  e.clipboardData.setData('text/plain', text);
  e.preventDefault();
});

/** The list's drawing figures, for the end-to-end tests. */
setInterval(() => {
  if (body.list) document.body.dataset.maxDrawMs = body.list.stats.maxDrawMs.toFixed(1);
}, 250);

post({ type: 'ready', inflate: typeof DecompressionStream === 'function' });
