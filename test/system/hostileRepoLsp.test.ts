/**
 * Issue 26: the hostile repository (test/hostileRepo.ts) through the language server over
 * stdio, as an editor drives it: the environment chosen and remembered, every request that
 * tries a way out sent with `lpreq.send`. Nothing of the home is sent or shown, nothing is
 * written through the links of `.lpreq` (the history, the responses, environment.json and its
 * temporary files), nothing goes to the origin production names, and the server lives on.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { pathToFileURL } from 'node:url';
import { readFileSync } from 'node:fs';
import { LspClient, ROOT } from '../lsp/rpc';
import { json, startServer, type TestServer } from '../sender/server';
import { hostileRepo, holdsHomeSecret } from '../hostileRepo';

const TOKEN = 'hostile-lsp-token-0123456789';
let api: TestServer;
let other: TestServer;

before(async () => {
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT });
  api = await startServer((_req, res) =>
    json(res, 200, [{ id: 1, name: `${'a'.repeat(64)}!`, workflow_state: 'active' }]),
  );
  other = await startServer((_req, res) => json(res, 200, []));
});
after(async () => {
  await api.close();
  await other.close();
});

test(
  'the language server in the hostile repository sends nothing of the home and writes nothing outside it',
  { timeout: 120_000 },
  async () => {
    const clone = hostileRepo(api.origin, other.origin);
    const home = clone.snapshot();
    const c = new LspClient(undefined, undefined, { env: { PATH: process.env.PATH ?? '', LPREQ_TOKEN: TOKEN } });
    const shown: string[] = [];
    c.answer = (m) => {
      shown.push(JSON.stringify(m.params));
      return m.method === 'window/showDocument' ? { success: true } : null;
    };
    try {
      await c.initialize(
        {},
        pathToFileURL(clone.repo).href,
        {},
        { workDoneProgress: true, showDocument: { support: true } },
      );
      const uri = pathToFileURL(clone.requests).href;
      c.notify('textDocument/didOpen', {
        textDocument: { uri, languageId: 'lpreq', version: 1, text: readFileSync(clone.requests, 'utf8') },
      });
      await c.request('workspace/executeCommand', { command: 'lpreq.selectEnvironment', arguments: ['dev'] }, 20_000);
      const answers: Record<string, { ok: boolean; status: number | null; error?: string; responseUri?: string }> = {};
      for (const [name, line] of Object.entries(clone.lines)) {
        const sentBefore = api.received.length;
        answers[name] = await c.request(
          'workspace/executeCommand',
          { command: 'lpreq.send', arguments: [uri, line - 1] },
          30_000,
        );
        if (name !== 'dotenv' && name !== 'regex')
          assert.equal(api.received.length, sentBefore, `${name}: nothing is sent (${JSON.stringify(answers[name])})`);
      }
      for (const name of ['relative', 'absolute', 'link', 'device'])
        assert.match(answers[name].error ?? '', /outside the workspace/, name);
      assert.match(answers.fifo.error ?? '', /pipe \(FIFO\)/);
      // Sent, but its response is not written through the link of .lpreq/responses, and that is said.
      assert.equal(answers.regex.status, 200);
      assert.equal(answers.regex.responseUri, undefined);
      // The server still answers.
      const lenses = await c.request<unknown[]>('textDocument/codeLens', { textDocument: { uri } });
      assert.ok(lenses.length > 0);
      const told = [...shown, ...c.notifications.map((n) => JSON.stringify(n.params)), c.stderr].join('\n');
      assert.match(told, /responses is a symbolic link/);
      assert.equal(holdsHomeSecret(told), undefined, 'nothing of the home is shown');
      await c.shutdown();
    } finally {
      c.kill();
    }
    for (const r of api.received)
      assert.equal(holdsHomeSecret(`${r.url} ${JSON.stringify(r.headers)} ${r.body}`), undefined, 'sent to the server');
    assert.equal(other.received.length, 0, 'nothing went to the origin production names');
    assert.deepEqual(clone.snapshot(), home, 'the home is as it was');
  },
);
