/**
 * The MCP server's stdio transport: one JSON-RPC message a line, as the SDK's
 * StdioServerTransport reads them, with what a server given any input needs besides. A line
 * over the size limit is dropped as it arrives (never held whole) and answered with an
 * error, as is a line that is not a JSON-RPC message; the server goes on. Every message
 * written passes the scrubber first: the one place where every answer leaves.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/** The largest message read: a request file or a response body to type fits well under it. */
const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export interface LineStreams {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
}

export class ScrubbedStdioTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;

  private parts: Buffer[] = [];
  private size = 0;
  /** A line over the limit is being passed over up to its end. */
  private skipping = false;
  private closed = false;

  constructor(
    private readonly streams: LineStreams,
    private readonly scrub: (message: JSONRPCMessage) => JSONRPCMessage,
    private readonly limit = MAX_MESSAGE_BYTES,
  ) {}

  private readonly onData = (chunk: Buffer | string) =>
    this.take(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  private readonly onEnd = () => void this.close();
  private readonly onError = (e: Error) => this.onerror?.(e);

  start(): Promise<void> {
    this.streams.input.on('data', this.onData);
    this.streams.input.on('end', this.onEnd);
    this.streams.input.on('error', this.onError);
    return Promise.resolve();
  }

  private take(chunk: Buffer): void {
    let from = 0;
    while (from < chunk.length) {
      const nl = chunk.indexOf(0x0a, from);
      const end = nl === -1 ? chunk.length : nl;
      if (!this.skipping) {
        if (this.size + (end - from) > this.limit) {
          this.parts = [];
          this.size = 0;
          this.skipping = true;
          this.refuse(-32600, `a message over ${this.limit} bytes was not read`);
        } else {
          this.parts.push(chunk.subarray(from, end));
          this.size += end - from;
        }
      }
      if (nl === -1) return;
      if (!this.skipping) this.line(Buffer.concat(this.parts).toString('utf8').replace(/\r$/, ''));
      this.parts = [];
      this.size = 0;
      this.skipping = false;
      from = nl + 1;
    }
  }

  private line(text: string): void {
    if (text.trim() === '') return;
    let message: JSONRPCMessage;
    try {
      message = JSONRPCMessageSchema.parse(JSON.parse(text));
    } catch {
      this.refuse(
        -32700,
        'not a JSON-RPC message: each line must be one JSON-RPC 2.0 request, notification or response',
      );
      return;
    }
    this.onmessage?.(message);
  }

  /** An error answer to a message that could not be read (its id unknown: null, as JSON-RPC says). */
  private refuse(code: number, message: string): void {
    this.write({ jsonrpc: '2.0', id: null, error: { code, message } } as unknown as JSONRPCMessage);
  }

  send(message: JSONRPCMessage): Promise<void> {
    this.write(this.scrub(message));
    return Promise.resolve();
  }

  private write(message: JSONRPCMessage): void {
    if (this.closed) return;
    this.streams.output.write(`${JSON.stringify(message)}\n`);
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    this.streams.input.off('data', this.onData);
    this.streams.input.off('end', this.onEnd);
    this.streams.input.off('error', this.onError);
    this.onclose?.();
    return Promise.resolve();
  }
}
