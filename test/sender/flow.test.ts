/** The whole flow (sendBlock): pagination, StartKey paging, chaining, typed checks, history. */
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { HistoryStore, sendBlock, parseLinkHeader, mergePages, type ResponseStore } from '../../server/src/sender';
import { tempDir } from '../helpers';
import { doc, json, startServer, testChecker, type TestServer } from './server';

const TOKEN = 'tok-abcdef-123456';
let api: TestServer;
const historyDir = tempDir('history');
let nextModuleId = 100;

const mod = (id: number) => ({ id, name: `Module ${id}`, position: id, items_count: 0, workflow_state: 'active' });

before(async () => {
  api = await startServer((req, res) => {
    const url = new URL(req.url, api.origin);
    const page = Number(url.searchParams.get('page') ?? '1');
    const next = (last: number): Record<string, string> =>
      page < last
        ? {
            link: `<${api.origin}${url.pathname}?page=${page + 1}&per_page=2>; rel="next", <${api.origin}${url.pathname}?page=${last}>; rel="last"`,
          }
        : {};
    if (url.pathname === '/api/v1/courses/1/modules' && req.method === 'GET') {
      return json(res, 200, [mod(page * 2 - 1), mod(page * 2)], next(25));
    }
    if (url.pathname === '/api/v1/courses/3/modules' && req.method === 'GET') {
      // A next page on another origin (here the same server under another host name).
      return json(res, 200, [mod(1)], {
        link: `<${api.origin.replace('127.0.0.1', 'localhost')}/api/v1/courses/3/modules?page=2>; rel="next"`,
      });
    }
    if (url.pathname === '/api/v1/courses/4/modules' && req.method === 'GET') {
      // Page 2 fails.
      return page === 1
        ? json(res, 200, [mod(1)], { link: `<${api.origin}${url.pathname}?page=2>; rel="next"` })
        : json(res, 404, { errors: [{ message: 'gone' }] });
    }
    if (url.pathname === '/api/v1/courses/7/modules' && req.method === 'GET') {
      // Page 3 links back to page 2: a loop.
      return json(res, 200, [mod(page)], {
        link: `<${api.origin}${url.pathname}?page=${page === 3 ? 2 : page + 1}>; rel="next"`,
      });
    }
    if (url.pathname === '/api/v1/courses/5/modules/1') {
      res.writeHead(200, { 'content-type': 'text/html' });
      return res.end(req.method === 'HEAD' ? undefined : '<html><body>Login</body></html>');
    }
    if (url.pathname === '/api/v1/courses/6/modules/7') return json(res, 200, mod(7));
    if (url.pathname === '/api/v1/courses/2/modules' && req.method === 'GET') {
      return json(res, 200, [mod(1), { ...mod(2), items_count: 'two' }]);
    }
    if (url.pathname === '/api/v1/courses/1/grading_periods') {
      return json(res, 200, { grading_periods: [{ id: page, title: `P${page}` }], meta: { page } }, next(3));
    }
    if (url.pathname === '/api/lti/subscriptions') {
      const start = req.headers.startkey as string | undefined;
      const n = start ? Number(JSON.parse(start).Id) : 0;
      const headers: Record<string, string> =
        n < 4 ? { EndKey: JSON.stringify({ Id: String(n + 1), DeveloperKey: '7' }) } : {};
      return json(res, 200, [{ id: `sub-${n}` }], headers);
    }
    if (url.pathname === '/api/v1/courses/1/modules' && req.method === 'POST') {
      const id = nextModuleId++;
      return json(res, 200, mod(id), { location: `${api.origin}/api/v1/courses/1/modules/${id}` });
    }
    const items = /^\/api\/v1\/courses\/1\/modules\/(\d+)\/items$/.exec(url.pathname);
    if (items && req.method === 'POST') {
      return json(res, 200, {
        id: 5000,
        module_id: Number(items[1]),
        title: new URLSearchParams(req.body).get('module_item[title]'),
        type: 'SubHeader',
      });
    }
    return json(res, 404, { errors: [{ message: 'no such thing' }] });
  });
});
after(async () => {
  await api.close();
  rmSync(historyDir, { recursive: true, force: true });
});

