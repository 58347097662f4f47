/**
 * The one writer of what lpreq writes under a workspace (`.lpreq/.gitignore`, `.lpreq/history`,
 * `.lpreq/responses`, `.lpreq/environment.json`). A clone may hold links anywhere under it: a
 * committed `.lpreq/history -> ~/.ssh` or `.lpreq/environment.json.tmp-1234 -> ~/.bashrc`
 * would make lpreq write outside the workspace. So every folder from the workspace down is
 * looked at without following links and must be a real folder (made 0700 when missing), and a
 * file is always created anew, exclusively (O_EXCL: an existing name, a link included, is
 * never opened), under a random name in that folder, then renamed into place (a rename
 * replaces a link at the final name; it never writes through it). The workspace folder
 * itself is the user's choice and may be reached through a link.
 */
import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

/** Something under the workspace is not what lpreq writes into: the message names it. */
class ConfinedWriteError extends Error {}

/**
 * The folder `parts` below `workspace`, made where missing (0700), with every level checked
 * not to be a link or anything but a folder. Returns its path; throws a ConfinedWriteError.
 */
export function confinedFolder(workspace: string, parts: readonly string[]): string {
  let folder = resolve(workspace);
  for (const part of parts) {
    if (part === '' || part === '.' || part === '..' || part.includes('/') || part.includes(sep))
      throw new ConfinedWriteError(`${part}: not a name of a folder lpreq writes into`);
    folder = join(folder, part);
    try {
      mkdirSync(folder, { mode: 0o700 });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const stat = lstatSync(folder);
    if (stat.isSymbolicLink() || !stat.isDirectory())
      throw new ConfinedWriteError(
        `${folder} is ${stat.isSymbolicLink() ? 'a symbolic link' : 'not a folder'}: lpreq writes only into folders of its own inside the workspace, and writes nothing there`,
      );
  }
  return folder;
}

/** The names of the folders from `workspace` down to `folder`, which must be inside it. */
export function partsBelow(workspace: string, folder: string): string[] {
  const rel = relative(resolve(workspace), resolve(folder));
  if (rel === '') return [];
  if (rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel))
    throw new ConfinedWriteError(`${folder} is not inside the workspace ${workspace}`);
  return rel.split(sep);
}

export interface WriteOptions {
  /** The file's mode: 0600 unless said. */
  mode?: number;
  /** Replace a file of that name (renamed over it); otherwise an existing name is left as it is and EEXIST thrown. */
  replace?: boolean;
}

/** A new file's name in `folder`, never one that exists: a random part, created exclusively. */
function temporaryName(folder: string, name: string): string {
  return join(folder, `.${name}.tmp-${process.pid}-${randomBytes(6).toString('hex')}`);
}

/**
 * Writes `data` as `name` in `folder` (a folder checked by `confinedFolder`): a new file made
 * exclusively under a random name, flushed, then renamed over `name` (`replace`) or linked to
 * it only if the name is free. Returns the file's path.
 */
export function writeConfinedFile(
  folder: string,
  name: string,
  data: string | Uint8Array,
  options: WriteOptions = {},
): string {
  if (name === '' || name === '.' || name === '..' || name.includes('/') || name.includes(sep))
    throw new ConfinedWriteError(`${name}: not a file name lpreq writes`);
  const path = join(folder, name);
  const temporary = temporaryName(folder, name);
  const fd = openSync(temporary, 'wx', options.mode ?? 0o600);
  try {
    try {
      writeSync(fd, typeof data === 'string' ? Buffer.from(data, 'utf8') : data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    if (options.replace) replaceWith(temporary, path);
    else {
      // Only if the name is free: a rename would replace what is there.
      const existing = tryLstat(path);
      if (existing) throw Object.assign(new Error(`${path} exists`), { code: 'EEXIST' });
      renameSync(temporary, path);
    }
  } catch (e) {
    rmSync(temporary, { force: true });
    throw e;
  }
  return path;
}

function tryLstat(path: string) {
  try {
    return lstatSync(path);
  } catch {
    return undefined;
  }
}

/** Renames over `path`; a system that will not rename over a read-only file gets the old one removed first. */
function replaceWith(temporary: string, path: string): void {
  try {
    renameSync(temporary, path);
  } catch (e) {
    const old = tryLstat(path);
    if (!old || old.isSymbolicLink() || !old.isFile()) throw e;
    chmodSync(path, 0o600);
    rmSync(path, { force: true });
    renameSync(temporary, path);
  }
}
