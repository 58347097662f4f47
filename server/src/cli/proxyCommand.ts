/**
 * `lpreq proxy --target URL [--port 4020] [--report FILE] [--strict] [--scopes FILE]` (bundled to
 * dist/proxy.js): the checking proxy until SIGINT or SIGTERM. One line per exchange on
 * standard error; with `--report`, one JSON line per exchange, or SARIF 2.1.0 when the file
 * ends in `.sarif` (written when the proxy stops). What a record may hold was decided by the
 * proxy (no header, no query value, no credential); here it is made printable.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { resolve } from 'node:path';
import { PROXY_CODES, startProxy, type ExchangeRecord, type RunningProxy } from '../proxy/index';
import { isLoopback } from '../sender/index';
import { bundledCatalog } from '../catalogData';
import { flagValue, parseArgs, UsageError } from './args';
import type { Io } from './check';
import { HELP_FLAG, helpText, type CommandHelp } from './help';
import { requestLine } from './requestLog';
import { readScopesOption } from './scopeList';
import { diagnosticRules, sarifLog, type SarifResult } from './sarif';
import { printable, printableErrors } from './terminalText';

export const PROXY_HELP: CommandHelp = {
  usage: 'usage: lpreq proxy --target URL [--port 4020] [--report FILE] [--strict]',
  summary:
    "Forwards an integration's requests to an instance (or the mock) and checks each request and typed answer against the documentation, until Ctrl-C.",
  flags: {
    target: { value: true, arg: 'URL', help: 'the instance to forward to, such as https://lms.example.edu (required)' },
    port: { value: true, arg: 'PORT', help: 'the port to listen on, on 127.0.0.1 (default 4020; 0 picks a free one)' },
    report: { value: true, arg: 'FILE', help: 'write each exchange as a JSON line, or SARIF when FILE ends in .sarif' },
    strict: { help: 'answer a request with errors with 400 instead of forwarding it' },
    scopes: {
      value: true,
      arg: 'FILE',
      help: "the token's scopes (a JSON list, as lpreq scopes --format json prints): report a request outside them",
    },
    help: HELP_FLAG,
  },
  examples: [
    'lpreq proxy --target https://staging.lms.example.edu',
    'lpreq proxy --target http://127.0.0.1:4010 --port 4011 --report lpreq.sarif --strict',
  ],
};

/** Results a SARIF report keeps; past this the run says how many it left out (the file is written once, at the end). */
const MAX_SARIF_RESULTS = 50_000;

