/** The header line of the response view: the status, the facts beside it, and the actions under them. */
import type { ViewData } from '../model/protocol';
import { h } from './dom';
import { action } from './page';

export function header(v: ViewData): HTMLElement {
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
  // One page of several: said beside the facts, with Fetch All Pages.
  const paging = v.paging
    ? h(
        'span',
        { class: 'paging' },
        h('span', { class: 'paging-text', text: v.paging.text }),
        v.paging.action ? action(v.paging.action, 'action-link paging-action') : undefined,
      )
    : undefined;
  return h('header', { class: 'header' }, h('div', { class: 'status-line' }, status, facts, paging), toolbar);
}
