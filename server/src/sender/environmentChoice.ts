/**
 * Where a project's remembered environment is kept (core/environmentRule.ts says how it is
 * used): `.lpreq/environment.json` in the project folder, beside the history, for every host.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { readRememberedEnvironment } from '../node/index';
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

/** The project's `.lpreq/environment.json`: written whole (a new file renamed into place), read by the node helpers' reader. */
export const projectMemory: EnvironmentMemory = {
  read: readRememberedEnvironment,
  write(projectFolder, choice) {
    const path = projectStore(projectFolder, 'environment.json');
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
