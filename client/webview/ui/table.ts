/** A table of names and values (the Headers tab, the Request tab's headers). */
import { h } from './dom';

export function table(rows: [string, string][], empty: string): HTMLElement {
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
