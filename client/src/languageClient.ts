/**
 * The language server of the bundle (dist/server.js), started over IPC and restarted by
 * the client library when it dies, up to a limit.
 */
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  TransportKind,
  type ErrorHandler,
  type LanguageClientOptions,
  type ServerOptions,
} from 'vscode-languageclient/node';

const RESTART_WINDOW_MS = 3 * 60 * 1000;
const MAX_RESTARTS = 5;

/** Restarts the server after a crash, unless it crashed MAX_RESTARTS times within the window. */
function restartingErrorHandler(output: vscode.LogOutputChannel): ErrorHandler {
  const crashes: number[] = [];
  return {
    error: (error, _message, count) => {
      output.error(`language server connection error: ${error.message}`);
      return { action: count !== undefined && count > 3 ? ErrorAction.Shutdown : ErrorAction.Continue };
    },
    closed: () => {
      const now = Date.now();
      crashes.push(now);
      while (crashes.length > 0 && crashes[0] < now - RESTART_WINDOW_MS) crashes.shift();
      if (crashes.length > MAX_RESTARTS) {
        return {
          action: CloseAction.DoNotRestart,
          message: `The lpreq language server stopped ${MAX_RESTARTS} times in 3 minutes and was not started again. Run "lpreq: Restart Language Server" to try once more.`,
        };
      }
      output.warn('the language server stopped; starting it again');
      return { action: CloseAction.Restart, handled: true };
    },
  };
}

export function createLanguageClient(
  context: vscode.ExtensionContext,
  output: vscode.LogOutputChannel,
): LanguageClient {
  const module = context.asAbsolutePath('dist/server.js');
  const serverOptions: ServerOptions = {
    run: { module, transport: TransportKind.ipc },
    debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [{ language: 'lpreq' }],
    outputChannel: output,
    // VS Code runs its own command to open completion again after a path segment or a parameter name (docs/editors.md).
    // The extension shows its own code lenses and runs its own send commands (sendController.ts): the
    // server's would be shown twice, and VS Code refuses a command id registered twice.
    // The environment is each project's, as the send session's rule answers it: the server reads the same choice.
    initializationOptions: { triggerSuggestCommand: 'editor.action.triggerSuggest', clientLenses: true },
    errorHandler: restartingErrorHandler(output),
  };
  return new LanguageClient('lpreq', 'lpreq language server', serverOptions, clientOptions);
}
