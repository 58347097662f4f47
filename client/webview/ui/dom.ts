/** Small DOM helpers of the response view: elements made with text, never with HTML strings. */

type Child = Node | string | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { class?: string; title?: string; text?: string; attrs?: Record<string, string> } = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (props.class) el.className = props.class;
  if (props.title) el.title = props.title;
  if (props.text !== undefined) el.textContent = props.text;
  if (props.attrs) for (const [k, v] of Object.entries(props.attrs)) el.setAttribute(k, v);
  for (const c of children) if (c !== undefined && c !== false) el.append(c);
  return el;
}

/** Replaces an element's children with text, the parts that match `query` (any case) in <mark>. */
export function setMarked(el: HTMLElement, text: string, query: string): void {
  if (!query || text.length === 0) {
    el.textContent = text;
    return;
  }
  const lower = text.toLowerCase();
  const needle = query.toLowerCase();
  let at = lower.indexOf(needle);
  if (at === -1 || lower.length !== text.length) {
    el.textContent = text;
    return;
  }
  el.textContent = '';
  let from = 0;
  while (at !== -1) {
    if (at > from) el.append(text.slice(from, at));
    el.append(h('mark', { text: text.slice(at, at + needle.length) }));
    from = at + needle.length;
    at = lower.indexOf(needle, from);
  }
  if (from < text.length) el.append(text.slice(from));
}

export function button(
  label: string,
  onClick: () => void,
  options: { title?: string; class?: string } = {},
): HTMLButtonElement {
  const b = h('button', {
    class: options.class ?? 'button',
    title: options.title,
    text: label,
    attrs: { type: 'button' },
  });
  b.addEventListener('click', (e) => {
    e.stopPropagation();
    onClick();
  });
  return b;
}
