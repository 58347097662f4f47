/**
 * `lpreq send FILE` without --name or --line in a file of several requests (issue 29): the
 * requests listed by number, title and @name; at a terminal the person picks one, by number or
 * by name; elsewhere a usage error with the list (exit 2).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run as runSend } from '../../server/src/cli/sendCommand';
import type { Io } from '../../server/src/cli/check';
import { tempDir } from '../helpers';
import { json, startServer, type TestServer } from '../sender/server';

let api: TestServer;
let repo = '';

before(async () => {
  api = await startServer((req, res) => json(res, 200, { id: 1, name: 'Week 1', url: req.url }));
  repo = tempDir('send-pick');
  writeFileSync(
    join(repo, 'http-client.env.json'),
    JSON.stringify({ dev: { base_url: api.origin }, staging: { base_url: 'https://staging.lms.example.edu' } }),
  );
  writeFileSync(
    join(repo, 'modules.lpreq'),
    [
      '### List the modules',
      'GET {{base_url}}/api/v1/courses/42/modules',
      '',
      '### Create a module',
      '# @name createModule',
      'POST {{base_url}}/api/v1/courses/42/modules',
      '',
      'module[name] = Week 1',
      '',
      '###',
      'GET {{base_url}}/api/v1/courses/42/modules/7',
      '',
    ].join('\n'),
  );
});

after(() => api.close());

/** The command in this process; `answers` are what the person types at each question (absent: no terminal). */
async function send(argv: string[], answers?: string[]) {
  let stdout = '';
  let stderr = '';
  const asked: string[] = [];
  const io: Io = {
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    readStdin: () => '',
    isTTY: answers !== undefined,
    env: {},
    cwd: repo,
    ...(answers
      ? {
          ask: (question: string) => {
            asked.push(question);
            return Promise.resolve(answers.shift());
          },
        }
      : {}),
  };
  const code = await runSend(argv, io);
  return { code, stdout, stderr, asked };
}

test('without a terminal: a usage error that lists the requests by number, title and @name', async () => {
  const r = await send(['modules.lpreq', '--env', 'dev', '--no-history']);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /modules\.lpreq holds 3 requests; choose one with --name or --line:/);
  assert.match(
    r.stderr,
    /^ {2}1 {2}List the modules +--line 2 +line 2: GET \{\{base_url\}\}\/api\/v1\/courses\/42\/modules$/m,
  );
  assert.match(r.stderr, /^ {2}2 {2}Create a module +--name createModule +line 6: POST /m);
  assert.match(r.stderr, /^ {2}3 {2}\(no title\) +--line 11 +line 11: GET /m);
  assert.equal(api.received.length, 0);
});

test('at a terminal: the person picks a request by its number, and it is sent', async () => {
  const before = api.received.length;
  const r = await send(['modules.lpreq', '--env', 'dev', '--no-history', '--yes'], ['3']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.asked.length, 1);
  assert.match(r.asked[0], /Send which request\? \(1-3 or a name; Enter to cancel\)/);
  assert.match(r.stderr, /Create a module +--name createModule/);
  assert.equal(api.received.length, before + 1);
  assert.equal(api.received.at(-1)?.url, '/api/v1/courses/42/modules/7');
});

test('at a terminal: by @name, after an answer that is neither; Enter sends nothing', async () => {
  const before = api.received.length;
  const r = await send(['modules.lpreq', '--env', 'dev', '--no-history', '--yes'], ['9', '@createModule']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.asked.length, 2);
  assert.match(r.stderr, /'9' is neither a number from 1 to 3 nor a request's @name/);
  assert.equal(api.received.at(-1)?.method, 'POST');
  assert.equal(api.received.length, before + 1);
  const cancelled = await send(['modules.lpreq', '--env', 'dev', '--no-history'], ['']);
  assert.equal(cancelled.code, 2);
  assert.match(cancelled.stderr, /nothing sent/);
  assert.equal(api.received.length, before + 1);
});
