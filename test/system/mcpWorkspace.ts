/**
 * A repository that is not ours, as an MCP test meets it: environments `dev` and `staging`
 * (protected), a token for each in the private file, requests that chain, a link that
 * points out of the workspace.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers';

export const TOKENS = {
  dev: 'dev-Tok3n-4a7f9c2e81d6b5',
  staging: 'stg-Tok3n-9e1b7d3f60a2c4',
  process: 'env-Tok3n-5c8e2a9f1b7d34',
  prompt: 'prompt-Ans-7f3a9c1e5b2d8',
};

export const MODULES_FILE = `### Create a module
# @name createModule
POST {{base_url}}/api/v1/courses/{{course_id}}/modules

module[name] = Week 1
?? status == 200
?? body $.name == Week 1

### Add an assignment to it
# @name addItem
POST {{base_url}}/api/v1/courses/{{course_id}}/modules/{{createModule.response.body.$.id}}/items

module_item[type] = Assignment
module_item[content_id] = 12
module_item[completion_requirement][type] = must_submit
?? status == 200
?? body $.type == Assignment
`;

export function makeWorkspace(baseUrl = 'http://127.0.0.1:9'): string {
  const root = tempDir('mcp-ws');
  mkdirSync(join(root, '.git'));
  mkdirSync(join(root, 'requests'));
  writeFileSync(
    join(root, 'http-client.env.json'),
    JSON.stringify({
      dev: { base_url: baseUrl, course_id: '7' },
      staging: { base_url: baseUrl, course_id: '8', $protected: true },
    }),
  );
  writeFileSync(
    join(root, 'http-client.private.env.json'),
    JSON.stringify({ dev: { token: TOKENS.dev }, staging: { token: TOKENS.staging } }),
  );
  writeFileSync(join(root, 'requests', 'modules.lpreq'), MODULES_FILE);
  writeFileSync(
    join(root, 'requests', 'mistake.lpreq'),
    'POST /api/v1/courses/1/modules/2/items\n\nmodule_item[type] = Assignment\nmodule_item[content_id] = 3\nmodule_item[completion_requirement][type] = must_sumbit\n',
  );
  const outside = tempDir('mcp-outside');
  writeFileSync(join(outside, 'secret.lpreq'), 'GET /api/v1/courses\n');
  symlinkSync(join(outside, 'secret.lpreq'), join(root, 'requests', 'linked.lpreq'));
  return root;
}
