/**
 * The extension registers lpreq's MCP server only where the editor has the API (issue 31,
 * item 3): the detection on objects shaped like editors with and without it, and the
 * command it registers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hasMcpServerApi, mcpServerCommand } from '../../client/src/model/mcpDefinition';

test('an editor with the MCP server definition API is told from one without it', () => {
  class Definition {}
  const register = () => ({ dispose() {} });
  assert.equal(
    hasMcpServerApi({ lm: { registerMcpServerDefinitionProvider: register }, McpStdioServerDefinition: Definition }),
    true,
  );
  // VS Code before 1.101: a language model namespace without it, or none at all.
  assert.equal(hasMcpServerApi({ lm: {}, McpStdioServerDefinition: Definition }), false);
  assert.equal(hasMcpServerApi({}), false);
  assert.equal(hasMcpServerApi({ lm: { registerMcpServerDefinitionProvider: register } }), false);
  assert.equal(
    hasMcpServerApi({ lm: { registerMcpServerDefinitionProvider: 'yes' }, McpStdioServerDefinition: Definition }),
    false,
  );
});

test("the server of a folder: the editor's Node.js, the bundle, the folder as root", () => {
  const one = mcpServerCommand('/opt/code/code', '/ext', { name: 'lms', path: '/src/lms' }, true);
  assert.deepEqual(one, {
    label: 'lpreq',
    command: '/opt/code/code',
    args: ['/ext/dist/mcp.js', '--root', '/src/lms'],
    env: { ELECTRON_RUN_AS_NODE: '1' },
  });
  assert.equal(mcpServerCommand('/n', '/ext', { name: 'lms', path: '/src/lms' }, false).label, 'lpreq (lms)');
});