const env = () => ({ environments: { local: { base_url: api.origin } }, selected: 'local' });

test('25 pages through Link rel="next", merged into one array, with progress', async () => {
  const progress: number[] = [];
  const r = await sendBlock(doc('GET /api/v1/courses/1/modules\n'), 0, {
    checker: testChecker(),
    environments: env(),
    token: TOKEN,
    allPages: true,
    onPage: (p) => progress.push(p.items),
  });
  assert.equal(r.ok, true, JSON.stringify(r.error));
  assert.equal(r.response?.pages, 25);
  assert.equal((r.response?.body as unknown[]).length, 50);
  assert.equal(progress.length, 25);
  assert.equal(progress.at(-1), 50);
  assert.equal(r.resource, 'Module[]');
  assert.deepEqual(r.issues, []);
  assert.ok(api.received.slice(-25).every((q) => q.headers.authorization === `Bearer ${TOKEN}`));
});

test('one page without allPages; the page limit and cancellation stop early', async () => {
  const one = await sendBlock(doc('GET /api/v1/courses/1/modules\n'), 0, {
    checker: testChecker(),
    environments: env(),
  });
  assert.equal(one.response?.pages, 1);
  // One page asked for is the answer as it is: no limit was reached, nothing is incomplete.
  assert.equal(one.response?.incomplete, undefined);
  assert.deepEqual(one.warnings, []);
  const onePage = await sendBlock(doc('GET /api/v1/courses/1/modules\n'), 0, {
    checker: testChecker(),
    environments: env(),
    allPages: true,
    maxPages: 1,
  });
  assert.equal(onePage.response?.incomplete, 'page-limit');
  assert.ok(!onePage.warnings.some((w) => /\b1 pages\b/.test(w)), onePage.warnings.join('; '));
  assert.equal(
    parseLinkHeader(one.response?.headers.link).next,
    `${api.origin}/api/v1/courses/1/modules?page=2&per_page=2`,
  );
  const limited = await sendBlock(doc('GET /api/v1/courses/1/modules\n'), 0, {
    checker: testChecker(),
    environments: env(),
    allPages: true,
    maxPages: 5,
  });
  assert.equal(limited.response?.pages, 5);
  assert.equal(limited.response?.incomplete, 'page-limit');
  const controller = new AbortController();
  const cancelled = await sendBlock(doc('GET /api/v1/courses/1/modules\n'), 0, {
    checker: testChecker(),
    environments: env(),
    allPages: true,
    signal: controller.signal,
    onPage: (p) => {
      if (p.page === 3) controller.abort();
    },
  });
  assert.equal(cancelled.response?.pages, 3);
  assert.equal(cancelled.response?.incomplete, 'cancelled');
  assert.equal((cancelled.response?.body as unknown[]).length, 6);
});

test('the grading periods wrapper merges its inner array', async () => {
  const r = await sendBlock(doc('GET /api/v1/courses/1/grading_periods\n'), 0, {
    checker: testChecker(),
    environments: env(),
    allPages: true,
  });
  assert.equal(r.response?.pages, 3);
  assert.deepEqual(r.response?.body, {
    grading_periods: [
      { id: 1, title: 'P1' },
      { id: 2, title: 'P2' },
      { id: 3, title: 'P3' },
    ],
    meta: { page: 1 },
  });
  assert.equal(r.resource, 'GradingPeriodList');
  assert.deepEqual(
    r.issues.map((i) => i.path),
    ['$.meta'],
  );
  assert.equal(mergePages([1], { a: 1 }), undefined);
});

