/** The banners above the tabs: a request in flight (with Cancel), and the view's own (errors, warnings, notes). */
import type { ViewData } from '../model/protocol';
import { h } from './dom';
import { action } from './page';

/** The line that says a request is in flight, with Cancel. */
export function progressBanner(text: string): HTMLElement {
  return h(
    'div',
    { class: 'banner banner-progress', attrs: { role: 'status' } },
    h('span', { class: 'spinner' }),
    h('span', { class: 'banner-text', text }),
    action({ id: 'cancel', label: 'Cancel' }),
  );
}

export function banners(v: ViewData | undefined, sendingText: string | undefined): HTMLElement {
  const out = h('div', { class: 'banners' });
  if (sendingText !== undefined) out.append(progressBanner(sendingText));
  for (const b of v?.banners ?? []) {
    out.append(
      h(
        'div',
        { class: `banner banner-${b.kind}`, attrs: { role: b.kind === 'error' ? 'alert' : 'status' } },
        h('span', { class: 'banner-text', text: b.text }),
        ...(b.actions ?? []).map((a) => action(a, 'button')),
      ),
    );
  }
  return out;
}
