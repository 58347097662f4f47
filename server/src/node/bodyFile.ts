/**
 * Body files of requests (`< ./body.json`): the one place that reads them, for the command
 * line and the editor. A request file is often someone else's (a pull request), and a body
 * file goes wherever the request goes: only files inside the workspace are read.
 */
import { isUtf8 } from 'node:buffer';
import { dirname, resolve } from 'node:path';
import { readConfinedFile } from './confinedFile';
import { environmentsFolder } from './environments';

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
  return environmentsFolder([environmentFiles.shared, environmentFiles.private]) ?? dirname(resolve(requestFile));
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

/** A body file is an upload: a video or a course export may be large, but not without end. */
const MAX_BODY_FILE_BYTES = 256 * 1024 * 1024;

/**
 * A body file's bytes, and its text (UTF-8, or `latin1`/`ascii` when `<@latin1` says so),
 * or why it cannot be read. `binary` says the bytes are not UTF-8 (an image, a PDF, a zip):
 * such a file is sent as it is, never through a string. It is read by the confined reader:
 * a file whose real path (symbolic links followed) is outside `workspace` is not read
 * (`../../`, an absolute path or a link out of it would let a request file send any file of
 * the machine), nor a pipe or a device, nor a file larger than 256 MB.
 */
export function readBodyFile(path: string, encoding: string | undefined, workspace: string): BodyFileRead {
  const read = readConfinedFile(path, workspace, MAX_BODY_FILE_BYTES);
  if (read.problem !== undefined) return { error: read.problem };
  const bytes = read.bytes;
  const named = encoding === 'latin1' || encoding === 'ascii' ? encoding : undefined;
  return { text: bytes.toString(named ?? 'utf8'), bytes, binary: named === undefined && !isUtf8(bytes), path };
}
