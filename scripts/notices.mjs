// Writes the licenses of the packages the bundles contain: the npm package and the .vsix
// ship those packages' code inside dist/, without their node_modules folders, and their
// licenses (MIT, ISC) ask that the notice goes with the code.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The package folder of a bundled input (the innermost node_modules/NAME or node_modules/@scope/NAME). */
function packageDirOf(input) {
  const m = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input.replaceAll('\\', '/'));
  return m ? m[1] : undefined;
}

/** `extraDirs`: packages shipped in another form than bundled code (a grammar compiled to WebAssembly). */
export async function writeNotices(metafiles, out, extraDirs = []) {
  const dirs = new Set(extraDirs);
  for (const metafile of metafiles) {
    for (const input of Object.keys(metafile.inputs)) {
      const dir = packageDirOf(input);
      if (dir) dirs.add(dir);
    }
  }
  const sections = [];
  for (const dir of [...dirs]) {
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const licenseFile = readdirSync(dir).find((f) =>
      /^(licen[cs]e|copying|mit-licen[cs]e)([-.][a-z0-9]+)?(\.(md|txt))?$/i.test(f),
    );
    if (!licenseFile) throw new Error(`${pkg.name} is bundled but has no license file: its notice cannot be shipped`);
    const text = readFileSync(join(dir, licenseFile), 'utf8').trim();
    sections.push({ title: `${pkg.name} ${pkg.version} (${pkg.license})`, text });
  }
  sections.sort((a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : 0));
  const rule = '-'.repeat(78);
  const head = 'The bundles in dist/ contain code from these packages, under their licenses.\n';
  writeFileSync(out, [head, ...sections.map((s) => `${rule}\n${s.title}\n${rule}\n\n${s.text}\n`)].join('\n'));
}
