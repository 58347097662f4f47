/**
 * Registers `lpreq mcp` with the editor's agent (the MCP server definition API), so that
 * installing the extension is enough: one server a workspace folder, each answering for that
 * folder. Where the editor lacks the API, nothing is registered (model/mcpDefinition.ts).
 */
import * as vscode from 'vscode';
import { hasMcpServerApi, mcpServerCommand, type McpEditorApi } from './model/mcpDefinition';

/** The part of the API this uses, which @types/vscode of the oldest supported editor lacks. */
interface McpApi {
  lm: {
    registerMcpServerDefinitionProvider(
      id: string,
      provider: {
        onDidChangeMcpServerDefinitions?: vscode.Event<void>;
        provideMcpServerDefinitions(): unknown[];
      },
    ): vscode.Disposable;
  };
  McpStdioServerDefinition: new (
    label: string,
    command: string,
    args?: string[],
    env?: Record<string, string>,
    version?: string,
  ) => { cwd?: vscode.Uri };
}

/** The provider's id, as package.json's `contributes.mcpServerDefinitionProviders` names it. */
const PROVIDER_ID = 'lpreq.mcp';

export function registerMcpServer(context: vscode.ExtensionContext, output: vscode.LogOutputChannel): void {
  const api = vscode as unknown as McpEditorApi;
  if (!hasMcpServerApi(api)) {
    output.info('this editor has no MCP server definition API: lpreq mcp is not registered (docs/agents.md)');
    return;
  }
  const mcp = vscode as unknown as McpApi;
  const changed = new vscode.EventEmitter<void>();
  const version = (context.extension.packageJSON as { version?: string }).version;
  context.subscriptions.push(
    changed,
    vscode.workspace.onDidChangeWorkspaceFolders(() => changed.fire()),
    mcp.lm.registerMcpServerDefinitionProvider(PROVIDER_ID, {
      onDidChangeMcpServerDefinitions: changed.event,
      provideMcpServerDefinitions: () => {
        const folders = vscode.workspace.workspaceFolders ?? [];
        return folders.map((folder) => {
          const c = mcpServerCommand(
            process.execPath,
            context.extensionPath,
            { name: folder.name, path: folder.uri.fsPath },
            folders.length === 1,
          );
          const definition = new mcp.McpStdioServerDefinition(c.label, c.command, c.args, c.env, version);
          definition.cwd = folder.uri;
          return definition;
        });
      },
    }),
  );
  output.info("lpreq mcp is registered for the editor's agent");
}
