/**
 * The Body tab's list: the rows of a BodyModel, drawn only where the viewport is (a pool of
 * row elements moved and refilled as it scrolls), so that a 20 MB body costs what one
 * screen costs. The model (../model/bodyModel.ts) knows the rows; this file only draws them,
 * folds on a click, and moves the selection.
 */
import type { BodyModel, RowPresentation } from '../model/bodyModel';
import { JsonBodyModel } from '../model/bodyModel';
import type { TypeInfo } from '../model/protocol';
import { contentHeight, rowVisible, rowWindow, scrollTopFor, type ListMetrics } from '../model/viewport';
import { button, h, setMarked } from './dom';

/** Below the height browsers stop drawing an element at (about 33 million pixels in Chromium). */
const MAX_CONTENT_HEIGHT = 10_000_000;

export interface ListHooks {
  /** The documented type of a path pattern: undefined while it is not known yet. */
  typeOf(pattern: string): TypeInfo | null | undefined;
  /** Asks the host for the types of these patterns; the list is drawn again when they arrive. */
  askTypes(patterns: string[]): void;
  copy(what: 'value' | 'path', path: string): void;
  docs(path: string): void;
}

interface RowElement {
  root: HTMLDivElement;
  fold: HTMLSpanElement;
  main: HTMLSpanElement;
  key: HTMLSpanElement;
  colon: HTMLSpanElement;
  value: HTMLSpanElement;
  comma: HTMLSpanElement;
  summary: HTMLSpanElement;
  type: HTMLSpanElement;
  mark: HTMLSpanElement;
  path: string | undefined;
}

export class BodyList {
  readonly element: HTMLDivElement;
  private readonly content: HTMLDivElement;
  private readonly pool: RowElement[] = [];
  private rowHeight = 19;
  /** The width of one character of the editor font, in pixels. */
  private charWidth = 7.8;
  private selected = -1;
  private query = '';
  private frame = 0;
  /** Rows drawn, and the longest a drawing took (ms): the tests read them. */
  readonly stats = { draws: 0, maxDrawMs: 0 };

  constructor(
    private model: BodyModel,
    private readonly hooks: ListHooks,
    private readonly typed: boolean,
  ) {
    this.content = h('div', { class: 'list-content' });
    this.element = h(
      'div',
      { class: 'list', attrs: { tabindex: '0', role: 'tree', 'aria-label': 'Response body' } },
      this.content,
    );
    this.element.addEventListener('scroll', () => this.schedule());
    this.element.addEventListener('click', (e) => this.onClick(e));
    this.element.addEventListener('dblclick', (e) => {
      const index = this.indexOf(e.target);
      if (index !== undefined && this.model.toggle(index)) this.draw();
    });
    this.element.addEventListener('keydown', (e) => this.onKey(e));
    // A value cut at the row's end says that a click shows all of it (measured on hover only: drawing stays cheap).
    this.element.addEventListener('mouseover', (e) => {
      const el = this.pool.find((p) => p.root.contains(e.target as Node));
      if (el && !el.root.classList.contains('wrap-open') && el.main.scrollWidth > el.main.clientWidth)
        el.main.title = 'Click to show all of it';
      else if (el) el.main.title = '';
    });
    new ResizeObserver(() => this.schedule()).observe(this.element);
  }

  setModel(model: BodyModel): void {
    this.model = model;
    this.selected = -1;
    this.element.scrollTop = 0;
    this.draw();
  }

  /** Measures the row height from the editor font, once the list is in the page. */
  measure(): void {
    const probe = h('div', { class: 'row', text: 'Mg' });
    probe.style.position = 'static';
    this.content.append(probe);
    const height = probe.getBoundingClientRect().height;
    probe.textContent = 'M'.repeat(40);
    probe.style.display = 'inline-block';
    const width = probe.getBoundingClientRect().width / 40;
    probe.remove();
    if (width > 2) this.charWidth = width;
    if (height > 4) {
      this.rowHeight = Math.round(height);
      this.element.style.setProperty('--row-height', `${this.rowHeight}px`);
    }
  }

  private metrics(): ListMetrics {
    return {
      rowCount: this.model.rowCount,
      rowHeight: this.rowHeight,
      viewportHeight: this.element.clientHeight,
      maxHeight: MAX_CONTENT_HEIGHT,
    };
  }

