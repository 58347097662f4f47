/**
 * The snapshots of one request file on disk: `__snapshots__/<file>/<request>.json` in the
 * file's folder, read through the one confined reader and written through the one confined
 * writer (server/src/node). A repository is someone else's choice of files: a
 * `__snapshots__` that is a link, or a link in its place, is never written through, and a
 * snapshot whose real path leaves the request file's folder is not read. What is written has
 * passed the scrubber (the runner's `takeSnapshot`); the files are meant to be committed
 * (0644).
 */
import { basename, dirname, join, resolve } from 'node:path';
import { confinedFolder, readConfinedFile, writeConfinedFile } from '../node/index';
import type { SnapshotFiles } from './runner/snapshots';
import { SNAPSHOT_FOLDER } from './snapshotFile';

/** The largest snapshot read: a 10 MB body pretty-printed, many times over. */
const MAX_SNAPSHOT_BYTES = 128 * 1024 * 1024;

/**
 * The store of the snapshots of `requestFile` (an absolute or relative path); `shown` is the
 * file as reports name it (the path given on the command line, or relative to the workspace).
 */
export function snapshotFiles(requestFile: string, shown: string = requestFile): SnapshotFiles {
  const folder = dirname(resolve(requestFile));
  const own = basename(requestFile);
  const shownFolder = dirname(shown);
  const parts = [SNAPSHOT_FOLDER, own];
  const fileName = (name: string) => `${name}.json`;
  return {
    display: (name) =>
      join(shownFolder, ...parts, fileName(name))
        .split('\\')
        .join('/'),
    read(name) {
      const read = readConfinedFile(join(folder, ...parts, fileName(name)), folder, MAX_SNAPSHOT_BYTES);
      if (read.problem === undefined) return { text: read.bytes.toString('utf8') };
      if (read.code === 'ENOENT' || read.code === 'ENOTDIR') return { missing: true };
      return { problem: read.problem };
    },
    write(name, text) {
      try {
        const target = confinedFolder(folder, parts);
        writeConfinedFile(target, fileName(name), text, { mode: 0o644, replace: true });
        return {};
      } catch (e) {
        return { problem: (e as Error).message };
      }
    },
  };
}
