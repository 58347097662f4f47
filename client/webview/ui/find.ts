/**
 * Find in the body (Ctrl+F): the bar above the list, the matches in the whole body (folded
 * parts included), and stepping through them. What it searches is the Body tab's, given as
 * a getter: the model and the list change with each response and each Show Markup.
 */
import type { BodyModel } from '../model/bodyModel';
import type { BodyList } from './bodyList';
import { button, h } from './dom';

export interface FindTarget {
  model: BodyModel | undefined;
  list: BodyList | undefined;
  /** A page's wrapped text, which gives way to its lines while the find bar is open. */
  pageText: HTMLElement | undefined;
  /** Brings the Body tab in front. */
  show(): void;
}

export class FindBar {
  readonly root: HTMLElement;
  private readonly input: HTMLInputElement;
  private readonly count: HTMLElement;
  private matches: number[] = [];
  private matchIndex = -1;

  constructor(private readonly target: FindTarget) {
    this.root = h('div', { class: 'find', attrs: { role: 'search' } });
    this.input = h('input', {
      class: 'find-input',
      attrs: { type: 'text', placeholder: 'Find in the body', 'aria-label': 'Find in the body' },
    });
    this.count = h('span', { class: 'find-count' });
    this.root.append(
      this.input,
      this.count,
      button('↑', () => this.step(-1), { title: 'Previous match (Shift+Enter)', class: 'icon-button' }),
      button('↓', () => this.step(1), { title: 'Next match (Enter)', class: 'icon-button' }),
      button('×', () => this.close(), { title: 'Close (Escape)', class: 'icon-button' }),
    );
    this.root.hidden = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    this.input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.run(), 150);
    });
    this.input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        this.step(e.shiftKey ? -1 : 1);
      } else if (e.key === 'Escape') {
        e.preventDefault();
        this.close();
      }
    });
  }

  get open(): boolean {
    return !this.root.hidden;
  }

  show(): void {
    const { list, pageText } = this.target;
    this.target.show();
    this.root.hidden = false;
    // A page's wrapped text gives way to its lines, where matches are found.
    if (pageText && !pageText.hidden && list) {
      pageText.hidden = true;
      list.element.hidden = false;
      list.draw();
    }
    const selected = window.getSelection()?.toString();
    if (selected && selected.length < 200 && !selected.includes('\n')) this.input.value = selected;
    this.input.focus({ preventScroll: true });
    this.input.select();
    this.run();
  }

  close(): void {
    this.root.hidden = true;
    this.matches = [];
    this.target.list?.setQuery('');
    this.target.list?.element.focus({ preventScroll: true });
  }

  run(): void {
    const { model, list } = this.target;
    if (!model || !list) return;
    const query = this.input.value;
    const found = model.find(query);
    this.matches = found.offsets;
    this.matchIndex = -1;
    list.setQuery(query);
    if (query.length === 0) this.count.textContent = '';
    else if (this.matches.length === 0) this.count.textContent = 'No results';
    else this.step(1, found.more);
  }

  step(direction: number, more = false): void {
    const { model, list } = this.target;
    if (!model || !list || this.matches.length === 0) return;
    this.matchIndex = (this.matchIndex + direction + this.matches.length) % this.matches.length;
    this.count.textContent = `${(this.matchIndex + 1).toLocaleString('en-US')} of ${this.matches.length.toLocaleString('en-US')}${more ? '+' : ''}`;
    const row = model.rowOfOffset(this.matches[this.matchIndex]);
    if (row !== undefined) list.reveal(row);
  }
}