test('the webhook list follows EndKey with StartKey', async () => {
  const r = await sendBlock(doc('GET /api/lti/subscriptions\n'), 0, {
    checker: testChecker(),
    environments: env(),
    allPages: true,
  });
  assert.equal(r.ok, true);
  assert.equal(r.response?.pages, 5);
  assert.deepEqual(
    (r.response?.body as { id: string }[]).map((s) => s.id),
    ['sub-0', 'sub-1', 'sub-2', 'sub-3', 'sub-4'],
  );
  const sent = api.received.slice(-5).map((q) => q.headers.startkey);
  assert.deepEqual(sent, [
    undefined,
    '{"Id":"1","DeveloperKey":"7"}',
    '{"Id":"2","DeveloperKey":"7"}',
    '{"Id":"3","DeveloperKey":"7"}',
    '{"Id":"4","DeveloperKey":"7"}',
  ]);
});

test('typed checks on every response', async () => {
  const r = await sendBlock(doc('GET /api/v1/courses/2/modules\n'), 0, { checker: testChecker(), environments: env() });
  assert.equal(r.resource, 'Module[]');
  assert.deepEqual(
    r.issues.map((i) => `${i.path} ${i.code}`),
    ['$[1].items_count type-mismatch'],
  );
  const missing = await sendBlock(doc('GET /api/v1/courses/2/modules/9/nope\n'), 0, {
    checker: testChecker(),
    environments: env(),
  });
  assert.equal(missing.ok, false);
  assert.equal(missing.response?.status, 404);
  assert.equal(missing.error?.kind, 'http');
});

const CHAIN = `
### Create a module
# @name createModule
POST /api/v1/courses/1/modules

module[name] = Week 1

### Add an item to it
# @name addItem
@moduleUrl = {{createModule.response.headers.Location}}
POST /api/v1/courses/1/modules/{{createModule.response.body.$.id}}/items

module_item[type] = SubHeader
module_item[title] = Intro to {{createModule.response.body.$.name}}
`;

test('chaining: the module is created first, then the item is added to it', async () => {
  const responses: ResponseStore = new Map();
  const deps: string[] = [];
  const d = doc(CHAIN);
  const r = await sendBlock(d, 2, {
    checker: testChecker(),
    environments: env(),
    responses,
    onDependency: (n) => deps.push(n),
    token: TOKEN,
  });
  assert.equal(r.ok, true, JSON.stringify(r.error));
  assert.deepEqual(deps, ['createModule']);
  const created = responses.get('createModule')?.response.body as { id: number };
  assert.deepEqual(r.response?.body, {
    id: 5000,
    module_id: created.id,
    title: `Intro to Module ${created.id}`,
    type: 'SubHeader',
  });
  assert.equal(r.resource, 'ModuleItem');
  assert.deepEqual(
    r.dependencies.map((x) => x.name),
    ['createModule'],
  );
  // The stored response is reused: no second module is created.
  const before = api.received.length;
  const again = await sendBlock(d, 2, { checker: testChecker(), environments: env(), responses });
  assert.equal(again.ok, true);
  assert.equal(api.received.length, before + 1);
});

test('chaining: a cycle, a missing request and a missing path are plain errors', async () => {
  const cycle = doc(
    '# @name a\nGET /api/v1/courses/{{b.response.body.$.id}}/modules\n\n###\n# @name b\nGET /api/v1/courses/{{a.response.body.$.id}}/modules\n',
  );
  const r = await sendBlock(cycle, 0, { checker: testChecker(), environments: env() });
  assert.equal(r.ok, false);
  assert.equal(r.error?.kind, 'dependency');
  assert.equal(r.response, undefined);
  const self = await sendBlock(doc('# @name a\nGET /api/v1/courses/{{a.response.body.$.id}}/modules\n'), 0, {
    checker: testChecker(),
    environments: env(),
  });
  assert.equal(self.error?.kind, 'dependency');
  assert.equal(self.response, undefined);
  const missing = await sendBlock(doc('GET /api/v1/courses/{{zz.response.body.$.id}}/modules\n'), 0, {
    checker: testChecker(),
    environments: env(),
  });
  assert.equal(missing.error?.kind, 'dependency');
  assert.ok(missing.error.message.includes('zz'), 'the error names the missing request');
  const badPath = await sendBlock(doc(CHAIN.replace('$.id}}/items', '$.nothing}}/items')), 2, {
    checker: testChecker(),
    environments: env(),
  });
  assert.equal(badPath.error?.kind, 'prepare');
  assert.ok(badPath.error.message.includes('$.nothing'), 'the error names the path that is missing');
});

