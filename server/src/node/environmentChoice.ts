/**
 * A project's remembered environment (core/environmentRule.ts says how it is used), read from
 * `.lpreq/environment.json` in the project folder (the folder of the environment files), where
 * every host keeps it; the sender's session writes it (sender/environmentChoice.ts).
 */
import { lstatSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The file, relative to the project folder. */
const REMEMBERED_ENVIRONMENT = join('.lpreq', 'environment.json');

/**
 * The choice kept for a project folder: a name, null for "no environment", undefined when none
 * is kept or the file cannot be read. Only a small regular file is read: a link or anything
 * large is not.
 */
export function readRememberedEnvironment(projectFolder: string): string | null | undefined {
  const path = join(projectFolder, REMEMBERED_ENVIRONMENT);
  try {
    const stat = lstatSync(path);
    if (!stat.isFile() || stat.size > 4096) return undefined;
    const value = (JSON.parse(readFileSync(path, 'utf8')) as { environment?: unknown }).environment;
    return value === null || (typeof value === 'string' && value.length > 0 && value.length <= 200) ? value : undefined;
  } catch {
    return undefined;
  }
}
