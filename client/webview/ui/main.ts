/**
 * The response view, in the webview: the header line, the banners, the action buttons and
 * the tabs (Body, Tree, Headers, Request, Timing, Issues), drawn from what the extension host
 * sends (../model/protocol.ts). Styled only with VS Code's theme variables (response.css).
 * The body comes once as UTF-8 bytes and is read lazily by the models in ../model/.
 */
import { JsonBodyModel, TextBodyModel, type BodyModel } from '../model/bodyModel';
import { formatDuration, groupLabel } from '../model/format';
import { readHtml } from '../model/html';
import type {
  CompareView,
  HostMessage,
  IssueGroupView,
  TreeNodeView,
  TypeInfo,
  ViewAction,
  ViewData,
  WebviewMessage,
} from '../model/protocol';
import { BodyList } from './bodyList';
import { button, h } from './dom';
import { compareContent, compareLabel } from './comparePanel';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const post = (m: WebviewMessage) => vscode.postMessage(m);

type Tab = 'body' | 'tree' | 'headers' | 'request' | 'timing' | 'issues' | 'assertions' | 'compare';

const app = document.getElementById('app') as HTMLElement;
let view: ViewData | undefined;
let tab: Tab = 'body';
let list: BodyList | undefined;
let model: BodyModel | undefined;
let htmlMode: 'text' | 'markup' = 'text';
let bodyText: string | undefined;
let sendingText: string | undefined;
/** The comparison of this response (the Compare tab), once asked for. */
let compare: CompareView | undefined;
const types = new Map<string, TypeInfo | null>();
const asked = new Set<string>();
let askTimer: ReturnType<typeof setTimeout> | undefined;
let pendingAsk: string[] = [];

function action(a: ViewAction, cls = 'button secondary'): HTMLButtonElement {
  const b = button(a.label, () => post({ type: 'action', action: a.id }), { title: a.title, class: cls });
  b.dataset.action = a.id;
  return b;
}

function typeOf(pattern: string): TypeInfo | null | undefined {
  return types.get(pattern);
}

function askTypes(patterns: string[]): void {
  if (!view) return;
  for (const p of patterns) {
    if (asked.has(p)) continue;
    asked.add(p);
    pendingAsk.push(p);
  }
  if (askTimer || pendingAsk.length === 0) return;
  askTimer = setTimeout(() => {
    askTimer = undefined;
    if (view) post({ type: 'describe', id: view.id, patterns: pendingAsk.slice(0, 500) });
    pendingAsk = pendingAsk.slice(500);
  }, 0);
}

/* ---------------- the header ---------------- */

function header(v: ViewData): HTMLElement {
  const status = h('span', { class: `status tone-${v.status.tone}`, text: v.status.text });
  const facts = h('span', { class: 'facts' });
  v.facts.forEach((f, i) => {
    if (i > 0) facts.append(h('span', { class: 'sep', text: ' · ' }));
    facts.append(h('span', { class: 'fact', text: f }));
  });
  // The actions read like code lenses: a line of links under the status.
  const toolbar = h('div', { class: 'toolbar', attrs: { role: 'toolbar' } });
  v.actions.forEach((a, i) => {
    if (i > 0) toolbar.append(h('span', { class: 'action-sep', text: '|' }));
    toolbar.append(action(a, 'action-link'));
  });
  return h('header', { class: 'header' }, h('div', { class: 'status-line' }, status, facts), toolbar);
}

function banners(v: ViewData): HTMLElement {
  const out = h('div', { class: 'banners' });
  if (sendingText !== undefined) {
    out.append(
      h(
        'div',
        { class: 'banner banner-progress', attrs: { role: 'status' } },
        h('span', { class: 'spinner' }),
        h('span', { class: 'banner-text', text: sendingText }),
        action({ id: 'cancel', label: 'Cancel' }),
      ),
    );
  }
  for (const b of v.banners) {
    out.append(
      h(
        'div',
        { class: `banner banner-${b.kind}`, attrs: { role: b.kind === 'error' ? 'alert' : 'status' } },
        h('span', { class: 'banner-text', text: b.text }),
        ...(b.actions ?? []).map((a) => action(a, 'button')),
      ),
    );
  }
  return out;
}

/* ---------------- tabs ---------------- */

