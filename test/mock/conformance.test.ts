/**
 * The conformance examples of ../shared/conformance sent to the mock: a request the
 * checker finds an error in is refused (400, or 404/405 for an unknown path or method),
 * and a request without errors succeeds. Requests are built by the sender's own
 * prepareRequest, with {{base_url}} pointing at the mock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentScope, parseDocument } from '../../server/src/core/index';
import { prepareRequest } from '../../server/src/sender/prepare';
import { selectJsonPath } from '../../server/src/sender/chaining';
import { SHARED, sharedChecker } from '../helpers';
import { withMock } from './mockClient';

const DIR = join(SHARED, 'conformance');
/** A student of course 42 in the bundled seed (user 1001), for the requests only a student may send. */
const STUDENT_TOKEN = 'conformance-student';

function cases(): { file: string; text: string; environments: Record<string, Record<string, string>> }[] {
  const out = [];
  for (const sub of ['valid', 'invalid']) {
    const dir = join(DIR, sub);
    const environments = JSON.parse(readFileSync(join(dir, 'http-client.env.json'), 'utf8')) as Record<
      string,
      Record<string, string>
    >;
    for (const name of readdirSync(dir).sort())
      if (name.endsWith('.lpreq'))
        out.push({ file: `${sub}/${name}`, text: readFileSync(join(dir, name), 'utf8'), environments });
  }
  return out;
}

test('the mock answers 400 exactly when the checker reports an error', () =>
  withMock(
    async (_call, mock) => {
      const checker = sharedChecker();
      const problems: string[] = [];
      let sent = 0;
      for (const c of cases()) {
        const text = c.text.replace(/^@base_url\s*=.*$/m, `@base_url = ${mock.url}`);
        const doc = parseDocument(text);
        const env = { environments: { local: { ...c.environments.local, base_url: mock.url } }, selected: 'local' };
        const scope = documentScope(doc, env);
        const bodies = new Map<string, unknown>();
        for (let i = 0; i < doc.blocks.length; i++) {
          const block = doc.blocks[i].block;
          if (!block.request) continue;
          const errors = checker
            .checkBlock(block, scope)
            .filter((d) => d.severity === 'error')
            .map((d) => d.code);
          const prepared = prepareRequest(checker, doc, i, {
            environments: env,
            reference: (ref) => {
              const found = selectJsonPath(bodies.get(ref.name), ref.selector);
              return found.found ? { value: String(found.value) } : { error: `no ${ref.name}` };
            },
          });
          const where = `${c.file} #${i + 1} ${block.title?.text ?? block.request.target.text}`;
          if (!prepared.ok) {
            // Unresolved variables and unknown methods cannot be sent at all; the checker must call them errors.
            if (errors.length === 0)
              problems.push(`${where}: cannot be prepared (${prepared.error}) but the checker found no error`);
            continue;
          }
          const { request } = prepared;
          const send = (token: string) => {
            const headers = Object.fromEntries([...request.headers, ['Authorization', `Bearer ${token}`]]);
            if (request.body) headers['Content-Type'] = request.body.contentType;
            return fetch(request.url, { method: request.method, headers, body: request.body?.text });
          };
          let response = await send(mock.token);
          let answer = await response.text();
          // The checker cannot know who sends a request; the docs' roles are the mock's to apply
          // (document B: a submission's "caller must be a student"): the student sends it again.
          if (response.status === 403 && answer.includes('"not-a-student"')) {
            response = await send(STUDENT_TOKEN);
            answer = await response.text();
          }
          sent++;
          const expected = errors.includes('unknown-endpoint')
            ? 404
            : errors.includes('method-not-allowed')
              ? 405
              : errors.length > 0
                ? 400
                : undefined;
          if (expected !== undefined && response.status !== expected)
            problems.push(`${where}: checker errors ${errors.join(', ')}, mock answered ${response.status}`);
          if (expected === undefined && (response.status < 200 || response.status > 299))
            problems.push(`${where}: no checker error, mock answered ${response.status} ${answer.slice(0, 200)}`);
          if (request.name && response.ok) bodies.set(request.name, JSON.parse(answer) as unknown);
        }
      }
      assert.ok(sent >= 30, `${sent} requests sent`);
      assert.deepEqual(problems, []);
    },
    { token: 'conformance', userTokens: [{ userId: 1001, token: STUDENT_TOKEN }] },
  ));
