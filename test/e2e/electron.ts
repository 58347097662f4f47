/**
 * The same end-to-end checks in a VS Code desktop build downloaded by @vscode/test-electron,
 * for machines that can download it (this project's CI cannot: it runs run.ts, on
 * code-server). The workspace, the fake API and the token checks are fixture.ts's.
 *
 *   node --import tsx test/e2e/electron.ts [--vscode-version 1.138.0]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { runTests } from '@vscode/test-electron';
import { filesContaining, makeWorkspace, Results, startFakeApi } from './fixture';

const repo = resolve(__dirname, '../..');

async function main(): Promise<number> {
  const versionAt = process.argv.indexOf('--vscode-version');
  const version = versionAt > 0 ? process.argv[versionAt + 1] : 'stable';
  const results = new Results();
  const api = await startFakeApi();
  const ws = makeWorkspace(api.baseUrl);
  try {
    const r = spawnSync(process.execPath, ['scripts/build.mjs'], { cwd: repo, stdio: 'inherit' });
    if (r.status !== 0) throw new Error('build failed');
    const suite = join(ws.root, 'suite.js');
    await build({
      entryPoints: [join(__dirname, 'electron-suite.ts')],
      outfile: suite,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      external: ['vscode'],
    });
    await results.check('the checks inside VS Code (diagnostic, completion, send, typed response)', async () => {
      const code = await runTests({
        version,
        extensionDevelopmentPath: repo,
        extensionTestsPath: suite,
        launchArgs: [
          ws.workspace,
          '--disable-extensions',
          '--disable-workspace-trust',
          '--user-data-dir',
          ws.userData,
          '--extensions-dir',
          ws.extensions,
        ],
        extensionTestsEnv: { LPREQ_E2E_BASE_URL: api.baseUrl },
      });
      if (code !== 0) throw new Error(`the suite exited with ${code}`);
    });
    await results.check('the API received the request', async () => {
      if (!api.received.some((q) => q.method === 'POST' && q.url === '/api/v1/courses/1/modules'))
        throw new Error('no POST arrived');
    });
    await results.check('no file holds a token-like Authorization value', async () => {
      const hits = [
        ...filesContaining(ws.workspace, 'Bearer '),
        ...filesContaining(join(ws.userData, 'User'), 'Bearer '),
      ];
      if (hits.length > 0) throw new Error(`found in ${hits.join(', ')}`);
    });
  } finally {
    await api.close();
    if (existsSync(ws.root)) rmSync(ws.root, { recursive: true, force: true });
  }
  console.log(results.summary());
  return results.failed === 0 ? 0 : 1;
}

void main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
