/** Process entry of the command line (bundled to dist/lpreq.js). */
import { main, processIo } from './main';

main(process.argv.slice(2), processIo()).then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`lpreq: internal error: ${(e as Error)?.message ?? String(e)}\n`);
    process.exitCode = 2;
  },
);
