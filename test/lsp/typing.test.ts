/**
 * The typing sequences of test/e2e/typing/sequences.ts through the language server alone, as
 * an editor without snippet support and without auto-closing types them: each key is a
 * change sent to the server; a trigger character asks for completion (and a list that opens
 * takes the next Enter, as an editor's would); an accepted item's edit is applied as the
 * server gave it, in plain text, and the cursor ends after it.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CompletionItem, CompletionList, TextEdit } from 'vscode-languageserver/node';
import { inProcessServer } from './inProcessServer';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { tempDir } from '../helpers';
import { SEQUENCES, TYPING_ENVIRONMENTS, type TypingSequence } from '../e2e/typing/sequences';

/** The language server in this process, as a client without snippet support sees it. */
async function plainClient() {
  return inProcessServer(
    { textDocument: { completion: { completionItem: { snippetSupport: false } } } },
    { environment: TYPING_ENVIRONMENTS.chosen },
    pathToFileURL(repository).href,
  );
}

/** The fresh repository of the sequences: its environment files, no request file on disk. */
const repository = tempDir('typing');
mkdirSync(repository, { recursive: true });
writeFileSync(join(repository, 'http-client.env.json'), JSON.stringify(TYPING_ENVIRONMENTS.shared, null, 2));
writeFileSync(join(repository, 'http-client.private.env.json'), JSON.stringify(TYPING_ENVIRONMENTS.private, null, 2));

let connection: Awaited<ReturnType<typeof plainClient>> | undefined;
after(() => connection?.close());

const at = (text: string) => TextDocument.create('lpreq:typed', 'lpreq', 0, text);

function split(marked: string): { text: string; cursor: number } {
  const cursor = marked.indexOf('|');
  assert.notEqual(cursor, -1, `no cursor in ${JSON.stringify(marked)}`);
  return { text: marked.slice(0, cursor) + marked.slice(cursor + 1), cursor };
}

function mark(text: string, cursor: number): string {
  return `${text.slice(0, cursor)}|${text.slice(cursor)}`;
}

/** Types a sequence into a new document; returns the text with its cursor marked. */
export async function typePlain(sequence: TypingSequence, uriName: string): Promise<string> {
  connection ??= await plainClient();
  const { client, triggers } = connection;
  const uri = pathToFileURL(join(repository, `${uriName}.lpreq`)).href;
  let { text, cursor } = split(sequence.before);
  let version = 1;
  await client.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version, text } });
  /** The list a trigger character opened: the next Enter takes its first item, another key closes it. */
  let open: CompletionItem[] | undefined;
  const replace = async (start: number, end: number, newText: string) => {
    const position = (offset: number) => at(text).positionAt(offset);
    await client.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: ++version },
      contentChanges: [{ range: { start: position(start), end: position(end) }, text: newText }],
    });
    text = text.slice(0, start) + newText + text.slice(end);
    cursor = start + newText.length;
  };
  const ask = async (context: { triggerKind: 1 } | { triggerKind: 2; triggerCharacter: string }) => {
    const answer = (await client.sendRequest('textDocument/completion', {
      textDocument: { uri },
      position: at(text).positionAt(cursor),
      context,
    })) as CompletionList | null;
    return [...(answer?.items ?? [])].sort((a, b) => (a.sortText ?? a.label).localeCompare(b.sortText ?? b.label));
  };
  const apply = async (item: CompletionItem) => {
    assert.notEqual(item.insertTextFormat, 2, `'${item.label}' is a snippet for a client without snippet support`);
    const edit = item.textEdit as TextEdit;
    const document = at(text);
    await replace(document.offsetAt(edit.range.start), document.offsetAt(edit.range.end), edit.newText);
  };
  for (const step of sequence.steps) {
    if ('type' in step) {
      for (const ch of step.type) {
        await replace(cursor, cursor, ch);
        if (triggers.includes(ch)) {
          const items = await ask({ triggerKind: 2, triggerCharacter: ch });
          open = items.length > 0 ? items : undefined;
        } else if (!/\w/.test(ch)) open = undefined;
      }
    } else if ('key' in step) {
      if (step.key === 'Enter' && open) {
        // As an editor does: Enter takes the item the list that opened holds first.
        await apply(open[0]);
      } else if (step.key === 'Enter') {
        const lineStart = text.lastIndexOf('\n', cursor - 1) + 1;
        await replace(cursor, cursor, `\n${/^[ \t]*/.exec(text.slice(lineStart))![0]}`);
      }
      open = undefined;
    } else if ('accept' in step) {
      const items = open ?? (await ask({ triggerKind: 1 }));
      const item = items.find((i) => i.label === step.accept);
      assert.ok(
        item,
        `no item '${step.accept}' at ${JSON.stringify(mark(text, cursor))}; got ${items
          .map((i) => i.label)
          .slice(0, 20)
          .join(', ')}`,
      );
      await apply(item);
      open = undefined;
    } else {
      const items = await ask({ triggerKind: 1 });
      assert.deepEqual(
        items.map((i) => i.label),
        [],
        `suggestions at ${JSON.stringify(mark(text, cursor))}`,
      );
    }
  }
  await client.sendNotification('textDocument/didClose', { textDocument: { uri } });
  return mark(text, cursor);
}

test('the typing sequences are at least 30, named once, each with its cursor', () => {
  assert.ok(SEQUENCES.length >= 30, `${SEQUENCES.length} sequences`);
  assert.equal(new Set(SEQUENCES.map((s) => s.name)).size, SEQUENCES.length);
  for (const s of SEQUENCES) {
    for (const marked of [s.after, ...(typeof s.plain === 'string' ? [s.plain] : [])])
      assert.equal(marked.split('|').length, 2, `${s.name}: one cursor in ${JSON.stringify(marked)}`);
  }
});

SEQUENCES.forEach((sequence, i) => {
  if (sequence.plain === null) return;
  test(`typed without snippets: ${sequence.name}`, async () => {
    const result = await typePlain(sequence, `sequence-${i}`);
    assert.equal(result, sequence.plain ?? sequence.after);
  });
});

/** Whether every `{{` is closed on its line, and (`pairs`) every other brace is paired: a JSON body's, a path's `{id}`. */
export function bracesBalanced(text: string, pairs: boolean): boolean {
  const rest = text.replace(/\{\{[^{}\n]*\}\}/g, '');
  return !rest.includes('{{') && (!pairs || rest.split('{').length === rest.split('}').length);
}

test('no sequence leaves {{ and }} unbalanced', () => {
  for (const s of SEQUENCES) {
    // In the editor, braces that were paired stay paired (it closes what is typed); without auto-closing, a typed `{` stays alone.
    const paired = bracesBalanced(s.before.replace('|', ''), true);
    assert.ok(bracesBalanced(s.after.replace('|', ''), paired), `${s.name}: ${JSON.stringify(s.after)}`);
    if (typeof s.plain === 'string')
      assert.ok(bracesBalanced(s.plain.replace('|', ''), false), `${s.name}: ${s.plain}`);
  }
});
