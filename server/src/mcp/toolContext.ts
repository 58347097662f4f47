/**
 * What a tool of the MCP server is given (server.ts makes it; the tools' modules read it).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type * as z from 'zod';
import type { LanguageService } from '../core/index';
import type { Workspace } from './workspace';

export interface McpOptions {
  /** The workspace root: the server reads and writes only inside it. */
  root: string;
  /** The process environment: LPREQ_TOKEN (kept out of every answer), LPREQ_TOKEN_ORIGIN, proxies. */
  env: NodeJS.ProcessEnv;
  /** A line for the log (standard error), already scrubbed. */
  log: (line: string) => void;
}

/** The parts of the server a tool needs. */
export interface ToolContext {
  server: McpServer;
  /** The language service over the bundled catalog, made on first use (the server answers `initialize` without it). */
  service: () => LanguageService;
  workspace: Workspace;
  options: McpOptions;
  /** Registers a tool whose handler gives a text and a structured answer; errors become tool errors. */
  tool: RegisterTool;
}

type Shape = z.ZodRawShape;
type Answer<O extends Shape> = { text: string; data: z.infer<z.ZodObject<O>> };
export type RegisterTool = <I extends Shape, O extends Shape>(
  name: string,
  config: { title: string; description: string; input: I; output: O; readOnly: boolean; openWorld?: boolean },
  run: (args: z.infer<z.ZodObject<I>>, signal: AbortSignal) => Answer<O> | Promise<Answer<O>>,
  limitMs?: number,
) => void;
