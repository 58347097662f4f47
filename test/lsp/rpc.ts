/**
 * A minimal JSON-RPC client over a child process's stdio, framed with Content-Length
 * headers as an editor does. Used by the protocol tests and the benchmark.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';

export interface Message {
  jsonrpc: '2.0';
  id?: number | string;
  method?: string;
  params?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

export const ROOT = join(__dirname, '..', '..');

export class LspClient {
  readonly process: ChildProcessWithoutNullStreams;
  private buffer: Buffer = Buffer.alloc(0);
  /** The chunks of a message not yet whole, their length, and the length it needs. */
  private waiting: Buffer[] = [];
  private waitingLength = 0;
  private needed = 0;
  private messageStartedAt = 0;
  /** When the first byte of the last message read arrived (performance.now()): a server's answer is out then, whatever its size. */
  lastMessageStartedAt = 0;
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (m: Message) => void; reject: (e: Error) => void; timer: NodeJS.Timeout }
  >();
  private readonly listeners: ((m: Message) => void)[] = [];
  readonly notifications: Message[] = [];
  stderr = '';
  /** What the server answered to initialize (its capabilities). */
  initializeResult: unknown;
  /** The answer to a request from the server (showMessageRequest, showDocument...); null without it. */
  answer?: (request: Message) => unknown;

  /**
   * Starts `node args` by default; `options.command` starts another program (`npx`), and
   * `options.detached` gives it a process group of its own that kill() ends whole (npx runs
   * the server as a child of its own).
   */
  constructor(
    args: string[] = [join(ROOT, 'bin', 'lpreq.js'), 'lsp', '--stdio'],
    cwd = ROOT,
    private readonly options: { command?: string; env?: NodeJS.ProcessEnv; detached?: boolean } = {},
  ) {
    this.process = spawn(options.command ?? process.execPath, args, {
      cwd,
      env: options.env ?? process.env,
      detached: options.detached ?? false,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.process.stdout.on('data', (chunk: Buffer) => this.onData(chunk));
    this.process.stderr.on('data', (chunk: Buffer) => {
      this.stderr += chunk.toString();
    });
  }

  private onData(chunk: Buffer) {
    // A large message (the code lenses of a large document) comes in many chunks: they are
    // joined once it is whole, not at every chunk (which copies megabytes again and again).
    if (this.buffer.length === 0 && this.needed === 0) this.messageStartedAt = performance.now();
    if (this.needed > 0 && this.waiting.length > 0) {
      this.waiting.push(chunk);
      this.waitingLength += chunk.length;
      if (this.waitingLength < this.needed) return;
      chunk = Buffer.concat(this.waiting);
      this.waiting = [];
      this.waitingLength = 0;
    }
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    this.needed = 0;
    for (;;) {
      const headerEnd = this.buffer.indexOf('\r\n\r\n');
      if (headerEnd === -1) return;
      const header = this.buffer.subarray(0, headerEnd).toString('ascii');
      const m = /Content-Length: (\d+)/i.exec(header);
      if (!m) throw new Error(`bad header: ${header}`);
      const length = Number(m[1]);
      if (this.buffer.length < headerEnd + 4 + length) {
        // Kept aside until the whole message is here.
        this.needed = headerEnd + 4 + length;
        this.waiting = [this.buffer];
        this.waitingLength = this.buffer.length;
        this.buffer = Buffer.alloc(0);
        return;
      }
      const body = this.buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(headerEnd + 4 + length);
      this.lastMessageStartedAt = this.messageStartedAt;
      this.messageStartedAt = performance.now();
      this.dispatch(JSON.parse(body) as Message);
    }
  }

  private dispatch(message: Message) {
    if (message.id !== undefined && message.method === undefined) {
      const p = this.pending.get(Number(message.id));
      if (p) {
        clearTimeout(p.timer);
        this.pending.delete(Number(message.id));
        p.resolve(message);
      }
      return;
    }
    if (message.id !== undefined && message.method !== undefined) {
      // A request from the server (client/registerCapability, workspace/configuration): answer null, or what the test says.
      Promise.resolve(this.answer ? this.answer(message) : null).then(
        (result) => this.write({ jsonrpc: '2.0', id: message.id, result: result ?? null }),
        (e: unknown) => this.write({ jsonrpc: '2.0', id: message.id, error: { code: -32603, message: String(e) } }),
      );
    }
    this.notifications.push(message);
    for (const l of [...this.listeners]) l(message);
  }

  write(message: Message) {
    const body = Buffer.from(JSON.stringify(message), 'utf8');
    this.process.stdin.write(`Content-Length: ${body.length}\r\n\r\n`);
    this.process.stdin.write(body);
  }

  /**
   * Sends messages in one write, so that the server reads them together: all of them are in
   * its queue before the first request's handler yields. Requests (with `request: true`) get
   * a promise of their answer, in order; notifications none.
   */
  together(messages: { method: string; params: unknown; request?: boolean }[], timeoutMs = 10000): Promise<unknown>[] {
    const frames: Buffer[] = [];
    const answers: Promise<unknown>[] = [];
    for (const m of messages) {
      const id = m.request ? this.nextId++ : undefined;
      const body = Buffer.from(
        JSON.stringify({ jsonrpc: '2.0', ...(id !== undefined ? { id } : {}), method: m.method, params: m.params }),
        'utf8',
      );
      frames.push(Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body);
      if (id === undefined) continue;
      answers.push(
        new Promise((resolve, reject) => {
          const timer = setTimeout(() => {
            this.pending.delete(id);
            reject(new Error(`${m.method}: no answer in ${timeoutMs} ms`));
          }, timeoutMs);
          this.pending.set(id, {
            resolve: (r) => (r.error ? reject(new Error(`${m.method}: ${r.error.message}`)) : resolve(r.result)),
            reject,
            timer,
          });
        }),
      );
    }
    this.process.stdin.write(Buffer.concat(frames));
    return answers;
  }

  /** The id the next request gets (to cancel it with `$/cancelRequest`). */
  get nextRequestId(): number {
    return this.nextId;
  }

  request<T = unknown>(method: string, params: unknown, timeoutMs = 10000): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method}: no answer in ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(id, {
        resolve: (m) =>
          m.error
            ? reject(Object.assign(new Error(`${method}: ${m.error.message}`), { code: m.error.code }))
            : resolve(m.result as T),
        reject,
        timer,
      });
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  notify(method: string, params: unknown) {
    this.write({ jsonrpc: '2.0', method, params });
  }

  /** Waits for the next notification that satisfies `accept`. */
  waitFor(accept: (m: Message) => boolean, timeoutMs = 10000): Promise<Message> {
    return new Promise<Message>((resolve, reject) => {
      const listener = (m: Message) => {
        if (!accept(m)) return;
        clearTimeout(timer);
        this.listeners.splice(this.listeners.indexOf(listener), 1);
        resolve(m);
      };
      const timer = setTimeout(() => {
        this.listeners.splice(this.listeners.indexOf(listener), 1);
        reject(new Error(`no matching notification in ${timeoutMs} ms`));
      }, timeoutMs);
      this.listeners.push(listener);
    });
  }

  /** The next publishDiagnostics for `uri` (with `version` when given). */
  diagnostics(
    uri: string,
    version?: number,
    timeoutMs = 10000,
  ): Promise<{
    uri: string;
    version?: number;
    diagnostics: { code: string; range: { start: { line: number; character: number } } }[];
  }> {
    return this.waitFor((m) => {
      if (m.method !== 'textDocument/publishDiagnostics') return false;
      const p = m.params as { uri: string; version?: number };
      return p.uri === uri && (version === undefined || p.version === version);
    }, timeoutMs).then((m) => m.params as never);
  }

  async initialize(
    initializationOptions: unknown = {},
    rootUri: string | null = null,
    workspaceCapabilities: Record<string, unknown> = {},
    windowCapabilities: Record<string, unknown> = {},
  ) {
    const result = await this.request('initialize', {
      processId: process.pid,
      rootUri,
      capabilities: {
        workspace: { didChangeWatchedFiles: { dynamicRegistration: true }, ...workspaceCapabilities },
        textDocument: { completion: { completionItem: { snippetSupport: true } }, codeLens: {} },
        window: windowCapabilities,
      },
      initializationOptions,
    });
    this.initializeResult = result;
    this.notify('initialized', {});
    return result;
  }

  async shutdown(timeoutMs = 3000) {
    try {
      await this.request('shutdown', null, timeoutMs);
      this.notify('exit', null);
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, timeoutMs);
        this.process.once('exit', () => {
          clearTimeout(t);
          resolve();
        });
      });
    } finally {
      this.kill();
    }
  }

  kill() {
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
    if (this.options.detached && this.process.pid !== undefined) {
      try {
        process.kill(-this.process.pid, 'SIGKILL');
      } catch {
        // The group has already gone.
      }
    } else if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGKILL');
  }
}
