/**
 * The one reader of the files a repository makes lpreq read: `.env`, the environment files,
 * body files (`< ./body.json`), the PEM files of `$tls`, `.lpreqtestignore`, request files
 * found by walking a folder, `.lpreq/environment.json`. A clone is someone else's choice of
 * files: a link may lead anywhere (`.env -> ~/.aws/credentials`), and a FIFO or a device
 * (`/dev/zero`) would block a reader for ever. So a file is read only when its real path
 * (every link resolved) is inside the workspace's real path, and it is a regular file, and
 * it is no larger than the limit; it is opened without following a link and without
 * blocking, checked again on the open descriptor, and read with a bounded read. Nothing here
 * can wait on something that may not return: on the VS Code extension host it never blocks
 * the thread beyond reading a regular file of a bounded size.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync, realpathSync, type Stats } from 'node:fs';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** A file's bytes and the real path they were read from, or why it was not read (a phrase to follow its name). */
export type FileRead =
  | { bytes: Buffer; real: string; problem?: undefined }
  | {
      bytes?: undefined;
      problem: string;
      /** The error's code when one was met (ENOENT, EISDIR, EACCES). */ code?: string;
    };

/** Opened read-only, without waiting on a FIFO's writer or a device, and never through a link put there meanwhile. */
const OPEN_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0);

function sizeText(bytes: number): string {
  return bytes >= 1048576 ? `${Math.round(bytes / 1048576)} MB` : `${Math.ceil(bytes / 1024)} KB`;
}

/** Why a file of this kind is not read, or undefined for a regular file. */
function kindProblem(s: Stats): string | undefined {
  if (s.isFile()) return undefined;
  if (s.isDirectory()) return 'a folder, not a file';
  if (s.isFIFO()) return 'a pipe (FIFO), not a regular file: it is not read';
  if (s.isCharacterDevice() || s.isBlockDevice()) return 'a device, not a regular file: it is not read';
  if (s.isSocket()) return 'a socket, not a regular file: it is not read';
  return 'not a regular file: it is not read';
}

function errorProblem(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'ENOTDIR') return 'no such file (a part of its path is not a folder)';
  if (code === 'EISDIR') return 'a folder, not a file';
  if (code === 'EACCES' || code === 'EPERM') return 'cannot be read (permission denied)';
  if (code === 'ELOOP') return 'a symbolic link that leads back to itself, or changed while it was read';
  if (code === 'EAGAIN' || code === 'EWOULDBLOCK') return 'not a regular file (it would block): it is not read';
  return `cannot be read (${code ?? (e as Error).message})`;
}

/**
 * Reads a regular file of at most `limit` bytes: refuses anything else before opening it for
 * reading, and checks again on the descriptor (a file swapped for a FIFO between the two is
 * refused, not waited on). Reads at most `limit + 1` bytes whatever the file claims.
 */
export function readRegularFile(path: string, limit: number): FileRead {
  let fd: number | undefined;
  try {
    const before = lstatSync(path);
    const kind = before.isSymbolicLink() ? undefined : kindProblem(before);
    if (kind !== undefined) return { problem: kind, code: before.isDirectory() ? 'EISDIR' : 'EINVAL' };
    if (before.size > limit)
      return { problem: `${sizeText(before.size)}, larger than lpreq reads (${sizeText(limit)})` };
    // A link is followed here only when the caller named one (a confined read passes a real path).
    fd = openSync(path, before.isSymbolicLink() ? OPEN_FLAGS & ~(constants.O_NOFOLLOW ?? 0) : OPEN_FLAGS);
    const s = fstatSync(fd);
    const opened = kindProblem(s);
    if (opened !== undefined) return { problem: opened, code: s.isDirectory() ? 'EISDIR' : 'EINVAL' };
    if (s.size > limit) return { problem: `${sizeText(s.size)}, larger than lpreq reads (${sizeText(limit)})` };
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(Math.max(s.size - total, 0) + 1, limit + 1 - total, 1 << 20) || 1);
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      total += n;
      chunks.push(n === chunk.length ? chunk : chunk.subarray(0, n));
      // It grew since it was looked at.
      if (total > limit) return { problem: `larger than lpreq reads (${sizeText(limit)})` };
    }
    return { bytes: Buffer.concat(chunks, total), real: path };
  } catch (e) {
    return { problem: errorProblem(e), code: (e as NodeJS.ErrnoException).code };
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The real path of a folder, or the folder as written when it cannot be resolved (it does not exist yet). */
function realFolder(folder: string): string {
  try {
    return realpathSync(resolve(folder));
  } catch {
    return resolve(folder);
  }
}

/** Whether `real` is `root` or below it (both real, absolute paths). */
function isInside(root: string, real: string): boolean {
  const rel = relative(root, real);
  return rel === '' || (rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/**
 * Reads a file a repository makes lpreq read: `path` with every link resolved must lead to a
 * regular file inside `workspace` (whose real path is compared), of at most `limit` bytes.
 * What it refuses is said in words that name the workspace.
 */
export function readConfinedFile(path: string, workspace: string, limit: number): FileRead {
  let real: string;
  try {
    real = realpathSync(resolve(path));
  } catch (e) {
    return { problem: errorProblem(e), code: (e as NodeJS.ErrnoException).code };
  }
  const root = realFolder(workspace);
  if (!isInside(root, real)) {
    const link = real !== resolve(path) && realFolder(dirname(resolve(path))) !== dirname(real);
    return {
      code: 'EACCES',
      problem: `it is outside the workspace (${workspace})${link ? `: a link to ${real}` : ''}; lpreq reads a repository's files only from inside its workspace`,
    };
  }
  return readRegularFile(real, limit);
}
