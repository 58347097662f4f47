/**
 * No link of the repository's Markdown points outside it (a clone or the package has nothing
 * there: `../../shared/...` was a dead link to every reader), and every relative link points
 * to a file that exists.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { ROOT } from '../helpers';

/** The Markdown files git knows of (what a clone has). */
function markdownFiles(): string[] {
  return execFileSync('git', ['ls-files', '-z', '--', '*.md'], { cwd: ROOT, encoding: 'utf8' })
    .split('\0')
    .filter((f) => f !== '' && existsSync(join(ROOT, f)));
}

/** The targets of `[text](target)`, `![alt](target)` and `[name]: target`, outside code. */
function linksOf(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
  const out: string[] = [];
  for (const m of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) out.push(m[1]);
  for (const m of prose.matchAll(/^\s*\[[^\]]+\]:\s*(\S+)/gm)) out.push(m[1]);
  return out;
}

test('every relative link of the Markdown files stays inside the repository and points to a file there', () => {
  const files = markdownFiles();
  assert.ok(files.length > 10, `${files.length} Markdown files`);
  const problems: string[] = [];
  for (const file of files) {
    for (const link of linksOf(readFileSync(join(ROOT, file), 'utf8'))) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith('#')) continue;
      const path = decodeURIComponent(link.replace(/[#?].*$/, ''));
      const target = resolve(dirname(join(ROOT, file)), path);
      const inside = relative(ROOT, target);
      if (inside.startsWith(`..${sep}`) || inside === '..')
        problems.push(`${file}: ${link} points outside the repository`);
      else if (!existsSync(target)) problems.push(`${file}: ${link} points to nothing`);
    }
  }
  assert.deepEqual(problems, []);
});
