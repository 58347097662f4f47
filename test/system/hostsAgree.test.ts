/**
 * Issue 27's "hosts agree": one repository with environments `dev` and `staging` and no
 * `local`, a chain of three requests, sent in each environment in turns through `lpreq send`,
 * `lpreq test` and the language server's `workspace/executeCommand`, against two recording
 * servers on 127.0.0.1. Every host sends the same requests, with ids and the token of its own
 * environment only, and gives the same verdicts; `lpreq env` and the server give the same
 * answer for the same workspace. The same repository passes against the mock (`--mock`, with
 * and without `--env`); "no environment" sends nothing; a 401 dependency is the chain's
 * message, not a network error. (The VS Code extension's turns are in test/e2e/run.ts.)
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, tempDir } from '../helpers';
import { LspClient } from '../lsp/rpc';
import {
  CHAIN,
  CHAIN_FILE,
  CHAIN_LINES,
  CHAIN_NAMES,
  ENVIRONMENTS,
  expectedTurn,
  startRecordingServers,
  traffic,
  writeHostsRepository,
  type EnvironmentName,
  type RecordingServers,
} from './hostsFixture';

const LPREQ = join(ROOT, 'bin', 'lpreq.js');
/** The turns: each environment twice, in alternation (the editor's bug sent staging's ids to dev on the way back). */
const TURNS: EnvironmentName[] = ['dev', 'staging', 'dev', 'staging'];
/** What every host must send over the turns. */
const EXPECTED = TURNS.flatMap(expectedTurn);

let servers: RecordingServers;
before(async () => {
  servers = await startRecordingServers();
});
after(async () => {
  await servers.close();
});

/** `lpreq ARGV` in `cwd`, without LPREQ_TOKEN (the tokens are the private file's). */
function lpreq(
  argv: string[],
  cwd: string,
  env: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [LPREQ, ...argv], {
      cwd,
      env: { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A fresh copy of the repository (each host starts from a clone: no history, no choice). */
function repository(): { dir: string; file: string } {
  const dir = tempDir('hosts');
  return { dir, file: writeHostsRepository(dir, servers.origins) };
}

/** Runs `turn` for each environment of TURNS, and returns what reached the servers and the verdicts, per turn. */
async function inTurns(turn: (environment: EnvironmentName) => Promise<boolean[]>) {
  const from = servers.received.length;
  const verdicts: Record<string, boolean[]> = {};
  for (const [i, environment] of TURNS.entries()) verdicts[`${i + 1} ${environment}`] = await turn(environment);
  return { sent: traffic(servers.received.slice(from)), verdicts };
}

const ALL_PASS = Object.fromEntries(TURNS.map((e, i) => [`${i + 1} ${e}`, [true, true, true]]));

describe('hosts agree: dev and staging in turns', () => {
  test('lpreq send: the project environment chosen with lpreq env, each request in order', async () => {
    const { dir } = repository();
    const { sent, verdicts } = await inTurns(async (environment) => {
      assert.equal((await lpreq(['env', environment], dir)).code, 0);
      const out: boolean[] = [];
      for (const name of CHAIN_NAMES) {
        const r = await lpreq(['send', CHAIN_FILE, '--name', name, '--format', 'json'], dir);
        const json = JSON.parse(r.stdout) as { ok: boolean; error?: { message: string } };
        assert.ok(json.ok, `${environment} ${name}: ${r.stdout} ${r.stderr}`);
        out.push(json.ok);
      }
      return out;
    });
    assert.deepEqual(sent, EXPECTED);
    assert.deepEqual(verdicts, ALL_PASS);
  });

  test('lpreq test: the same requests, the same verdicts, run after run', async () => {
    const { dir } = repository();
    const { sent, verdicts } = await inTurns(async (environment) => {
      assert.equal((await lpreq(['env', environment], dir)).code, 0);
      const r = await lpreq(['test', '--reporter', 'json', 'requests/'], dir);
      const json = JSON.parse(r.stdout) as { files: { requests: { name: string; passed: boolean }[] }[] };
      assert.equal(r.code, 0, r.stderr);
      return json.files[0].requests.map((q) => q.passed);
    });
    assert.deepEqual(sent, EXPECTED);
    assert.deepEqual(verdicts, ALL_PASS);
    // --env gives the same without a remembered choice.
    const fresh = repository();
    const from = servers.received.length;
    assert.equal((await lpreq(['test', '--env', 'staging', 'requests/'], fresh.dir)).code, 0);
    assert.deepEqual(traffic(servers.received.slice(from)), expectedTurn('staging'));
  });

  test("the language server's workspace/executeCommand: lpreq.selectEnvironment, then lpreq.send on each request", async () => {
    const { dir, file } = repository();
    const uri = pathToFileURL(file).href;
    await withServer(dir, async (c) => {
      c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text: CHAIN } });
      const { sent, verdicts } = await inTurns(async (environment) => {
        const chosen = await c.request('workspace/executeCommand', {
          command: 'lpreq.selectEnvironment',
          arguments: [environment],
        });
        assert.deepEqual(chosen, { environment });
        const out: boolean[] = [];
        for (const line of CHAIN_LINES) {
          const summary = await c.request<{ ok: boolean; error?: string }>(
            'workspace/executeCommand',
            { command: 'lpreq.send', arguments: [uri, line] },
            30_000,
          );
          assert.ok(summary.ok, `${environment} line ${line}: ${summary.error}`);
          out.push(summary.ok);
        }
        return out;
      });
      assert.deepEqual(sent, EXPECTED);
      assert.deepEqual(verdicts, ALL_PASS);
    });
  });
});

