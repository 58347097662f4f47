/**
 * `$tls` of an environment (a CA, a client certificate, no check), read from the environment
 * files and honoured by the sender for every host: HTTPS servers on 127.0.0.1 with the
 * test-only certificates of test/fixtures/tls. The token still goes only to base_url's origin.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { bundledCatalog } from '../../server/src/catalogData';
import { Checker, parseDocument } from '../../server/src/core/index';
import { run as runSend } from '../../server/src/cli/sendCommand';
import { EnvironmentFileError, loadEnvironmentFiles } from '../../server/src/node/environments';
import { sendBlock } from '../../server/src/sender/send';
import { sendSetup } from '../../server/src/sender/setup';
import { tempDir } from '../helpers';
import { captureIo } from '../io';

const TLS = join(import.meta.dirname, '../fixtures/tls');
const TOKEN = 'tls-token-0123456789';
const checker = new Checker(bundledCatalog());

interface Https {
  origin: string;
  seen: { url: string; authorization?: string; clientCert: boolean }[];
  server: Server;
}

/** An HTTPS server on 127.0.0.1 with the test certificate; `clientCa` makes it ask for a client certificate signed by that. */
async function startHttps(options: { clientCa?: Buffer; redirectTo?: () => string } = {}): Promise<Https> {
  const seen: Https['seen'] = [];
  const server = createServer(
    {
      cert: readFileSync(join(TLS, 'cert.pem')),
      key: readFileSync(join(TLS, 'key.pem')),
      ...(options.clientCa ? { requestCert: true, rejectUnauthorized: true, ca: options.clientCa } : {}),
    },
    (req, res) => {
      seen.push({
        url: req.url ?? '',
        authorization: req.headers.authorization,
        clientCert: Boolean((req.socket as { authorized?: boolean }).authorized),
      });
      if (options.redirectTo && req.url?.startsWith('/api/v1/courses/1/modules')) {
        res.writeHead(302, { location: `${options.redirectTo()}/api/v1/courses/2/modules` }).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    },
  );
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { origin: `https://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server };
}

let plain: Https;
let mutual: Https;
let other: Https;
let redirecting: Https;
before(async () => {
  plain = await startHttps();
  mutual = await startHttps({ clientCa: readFileSync(join(TLS, 'client-cert.pem')) });
  other = await startHttps();
  redirecting = await startHttps({ redirectTo: () => other.origin });
});
after(() => {
  for (const s of [plain, mutual, other, redirecting]) s.server.closeAllConnections();
  for (const s of [plain, mutual, other, redirecting]) s.server.close();
});

/** A project folder with the request file, the shared environment file and, when given, the private one; the certificate files copied beside them. */
function project(local: Record<string, unknown>, privateLocal?: Record<string, unknown>): string {
  const dir = tempDir('tls');
  mkdirSync(join(dir, 'certs'));
  for (const f of ['cert.pem', 'client-cert.pem', 'client-key.pem'])
    writeFileSync(join(dir, 'certs', f), readFileSync(join(TLS, f)));
  writeFileSync(join(dir, 'http-client.env.json'), JSON.stringify({ local }));
  if (privateLocal) writeFileSync(join(dir, 'http-client.private.env.json'), JSON.stringify({ local: privateLocal }));
  writeFileSync(join(dir, 'r.lpreq'), 'GET {{base_url}}/api/v1/courses/1/modules\n');
  return join(dir, 'r.lpreq');
}

async function send(file: string) {
  const setup = sendSetup(file, { environment: 'local', env: { LPREQ_TOKEN: TOKEN }, chooseWith: '--env' });
  const document = parseDocument(readFileSync(file, 'utf8'));
  return sendBlock(document, 0, { checker, environments: setup.environments, token: setup.token, timeoutMs: 5000 });
}

test('$tls is read from the environment files: paths relative to the file, layered as variables are, mistakes refused', () => {
  const file = project(
    { base_url: plain.origin, $tls: { ca: './certs/cert.pem' } },
    { $tls: { cert: 'certs/client-cert.pem', key: 'certs/client-key.pem' } },
  );
  const dir = join(file, '..');
  const files = loadEnvironmentFiles(dir);
  assert.deepEqual(files.options?.local?.tls, {
    ca: join(dir, 'certs/cert.pem'),
    cert: join(dir, 'certs/client-cert.pem'),
    key: join(dir, 'certs/client-key.pem'),
    // The files must be inside the workspace of the environment files (issue 26, item 4).
    workspace: dir,
  });
  // Not a variable: the checker and the hovers never see it.
  assert.equal(Object.hasOwn(files.environments.local, '$tls'), false);
  // A misspelt option would leave the check as it was without a word: it is the file's mistake.
  for (const bad of [{ rejectUnauthorised: false }, { rejectUnauthorized: 'no' }, { ca: 42 }, 'ca.pem']) {
    project({ base_url: plain.origin, $tls: bad });
    assert.throws(
      () => loadEnvironmentFiles(join(project({ base_url: plain.origin, $tls: bad }), '..')),
      EnvironmentFileError,
      JSON.stringify(bad),
    );
  }
});

test("a self-signed certificate is refused by default, and accepted with the environment's CA", async () => {
  const refused = await send(project({ base_url: plain.origin }));
  assert.equal(refused.error?.kind, 'tls', JSON.stringify(refused.error));
  const before = plain.seen.length;
  const accepted = await send(project({ base_url: plain.origin, $tls: { ca: './certs/cert.pem' } }));
  assert.equal(accepted.response?.status, 200, JSON.stringify(accepted.error));
  assert.equal(plain.seen.length, before + 1);
  assert.equal(plain.seen.at(-1)?.authorization, `Bearer ${TOKEN}`);
});

test('"rejectUnauthorized": false accepts any certificate, and says so', async () => {
  const r = await send(project({ base_url: plain.origin, $tls: { rejectUnauthorized: false } }));
  assert.equal(r.response?.status, 200, JSON.stringify(r.error));
  assert.ok(
    r.warnings.some((w) => /not checked/.test(w)),
    r.warnings.join('\n'),
  );
});

test('a server that asks for a client certificate gets the one of cert and key', async () => {
  const ca = { ca: './certs/cert.pem' };
  const without = await send(project({ base_url: mutual.origin, $tls: ca }));
  assert.equal(without.response?.status ?? null, null, 'answered without a client certificate');
  const withCert = await send(
    project({
      base_url: mutual.origin,
      $tls: { ...ca, cert: './certs/client-cert.pem', key: './certs/client-key.pem' },
    }),
  );
  assert.equal(withCert.response?.status, 200, JSON.stringify(withCert.error));
  assert.equal(mutual.seen.at(-1)?.clientCert, true);
  // A certificate without its key, or a file that is not there: not sent, and said why.
  const half = await send(project({ base_url: mutual.origin, $tls: { ...ca, cert: './certs/client-cert.pem' } }));
  assert.equal(half.error?.kind, 'tls');
  assert.match(half.error?.message ?? '', /both "cert" and "key"/);
  const missing = await send(project({ base_url: mutual.origin, $tls: { ca: './certs/nowhere.pem' } }));
  assert.equal(missing.error?.kind, 'tls');
  assert.match(missing.error?.message ?? '', /"ca" cannot be read/);
});

test("$tls is for base_url's origin only: a redirect elsewhere is checked as usual and gets no token", async () => {
  const before = other.seen.length;
  const r = await send(project({ base_url: redirecting.origin, $tls: { rejectUnauthorized: false } }));
  // The redirect's target has the same self-signed certificate; without $tls it is refused.
  assert.equal(r.error?.kind, 'tls', JSON.stringify(r.error));
  assert.equal(other.seen.length, before);
  assert.equal(redirecting.seen.at(-1)?.authorization, `Bearer ${TOKEN}`);
});

test('lpreq send honours $tls', async () => {
  const file = project({ base_url: plain.origin, $tls: { ca: './certs/cert.pem' } });
  const env = { PATH: process.env.PATH ?? '', LPREQ_TOKEN: TOKEN };
  const trusted = captureIo({ cwd: join(file, '..'), env });
  assert.equal(await runSend(['r.lpreq', '--no-history'], trusted.io), 0, trusted.stderr + trusted.stdout);
  assert.match(trusted.stdout, /200/);
  // Without the CA the same server is refused: exit 1, a TLS failure.
  const bare = captureIo({ cwd: join(project({ base_url: plain.origin }), '..'), env });
  assert.equal(await runSend(['r.lpreq', '--no-history'], bare.io), 1);
  assert.match(bare.stdout + bare.stderr, /TLS|certificate/i);
});
