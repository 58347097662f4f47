/**
 * The Body tab: the API's messages first, a page's title and text (its markup a click away),
 * the find bar and the list of the body's rows. The body arrives after the view, as bytes,
 * and is read lazily by the models of ../model/.
 */
import { JsonBodyModel, TextBodyModel, type BodyModel } from '../model/bodyModel';
import { readHtml } from '../model/html';
import type { ViewData } from '../model/protocol';
import { BodyList } from './bodyList';
import { button, h } from './dom';
import { FindBar } from './find';
import { app, page, post } from './page';
import { panel, selectTab, whenShown } from './tabs';
import { askTypes, typeOf } from './types';

/** Characters of a page's text drawn whole and wrapped; a longer one is shown by the list. */
const PAGE_TEXT_MAX_CHARS = 256 * 1024;

/** The Body tab of the view shown now. */
export const body: {
  list: BodyList | undefined;
  model: BodyModel | undefined;
  /** A page's text, wrapped, when it is short enough to draw whole (the list would cut its long lines). */
  pageText: HTMLElement | undefined;
  findBar: FindBar | undefined;
  text: string | undefined;
  htmlMode: 'text' | 'markup';
} = { list: undefined, model: undefined, pageText: undefined, findBar: undefined, text: undefined, htmlMode: 'text' };

whenShown('body', () => body.list?.draw());

/** A new view: nothing of the last one's body is kept. */
export function resetBody(): void {
  body.list = undefined;
  body.model = undefined;
  body.findBar = undefined;
  body.pageText = undefined;
}

function apiErrors(v: ViewData): HTMLElement {
  return h(
    'div',
    { class: 'api-errors', attrs: { role: 'alert' } },
    h('div', {
      class: 'api-errors-title',
      text: v.apiErrors.length === 1 ? 'The API says' : `The API says (${v.apiErrors.length} messages)`,
    }),
    h('ul', {}, ...v.apiErrors.map((m) => h('li', { text: m }))),
  );
}

function htmlBar(): HTMLElement {
  const title = h('div', { class: 'html-title' });
  const toggle = button(body.htmlMode === 'text' ? 'Show Markup' : 'Show Text', () => {
    body.htmlMode = body.htmlMode === 'text' ? 'markup' : 'text';
    toggle.textContent = body.htmlMode === 'text' ? 'Show Markup' : 'Show Text';
    setBodyModel();
  });
  toggle.dataset.action = 'toggleMarkup';
  return h('div', { class: 'html-bar' }, h('span', { class: 'html-kind', text: 'HTML page' }), title, toggle);
}

export function bodyPanel(v: ViewData): HTMLElement {
  const p = panel('body');
  if (v.apiErrors.length > 0) p.append(apiErrors(v));
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
    p.append(htmlBar());
    body.pageText = h('div', { class: 'page-text' });
    body.pageText.hidden = true;
    p.append(body.pageText);
  }
  body.findBar = new FindBar({
    get model() {
      return body.model;
    },
    get list() {
      return body.list;
    },
    get pageText() {
      return body.pageText;
    },
    show: () => selectTab('body'),
  });
  p.append(body.findBar.root);
  body.list = new BodyList(
    new TextBodyModel(''),
    {
      typeOf,
      askTypes,
      copy: (what, path) => post({ type: 'copy', what, path }),
      docs: (path) => post({ type: 'docs', path }),
    },
    v.typed,
  );
  p.append(body.list.element);
  if (body.text === undefined) p.append(h('div', { class: 'loading', text: 'Reading the body…' }));
  return p;
}

/** The body's model for the view shown, drawn in the list. */
export function setBodyModel(): void {
  const view = page.view;
  const { list, findBar, pageText } = body;
  if (!view || !list || body.text === undefined) return;
  if (view.bodyKind === 'json') body.model = new JsonBodyModel(body.text, view.issues);
  else if (view.bodyKind === 'html') {
    const html = readHtml(body.text);
    const title = app.querySelector('.html-title');
    if (title) title.textContent = html.title ?? '(no title)';
    body.model = new TextBodyModel(body.htmlMode === 'text' ? html.text : body.text);
    const wrapped = body.htmlMode === 'text' && html.text.length <= PAGE_TEXT_MAX_CHARS && (!findBar || !findBar.open);
    if (pageText) {
      pageText.replaceChildren(...html.text.split('\n').map((l) => h('p', { text: l })));
      pageText.hidden = !wrapped;
    }
    list.element.hidden = wrapped;
  } else body.model = new TextBodyModel(body.text);
  list.setModel(body.model);
  if (findBar?.open) findBar.run();
}

/** Shows the field at a path in the Body tab (from the Issues tab, or the host). */
export function revealPath(path: string): void {
  selectTab('body');
  const { model, list } = body;
  if (!model || !list) return;
  const row = model.rowOfPath(path);
  if (row !== undefined) {
    list.reveal(row);
    list.element.focus({ preventScroll: true });
  }
}
