/**
 * A project's remembered environment (core/environmentRule.ts says how it is used), read from
 * `.lpreq/environment.json` in the project folder (the folder of the environment files), where
 * every host keeps it; the sender's session writes it (sender/environmentChoice.ts).
 */
import { join } from 'node:path';
import { readConfinedFile } from './confinedFile';

/**
 * The choice kept for a project folder: a name, null for "no environment", undefined when none
 * is kept or the file cannot be read. Only a regular file of a few bytes inside the project is
 * read: a link out of it, a pipe or anything large is not.
 */
export function readRememberedEnvironment(projectFolder: string): string | null | undefined {
  const read = readConfinedFile(join(projectFolder, '.lpreq', 'environment.json'), projectFolder, 4096);
  if (read.problem !== undefined) return undefined;
  try {
    const value = (JSON.parse(read.bytes.toString('utf8')) as { environment?: unknown }).environment;
    return value === null || (typeof value === 'string' && value.length > 0 && value.length <= 200) ? value : undefined;
  } catch {
    return undefined;
  }
}
