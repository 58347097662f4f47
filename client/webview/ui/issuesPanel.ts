/** The Issues tab: the differences from the documentation grouped by path pattern and kind; a click shows one in the body. */
import { groupLabel } from '../model/format';
import type { IssueGroupView, ViewData } from '../model/protocol';
import { revealPath } from './body';
import { button, h } from './dom';
import { panel } from './tabs';

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

export function issuesPanel(v: ViewData): HTMLElement {
  if (v.issueGroups.length === 0) {
    return panel(
      'issues',
      h('div', {
        class: 'empty-state',
        text: v.checking
          ? 'Checking the body against the documentation…'
          : v.typed
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
