// Builds lpreq-<version>.vsix with @vscode/vsce from a staging folder (out/vsix/) that holds
// only what the extension needs: the package.json there has no "files" list (that one is
// for npm, and vsce refuses it beside a .vscodeignore) and no scripts or dependencies (the
// bundle in dist/ already contains them).
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const stage = join(root, 'out/vsix');
const run = (cmd, args, cwd) => {
  const r = spawnSync(cmd, args, { cwd, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};

run(process.execPath, ['scripts/build.mjs'], root);
rmSync(stage, { recursive: true, force: true });
mkdirSync(join(stage, 'dist'), { recursive: true });
// import.js and the shell grammar's WebAssembly: the import commands load them on first use; mcp.js
// is the MCP server the editor's agent starts (client/src/mcpServer.ts).
for (const f of [
  'client.js',
  'server.js',
  'import.js',
  'mcp.js',
  'tree-sitter.wasm',
  'tree-sitter-bash.wasm',
  'THIRD-PARTY-NOTICES.txt',
  'media',
])
  cpSync(join(root, 'dist', f), join(stage, 'dist', f), { recursive: true });
for (const f of ['syntaxes', 'json-schemas', 'language-configuration.json', '.vscodeignore'])
  cpSync(join(root, f), join(stage, f), { recursive: true });
mkdirSync(join(stage, 'images'));
for (const f of ['icon.png', 'activity.svg', 'file-icon.svg'])
  cpSync(join(root, 'images', f), join(stage, 'images', f));
for (const f of ['README.md', 'LICENSE', 'CHANGELOG.md'])
  if (existsSync(join(root, f))) cpSync(join(root, f), join(stage, f));
if (!existsSync(join(stage, 'README.md')))
  writeFileSync(join(stage, 'README.md'), '# lpreq\n\nWrite, check and send requests to the Learning Platform API.\n');

const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
for (const key of ['files', 'scripts', 'dependencies', 'devDependencies', 'bin', 'private']) delete pkg[key];
writeFileSync(join(stage, 'package.json'), JSON.stringify(pkg, null, 2) + '\n');

const out = process.argv[2] ? resolve(process.argv[2]) : join(root, `${pkg.name}-${pkg.version}.vsix`);
const vsce = createRequire(import.meta.url).resolve('@vscode/vsce/vsce');
const args = [vsce, 'package', '--no-dependencies', '--out', out];
if (!existsSync(join(stage, 'LICENSE'))) args.push('--skip-license');
run(process.execPath, args, stage);
console.log(`vsix: ${out}`);