test('chaining: a history that cannot be read is an error the user is told, and the request it refers to is not sent again', async () => {
  const dir = tempDir('history-unreadable');
  const history = new HistoryStore(dir);
  const file = join(dir, 'chain.lpreq');
  const first = await sendBlock(doc(CHAIN), 2, {
    checker: testChecker(),
    environments: env(),
    history,
    file,
    reuseHistory: true,
    responses: new Map(),
  });
  assert.equal(first.ok, true, JSON.stringify(first.error));
  // The index is there but cannot be read (a folder in its place stands for any read error, as root too).
  renameSync(join(dir, 'index.jsonl'), join(dir, 'index.saved'));
  mkdirSync(join(dir, 'index.jsonl'));
  const before = api.received.length;
  const r = await sendBlock(doc(CHAIN), 2, {
    checker: testChecker(),
    environments: env(),
    history,
    file,
    reuseHistory: true,
    responses: new Map(),
  });
  assert.equal(r.ok, false);
  assert.equal(r.error?.kind, 'dependency');
  assert.ok(r.error.message.includes(join(dir, 'index.jsonl')), 'the error names the history file');
  assert.equal(api.received.length, before, 'nothing is sent: createModule would make a second module');
});

test('history: every exchange of the flow, never the token', async () => {
  const history = new HistoryStore(historyDir, { keep: 3 });
  await history.clear();
  const r = await sendBlock(doc(CHAIN), 2, {
    checker: testChecker(),
    environments: env(),
    history,
    token: TOKEN,
    responses: new Map(),
  });
  assert.ok(r.historyId);
  const list = await history.list();
  assert.equal(list.length, 2);
  assert.equal(list[0].id, r.historyId);
  assert.equal(list[1].name, 'createModule');
  const entry = await history.get(r.historyId ?? '');
  assert.equal(entry?.status, 200);
  assert.equal(entry?.resource, 'ModuleItem');
  for (const name of readdirSync(historyDir))
    assert.ok(!readFileSync(join(historyDir, name), 'utf8').includes(TOKEN), name);
  assert.ok(!JSON.stringify(r).includes(TOKEN));
});

test('prompt variables (# @prompt): asked before sending, given beforehand, or the request is not sent; a secret answer stays out of history', async () => {
  const text =
    '# @prompt course Which course\n# @prompt password\nPOST /api/v1/courses/{{course}}/modules\n\nmodule[name] = {{password}}\n';
  const asked: string[] = [];
  const history = new HistoryStore(tempDir('history-prompt'));
  const sent = await sendBlock(doc(text), 0, {
    checker: testChecker(),
    environments: env(),
    history,
    prompts: new Map([['course', '1']]),
    ask: async (q) => {
      asked.push(`${q.name}:${q.secret}`);
      return 'hunter22';
    },
  });
  assert.equal(sent.response?.status, 200);
  assert.deepEqual(asked, ['password:true']);
  assert.equal(sent.request?.url, `${api.origin}/api/v1/courses/1/modules`);
  assert.deepEqual(sent.secretValues, ['hunter22']);
  const [entry] = await history.list();
  assert.ok(!JSON.stringify(entry).includes('hunter22'));

  const cancelled = await sendBlock(doc(text), 0, {
    checker: testChecker(),
    environments: env(),
    ask: async () => undefined,
  });
  assert.equal(cancelled.response, undefined);
  assert.equal(cancelled.error?.kind, 'prepare');
  assert.ok(cancelled.error.message.includes('{{course}}'), 'the error names the prompt variable without a value');
});

