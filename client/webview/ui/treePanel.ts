/** The Tree tab: the side bar's typed tree, its nodes asked of the host as they are opened. */
import type { TreeNodeView } from '../model/protocol';
import { h } from './dom';
import { page, post } from './page';
import { panel, whenShown } from './tabs';

export const tree = {
  loaded: false,
  root: undefined as HTMLElement | undefined,
  holders: new Map<string, HTMLElement>(),
  load(): void {
    if (this.loaded || !page.view || !this.root) return;
    this.loaded = true;
    post({ type: 'tree', id: page.view.id, parent: null });
  },
  reset(root: HTMLElement): void {
    this.loaded = false;
    this.root = root;
    this.holders = new Map();
  },
  show(parent: string | null, nodes: TreeNodeView[]): void {
    const holder = parent === null ? this.root : this.holders.get(parent);
    if (!holder || !page.view) return;
    holder.textContent = '';
    for (const node of nodes) holder.append(this.node(node));
    if (nodes.length === 0 && parent === null)
      holder.append(h('div', { class: 'empty-state', text: 'Nothing to show.' }));
  },
  node(node: TreeNodeView): HTMLElement {
    const children = h('div', { class: 'tree-children' });
    children.hidden = !node.expanded;
    const twisty = h('span', { class: 'fold foldable', text: node.expandable ? (node.expanded ? '▾' : '▸') : '' });
    const row = h(
      'div',
      { class: 'tree-row', title: node.tooltip },
      twisty,
      node.icon ? h('span', { class: `tree-icon icon-${node.icon}` }) : undefined,
      h('span', { class: 'tree-label', text: node.label }),
      node.description ? h('span', { class: 'tree-description', text: node.description }) : undefined,
    );
    let requested = false;
    const ask = () => {
      requested = true;
      if (page.view) post({ type: 'tree', id: page.view.id, parent: node.id });
    };
    row.addEventListener('click', () => {
      if (!node.expandable || !page.view) return;
      children.hidden = !children.hidden;
      twisty.textContent = children.hidden ? '▸' : '▾';
      if (!children.hidden && !requested) ask();
    });
    this.holders.set(node.id, children);
    if (node.expandable && node.expanded) ask();
    return h('div', { class: 'tree-node' }, row, children);
  },
};

whenShown('tree', () => tree.load());

export function treePanel(): HTMLElement {
  const root = h('div', { class: 'tree' });
  tree.reset(root);
  return panel('tree', root);
}
