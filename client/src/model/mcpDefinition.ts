/**
 * lpreq's MCP server as the editor's agent starts it, one a workspace folder, and whether
 * the editor has the API to register it (VS Code 1.101 and later; an older editor or one
 * without it, the extension registers nothing and docs/agents.md says how to configure it by
 * hand). Without `vscode`: the detection is tested on objects shaped like the editor's.
 */

/** What the detection reads of the `vscode` module. */
export interface McpEditorApi {
  lm?: { registerMcpServerDefinitionProvider?: unknown };
  McpStdioServerDefinition?: unknown;
}

/** Whether the editor can take an MCP server definition provider. */
export function hasMcpServerApi(api: McpEditorApi): boolean {
  return (
    typeof api.lm === 'object' &&
    api.lm !== null &&
    typeof api.lm.registerMcpServerDefinitionProvider === 'function' &&
    typeof api.McpStdioServerDefinition === 'function'
  );
}

export interface McpServerCommand {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string>;
}

/**
 * The command of the server for a workspace folder: the editor's own Node.js (the extension
 * host's executable, run as Node), the bundle in the extension's `dist`, the folder as its root.
 */
export function mcpServerCommand(
  execPath: string,
  extensionPath: string,
  folder: { name: string; path: string },
  single: boolean,
): McpServerCommand {
  return {
    label: single ? 'lpreq' : `lpreq (${folder.name})`,
    command: execPath,
    args: [`${extensionPath}/dist/mcp.js`, '--root', folder.path],
    // Electron's executable runs a script as Node only when told; Node ignores it.
    env: { ELECTRON_RUN_AS_NODE: '1' },
  };
}
