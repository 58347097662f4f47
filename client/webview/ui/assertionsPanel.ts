/** The Assertions tab: the request's `??` lines as evaluated on this response, a failure with what was expected and found. */
import type { AssertionView, ViewData } from '../model/protocol';
import { h } from './dom';
import { panel } from './tabs';

function detail(a: AssertionView): HTMLElement {
  return h(
    'div',
    { class: 'assertion-detail' },
    a.expected !== undefined
      ? h(
          'div',
          {},
          h('span', { class: 'label', text: 'expected: ' }),
          h('code', { class: 'expected', text: a.expected }),
        )
      : undefined,
    h(
      'div',
      {},
      h('span', { class: 'label', text: 'actual: ' }),
      h('code', { class: 'actual', text: a.actual ?? '(nothing)' }),
    ),
    h('div', { class: 'assertion-message', text: a.message }),
  );
}

export function assertionsPanel(v: ViewData): HTMLElement | undefined {
  if (v.assertions.length === 0) return undefined;
  const rows = v.assertions.map((a) =>
    h(
      'li',
      { class: `assertion ${a.passed ? 'pass' : 'fail'}` },
      h('span', {
        class: 'assertion-mark',
        text: a.passed ? '✓' : '✗',
        attrs: { 'aria-label': a.passed ? 'passed' : 'failed' },
      }),
      h('span', { class: 'assertion-line', text: `line ${a.line}` }),
      h('code', { class: 'assertion-text', text: a.text }),
      a.passed ? undefined : detail(a),
    ),
  );
  return panel('assertions', h('ul', { class: 'assertions' }, ...rows));
}