function tabs(v: ViewData): HTMLElement {
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
  if (compare) entries.push(['compare', compareLabel(compare)]);
  const nav = h('nav', { class: 'tabs', attrs: { role: 'tablist' } });
  for (const [id, label] of entries) {
    const b = button(label, () => selectTab(id), { class: `tab${id === tab ? ' active' : ''}` });
    b.setAttribute('role', 'tab');
    b.setAttribute('aria-selected', String(id === tab));
    b.dataset.tab = id;
    if (id === 'issues' && v.issues.length > 0) b.classList.add('warn');
    if (id === 'assertions' && failed > 0) b.classList.add('fail');
    if (id === 'compare' && compare && compare.differences > 0) b.classList.add('fail');
    nav.append(b);
  }
  return nav;
}

function selectTab(id: Tab): void {
  tab = id;
  for (const b of app.querySelectorAll<HTMLElement>('.tab')) {
    const on = b.dataset.tab === id;
    b.classList.toggle('active', on);
    b.setAttribute('aria-selected', String(on));
  }
  for (const p of app.querySelectorAll<HTMLElement>('.panel')) p.hidden = p.dataset.panel !== id;
  if (id === 'body') list?.draw();
  if (id === 'tree') tree.load();
}

function panel(id: Tab, ...children: (Node | string | undefined | false)[]): HTMLElement {
  const p = h('section', { class: `panel panel-${id}`, attrs: { role: 'tabpanel' } }, ...children);
  p.dataset.panel = id;
  p.hidden = id !== tab;
  return p;
}

/* ---------------- Body ---------------- */

let findBar: { root: HTMLElement; input: HTMLInputElement; count: HTMLElement } | undefined;
/** A page's text, wrapped, when it is short enough to draw whole (the list would cut its long lines). */
let pageText: HTMLElement | undefined;
const PAGE_TEXT_MAX_CHARS = 256 * 1024;
let matches: number[] = [];
let matchIndex = -1;

function bodyPanel(v: ViewData): HTMLElement {
  const p = panel('body');
  if (v.apiErrors.length > 0) {
    p.append(
      h(
        'div',
        { class: 'api-errors', attrs: { role: 'alert' } },
        h('div', {
          class: 'api-errors-title',
          text: v.apiErrors.length === 1 ? 'The API says' : `The API says (${v.apiErrors.length} messages)`,
        }),
        h('ul', {}, ...v.apiErrors.map((m) => h('li', { text: m }))),
      ),
    );
  }
  if (v.bodyKind === 'none' || v.bodyKind === 'empty' || v.bodyKind === 'binary') {
    const text =
      v.bodyKind === 'binary'
        ? 'A binary body: not shown.'
        : v.bodyKind === 'empty'
          ? 'The body is empty.'
          : 'No answer: no body.';
    p.append(h('div', { class: 'empty-state', text }));
    return p;
  }
  if (v.bodyKind === 'html') {
    const title = h('div', { class: 'html-title' });
    const toggle = button(htmlMode === 'text' ? 'Show Markup' : 'Show Text', () => {
      htmlMode = htmlMode === 'text' ? 'markup' : 'text';
      toggle.textContent = htmlMode === 'text' ? 'Show Markup' : 'Show Text';
      setBodyModel();
    });
    toggle.dataset.action = 'toggleMarkup';
    p.append(h('div', { class: 'html-bar' }, h('span', { class: 'html-kind', text: 'HTML page' }), title, toggle));
    pageText = h('div', { class: 'page-text' });
    pageText.hidden = true;
    p.append(pageText);
  }
  const bar = h('div', { class: 'find', attrs: { role: 'search' } });
  const input = h('input', {
    class: 'find-input',
    attrs: { type: 'text', placeholder: 'Find in the body', 'aria-label': 'Find in the body' },
  });
  const count = h('span', { class: 'find-count' });
  bar.append(
    input,
    count,
    button('↑', () => step(-1), { title: 'Previous match (Shift+Enter)', class: 'icon-button' }),
    button('↓', () => step(1), { title: 'Next match (Enter)', class: 'icon-button' }),
    button('×', closeFind, { title: 'Close (Escape)', class: 'icon-button' }),
  );
  bar.hidden = true;
  let timer: ReturnType<typeof setTimeout> | undefined;
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(runFind, 150);
  });
  input.addEventListener('keydown', (e) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      step(e.shiftKey ? -1 : 1);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      closeFind();
    }
  });
  findBar = { root: bar, input, count };
  p.append(bar);
  list = new BodyList(
    new TextBodyModel(''),
    {
      typeOf,
      askTypes,
      copy: (what, path) => post({ type: 'copy', what, path }),
      docs: (path) => post({ type: 'docs', path }),
    },
    v.typed,
  );
  p.append(list.element);
  if (bodyText === undefined) p.append(h('div', { class: 'loading', text: 'Reading the body…' }));
  return p;
}

