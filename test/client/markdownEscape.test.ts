/**
 * Issue 26, item 8: what a server sent is escaped wherever it becomes Markdown (Show
 * Documentation's preview, the side bar tree's tooltips). Rendered with markdown-it (the
 * engine of VS Code's Markdown preview, with its linkify and HTML on) and with the options of
 * a strict renderer: a key `![x](https://attacker.example/p.png)` loads nothing, links
 * nowhere, and reads as written.
 */
import assert from 'node:assert/strict';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import fc from 'fast-check';
import { bundledCatalog } from '../../server/src/catalogData';
import { checkResponse, describeAt } from '../../server/src/sender/typed';
import { ResponseTree, type ResponseNode, type ResponseSummary } from '../../client/src/model/responseTree';
import { documentationPage } from '../../client/src/model/format';
import { markdownCode } from '../../client/src/model/markdown';
import { fuzzRuns } from '../fuzzRuns';

interface MarkdownIt {
  render(text: string): string;
  renderInline(text: string): string;
}
const markdownIt = createRequire(import.meta.url)('markdown-it') as (options: object) => MarkdownIt;
const preview = markdownIt({ html: true, linkify: true, typographer: false });

const catalog = bundledCatalog();
const HOSTILE = [
  '![x](https://attacker.example/p.png)',
  '<img src="https://attacker.example/i.png">',
  '[click](https://attacker.example/)',
  'https://attacker.example/bare',
  '`` ![y](https://attacker.example/q.png) ``',
  '# heading\n\n![z](https://attacker.example/z.png)',
  '$(warning) &lt;img src=x&gt;',
  '<https://attacker.example/auto>',
];

function summary(body: unknown, resource: string | null, extra: Partial<ResponseSummary> = {}): ResponseSummary {
  const typed = checkResponse(catalog, resource, body);
  return {
    method: 'GET',
    url: 'http://127.0.0.1/api/v1/courses/1/modules',
    status: 200,
    statusText: 'OK',
    headers: { 'content-type': 'application/json' },
    body,
    bodyText: JSON.stringify(body),
    bodyKind: 'json',
    bytes: JSON.stringify(body).length,
    durationMs: 12,
    resource: typed.resource,
    issues: typed.issues,
    ...extra,
  };
}

/** Every node of the tree, to the depth given. */
function walk(tree: ResponseTree, nodes: ResponseNode[], depth = 4): ResponseNode[] {
  if (depth === 0) return nodes;
  return nodes.flatMap((n) => [n, ...walk(tree, n.collapsible === 'none' ? [] : tree.children(n), depth - 1)]);
}

function assertInert(markdown: string, what: string): void {
  const html = preview.render(markdown);
  assert.doesNotMatch(html, /<img|<a |<script|<h[2-6]/i, `${what}:\n${markdown}\n${html}`);
}

test('a response key or value that is Markdown or HTML shows as text in the tooltips and the documentation page', () => {
  for (const key of HOSTILE) {
    const body = [{ id: 1, name: 'Week 1', position: 1, workflow_state: 'active', [key]: `${key} ${'v'.repeat(90)}` }];
    const s = summary(body, 'Module[]', {
      headers: { 'content-type': 'application/json', [`x-${key.length}`]: key },
      apiError: key,
      warnings: [key],
    });
    const tree = new ResponseTree(s, (p) => describeAt(catalog, s.resource, p));
    const nodes = walk(tree, tree.roots());
    const mark = key.slice(2, 9);
    const hostile = nodes.filter((n) => [n.label, n.jsonPath, n.tooltip].some((t) => t?.includes(mark)));
    assert.ok(hostile.length >= 3, `${key}: the key, its issue, a header`);
    for (const n of nodes) if (n.tooltip !== undefined) assertInert(n.tooltip, `${key}: tooltip of ${n.label}`);
    for (const n of hostile.filter((h) => h.jsonPath !== undefined)) {
      const page = documentationPage(n.jsonPath ?? n.label, n.documented, n.issues);
      assertInert(page, `${key}: documentation of ${n.label}`);
      // The key is shown, as text.
      assert.match(preview.render(page), new RegExp(`<code>[^<]*${mark.replace(/[$()[\]!]/g, '\\$&')}`), page);
    }
  }
});

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

test('markdownCode: any text renders as one code span with exactly that text (line breaks as spaces)', () => {
  fc.assert(
    fc.property(
      fc.string({
        unit: fc.constantFrom('`', '!', '[', ']', '(', ')', '<', '>', 'a', ' ', '\n', '$', '&', ':', '/'),
        minLength: 1,
        maxLength: 40,
      }),
      (text) => {
        const html = preview.renderInline(markdownCode(text)).trim();
        const flat = text.replace(/\n/g, ' ');
        assert.match(html, /^<code>[\s\S]*<\/code>$/, `${JSON.stringify(text)} -> ${html}`);
        const inner = html.slice('<code>'.length, -'</code>'.length);
        // CommonMark strips one space on each side when both are there and the text is not all spaces.
        const shown = escapeHtml(flat);
        assert.ok(inner === shown || inner === shown.trim() || /^ +$/.test(flat), `${JSON.stringify(text)} -> ${html}`);
      },
    ),
    { numRuns: fuzzRuns(300), seed: 8 },
  );
});
