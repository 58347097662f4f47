/**
 * A Send All run in the response view: the run's summary and each request as a line of a
 * list beside the view (below it in a narrow view); a click (or Enter, or the arrow keys)
 * shows that exchange in the view, with its status, its typed issues and its body.
 */
import type { RunView } from '../model/protocol';
import { h } from './dom';
import { post } from './page';

function entry(label: string, status: string, tone: string, index: number | null, run: RunView): HTMLElement {
  const selected = run.selected === index;
  const row = h(
    'li',
    {
      class: `run-entry${selected ? ' selected' : ''}`,
      attrs: { role: 'option', 'aria-selected': String(selected), tabindex: selected ? '0' : '-1' },
    },
    h('span', { class: `run-status tone-${tone}`, text: status }),
    h('span', { class: 'run-label', text: label }),
  );
  row.dataset.index = index === null ? 'summary' : String(index);
  row.addEventListener('click', () => post({ type: 'select', index }));
  return row;
}

export function runList(run: RunView): HTMLElement {
  const list = h('ul', { class: 'run-entries', attrs: { role: 'listbox', 'aria-label': run.title } });
  list.append(entry(run.summary, 'Summary', run.tone, null, run));
  run.entries.forEach((e, i) => {
    const row = entry(e.label, `${e.mark} ${e.status}`, e.tone, i, run);
    row.title = [e.request, e.duration, e.message].filter(Boolean).join('\n');
    row.append(h('span', { class: 'run-duration', text: e.duration }));
    list.append(row);
  });
  list.addEventListener('keydown', (ev) => {
    const at = run.selected === null ? -1 : run.selected;
    const next = ev.key === 'ArrowDown' ? at + 1 : ev.key === 'ArrowUp' ? at - 1 : undefined;
    if (next === undefined || next < -1 || next >= run.entries.length) return;
    ev.preventDefault();
    post({ type: 'select', index: next === -1 ? null : next });
  });
  return h(
    'nav',
    { class: 'run', attrs: { 'aria-label': run.title } },
    h('div', { class: 'run-title', text: run.title }),
    list,
  );
}

/** The selected line in sight, and focused when the list had the focus before it was drawn anew (the keys go on moving through it). */
export function showSelected(root: HTMLElement, hadFocus: boolean): void {
  const selected = root.querySelector<HTMLElement>('.run-entry.selected');
  if (!selected) return;
  if (hadFocus) selected.focus({ preventScroll: true });
  selected.scrollIntoView({ block: 'nearest' });
}