function setBodyModel(): void {
  if (!view || !list || bodyText === undefined) return;
  if (view.bodyKind === 'json') model = new JsonBodyModel(bodyText, view.issues);
  else if (view.bodyKind === 'html') {
    const page = readHtml(bodyText);
    const title = app.querySelector('.html-title');
    if (title) title.textContent = page.title ?? '(no title)';
    model = new TextBodyModel(htmlMode === 'text' ? page.text : bodyText);
    const wrapped = htmlMode === 'text' && page.text.length <= PAGE_TEXT_MAX_CHARS && (!findBar || findBar.root.hidden);
    if (pageText) {
      pageText.replaceChildren(...page.text.split('\n').map((l) => h('p', { text: l })));
      pageText.hidden = !wrapped;
    }
    list.element.hidden = wrapped;
  } else model = new TextBodyModel(bodyText);
  list.setModel(model);
  if (findBar && !findBar.root.hidden) runFind();
}

function openFind(): void {
  if (!findBar) return;
  selectTab('body');
  findBar.root.hidden = false;
  // A page's wrapped text gives way to its lines, where matches are found.
  if (pageText && !pageText.hidden && list) {
    pageText.hidden = true;
    list.element.hidden = false;
    list.draw();
  }
  const selected = window.getSelection()?.toString();
  if (selected && selected.length < 200 && !selected.includes('\n')) findBar.input.value = selected;
  findBar.input.focus({ preventScroll: true });
  findBar.input.select();
  runFind();
}

function closeFind(): void {
  if (!findBar) return;
  findBar.root.hidden = true;
  matches = [];
  list?.setQuery('');
  list?.element.focus({ preventScroll: true });
}

function runFind(): void {
  if (!findBar || !model || !list) return;
  const query = findBar.input.value;
  const found = model.find(query);
  matches = found.offsets;
  matchIndex = -1;
  list.setQuery(query);
  if (query.length === 0) findBar.count.textContent = '';
  else if (matches.length === 0) findBar.count.textContent = 'No results';
  else step(1, found.more);
}

function step(direction: number, more = false): void {
  if (!findBar || !model || !list || matches.length === 0) return;
  matchIndex = (matchIndex + direction + matches.length) % matches.length;
  findBar.count.textContent = `${(matchIndex + 1).toLocaleString('en-US')} of ${matches.length.toLocaleString('en-US')}${more ? '+' : ''}`;
  const row = model.rowOfOffset(matches[matchIndex]);
  if (row !== undefined) list.reveal(row);
}

/* ---------------- Compare ---------------- */

function comparePanel(): HTMLElement | undefined {
  if (!compare) return undefined;
  return panel(
    'compare',
    compareContent(compare, {
      reveal: (path) => revealPath(path),
      update: () => post({ type: 'action', action: 'updateSnapshot' }),
      compare: (against) =>
        post({ type: 'action', action: against === 'previous' ? 'comparePrevious' : 'compareSnapshot' }),
    }),
  );
}

/** A comparison arrived: the Compare tab shows it, in front. */
function showCompare(c: CompareView): void {
  if (!view) return;
  compare = c;
  app.querySelector('nav.tabs')?.replaceWith(tabs(view));
  const fresh = comparePanel() as HTMLElement;
  const old = app.querySelector('.panel-compare');
  if (old) old.replaceWith(fresh);
  else app.querySelector('.panels')?.append(fresh);
  selectTab('compare');
}

/** Shows the field at a path in the Body tab (from the Issues tab, or the host). */
function revealPath(path: string): void {
  selectTab('body');
  if (!model || !list) return;
  const row = model.rowOfPath(path);
  if (row !== undefined) {
    list.reveal(row);
    list.element.focus({ preventScroll: true });
  }
}

