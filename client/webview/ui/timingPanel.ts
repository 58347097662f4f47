/** The Timing tab: each part of the exchange as a bar on one time line. */
import { formatDuration } from '../model/format';
import type { ViewData } from '../model/protocol';
import { h } from './dom';
import { panel } from './tabs';

export function timingPanel(v: ViewData): HTMLElement {
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
