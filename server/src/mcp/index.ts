/**
 * The MCP server (`lpreq mcp`): a host of the language core, the sender and the mock for
 * coding agents. Code outside mcp/ imports it through this file.
 */
export { serveStdio } from './server';
export type { McpOptions } from './toolContext';