/* ---------------- Tree ---------------- */

const tree = {
  loaded: false,
  root: undefined as HTMLElement | undefined,
  holders: new Map<string, HTMLElement>(),
  load(): void {
    if (this.loaded || !view || !this.root) return;
    this.loaded = true;
    post({ type: 'tree', id: view.id, parent: null });
  },
  reset(root: HTMLElement): void {
    this.loaded = false;
    this.root = root;
    this.holders = new Map();
  },
  show(parent: string | null, nodes: TreeNodeView[]): void {
    const holder = parent === null ? this.root : this.holders.get(parent);
    if (!holder || !view) return;
    holder.textContent = '';
    for (const node of nodes) {
      const children = h('div', { class: 'tree-children' });
      children.hidden = !node.expanded;
      const twisty = h('span', { class: 'fold foldable', text: node.expandable ? (node.expanded ? '▾' : '▸') : '' });
      const row = h(
        'div',
        { class: 'tree-row', title: node.tooltip },
        twisty,
        node.icon ? h('span', { class: `tree-icon icon-${node.icon}` }) : undefined,
        h('span', { class: 'tree-label', text: node.label }),
        node.description ? h('span', { class: 'tree-description', text: node.description }) : undefined,
      );
      let requested = false;
      const toggle = () => {
        if (!node.expandable || !view) return;
        children.hidden = !children.hidden;
        twisty.textContent = children.hidden ? '▸' : '▾';
        if (!children.hidden && !requested) {
          requested = true;
          post({ type: 'tree', id: view.id, parent: node.id });
        }
      };
      row.addEventListener('click', toggle);
      this.holders.set(node.id, children);
      holder.append(h('div', { class: 'tree-node' }, row, children));
      if (node.expandable && node.expanded) {
        requested = true;
        post({ type: 'tree', id: view.id, parent: node.id });
      }
    }
    if (nodes.length === 0 && parent === null)
      holder.append(h('div', { class: 'empty-state', text: 'Nothing to show.' }));
  },
};

/* ---------------- Headers, Request, Timing, Issues ---------------- */

function table(rows: [string, string][], empty: string): HTMLElement {
  if (rows.length === 0) return h('div', { class: 'empty-state', text: empty });
  return h(
    'table',
    { class: 'kv' },
    h(
      'tbody',
      {},
      ...rows.map(([k, v]) => h('tr', {}, h('th', { text: k, attrs: { scope: 'row' } }), h('td', { text: v }))),
    ),
  );
}

function requestPanel(v: ViewData): HTMLElement {
  const r = v.request;
  if (!r) return panel('request', h('div', { class: 'empty-state', text: 'The request is not known.' }));
  const MAX_BODY = 256 * 1024;
  const body =
    r.body === undefined
      ? undefined
      : r.body.length > MAX_BODY
        ? `${r.body.slice(0, MAX_BODY)}\n… (${r.body.length - MAX_BODY} more characters)`
        : r.body;
  return panel(
    'request',
    h(
      'div',
      { class: 'request-line' },
      h('span', { class: 'method', text: r.method }),
      h('span', { class: 'url', text: r.url }),
    ),
    r.redirects.length > 0
      ? h(
          'div',
          { class: 'section' },
          h('h3', { text: `Redirects followed (${r.redirects.length})` }),
          h(
            'ol',
            { class: 'redirects' },
            ...r.redirects.map((x) => h('li', { text: `${x.status}: ${x.from} → ${x.to}` })),
          ),
        )
      : undefined,
    h(
      'div',
      { class: 'section' },
      h('h3', { text: 'Headers' }),
      table(r.headers, 'No headers.'),
      r.tokenNote ? h('p', { class: 'note', text: r.tokenNote }) : undefined,
    ),
    h(
      'div',
      { class: 'section' },
      h('h3', { text: 'Body' }),
      body === undefined ? h('p', { class: 'note', text: 'No body.' }) : h('pre', { class: 'code', text: body }),
    ),
  );
}