  private schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.draw();
    });
  }

  setQuery(query: string): void {
    this.query = query;
    this.draw();
  }

  /** Draws the rows in view. */
  draw(): void {
    const started = performance.now();
    const m = this.metrics();
    const w = rowWindow(this.element.scrollTop, m);
    this.content.style.height = `${w.contentHeight}px`;
    const count = w.end - w.first;
    while (this.pool.length < count) this.pool.push(this.makeRow());
    const missing: string[] = [];
    for (let k = 0; k < this.pool.length; k++) {
      const el = this.pool[k];
      if (k >= count) {
        el.root.hidden = true;
        continue;
      }
      const index = w.first + k;
      el.root.hidden = false;
      el.root.style.transform = `translateY(${w.top + k * this.rowHeight}px)`;
      this.fill(el, index, this.model.row(index), missing);
    }
    if (missing.length > 0) this.hooks.askTypes([...new Set(missing)]);
    const ms = performance.now() - started;
    this.stats.draws++;
    if (ms > this.stats.maxDrawMs) this.stats.maxDrawMs = ms;
  }

  private makeRow(): RowElement {
    const el: RowElement = {
      root: h('div', { class: 'row', attrs: { role: 'treeitem' } }),
      fold: h('span', { class: 'fold' }),
      main: h('span', { class: 'row-main' }),
      key: h('span', { class: 'key' }),
      colon: h('span', { class: 'punct', text: ': ' }),
      value: h('span', { class: 'value' }),
      comma: h('span', { class: 'punct', text: ',' }),
      summary: h('span', { class: 'summary' }),
      type: h('span', { class: 'type' }),
      mark: h('span', { class: 'issue-mark', text: '⚠' }),
      path: undefined,
    };
    const actions = h(
      'span',
      { class: 'row-actions' },
      button('Copy', () => el.path && this.hooks.copy('value', el.path), {
        title: 'Copy the value',
        class: 'row-button',
      }),
      button('Path', () => el.path && this.hooks.copy('path', el.path), {
        title: 'Copy the JSON path',
        class: 'row-button',
      }),
    );
    el.main.append(el.key, el.colon, el.value, el.comma);
    el.root.append(el.fold, el.main, el.summary, el.mark, el.type, actions);
    el.type.addEventListener('click', (e) => {
      e.stopPropagation();
      if (el.path) this.hooks.docs(el.path);
    });
    this.content.append(el.root);
    return el;
  }

  private fill(el: RowElement, index: number, row: RowPresentation, missing: string[]): void {
    el.root.dataset.index = String(index);
    el.path = row.path;
    if (row.path !== undefined) el.root.dataset.path = row.path;
    else delete el.root.dataset.path;
    el.root.classList.toggle('selected', index === this.selected);
    el.root.classList.toggle('has-issue', row.issues !== undefined);
    el.root.classList.toggle('range-row', row.kind === 'range');
    el.root.classList.toggle('no-path', row.path === undefined);
    el.root.classList.toggle('wrap-open', row.wrap === 'open');
    el.root.classList.toggle('wrap-more', row.wrap === 'more');
    el.root.style.paddingLeft = `calc(${row.indent * 2}ch + 4px)`;
    el.root.setAttribute('aria-level', String(row.indent + 1));
    if (row.fold) el.root.setAttribute('aria-expanded', String(row.fold === 'open'));
    else el.root.removeAttribute('aria-expanded');
    el.fold.textContent = row.fold === 'open' ? '▾' : row.fold === 'closed' ? '▸' : '';
    el.fold.classList.toggle('foldable', row.fold !== undefined);
    if (row.key !== undefined) {
      setMarked(el.key, row.key, this.query);
      el.key.hidden = false;
      el.colon.hidden = false;
    } else {
      el.key.hidden = true;
      el.colon.hidden = true;
    }
    setMarked(el.value, row.text, this.query);
    el.value.className = `value t-${row.kind}`;
    el.main.title = row.cut ? 'Click to show all of it' : row.wrap ? 'Click to fold it again' : '';
    el.comma.hidden = !row.comma;
    const summary = [
      row.summary,
      row.issuesInside
        ? `${row.issuesInside.toLocaleString('en-US')} ${row.issuesInside === 1 ? 'issue' : 'issues'} inside`
        : undefined,
    ]
      .filter(Boolean)
      .join(' · ');
    el.summary.textContent = summary;
    el.summary.classList.toggle('warn', row.issuesInside !== undefined);
    el.mark.hidden = row.issues === undefined;
    el.mark.title = row.issues ? row.issues.map((i) => i.message).join('\n') : '';
    this.fillType(el, row, missing);
  }

  private fillType(el: RowElement, row: RowPresentation, missing: string[]): void {
    el.type.textContent = '';
    el.type.title = '';
    el.type.className = 'type';
    if (!this.typed || row.pattern === undefined) return;
    const info = this.hooks.typeOf(row.pattern);
    if (info === undefined) {
      missing.push(row.pattern);
      return;
    }
    const undocumented = row.issues?.some((i) => i.code === 'undocumented-field');
    if (info === null) {
      if (undocumented) {
        el.type.textContent = 'undocumented';
        el.type.classList.add('warn');
        el.type.title = 'The documentation does not describe this field.';
      }
      return;
    }
    el.type.textContent = info.type + (info.nullable ? ' | null' : '');
    el.type.classList.toggle('deprecated', info.deprecated === true);
    el.type.classList.add('documented');
    const lines = [`${info.type}${info.nullable ? ' (nullable)' : ''}${info.deprecated ? ' (deprecated)' : ''}`];
    if (info.description) lines.push(info.description);
    if (info.enumValues && info.enumValues.length > 0) lines.push(`One of: ${info.enumValues.join(', ')}`);
    lines.push('Click for the documentation.');
    el.type.title = lines.join('\n\n');
  }

  private indexOf(target: EventTarget | null): number | undefined {
    const row = target instanceof Element ? target.closest('.row') : null;
    const index = row instanceof HTMLElement ? Number(row.dataset.index) : NaN;
    return Number.isInteger(index) ? index : undefined;
  }

  private onClick(e: MouseEvent): void {
    const index = this.indexOf(e.target);
    if (index === undefined) return;
    const onFold = e.target instanceof Element && e.target.classList.contains('fold');
    const range = this.model.row(index).kind === 'range';
    if ((onFold || range) && this.model.toggle(index)) {
      this.selected = index;
      this.draw();
      return;
    }
    // A click on a value cut at the row's end shows all of it, wrapped; on an opened one, folds it again.
    const main = e.target instanceof Element ? e.target.closest('.row-main') : null;
    if (main instanceof HTMLElement && this.longValue(main, index) && this.expand(index)) {
      this.selected = index;
      this.draw();
      return;
    }
    this.select(index);
  }

  private longValue(main: HTMLElement, index: number): boolean {
    const row = this.model.row(index);
    return row.cut === true || row.wrap !== undefined || main.scrollWidth > main.clientWidth;
  }

  /** Opens or closes the long value of a row: its continuation rows as wide as the list allows. */
  private expand(index: number): boolean {
    // The list's width less what stands beside a value: the fold, Copy and Path, the padding, and on the value's own row a documented type.
    const columns = Math.max(20, Math.floor((this.element.clientWidth - 16) / this.charWidth) - 12);
    return this.model.expand(index, columns, this.typed ? Math.max(20, columns - 20) : columns);
  }

  /** Scrolls to a row; the content is given its new height first (the row may have just been unfolded), or the scroll would stop at the old end. */
  private scrollTo(index: number): void {
    const m = this.metrics();
    this.content.style.height = `${contentHeight(m)}px`;
    this.element.scrollTop = scrollTopFor(index, m);
  }

  private select(index: number): void {
    this.selected = Math.max(0, Math.min(this.model.rowCount - 1, index));
    if (!rowVisible(this.selected, this.element.scrollTop, this.metrics())) this.scrollTo(this.selected);
    this.draw();
  }

  private onKey(e: KeyboardEvent): void {
    const page = Math.max(1, Math.floor(this.element.clientHeight / this.rowHeight) - 1);
    const at = this.selected < 0 ? 0 : this.selected;
    switch (e.key) {
      case 'ArrowDown':
        this.select(this.selected < 0 ? 0 : at + 1);
        break;
      case 'ArrowUp':
        this.select(at - 1);
        break;
      case 'PageDown':
        this.select(at + page);
        break;
      case 'PageUp':
        this.select(at - page);
        break;
      case 'Home':
        this.select(0);
        break;
      case 'End':
        this.select(this.model.rowCount - 1);
        break;
      case 'ArrowRight':
      case 'ArrowLeft':
      case 'Enter':
      case ' ': {
        if (this.selected < 0) return;
        const fold = this.model.row(this.selected).fold;
        if (fold === undefined && e.key === 'Enter' && this.expand(this.selected)) {
          this.draw();
          break;
        }
        const wants =
          e.key === 'ArrowRight' ? fold === 'closed' : e.key === 'ArrowLeft' ? fold === 'open' : fold !== undefined;
        if (wants && this.model.toggle(this.selected)) this.draw();
        break;
      }
      default:
        return;
    }
    e.preventDefault();
  }

  /** Shows a row near the top of the view and selects it. */
  reveal(index: number): void {
    this.selected = index;
    this.scrollTo(index);
    this.draw();
    const el = this.pool.find((p) => p.root.dataset.index === String(index));
    if (el) {
      el.root.classList.remove('flash');
      void el.root.offsetWidth;
      el.root.classList.add('flash');
    }
  }

  /** The text of the selected row's value (Ctrl+C with no text selected). */
  selectedText(): string | undefined {
    if (this.selected < 0) return undefined;
    if (this.model instanceof JsonBodyModel) return this.model.valueAt(this.selected)?.raw;
    return this.model.row(this.selected).text;
  }
}
