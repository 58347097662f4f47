/**
 * "Generate Code" run for real: the JavaScript with this Node, the Python with python3 (compiled
 * always; run when the requests package is there), against a server on 127.0.0.1. The server
 * gets what lpreq would send, and the token only from LPREQ_TOKEN in the program's environment.
 */
import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { promisify } from 'node:util';
import { toCode } from '../../server/src/sender/codegen';
import { prepareRequest } from '../../server/src/sender/prepare';
import { ROOT, tempDir } from '../helpers';
import { doc, startServer, testChecker, type TestServer } from '../sender/server';

const TOKEN = 'Run-Code-Token-123456';
const run = promisify(execFile);
let server: TestServer;
before(async () => {
  server = await startServer((_req, res) => res.writeHead(201, { 'content-type': 'application/json' }).end('{"id":1}'));
});
after(() => server.close());

function request(text: string) {
  const r = prepareRequest(testChecker(), doc(text), 0, {
    environments: { environments: { local: { base_url: server.origin } }, selected: 'local' },
  });
  assert.ok(r.ok, r.ok ? '' : r.error);
  return r.request;
}

const REQUESTS = [
  'POST /api/v1/courses/1/modules\nX-Trace: "quoted" \\ back\n\nmodule[name] = Wëek 1 & more\nmodule[position] = 2\n',
  'POST /api/v1/courses/1/modules\nContent-Type: application/json\n\n{"module": {"name": "It\'s \\"Week\\" 1 ✓"}}\n',
  'GET /api/v1/courses/1/modules?search_term=a b&include[]=items\n',
];

const python = spawnSync('python3', ['--version']).status === 0;
const requestsInstalled = python && spawnSync('python3', ['-c', 'import requests']).status === 0;

for (const [i, text] of REQUESTS.entries()) {
  const sent = () => request(text);

  test(`the generated JavaScript runs and sends what lpreq sends (${i + 1})`, async () => {
    const r = sent();
    const file = join(tempDir('codegen'), 'request.mjs');
    writeFileSync(file, toCode(r, 'javascript', { token: TOKEN }));
    assert.equal(spawnSync(process.execPath, ['--check', file]).status, 0);
    const before = server.received.length;
    const { stdout } = await run(process.execPath, [file], {
      env: { PATH: process.env.PATH ?? '', LPREQ_TOKEN: TOKEN },
      timeout: 20_000,
    });
    assert.match(stdout, /^201 Created/);
    const got = server.received.slice(before);
    assert.equal(got.length, 1);
    assert.equal(got[0].method, r.method);
    assert.equal(`${server.origin}${got[0].url}`, r.url);
    assert.equal(got[0].headers.authorization, `Bearer ${TOKEN}`);
    assert.equal(got[0].headers['x-trace'], r.headers.find(([n]) => n === 'X-Trace')?.[1]);
    assert.equal(got[0].body, r.body?.text ?? '');
  });

  test(`the generated JavaScript without LPREQ_TOKEN says to set it and sends nothing (${i + 1})`, async () => {
    const file = join(tempDir('codegen'), 'request.mjs');
    writeFileSync(file, toCode(sent(), 'javascript', { token: TOKEN }));
    const before = server.received.length;
    const r = spawnSync(process.execPath, [file], {
      env: { PATH: process.env.PATH ?? '' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.notEqual(r.status, 0);
    assert.match(r.stderr, /LPREQ_TOKEN/);
    assert.equal(server.received.length, before);
  });

  test(
    `the generated Python compiles, and runs when requests is installed (${i + 1})`,
    { skip: python ? false : 'python3 is not installed' },
    async (t) => {
      const r = sent();
      const dir = tempDir('codegen');
      const file = join(dir, 'request.py');
      writeFileSync(file, toCode(r, 'python', { token: TOKEN }));
      const compiled = spawnSync('python3', ['-m', 'py_compile', file], {
        encoding: 'utf8',
        env: { ...process.env, PYTHONPYCACHEPREFIX: join(dir, 'cache') },
      });
      assert.equal(compiled.status, 0, compiled.stderr);
      if (!requestsInstalled) {
        t.skip('the Python package requests is not installed: compiled only');
        return;
      }
      const before = server.received.length;
      const { stdout } = await run('python3', [file], {
        env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LPREQ_TOKEN: TOKEN },
        timeout: 30_000,
      });
      assert.match(stdout, /^201 Created/);
      const got = server.received.slice(before);
      assert.equal(got.length, 1);
      assert.equal(got[0].method, r.method);
      // requests writes `[` and `]` of a query percent-encoded: the same URL once decoded, as servers read it.
      assert.equal(decodeURIComponent(`${server.origin}${got[0].url}`), decodeURIComponent(r.url));
      assert.equal(got[0].headers.authorization, `Bearer ${TOKEN}`);
      assert.equal(got[0].body, r.body?.text ?? '');
    },
  );
}

test("the generated JavaScript (undici) and Python with the environment's $tls trust the server's certificate and present the client's", async () => {
  const tlsDir = join(ROOT, 'test', 'fixtures', 'tls');
  const seen: { authorization?: string; clientCert: boolean }[] = [];
  const https = createServer(
    {
      cert: readFileSync(join(tlsDir, 'cert.pem')),
      key: readFileSync(join(tlsDir, 'key.pem')),
      requestCert: true,
      rejectUnauthorized: true,
      ca: readFileSync(join(tlsDir, 'client-cert.pem')),
    },
    (req, res) => {
      seen.push({
        authorization: req.headers.authorization,
        clientCert: Boolean((req.socket as { authorized?: boolean }).authorized),
      });
      res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
    },
  );
  await new Promise<void>((r) => https.listen(0, '127.0.0.1', r));
  try {
    const origin = `https://127.0.0.1:${(https.address() as AddressInfo).port}`;
    const r = prepareRequest(testChecker(), doc('GET /api/v1/courses/1/modules\n'), 0, {
      environments: { environments: { staging: { base_url: origin } }, selected: 'staging' },
    });
    assert.ok(r.ok);
    const tls = {
      ca: join(tlsDir, 'cert.pem'),
      cert: join(tlsDir, 'client-cert.pem'),
      key: join(tlsDir, 'client-key.pem'),
    };
    // Inside this repository, where `import("undici")` finds the package in its node_modules, as a user's project would.
    const dir = tempDir('codegen', join(ROOT, 'test', '.tmp'));
    try {
      const file = join(dir, 'request.mjs');
      writeFileSync(file, toCode(r.request, 'javascript', { token: TOKEN, tls }));
      const { stdout } = await run(process.execPath, [file], {
        env: { PATH: process.env.PATH ?? '', LPREQ_TOKEN: TOKEN },
        timeout: 20_000,
      });
      assert.match(stdout, /^200 OK/);
      assert.deepEqual(seen, [{ authorization: `Bearer ${TOKEN}`, clientCert: true }]);
      if (requestsInstalled) {
        // Python's requests, with verify= and cert= from the same settings.
        const py = join(dir, 'request.py');
        writeFileSync(py, toCode(r.request, 'python', { token: TOKEN, tls }));
        const ran = await run('python3', [py], {
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LPREQ_TOKEN: TOKEN },
          timeout: 30_000,
        });
        assert.match(ran.stdout, /^200 OK/);
        assert.equal(seen.length, 2);
        assert.deepEqual(seen[1], { authorization: `Bearer ${TOKEN}`, clientCert: true });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  } finally {
    https.close();
  }
});
