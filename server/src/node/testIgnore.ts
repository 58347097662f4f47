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

/**
 * A pattern's pieces. It is matched by walking them over the path with the set of places
 * reached (matchGlob), in time proportional to the pattern's length times the path's: a
 * pattern is the repository's, and as a regular expression `**a**a**a...b` on a long path
 * would backtrack for ever (in the editor, on the extension host's thread).
 */
type Piece =
  | { kind: 'char'; char: string }
  /** `?`: one character, not `/`. */
  | { kind: 'one' }
  /** `*`: any characters but `/`. */
  | { kind: 'star' }
  /** `**`: any characters. */
  | { kind: 'any' }
  /** `**` and a slash: any number of folders, none included. */
  | { kind: 'folders' };

interface Pattern {
  pieces: Piece[];
  /** A pattern without `/` (but a trailing one) matches a name at any depth. */
  anywhere: boolean;
  /** Written with a trailing `/`: only folders. */
  folder: boolean;
}

function piecesOf(glob: string): Piece[] {
  const out: Piece[] = [];
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      if (glob[i + 2] === '/') {
        out.push({ kind: 'folders' });
        i += 2;
      } else {
        out.push({ kind: 'any' });
        i += 1;
      }
    } else if (c === '*') out.push({ kind: 'star' });
    else if (c === '?') out.push({ kind: 'one' });
    else out.push({ kind: 'char', char: c });
  }
  return out;
}

/** Whether the whole of `text` matches the pieces: the places reached after each piece, as a set. */
function matchGlob(pieces: readonly Piece[], text: string): boolean {
  const n = text.length;
  let reached = new Uint8Array(n + 1);
  reached[0] = 1;
  for (const piece of pieces) {
    const next = new Uint8Array(n + 1);
    let any = false;
    for (let i = 0; i <= n; i++) {
      const here = reached[i] === 1;
      switch (piece.kind) {
        case 'char':
          if (here && i < n && text[i] === piece.char) next[i + 1] = 1;
          break;
        case 'one':
          if (here && i < n && text[i] !== '/') next[i + 1] = 1;
          break;
        case 'star':
          // Reached here, or carried on from the place before over a character that is not `/`.
          if (here || (i > 0 && next[i - 1] === 1 && text[i - 1] !== '/')) next[i] = 1;
          break;
        case 'any':
          if (here || (i > 0 && next[i - 1] === 1)) next[i] = 1;
          break;
        case 'folders':
          // None, or up to and including any later `/`.
          if (here) {
            next[i] = 1;
            any = true;
          } else if (any && i > 0 && text[i - 1] === '/') next[i] = 1;
          break;
      }
    }
    reached = next;
  }
  return reached[n] === 1;
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
    patterns.push({ pieces: piecesOf(body), anywhere: !inner.includes('/'), folder });
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
      if (matchGlob(p.pieces, candidate)) return true;
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
