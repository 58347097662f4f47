/** Body files of requests (`< ./body.json`): the one place that reads them, for the command line and the editor. */
import { readFileSync } from 'node:fs';
import { isUtf8 } from 'node:buffer';
import type { BodyFileRead } from '../sender/prepare';

/**
 * A body file's bytes, and its text (UTF-8, or `latin1`/`ascii` when `<@latin1` says so),
 * or why it cannot be read. `binary` says the bytes are not UTF-8 (an image, a PDF, a zip):
 * such a file is sent as it is, never through a string.
 */
export function readBodyFile(path: string, encoding: string | undefined): BodyFileRead {
  try {
    const bytes = readFileSync(path);
    const named = encoding === 'latin1' || encoding === 'ascii' ? encoding : undefined;
    return { text: bytes.toString(named ?? 'utf8'), bytes, binary: named === undefined && !isUtf8(bytes), path };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { error: code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : `cannot be read (${code ?? (e as Error).message})` };
  }
}
