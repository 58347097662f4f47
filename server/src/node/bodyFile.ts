/** Body files of requests (`< ./body.json`): the one place that reads them, for the command line and the editor. */
import { readFileSync } from 'node:fs';

/** A body file's text (UTF-8, or `latin1`/`ascii` when `<@latin1` says so), or why it cannot be read. */
export function readBodyFile(path: string, encoding: string | undefined): { text: string } | { error: string } {
  try {
    return { text: readFileSync(path, encoding === 'latin1' || encoding === 'ascii' ? encoding : 'utf8') };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return { error: code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'a folder, not a file' : `cannot be read (${code ?? (e as Error).message})` };
  }
}
