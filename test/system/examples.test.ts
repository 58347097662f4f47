/**
 * Every request of examples/ answers 2xx from a fresh mock when the files are sent request by
 * request, in file order, with `lpreq send FILE --line N` (the history chains them), as a user
 * trying the examples would. mistakes.lpreq is left out: its requests are meant to fail.
 */
import assert from 'node:assert/strict';
import { cpSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { run } from '../../server/src/cli/sendCommand';
import { bundledCatalog } from '../../server/src/catalogData';
import { parse } from '../../server/src/library';
import { startMock } from '../../server/src/mock';
import { readScopesOption } from '../../server/src/cli/scopeList';
import { ROOT, runCli, tempDir } from '../helpers';

const TOKEN = 'examples-token-0123456789';

/** `file:line` of a request documented to answer something else than 2xx, with the reason. None today. */
const EXPECTED_OTHERWISE = new Map<string, { status: number; reason: string }>();

/** The 1-based line of each request line of a document. */
function requestLines(text: string): number[] {
  const lines: number[] = [];
  for (const ref of parse(text).blocks) {
    if (!ref.block.request) continue;
    const offset = ref.start + ref.block.request.start;
    lines.push(text.slice(0, offset).split('\n').length);
  }
  return lines;
}

test(
  'every example request answers 2xx from a fresh mock, sent in file order, its token limited to the scopes `lpreq scopes` lists for them',
  { timeout: 120_000 },
  async () => {
    const dir = tempDir('examples');
    cpSync(join(ROOT, 'examples'), dir, { recursive: true });
    const files = readdirSync(dir)
      .filter((n) => n.endsWith('.lpreq') && n !== 'mistakes.lpreq')
      .sort();
    // What a developer key would be given: the list `lpreq scopes --format json` prints, read as `lpreq mock --scopes` reads it.
    const listed = await runCli(['scopes', '--format', 'json', ...files], { cwd: dir });
    assert.equal(listed.code, 0, listed.stderr);
    writeFileSync(join(dir, 'scopes.json'), listed.stdout);
    const scopes = readScopesOption('scopes.json', dir, bundledCatalog(), (m) => assert.fail(m));
    assert.ok(scopes.length > 90, `${scopes.length} scopes`);
    const mock = await startMock({ port: 0, token: TOKEN, scopes });
    try {
      const envFile = join(dir, 'http-client.env.json');
      const environments = JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, Record<string, string>>;
      environments.local.base_url = mock.url;
      writeFileSync(envFile, JSON.stringify(environments));

      const failures: string[] = [];
      let sent = 0;
      for (const file of files) {
        for (const line of requestLines(readFileSync(join(dir, file), 'utf8'))) {
          let stdout = '';
          let stderr = '';
          await run([join(dir, file), '--line', String(line), '--env', 'local', '--format', 'json'], {
            stdout: (s) => (stdout += s),
            stderr: (s) => (stderr += s),
            readStdin: () => '',
            isTTY: false,
            env: { LPREQ_TOKEN: TOKEN },
            cwd: dir,
          });
          sent++;
          const result = JSON.parse(stdout) as { status: number | null; error?: { kind: string } };
          const expected = EXPECTED_OTHERWISE.get(`${file}:${line}`)?.status;
          const ok =
            expected !== undefined
              ? result.status === expected
              : result.status !== null && result.status >= 200 && result.status < 300;
          if (!ok)
            failures.push(
              `${file}:${line} answered ${String(result.status)}${result.error ? ` (${result.error.kind})` : ''}${stderr ? `: ${stderr.trim()}` : ''}`,
            );
        }
      }
      assert.ok(sent > 100, `only ${sent} requests found in examples/`);
      assert.deepEqual(failures, []);
    } finally {
      await mock.close();
    }
  },
);