function timingPanel(v: ViewData): HTMLElement {
  if (v.timing.length === 0)
    return panel('timing', h('div', { class: 'empty-state', text: 'No timing: nothing was exchanged.' }));
  const total = Math.max(v.totalMs ?? 0, ...v.timing.map((t) => t.startMs + t.ms), 1);
  const rows = v.timing.map((t) => {
    const bar = h('span', { class: 'bar' });
    bar.style.left = `${(t.startMs / total) * 100}%`;
    bar.style.width = `${Math.max(0.4, (t.ms / total) * 100)}%`;
    return h(
      'tr',
      {},
      h('th', { text: t.label, attrs: { scope: 'row' } }),
      h('td', { class: 'ms', text: formatDuration(t.ms) }),
      h('td', { class: 'track' }, bar),
    );
  });
  rows.push(
    h(
      'tr',
      { class: 'total' },
      h('th', { text: 'Total', attrs: { scope: 'row' } }),
      h('td', { class: 'ms', text: formatDuration(total) }),
      h('td', {}),
    ),
  );
  return panel('timing', h('table', { class: 'timing' }, h('tbody', {}, ...rows)));
}

function issueGroup(g: IssueGroupView): HTMLElement {
  const paths = h('ul', { class: 'issue-paths' });
  paths.hidden = true;
  for (const p of g.paths) {
    const link = button(p, () => revealPath(p), { class: 'link', title: `Show ${p} in the body` });
    paths.append(h('li', {}, link));
  }
  if (g.count > g.paths.length)
    paths.append(h('li', { class: 'note', text: `… and ${(g.count - g.paths.length).toLocaleString('en-US')} more` }));
  const twisty = button(
    '▸',
    () => {
      paths.hidden = !paths.hidden;
      twisty.textContent = paths.hidden ? '▸' : '▾';
    },
    { class: 'fold foldable icon-button', title: 'List the paths' },
  );
  const label = button(groupLabel(g), () => revealPath(g.paths[0]), {
    class: 'issue-group-label link',
    title: `Show ${g.paths[0]} in the body`,
  });
  label.dataset.pattern = g.pattern;
  return h(
    'li',
    { class: 'issue-group' },
    h('div', { class: 'issue-group-row' }, twisty, h('span', { class: 'issue-mark', text: '⚠' }), label),
    h('div', { class: 'issue-message', text: g.message }),
    paths,
  );
}

function issuesPanel(v: ViewData): HTMLElement {
  if (v.issueGroups.length === 0) {
    return panel(
      'issues',
      h('div', {
        class: 'empty-state',
        text: v.typed
          ? 'The body is as the documentation describes it.'
          : 'Only a successful answer with a documented type is checked.',
      }),
    );
  }
  const n = v.issues.length;
  return panel(
    'issues',
    h('p', {
      class: 'note',
      text: `${n.toLocaleString('en-US')} ${n === 1 ? 'difference' : 'differences'} from the documentation, in ${v.issueGroups.length} ${v.issueGroups.length === 1 ? 'group' : 'groups'}. Click one to see it in the body.`,
    }),
    h('ul', { class: 'issue-groups' }, ...v.issueGroups.map(issueGroup)),
  );
}

/* ---------------- Assertions ---------------- */

function assertionsPanel(v: ViewData): HTMLElement | undefined {
  if (v.assertions.length === 0) return undefined;
  const rows = v.assertions.map((a) =>
    h(
      'li',
      { class: `assertion ${a.passed ? 'pass' : 'fail'}` },
      h('span', {
        class: 'assertion-mark',
        text: a.passed ? '✓' : '✗',
        attrs: { 'aria-label': a.passed ? 'passed' : 'failed' },
      }),
      h('span', { class: 'assertion-line', text: `line ${a.line}` }),
      h('code', { class: 'assertion-text', text: a.text }),
      a.passed
        ? undefined
        : h(
            'div',
            { class: 'assertion-detail' },
            a.expected !== undefined
              ? h(
                  'div',
                  {},
                  h('span', { class: 'label', text: 'expected: ' }),
                  h('code', { class: 'expected', text: a.expected }),
                )
              : undefined,
            h(
              'div',
              {},
              h('span', { class: 'label', text: 'actual: ' }),
              h('code', { class: 'actual', text: a.actual ?? '(nothing)' }),
            ),
            h('div', { class: 'assertion-message', text: a.message }),
          ),
    ),
  );
  return panel('assertions', h('ul', { class: 'assertions' }, ...rows));
}

/* ---------------- the whole view ---------------- */

