/**
 * Entry of dist/server.js, the server the VS Code client starts. The transport comes from
 * the command line the client passes (`--node-ipc`, `--stdio` or `--socket=N`).
 */
import { createConnection, ProposedFeatures } from './protocol';
import { startServer } from './server';

startServer(createConnection(ProposedFeatures.all));
