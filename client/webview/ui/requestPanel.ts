/** The Request tab: what was sent (the method, the final URL, the headers with the token masked, the body) and the redirects followed. */
import type { ViewData } from '../model/protocol';
import { h } from './dom';
import { table } from './table';
import { panel } from './tabs';

/** Characters of a sent body shown; the rest is counted. */
const MAX_BODY = 256 * 1024;

export function requestPanel(v: ViewData): HTMLElement {
  const r = v.request;
  if (!r) return panel('request', h('div', { class: 'empty-state', text: 'The request is not known.' }));
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
