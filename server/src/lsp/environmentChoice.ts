/**
 * The environment chosen with `lpreq.selectEnvironment`, remembered per workspace: in the
 * server for the session, and in `.lpreq/environment.json` of the first workspace folder
 * (git-ignored with the rest of `.lpreq`), read again when the server starts. It wins over
 * the `environment` of initializationOptions, the editor configuration's default: it is the
 * user's later choice. An editor that keeps the choice itself (the VS Code extension, which
 * says `clientLenses`) is not given it.
 */
import { basename, dirname, join } from 'node:path';
import { readConfinedFile, writeConfinedFile } from '../node/index';
import { projectStore } from '../sender/index';

const FILE = 'environment.json';

/** Keeps the choice (`null`: no environment) in the first workspace folder; a failure is a log line. */
export function persistEnvironment(
  roots: readonly string[],
  environment: string | null,
  log: (message: string) => void,
): void {
  const root = roots[0];
  if (root === undefined) return;
  try {
    const path = projectStore(root, FILE);
    // A new file under a random name, renamed into place: a link a repository left in `.lpreq` is never written through.
    writeConfinedFile(dirname(path), basename(path), `${JSON.stringify({ environment })}\n`, { replace: true });
  } catch (e) {
    log(`the chosen environment is not remembered: ${(e as Error).message}`);
  }
}

/** The choice kept in the first workspace folder: a name, null for none, undefined when there is none kept (or it cannot be read). */
export function persistedEnvironment(roots: readonly string[]): string | null | undefined {
  const root = roots[0];
  if (root === undefined) return undefined;
  const path = join(root, '.lpreq', FILE);
  try {
    // A regular file of a few bytes inside the workspace: a link out of it, a pipe or anything large is not read.
    const read = readConfinedFile(path, root, 4096);
    if (read.problem !== undefined) return undefined;
    const value = (JSON.parse(read.bytes.toString('utf8')) as { environment?: unknown }).environment;
    return value === null || (typeof value === 'string' && value.length > 0 && value.length <= 200) ? value : undefined;
  } catch {
    return undefined;
  }
}
