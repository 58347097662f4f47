/** The language server in this process over a pair of streams, and a client of it with the capabilities a test gives. */
import { PassThrough } from 'node:stream';
import {
  createConnection,
  createMessageConnection,
  StreamMessageReader,
  StreamMessageWriter,
  type ClientCapabilities,
  type MessageConnection,
  type ServerCapabilities,
} from 'vscode-languageserver/node';
import { startServer } from '../../server/src/lsp/server';

export interface InProcessServer {
  client: MessageConnection;
  /** The server's completion trigger characters. */
  triggers: string[];
  /** The capabilities the server announced. */
  capabilities: ServerCapabilities;
  /** Every notification the server sent, in order. */
  notifications: { method: string; params: unknown }[];
  close(): void;
}

export async function inProcessServer(
  capabilities: ClientCapabilities,
  initializationOptions: Record<string, unknown> = {},
  rootUri: string | null = null,
): Promise<InProcessServer> {
  const toServer = new PassThrough();
  const toClient = new PassThrough();
  const server = createConnection(new StreamMessageReader(toServer), new StreamMessageWriter(toClient));
  startServer(server, { debounceMs: 0 });
  const client = createMessageConnection(new StreamMessageReader(toClient), new StreamMessageWriter(toServer));
  const notifications: { method: string; params: unknown }[] = [];
  client.onNotification((method: string, params: unknown) => {
    notifications.push({ method, params });
  });
  client.onRequest(() => null);
  client.listen();
  const result = (await client.sendRequest('initialize', {
    processId: null,
    rootUri,
    capabilities,
    initializationOptions,
  })) as { capabilities: ServerCapabilities & { completionProvider: { triggerCharacters: string[] } } };
  await client.sendNotification('initialized', {});
  return {
    client,
    triggers: result.capabilities.completionProvider.triggerCharacters,
    capabilities: result.capabilities,
    notifications,
    close: () => {
      client.dispose();
      server.dispose();
      toServer.destroy();
      toClient.destroy();
    },
  };
}
