/**
 * The language server's hover leaves out what the diagnostics at the cursor already say, as
 * the editor shows them: their related lines only to a client that reads relatedInformation,
 * which gets them as such (with codeDescription's link to the code).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Diagnostic, Hover, MarkupContent } from 'vscode-languageserver/node';
import { inProcessServer } from './inProcessServer';

const TEXT =
  'POST /api/v1/courses/1/modules/2/items\n\nmodule_item[type] = Page\nmodule_item[page_url] = x\nmodule_item[new_tab] = true\n';
const URI = 'untitled:ignored.lpreq';

async function hoverAndDiagnostics(relatedInformation: boolean) {
  const server = await inProcessServer({ textDocument: { publishDiagnostics: { relatedInformation } } });
  try {
    const published = new Promise<Diagnostic[]>((resolve) => {
      server.client.onNotification(
        'textDocument/publishDiagnostics',
        (p: { uri: string; diagnostics: Diagnostic[] }) => {
          if (p.uri === URI) resolve(p.diagnostics);
        },
      );
    });
    await server.client.sendNotification('textDocument/didOpen', {
      textDocument: { uri: URI, languageId: 'lpreq', version: 1, text: TEXT },
    });
    const diagnostics = await published;
    const hover = (await server.client.sendRequest('textDocument/hover', {
      textDocument: { uri: URI },
      position: { line: 4, character: 3 },
    })) as Hover;
    return { diagnostics, hover: (hover.contents as MarkupContent).value };
  } finally {
    server.close();
  }
}

test('a client that reads relatedInformation gets the documentation there, and the hover does not say it again', async () => {
  const { diagnostics, hover } = await hoverAndDiagnostics(true);
  const [d] = diagnostics;
  assert.equal(d.code, 'ignored-parameter');
  const message = typeof d.message === 'string' ? d.message : d.message.value;
  assert.ok(message.length <= 120 && !message.includes('/api/v1'), message);
  assert.match(d.codeDescription?.href ?? '', /docs\/codes\.md#ignored-parameter$/);
  const related = (d.relatedInformation ?? []).map((r) => r.message);
  assert.ok(
    related.some((r) => r.includes('ExternalTool only')),
    related.join('\n'),
  );
  assert.ok(related.some((r) => r.includes('POST /api/v1/courses/{course_id}/modules/{module_id}/items')));
  assert.doesNotMatch(hover, /ExternalTool only/);
});

test('a client without relatedInformation gets none, and the hover keeps the documentation', async () => {
  const { diagnostics, hover } = await hoverAndDiagnostics(false);
  assert.equal(diagnostics[0].relatedInformation, undefined);
  assert.match(hover, /ExternalTool only/);
});
