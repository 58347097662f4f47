// The package.json a tarball holds: the repository's without its `prepare` script.
//
//   node scripts/packManifest.mjs strip     (npm's prepack: build, then take prepare out;
//                                            LPREQ_PACK_BUILT=1: dist/ is built already)
//   node scripts/packManifest.mjs restore   (npm's postpack: put package.json back as it was)
//
// `prepare` builds lpreq after `npm ci` in a clone and when npm installs it from a git URL.
// A tarball holds the build already and no scripts/ to run: a prepare script in its
// package.json would only make npm 11 warn, on every install, that an install script is not
// covered by allowScripts. npm reads the manifest it packs after prepack, so the tarball gets
// the stripped one; postpack restores the file (and so does the next strip, if a pack was
// cut short).
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const manifest = join(root, 'package.json');
const kept = join(root, 'package.json.prepack');

const action = process.argv[2];
if (action === 'strip') {
  if (existsSync(kept)) renameSync(kept, manifest);
  // The build prepare would have run: npm runs prepare from the manifest it packs, which has none.
  if (process.env.LPREQ_PACK_BUILT !== '1') {
    const built = spawnSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { stdio: 'inherit' });
    if (built.status !== 0) process.exit(built.status ?? 1);
  }
  const text = readFileSync(manifest, 'utf8');
  const pkg = JSON.parse(text);
  writeFileSync(kept, text);
  delete pkg.scripts.prepare;
  writeFileSync(manifest, `${JSON.stringify(pkg, null, 2)}\n`);
} else if (action === 'restore') {
  if (existsSync(kept)) renameSync(kept, manifest);
} else {
  console.error('usage: node scripts/packManifest.mjs strip|restore');
  process.exit(2);
}
