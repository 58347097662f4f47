/**
 * scope-not-granted in the editor, over the wire: a repository with environments dev and
 * staging, each declaring `$scopes` (dev in http-client.env.json, staging in a file of its
 * own); hover shows a request's scope and whether the chosen environment grants it; the quick
 * fix is a workspace edit of the file that holds the list, which, applied and saved, clears
 * the warning.
 */
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { LspClient, ROOT } from '../lsp/rpc';
import { tempDir } from '../helpers';

before(() => {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT });
});

const LIST = 'url:GET|/api/v1/courses/{course_id}/modules';
const CREATE = 'url:POST|/api/v1/courses/{course_id}/modules';

type Published = { diagnostics: { code: string; range: { start: { line: number; character: number } } }[] };
type Range = { start: { line: number; character: number }; end: { line: number; character: number } };
type Action = {
  title: string;
  isPreferred?: boolean;
  edit?: { changes?: Record<string, { range: Range; newText: string }[]> };
};

/** The edits of a workspace edit applied to the file it names, as an editor applies them, and saved. */
function applyAndSave(uri: string, edits: { range: Range; newText: string }[]): string {
  const path = new URL(uri);
  const doc = TextDocument.create(uri, 'json', 1, readFileSync(path, 'utf8'));
  const text = TextDocument.applyEdits(doc, edits);
  writeFileSync(path, text);
  return text;
}

test(
  'the editor: the warning, the scope in hover, and the quick fix that adds it to the environment file',
  { timeout: 60_000 },
  async () => {
    const dir = tempDir('lsp-scopes');
    const envFile = join(dir, 'http-client.env.json');
    writeFileSync(
      envFile,
      JSON.stringify(
        {
          dev: { base_url: 'http://127.0.0.1:4010', course: '42', $scopes: [LIST] },
          staging: { base_url: 'https://staging.lms.example.edu', course: '58213', $scopes: 'staging-scopes.json' },
        },
        null,
        2,
      ),
    );
    const listFile = join(dir, 'staging-scopes.json');
    writeFileSync(listFile, JSON.stringify([LIST], null, 2));
    const uri = pathToFileURL(join(dir, 'sync.lpreq')).href;
    const text = [
      '### the modules',
      'GET {{base_url}}/api/v1/courses/{{course}}/modules',
      '',
      '### a new module',
      'POST {{base_url}}/api/v1/courses/{{course}}/modules',
      '',
      'module[name] = Week 1',
      '',
    ].join('\n');
    const c = new LspClient();
    const timer = setTimeout(() => c.kill(), 50_000);
    try {
      await c.initialize({ environment: 'dev' });
      const opened = c.diagnostics(uri, 1);
      c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text } });
      const first = (await opened) as unknown as Published;
      assert.deepEqual(
        first.diagnostics.map((d) => [d.code, d.range.start.line]),
        [['scope-not-granted', 4]],
      );

      const hoverAt = async (line: number) =>
        (
          await c.request<{ contents: { value: string } }>('textDocument/hover', {
            textDocument: { uri },
            position: { line, character: 1 },
          })
        ).contents.value;
      assert.match(
        await hoverAt(1),
        /Token scope: `url:GET\|\/api\/v1\/courses\/\{course_id\}\/modules` \(in the \$scopes of dev\)/,
      );
      assert.match(
        await hoverAt(4),
        /Token scope: `url:POST\|\/api\/v1\/courses\/\{course_id\}\/modules` \(\*\*not\*\* in the \$scopes of dev\)/,
      );

      const fixAt = async (): Promise<Action> => {
        const actions = await c.request<Action[]>('textDocument/codeAction', {
          textDocument: { uri },
          range: { start: { line: 4, character: 6 }, end: { line: 4, character: 6 } },
          context: { diagnostics: [], only: ['quickfix'] },
        });
        const fix = actions.find((a) => a.title.startsWith(`Add ${CREATE}`));
        assert.ok(fix, JSON.stringify(actions.map((a) => a.title)));
        return fix;
      };
      const fix = await fixAt();
      assert.equal(fix.title, `Add ${CREATE} to the $scopes of dev in http-client.env.json`);
      assert.equal(fix.isPreferred, true);
      const [[target, edits]] = Object.entries(fix.edit?.changes ?? {});
      assert.equal(target, pathToFileURL(envFile).href);
      const saved = applyAndSave(target, edits);
      assert.deepEqual((JSON.parse(saved) as { dev: { $scopes: string[] } }).dev.$scopes, [LIST, CREATE]);
      const cleared = c.diagnostics(uri);
      c.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: target, type: 2 }] });
      assert.deepEqual(((await cleared) as unknown as Published).diagnostics, []);

      // staging's list is a file of its own: the fix edits that file, and saving it is noticed.
      const staging = c.diagnostics(uri);
      c.notify('lpreq/selectEnvironment', { name: 'staging' });
      assert.deepEqual(
        ((await staging) as unknown as Published).diagnostics.map((d) => d.code),
        ['scope-not-granted'],
      );
      const stagingFix = await fixAt();
      assert.equal(stagingFix.title, `Add ${CREATE} to staging-scopes.json (the $scopes of staging)`);
      const [[listTarget, listEdits]] = Object.entries(stagingFix.edit?.changes ?? {});
      assert.equal(listTarget, pathToFileURL(listFile).href);
      assert.deepEqual(JSON.parse(applyAndSave(listTarget, listEdits)), [LIST, CREATE]);
      // A change of another JSON file is not an environment change: the list is not read again for it...
      c.notify('workspace/didChangeWatchedFiles', {
        changes: [{ uri: pathToFileURL(join(dir, 'package.json')).href, type: 2 }],
      });
      assert.match(await hoverAt(4), /\*\*not\*\* in the \$scopes of staging/);
      // ...the list file's is.
      const again = c.diagnostics(uri);
      c.notify('workspace/didChangeWatchedFiles', { changes: [{ uri: listTarget, type: 2 }] });
      assert.deepEqual(((await again) as unknown as Published).diagnostics, []);
      assert.match(await hoverAt(4), /\(in the \$scopes of staging\)/);
      await c.shutdown();
      assert.equal(c.process.exitCode, 0, c.stderr);
    } finally {
      clearTimeout(timer);
      c.kill();
    }
  },
);
