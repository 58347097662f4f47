/**
 * Where a project's remembered environment is kept (environmentRule.ts says how it is used):
 * `.lpreq/environment.json` in the project folder, beside the history, for every host.
 */
import { lstatSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectStore } from './setup';

/**
 * Where a project's remembered choice is kept. Every host uses the same file,
 * `.lpreq/environment.json` in the project folder (the folder of the environment files, where
 * the history is), so that the status bar, `lpreq send` and the language server agree; a
 * host's tests may give another.
 */
export interface EnvironmentMemory {
  /** The choice kept for a project folder: a name, null for none, undefined when none is kept. */
  read(projectFolder: string): string | null | undefined;
  /** Keeps a choice; throws when it cannot be written. */
  write(projectFolder: string, choice: string | null): void;
}

const FILE = 'environment.json';

/** The project's `.lpreq/environment.json`: written whole (a new file renamed into place), read only when it is a small regular file. */
export const projectMemory: EnvironmentMemory = {
  read(projectFolder) {
    const path = join(projectFolder, '.lpreq', FILE);
    try {
      // A regular file of a few bytes: a link or anything large is not read.
      const stat = lstatSync(path);
      if (!stat.isFile() || stat.size > 4096) return undefined;
      const value = (JSON.parse(readFileSync(path, 'utf8')) as { environment?: unknown }).environment;
      return value === null || (typeof value === 'string' && value.length > 0 && value.length <= 200)
        ? value
        : undefined;
    } catch {
      return undefined;
    }
  },
  write(projectFolder, choice) {
    const path = projectStore(projectFolder, FILE);
    const temporary = `${path}.tmp-${process.pid}`;
    writeFileSync(temporary, `${JSON.stringify({ environment: choice })}\n`, { mode: 0o600 });
    renameSync(temporary, path);
  },
};

/** A memory held in this process only (tests, and a host that keeps nothing on disk). */
export function memoryInProcess(): EnvironmentMemory {
  const kept = new Map<string, string | null>();
  return {
    read: (folder) => kept.get(folder),
    write: (folder, choice) => void kept.set(folder, choice),
  };
}