function targetUrl(text: string): URL {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new UsageError(
      `--target must be an http or https URL such as https://lms.example.edu, not '${printable(text)}'`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UsageError(`--target must be an http or https URL, not ${url.protocol}`);
  // A password in the URL would be printed with it, and the proxy holds no credential: the client sends its own.
  if (url.username !== '' || url.password !== '')
    throw new UsageError(
      '--target must not hold a user name or password: clients send their own Authorization through the proxy',
    );
  if (url.search !== '' || url.hash !== '')
    throw new UsageError(
      '--target must not have a query or a fragment: give the origin, and a base path if the API is under one',
    );
  return url;
}

/**
 * Where the exchanges go besides the terminal: JSON lines as they happen, or SARIF when the
 * proxy stops. A write that fails (a full disk, a quota, an I/O error) is told once through
 * `onFailure`, and the report is written no more; the proxy goes on proxying, and `failed`
 * makes its exit code 2 when it stops: the report the run was asked for is not whole.
 */
class Report {
  private readonly fd: number;
  private readonly sarif: boolean;
  private readonly results: SarifResult[] = [];
  private left = 0;
  /** Why the report could not be written, once it could not. */
  failed: string | undefined;

  constructor(
    readonly path: string,
    cwd: string,
    private readonly onFailure: (message: string) => void,
  ) {
    this.sarif = /\.sarif$/i.test(path);
    try {
      this.fd = openSync(resolve(cwd, path), 'w');
    } catch (e) {
      throw new UsageError(`cannot write the report ${path}: ${(e as Error).message}`);
    }
  }

  /** Writes all of `text`, or fails once: nothing more is written after a failure. */
  private write(text: string): void {
    if (this.failed !== undefined) return;
    try {
      const bytes = Buffer.from(text, 'utf8');
      for (let at = 0; at < bytes.length;) at += writeSync(this.fd, bytes, at, bytes.length - at);
    } catch (e) {
      this.failed = `cannot write the report ${this.path}: ${(e as Error).message}; it is incomplete, and no more is written to it (the proxy goes on, and exits with 2 when stopped)`;
      this.onFailure(this.failed);
    }
  }

  add(record: ExchangeRecord) {
    if (!this.sarif) {
      this.write(`${JSON.stringify(record)}\n`);
      return;
    }
    for (const v of record.violations) {
      if (this.results.length >= MAX_SARIF_RESULTS) {
        this.left++;
        continue;
      }
      const where =
        v.parameter !== undefined ? ` (parameter ${v.parameter})` : v.path !== undefined ? ` (response ${v.path})` : '';
      this.results.push({
        ruleId: v.code,
        severity: v.severity,
        message: `${record.method} ${record.target} ${record.status === 0 ? '-' : record.status}: ${v.message}${where}`,
        locations: [
          {
            logicalLocations: [
              {
                name: record.endpoint ?? record.target,
                fullyQualifiedName: `${record.method} ${record.target}`,
                kind: 'resource',
              },
            ],
          },
        ],
        properties: {
          time: record.time,
          status: record.status,
          in: v.in,
          ...(v.parameter !== undefined ? { parameter: v.parameter } : {}),
          ...(v.path !== undefined ? { path: v.path } : {}),
        },
      });
    }
  }

  close() {
    if (this.sarif) {
      const rules = [...diagnosticRules(), ...[...PROXY_CODES].map(([id, c]) => ({ id, ...c }))];
      const invocation = {
        executionSuccessful: true,
        ...(this.left > 0
          ? {
              toolExecutionNotifications: [
                { level: 'warning', message: { text: `${this.left} more results were left out of this report` } },
              ],
            }
          : {}),
      };
      this.write(`${JSON.stringify(sarifLog({ rules, results: this.results, invocation }), null, 2)}\n`);
    }
    try {
      closeSync(this.fd);
    } catch (e) {
      // A file system that reports a failed write only at close (NFS).
      if (this.failed === undefined) {
        this.failed = `cannot write the report ${this.path}: ${(e as Error).message}`;
        this.onFailure(this.failed);
      }
    }
  }
}

export async function run(argv: string[], given: Io): Promise<number> {
  const io = printableErrors(given);
  try {
    const args = parseArgs(argv, PROXY_HELP.flags);
    if (args.flags.has('help')) {
      io.stdout(helpText(PROXY_HELP));
      return 0;
    }
    if (args.positionals.length > 0)
      throw new UsageError(`unexpected argument '${args.positionals[0]}'\n${PROXY_HELP.usage}`);
    const targetText = flagValue(args, 'target');
    if (targetText === undefined)
      throw new UsageError(`--target is required: the instance (or mock) to forward to\n${PROXY_HELP.usage}`);
    const target = targetUrl(targetText);
    const portText = flagValue(args, 'port') ?? '4020';
    const port = /^\d+$/.test(portText) ? Number(portText) : NaN;
    if (!(port >= 0 && port <= 65535))
      throw new UsageError(`--port must be a port number (0 to 65535), not '${portText}'`);
    // The scopes of the clients' token: a request that needs another is reported (scope-not-granted).
    const scopesPath = flagValue(args, 'scopes');
    const scopes =
      scopesPath === undefined
        ? undefined
        : readScopesOption(scopesPath, io.cwd, bundledCatalog(), (m) => io.stderr(`lpreq proxy: warning: ${m}\n`));
    const reportPath = flagValue(args, 'report');
    const report =
      reportPath === undefined
        ? undefined
        : new Report(reportPath, io.cwd, (message) => io.stderr(`lpreq proxy: ${message}\n`));
    const strict = args.flags.has('strict');
    if (target.protocol === 'http:' && !isLoopback(target.hostname)) {
      io.stderr(
        `lpreq proxy: warning: the target ${target.origin} is plain http: the Authorization your client sends goes to it unencrypted; use https\n`,
      );
    }
    const onExchange = (record: ExchangeRecord) => {
      given.stderr(
        requestLine(
          { ...record, problems: record.violations },
          'violations',
          record.forwarded ? '' : ' (not forwarded)',
        ),
      );
      report?.add(record);
    };
    let proxy: RunningProxy;
    try {
      proxy = await startProxy({ target, port, strict, scopes, onExchange });
    } catch (e) {
      report?.close();
      const code = (e as NodeJS.ErrnoException).code;
      throw new UsageError(
        code === 'EADDRINUSE'
          ? `port ${port} on 127.0.0.1 is already in use (try --port 0 or another port)`
          : `cannot listen on 127.0.0.1:${port}: ${(e as Error).message}`,
      );
    }
    io.stdout(
      `lpreq proxy: ${proxy.url} forwards to ${target.origin}${target.pathname.replace(/\/$/, '')}${strict ? ' (strict: requests with errors get 400)' : ''}\n`,
    );
    io.stdout(
      `point your client's base URL at ${proxy.url}; violations come back in the Lpreq-Violations header${report ? ` and go to ${reportPath}` : ''}\n`,
    );
    io.stdout('stop with Ctrl-C\n');
    await new Promise<void>((done) => {
      const stop = () => {
        process.off('SIGINT', stop);
        process.off('SIGTERM', stop);
        proxy.close().then(done, done);
      };
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
    });
    report?.close();
    io.stdout('lpreq proxy: stopped\n');
    return report?.failed !== undefined ? 2 : 0;
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`lpreq proxy: ${e.message}\n`);
      return 2;
    }
    io.stderr(`lpreq proxy: internal error: ${(e as Error).message}\n`);
    return 2;
  }
}
