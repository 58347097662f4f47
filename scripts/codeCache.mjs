// Writes the V8 code cache of the command line's bundles (dist/NAME.cache), read by
// bin/loadBundle.js. Each bundle runs once on a typical job (checking examples/, a short
// language server session) so that the cache holds the functions a real run compiles, not
// only the top level. Failing here never fails the build: lpreq then compiles from source.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const runner = join(root, 'scripts', 'codeCacheRun.cjs');
const examples = join(root, 'examples');

function run(bundle, args, drive) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [runner, join(root, 'dist', bundle), ...args], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${bundle}: the warm-up run took more than 30 s`));
    }, 30_000);
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0 || code === 1) resolve();
      else reject(new Error(`${bundle}: the warm-up run exited with ${code}: ${stderr.trim().split('\n')[0]}`));
    });
    if (drive) drive(child);
    else {
      child.stdout.resume();
      child.stdin.end();
    }
  });
}

/** A short editor session: open every example as one document, ask for completion and hover, wait for diagnostics, exit. */
function lspSession(child) {
  // Files only: `lpreq send` keeps its history in examples/.lpreq/, a folder.
  const text = readdirSync(examples, { withFileTypes: true })
    .filter((f) => f.isFile() && f.name.endsWith('.lpreq'))
    .map((f) => readFileSync(join(examples, f.name), 'utf8'))
    .join('\n');
  const uri = 'file:///warm-up.lpreq';
  let id = 0;
  const write = (message) => {
    const body = JSON.stringify(message);
    child.stdin.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  };
  const send = (method, params, notification = false) =>
    write(notification ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', id: ++id, method, params });
  let buffer = Buffer.alloc(0);
  let phase = 0;
  child.stdout.on('data', (chunk) => {
    buffer = Buffer.concat([buffer, chunk]);
    for (;;) {
      const headerEnd = buffer.indexOf('\r\n\r\n');
      if (headerEnd === -1) return;
      const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, headerEnd).toString())?.[1]);
      if (buffer.length < headerEnd + 4 + length) return;
      const message = JSON.parse(buffer.subarray(headerEnd + 4, headerEnd + 4 + length).toString());
      buffer = buffer.subarray(headerEnd + 4 + length);
      // The server's own requests (configuration, registrations) get an empty answer.
      if (message.id !== undefined && message.method) write({ jsonrpc: '2.0', id: message.id, result: null });
      if (phase === 0 && message.id === 1) {
        phase = 1;
        send('initialized', {}, true);
        send('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text } }, true);
        const lines = text.split('\n');
        for (const line of [1, Math.floor(lines.length / 2), lines.length - 1]) {
          send('textDocument/completion', { textDocument: { uri }, position: { line, character: lines[line].length } });
          send('textDocument/hover', { textDocument: { uri }, position: { line, character: 1 } });
        }
      } else if (phase === 1 && message.method === 'textDocument/publishDiagnostics') {
        phase = 2;
        send('shutdown', null);
      } else if (phase === 2 && message.result === null && message.id === id) {
        send('exit', null, true);
      }
    }
  });
  send('initialize', { processId: null, rootUri: null, capabilities: {} });
}

/** A short agent session: initialize, list the tools, search, describe, check a request; then standard input ends. */
function mcpSession(child) {
  let id = 0;
  const send = (method, params) =>
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: ++id, method, params })}\n`);
  const calls = [
    ['tools/list', {}],
    ['tools/call', { name: 'search_endpoints', arguments: { query: 'create a module item' } }],
    [
      'tools/call',
      { name: 'describe_endpoint', arguments: { method: 'POST', path: '/api/v1/courses/1/modules/2/items' } },
    ],
    ['tools/call', { name: 'check_request', arguments: { text: 'GET /api/v1/courses/1/modules?include[]=itemz\n' } }],
    [
      'tools/call',
      {
        name: 'type_response',
        arguments: { method: 'GET', path: '/api/v1/courses/1/modules/2', status: 200, body: { id: 1 } },
      },
    ],
  ];
  let buffer = '';
  child.stdout.on('data', (chunk) => {
    buffer += chunk;
    for (let nl = buffer.indexOf('\n'); nl !== -1; nl = buffer.indexOf('\n')) {
      buffer = buffer.slice(nl + 1);
      const next = calls.shift();
      if (next) send(...next);
      else child.stdin.end();
    }
  });
  send('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'warm-up', version: '1' },
  });
}

const jobs = [
  { bundle: 'lpreq.js', args: ['check', '--format', 'json', examples] },
  { bundle: 'lsp.js', args: ['--stdio'], drive: lspSession },
  { bundle: 'mcp.js', args: [], drive: mcpSession },
];
for (const job of jobs) {
  // A fresh build id ends the bundle; the cache starts with it (bin/loadBundle.js compares them).
  const bundle = join(root, 'dist', job.bundle);
  appendFileSync(bundle, `\n//# lpreqBuild=${randomBytes(16).toString('hex')}\n`);
  try {
    await run(job.bundle, job.args, job.drive);
  } catch (e) {
    rmSync(join(root, 'dist', job.bundle.replace(/\.js$/, '.cache')), { force: true });
    console.warn(`code cache: ${e.message}; ${job.bundle} will compile from source`);
  }
}
