/**
 * The Compare tab of the response view: a typed comparison of the response shown with its
 * previous response or its snapshot (Compare with Previous Response, Compare with Snapshot),
 * as the host computed it (client/src/compareCommands.ts). Not a text diff: each difference is
 * a row with its JSONPath, its kind, the value before and now, and the documented type; a
 * click on a place the response has shows it in the Body tab. The tab is there once a
 * comparison of the response shown has come (page.compare), until another response is shown.
 */
import type { CompareView } from '../model/protocol';
import { revealPath } from './body';
import { button, h } from './dom';
import { app, page, post } from './page';
import { panel, selectTab, tabs } from './tabs';

interface CompareActions {
  /** Shows a JSONPath of the response in the Body tab. */
  reveal(path: string): void;
  /** Writes the response as the request's snapshot. */
  update(): void;
  /** Compares again with the other (previous response, snapshot). */
  compare(against: CompareView['against']): void;
}

const actions: CompareActions = {
  reveal: revealPath,
  update: () => post({ type: 'action', action: 'updateSnapshot' }),
  compare: (against) =>
    post({ type: 'action', action: against === 'previous' ? 'comparePrevious' : 'compareSnapshot' }),
};

/** The Compare tab's panel, when a comparison of the response shown has come. */
export function comparePanel(): HTMLElement | undefined {
  return page.compare ? panel('compare', compareContent(page.compare)) : undefined;
}

/** A comparison of the response shown arrived: the Compare tab shows it, in front. */
export function showCompare(c: CompareView): void {
  if (!page.view) return;
  page.compare = c;
  app.querySelector('nav.tabs')?.replaceWith(tabs(page.view));
  const fresh = comparePanel() as HTMLElement;
  const old = app.querySelector('.panel-compare');
  if (old) old.replaceWith(fresh);
  else app.querySelector('.panels')?.append(fresh);
  selectTab('compare');
}

function compareContent(c: CompareView): HTMLElement {
  const head = h(
    'div',
    { class: 'compare-head' },
    h('div', { class: 'compare-title', text: `Compared with ${c.title}` }),
    h('div', {
      class: `compare-summary${c.problem ? ' problem' : c.differences > 0 ? ' differs' : ' same'}`,
      text: c.summary,
    }),
    c.options.length > 0 && h('div', { class: 'compare-options', text: `# @snapshot ${c.options.join(' · ')}` }),
  );
  const buttons = h('div', { class: 'compare-actions' });
  if (c.canUpdate)
    buttons.append(
      button('Update Snapshot', () => actions.update(), {
        title: "Write this response as the request's snapshot (lpreq test --update-snapshots does the same)",
      }),
    );
  buttons.append(
    c.against === 'snapshot'
      ? button('Compare with Previous', () => actions.compare('previous'))
      : button('Compare with Snapshot', () => actions.compare('snapshot')),
  );
  head.append(buttons);
  if (c.rows.length === 0) return h('div', { class: 'compare' }, head);

  const table = h(
    'table',
    { class: 'compare-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { text: 'Path' }),
        h('th', { text: 'Difference' }),
        h('th', { text: c.against === 'snapshot' ? 'Snapshot' : 'Previous' }),
        h('th', { text: 'Now' }),
        h('th', { text: 'Documented type' }),
      ),
    ),
  );
  const body = h('tbody');
  for (const r of c.rows) {
    const path = r.revealable
      ? button(r.path, () => actions.reveal(r.path), { class: 'link path', title: 'Show it in the body' })
      : h('span', { class: 'path', text: r.path });
    const row = h(
      'tr',
      { class: `compare-row kind-${r.kind}`, title: r.message },
      h('td', {}, path),
      h('td', { class: 'kind', text: r.label }),
      h('td', { class: 'before', text: r.before ?? '' }),
      h('td', { class: 'after', text: r.after ?? '' }),
      h('td', { class: 'type', text: r.type ?? '' }),
    );
    row.dataset.kind = r.kind;
    row.dataset.path = r.path;
    body.append(row);
  }
  table.append(body);
  return h(
    'div',
    { class: 'compare' },
    head,
    table,
    c.more > 0 && h('div', { class: 'compare-more', text: `and ${c.more.toLocaleString('en-US')} more` }),
  );
}
