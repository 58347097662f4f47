/**
 * A view shows an answer as soon as it is read (issue 27, the response view's performance
 * target): sendBlock hands the request's own answer to `onAnswer` before its body is checked
 * against the docs and stored in history, and goes on when the hook returns; a dependency's
 * answer is not handed on.
 */
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HistoryStore, sendBlock, type SendResult } from '../../server/src/sender';
import { tempDir } from '../helpers';
import { doc, json, startServer, testChecker, type TestServer } from './server';

let api: TestServer;
before(async () => {
  api = await startServer((req, res) => {
    if (req.url.startsWith('/api/v1/courses/1/modules/7'))
      return json(res, 200, { id: 7, name: 'Week 1', position: 1, workflow_state: 'active', x_undocumented: 1 });
    return json(res, 200, [{ id: 7, name: 'Week 1', position: 1, workflow_state: 'active' }]);
  });
});
after(() => api.close());

test('the answer is handed on before its typed check and its history entry, and the flow waits for the hook', async () => {
  const history = new HistoryStore(tempDir('early-history'));
  const text = `### List\n# @name list\nGET {{base_url}}/api/v1/courses/1/modules\n\n### One\nGET {{base_url}}/api/v1/courses/1/modules/{{list.response.body.$[0].id}}\n`;
  const seen: { url: string | undefined; issues: number; historyId: string | undefined; entries: number }[] = [];
  let released = false;
  const result = await sendBlock(doc(text), 1, {
    checker: testChecker(),
    environments: { environments: { dev: { base_url: api.origin } }, selected: 'dev' },
    history,
    responses: new Map(),
    onAnswer: async (answer: SendResult) => {
      seen.push({
        url: answer.request?.url,
        issues: answer.issues.length,
        historyId: answer.historyId,
        entries: (await history.list()).length,
      });
      await new Promise((r) => setTimeout(r, 20));
      released = true;
    },
  });
  assert.ok(released);
  // Only the request itself: its dependency 'list' was sent first and stored, but not handed on.
  assert.equal(seen.length, 1);
  assert.match(seen[0].url ?? '', /\/modules\/7$/);
  assert.deepEqual([seen[0].issues, seen[0].historyId, seen[0].entries], [0, undefined, 1]);
  // After the hook: typed and stored.
  assert.ok(result.issues.some((i) => i.path === '$.x_undocumented'));
  assert.ok(result.historyId);
  assert.equal((await history.list()).length, 2);
});