/** A language server on the repository, as an editor starts it (no environment in its options). */
async function withServer(dir: string, fn: (c: LspClient) => Promise<void>, env: NodeJS.ProcessEnv = {}) {
  const c = new LspClient(undefined, dir, { env: { PATH: process.env.PATH ?? '', ...env } });
  const asked: string[] = [];
  c.answer = (m) => {
    if (m.method === 'window/showMessageRequest') asked.push((m.params as { message: string }).message);
    return m.method === 'window/showDocument' ? { success: true } : null;
  };
  const timer = setTimeout(() => c.kill(), 120_000);
  try {
    await c.initialize({}, pathToFileURL(dir).href, {}, { showDocument: { support: true } });
    await fn(c);
    await c.shutdown();
  } finally {
    clearTimeout(timer);
    c.kill();
  }
}

describe('one answer for the same workspace', () => {
  test('lpreq env, lpreq send and the server agree: none chosen, then the choice made in any of them', async () => {
    const { dir, file } = repository();
    const uri = pathToFileURL(file).href;
    // Nothing chosen: lpreq send says which --env values exist and exits 2; lpreq env says none is chosen.
    const refused = await lpreq(['send', CHAIN_FILE, '--name', 'listModules'], dir);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /choose one with --env dev or --env staging/);
    assert.match(
      (await lpreq(['env'], dir)).stdout,
      /^environment: none chosen yet \(dev, staging; none is called local\)$/m,
    );
    await withServer(dir, async (c) => {
      c.notify('textDocument/didOpen', { textDocument: { uri, languageId: 'lpreq', version: 1, text: CHAIN } });
      // The server's answer, as its picker says it (the test declines to choose).
      const asked: string[] = [];
      c.answer = (m) => {
        if (m.method === 'window/showMessageRequest') asked.push((m.params as { message: string }).message);
        return null;
      };
      const now = await c.request('workspace/executeCommand', { command: 'lpreq.selectEnvironment', arguments: [] });
      assert.deepEqual(now, { environment: null });
      assert.match(asked[0], /now: none chosen yet \(dev, staging; none is called local\)/);
      // A send asks which environment (the editor's picker), and sends nothing without an answer.
      const before = servers.received.length;
      await assert.rejects(
        c.request('workspace/executeCommand', { command: 'lpreq.send', arguments: [uri, CHAIN_LINES[0]] }),
        /no environment was chosen \(dev, staging\)/,
      );
      assert.equal(asked[1], 'lpreq: choose the environment to send to');
      assert.equal(servers.received.length, before);
      // Chosen with lpreq env: the server reads it too.
      assert.equal((await lpreq(['env', 'staging'], dir)).code, 0);
      c.notify('workspace/didChangeWatchedFiles', { changes: [] });
      await c.request('workspace/executeCommand', { command: 'lpreq.selectEnvironment', arguments: [] });
      assert.match(asked[2], /now: staging \(chosen for this project\)/);
      // Chosen in the server: lpreq env and lpreq send read it.
      await c.request('workspace/executeCommand', { command: 'lpreq.selectEnvironment', arguments: ['dev'] });
    });
    assert.match((await lpreq(['env'], dir)).stdout, /^environment: dev \(chosen for this project\)$/m);
    assert.deepEqual(JSON.parse(readFileSync(join(dir, '.lpreq', 'environment.json'), 'utf8')), { environment: 'dev' });
    const from = servers.received.length;
    assert.equal((await lpreq(['send', CHAIN_FILE, '--name', 'listModules'], dir)).code, 0);
    assert.deepEqual(traffic(servers.received.slice(from)), ['dev GET /api/v1/courses/42/modules']);
  });

  test('no environment: nothing that needs one is sent, by lpreq send or the server, and both say to choose one', async () => {
    const { dir, file } = repository();
    assert.equal((await lpreq(['env', '--none'], dir)).code, 0);
    const before = servers.received.length;
    const r = await lpreq(['send', CHAIN_FILE, '--name', 'listModules'], dir);
    assert.equal(r.code, 1);
    assert.match(
      r.stdout,
      /\{\{base_url\}\} comes from an environment, and no environment is chosen: choose one of dev, staging/,
    );
    await withServer(dir, async (c) => {
      const summary = await c.request<{ ok: boolean; error?: string }>('workspace/executeCommand', {
        command: 'lpreq.send',
        arguments: [pathToFileURL(file).href, CHAIN_LINES[0]],
      });
      assert.equal(summary.ok, false);
      assert.match(summary.error ?? '', /no environment is chosen: choose one of dev, staging/);
    });
    // And lpreq test fails those requests rather than send them anywhere.
    const t = await lpreq(['test', 'requests/'], dir);
    assert.equal(t.code, 1);
    assert.equal(servers.received.length, before, 'nothing reached either server');
  });

  test("a 401 dependency is the chain's message, naming the request, the environment and the status", async () => {
    const { dir, file } = repository();
    const wrong = { LPREQ_TOKEN: 'a-wrong-token-0000' };
    const r = await lpreq(['send', CHAIN_FILE, '--name', 'firstModule', '--env', 'staging'], dir, wrong);
    assert.equal(r.code, 1);
    const message =
      /error \(dependency\): not sent: this request reads the response of 'listModules' in the environment 'staging', and 'listModules', sent first, answered 401 Unauthorized: its body is an error/;
    assert.match(r.stdout, message);
    assert.match(r.stdout, /^hint: lpreq send requests\/modules\.lpreq --name listModules --env staging /m);
    assert.doesNotMatch(r.stdout + r.stderr, /network error|is not in the response body/i);
    await withServer(
      dir,
      async (c) => {
        await c.request('workspace/executeCommand', { command: 'lpreq.selectEnvironment', arguments: ['staging'] });
        const summary = await c.request<{ ok: boolean; error?: string }>('workspace/executeCommand', {
          command: 'lpreq.send',
          arguments: [pathToFileURL(file).href, CHAIN_LINES[1]],
        });
        assert.equal(summary.ok, false);
        assert.match(
          summary.error ?? '',
          /reads the response of 'listModules' in the environment 'staging'.*answered 401/,
        );
      },
      wrong,
    );
  });
});

describe('the same repository against the mock', () => {
  test('lpreq test --mock needs no environment, and --mock --env NAME lends one: both pass', async () => {
    const { dir } = repository();
    const before = servers.received.length;
    const plain = await lpreq(['test', '--mock', 'requests/'], dir);
    assert.equal(plain.code, 0, plain.stdout + plain.stderr);
    assert.match(plain.stdout, /3 requests in 1 file: 3 passed, 0 failed/);
    for (const environment of ENVIRONMENTS) {
      const lent = await lpreq(['test', '--mock', '--env', environment, 'requests/'], dir);
      assert.equal(lent.code, 0, lent.stdout + lent.stderr);
    }
    assert.equal(servers.received.length, before, 'a mock run reaches neither server');
  });
});
