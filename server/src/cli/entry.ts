/**
 * Entry of the command line's bundle (dist/lpreq.js). Like the other bundles it exports
 * `run(argv, io)`; bin/lpreq.js gives it the process's streams (bin/loadBundle.js processIo).
 */
import type { Io } from './check';
import { main } from './main';

export function run(argv: string[], io: Io): Promise<number> {
  return main(argv, io);
}