test("a next page on another origin is not fetched with the request's headers (they may carry the token)", async () => {
  const before = api.received.length;
  const r = await sendBlock(doc('GET /api/v1/courses/3/modules\nAuthorization: Bearer {{$processEnv T}}\n'), 0, {
    checker: testChecker(),
    environments: env(),
    system: { processEnv: { T: TOKEN } },
    allPages: true,
  });
  assert.equal(r.response?.pages, 1);
  assert.equal(r.response?.incomplete, 'failed');
  assert.match(r.warnings.join(' '), /another origin/);
  assert.equal(api.received.length, before + 1);
});

test('a body that was not typed is not said to match: truncated, or not JSON for a documented resource', async () => {
  const spill = tempDir('spill');
  try {
    const truncated = await sendBlock(doc('GET /api/v1/courses/1/modules\n'), 0, {
      checker: testChecker(),
      environments: env(),
      maxBodyBytes: 20,
      spillDir: spill,
    });
    assert.equal(truncated.resource, 'Module[]');
    assert.equal(truncated.unchecked, 'truncated');
    assert.deepEqual(truncated.issues, []);
  } finally {
    rmSync(spill, { recursive: true, force: true });
  }
  const html = await sendBlock(doc('GET /api/v1/courses/5/modules/1\n'), 0, {
    checker: testChecker(),
    environments: env(),
  });
  assert.equal(html.ok, true);
  assert.equal(html.unchecked, 'not-json');
  assert.deepEqual(html.issues, []);
  assert.match(html.warnings.join(' '), /not JSON/);
});

test('a HEAD answer has no body to check', async () => {
  const head = await sendBlock(doc('HEAD /api/v1/courses/6/modules/7\n'), 0, {
    checker: testChecker(),
    environments: env(),
  });
  assert.equal(head.ok, true);
  assert.deepEqual(head.issues, []);
  assert.equal(head.resource, null);
});

test('--all-pages: a page that fails makes the whole result a failure, with what was read', async () => {
  const r = await sendBlock(doc('GET /api/v1/courses/4/modules\n'), 0, {
    checker: testChecker(),
    environments: env(),
    allPages: true,
  });
  assert.equal(r.ok, false);
  assert.equal(r.error?.kind, 'incomplete');
  assert.equal(r.response?.incomplete, 'failed');
  assert.equal(r.response?.pages, 1);
  assert.equal(r.resource, null);
  assert.deepEqual(r.response?.body, [mod(1)]);
});

test('--all-pages: a next link back to a page already read stops the list as incomplete; merged pages keep no page-only headers', async () => {
  const before = api.received.length;
  const r = await sendBlock(doc('GET /api/v1/courses/7/modules\n'), 0, {
    checker: testChecker(),
    environments: env(),
    allPages: true,
  });
  assert.equal(api.received.length - before, 3);
  assert.equal(r.ok, false);
  assert.equal(r.error?.kind, 'incomplete');
  assert.equal(r.response?.incomplete, 'repeated');
  assert.deepEqual(r.response?.body, [mod(1), mod(2), mod(3)]);
  const merged = await sendBlock(doc('GET /api/v1/courses/1/modules\n'), 0, {
    checker: testChecker(),
    environments: env(),
    allPages: true,
    maxPages: 3,
  });
  assert.equal(merged.response?.pages, 3);
  for (const name of ['content-length', 'link']) assert.equal(merged.response?.headers[name], undefined, name);
  assert.ok(merged.response?.headers['content-type']);
});

test('chaining: Object.prototype names in a reference read only what the response has (issue 17)', async () => {
  const responses: ResponseStore = new Map();
  for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
    for (const part of [`body.$.${name}`, `body.$["${name}"]`, `headers.${name}`]) {
      const d = doc(
        `# @name made\nPOST /api/v1/courses/1/modules\n\nmodule[name] = x\n\n###\nGET /api/v1/courses/1/modules/{{made.response.${part}}}\n`,
      );
      const r = await sendBlock(d, 1, { checker: testChecker(), environments: env(), responses, token: TOKEN });
      assert.equal(r.ok, false, part);
      assert.equal(r.error?.kind, 'prepare', `${part}: ${JSON.stringify(r.error)}`);
      assert.ok(r.error?.message.includes(name), `${part}: ${r.error?.message}`);
    }
  }
});
