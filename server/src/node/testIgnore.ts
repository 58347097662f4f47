/**
 * `.lpreqtestignore`: request files `lpreq test` leaves out when it walks a folder, such as a
 * file of deliberate mistakes kept for `lpreq check`, or requests meant only to be sent by hand.
 * One pattern a line (`#` starts a comment), relative to the folder of the ignore file, which
 * applies to the files below that folder: a name without `/` matches a file or folder of that
 * name at any depth, one with `/` the path from that folder; `*` and `?` match within a name,
 * `**` across folders; a trailing `/` matches a folder. A file named on the command line is
 * always run. `lpreq check` reads no ignore file: it checks everything. The editor's Test
 * Explorer leaves out the same files, walking from each workspace folder.
 */
import { dirname, join, relative, resolve, sep } from 'node:path';
import { readConfinedText } from './textInput';

const IGNORE_FILE = '.lpreqtestignore';

interface Pattern {
  regex: RegExp;
  /** A pattern without `/` (but a trailing one) matches a name at any depth. */
  anywhere: boolean;
  /** Written with a trailing `/`: only folders. */
  folder: boolean;
}

function toRegex(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      // `**/` is any number of folders, `**` at the end anything.
      if (glob[i + 2] === '/') {
        out += '(?:.*/)?';
        i += 2;
      } else {
        out += '.*';
        i += 1;
      }
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

/** The patterns of an ignore file's text; `problems` names the lines lpreq does not read (negation). */
export function parseIgnore(text: string): { patterns: Pattern[]; problems: string[] } {
  const patterns: Pattern[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) return;
    if (line.startsWith('!')) {
      problems.push(`line ${i + 1}: '!' (taking a file back) is not supported; the line is left out`);
      return;
    }
    const folder = line.endsWith('/');
    const inner = line.replace(/\/+$/, '');
    const body = inner.replace(/^\/+/, '');
    if (body === '') return;
    // A `/` before the end anchors the pattern to the ignore file's folder.
    patterns.push({ regex: toRegex(body), anywhere: !inner.includes('/'), folder });
  });
  return { patterns, problems };
}

/** Whether `path` (relative to the ignore file's folder, `/`-separated, a file) is matched. */
export function ignores(patterns: Pattern[], path: string): boolean {
  const parts = path.split('/');
  for (const p of patterns) {
    // Each folder on the way (a folder pattern matches everything below it), then the file itself.
    for (let n = 1; n <= parts.length; n++) {
      const isFile = n === parts.length;
      if (p.folder && isFile) continue;
      const candidate = p.anywhere ? parts[n - 1] : parts.slice(0, n).join('/');
      if (p.regex.test(candidate)) return true;
    }
  }
  return false;
}

/**
 * Decides which files found by walking folders are left out: each file is looked up in the
 * ignore files of the folders from the walked folder down to its own. Ignore files are read
 * once each, through the one reader of text input.
 */
export class TestIgnore {
  private readonly folders = new Map<string, Pattern[] | undefined>();
  /** Ignore files that could not be read or hold lines lpreq does not read: for standard error. */
  readonly notes: string[] = [];

  /** The ignore file that leaves `file` out, relative to `cwd` as shown, or undefined when it is run. */
  ignoring(file: string, root: string, cwd: string): string | undefined {
    const folders: string[] = [];
    for (let dir = dirname(file); ; dir = dirname(dir)) {
      folders.unshift(dir);
      if (dir === root || dirname(dir) === dir || !`${dir}${sep}`.startsWith(`${root}${sep}`)) break;
    }
    for (const dir of folders) {
      const patterns = this.patternsOf(dir, root, cwd);
      if (patterns && ignores(patterns, relative(dir, file).split(sep).join('/')))
        return relative(cwd, join(dir, IGNORE_FILE)) || IGNORE_FILE;
    }
    return undefined;
  }

  private patternsOf(dir: string, root: string, cwd: string): Pattern[] | undefined {
    if (this.folders.has(dir)) return this.folders.get(dir);
    const path = join(dir, IGNORE_FILE);
    // A repository's file: read only from inside the folder walked, as a regular file.
    const read = readConfinedText(path, root);
    let patterns: Pattern[] | undefined;
    if (read.problem === undefined) {
      const parsed = parseIgnore(read.text);
      patterns = parsed.patterns;
      for (const p of parsed.problems) this.notes.push(`${relative(cwd, path)}: ${p}`);
    } else if (!/no such file/i.test(read.problem))
      this.notes.push(`${relative(cwd, path)}: ${read.problem}; it is not used`);
    this.folders.set(dir, patterns);
    return patterns;
  }
}

/** The absolute folder among `paths` that holds `file` (the outermost), when the file was found by walking one. */
export function walkedFrom(file: string, paths: string[], cwd: string): string | undefined {
  let found: string | undefined;
  for (const p of paths) {
    const dir = resolve(cwd, p);
    if (file === dir) return undefined;
    if (file.startsWith(`${dir}${sep}`) && (found === undefined || found.length > dir.length)) found = dir;
  }
  return found;
}