function render(v: ViewData): void {
  app.textContent = '';
  list = undefined;
  model = undefined;
  findBar = undefined;
  pageText = undefined;
  const treeRoot = h('div', { class: 'tree' });
  tree.reset(treeRoot);
  const content = h(
    'div',
    { class: `content${sendingText !== undefined ? ' busy' : ''}` },
    tabs(v),
    h(
      'div',
      { class: 'panels' },
      bodyPanel(v),
      panel('tree', treeRoot),
      panel('headers', table(v.headers, 'No headers.')),
      requestPanel(v),
      timingPanel(v),
      issuesPanel(v),
      assertionsPanel(v),
      comparePanel(),
    ),
  );
  app.append(header(v), banners(v), content);
  // Set by bodyPanel() above.
  (list as BodyList | undefined)?.measure();
  if (tab === 'tree') tree.load();
}

function redrawBanners(): void {
  if (!view) return;
  app.querySelector('.banners')?.replaceWith(banners(view));
  app.querySelector('.content')?.classList.toggle('busy', sendingText !== undefined);
}

function onBody(id: number, bytes: Uint8Array): void {
  if (!view || id !== view.id) return;
  const arrived = performance.now();
  bodyText = new TextDecoder().decode(bytes);
  app.querySelector('.loading')?.remove();
  setBodyModel();
  // The first screen is drawn once the browser has painted it.
  requestAnimationFrame(() =>
    setTimeout(() => {
      const ms = performance.now() - arrived;
      document.body.dataset.firstScreenMs = ms.toFixed(1);
      post({ type: 'rendered', id, ms });
    }, 0),
  );
}

window.addEventListener('message', (event: MessageEvent<HostMessage>) => {
  const m = event.data;
  switch (m.type) {
    case 'state':
      view = m.view;
      sendingText = undefined;
      bodyText = undefined;
      types.clear();
      asked.clear();
      pendingAsk = [];
      htmlMode = 'text';
      document.title = m.view.title;
      document.body.dataset.responseId = String(m.view.id);
      delete document.body.dataset.firstScreenMs;
      if (!m.view.request && tab === 'request') tab = 'body';
      if (m.view.assertions.length === 0 && tab === 'assertions') tab = 'body';
      // A comparison is of the response it was asked on.
      compare = undefined;
      if (tab === 'compare') tab = 'body';
      render(m.view);
      break;
    case 'body':
      onBody(m.id, m.bytes instanceof Uint8Array ? m.bytes : new Uint8Array(m.bytes as ArrayBufferLike));
      break;
    case 'sending':
      sendingText = m.text;
      if (view) redrawBanners();
      else
        app.replaceChildren(
          h(
            'div',
            { class: 'banners' },
            h(
              'div',
              { class: 'banner banner-progress' },
              h('span', { class: 'spinner' }),
              h('span', { class: 'banner-text', text: m.text }),
              action({ id: 'cancel', label: 'Cancel' }),
            ),
          ),
        );
      break;
    case 'types':
      if (!view || m.id !== view.id) return;
      for (const [pattern, info] of m.entries) types.set(pattern, info);
      list?.draw();
      break;
    case 'tree':
      if (view && m.id === view.id) tree.show(m.parent, m.nodes);
      break;
    case 'reveal':
      revealPath(m.path);
      break;
    case 'compare':
      if (view && m.id === view.id) showCompare(m.compare);
      break;
  }
});

window.addEventListener('keydown', (e) => {
  if ((e.ctrlKey || e.metaKey) && !e.altKey && e.key.toLowerCase() === 'f') {
    e.preventDefault();
    openFind();
  } else if (e.key === 'F3' && findBar && !findBar.root.hidden) {
    e.preventDefault();
    step(e.shiftKey ? -1 : 1);
  }
});

document.addEventListener('copy', (e) => {
  // Ctrl+C with no text selected copies the selected row's value.
  if (tab !== 'body' || !list || (window.getSelection()?.toString() ?? '') !== '') return;
  const text = list.selectedText();
  if (text === undefined || !e.clipboardData) return;
  e.clipboardData.setData('text/plain', text);
  e.preventDefault();
});

/** The list's drawing figures, for the end-to-end tests. */
setInterval(() => {
  if (list) document.body.dataset.maxDrawMs = list.stats.maxDrawMs.toFixed(1);
}, 250);

post({ type: 'ready' });
