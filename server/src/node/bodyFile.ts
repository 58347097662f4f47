/**
 * Body files of requests (`< ./body.json`): the one place that reads them, for the command
 * line and the editor. A request file is often someone else's (a pull request), and a body
 * file goes wherever the request goes: only files inside the workspace are read.
 */
import { readFileSync, realpathSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path';

/** A body file as read: its text, and its bytes and absolute path when the reader has them; `binary` when the bytes are not text. */
export type BodyFileRead = { text: string; bytes?: Uint8Array; binary?: boolean; path?: string } | { error: string };

/**
 * The folder body files are read from: that of the environment files (the one higher up when
 * the shared and the private file are in different folders, both at or above the request
 * file), or the request file's own folder when there are none.
 */
export function workspaceFolder(
  requestFile: string,
  environmentFiles: { shared?: string; private?: string } = {},
): string {
  const folders = [environmentFiles.shared, environmentFiles.private]
    .filter((f): f is string => f !== undefined)
    .map((f) => dirname(resolve(f)));
  if (folders.length === 0) return dirname(resolve(requestFile));
  return folders.reduce((a, b) => (b.length < a.length ? b : a));
}

/** Reads the body files of `requestFile`: relative to its folder, and only from inside its workspace (workspaceFolder). */
export function bodyFileReader(
  requestFile: string,
  environmentFiles: { shared?: string; private?: string } = {},
): (path: string, encoding: string | undefined) => BodyFileRead {
  const folder = dirname(resolve(requestFile));
  const workspace = workspaceFolder(requestFile, environmentFiles);
  return (path, encoding) => readBodyFile(resolve(folder, path), encoding, workspace);
}

function failure(e: unknown): { error: string } {
  const code = (e as NodeJS.ErrnoException).code;
  return {
    error:
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'a folder, not a file'
          : `cannot be read (${code ?? (e as Error).message})`,
  };
}

/**
 * A body file's bytes, and its text (UTF-8, or `latin1`/`ascii` when `<@latin1` says so),
 * or why it cannot be read. `binary` says the bytes are not UTF-8 (an image, a PDF, a zip):
 * such a file is sent as it is, never through a string. With `workspace`, a file whose real
 * path (symbolic links followed) is outside that folder is not read: `../../`, an absolute
 * path or a link out of it would let a request file send any file of the machine.
 */
export function readBodyFile(path: string, encoding: string | undefined, workspace?: string): BodyFileRead {
  let real = path;
  try {
    if (workspace !== undefined) {
      real = realpathSync(path);
      let root = resolve(workspace);
      try {
        root = realpathSync(root);
      } catch {
        // A workspace folder that cannot be resolved is compared as written.
      }
      const inside = relative(root, real);
      if (inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) {
        return {
          error: `it is outside the workspace (${workspace}): lpreq reads body files only from the folder of the environment files, or of the request file when there are none, and the folders below it`,
        };
      }
    }
    // The real path that was checked is the one read.
    const bytes = readFileSync(real);
    const named = encoding === 'latin1' || encoding === 'ascii' ? encoding : undefined;
    return { text: bytes.toString(named ?? 'utf8'), bytes, binary: named === undefined && !isUtf8(bytes), path };
  } catch (e) {
    return failure(e);
  }
}
