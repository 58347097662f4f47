/**
 * Where a project's remembered environment is kept (core/environmentRule.ts says how it is
 * used): `.lpreq/environment.json` in the project folder, beside the history, for every host.
 */
import { basename, dirname } from 'node:path';
import { readRememberedEnvironment, writeConfinedFile } from '../node/index';
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

/**
 * The project's `.lpreq/environment.json`, read by the node helpers' confined reader and
 * written by the confined writer: a new file under a random name, renamed into place, so that
 * a link a repository left in `.lpreq` is never written through.
 */
export const projectMemory: EnvironmentMemory = {
  read: readRememberedEnvironment,
  write(projectFolder, choice) {
    const path = projectStore(projectFolder, 'environment.json');
    writeConfinedFile(dirname(path), basename(path), `${JSON.stringify({ environment: choice })}\n`, { replace: true });
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
